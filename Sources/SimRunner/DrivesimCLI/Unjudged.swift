import SimClock
import SimRunner

/// What a run with another process (`--guidance`, `--arbiter`) did not judge
/// of its scenario, and why: said on standard error in one line, so that a
/// developer plugging in an engine never takes a skipped expectation for a
/// passed one (docs/cli.md#what-a-run-with-another-process-does-not-judge).
struct Unjudged: Equatable {
    /// Why nothing of the scenario's own pins was judged.
    enum Why: Equatable {
        /// Another guidance planned the road: the expectations and the golden
        /// timeline pin drivesim's own guidance (its line ids, words and times).
        case otherGuidance
        /// The named process failed at `at`: the timeline stops there.
        case processFailed(process: String, at: SimTime)
    }

    /// How many of the scenario's expectations were not judged (all of them).
    var expectations: Int
    /// Whether the scenario names a golden timeline, not compared.
    var golden: Bool
    /// Why.
    var why: Why

    /// What `verdict`'s run of `scenario` did not judge; nil when it judged
    /// everything the scenario pins (or the scenario pins nothing).
    /// `otherGuidance`: a guidance process planned the road.
    init?(_ scenario: Scenario, _ verdict: Verdict, otherGuidance: Bool) {
        let why: Why
        if let failure = verdict.violations.first(where: {
            $0.check == .arbiter(.process) || $0.check == .guidance(.process)
        }) {
            why = .processFailed(process: failure.check == .arbiter(.process) ? "arbiter" : "guidance", at: failure.t)
        } else if otherGuidance, scenario.road != nil {
            why = .otherGuidance
        } else {
            return nil
        }
        let expectations = scenario.expect.count + scenario.expectPippa.count
        guard expectations > 0 || scenario.golden != nil else { return nil }
        self.expectations = expectations
        self.golden = scenario.golden != nil
        self.why = why
    }

    /// `x.json: not judged: expect[0], expect[1] (2 expectations) and the golden timeline: they pin drivesim's own guidance; …`
    func line(file: String) -> String {
        var what: [String] = []
        switch expectations {
        case 0: break
        case 1: what.append("expect[0] (1 expectation)")
        case 2: what.append("expect[0], expect[1] (2 expectations)")
        default: what.append("expect[0] to expect[\(expectations - 1)] (\(expectations) expectations)")
        }
        if golden { what.append("the golden timeline") }
        let reason: String
        switch why {
        case .otherGuidance:
            reason = "they pin drivesim's own guidance; --guidance is judged by the road's checks alone"
        case .processFailed(let process, let t):
            reason = "the \(process) process failed at \(t), where the timeline stops"
        }
        return "\(file): not judged: \(what.joined(separator: " and ")): \(reason)\n"
    }
}

/// The `check` summary's count of what was not judged, over every scenario.
struct UnjudgedTally {
    /// Expectations not judged, over all scenarios.
    private(set) var expectations = 0
    /// Golden timelines not compared.
    private(set) var goldens = 0
    /// Scenarios with something not judged.
    private(set) var scenarios = 0

    /// Counts `unjudged`.
    mutating func add(_ unjudged: Unjudged) {
        expectations += unjudged.expectations
        goldens += unjudged.golden ? 1 : 0
        scenarios += 1
    }

    /// `not judged: 12 expectations and 3 golden timelines, in 4 scenarios (each named on standard error)`, or nil when nothing was skipped.
    var line: String? {
        guard scenarios > 0 else { return nil }
        var what: [String] = []
        if expectations > 0 { what.append(counted(expectations, "expectation")) }
        if goldens > 0 { what.append(counted(goldens, "golden timeline")) }
        return
            "not judged: \(what.joined(separator: " and ")), in \(counted(scenarios, "scenario")) (each named on standard error)\n"
    }
}
