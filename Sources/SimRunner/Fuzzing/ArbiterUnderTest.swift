import Guidance
import Road
import SimRunner
import TalkArbiter

/// The arbiter a campaign or a shrinker runs: the reference, a built-in
/// mutant, or any `Arbiter` type, checked against the reference in
/// differential mode. A value, so it travels in `Fuzzer.Settings` to every worker.
public struct ArbiterUnderTest: Sendable {
    /// A name for reports: `the arbiter`, `mutant held-ignored`, or the type's name.
    public let name: String
    /// The built-in arbiter mutant, if this is one.
    package var fault: TalkArbiter.Fault? { mutant?.talk }
    /// The built-in mutant, if this is one.
    package let mutant: Mutant?
    /// Whether this is the reference arbiter itself.
    public let isReference: Bool
    /// Checks one scenario with this arbiter, given what the generator knows of its road.
    let verdict: @Sendable (Scenario, KnownRoad?) -> Verdict
    /// Told the scenarios a campaign is about to check, in order, before it
    /// checks them (an arbiter in another process answers them all at once).
    package var foretell: (@Sendable ([Scenario]) -> Void)? = nil
    /// Whether the roads are planned by a guidance under test (`guidance(_:)`,
    /// `--guidance`): its reproducers pin nothing of drivesim's own timeline.
    package var guidance = false
    /// How a reproducer found with this arbiter is found again (its `Replay:` line).
    package var replay: ReproducerFile.Replay = .cli(options: "")

    /// The reference arbiter, `TalkArbiter`.
    public static let reference = ArbiterUnderTest(name: "the arbiter", mutant: nil, isReference: true) {
        Verdict($0, fault: nil, plan: $1?.plan, shape: $1?.shape)
    }

    /// An arbiter of type `type`; with `differential` (the default) every run
    /// is also compared with the reference, decision by decision.
    public static func swift<A: Arbiter>(_ type: A.Type, differential: Bool = true) -> ArbiterUnderTest {
        ArbiterUnderTest(
            name: String(describing: type), mutant: nil, isReference: false,
            verdict: {
                Verdict($0, differential: differential, plan: $1?.plan, shape: $1?.shape) { A($0) }
            }, replay: .swift(type: String(describing: type)))
    }

    /// drivesim's arbiter over roads planned by the guidance `make` builds
    /// (`G`, a Swift guidance from the conformance kit): judged by every
    /// check, not by the scenario's expectations (they pin drivesim's own guidance).
    package static func guidance<G: Guidance>(_ make: @escaping @Sendable (GuidanceRoute) -> G) -> ArbiterUnderTest {
        let plan = RoadPlanning.guidance(make)
        return ArbiterUnderTest(
            name: "the guidance \(G.self)", mutant: nil, isReference: false,
            verdict: { scenario, known in
                // The generator's plan is drivesim's own guidance's: only the road's shape applies.
                var verdict = Verdict(scenario, fault: nil, roadPlan: plan, shape: known?.shape)
                verdict.failures = []
                verdict.pippaFailures = []
                return verdict
            }, guidance: true, replay: .swiftRoad(type: String(describing: G.self)))
    }

    /// An arbiter checked by `verdict`, named `name` (an arbiter in another
    /// process), told ahead of the scenarios it will check by `foretell` if
    /// given; `replay` holds the `drivesim run` options that use it again
    /// (` --arbiter 'COMMAND'`).
    package static func custom(
        name: String, replay: String = "", foretell: (@Sendable ([Scenario]) -> Void)? = nil,
        verdict: @escaping @Sendable (Scenario) -> Verdict
    ) -> ArbiterUnderTest {
        ArbiterUnderTest(
            name: name, mutant: nil, isReference: false, verdict: { scenario, _ in verdict(scenario) },
            foretell: foretell,
            replay: .cli(options: replay))
    }

    /// A built-in mutant (`fuzz --mutant`), or the reference for nil.
    package static func mutant(_ fault: TalkArbiter.Fault?) -> ArbiterUnderTest {
        builtIn(fault.map(Mutant.talk))
    }

    /// A built-in mutant of the arbiter or of the road, or the reference for nil.
    package static func builtIn(_ mutant: Mutant?) -> ArbiterUnderTest {
        guard let mutant else { return .reference }
        let (fault, roadPlan) = (mutant.talk, mutant.roadPlan)
        return ArbiterUnderTest(
            name: "mutant \(mutant.name)", mutant: mutant, isReference: false,
            verdict: {
                Verdict($0, fault: fault, roadPlan: roadPlan, plan: $1?.plan, shape: $1?.shape)
            }, replay: .cli(options: " --mutant \(mutant.name)"))
    }

    /// Checks `scenario` with this arbiter: simulated twice, every check, and
    /// in differential mode the comparison with the reference.
    public func check(_ scenario: Scenario) -> Verdict { verdict(scenario, nil) }

    /// The same, given what the generator knows of the scenario's road
    /// (`KnownRoad`), which this arbiter's check uses instead of finding it again.
    package func check(_ scenario: Scenario, known: KnownRoad?) -> Verdict { verdict(scenario, known) }
}
