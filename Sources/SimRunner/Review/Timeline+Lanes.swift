import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// The timeline as a text chart for people: one row per lane over a time
/// axis, one column per `scale` milliseconds (a 1-2-5 step chosen to fit the
/// width), then a legend and the decisions in the window.
///
///     # demo
///               0s        5s        10s
///               |         |         |
///     guidance       --=====
///     Pippa     ~~~~~~~..~~~~X
extension Timeline {
    /// How wide the label column is.
    static let laneLabelWidth = 10
    /// The most decisions listed under a chart; zoom in for the rest.
    static let maxListedDecisions = 40

    /// The chart, `width` characters wide at most (the plot gets what the labels leave).
    public func lanesChart(width: Int = 100, window: ReviewWindow = ReviewWindow()) -> String {
        let lanes = Lanes(self, only: window.only)
        let range = window.range(end: lanes.end)
        let columns = max(10, width - Self.laneLabelWidth)
        let scale = LaneScale.niceStep(atLeast: (range.end.ms - range.start.ms + Int64(columns) - 1) / Int64(columns))
        let used = Int((range.end.ms - range.start.ms + scale - 1) / scale)
        let visible = lanes.visible(in: range)

        func column(_ t: SimTime) -> Int { Int((t.ms - range.start.ms) / scale) }
        let bars = visible.bars
        /// The columns bar `n` covers: at least one; a bar ending at a column's start does not reach it.
        /// (Bars are read by index, field by field: a long drive's labels and events are never copied.)
        func cells(_ n: Int) -> ClosedRange<Int> {
            let start = bars[n].start
            let end = bars[n].end
            let first = min(column(start), used - 1)
            let last = max(first, min(used - 1, column(SimTime(ms: max(start.ms, end.ms - 1)))))
            return first...last
        }

        // One row per lane, and below a lane a row of its waits (lines waiting, replies
        // queued, stretches held) when the window has any, so that nothing hides under what plays.
        struct Row {
            var lane: Lanes.Lane
            var waits: Bool
            var cells: [Character]
            var owner: [Int]
        }
        var rows: [Row] = []
        var rowIndex: [Int: Int] = [:]  // lane.rawValue * 2 + (waits ? 1 : 0) → row
        var waitingLanes = Set<Lanes.Lane>()
        for n in bars.indices where bars[n].kind.isWait { waitingLanes.insert(bars[n].lane) }
        for lane in lanes.shown {
            for waits in [false, true] where !waits || waitingLanes.contains(lane) {
                rowIndex[lane.rawValue * 2 + (waits ? 1 : 0)] = rows.count
                rows.append(
                    Row(
                        lane: lane, waits: waits, cells: [Character](repeating: " ", count: used),
                        owner: [Int](repeating: -1, count: used)))
            }
        }
        func row(_ lane: Lanes.Lane, waits: Bool) -> Int { rowIndex[lane.rawValue * 2 + (waits ? 1 : 0)] ?? 0 }
        // Paint in rising priority, so what matters most stays visible (of Pippa's answers, the worse: ? over n over y).
        let order: [Lanes.BarKind] = [
            .wait, .queued, .held, .offRoute, .line, .reply, .stretch, .earsClosed, .heard, .lost, .pippaYes, .pippaNo,
            .pippaNotKnown,
        ]
        var byKind = [[Int]](repeating: [], count: order.count)
        for n in bars.indices { byKind[order.firstIndex(of: bars[n].kind)!].append(n) }
        for (k, kind) in order.enumerated() {
            for n in byKind[k] {
                let r = row(bars[n].lane, waits: kind.isWait)
                let mark = LaneScale.glyph(kind)
                let span = cells(n)
                // A bar that starts right where another of its kind ends begins with `|`, so back-to-back bars stay apart.
                let first = span.lowerBound
                let adjacent =
                    first > 0 && rows[r].owner[first - 1] >= 0 && rows[r].owner[first - 1] != n
                    && bars[rows[r].owner[first - 1]].kind == kind
                for c in span {
                    rows[r].cells[c] = mark
                    rows[r].owner[c] = n
                }
                if adjacent, span.count > 1 || kind != .stretch { rows[r].cells[first] = "|" }
                if kind == .stretch, bars[n].cut { rows[r].cells[span.upperBound] = "X" }
            }
        }
        // A row with more bars than half its columns (too many to tell apart) is drawn as density:
        // per column, how many bars start in it, as a digit from 1 (few) to 9 (as many as the
        // busiest column, whose count ends the row); a column where none starts keeps what covers it.
        var starts = [[Int]](repeating: [Int](repeating: 0, count: used), count: rows.count)
        // Spans (a reply, off route, Pippa's answer) are never drawn as density: they say what holds, not what happened.
        for n in bars.indices where bars[n].kind != .reply && bars[n].kind != .offRoute && bars[n].lane != .view {
            starts[row(bars[n].lane, waits: bars[n].kind.isWait)][cells(n).lowerBound] += 1
        }
        var busiest = [Int](repeating: 0, count: rows.count)
        for r in rows.indices where starts[r].reduce(0, +) * 2 > used {
            let most = starts[r].max() ?? 1
            busiest[r] = most
            for c in 0..<used where starts[r][c] > 0 {
                rows[r].cells[c] = Character(String((starts[r][c] * 9 + most - 1) / most))
            }
        }
        // A cell takes the mark that matters most (`LaneScale.markRank`), whatever the order they fall in it.
        var markRanks = [[Int]](repeating: [Int](repeating: 0, count: used), count: rows.count)
        for mark in visible.marks {
            let glyph: Character
            switch mark.kind {
            case .dropped: glyph = "x"
            case .abandoned: glyph = "/"
            case .road:
                switch events[mark.event].kind {
                case .roadTurnPassed: glyph = "T"
                case .roadTurnUpcoming: glyph = "t"
                case .roadTurnUnannounced: glyph = "!"
                case .roadRouteSwitched: glyph = "S"
                case .roadRouteRequested: glyph = "R"
                case .roadRouteKept: glyph = "K"
                case .roadRouteFailed: glyph = "F"
                case .roadHandoffTaken: glyph = "h"
                case .roadHandoffIgnored: glyph = "i"
                case .roadFixDropped, .roadReportDropped: glyph = "x"
                default: continue
                }
            default: continue
            }
            let c = min(used - 1, column(SimTime(ms: max(range.start.ms, mark.t.ms - 1))))
            let r = row(mark.lane, waits: mark.kind == .dropped)
            if busiest[r] > 0 { continue }  // a dense row shows counts only; the summary counts the marks
            // An abandonment in the column of a cut keeps the cut visible: it goes one column on, if free.
            if glyph == "/", rows[r].cells[c] == "X" {
                if c + 1 < used, rows[r].cells[c + 1] == " " { rows[r].cells[c + 1] = glyph }
                continue
            }
            let rank = LaneScale.markRank(glyph)
            guard rank >= markRanks[r][c] else { continue }
            markRanks[r][c] = rank
            rows[r].cells[c] = glyph
        }

        var out = "# \(Self.oneLine(scenario))\n"
        for line in TimelineSummary(self, window: window).lines(width: width) { out += line + "\n" }
        let (labels, ticks) = LaneScale.axis(start: range.start, scale: scale, columns: used)
        out += String(repeating: " ", count: Self.laneLabelWidth) + labels.trimmingTrailingSpaces() + "\n"
        out += String(repeating: " ", count: Self.laneLabelWidth) + ticks.trimmingTrailingSpaces() + "\n"
        for (n, r) in rows.enumerated() {
            let title = r.waits ? "  " + (r.lane == .guidance ? "waits" : "held") : r.lane.title
            out += (pad(title, Self.laneLabelWidth) + String(r.cells)).trimmingTrailingSpaces()
            if busiest[n] > 0 { out += "  9 = \(busiest[n])" }
            out += "\n"
        }
        out += "\none column = \(LaneScale.duration(scale)); from \(range.start) to \(range.end)\n"
        out += LaneScale.legend
        if lanes.shown.contains(.road) { out += LaneScale.roadLegend }
        if lanes.shown.contains(.view) { out += LaneScale.viewLegend }
        if busiest.contains(where: { $0 > 0 }) { out += LaneScale.denseLegend }
        let decisions = events.indices.filter { i in
            let e = events[i]
            return e.rule != nil && e.kind != .earsClosed && e.t >= range.start && e.t <= range.end
                && window.only.contains(e.kind)
        }
        if !decisions.isEmpty {
            out += "\ndecisions:\n"
            for i in decisions.prefix(Self.maxListedDecisions) { out += decisionLine(events[i], width: width) + "\n" }
            if decisions.count > Self.maxListedDecisions {
                out += "  … \(decisions.count - Self.maxListedDecisions) more; zoom in with --from and --to\n"
            }
        }
        // The road's moments, each labelled as the SVG and the page label it.
        let moments = visible.marks.filter { $0.moment != nil }
        if !moments.isEmpty {
            out += "\nroad moments:\n"
            for mark in moments.prefix(Self.maxListedDecisions) {
                let widest = Lanes.Moment.allCases.map { $0.rawValue.count + 2 }.max() ?? 0
                out +=
                    decisionLine(events[mark.event], width: width, tag: pad("[\(mark.moment?.rawValue ?? "")]", widest))
                    + "\n"
            }
            if moments.count > Self.maxListedDecisions {
                out += "  … \(moments.count - Self.maxListedDecisions) more; zoom in with --from and --to\n"
            }
        }
        return out
    }
}

extension Timeline {
    /// A decision under the chart: its time, its rule, then what happened,
    /// cut with `…` to fit `width` (so the rule is never the part cut off).
    /// `tag`, when given, heads the line in place of its rule (a road moment's label).
    func decisionLine(_ event: TimelineEvent, width: Int, tag given: String? = nil) -> String {
        var text = line(for: event)
        var tag = ""
        if text.hasSuffix("]"), let open = text.lastIndex(of: "["), open > text.startIndex,
            text[text.index(before: open)] == " "
        {
            tag = String(text[open...])
            text = String(text[..<text.index(before: open)]).trimmingTrailingSpaces()
        }
        if let given { tag = tag.isEmpty ? given : given.trimmingTrailingSpaces() + " " + tag }
        let time = text.prefix { $0 != " " }
        var out = "  \(time)  \(tag)" + text.dropFirst(time.count)
        if displayWidth(out) > width {
            var cut = ""
            var used = 0
            for c in out {
                let w = displayWidth(String(c))
                if used + w > width - 1 { break }
                cut.append(c)
                used += w
            }
            out = cut + "…"
        }
        return out
    }
}

/// Scales, ticks and marks shared by the text chart and the SVG.
enum LaneScale {
    /// The smallest 1-2-5 step (1, 2, 5, 10, 20, … ms) that is at least `ms`.
    static func niceStep(atLeast ms: Int64) -> Int64 {
        var base: Int64 = 1
        while true {
            for m: Int64 in [1, 2, 5] where base * m >= ms { return base * m }
            base *= 10
        }
    }

    /// The axis: a label and a `|` every ten columns, labels left-aligned on their tick.
    static func axis(start: SimTime, scale: Int64, columns: Int) -> (labels: String, ticks: String) {
        var labels = [Character](repeating: " ", count: columns + 12)
        var ticks = [Character](repeating: " ", count: columns)
        var c = 0
        while c < columns {
            ticks[c] = "|"
            for (k, ch) in tick(start.ms + Int64(c) * scale).enumerated() where c + k < labels.count {
                labels[c + k] = ch
            }
            c += 10
        }
        return (String(labels), String(ticks))
    }

    /// A time on an axis: `2.5s` within the first minute, `1:05` or `1:00:00` after.
    static func tick(_ ms: Int64) -> String {
        let fraction = ms % 1000 == 0 ? "" : "." + String(String(1000 + ms % 1000).dropFirst()).trimmingTrailing("0")
        let seconds = ms / 1000
        if seconds < 60 { return "\(seconds)\(fraction)s" }
        let s = seconds % 60
        let m = (seconds / 60) % 60
        let h = seconds / 3600
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return (h > 0 ? "\(h):\(two(m))" : "\(m)") + ":\(two(s))\(fraction)"
    }

    /// A span in words: `500 ms`, `2 s`, `1 min`.
    static func duration(_ ms: Int64) -> String {
        if ms < 1000 { return "\(ms) ms" }
        if ms < 60_000 || ms % 60_000 != 0 { return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms" }
        return "\(ms / 60_000) min"
    }

    /// The character a bar is drawn with.
    static func glyph(_ kind: Lanes.BarKind) -> Character {
        switch kind {
        case .line: return "="
        case .wait: return "-"
        case .reply: return "."
        case .queued: return ","
        case .held: return ":"
        case .stretch: return "~"
        case .earsClosed: return "#"
        case .heard: return "+"
        case .lost: return "!"
        case .offRoute: return "o"
        case .pippaYes: return "y"
        case .pippaNo: return "n"
        case .pippaNotKnown: return "?"
        }
    }

    static let legend = """
        legend: guidance  = line plays   | next bar   waits: - line waits, x dropped
                Pippa     ~ stretch plays   X stretch cut   . reply active, silent
                          / reply abandoned   held: : stretch held, , reply queued
                ears      # ears closed
                Dad       + heard   ! lost (spoken while the ears were closed)

        """

    /// The view row's legend, shown with the view row.
    static let viewLegend = """
                view      Pippa's answer to "am I on the right road?": y yes   n no
                          ? not-known (no report yet, or her last is over 120 s old)

        """

    /// The legend of a row drawn as density, shown when one is.
    static let denseLegend = """
                dense     1-9 how many bars start in the column, 9 the most (the count after the row)

        """

    /// Which mark a cell keeps when several fall in it: the higher rank, the
    /// later of equals. What went wrong outranks the routine, so a long drive's
    /// dropped reports are not hidden under its turns (docs/review.md).
    static func markRank(_ glyph: Character) -> Int {
        switch glyph {
        case "!": return 5  // a turn unannounced
        case "x": return 4  // a fix, report or line dropped
        case "/", "S", "h": return 3  // a reply abandoned; a route switched; a handoff taken
        case "T", "R", "K", "F", "i": return 2  // a turn passed; a route requested, kept or failed; a handoff ignored
        default: return 1  // a turn upcoming
        }
    }

    /// The road row's legend, shown with the road row.
    static let roadLegend = """
                road      o off route   t turn upcoming   T turn passed
                          ! turn unannounced   x fix or report dropped
                          R route requested   S switched   K kept   F failed
                          h handoff taken   i handoff ignored

        """
}

extension String {
    func trimmingTrailing(_ c: Character) -> String {
        var s = self
        while s.last == c { s.removeLast() }
        return s
    }
}
