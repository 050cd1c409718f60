import CLITestSupport
import Foundation
import Guidance
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing

/// `drivesim explore` (docs/explore.md). Scope 2 runs in about a second in a
/// debug build, so the sweeps here use it; the full scope-3 sweep of every
/// mutant is a CI step in a release build (`.ci/run`).
@Suite struct ExploreTests {
    /// The exploration of `scope` with `mutant` (nil: the reference) on two workers.
    static func explore(scope: Int, mutant: TalkArbiter.Fault?, jobs: Int = 2) -> Explorer.Outcome {
        var settings = Fuzzer.Settings()
        settings.fault = mutant
        return Explorer.run(scope: scope, settings: settings, jobs: jobs) { _ in true }
    }

    @Test func theGridHasTheSameCountsOnEveryMachine() {
        // Pinned: a change to the grid, the pieces or the variants changes them, and docs/explore.md says so.
        #expect(Explorer.counts(scope: 2, jobs: 2) == [14, 1_910])
    }

    @Test func theReferencePassesEveryScenarioOfScope2AndEveryRuleFires() {
        let outcome = Self.explore(scope: 2, mutant: nil)
        #expect(outcome.sizes.map(\.scenarios) == [14, 1_910])
        #expect(outcome.sizes.map(\.failed) == [0, 0])
        for rule in Rule.allCases { #expect(outcome.fuzzer.rulesFired[rule] > 0, "\(rule.rawValue) never fired") }
    }

    @Test func noMultisetOfItemsIsRunTwiceAndItemsAreInCanonicalOrder() {
        let points = Explorer.points(size: 2, jobs: 2)
        for point in points {
            #expect(point.items == point.items.sorted(), "\(point.items)")
            #expect(point.items.first?.at == .zero, "the first item is at 0")
        }
        // Two points with the same settings and items would be the same scenario.
        let keys = points.map {
            "\($0.variant) "
                + $0.items.map { "\($0.piece.name)@\($0.at.ms)/\($0.expires?.ms ?? -1)" }.joined(separator: " ")
        }
        #expect(Set(keys).count == keys.count)
        let invalid = points.filter { !$0.scenario(name: "x").isValid }
        #expect(invalid.isEmpty)
    }

    @Test func aSettingsVariantRunsOnlyWhereItCanChangeSomething() throws {
        let skip = try #require(Explorer.variants.firstIndex { $0.name == "afterCut skip" })
        #expect(!Explorer.Point(variant: skip, items: [.init(piece: .line, at: .zero)]).isRelevant)
        #expect(!Explorer.Point(variant: skip, items: [.init(piece: .reply, at: .zero)]).isRelevant)
        #expect(
            Explorer.Point(variant: skip, items: [.init(piece: .line, at: .zero), .init(piece: .reply, at: .zero)])
                .isRelevant)
        #expect(Explorer.Point(variant: 0, items: [.init(piece: .utterance, at: .zero)]).isRelevant)
    }

    @Test func theGridPutsALineOnEachSideOfTheWaitLimitAndTheEarsTail() throws {
        // One stretch of 4 s from 0: a line at 999, 1000 and 1001 ms has 3001, 3000 and 2999 ms left.
        let reply = Explorer.Point(variant: 0, items: [.init(piece: .reply, at: .zero)])
        let lineTimes = Set(Explorer.children(of: reply).filter { $0.items[1].piece == .line }.map(\.items[1].at.ms))
        // (Not at 0: at one instant a line comes before a reply, so that scenario starts with the line.)
        #expect(lineTimes == [999, 1_000, 1_001, 4_000])
        // A line of 1 s from 0: Dad at 1499, 1500 and 1501 ms, around the ears' reopening.
        let line = Explorer.Point(variant: 0, items: [.init(piece: .line, at: .zero)])
        let dadTimes = Set(Explorer.children(of: line).filter { $0.items[1].piece == .utterance }.map(\.items[1].at.ms))
        #expect(dadTimes == [0, 1_000, 1_499, 1_500, 1_501])
    }

    /// Every talk mutant but `reply-queue-lifo`, which needs three replies.
    static let caughtAtScope2 = TalkArbiter.Fault.allCases.filter { $0 != .replyQueueLIFO }

    /// CI's explore step (Benchmarks/explore-mutants.sh) checks each from the command line too.
    @Test(.fullRunOnly, arguments: caughtAtScope2)
    func scope2CatchesTheMutant(_ fault: TalkArbiter.Fault) {
        #expect(Self.explore(scope: 2, mutant: fault).fuzzer.failedRuns > 0, "\(fault.rawValue) survived scope 2")
    }

    @Test(.fullRunOnly) func threeRepliesOfScope3CatchTheLastInFirstOutQueue() {
        // The part of scope 3 that is replies alone, checked as the exploration checks it.
        let replies: Set<Explorer.Piece> = [.reply, .replyChunkBefore, .replyChunkAt, .replyChunkAfter]
        let parents = Explorer.points(size: 2, jobs: 2).filter { $0.items.allSatisfy { replies.contains($0.piece) } }
        let points = parents.flatMap(Explorer.children(of:)).filter {
            $0.isRelevant && replies.contains($0.items[2].piece)
        }
        #expect(points.count > 100)
        let failing = points.filter { !Fuzzer.violations(of: $0.scenario(name: "x"), fault: .replyQueueLIFO).isEmpty }
        #expect(!failing.isEmpty)
        let reference = points.filter { !Fuzzer.violations(of: $0.scenario(name: "x"), fault: nil).isEmpty }
        #expect(reference.isEmpty)
    }

    @Test func theResultsAreTheSameOnOneWorkerAndOnFour() {
        let one = Self.explore(scope: 2, mutant: .waitLimitLoose, jobs: 1)
        let four = Self.explore(scope: 2, mutant: .waitLimitLoose, jobs: 4)
        #expect(one.sizes == four.sizes)
        #expect(one.fuzzer.failures.map(\.run) == four.fuzzer.failures.map(\.run))
        #expect(one.fuzzer.failures.map(\.scenario) == four.fuzzer.failures.map(\.scenario))
    }

    @Test func shardsCheckDisjointPartsThatMakeTheWhole() {
        var settings = Fuzzer.Settings()
        settings.fault = .earsEarly
        let whole = Explorer.run(scope: 2, settings: settings, jobs: 2) { _ in true }
        var failed = 0
        var checked = 0
        for i in 1...3 {
            settings.shard = (i, 3)
            let part = Explorer.run(scope: 2, settings: settings, jobs: 2) { _ in true }
            #expect(part.sizes.map(\.scenarios) == whole.sizes.map(\.scenarios))
            #expect(part.fuzzer.failures.allSatisfy { $0.run % 3 == i - 1 })
            failed += part.fuzzer.failedRuns
            checked += part.fuzzer.runsDone
        }
        #expect(failed == whole.fuzzer.failedRuns)
        #expect(checked == whole.fuzzer.runsDone)
    }

    @Test func aMillisecondMutantsReproducerReplaysAsPrintedAndPassesWithoutIt() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim(
            "explore", "--scope", "2", "--jobs", "2", "--mutant", "wait-limit-loose", "--out", folder)
        #expect(result.code == 1)
        #expect(result.stdout.contains("scope 1: 14 scenarios, 0 failures\n"))
        #expect(result.stdout.contains("scope 2: 1910 scenarios, "))
        // `  shrunk to 2 items in 5 tries: drivesim run DIR/FILE --mutant wait-limit-loose`
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("shrunk to") })
        let replay = try #require(line.split(separator: ": ", maxSplits: 1).last).split(separator: " ").map(String.init)
        #expect(replay.first == "drivesim")
        #expect(replay.last == "wait-limit-loose")
        let file = replay[2]
        #expect(file.hasPrefix(folder + "/") && file.contains("-wait-limit-loose-explore-"))
        #expect(Fixtures.drivesim(Array(replay.dropFirst())).code == 1, "replays the failure")
        #expect(Fixtures.drivesim("run", file).code == 0, "the real arbiter passes it")
        let scenario = try ScenarioDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        #expect(scenario.name.hasPrefix("explore scenario "))
        #expect(scenario.description?.contains("Found by drivesim explore --scope 2, scenario ") == true)
        #expect(Shrinker.size(of: scenario) <= 2)
    }

    @Test func theReferenceExitsZeroAndBadArgumentsExitTwo() throws {
        let result = Fixtures.drivesim("explore", "--scope", "1", "--jobs", "1")
        #expect(result.code == 0)
        #expect(result.stdout.contains("scope 1: 14 scenarios, 0 failures\n"))
        #expect(Fixtures.drivesim("explore", "--scope", "0").code == 2)
        #expect(Fixtures.drivesim("explore", "--scope", "5").code == 2)
        #expect(Fixtures.drivesim("explore", "--scope", "x").code == 2)
        #expect(Fixtures.drivesim("explore", "--shard", "3/2").code == 2)
        #expect(Fixtures.drivesim("explore", "--mutant", "jump-trusted").code == 2, "a road mutant")
        #expect(Fixtures.drivesim("explore", "--mutant", "ears-erly").stderr.contains("ears-early"))
        #expect(Fixtures.drivesim("explore", "extra").code == 2)
    }
}

extension Fixtures {
    /// `drivesim(_:)` with the arguments as an array.
    static func drivesim(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        var console = Console.captured
        let code = Drivesim.main(arguments, console: &console)
        return (code, console.stdout, console.stderr)
    }
}

/// `drivesim explore --ties FILE`.
@Suite struct TieReportTests {
    @Test func twoLinesOfOneInstantInTheOtherOrderSwapWhichIsSupersededAndASecondLaterSavesIt() throws {
        let scenario = try Fixtures.scenario("superseded-same-instant")
        let report = TieReport(scenario)
        #expect(report.orders == 1)
        #expect(report.shifts == 4)
        #expect(report.broken.isEmpty)
        let swapped = report.changes.filter { $0.under == "order g2, g1 at 00:01.000" }
        #expect(
            swapped == [
                TieReport.Change(
                    under: "order g2, g1 at 00:01.000", item: "g1", was: "guidance.dropped (superseded)",
                    became: "guidance.started, guidance.ended"),
                TieReport.Change(
                    under: "order g2, g1 at 00:01.000", item: "g2", was: "guidance.started, guidance.ended",
                    became: "guidance.dropped (superseded)"),
            ])
        #expect(report.changes.contains { $0.under == "g1 requested -1 ms" && $0.item == "g1" })
    }

    @Test func aLineAtExactlyWaitLimitCutsTheStretchOneMillisecondEarlier() throws {
        let report = TieReport(try Fixtures.scenario("short-wait-at-limit"))
        #expect(report.orders == 0)
        let change = try #require(report.changes.first { $0.under == "g1 requested -1 ms" && $0.item == "g1" })
        #expect(change.was.hasPrefix("guidance.waiting (short-wait, s1)"))
        #expect(change.became == "guidance.started, guidance.ended")
        // A millisecond later still waits: nothing changes for g1.
        #expect(!report.changes.contains { $0.under == "g1 requested +1 ms" })
    }

    @Test func aGroupAboveSixItemsIsReportedNotSkippedInSilenceAndTheCountsAreKnownBeforeTheRuns() throws {
        var scenario = try Fixtures.scenario("superseded-same-instant")
        let seven = (1...7).map { GuidanceLine(id: "x\($0)", at: SimTime(ms: 20_000), duration: SimTime(ms: 500)) }
        scenario.guidance += seven
        var streamed = 0
        var progress: [Int] = []
        let report = TieReport(
            scenario,
            progress: { done, total in
                progress.append(done)
                #expect(total == 1 + 2 * 9)
            }
        ) { _ in streamed += 1 }
        #expect(report.oversized.map(\.items) == [7] && report.oversized.map(\.at) == [SimTime(ms: 20_000)])
        #expect(
            report.orders == TieReport.orderCount(of: scenario) && report.shifts == TieReport.shiftCount(of: scenario))
        #expect(progress == Array(1...19) && streamed == report.changed && report.changes.isEmpty)
        let file = Fixtures.write(
            String(decoding: ScenarioEncoder.encode(scenario), as: UTF8.self), "seven.json",
            in: try Fixtures.temporaryFolder())
        let result = Fixtures.drivesim("explore", "--ties", file)
        #expect(
            result.stdout.contains("not run in every order: the 7 items at 00:20.000 (more than 6 in one instant)"),
            "\(result.stdout)")
    }

    @Test func everyPermutationOnceTheFilesFirst() {
        #expect(TieReport.permutations(3) == [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    }

    @Test func theCommandPrintsATableAndRefusesWhatItCannotUse() throws {
        let result = Fixtures.drivesim("explore", "--ties", Fixtures.path("Scenarios/superseded-same-instant.json"))
        #expect(result.code == 0)
        // The counts first, the rows as found, the changes counted last.
        #expect(
            result.stdout.hasPrefix(
                "drivesim explore --ties \(Fixtures.path("Scenarios/superseded-same-instant.json")): 1 order, 4 shifts\n"
            ))
        #expect(result.stdout.hasSuffix("|\n\n8 changed outcomes\n"), "\(result.stdout)")
        #expect(result.stdout.contains("| under | item | was | became |\n|---|---|---|---|\n"))
        #expect(
            result.stdout.contains(
                "| order g2, g1 at 00:01.000 | g1 | guidance.dropped (superseded) | guidance.started, guidance.ended |\n"
            ))
        #expect(Fixtures.drivesim("explore", "--ties", "/nonexistent.json").code == 2)
        #expect(
            Fixtures.drivesim("explore", "--ties", Fixtures.path("Scenarios/short-wait.json"), "--scope", "2").code == 2
        )
    }
}
