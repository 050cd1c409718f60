import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// The timeline as text for people: one line per event, the time, the lane,
/// what happened, the ids and details, and the rule beside every decision.
///
///     00:02.000  guidance  started    g1 "In 300 m, turn right"
///     00:03.000  talk      cut        r1/s1 by g2 after 2000 ms          [long-cut]
///
/// Each line is written straight into one byte buffer from the typed event;
/// the lane and verb columns are made once per kind. Everything from the
/// input (ids, texts, the scenario's name) is escaped, so an event is always
/// one line and never drives the terminal. Times are right-aligned to the
/// widest (`   59:59.000`, `1:00:00.000`), and the rule column is placed by
/// display width (a Korean syllable takes two columns), so columns hold.
extension Timeline {
    /// The whole timeline, a header line and one line per event.
    public var text: String { text(folding: false) }

    /// The timeline as its story: each run of at least `Timeline.foldedRun`
    /// routine road events in a row (a trusted fix arrived, a report sent or
    /// delivered: a drive's steady heartbeat) folded into one line that says
    /// how many of each, from when until when; every other event as `text`.
    public var story: String { text(folding: true) }

    /// The fewest routine road events in a row that `story` folds.
    package static let foldedRun = 3

    /// Whether an event is routine: a trusted fix arrived, a report sent or delivered.
    static func routine(_ event: TimelineEvent) -> Bool {
        switch event.what {
        case .road(.fixArrived(_, _, true)), .road(.reportSent), .road(.reportDelivered): return true
        default: return false
        }
    }

    func text(folding: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(events.count * 72 + scenario.utf8.count + 4)
        out.append(utf8: "# ")
        out.append(escaped: scenario)
        out.append(UInt8(ascii: "\n"))
        let width = Self.timeWidth(events.last?.t ?? .zero)
        // The verb column is as wide as the longest verb in the timeline needs:
        // a talk timeline keeps 15, a road timeline's `report delivered` widens it for every line.
        let columns =
            events.contains { TextLayout.isWide[$0.kind.ordinal] } ? TextLayout.wideColumns : TextLayout.columns
        var i = 0
        while i < events.count {
            var end = i
            if folding { while end < events.count, Self.routine(events[end]) { end += 1 } }
            if end - i >= Self.foldedRun {
                writeFolded(
                    events[i..<end], timeWidth: width,
                    verbWidth: columns == TextLayout.wideColumns ? TextLayout.roadVerbWidth : TextLayout.talkVerbWidth,
                    into: &out)
                i = end
            } else {
                writeLine(events[i], timeWidth: width, columns: columns, into: &out)
                i += 1
            }
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One line for a run of routine events: `00:00.200  road  folded  12 fixes arrived, 12 reports sent, 12 delivered, to 00:11.500`.
    func writeFolded(_ run: ArraySlice<TimelineEvent>, timeWidth: Int, verbWidth: Int, into out: inout [UInt8]) {
        var fixes = 0
        var sent = 0
        var delivered = 0
        for event in run {
            switch event.what {
            case .road(.fixArrived): fixes += 1
            case .road(.reportSent): sent += 1
            default: delivered += 1
            }
        }
        let first = run.first!.t
        let last = run.last!.t
        out.append(spaces: timeWidth - Self.timeWidth(first))
        out.append(time: first)
        out.append(utf8: "  \(pad("road", 8))  \(pad("folded", verbWidth))  ")
        let parts = [
            fixes > 0 ? counted(fixes, "fix arrived", "fixes arrived") : nil,
            sent > 0 ? counted(sent, "report sent", "reports sent") : nil,
            delivered > 0 ? "\(delivered) delivered" : nil,
        ]
        out.append(utf8: parts.compactMap { $0 }.joined(separator: ", ") + ", to ")
        out.append(time: last)
    }

    /// `s` escaped to one safe line (see `append(escaped:)`), for names from the input in headings.
    static func oneLine(_ s: String) -> String {
        var out: [UInt8] = []
        out.append(escaped: s)
        return String(decoding: out, as: UTF8.self)
    }

    /// How many characters `append(time:)` writes for `t` (t ≥ 0): `mm:ss.mmm`, with `h:` in front past an hour.
    static func timeWidth(_ t: SimTime) -> Int {
        var hours = t.ms / 3_600_000
        var width = 9
        if hours > 0 { width += 1 }
        while hours > 0 {
            width += 1
            hours /= 10
        }
        return width
    }

    /// One event as a line of text.
    package func line(for event: TimelineEvent) -> String {
        var out: [UInt8] = []
        writeLine(event, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Events as lines shown together (a failure's context): their verbs in
    /// one column, as wide as the longest of them needs (`report delivered`),
    /// and their times right-aligned, so the columns hold for every verb.
    package func lines(for shown: [TimelineEvent]) -> [String] {
        let columns =
            shown.contains { TextLayout.isWide[$0.kind.ordinal] } ? TextLayout.wideColumns : TextLayout.columns
        let width = shown.map { Self.timeWidth($0.t) }.max() ?? 0
        return shown.map { event in
            var out: [UInt8] = []
            writeLine(event, timeWidth: width, columns: columns, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Appends one event's line, without its newline; the time right-aligned in `timeWidth` characters.
    func writeLine(
        _ event: TimelineEvent, timeWidth: Int = 0, columns: [[UInt8]] = TextLayout.columns, into out: inout [UInt8]
    ) {
        let start = out.count
        out.append(spaces: timeWidth - Self.timeWidth(event.t))
        out.append(time: event.t)
        out.append(contentsOf: columns[event.kind.ordinal])
        let details = out.count
        writeDetail(of: event, into: &out)
        let tag: String? =
            if let rule = event.rule { tag(rule, event) } else if case .road(let road) = event.what { road.reason } else
            { nil }
        if let tag {
            out.append(spaces: 36 - displayWidth(out[details...]))
            out.append(utf8: " [")
            out.append(utf8: tag)
            out.append(UInt8(ascii: "]"))
        }
        while out.count > start, out.last == UInt8(ascii: " ") { out.removeLast() }
    }

    /// A decision's tag: its rule, and the reason beyond it when there is one (`stale: switched`).
    func tag(_ rule: Rule, _ event: TimelineEvent) -> String {
        guard case .guidanceDropped(let l, _) = event.what,
            let reason = roster.dropReason(of: l, rule: rule, at: event.t)
        else {
            return rule.rawValue
        }
        return rule.rawValue + ": " + reason.rawValue
    }

    private func displayWidth(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.allSatisfy { $0 < 0x80 } ? bytes.count : Review.displayWidth(String(decoding: bytes, as: UTF8.self))
    }

    private func writeDetail(of event: TimelineEvent, into out: inout [UInt8]) {
        func text(_ s: String?) {
            guard let s else { return }
            out.append(UInt8(ascii: " "))
            out.append(displayQuoted: s)
        }
        func replyStretch(_ r: ReplyIndex, _ s: StretchIndex) {
            out.append(escaped: roster.replyIDs[r.int])
            out.append(UInt8(ascii: "/"))
            out.append(escaped: roster.stretches[s.int].id)
        }
        switch event.what {
        case .guidanceRequested(let l):
            let line = roster.lines[l.int]
            out.append(escaped: line.id)
            if line.urgent { out.append(utf8: " urgent") }
            if let stage = roster.stage(of: l) {
                out.append(utf8: " (")
                out.append(utf8: stage.rawValue)
                out.append(UInt8(ascii: ")"))
            }
            text(line.text)
        case .guidanceWaiting(let l, _, let stretch):
            out.append(escaped: roster.lines[l.int].id)
            if let stretch {
                out.append(utf8: " for ")
                out.append(escaped: roster.stretches[stretch.int].id)
            }
        case .guidanceStarted(let l):
            out.append(escaped: roster.lines[l.int].id)
            // A line re-phrased while it waited (the car moved on) says so, and the words it was requested with.
            let requested = roster.lines[l.int].text
            if let revised = roster.revision(of: l, startingAt: event.t)?.text, revised != requested {
                text(revised)
                out.append(utf8: " re-phrased while it waited, was")
                text(requested)
            } else {
                text(requested)
            }
        case .guidanceEnded(let l), .guidanceDropped(let l, _):
            out.append(escaped: roster.lines[l.int].id)
        case .replyQueued(let r), .replyBegan(let r), .replyEnded(let r), .replyAbandoned(let r, _):
            out.append(escaped: roster.replyIDs[r.int])
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
            out.append(escaped: roster.id(of: by))
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
            out.append(escaped: utterance.id)
            out.append(utf8: " (")
            out.append(utf8: utterance.language.rawValue)
            out.append(UInt8(ascii: ")"))
            text(utterance.text)
        case .dadEnded(let u, let heard, let lost):
            out.append(escaped: roster.utterances[u.int].id)
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
        /// A maneuver ahead and its distance: `m2 at 1050 m`, with `word` between them.
        func ahead(_ a: RoadEvent.Ahead, _ word: String) {
            out.append(escaped: maneuvers[a.maneuver.int].id)
            out.append(utf8: word)
            out.append(int: a.distanceM)
            out.append(utf8: " m")
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
                ahead(next, " in ")
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
            out.append(escaped: maneuver.id)
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
                ahead(after, " at ")
            }
        case .turnPassed(let m), .turnUnannounced(let m, _):
            out.append(escaped: maneuvers[m.int].id)
        case .stageSkipped(let m, let stage, _):
            out.append(escaped: maneuvers[m.int].id)
            out.append(UInt8(ascii: " "))
            out.append(utf8: stage.rawValue)
        case .measuringPaused, .measuringResumed, .segmentStarted, .segmentEnded:
            break
        case .routeRequested(_, let c), .routeFailed(_, _, let c), .routeKept(_, let c):
            // What the request serves: a handoff's change, or a reroute.
            if let c { out.append(escaped: roster.road.changes[c]) } else { out.append(utf8: "reroute") }
        case .routeSwitched(let c, _), .switchSkipped(let c, _), .handoffDelivered(let c), .handoffTaken(let c),
            .handoffIgnored(let c, _), .handoffAcknowledged(let c):
            out.append(escaped: roster.road.changes[c])
        }
    }
}

/// The lane and verb columns of each kind (`  guidance  requested        `), made once.
enum TextLayout {
    /// Each kind's lane and verb (`road`, `report delivered`), by `EventKind.ordinal`.
    static let names: [(lane: String, verb: String)] = EventKind.allCases.map { kind in
        let name = kind.rawValue
        let lane = String(name.prefix { $0 != "." })
        return (lane, String(name.dropFirst(lane.count + 1).map { $0 == "." ? " " : $0 }))
    }
    /// The verb column of a talk timeline: its longest verb, `stretch started`.
    static let talkVerbWidth = 15
    /// The verb column once a road event is in the timeline: the longest of all (`measuring resumed`).
    static let roadVerbWidth = names.map { displayWidth($0.verb) }.max() ?? talkVerbWidth

    /// The lane and verb columns with the verb padded to `width`, by `EventKind.ordinal`.
    static func columns(verbWidth width: Int) -> [[UInt8]] {
        names.map { Array("  \(pad($0.lane, 8))  \(pad($0.verb, width))  ".utf8) }
    }
    /// For a timeline without a verb longer than `talkVerbWidth` (every talk-only timeline), and for one line alone.
    static let columns = columns(verbWidth: talkVerbWidth)
    /// For a timeline with one (a road's `report delivered`): every verb in one column.
    static let wideColumns = columns(verbWidth: roadVerbWidth)
    /// Whether a kind's verb is longer than `talkVerbWidth`, by `EventKind.ordinal`.
    static let isWide = names.map { displayWidth($0.verb) > talkVerbWidth }
}

/// `s` padded with spaces to `width` display columns.
package func pad(_ s: String, _ width: Int) -> String {
    let w = displayWidth(s)
    return w >= width ? s : s + String(repeating: " ", count: width - w)
}

/// How many terminal columns `s` takes: East Asian wide and fullwidth
/// characters (Hangul, CJK, fullwidth forms, most emoji) count two,
/// combining marks and zero-width characters none, everything else one.
package func displayWidth(_ s: String) -> Int {
    var width = 0
    for scalar in s.unicodeScalars { width += displayWidth(scalar) }
    return width
}

/// One scalar's terminal columns (see `displayWidth(_:)` for strings).
package func displayWidth(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x300 { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch v {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
        return 2
    default:
        return 1
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
