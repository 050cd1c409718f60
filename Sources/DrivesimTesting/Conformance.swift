import Foundation
import Fuzzing
import Guidance
import ScenarioFormat
import SimRunner
import TalkArbiter

/// The conformance kit: SPEC's corpus, a fuzz campaign and an exhaustive exploration, run against your
/// own `Arbiter` from Swift Testing.
///
/// ```swift
/// @Test(arguments: Conformance.scenarios)
/// func conforms(_ scenario: ConformanceScenario) throws { try scenario.check(MyArbiter.self) }
///
/// @Test func survivesFuzzing() throws { try Conformance.fuzz(MyArbiter.self, seed: 1, runs: 2_000) }
///
/// @Test func survivesEverySmallCollision() throws { try Conformance.explore(MyArbiter.self, scope: 3) }
/// ```
///
/// Every check is differential: besides SPEC 7's invariants, the rule checks
/// and the scenario's expectations, the arbiter must decide as the reference
/// does, decision by decision; the first difference is named.
public enum Conformance {
    /// The corpus: SPEC's talk scenarios, one per rule, boundary and tie, in
    /// file-name order. Shipped as the package's resources.
    public static let scenarios: [ConformanceScenario] = loadCorpus()

    /// Checks one scenario against `arbiter` (what `ConformanceScenario.check`
    /// does). A scenario that is not valid is not run: the failure carries its
    /// `problem`.
    public static func check<A: Arbiter>(_ scenario: Scenario, _ arbiter: A.Type) throws(ConformanceFailure) {
        let verdict: Verdict
        do { verdict = try Verdict(scenario, arbiter: arbiter, differential: true) } catch {
            throw ConformanceFailure(
                scenario: scenario.name, violations: [], expectations: [], reproducers: [], problem: error)
        }
        guard verdict.passed else {
            throw ConformanceFailure(
                scenario: scenario.name,
                violations: verdict.violations.sorted { ($0.t, $0.check) < ($1.t, $1.check) }.map(\.line),
                expectations: verdict.failures.map(\.summary), reproducers: [])
        }
    }

    /// A fuzz campaign against `arbiter`: `runs` generated collision scenarios
    /// from `seed`, each checked and compared with the reference. On failure,
    /// the thrown error carries each broken check's shrunk reproducer: the
    /// same scenario file `drivesim fuzz` writes (its name, its description
    /// with the `Replay:` line, and matchers that pin what the reference does
    /// where the two part), the file name to save it as, and the one-line
    /// Swift test that replays it (`replay(_:file:)`).
    public static func fuzz<A: Arbiter>(_ arbiter: A.Type, seed: UInt64 = 1, runs: Int = 2_000)
        throws(ConformanceFailure)
    {
        let settings = Fuzzer.Settings(seed: seed, runs: runs, arbiter: .swift(arbiter))
        let fuzzer = Campaign.run(settings, jobs: 1) { _ in true }.fuzzer
        guard fuzzer.failedRuns > 0 else { return }
        throw ConformanceFailure(
            scenario: "fuzz seed \(seed), \(fuzzer.failedRuns) of \(counted(fuzzer.runsDone, "run")) failed",
            violations: [], expectations: [],
            reproducers: reproducers(of: fuzzer, jobs: 1) { .fuzz(seed: seed, run: $0) })
    }

    /// Every talk scenario of up to `scope` items on the grid of the rules'
    /// boundaries (what `drivesim explore --scope` checks, docs/explore.md),
    /// each checked and compared with the reference, on `jobs` workers (the
    /// result is the same for any number). On failure, the thrown error
    /// carries each broken check's shrunk reproducer, as `fuzz`'s does; its
    /// `run` is the scenario's index in the exploration. Scope 3 is about
    /// 250,000 scenarios: seconds in a release build, minutes in a debug
    /// one, where scope 2 (under 2,000) takes a second. A scope below 1 checks nothing.
    public static func explore<A: Arbiter>(
        _ arbiter: A.Type, scope: Int = 3, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(ConformanceFailure) {
        let settings = Fuzzer.Settings(seed: 0, runs: 0, arbiter: .swift(arbiter))
        let fuzzer = Explorer.run(scope: scope, settings: settings, jobs: max(1, jobs)) { _ in true }.fuzzer
        guard fuzzer.failedRuns > 0 else { return }
        throw ConformanceFailure(
            scenario: "explore scope \(scope), \(fuzzer.failedRuns) of \(counted(fuzzer.runsDone, "scenario")) failed",
            violations: [], expectations: [],
            reproducers: reproducers(of: fuzzer, jobs: max(1, jobs)) { .explore(scope: scope, index: $0) })
    }

    /// The road corpus: drivesim's road scenarios (`Scenarios/road`, without
    /// their golden timelines), in file-name order. Shipped as the package's resources.
    public static let roadScenarios: [ConformanceScenario] = loadCorpus("RoadCorpus")

    /// Checks a guidance engine on the road (docs/test-your-guidance.md): every
    /// scenario of `roadScenarios`, then a road fuzz campaign of `runs`
    /// generated runs from `seed` (half of them drives, as `drivesim fuzz
    /// --road`), each road planned by the guidance `make` builds for its
    /// route and judged by every check (not by the scenarios' expectations
    /// or golden timelines: they pin drivesim's own guidance). On failure the
    /// thrown error names each corpus scenario that failed, with its broken
    /// checks, and carries each broken check's shrunk reproducer of the
    /// campaign with the Swift line that replays it (`replayRoad(_:file:)`).
    ///
    /// ```swift
    /// @Test func myGuidanceOnTheRoad() throws { try Conformance.road(MyGuidance.init) }
    /// ```
    public static func road<G: Guidance>(
        _ make: @escaping @Sendable (GuidanceRoute) -> G, seed: UInt64 = 1, runs: Int = 300
    ) throws(ConformanceFailure) {
        let guidance = ArbiterUnderTest.guidance(make)
        var failed: [String] = []
        for entry in roadScenarios {
            guard let scenario = try? entry.scenario else {
                failed.append("\(entry.name): not loaded")
                continue
            }
            let verdict = guidance.check(scenario)
            failed += verdict.violations.sorted { ($0.t, $0.check) < ($1.t, $1.check) }.map {
                "\(entry.name): \($0.line)"
            }
        }
        var settings = Fuzzer.Settings(seed: seed, runs: runs, arbiter: guidance)
        settings.road = true
        let fuzzer = Campaign.run(settings, jobs: 1) { _ in true }.fuzzer
        guard !failed.isEmpty || fuzzer.failedRuns > 0 else { return }
        throw ConformanceFailure(
            scenario:
                "road: \(counted(failed.count, "broken check")) in the corpus; fuzz seed \(seed), \(fuzzer.failedRuns) of \(counted(fuzzer.runsDone, "run")) failed",
            violations: failed, expectations: [],
            reproducers: fuzzer.failedRuns > 0 ? reproducers(of: fuzzer, jobs: 1) { .fuzz(seed: seed, run: $0) } : [],
            subject: "the guidance")
    }

    /// Replays a saved road reproducer (or any scenario file) against the
    /// guidance `make` builds, as `road` judges it: throws the file's problem
    /// (`ConformanceScenario.LoadError`), else a `ConformanceFailure` when it fails.
    public static func replayRoad<G: Guidance>(_ make: @escaping @Sendable (GuidanceRoute) -> G, file: String) throws {
        let scenario = try load(file)
        let verdict = ArbiterUnderTest.guidance(make).check(scenario)
        guard verdict.violations.isEmpty else {
            throw ConformanceFailure(
                scenario: scenario.name,
                violations: verdict.violations.sorted { ($0.t, $0.check) < ($1.t, $1.check) }.map(\.line),
                expectations: [], reproducers: [], subject: "the guidance")
        }
    }

    /// Each broken check's smallest shrunk failure as the file `drivesim fuzz`
    /// or `explore` writes: its name, its description with the `Replay:`
    /// line, and matchers that pin what the reference does where the two part.
    static func reproducers(
        of fuzzer: Fuzzer, jobs: Int, origin: (Int) -> ReproducerFile.Origin
    ) -> [ConformanceFailure.Reproducer] {
        let arbiter = fuzzer.settings.arbiter
        return Campaign.reproducers(of: fuzzer, candidates: 4, jobs: jobs).map {
            found -> ConformanceFailure.Reproducer in
            let check = found.failure.violation.check
            let run = found.failure.run
            // The shrunk file's own violation: its times are what the file shows.
            let checked = arbiter.check(found.scenario)
            let violation =
                checked.violations.sorted { ($0.t, $0.check) < ($1.t, $1.check) }.first { $0.check == check }
                ?? found.failure.violation
            let file = ReproducerFile.fileName(check: check, mutant: nil, origin: origin(run))
            let ready = ReproducerFile.prepare(
                found.scenario, check: check, violation: violation, arbiter: arbiter, origin: origin(run),
                unshrunkSize: Shrinker.size(of: found.failure.scenario), file: file, checked: checked)
            let (test, named) =
                if case .explore = origin(run) { ("replaysScenario\(run)", "scenario \(run)") } else {
                    ("replaysRun\(run)", "run \(run)")
                }
            return .init(
                run: run, found: named, violation: violation.line, file: file,
                replay: "@Test func \(test)() throws { \(arbiter.replay.line(file)) }",
                json: String(decoding: ScenarioEncoder.encode(ready), as: UTF8.self))
        }
    }

    /// Replays a saved reproducer (or any scenario file) against `arbiter`,
    /// as `check` does: `file` is a path, relative to the working folder
    /// (`swift test` runs in the package's root). Throws the file's problem
    /// (`ConformanceScenario.LoadError`) when it cannot be read or is not a
    /// scenario, else a `ConformanceFailure` when the arbiter fails it.
    public static func replay<A: Arbiter>(_ arbiter: A.Type, file: String) throws {
        try check(try load(file), arbiter)
    }

    /// The scenario in `file`, or why it cannot be used.
    static func load(_ file: String) throws(ConformanceScenario.LoadError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConformanceScenario.LoadError.unreadable(file)
        }
        do throws(ScenarioError) { return try ScenarioDecoder.decode(Array(data), file: file) } catch {
            throw ConformanceScenario.LoadError.invalid(error)
        }
    }

    static func loadCorpus(_ resource: String = "Corpus") -> [ConformanceScenario] {
        guard let folder = Bundle.module.url(forResource: resource, withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [ConformanceScenario(name: resource, loaded: .failure(.corpusMissing))] }
        return names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            let file = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                return ConformanceScenario(name: name, loaded: .failure(.unreadable(name)))
            }
            do throws(ScenarioError) {
                return ConformanceScenario(
                    name: name, loaded: .success(try ScenarioDecoder.decode(Array(data), file: name)))
            } catch {
                return ConformanceScenario(name: name, loaded: .failure(.invalid(error)))
            }
        }
    }
}

/// One scenario of the corpus, a test case of its own, shown by its file name.
public struct ConformanceScenario: Sendable, CustomStringConvertible {
    /// Why a corpus file could not be used (a broken installation, never your arbiter).
    public enum LoadError: Error, Sendable, Equatable {
        /// The package's resources are missing.
        case corpusMissing
        /// The file could not be read.
        case unreadable(String)
        /// The file is not a valid scenario.
        case invalid(ScenarioError)
    }

    /// The file's name, e.g. `short-wait-at-limit.json`.
    public let name: String
    let loaded: Result<Scenario, LoadError>

    /// The scenario, or why it could not be loaded.
    public var scenario: Scenario {
        get throws(LoadError) { try loaded.get() }
    }

    /// The file name, which Swift Testing shows for the test case.
    public var description: String { name }

    /// Checks the scenario against `arbiter`: every invariant and rule check,
    /// the scenario's expectations, and every decision against the reference's.
    public func check<A: Arbiter>(_ arbiter: A.Type) throws {
        try Conformance.check(try scenario, arbiter)
    }
}

/// What a conformance check found: the broken checks, the expectations that
/// failed, and for a fuzz campaign the shrunk reproducers.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// A shrunk failure of a fuzz campaign.
    public struct Reproducer: Sendable {
        /// The run of the campaign it came from (of an exploration, the scenario's index).
        public var run: Int
        /// That run as its reproducer's description names it: `run 145` of a
        /// fuzz campaign, `scenario 239` of an exploration.
        public var found: String
        /// The broken check on the shrunk scenario, e.g. `arbiter divergence at 00:01.000: …`.
        public var violation: String
        /// The file name `drivesim fuzz` would give it, e.g. `arbiter-divergence-seed-1-run-145.json`.
        public var file: String
        /// The one-line Swift test that replays it once saved as `file` in the package's root.
        public var replay: String
        /// The shrunk scenario as a scenario file, ready to commit.
        public var json: String
    }

    /// The scenario's name, or the campaign.
    public var scenario: String
    /// Every broken check, one line each.
    public var violations: [String]
    /// Every failed expectation, one line each.
    public var expectations: [String]
    /// The fuzz campaign's shrunk reproducers, one per broken check.
    public var reproducers: [Reproducer]
    /// Why the scenario was not run, when it is not valid (`Scenario.validate()`).
    public var problem: ScenarioProblem? = nil
    /// What was checked: `the arbiter`, or for `Conformance.road`, `the guidance`.
    public var subject = "the arbiter"

    /// Everything, one item per line; a reproducer's JSON in full.
    public var description: String {
        if let problem { return "\(scenario): not a valid scenario, not run: \(problem)" }
        var lines = ["\(scenario): \(subject) does not conform"]
        lines += violations.map { "  \($0)" } + expectations.map { "  \($0)" }
        for r in reproducers {
            lines.append("  \(r.found): \(r.violation)")
            lines.append("  shrunk reproducer: save it as \(r.file) and replay it with")
            lines.append("    \(r.replay)")
            lines.append(r.json)
        }
        return lines.joined(separator: "\n")
    }
}

extension Violation {
    /// `invariant 1 at 00:02.000: line g1 and stretch s1 play at once`.
    var line: String { "\(check) at \(t): \(message)" }
}
