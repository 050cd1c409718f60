import SimClock
import TalkArbiter

/// Everything a checked run found: its timeline, broken invariants and failed expectations.
public struct Verdict: Sendable {
    public var simulation: Simulation
    public var violations: [Violation]
    public var failures: [ExpectationFailure]

    /// Simulates `scenario` twice (invariant 7 compares the two timelines),
    /// checks the other invariants, the rule checks and the expectations.
    public init(_ scenario: Scenario) { self.init(scenario, fault: nil) }

    /// The same with a deliberately broken arbiter, for mutation testing.
    package init(_ scenario: Scenario, fault: TalkArbiter.Fault?) {
        simulation = Simulation(scenario, fault: fault)
        violations = Invariants.check(scenario, simulation)
        let again = Simulation(scenario, fault: fault)
        if let divergence = Verdict.firstDifference(simulation.timeline, again.timeline) {
            violations.append(divergence)
        }
        failures = simulation.timeline.failures(of: scenario.expect)
    }

    /// Whether every invariant and expectation held.
    public var passed: Bool { violations.isEmpty && failures.isEmpty }

    /// The first event at which two timelines of one scenario differ, as a
    /// violation of invariant 7. Both share one roster and the JSON is a pure
    /// function of the events, so equal events mean equal bytes.
    static func firstDifference(_ a: Timeline, _ b: Timeline) -> Violation? {
        guard a.events != b.events else { return nil }
        let shared = min(a.events.count, b.events.count)
        let i = (0..<shared).first { a.jsonObject(a.events[$0]) != b.jsonObject(b.events[$0]) } ?? shared
        let first = i < a.events.count ? a.jsonObject(a.events[i]) : "the end of the timeline"
        let second = i < b.events.count ? b.jsonObject(b.events[i]) : "the end of the timeline"
        let t = (i < a.events.count ? a.events[i].t : a.events.last?.t) ?? .zero
        return Violation(check: .invariant(7), t: t, message: "a second run diverged at event \(i): \(first) became \(second)")
    }

    /// What went wrong, for standard error: each broken invariant with the
    /// events around it, each failed expectation with the nearest events.
    public var report: String {
        let timeline = simulation.timeline
        var out = ""
        for violation in violations {
            out += "\(violation.check) broken at \(violation.t): \(violation.message)\n"
            let around = timeline.events.enumerated().filter { abs($0.element.t.ms - violation.t.ms) <= 1000 }
            for (_, event) in around.prefix(8) { out += "    " + timeline.line(for: event) + "\n" }
        }
        for failure in failures {
            out += failure.summary + "\n"
            if !failure.nearest.isEmpty {
                out += "  nearest:\n"
                for event in failure.nearest { out += "    " + timeline.line(for: event) + "\n" }
            }
        }
        return out
    }
}

extension ExpectationFailure {
    /// `expect[2]: expected guidance.started line="g1" at 00:04.000; found none`.
    public var summary: String {
        let e = matcher
        var what = e.event
        for (name, value) in e.fields { what += " \(name)=\(value)" }
        switch e.when {
        case .anywhere: break
        case .at(let t): what += " at \(t)"
        case .between(let a, let b): what += " between \(a) and \(b)"
        }
        let quantity = e.count.map { "exactly \($0) × " } ?? ""
        let got = found == 0 ? "found none" : "found \(found)"
        return "\(e.path): expected \(quantity)\(what); \(got)"
    }
}
