import SimRunner

extension Verdict {
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
