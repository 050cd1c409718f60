import ScenarioFormat
import SimRunner

/// The timeline as text for people: one line per event, the time, the lane,
/// what happened, the ids and details, and the rule beside every decision.
///
///     00:02.000  guidance  started    g1 "In 300 m, turn right"
///     00:03.000  talk      cut        r1/s1 by g2 after 2000 ms          [long-cut]
extension Timeline {
    /// The whole timeline, a header line and one line per event.
    public var text: String {
        var out = "# \(scenario)\n"
        for event in events { out += line(for: event) + "\n" }
        return out
    }

    /// One event as a line of text.
    public func line(for event: TimelineEvent) -> String {
        let name = event.kind.rawValue
        let lane = String(name.prefix { $0 != "." })
        let verb = String(name.dropFirst(lane.count + 1).map { $0 == "." ? " " : $0 })
        var details = detail(of: event)
        if let rule = event.rule, event.kind != .earsClosed {
            details = pad(details, 36) + " [\(rule.rawValue)]"
        } else if event.kind.isRoad, case .string(let reason)? = value(of: "reason", in: event) {
            details = pad(details, 36) + " [\(reason)]"
        }
        return "\(event.t)  \(pad(lane, 8))  \(pad(verb, 15))  \(details)".trimmingTrailingSpaces()
    }

    private func detail(of event: TimelineEvent) -> String {
        func text(_ key: String) -> String {
            guard case .string(let s)? = value(of: key, in: event) else { return "" }
            return " " + JSONWriter.quoted(s)
        }
        func string(_ key: String) -> String {
            guard case .string(let s)? = value(of: key, in: event) else { return "?" }
            return s
        }
        switch event.kind {
        case .guidanceRequested:
            let urgent = roster.lines[Int(event.subject)].urgent ? " urgent" : ""
            let stage = event.subject < roster.lineStages.count ? roster.lineStages[Int(event.subject)].map { " (\($0.rawValue))" } ?? "" : ""
            return string("line") + urgent + stage + text("text")
        case .guidanceWaiting:
            return event.stretch >= 0 ? "\(string("line")) for \(string("stretch"))" : string("line")
        case .guidanceStarted: return string("line") + text("text")
        case .guidanceEnded, .guidanceDropped: return string("line")
        case .replyQueued, .replyBegan, .replyEnded, .replyAbandoned: return string("reply")
        case .stretchStarted:
            let held = event.rule == nil ? "" : " held \(event.ms) ms"
            return "\(string("reply"))/\(string("stretch"))\(held)\(text("text"))"
        case .stretchEnded: return "\(string("reply"))/\(string("stretch"))"
        case .stretchCut:
            let then = event.afterCut.map { ", then \($0.rawValue)" } ?? ""
            return "\(string("reply"))/\(string("stretch")) by \(string("by")) after \(event.ms) ms\(then)"
        case .earsClosed, .earsOpened: return ""
        case .dadStarted: return "\(string("utterance")) (\(string("language")))\(text("text"))"
        case .dadEnded: return "\(string("utterance")) heard \(event.ms) ms, lost \(event.lostMs) ms"
        case .roadFixArrived, .roadFixDropped, .roadReportSent, .roadReportDelivered, .roadReportDropped, .roadOffRoute,
            .roadOnRoute, .roadTurnUpcoming, .roadTurnPassed, .roadTurnUnannounced, .roadStageSkipped,
            .roadMeasuringPaused, .roadMeasuringResumed, .roadSegmentStarted, .roadSegmentEnded:
            return roadDetail(of: event)
        }
    }
}

package func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
