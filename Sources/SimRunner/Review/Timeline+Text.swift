import Guidance
import Road
import ScenarioFormat
import SimRunner

/// The timeline as text for people: one line per event, the time, the lane,
/// what happened, the ids and details, and the rule beside every decision.
///
///     00:02.000  guidance  started    g1 "In 300 m, turn right"
///     00:03.000  talk      cut        r1/s1 by g2 after 2000 ms          [long-cut]
///
/// Each line is written straight into one byte buffer from the typed event;
/// the lane and verb columns are made once per kind.
extension Timeline {
    /// The whole timeline, a header line and one line per event.
    public var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(events.count * 72 + scenario.utf8.count + 4)
        out.append(utf8: "# ")
        out.append(utf8: scenario)
        out.append(UInt8(ascii: "\n"))
        for event in events {
            writeLine(event, into: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One event as a line of text.
    public func line(for event: TimelineEvent) -> String {
        var out: [UInt8] = []
        writeLine(event, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one event's line, without its newline.
    func writeLine(_ event: TimelineEvent, into out: inout [UInt8]) {
        let start = out.count
        out.append(time: event.t)
        out.append(contentsOf: TextLayout.columns[event.kind.ordinal])
        let details = out.count
        writeDetail(of: event, into: &out)
        let tag: String? = if let rule = event.rule, event.kind != .earsClosed { rule.rawValue }
            else if case .road(let road) = event.what { road.reason } else { nil }
        if let tag {
            out.append(spaces: 36 - characterCount(out[details...]))
            out.append(utf8: " [")
            out.append(utf8: tag)
            out.append(UInt8(ascii: "]"))
        }
        while out.count > start, out.last == UInt8(ascii: " ") { out.removeLast() }
    }

    private func characterCount(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.allSatisfy { $0 < 0x80 } ? bytes.count : String(decoding: bytes, as: UTF8.self).count
    }

    private func writeDetail(of event: TimelineEvent, into out: inout [UInt8]) {
        func text(_ s: String?) {
            guard let s else { return }
            out.append(UInt8(ascii: " "))
            out.append(quoted: s)
        }
        func replyStretch(_ r: ReplyIndex, _ s: StretchIndex) {
            out.append(utf8: roster.replyIDs[r.int])
            out.append(UInt8(ascii: "/"))
            out.append(utf8: roster.stretches[s.int].id)
        }
        switch event.what {
        case .guidanceRequested(let l):
            let line = roster.lines[l.int]
            out.append(utf8: line.id)
            if line.urgent { out.append(utf8: " urgent") }
            if let stage = roster.stage(of: l) {
                out.append(utf8: " (")
                out.append(utf8: stage.rawValue)
                out.append(UInt8(ascii: ")"))
            }
            text(line.text)
        case .guidanceWaiting(let l, _, let stretch):
            out.append(utf8: roster.lines[l.int].id)
            if let stretch {
                out.append(utf8: " for ")
                out.append(utf8: roster.stretches[stretch.int].id)
            }
        case .guidanceStarted(let l):
            out.append(utf8: roster.lines[l.int].id)
            text(roster.lines[l.int].text)
        case .guidanceEnded(let l), .guidanceDropped(let l, _):
            out.append(utf8: roster.lines[l.int].id)
        case .replyQueued(let r), .replyBegan(let r), .replyEnded(let r), .replyAbandoned(let r, _):
            out.append(utf8: roster.replyIDs[r.int])
        case .stretchStarted(let r, let s, let held):
            replyStretch(r, s)
            if let held {
                out.append(utf8: " held ")
                out.append(int: held)
                out.append(utf8: " ms")
            }
            text(roster.stretches[s.int].text)
        case .stretchEnded(let r, let s):
            replyStretch(r, s)
        case .stretchCut(let r, let s, _, let by, let played, let then):
            replyStretch(r, s)
            out.append(utf8: " by ")
            out.append(utf8: roster.id(of: by))
            out.append(utf8: " after ")
            out.append(int: played)
            out.append(utf8: " ms")
            if let then {
                out.append(utf8: ", then ")
                out.append(utf8: then.rawValue)
            }
        case .earsClosed, .earsOpened:
            break
        case .dadStarted(let u):
            let utterance = roster.utterances[u.int]
            out.append(utf8: utterance.id)
            out.append(utf8: " (")
            out.append(utf8: utterance.language.rawValue)
            out.append(UInt8(ascii: ")"))
            text(utterance.text)
        case .dadEnded(let u, let heard, let lost):
            out.append(utf8: roster.utterances[u.int].id)
            out.append(utf8: " heard ")
            out.append(int: heard)
            out.append(utf8: " ms, lost ")
            out.append(int: lost)
            out.append(utf8: " ms")
        case .road(let road):
            writeRoadDetail(of: road, into: &out)
        }
    }

    /// One road event's details.
    private func writeRoadDetail(of road: RoadEvent.What, into out: inout [UInt8]) {
        let maneuvers = roster.road.maneuvers
        func fix(_ f: FixIndex) {
            out.append(UInt8(ascii: "f"))
            out.append(int: Int64(f.raw))
        }
        switch road {
        case .fixArrived(let f, let age, let trusted):
            fix(f)
            out.append(UInt8(ascii: " "))
            out.append(int: age)
            out.append(utf8: " ms old")
            if !trusted { out.append(utf8: ", not trusted") }
        case .fixDropped(let f, _), .reportDropped(let f, _), .reportDelivered(let f):
            fix(f)
        case .reportSent(let f, let age, let onRoute, let next):
            fix(f)
            out.append(utf8: " by ")
            out.append(utf8: LocationLink.reporter)
            out.append(utf8: ", ")
            out.append(int: age)
            out.append(utf8: " ms old")
            if !onRoute { out.append(utf8: ", off route") }
            if let next {
                out.append(utf8: ", ")
                out.append(utf8: maneuvers[next.maneuver.int].id)
                out.append(utf8: " in ")
                out.append(int: next.distanceM)
                out.append(utf8: " m")
            }
        case .offRoute(let offset):
            out.append(int: offset)
            out.append(utf8: " m from the route")
        case .onRoute(let progress):
            out.append(utf8: "at ")
            out.append(int: progress)
            out.append(utf8: " m")
        case .turnUpcoming(let next, let eta, let after):
            let maneuver = maneuvers[next.maneuver.int]
            out.append(utf8: maneuver.id)
            out.append(UInt8(ascii: " "))
            out.append(utf8: maneuver.turn.rawValue)
            out.append(utf8: " in ")
            out.append(int: next.distanceM)
            out.append(utf8: " m")
            if let eta {
                out.append(utf8: ", ")
                out.append(int: eta / 1000)
                out.append(utf8: " s")
            }
            if let after {
                out.append(utf8: ", then ")
                out.append(utf8: maneuvers[after.maneuver.int].id)
                out.append(utf8: " at ")
                out.append(int: after.distanceM)
                out.append(utf8: " m")
            }
        case .turnPassed(let m), .turnUnannounced(let m, _):
            out.append(utf8: maneuvers[m.int].id)
        case .stageSkipped(let m, let stage, _):
            out.append(utf8: maneuvers[m.int].id)
            out.append(UInt8(ascii: " "))
            out.append(utf8: stage.rawValue)
        case .measuringPaused, .measuringResumed, .segmentStarted, .segmentEnded:
            break
        }
    }
}

/// The lane and verb columns of each kind (`  guidance  requested        `), made once.
enum TextLayout {
    /// By `EventKind.ordinal`.
    static let columns: [[UInt8]] = EventKind.allCases.map { kind in
        let name = kind.rawValue
        let lane = String(name.prefix { $0 != "." })
        let verb = String(name.dropFirst(lane.count + 1).map { $0 == "." ? " " : $0 })
        return Array("  \(pad(lane, 8))  \(pad(verb, 15))  ".utf8)
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
