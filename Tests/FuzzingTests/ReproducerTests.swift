import CLITestSupport
import Foundation
import TalkArbiter
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import ScenarioFormat
@testable import SimRunner

@Suite struct ReproducerTests {
    /// The first failure of `fault`'s campaign of seed 1, shrunk, ready to be written.
    static func reproducer(_ fault: TalkArbiter.Fault) throws -> (scenario: Scenario, violation: Violation, run: Int) {
        var settings = Fuzzer.Settings()
        settings.fault = fault
        var fuzzer = Fuzzer(settings)
        for index in 0..<10_000 where fuzzer.failures.isEmpty { fuzzer.run(index) }
        let failure = try #require(fuzzer.failures.first, "\(fault.rawValue) survived")
        let check = failure.violation.check
        var shrinker = Shrinker(check: check, fault: fault)
        let small = shrinker.shrink(failure.scenario)
        let violation = try #require(Fuzzer.violations(of: small, fault: fault).first { $0.check == check })
        let name = ReproducerFile.fileName(check: check, fault: fault, seed: 1, run: failure.run)
        let ready = ReproducerFile.prepare(
            small, check: check, violation: violation, fault: fault, seed: 1, run: failure.run,
            unshrunkSize: Shrinker.size(of: failure.scenario), file: name)
        return (ready, violation, failure.run)
    }

    @Test func aReproducersNameIsTheCheckItBreaksItsMutantSeedAndRun() {
        #expect(
            ReproducerFile.fileName(check: .invariant(3), fault: .urgentWaits, seed: 1, run: 268)
                == "invariant-3-urgent-waits-seed-1-run-268.json")
        #expect(
            ReproducerFile.fileName(check: .rule(.bargeIn), fault: nil, seed: 1, run: 268)
                == "rule-barge-in-seed-1-run-268.json")
        #expect(
            ReproducerFile.fileName(check: .rule(.superseded), fault: nil, seed: 7, run: 0)
                == "rule-superseded-seed-7-run-0.json")
    }

    @Test func onlyAMutantsNoteInTheDescriptionMakesRunAddTheNote() {
        #expect(ReproducerFile.mutant(noted: "x. " + ReproducerFile.mutantNote(.earsEarly)) == .earsEarly)
        #expect(ReproducerFile.mutant(noted: nil) == nil)
        #expect(ReproducerFile.mutant(noted: "Without --mutant ears-early it passes") == nil, "only the whole sentence")
        #expect(
            ReproducerFile.mutant(
                noted: "Without --mutant bogus this scenario passes only because the real arbiter is right") == nil)
    }

    @Test(arguments: TalkArbiter.Fault.allCases)
    func everyMutantsReproducerPinsTheRealArbiterSoTheMutantFailsItsExpectations(fault: TalkArbiter.Fault) throws {
        let (scenario, _, _) = try Self.reproducer(fault)
        #expect(!scenario.expect.isEmpty, "\(fault.rawValue): no expectations")
        let real = Verdict(scenario, fault: nil)
        #expect(
            real.passed, "\(fault.rawValue): the real arbiter fails its own pins: \(real.failures.map(\.matcher.path))")
        #expect(
            !Verdict(scenario, fault: fault).failures.isEmpty, "\(fault.rawValue): the mutant meets every expectation")
        // What is written is what is read back, matchers included.
        let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "reproducer.json")
        #expect(decoded == scenario)
        // Ready to commit: no folder named, the note that it passes only because the arbiter is right.
        let description = try #require(scenario.description)
        #expect(!description.contains("/"), "\(description)")
        #expect(description.contains(ReproducerFile.mutantNote(fault)))
    }

    @Test func aReproducersValuesAreSimplifiedWhereTheFailureSurvives() throws {
        var settings = Fuzzer.Settings()
        settings.fault = .heldIgnored
        var fuzzer = Fuzzer(settings)
        for index in 0..<2_000 where fuzzer.failures.isEmpty { fuzzer.run(index) }
        var failure = try #require(fuzzer.failures.first)
        // Words everywhere, odd settings: none of it matters to this failure.
        for i in failure.scenario.guidance.indices {
            failure.scenario.guidance[i].text = "In 300 m, turn right"
            failure.scenario.guidance[i].language = .en
        }
        for i in failure.scenario.replies.indices {
            for k in failure.scenario.replies[i].stretches.indices {
                failure.scenario.replies[i].stretches[k].text = "음"
            }
        }
        failure.scenario.settings.earsTail.ms = 730
        var shrinker = Shrinker(check: failure.violation.check, fault: .heldIgnored)
        let small = shrinker.shrink(failure.scenario)
        #expect(small.guidance.allSatisfy { $0.text == nil && $0.language == nil })
        #expect(small.replies.allSatisfy { $0.stretches.allSatisfy { $0.text == nil } })
        #expect(small.settings == Scenario.Settings())
        #expect(small.timePaths.allSatisfy { small[time: $0].ms % 100 == 0 }, "times in whole tenths")
    }

    @Test func theFailLineQuotesTheShrunkFilesTimesAndTheFileReplaysThem() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim(
            "fuzz", "--mutant", "urgent-waits", "--runs", "300", "--jobs", "1", "--out", folder)
        #expect(result.code == 1)
        // `FAIL run 2 (seed 1): decision long-cut at 00:04.800: …`: the check and the shrunk file's time.
        let fail = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("FAIL run ") })
        let afterSeed = try #require(fail.components(separatedBy: "): ").dropFirst().first)
        let check = try #require(afterSeed.components(separatedBy: " at ").first)
        let at = try #require(
            afterSeed.components(separatedBy: " at ").dropFirst().first?.components(separatedBy: ": ").first)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let slug = check.replacingOccurrences(of: " ", with: "-")
        let name = try #require(files.first { $0.hasPrefix("\(slug)-urgent-waits-seed-1-run-") }, "\(files)")
        let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        #expect(!text.contains(folder), "the file names no absolute path")
        #expect(text.contains("Breaks \(check) at \(at):"))
        let replay = Fixtures.drivesim("run", folder + "/" + name, "--mutant", "urgent-waits")
        #expect(replay.code == 1)
        #expect(replay.stderr.contains("\(check) broken at \(at)"))
        #expect(replay.stderr.contains("expect["))  // the pinned correct behaviour fails too
        #expect(!replay.stderr.contains("note:"))
        let plain = Fixtures.drivesim("run", folder + "/" + name)
        #expect(plain.code == 0)
        #expect(
            plain.stderr
                == "note: a reproducer of mutant urgent-waits; it passes only because the real arbiter is right "
                + "(replay the failure with --mutant urgent-waits)\n")
    }
}
