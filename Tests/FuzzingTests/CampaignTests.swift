import Foundation
import TalkArbiter
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import SimRunner

@Suite struct CampaignTests {
    /// What a fuzzer found, in a form that compares: failures in order, counts, coverage.
    struct Findings: Equatable {
        var runsDone: Int
        var failedRuns: Int
        var failures: [String]
        var perCheck: [String]
        var rulesFired: RuleCoverage

        init(_ fuzzer: Fuzzer) {
            runsDone = fuzzer.runsDone
            failedRuns = fuzzer.failedRuns
            failures = fuzzer.failures.map { "run \($0.run): \($0.violation.check) at \($0.violation.t)" }
            perCheck = Check.all.map { "\($0): \(fuzzer.failuresPerCheck[$0, default: 0])" }
            rulesFired = fuzzer.rulesFired
        }
    }

    /// One fuzzer doing the shard's first `runs` runs in order.
    static func serial(_ settings: Fuzzer.Settings, first runs: Int) -> Findings {
        var fuzzer = Fuzzer(settings)
        for index in fuzzer.runIndices.prefix(runs) { fuzzer.run(index) }
        return Findings(fuzzer)
    }

    /// The campaign's output with the wall-clock rate line left out.
    static func fuzz(_ arguments: [String], jobs: Int, out folder: String) throws -> (
        code: Int32, stdout: String, stderr: String, files: [String: Data]
    ) {
        var console = Console.captured
        let code = Drivesim.main(["fuzz"] + arguments + ["--jobs", "\(jobs)", "--out", folder], console: &console)
        let stderr = console.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains(" runs/s)")
        }
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        return (code, console.stdout, stderr.joined(separator: "\n"), files)
    }

    @Test(arguments: [["--mutant", "held-ignored"], []])
    func fourWorkersPrintAndWriteTheSameBytesAsOne(arguments: [String]) throws {
        let folder = try Fixtures.temporaryFolder()
        let campaign = ["--seed", "1", "--runs", String(TestScale.size(2000, quick: 500))] + arguments
        let one = try Self.fuzz(campaign, jobs: 1, out: folder)
        let four = try Self.fuzz(campaign, jobs: 4, out: folder)
        #expect(one.code == (arguments.isEmpty ? 0 : 1))
        #expect(four.code == one.code)
        #expect(four.stdout == one.stdout)
        #expect(four.stderr == one.stderr)
        #expect(four.files == one.files)
        if !arguments.isEmpty {
            #expect(one.files.count >= 2, "held-ignored breaks several checks: \(one.files.keys.sorted())")
            #expect(one.stdout.contains("reproducers ("))
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func workersMergeTheirRunsInRunOrder(jobs: Int) {
        // With the default cap the merge must keep the same first few failures
        // per check as one fuzzer; with a high one, every failure of every chunk.
        for kept in [Fuzzer.Settings().keptPerCheck, 10_000] {
            var settings = Fuzzer.Settings()
            settings.runs = TestScale.size(1_700, quick: 600)
            settings.shard = (2, 3)
            settings.fault = .staleIgnored
            settings.keptPerCheck = kept
            let outcome = Campaign.run(settings, jobs: jobs) { _ in true }
            #expect(!outcome.stoppedEarly)
            let expected = Self.serial(settings, first: .max)
            #expect(outcome.fuzzer.failedRuns > 10, "the mutant fails in many chunks")
            #expect(Findings(outcome.fuzzer) == expected)
        }
    }

    @Test(arguments: [1, 2])
    func aStoppedCampaignIsTheCampaignOfTheRunsItDid(jobs: Int) {
        var settings = Fuzzer.Settings()
        settings.runs = 1_000_000
        settings.fault = .heldIgnored
        var polls = 0
        let outcome = Campaign.run(settings, jobs: jobs) { _ in
            polls += 1
            return polls < 3
        }
        let done = outcome.fuzzer.runsDone
        #expect(outcome.stoppedEarly)
        #expect(done > 0 && done < settings.runs && done % Campaign.chunkSize == 0, "\(done) runs")
        if jobs == 1 { #expect(done == 3 * Campaign.chunkSize, "one worker polls after each chunk") }
        #expect(Findings(outcome.fuzzer) == Self.serial(settings, first: done))
    }

    @Test func reproducersShrunkInParallelAreTheOnesShrunkOneByOne() {
        var settings = Fuzzer.Settings()
        settings.runs = 400
        settings.fault = .heldIgnored
        let fuzzer = Campaign.run(settings, jobs: 1) { _ in true }.fuzzer
        let one = Campaign.reproducers(of: fuzzer, candidates: 3, jobs: 1)
        let four = Campaign.reproducers(of: fuzzer, candidates: 3, jobs: 4)
        #expect(one.count >= 2)
        #expect(four.map(\.failure.run) == one.map(\.failure.run))
        #expect(four.map(\.scenario) == one.map(\.scenario))
        #expect(four.map(\.tries) == one.map(\.tries))
        #expect(Set(one.map(\.failure.violation.check)).count == one.count, "one reproducer per check")
    }

    @Test func chunksCoverTheShardInOrder() {
        var settings = Fuzzer.Settings()
        settings.runs = 2_001
        settings.shard = (3, 4)
        let chunks = Campaign.chunks(settings)
        #expect(chunks.flatMap { Array($0) } == Array(Fuzzer(settings).runIndices))
        #expect(chunks.dropLast().allSatisfy { Array($0).count == Campaign.chunkSize })
    }
}
