import CLITestSupport
import Foundation
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import ScenarioFormat
@testable import SimRunner

@Suite struct RoadFuzzTests {
    /// The road check each road mutant is meant to trip (docs/fuzzing.md#road-mutants), and
    /// within how many runs of seed 1 it must (each is caught well before).
    static let caughtBy: [String: Check] = [
        "link-through-outage": .road(.linkHonest),
        "link-no-timeout": .road(.linkHonest),
        "link-queues-busy": .road(.link),
        "jump-trusted": .road(.jumpDropped),
        "expiry-ignored": .road(.lineAfterManeuver),
        "now-skipped-silently": .road(.nowLine),
        "distance-rounded-up": .road(.spokenDistance),
        "segments-ignored": .road(.whenInUse),
        "passed-believed": .road(.passedTruth),
        "pass-needs-belief": .road(.announced),
        "switch-keeps-old-lines": .road(.routeSwitch),
        "old-route-distances": .road(.spokenDistance),
        "handoff-taken-twice": .road(.handoff),
        "ack-through-outage": .road(.handoff),
        "maps-through-outage": .road(.routeSwitch),
        "true-turn-dropped": .road(.announced),
        "switch-line-misnamed": .road(.switchLine),
        "report-keeps-old-distance": .road(.pippaView),
        "now-claimed-late": .road(.lateClaim),
    ]
    static let within = 300
    /// The runs of seed 1 a mutant is caught within: 300, but a true turn dropped at a
    /// switch needs a switch asked before a turn the car makes (run 522 of seed 1).
    static func within(_ name: String) -> Int { name == "true-turn-dropped" ? 1_000 : within }

    static var roadMutants: [String] { Mutant.allCases.filter { $0.road != nil }.map(\.name) }

    @Test func everyRoadMutantHasTheCheckItIsMeantToTrip() throws {
        #expect(Set(Self.caughtBy.keys) == Set(Self.roadMutants))
        for name in Self.roadMutants {
            let mutant = try #require(Mutant(name: name))
            #expect(mutant.road?.check == Self.caughtBy[name], "\(name)")
            #expect(mutant.talk == nil && mutant.name == name)
        }
    }

    @Test(arguments: RoadFuzzTests.roadMutants)
    func everyRoadMutantIsCaughtByItsCheckAndShrunkToAReproducerOfItAlone(name: String) throws {
        let mutant = try #require(Mutant(name: name))
        let expected = try #require(Self.caughtBy[name])
        var settings = Fuzzer.Settings()
        settings.mutant = mutant
        var fuzzer = Fuzzer(settings)
        // A failure is kept under its run's first violation: run until one is the expected check's.
        for index in 0..<Self.within(name) where !fuzzer.failures.contains(where: { $0.violation.check == expected }) {
            fuzzer.run(index)
        }
        let failure = try #require(
            fuzzer.failures.first { $0.violation.check == expected },
            "\(name) was not caught by \(expected) in \(Self.within(name)) runs")
        var shrinker = Shrinker(check: expected, mutant: mutant)
        let small = shrinker.shrink(failure.scenario)
        #expect(Shrinker.size(of: small) <= Shrinker.size(of: failure.scenario))
        #expect(Fuzzer.violations(of: small, mutant: mutant).contains { $0.check == expected })
        #expect(
            Fuzzer.violations(of: small, mutant: nil).isEmpty,
            "\(name): the reproducer fails because of the mutant only")
        let file = ReproducerFile.fileName(check: expected, mutant: mutant, seed: 1, run: failure.run)
        #expect(file.hasPrefix(ReproducerFile.slug(expected) + "-" + name + "-seed-1-run-"))
        let ready = ReproducerFile.prepare(
            small, check: expected, violation: failure.violation, mutant: mutant, seed: 1, run: failure.run,
            unshrunkSize: Shrinker.size(of: failure.scenario), file: file)
        #expect(ReproducerFile.anyMutant(noted: ready.description) == mutant)
        #expect(ReproducerFile.mutant(noted: ready.description) == nil, "not an arbiter's mutant")
        let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(ready), file: file)
        #expect(
            Verdict(decoded, fault: nil, roadPlan: mutant.roadPlan).passed == false,
            "replayed with the mutant, it fails")
        #expect(Verdict(decoded, fault: nil).passed, "replayed without it, it passes: its expectations hold")
    }

    @Test func handoffsOfRunsWithTalkAreSometimesSentAfterAStretchAndRoundTrip() throws {
        var handoffs = 0
        var after = 0
        for run in 0..<300 {
            let scenario = Fuzzer.scenario(campaign: 1, run: run, mutant: nil, road: true)
            let sent = scenario.road?.changes.compactMap(\.handoff).map(\.sent) ?? []
            handoffs += sent.count
            guard sent.contains(where: { $0.contains { $0.stretch != nil } }) else { continue }
            after += 1
            #expect(scenario.isValid, "run \(run)")
            #expect(
                try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "run \(run)") == scenario,
                "run \(run)")
        }
        #expect(after > 0 && after < handoffs, "\(after) of \(handoffs)")
    }

    @Test func aReproducerWithAHandoffSentAfterAStretchReplaysAsPrinted() throws {
        // Seed 1, run 187 of true-turn-dropped: h1 (c2) is sent after Pippa's stretch s6.
        let mutant = try #require(Mutant(name: "true-turn-dropped"))
        var settings = Fuzzer.Settings()
        settings.mutant = mutant
        var fuzzer = Fuzzer(settings)
        fuzzer.run(187)
        let failure = try #require(fuzzer.failures.first { $0.violation.check == .road(.pippaView) })
        var shrinker = Shrinker(check: .road(.pippaView), mutant: mutant)
        let small = shrinker.shrink(failure.scenario)
        #expect(small.road?.changes.contains { $0.handoff?.sent.contains(.after("s6")) == true } == true)
        let file = ReproducerFile.fileName(check: .road(.pippaView), mutant: mutant, seed: 1, run: 187)
        let ready = ReproducerFile.prepare(
            small, check: .road(.pippaView), violation: failure.violation, mutant: mutant, seed: 1, run: 187,
            unshrunkSize: Shrinker.size(of: failure.scenario), file: file)
        let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(ready), file: file)
        #expect(decoded == ready)
        #expect(
            Verdict(decoded, fault: nil, roadPlan: mutant.roadPlan).violations.contains {
                $0.check == .road(.pippaView)
            })
        #expect(Verdict(decoded, fault: nil).passed)
    }

    @Test func theReferencePassesARoadCampaign() {
        var settings = Fuzzer.Settings()
        settings.runs = TestScale.size(1_500, quick: 200)
        settings.road = true
        var fuzzer = Fuzzer(settings)
        for index in fuzzer.runIndices { fuzzer.run(index) }
        #expect(fuzzer.failures.isEmpty, "\(fuzzer.failures.first.map { "run \($0.run): \($0.violation)" } ?? "")")
    }

    @Test func aWaitingLineRewordedToLongerWordsStillEndsInsideItsSegment() {
        // Seed 2, run 1686: a near line waits behind a hand-written line and is
        // re-phrased from "In 300 meters" to the longer "In 250 meters"; it used
        // to end 258 ms after Dad's guidance segment (road when-in-use).
        var settings = Fuzzer.Settings()
        settings.seed = 2
        settings.road = true
        var fuzzer = Fuzzer(settings)
        fuzzer.run(1_686)
        #expect(fuzzer.failures.isEmpty, "\(fuzzer.failures.first.map { "\($0.violation)" } ?? "")")
    }

    @Test func roadProfilesLeaveEveryTalkOnlyRunAsItWas() {
        var roads = 0
        for run in 0..<300 {
            let scenario = Fuzzer.scenario(campaign: 1, run: run, mutant: nil, road: true)
            if scenario.road != nil {
                roads += 1
                continue
            }
            #expect(scenario == Fuzzer.scenario(campaign: 1, run: run, fault: nil), "run \(run)")
        }
        #expect((100...200).contains(roads), "about half the runs are road runs: \(roads)")
        #expect(
            (0..<50).allSatisfy {
                Fuzzer.scenario(campaign: 1, run: $0, mutant: Mutant(name: "link-no-timeout"), road: false).road != nil
            },
            "a road mutant makes every run a road run")
    }

    @Test func everyGeneratedRoadScenarioIsValidSmallAndRoundTrips() throws {
        var dense = 0
        for run in 0..<150 {
            let scenario = Fuzzer.scenario(campaign: 3, run: run, mutant: Mutant(name: "jump-trusted"), road: true)
            let road = try #require(scenario.road)
            #expect(scenario.isValid, "run \(run)")
            #expect((1...5).contains(road.maneuvers.count), "run \(run)")
            let route = try road.placedRoute()
            #expect(route.length <= 5_000, "run \(run): \(route.length) m")
            if road.points.count > 12 { dense += 1 }
            let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "run \(run)")
            #expect(decoded == scenario, "run \(run)")
        }
        #expect((30...120).contains(dense), "dense and sparse routes: \(dense) dense")
    }

    /// Without road runs no road check can fire: they are not listed. With them, every count stands in one column.
    @Test func theTallyListsRoadChecksOnlyForRoadRunsAndAlignsItsCounts() throws {
        let folder = try Fixtures.temporaryFolder()
        let talk = Fixtures.drivesim("fuzz", "--runs", "20", "--jobs", "1", "--out", folder)
        #expect(talk.code == 0)
        #expect(talk.stdout.contains("  invariant 1 ") && !talk.stdout.contains("  road "), "\(talk.stdout)")
        let road = Fixtures.drivesim("fuzz", "--road", "--runs", "4", "--jobs", "1", "--out", folder)
        #expect(road.stdout.contains("  road line-after-maneuver "), "\(road.stdout)")
        for output in [talk.stdout, road.stdout] {
            // Every count of both tables starts in one column.
            let rows = output.split(separator: "\n").filter {
                $0.hasPrefix("  ") && $0.last?.isNumber == true && !$0.contains(":")
            }
            let columns = Set(rows.map { row in row.count - row.reversed().prefix { $0.isNumber }.count })
            #expect(rows.count > 10 && columns.count == 1, "\(rows)")
        }
    }

    @Test func aRoadMutantCampaignWritesReproducersThatRunReplays() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim(
            "fuzz", "--mutant", "link-queues-busy", "--runs", "20", "--jobs", "1", "--out", folder)
        #expect(result.code == 1)
        #expect(
            result.stdout.hasPrefix(
                "drivesim fuzz: seed 1, runs 20, shard 1/1, mutant link-queues-busy (breaks road link)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let file = try #require(files.first { $0.hasPrefix("road-link-link-queues-busy-seed-1-run-") })
        #expect(Fixtures.drivesim("run", folder + "/" + file, "--mutant", "link-queues-busy").code == 1)
        let plain = Fixtures.drivesim("run", folder + "/" + file)
        #expect(plain.code == 0)
        #expect(
            plain.stderr.contains(
                "note: a reproducer of mutant link-queues-busy; it passes only because the real road is right"))
    }
}
