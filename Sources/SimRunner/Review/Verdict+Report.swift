import SimClock
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
            for line in timeline.lines(for: timeline.context(at: violation.t)) { out += "    " + line + "\n" }
        }
        for failure in failures {
            out += failure.summary + "\n"
            for anchor in failure.anchors {
                out += "  " + anchor.line(in: timeline, nearest: failure.nearest.first) + "\n"
            }
            if let differs = failure.differenceLine { out += "  " + differs + "\n" }
            if !failure.nearest.isEmpty {
                out += "  nearest:\n"
                for line in timeline.lines(for: failure.nearest) { out += "    " + line + "\n" }
            }
        }
        for failure in pippaFailures {
            out += failure.summary + "\n"
            if let report = failure.view.report {
                out += "  her last report:\n"
                for line in timeline.lines(for: [timeline.events[report.event]]) { out += "    " + line + "\n" }
            }
        }
        return out
    }
}

extension Timeline {
    /// The most events a broken check's context shows.
    static let contextEvents = 8

    /// The events shown around a check broken at `t`, in timeline order: the
    /// `contextEvents` nearest to `t` within a second (so the events at `t`,
    /// the ones that broke it, are always among them), and, before them, the
    /// first earlier event that each event at `t` repeats (the same kind
    /// about the same items: the first take of a handoff taken twice), when
    /// it lies further back.
    func context(at t: SimTime) -> [TimelineEvent] {
        let window = events.indices.filter { abs(events[$0].t.ms - t.ms) <= 1000 }
        var shown = window.sorted { (abs(events[$0].t.ms - t.ms), $0) < (abs(events[$1].t.ms - t.ms), $1) }
            .prefix(Self.contextEvents).sorted()
        let firstShown = shown.first ?? events.count
        for i in window where events[i].t == t {
            guard let earlier = events[..<firstShown].firstIndex(where: { repeats(events[i], $0) }),
                !shown.contains(earlier)
            else { continue }
            shown.insert(earlier, at: shown.firstIndex { $0 > earlier } ?? shown.count)
        }
        return shown.map { events[$0] }
    }

    /// Whether `event` repeats `earlier`: the same kind, naming the same
    /// items (every id field equal), and it names at least one.
    func repeats(_ event: TimelineEvent, _ earlier: TimelineEvent) -> Bool {
        guard event.kind == earlier.kind else { return false }
        let ids = event.kind.fields.filter {
            [.line, .reply, .stretch, .utterance, .maneuver, .route, .handoff].contains($0)
        }
        return !ids.isEmpty && ids.allSatisfy { value(of: $0, in: event) == value(of: $0, in: earlier) }
    }
}

extension ExpectationFailure {
    /// `nearest differs in stretch: "s1", expected "s2"; t: 00:05.000, expected at 00:04.000`,
    /// or nil when the nearest event differs in nothing the matcher names.
    package var differenceLine: String? {
        var parts = differences.map { d in
            let wanted = d.test.map(\.description) ?? d.expected.map(\.description) ?? "absent"
            return "\(d.field.rawValue): \(d.actual.map(\.description) ?? "absent"), expected \(wanted)"
        }
        if let t = timeOutside {
            switch matcher.when {
            case .anywhere: break
            case .at(let at) where t != at: parts.append("t: \(t), expected at \(at)")
            case .between(let a, let b) where t < a || t > b: parts.append("t: \(t), expected between \(a) and \(b)")
            default: break
            }
            for anchor in anchors {
                guard let from = anchor.event?.t else { continue }
                let gap = Matcher.seconds(t - from)
                switch anchor.relation {
                case .since where t < from:
                    parts.append("t: \(t), \(Matcher.seconds(from - t)) before since's event at \(from)")
                case .since where matcher.within.map { t > from + $0 } ?? false:
                    parts.append(
                        "t: \(t), \(gap) after since's event at \(from), expected within \(matcher.within.map(Matcher.seconds) ?? "")"
                    )
                case .until where t > from:
                    parts.append("t: \(t), \(gap) after until's event at \(from)")
                default: break
                }
            }
        }
        return parts.isEmpty ? nil : "nearest differs in " + parts.joined(separator: "; ")
    }
}

extension AnchorOutcome {
    /// `since: 00:04.000  talk.stretch.ended  reply="r1" stretch="s1"; the nearest event 3.5 s after it`,
    /// or, when it found nothing, `since found nothing: expected …; found none`
    /// and how its own nearest event differs.
    package func line(in timeline: Timeline, nearest: TimelineEvent?) -> String {
        switch outcome {
        case .found(let event):
            var out = "\(relation.rawValue): " + timeline.line(for: event)
            if let nearest {
                let gap = nearest.t - event.t
                out +=
                    gap.ms == 0
                    ? "; the nearest event at the same instant"
                    : gap.ms > 0
                        ? "; the nearest event \(Matcher.seconds(gap)) after it"
                        : "; the nearest event \(Matcher.seconds(event.t - nearest.t)) before it"
            }
            return out
        case .foundNothing(let failure):
            var out = "\(relation.rawValue) found nothing: expected \(failure.matcher.what); found none"
            if let differs = failure.differenceLine { out += "\n    " + differs }
            return out
        }
    }
}
