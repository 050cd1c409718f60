import CLITestSupport
import Foundation
import TalkArbiter
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

@Suite struct FuzzTests {
    @Test func theSameSeedMakesTheSameCampaign() {
        for run in 0..<200 {
            let a = Fuzzer.scenario(campaign: 7, run: run, fault: nil)
            let b = Fuzzer.scenario(campaign: 7, run: run, fault: nil)
            #expect(ScenarioEncoder.encode(a) == ScenarioEncoder.encode(b), "run \(run)")
        }
        let other = (0..<20).filter {
            Fuzzer.scenario(campaign: 7, run: $0, fault: nil) != Fuzzer.scenario(campaign: 8, run: $0, fault: nil)
        }
        #expect(other.count == 20, "another seed, another campaign")
    }

    @Test(arguments: [1, 2, 3, 7])
    func shardsSplitACampaignIntoDisjointPartsThatCoverIt(count: Int) {
        var seen: [Int] = []
        for index in 1...count {
            var settings = Fuzzer.Settings()
            settings.runs = 1_000
            settings.shard = (index, count)
            seen += Array(Fuzzer(settings).runIndices)
        }
        #expect(seen.sorted() == Array(0..<1_000))
    }

    @Test func everyGeneratedScenarioIsValidAndRoundTrips() throws {
        for run in 0..<500 {
            let scenario = Fuzzer.scenario(campaign: 1, run: run, fault: nil)
            let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "run \(run)")
            #expect(decoded == scenario, "run \(run)")
        }
    }

    @Test func theArbiterPassesACampaign() {
        var settings = Fuzzer.Settings()
        settings.runs = 3_000
        var fuzzer = Fuzzer(settings)
        for index in fuzzer.runIndices { fuzzer.run(index) }
        #expect(fuzzer.failures.isEmpty, "\(fuzzer.failures.first.map { "run \($0.run): \($0.violation)" } ?? "")")
        #expect(fuzzer.rulesFired.neverFired.isEmpty, "the generator reaches every rule")
    }

    /// The check each mutant is meant to trip first in a campaign of seed 1
    /// (docs/fuzzing.md), and the other checks that campaign must trip too.
    static let caughtBy: [TalkArbiter.Fault: (first: Check, also: [Check])] = [
        .earsEarly: (.invariant(2), []),
        .urgentWaits: (.decision(.longCut), [.invariant(3)]),
        .waitLimitStrict: (.invariant(5), [.decision(.longCut)]),
        .waitLimitLoose: (.invariant(4), [.decision(.shortWait)]),
        .urgentNotAhead: (.rule(.guidanceQueue), []),
        .supersedingIgnored: (.rule(.superseded), []),
        .staleIgnored: (.rule(.stale), []),
        .heldIgnored: (.invariant(1), []),
        .repeatSkips: (.rule(.afterCut), []),
        .bargeInWhilePlayingOnly: (.decision(.bargeIn), []),
        .replyQueueLIFO: (.rule(.replyQueue), []),
    ]

    @Test func everyMutantHasTheCheckItIsMeantToTrip() {
        #expect(Set(Self.caughtBy.keys) == Set(TalkArbiter.Fault.allCases))
    }

    @Test(arguments: TalkArbiter.Fault.allCases)
    func everyMutantIsCaughtByItsCheckAndShrunkToAtMostFourItems(fault: TalkArbiter.Fault) throws {
        let expected = try #require(Self.caughtBy[fault])
        var settings = Fuzzer.Settings()
        settings.fault = fault
        var fuzzer = Fuzzer(settings)
        for index in 0..<10_000 where fuzzer.failures.count < FuzzCommand.candidates { fuzzer.run(index) }
        let first = try #require(fuzzer.failures.first, "\(fault.rawValue) survived 10,000 runs of seed 1")
        #expect(first.violation.check == expected.first, "\(fault.rawValue) first broke \(first.violation.check)")
        for check in expected.also {
            #expect(fuzzer.failuresPerCheck[check, default: 0] > 0, "\(fault.rawValue) never broke \(check)")
        }
        let failing = fuzzer.failures.filter { $0.violation.check == first.violation.check }
        let smallest = failing.map { failure -> Scenario in
            var shrinker = Shrinker(check: failure.violation.check, fault: fault)
            return shrinker.shrink(failure.scenario)
        }.min { Shrinker.size(of: $0) < Shrinker.size(of: $1) }!
        #expect(Shrinker.size(of: smallest) <= 4, "\(fault.rawValue): \(Shrinker.size(of: smallest)) items")
        #expect(Fuzzer.violations(of: smallest, fault: fault).contains { $0.check == first.violation.check })
        #expect(Fuzzer.violations(of: smallest, fault: nil).isEmpty, "the reproducer fails because of the mutant only")
    }

    @Test func onlyTheFirstFailuresOfEachCheckAreKeptTheRestCounted() {
        var settings = Fuzzer.Settings()
        settings.fault = .urgentWaits
        settings.keptPerCheck = 2
        var fuzzer = Fuzzer(settings)
        for index in 0..<400 { fuzzer.run(index) }
        let checks = Set(fuzzer.failures.map(\.violation.check))
        #expect(fuzzer.failedRuns > fuzzer.failures.count, "\(fuzzer.failedRuns) failed, \(fuzzer.failures.count) kept")
        for check in checks {
            #expect(fuzzer.failures.filter { $0.violation.check == check }.count <= 2, "\(check)")
        }
        #expect(fuzzer.failures.map(\.run) == fuzzer.failures.map(\.run).sorted(), "the first ones, in run order")
    }

    @Test func aShrunkScenarioIsOneMinimal() throws {
        var settings = Fuzzer.Settings()
        settings.fault = .urgentWaits
        var fuzzer = Fuzzer(settings)
        for index in 0..<2_000 where fuzzer.failures.isEmpty { fuzzer.run(index) }
        let failure = try #require(fuzzer.failures.first)
        var shrinker = Shrinker(check: failure.violation.check, fault: .urgentWaits)
        let small = shrinker.shrink(failure.scenario)
        for i in small.guidance.indices {
            var fewer = small
            fewer.guidance.remove(at: i)
            let stillFails = shrinker.fails(fewer)
            #expect(!stillFails, "line \(i) could go")
        }
        for i in small.replies.indices {
            var fewer = small
            fewer.replies.remove(at: i)
            let stillFails = shrinker.fails(fewer)
            #expect(!stillFails, "reply \(i) could go")
        }
    }

    @Test func aMutantCampaignWritesReproducersThatRunReplays() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim("fuzz", "--mutant", "wait-limit-strict", "--runs", "2000", "--out", folder)
        #expect(result.code == 1)
        #expect(result.stdout.hasPrefix("drivesim fuzz: seed 1, runs 2000, shard 1/1, mutant wait-limit-strict"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!files.isEmpty && files.allSatisfy { $0.hasSuffix(".json") && !$0.hasPrefix(".") }, "\(files)")
        let file = folder + "/" + files.sorted()[0]
        #expect(Fixtures.drivesim("run", file, "--mutant", "wait-limit-strict").code == 1)
        #expect(Fixtures.drivesim("run", file).code == 0)
    }

    @Test func aReproducerThatCannotBeWrittenIsStillReported() {
        var settings = Fuzzer.Settings()
        settings.fault = .earsEarly
        var fuzzer = Fuzzer(settings)
        for index in 0..<500 where fuzzer.failures.isEmpty { fuzzer.run(index) }
        var console = Console.captured
        let written = FuzzCommand.writeReproducers(fuzzer, folder: "/proc/drivesim-cannot-write", console: &console)
        #expect(written.count == 1 && written[0].1 == nil)
        #expect(console.stderr.contains("FAIL run \(fuzzer.failures[0].run) (seed 1)"))
        #expect(console.stderr.contains("could not write"))
    }

    @Test(arguments: [
        ["--runs", "-1"], ["--runs", "0"], ["--shard", "3/2"], ["--shard", "0/2"], ["--shard", "two"],
        ["--mutant", "ears-erly"],
        ["--out", "/proc/drivesim-cannot-write"], ["--time-limit", "-5"], ["--seed", "x"], ["extra"],
        ["--jobs", "0"], ["--jobs", "abc"], ["--jobs", "-2"], ["--jobs"],
    ])
    func badArgumentsExitTwo(arguments: [String]) {
        var console = Console.captured
        #expect(Drivesim.main(["fuzz"] + arguments, console: &console) == 2)
        #expect(console.stderr.hasPrefix("Error: "))
    }

    @Test func anUnknownMutantGetsASuggestion() {
        #expect(Fixtures.drivesim("fuzz", "--mutant", "ears-erly").stderr.contains("Did you mean 'ears-early'?"))
        let list = Fixtures.drivesim("fuzz", "--list-mutants")
        #expect(list.code == 0)
        #expect(
            list.stdout.split(separator: "\n").map { $0.prefix { $0 != " " } }
                == Mutant.allCases.map { Substring($0.name) })
        #expect(list.stdout.contains("link-queues-busy             breaks road link "))
    }
}
