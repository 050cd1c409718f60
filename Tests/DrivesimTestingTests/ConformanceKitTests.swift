import DrivesimTesting
import Foundation
import Fuzzing
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct ConformanceKitTests {
    @Test func theCorpusShipsEveryTalkScenarioOfTheSpec() throws {
        #expect(Conformance.scenarios.count == 46)
        #expect(Conformance.scenarios.map(\.name).contains("short-wait-at-limit.json"))
        for s in Conformance.scenarios { _ = try s.scenario }
    }

    @Test(arguments: Conformance.scenarios)
    func theReferenceBehindTheProtocolConforms(_ scenario: ConformanceScenario) throws {
        try scenario.check(Wrapped<Faithful>.self)
    }

    @Test func aWrongArbiterGetsTheFirstDivergenceWithInstantInputAndRules() throws {
        let file = try #require(Conformance.scenarios.first { $0.name == "short-wait-at-limit.json" })
        let verdict = try Verdict(try file.scenario, arbiter: Wrapped<StrictWait>.self, differential: true)
        let divergence = try #require(verdict.divergence)
        guard case .lineRequested = divergence.input else {
            Issue.record("diverged on \(String(describing: divergence.input))")
            return
        }
        #expect(divergence.reference.contains { $0.rule == .shortWait })
        #expect(divergence.arbiter.contains { $0.rule == .longCut })
        let violation = try #require(verdict.violations.first { $0.check == .arbiter(.divergence) })
        #expect(violation.t == divergence.t)
        #expect(throws: ConformanceFailure.self) { try file.check(Wrapped<StrictWait>.self) }
    }

    @Test func theReferenceNeverDivergesFromItself() throws {
        for file in Conformance.scenarios {
            let verdict = try Verdict(try file.scenario, arbiter: TalkArbiter.self, differential: true)
            #expect(verdict.divergence == nil, "\(file.name)")
        }
    }

    @Test func anUnknownLineIsAnImpossibleActionNamedWithItsInstantNotATrap() throws {
        let file = try #require(Conformance.scenarios.first { $0.name == "urgent-cut.json" })
        let verdict = try Verdict(try file.scenario, arbiter: Impossible.self)
        let impossible = try #require(verdict.simulation.impossibleAction)
        #expect(impossible.reason == .unknownIndex)
        guard case .lineRequested = impossible.input else {
            Issue.record("on \(impossible.input)")
            return
        }
        let violation = try #require(verdict.violations.first { $0.check == .arbiter(.impossibleAction) })
        #expect(violation.t == impossible.t)
        #expect(violation.message.contains("#"))
    }

    @Test func cuttingAStretchThatIsNotPlayingIsImpossible() throws {
        let file = try #require(Conformance.scenarios.first { $0.name == "barge-in.json" })
        let verdict = try Verdict(try file.scenario, arbiter: PhantomCut.self)
        #expect(verdict.simulation.impossibleAction?.reason == .stretchNotPlaying)
        #expect(!verdict.passed)
    }

    @Test func aFuzzCampaignShrinksADivergenceToAReproducerThatDecodesAndStillDiverges() throws {
        do {
            try Conformance.fuzz(Wrapped<StrictWait>.self, seed: 1, runs: 500)
            Issue.record("the campaign found nothing")
        } catch {
            let reproducer = try #require(error.reproducers.first)
            #expect(error.description.contains(reproducer.json))
            let scenario = try ScenarioDecoder.decode(Array(reproducer.json.utf8), file: "reproducer.json")
            let verdict = try Verdict(scenario, arbiter: Wrapped<StrictWait>.self, differential: true)
            #expect(verdict.divergence != nil)
            #expect(Shrinker.size(of: scenario) <= 3)
        }
    }

    @Test func theKitsReproducerIsTheCLIsFileAndItsSwiftLineReplaysIt() throws {
        do {
            try Conformance.fuzz(Wrapped<StrictWait>.self, seed: 1, runs: 500)
            Issue.record("the campaign found nothing")
        } catch {
            let reproducer = try #require(error.reproducers.first)
            let scenario = try ScenarioDecoder.decode(Array(reproducer.json.utf8), file: reproducer.file)
            // Named, described and pinned as `drivesim fuzz` writes it.
            #expect(scenario.name.hasPrefix("fuzz seed 1 run \(reproducer.run): "))
            let description = try #require(scenario.description)
            #expect(
                description.contains(
                    "Found by Conformance.fuzz(Wrapped<StrictWait>.self, seed: 1), run \(reproducer.run)"))
            #expect(
                description.contains(
                    "Replay: try Conformance.replay(Wrapped<StrictWait>.self, file: \"\(reproducer.file)\")."))
            #expect(
                reproducer.replay
                    == "@Test func replaysRun\(reproducer.run)() throws { try Conformance.replay(Wrapped<StrictWait>.self, file: \"\(reproducer.file)\") }"
            )
            #expect(error.description.contains(reproducer.replay))
            // Its expectations pin the reference: the reference passes them.
            #expect(!scenario.expect.isEmpty)
            #expect(try Verdict(scenario).passed)
            // Saved and replayed as its line says, it fails again; the faithful arbiter passes it.
            let folder = try Fixtures.temporaryFolder()
            let path = folder + "/" + reproducer.file
            #expect(FileManager.default.createFile(atPath: path, contents: Data(reproducer.json.utf8)))
            #expect(throws: ConformanceFailure.self) { try Conformance.replay(Wrapped<StrictWait>.self, file: path) }
            try Conformance.replay(Wrapped<Faithful>.self, file: path)
            #expect(throws: ConformanceScenario.LoadError.self) {
                try Conformance.replay(Wrapped<Faithful>.self, file: folder + "/missing.json")
            }
        }
    }

    /// An arbiter with one rule broken by a millisecond, and the shrunk
    /// reproducer its exploration throws: decoded, named as `explore` names it.
    static func exploreReproducer<A: Arbiter>(_ arbiter: A.Type) throws -> (ConformanceFailure.Reproducer, Scenario) {
        do {
            try Conformance.explore(arbiter, scope: 2, jobs: 2)
        } catch {
            #expect(error.scenario.hasPrefix("explore scope 2, "))
            let reproducer = try #require(error.reproducers.first)
            // The summary names the failure as its reproducer does: one word, `scenario`.
            #expect(error.description.contains("\n  scenario \(reproducer.run): "))
            #expect(!error.description.contains("\n  run "))
            return (reproducer, try ScenarioDecoder.decode(Array(reproducer.json.utf8), file: reproducer.file))
        }
        throw ExploreSurvived()
    }

    struct ExploreSurvived: Error {}

    @Test func anArbiterWithOneRuleBrokenByAMillisecondFailsExploreWithAReproducerThatReplays() throws {
        for (name, found) in [
            ("Wrapped<StrictWait>", try Self.exploreReproducer(Wrapped<StrictWait>.self)),
            ("Wrapped<LooseWait>", try Self.exploreReproducer(Wrapped<LooseWait>.self)),
            ("Wrapped<EarsEarly>", try Self.exploreReproducer(Wrapped<EarsEarly>.self)),
        ] {
            let (reproducer, scenario) = found
            #expect(reproducer.file.contains("-explore-\(reproducer.run).json"), "\(name)")
            #expect(scenario.name.hasPrefix("explore scenario \(reproducer.run): "), "\(name)")
            #expect(
                scenario.description?.contains(
                    "Found by Conformance.explore(\(name).self, scope: 2), scenario \(reproducer.run)") == true)
            #expect(
                reproducer.replay
                    == "@Test func replaysScenario\(reproducer.run)() throws { try Conformance.replay(\(name).self, file: \"\(reproducer.file)\") }"
            )
            #expect(Shrinker.size(of: scenario) <= 2)
            // Saved and replayed as its line says, it fails again; the faithful arbiter passes it.
            let path = try Fixtures.temporaryFolder() + "/" + reproducer.file
            #expect(FileManager.default.createFile(atPath: path, contents: Data(reproducer.json.utf8)))
            switch name {
            case "Wrapped<StrictWait>":
                #expect(throws: ConformanceFailure.self) {
                    try Conformance.replay(Wrapped<StrictWait>.self, file: path)
                }
            case "Wrapped<LooseWait>":
                #expect(throws: ConformanceFailure.self) { try Conformance.replay(Wrapped<LooseWait>.self, file: path) }
            default:
                #expect(throws: ConformanceFailure.self) { try Conformance.replay(Wrapped<EarsEarly>.self, file: path) }
            }
            try Conformance.replay(Wrapped<Faithful>.self, file: path)
        }
    }

    @Test func aFaithfulArbiterSurvivesExploringScope2() throws {
        try Conformance.explore(Wrapped<Faithful>.self, scope: 2, jobs: 2)
    }

    @Test func aVerdictPrintsAReadableSummary() throws {
        let file = try #require(Conformance.scenarios.first { $0.name == "short-wait-at-limit.json" })
        #expect(try Verdict(try file.scenario).description == "passed")
        let verdict = try Verdict(try file.scenario, arbiter: Wrapped<StrictWait>.self, differential: true)
        let lines = verdict.description.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("failed: ") == true)
        #expect(lines.count == 1 + verdict.violations.count + verdict.failures.count)
        #expect(lines.contains { $0.hasPrefix("  arbiter divergence at ") })
    }

    @Test func aFaithfulArbiterSurvivesAFuzzCampaign() throws {
        try Conformance.fuzz(Wrapped<Faithful>.self, seed: 7, runs: 300)
    }

    @Test func tablesWithAnEmptyReplyAreRefused() {
        #expect(throws: ArbiterTables.Invalid.replyStretches(reply: 0)) {
            try ArbiterTables(
                settings: .init(), lines: [], replies: [.init(stretches: 0..<0)], stretchDurations: [], utterances: 0)
        }
        #expect(throws: ArbiterTables.Invalid.lineDuration(line: 0)) {
            try ArbiterTables(
                settings: .init(), lines: [.init(duration: .zero)], replies: [], stretchDurations: [], utterances: 0)
        }
    }
}

/// Fuzz rates of the built-in arbiter and of the same arbiter through the
/// protocol from another module, printed, not asserted (run in release:
/// `DRIVESIM_RATE=1 swift test -c release --filter FuzzRate`).
@Suite struct FuzzRate {
    @Test(
        .enabled(
            if: Environment.rateWanted,
            "a measurement, printed, not a check: DRIVESIM_RATE=1 swift test -c release --filter FuzzRate"))
    func printsTheRatesOfTheBuiltInAndAProtocolArbiter() {
        let runs = 20_000
        func rate(_ arbiter: ArbiterUnderTest) -> Double {
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                _ = Campaign.run(Fuzzer.Settings(seed: 1, runs: runs, arbiter: arbiter), jobs: 1) { _ in true }
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return Double(runs) / seconds
        }
        for _ in 0..<2 {
            let builtIn = rate(.reference)
            let wrapped = rate(.swift(Wrapped<Faithful>.self, differential: false))
            let differential = rate(.swift(Wrapped<Faithful>.self))
            print(
                "fuzz rate: built-in \(Int(builtIn))/s, Swift arbiter through the protocol \(Int(wrapped))/s (\(Int(wrapped / builtIn * 100))%), differential \(Int(differential))/s"
            )
        }
    }
}

enum Environment {
    static var rateWanted: Bool {
        #if canImport(Glibc) || canImport(Darwin)
            return getenv("DRIVESIM_RATE") != nil
        #else
            return false
        #endif
    }
}

/// A scenario built in code that is not valid is reported, not run.
@Test func theKitReportsAnInvalidScenarioItIsGivenInsteadOfRunningIt() {
    let scenario = Scenario(name: "no stretches", replies: [Scenario.Reply(id: "r1", at: .zero, stretches: [])])
    do {
        try Conformance.check(scenario, TalkArbiter.self)
        Issue.record("an invalid scenario passed")
    } catch {
        #expect(error.problem == ScenarioProblem(.emptyStretches, at: [.key("replies"), .index(0), .key("stretches")]))
    }
}
