import SimRunner

extension Verdict {
    /// What went wrong, for standard error: each broken invariant with the
    /// events around it, each failed expectation with where it is in the
    /// file, what differed on the nearest event, and the nearest events.
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
            if let differs = failure.differenceLine { out += "  " + differs + "\n" }
            if !failure.nearest.isEmpty {
                out += "  nearest:\n"
                for event in failure.nearest { out += "    " + timeline.line(for: event) + "\n" }
            }
        }
        return out
    }
}

extension ExpectationFailure {
    /// `nearest differs in stretch: "s1", expected "s2"; t: 00:05.000, expected at 00:04.000`,
    /// or nil when the nearest event differs in nothing the matcher names.
    public var differenceLine: String? {
        var parts = differences.map { d in
            "\(d.field.rawValue): \(d.actual.map(\.description) ?? "absent"), expected \(d.expected)"
        }
        if let t = timeOutside {
            switch matcher.when {
            case .anywhere: break
            case .at(let at): parts.append("t: \(t), expected at \(at)")
            case .between(let a, let b): parts.append("t: \(t), expected between \(a) and \(b)")
            }
        }
        return parts.isEmpty ? nil : "nearest differs in " + parts.joined(separator: "; ")
    }
}
