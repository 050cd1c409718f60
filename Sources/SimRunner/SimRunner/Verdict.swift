import Guidance
import Road
import SimClock
import TalkArbiter

/// Everything a checked run found: its timeline, broken invariants and failed expectations.
public struct Verdict: Sendable {
    /// The run.
    public var simulation: Simulation
    /// Every broken check, an impossible action and a divergence from the reference included.
    public var violations: [Violation]
    /// The scenario's expectations that did not hold.
    public var failures: [ExpectationFailure]
    /// The scenario's matchers of Pippa's view that did not hold.
    public var pippaFailures: [PippaMatcher.Failure]
    /// In differential mode, the first decision where the arbiter and the reference part.
    public var divergence: Divergence?

    /// Simulates `scenario` twice (invariant 7 compares the two timelines),
    /// checks the other invariants, the rule checks and the expectations.
    /// The second run reuses the first one's roster (numbering the file's
    /// items is a pure function of the file, and so is drivesim's own road
    /// plan, `RoadPlanning.isOwn`); a road planned by another guidance is
    /// planned again, so a guidance that is not deterministic shows.
    /// Throws the scenario's first problem (`Scenario.validate()`, its road
    /// included) without running it.
    public init(_ scenario: Scenario) throws(ScenarioProblem) {
        try scenario.validate()
        self.init(scenario, fault: nil)
    }

    /// The same with an arbiter of type `arbiter`. The checks read only the
    /// timeline and the bus, so a wrong arbiter cannot vouch for itself.
    /// With `differential`, the reference runs the scenario too and the
    /// first decision where the two part is a violation (`Check.arbiter(.divergence)`).
    /// Throws the scenario's first problem (`Scenario.validate()`) without running it.
    public init<A: Arbiter>(_ scenario: Scenario, arbiter: A.Type, differential: Bool = false) throws(ScenarioProblem) {
        try scenario.validate()
        self.init(scenario, differential: differential) { A($0) }
    }

    /// The same with a deliberately broken arbiter (nil: the reference), for
    /// mutation testing, over a scenario known to be valid (not checked again).
    /// `plan` is the road's plan by drivesim's own guidance with `roadPlan`'s
    /// fault, when the caller has it already (a fuzz run's last dry run);
    /// `shape`, its shape (`RoadShape`), which the road checks' truth starts from.
    package init(
        _ scenario: Scenario, fault: TalkArbiter.Fault?, roadPlan: RoadPlanning? = nil, plan: RoadPlan? = nil,
        shape: RoadShape? = nil
    ) {
        self.init(scenario, differential: false, roadPlan: roadPlan, plan: plan, shape: shape) {
            TalkArbiter($0, fault: fault)
        }
    }

    /// The same with the arbiter that `make` builds from the scenario's
    /// tables, over a scenario known to be valid (not checked again).
    /// `roadPlan` plans the road another way, both times: a road mutant
    /// (`RoadPlanning.builtIn`), or another guidance (planned again for the
    /// second run, so a guidance that is not deterministic is caught), the
    /// reference's run too. `plan` is the road's plan when the caller has it
    /// already, made as `roadPlan` makes it, and only then; `shape` is the
    /// road's shape when the caller has it (the road checks start from it).
    /// In differential mode, `reference` is the reference's decisions on
    /// `scenario` if the caller has them already (else it runs the reference).
    /// `first` is the first run when the caller knows it already (an
    /// arbiter that answered every message as the reference's run it was
    /// foretold, recorded with the same `differential`): only the second
    /// run is simulated, with `make`. With `repeating` false there is no
    /// second run (invariant 7 is not judged: `explore --ties`, whose file
    /// as written was judged once, runs thousands of variations of it).
    package init<A: Arbiter>(
        _ scenario: Scenario, differential: Bool, roadPlan: RoadPlanning? = nil, plan: RoadPlan? = nil,
        shape: RoadShape? = nil,
        reference: [Decision]? = nil,
        first: Simulation? = nil, repeating: Bool = true, make: (ArbiterTables) -> A
    ) {
        simulation =
            first
            ?? Simulation(
                scenario, roster: nil, roadPlan: roadPlan, plan: plan, recordingDecisions: differential, make: make)
        violations = Invariants.check(scenario, simulation, shape: shape)
        let roster = simulation.timeline.roster
        if let impossible = simulation.impossibleAction {
            // The run stopped at that action, so nothing after it ended: invariant 6
            // (how every item ends) cannot be judged; the rest held until the stop.
            violations.removeAll { $0.check == .invariant(6) }
            violations.append(impossible.violation(roster))
        }
        // The second run reuses the first one's roster, unless another guidance
        // planned the road: that one plans it again, so one that is not deterministic is caught.
        // It compares its events with the first run's as it goes, so a repeat allocates no timeline.
        if repeating {
            let replans = scenario.road != nil && !(roadPlan?.isOwn ?? true)
            let again = Simulation(
                scenario, roster: replans ? nil : roster, roadPlan: roadPlan, recordingDecisions: false,
                expected: simulation.timeline.events, make: make)
            if let divergence = Verdict.firstDifference(simulation.timeline, again.timeline) {
                violations.append(divergence)
            }
        }
        if differential, let mine = simulation.decisions {
            let reference =
                reference ?? Simulation(scenario, fault: nil, roadPlan: roadPlan, recordingDecisions: true).decisions
                ?? []
            divergence = Divergence.first(mine, reference: reference)
            if let divergence { violations.append(divergence.violation(roster)) }
        }
        failures = simulation.timeline.failures(of: scenario.expect)
        pippaFailures = simulation.timeline.failures(of: scenario.expectPippa)
    }

    /// Whether every invariant and expectation held.
    public var passed: Bool { violations.isEmpty && failures.isEmpty && pippaFailures.isEmpty }

    /// Whether the arbiter's or the guidance's process failed (`Check.arbiter(.process)`,
    /// `Check.guidance(.process)`): then the verdict holds that failure and only what was found before it.
    package var processFailed: Bool {
        violations.contains { $0.check == .arbiter(.process) || $0.check == .guidance(.process) }
    }

    /// An arbiter in another process failed at `t` (crashed, hung, answered
    /// out of turn): from that instant on the run had no arbiter, so what the
    /// checks found there (items that never end, expectations, a second run
    /// that parts) is the failure's echo, not a finding. Keeps what broke
    /// before `t` and puts the failure first.
    /// A guidance process that failed (`check` `.guidance(.process)`) left the
    /// road without lines from `t` on: the same holds.
    package mutating func recordProcessFailure(at t: SimTime, _ message: String, check: Check = .arbiter(.process)) {
        violations.removeAll { $0.t >= t || $0.check == .invariant(6) || $0.check == .invariant(7) }
        violations.insert(Violation(check: check, t: t, message: message), at: 0)
        failures = []
        pippaFailures = []
    }

    /// The first event at which two timelines of one scenario differ, as a
    /// violation of invariant 7. Events are typed and carry their road
    /// payload, so equal events over equal road plans (the generated lines
    /// they name) mean equal bytes; otherwise events are compared by every
    /// field they render, names resolved in each run's own roster.
    static func firstDifference(_ a: Timeline, _ b: Timeline) -> Violation? {
        if a.events == b.events, a.roster.road == b.roster.road { return nil }
        let shared = min(a.events.count, b.events.count)
        let i = (0..<shared).first { !a.renders(a.events[$0], like: b.events[$0], in: b) } ?? shared
        guard i < shared || a.events.count != b.events.count else { return nil }
        let first = i < a.events.count ? a.summary(of: a.events[i]) : "the end of the timeline"
        let second = i < b.events.count ? b.summary(of: b.events[i]) : "the end of the timeline"
        let t = (i < a.events.count ? a.events[i].t : a.events.last?.t) ?? .zero
        return Violation(
            check: .invariant(7), t: t, message: "a second run diverged at event \(i): \(first) became \(second)")
    }
}

extension Timeline {
    /// Whether `event` of this timeline shows the same as `other` of `timeline`:
    /// the time, the name and every field's value.
    func renders(_ event: TimelineEvent, like other: TimelineEvent, in timeline: Timeline) -> Bool {
        event.t == other.t && event.kind == other.kind
            && event.kind.fields.allSatisfy { value(of: $0, in: event) == timeline.value(of: $0, in: other) }
    }
}

extension ExpectationFailure {
    /// `expect[2] (line 12, column 5): expected guidance.started line="g1" at 00:04.000; found none`
    /// (the position when the matcher came from a file).
    package var summary: String {
        let e = matcher
        let quantity: String
        if let count = e.count {
            quantity = "exactly \(count) × "
        } else if let range = e.countRange {
            switch (range.min, range.max) {
            case (let a?, let b?): quantity = "\(a) to \(b) × "
            case (let a?, nil): quantity = "at least \(a) × "
            case (nil, let b?): quantity = "at most \(b) × "
            case (nil, nil): quantity = ""
            }
        } else {
            quantity = ""
        }
        let got = found == 0 ? "found none" : "found \(found)"
        let position = e.line > 0 ? " (line \(e.line), column \(e.column))" : ""
        return "\(e.path)\(position): expected \(quantity)\(e.what); \(got)"
    }
}

extension Matcher {
    /// What the matcher wants, in one line: `guidance.started line="g1" text contains "then" at 00:04.000`,
    /// then its `since` and `until` in parentheses (`since (talk.stretch.ended stretch="s1") within 2 s`).
    package var what: String {
        var out = event.rawValue
        if tests.isEmpty {
            for (field, value) in fields { out += " \(field.rawValue)=\(value)" }
        } else {
            var parts = fields.map { (name: $0.field.rawValue, text: "\($0.field.rawValue)=\($0.value)") }
            parts += tests.map { (name: $0.field.rawValue, text: "\($0.field.rawValue) \($0.test)") }
            parts.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for part in parts { out += " " + part.text }
        }
        switch when {
        case .anywhere: break
        case .at(let t): out += " at \(t)"
        case .between(let a, let b): out += " between \(a) and \(b)"
        }
        if let since { out += " since (\(since.what))" }
        if let within { out += " within \(Matcher.seconds(within))" }
        if let until { out += " until (\(until.what))" }
        return out
    }

    /// A span of time in seconds for messages: `2 s`, `0.5 s`, `-1.25 s`.
    package static func seconds(_ t: SimTime) -> String {
        let magnitude = t.ms.magnitude
        var text = String(magnitude / 1000)
        let millis = magnitude % 1000
        if millis > 0 {
            var digits = String(millis)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return (t.ms < 0 ? "-" : "") + text + " s"
    }
}

extension Verdict: CustomStringConvertible {
    /// A readable summary, for a test's failure message: `passed`, or the
    /// count of what failed and one line each, broken checks first in time
    /// order (`invariant 4 at 00:04.000: …`), then the failed expectations.
    public var description: String {
        guard !passed else { return "passed" }
        var parts: [String] = []
        if !violations.isEmpty { parts.append(counted(violations.count, "broken check")) }
        if !failures.isEmpty || !pippaFailures.isEmpty {
            parts.append(counted(failures.count + pippaFailures.count, "failed expectation"))
        }
        var lines = ["failed: " + parts.joined(separator: ", ")]
        for v in violations.sorted(by: { ($0.t, $0.check) < ($1.t, $1.check) }) {
            lines.append("  \(v.check) at \(v.t): \(v.message)")
        }
        for f in failures { lines.append("  \(f.summary)") }
        for f in pippaFailures { lines.append("  \(f.summary)") }
        return lines.joined(separator: "\n")
    }
}
