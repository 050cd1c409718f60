import Guidance
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// One fuzz campaign: generated collision scenarios, each checked against
/// every invariant and rule check, failures shrunk to small reproducers.
/// The same seed gives the same campaign on every machine; shards split its
/// runs into disjoint parts.
public struct Fuzzer: Sendable {
    /// What a campaign runs and how.
    public struct Settings: Sendable {
        /// The campaign's seed: the same seed, the same scenarios.
        public var seed: UInt64 = 1
        /// How many runs.
        public var runs = 10_000
        /// This machine's part, 1-based: runs `i` with `i % count == index - 1`.
        public var shard = (index: 1, count: 1)
        /// The arbiter under test (the reference by default).
        public var arbiter = ArbiterUnderTest.reference
        /// The built-in mutant under test, if any; setting it sets `arbiter`.
        package var fault: TalkArbiter.Fault? {
            get { arbiter.fault }
            set { arbiter = .mutant(newValue) }
        }
        /// The built-in mutant under test (the arbiter's or the road's), if any; setting it sets `arbiter`.
        package var mutant: Mutant? {
            get { arbiter.mutant }
            set { arbiter = .builtIn(newValue) }
        }
        /// Whether runs draw road profiles too (`fuzz --road`): then half the
        /// runs, chosen by a draw of their own, are road runs
        /// (`RoadGenerator`), and the rest are exactly the talk-only runs of a
        /// campaign without it. A road mutant makes every run a road run.
        public var road = false
        /// How many failures are kept, per check (the check of a run's first
        /// violation); the rest are only counted, so memory stays bounded
        /// however many runs fail.
        public var keptPerCheck = 8
        /// The defaults: seed 1, 10,000 runs, the reference arbiter.
        public init() {}
        /// A campaign of `runs` runs from `seed` against `arbiter`.
        public init(seed: UInt64, runs: Int, arbiter: ArbiterUnderTest) {
            self.seed = seed
            self.runs = max(0, runs)
            self.arbiter = arbiter
        }
    }

    /// A run that broke a check.
    public struct Failure: Sendable {
        /// The run's index in the campaign (the same whatever the shard).
        public var run: Int
        /// Its first violation (in time order).
        public var violation: Violation
        /// The scenario as generated.
        public var scenario: Scenario
    }

    /// The campaign's settings.
    public let settings: Settings
    /// Runs done so far.
    public private(set) var runsDone = 0
    /// The first `keptPerCheck` failures of each check, in run order.
    public private(set) var failures: [Failure] = []
    /// Every failed run, kept or not.
    public private(set) var failedRuns = 0
    /// Failures kept per check (the check of the first violation).
    var kept: [Check: Int] = [:]
    /// Failed runs per check.
    public private(set) var failuresPerCheck: [Check: Int] = [:]
    /// How often each rule fired across the campaign.
    package private(set) var rulesFired = RuleCoverage()

    /// A campaign that has done nothing yet.
    public init(_ settings: Settings) { self.settings = settings }

    /// The run indices of this shard, in order.
    package var runIndices: StrideTo<Int> {
        stride(from: settings.shard.index - 1, to: settings.runs, by: settings.shard.count)
    }

    /// The seed of one run: the campaign's seed and the run's index, mixed.
    package static func seed(campaign: UInt64, run: Int) -> UInt64 {
        var mixer = SplitMix64(seed: campaign ^ (UInt64(run) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// The scenario of run `run` of the campaign.
    package static func scenario(campaign: UInt64, run: Int, fault: TalkArbiter.Fault?) -> Scenario {
        scenario(campaign: campaign, run: run, mutant: fault.map(Mutant.talk), road: false)
    }

    /// The scenario of run `run` of a campaign with `mutant`, road profiles
    /// on or off. A run's choice between a road and a talk-only scenario is a
    /// draw of its own, so its talk-only scenario is the same whether road
    /// profiles are on or not.
    package static func scenario(campaign: UInt64, run: Int, mutant: Mutant?, road: Bool) -> Scenario {
        generate(campaign: campaign, run: run, mutant: mutant, road: road).scenario
    }

    /// Run `run` of a campaign with `mutant`, road profiles on or off: its
    /// scenario (`scenario(campaign:run:mutant:road:)`) and, for a road run,
    /// what the generator knows of its road (`KnownRoad`), so that checking
    /// it need not find it again.
    package static func generate(campaign: UInt64, run: Int, mutant: Mutant?, road: Bool) -> (
        scenario: Scenario, road: KnownRoad?
    ) {
        let runSeed = seed(campaign: campaign, run: run)
        let name = "fuzz seed \(campaign) run \(run)"
        if road || mutant?.road != nil {
            var choice = SplitMix64(seed: runSeed ^ RoadGenerator.salt)
            if mutant?.road != nil || choice.chance(50) {
                var generator = RoadGenerator(seed: choice.next(), mutant: mutant)
                let (scenario, known) = generator.planned(name: name)
                return (scenario, known)
            }
        }
        var generator = CollisionGenerator(seed: runSeed, fault: mutant?.talk)
        return (generator.scenario(name: name), nil)
    }

    /// Generates and checks one run; returns its first violation, if any.
    package mutating func run(_ index: Int) {
        let (scenario, road) = generate(index)
        run(index, scenario, road: road)
    }

    /// Run `index` of this campaign: its scenario and what the generator knows of its road, if any.
    func generate(_ index: Int) -> (scenario: Scenario, road: KnownRoad?) {
        Fuzzer.generate(campaign: settings.seed, run: index, mutant: settings.mutant, road: settings.road)
    }

    /// Checks run `index`, whose scenario is `scenario` and of whose road
    /// the generator knows `road` (`KnownRoad`), if anything.
    mutating func run(_ index: Int, _ scenario: Scenario, road: KnownRoad? = nil) {
        let (violations, timeline) = Fuzzer.check(scenario, arbiter: settings.arbiter, road: road)
        runsDone += 1
        rulesFired.add(RuleCoverage(timeline))
        guard let first = violations.first else { return }
        for check in Set(violations.map(\.check)).sorted() { failuresPerCheck[check, default: 0] += 1 }
        failedRuns += 1
        guard kept[first.check, default: 0] < settings.keptPerCheck else { return }
        kept[first.check, default: 0] += 1
        failures.append(Failure(run: index, violation: first, scenario: scenario))
    }

    /// Adds the runs of `later`, which come after this fuzzer's in run order
    /// (a campaign split across workers, see `Campaign`): the result is that
    /// of one fuzzer doing both in order.
    package mutating func append(_ later: Fuzzer) {
        runsDone += later.runsDone
        failedRuns += later.failedRuns
        for failure in later.failures where kept[failure.violation.check, default: 0] < settings.keptPerCheck {
            kept[failure.violation.check, default: 0] += 1
            failures.append(failure)
        }
        for (check, count) in later.failuresPerCheck { failuresPerCheck[check, default: 0] += count }
        rulesFired.add(later.rulesFired)
    }

    /// Every broken check of one scenario, in time order.
    package static func violations(of scenario: Scenario, fault: TalkArbiter.Fault?) -> [Violation] {
        check(scenario, arbiter: .mutant(fault)).0
    }

    /// Every broken check of one scenario with a built-in mutant (nil: the reference), in time order.
    package static func violations(of scenario: Scenario, mutant: Mutant?) -> [Violation] {
        check(scenario, arbiter: .builtIn(mutant)).0
    }

    /// Every broken check of one scenario with `arbiter`, in time order.
    package static func violations(of scenario: Scenario, arbiter: ArbiterUnderTest) -> [Violation] {
        check(scenario, arbiter: arbiter).0
    }

    /// Simulates twice and checks every invariant and rule check (a `Verdict`;
    /// generated scenarios have no matchers), in time order; `road` as in `run(_:_:road:)`.
    static func check(_ scenario: Scenario, arbiter: ArbiterUnderTest, road: KnownRoad? = nil) -> (
        [Violation], Timeline
    ) {
        let verdict = arbiter.check(scenario, known: road)
        return (verdict.violations.sorted { ($0.t, $0.check) < ($1.t, $1.check) }, verdict.simulation.timeline)
    }
}
