import SimRunner
import TalkArbiter

/// The arbiter a campaign or a shrinker runs: the reference, a built-in
/// mutant, or any `Arbiter` type, checked against the reference in
/// differential mode. A value, so it travels in `Fuzzer.Settings` to every worker.
public struct ArbiterUnderTest: Sendable {
    /// A name for reports: `the arbiter`, `mutant held-ignored`, or the type's name.
    public let name: String
    /// The built-in mutant, if this is one.
    package let fault: TalkArbiter.Fault?
    /// Whether this is the reference arbiter itself.
    public let isReference: Bool
    /// Checks one scenario with this arbiter.
    let verdict: @Sendable (Scenario) -> Verdict

    /// The reference arbiter, `TalkArbiter`.
    public static let reference = ArbiterUnderTest(name: "the arbiter", fault: nil, isReference: true) { Verdict($0, fault: nil) }

    /// An arbiter of type `type`; with `differential` (the default) every run
    /// is also compared with the reference, decision by decision.
    public static func swift<A: Arbiter>(_ type: A.Type, differential: Bool = true) -> ArbiterUnderTest {
        ArbiterUnderTest(name: String(describing: type), fault: nil, isReference: false) {
            Verdict($0, differential: differential) { A($0) }
        }
    }

    /// An arbiter checked by `verdict`, named `name` (an arbiter in another process).
    package static func custom(name: String, verdict: @escaping @Sendable (Scenario) -> Verdict) -> ArbiterUnderTest {
        ArbiterUnderTest(name: name, fault: nil, isReference: false, verdict: verdict)
    }

    /// A built-in mutant (`fuzz --mutant`), or the reference for nil.
    package static func mutant(_ fault: TalkArbiter.Fault?) -> ArbiterUnderTest {
        guard let fault else { return .reference }
        return ArbiterUnderTest(name: "mutant \(fault.rawValue)", fault: fault, isReference: false) { Verdict($0, fault: fault) }
    }

    /// Checks `scenario` with this arbiter: simulated twice, every check, and
    /// in differential mode the comparison with the reference.
    public func check(_ scenario: Scenario) -> Verdict { verdict(scenario) }
}
