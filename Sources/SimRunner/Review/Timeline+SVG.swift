import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// The timeline as one self-contained SVG picture: the lanes of `Lanes` over
/// a time axis, bars for lines and stretches, cut points in red, waits
/// shaded, the ears' closed windows, Dad's heard and lost parts in different
/// colours, rule names at the decisions (where there is room) and arrows
/// from cause to effect. Every shape has a `<title>` tooltip and a
/// `data-events` attribute naming the timeline events it stands for.
extension Timeline {
    /// The time axis's default width in pixels.
    public static let defaultSVGWidth = 1200

    /// The least distance between two arrows drawn, in tenths of a pixel (6 px).
    static let arrowGap: Int64 = 60

    /// The SVG text; `width` is the time axis in pixels. Written into one byte buffer.
    ///
    /// Each lane has three strips: rule labels and decision marks at the top,
    /// what plays in the middle (back-to-back bars apart by a white edge), and
    /// at the bottom what waits (lines waiting, replies queued, stretches held),
    /// hatched, so a wait never hides under what plays. Rule labels that would
    /// overlap the one before are dropped, and the heading says how many.
    public func svg(width: Int = Timeline.defaultSVGWidth, window: ReviewWindow = ReviewWindow()) -> String {
        String(chunks: { writeSVG(width: width, window: window, to: $0) })
    }

    /// `svg(width:window:)`'s UTF-8, as `run` writes it: handed to `emit` in
    /// chunks as it is written (`ChunkedOutput`).
    func writeSVG(width: Int, window: ReviewWindow, to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        ChunkedOutput.writing(to: emit) { chunks in writeSVG(width: width, window: window, into: &chunks) }
    }

    private func writeSVG(width: Int, window: ReviewWindow, into chunks: inout ChunkedOutput) {
        let lanes = Lanes(self, only: window.only)
        let range = window.range(end: lanes.end)
        let visible = lanes.visible(in: range)
        let plot = max(100, width)
        let summary = TimelineSummary(self, window: window).lines(width: (plot + 110) / 6)
        let summaryHeight = summary.count * 14
        // A third legend line, for the view lane, when it is drawn.
        let viewLegend = lanes.shown.contains(.view) ? 16 : 0
        let left = 90
        let right = 20
        let top = 64 + summaryHeight + viewLegend
        let laneHeight = 48
        let axisHeight = 24
        let totalWidth = left + plot + right
        let height = top + axisHeight + laneHeight * lanes.shown.count + 16
        let span = range.end.ms - range.start.ms
        let row = Dictionary(uniqueKeysWithValues: lanes.shown.enumerated().map { ($1, $0) })

        /// x in tenths of a pixel, so output is exact and the same everywhere;
        /// the product is taken in 128 bits (a week of stretches at 10^6 px overflows 64).
        func x10(_ t: SimTime) -> Int64 {
            Int64(left) * 10
                + span.dividingFullWidth((t.ms - range.start.ms).multipliedFullWidth(by: Int64(plot) * 10)).quotient
        }
        func laneTop(_ lane: Lanes.Lane) -> Int { top + axisHeight + (row[lane] ?? 0) * laneHeight }

        var out = SVGWriter(chunks: chunks)
        defer { chunks = out.chunks }
        out.string(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(totalWidth)" height="\(height)" \
            viewBox="0 0 \(totalWidth) \(height)" font-family="Helvetica, Arial, sans-serif" font-size="11">

            """)
        out.string(Self.svgStyle)
        out.text("<title>")
        out.xml(Self.oneLine(scenario))
        out.text("</title>\n")
        out.string("<rect class=\"page\" x=\"0\" y=\"0\" width=\"\(totalWidth)\" height=\"\(height)\"/>\n")
        out.text("<text class=\"heading\" x=\"10\" y=\"20\">")
        out.xml(Self.oneLine(scenario))
        out.text("</text>\n")
        out.text("<g class=\"summary\">")
        for (n, line) in summary.enumerated() {
            out.string("<text x=\"10\" y=\"\(36 + n * 14)\">")
            out.xml(line)
            out.text("</text>")
        }
        out.text("</g>\n")
        out.string(Self.svgLegend(y: 42 + summaryHeight))
        if lanes.shown.contains(.road) { out.string(Self.svgRoadLegend(y: 58 + summaryHeight)) }
        if viewLegend > 0 { out.string(Self.svgViewLegend(y: 74 + summaryHeight)) }

        // The axis: a tick every 1-2-5 step that leaves about 100 px between ticks.
        let step = LaneScale.niceStep(atLeast: max(1, span * 100 / Int64(plot)))
        out.text("<g class=\"axis\">\n")
        var tick = (range.start.ms + step - 1) / step * step
        let axisY = top + axisHeight - 6
        let bottom = laneTop(lanes.shown.last ?? .dad) + laneHeight
        while tick <= range.end.ms {
            let x = x10(SimTime(ms: tick))
            out.text("<line class=\"grid\" x1=\"")
            out.px(x)
            out.string("\" y1=\"\(axisY)\" x2=\"")
            out.px(x)
            out.string("\" y2=\"\(bottom)\"/><text x=\"")
            out.px(x)
            out.string(
                "\" y=\"\(axisY - 3)\" text-anchor=\"middle\" data-ms=\"\(tick)\">\(LaneScale.tick(tick))</text>\n")
            out.chunks.flushIfFull()
            tick += step
        }
        out.text("</g>\n")

        var hidden = 0
        // Each lane's bars and marks by index: a long drive's labels and events are never copied.
        var barsByLane = [[Int]](repeating: [], count: Lanes.Lane.allCases.count)
        for n in visible.bars.indices { barsByLane[visible.bars[n].lane.rawValue].append(n) }
        var marksByLane = [[Int]](repeating: [], count: Lanes.Lane.allCases.count)
        for n in visible.marks.indices { marksByLane[visible.marks[n].lane.rawValue].append(n) }
        for lane in lanes.shown {
            let y = laneTop(lane)
            out.string("<g class=\"lane\" id=\"lane-\(lane.title.lowercased())\" data-lane=\"\(lane.title)\">\n")
            out.string(
                "<rect class=\"band\" x=\"\(left)\" y=\"\(y + 2)\" width=\"\(plot)\" height=\"\(laneHeight - 4)\"/>")
            out.string("<text class=\"lanename\" x=\"10\" y=\"\(y + laneHeight / 2 + 4)\">\(lane.title)</text>\n")
            for n in barsByLane[lane.rawValue] {
                svgBar(visible.bars[n], y: y, height: laneHeight, x10: x10, into: &out, hidden: &hidden)
            }
            var label = DrawnLabel(end: .min, x: .min, rule: nil)
            // A road lane with more routine marks (fixes arriving, reports sent and delivered) than one
            // per 8 px folds them into a density strip, so that it reads at any length.
            let routine = marksByLane[lane.rawValue].filter { Self.routine(events[visible.marks[$0].event]) }
            let fold = lane == .road && routine.count * 8 > plot
            var momentEnds = [Int64](repeating: .min, count: Self.momentRows)
            for n in marksByLane[lane.rawValue] where !(fold && Self.routine(events[visible.marks[n].event])) {
                svgMark(
                    visible.marks[n], y: y, height: laneHeight, x10: x10, into: &out, label: &label, hidden: &hidden)
                if let moment = visible.marks[n].moment {
                    svgMomentLabel(
                        moment, x: x10(visible.marks[n].t), y: y, ends: &momentEnds, into: &out, hidden: &hidden)
                }
            }
            if fold { svgDensity(routine.map { visible.marks[$0] }, y: y, height: laneHeight, x10: x10, into: &out) }
            out.text("</g>\n")
        }

        // Arrows closer than `arrowGap` to the last one drawn are left out (and counted): they could not be told apart.
        out.text("<g class=\"flows\">\n")
        var arrowsHidden = 0
        var arrowEnd = Int64.min
        for flow in visible.flows {
            let x = x10(flow.t)
            if x < arrowEnd {
                arrowsHidden += 1
                continue
            }
            arrowEnd = x + Self.arrowGap
            let fromY = laneTop(flow.from) + 24
            let toY = laneTop(flow.to) + 24
            let bend = fromY < toY ? 8 : -8
            out.text("<path class=\"flow\" d=\"M")
            out.px(x)
            out.text(",")
            out.int(fromY)
            out.text(" C")
            out.px(x)
            out.text(",")
            out.int(fromY + bend)
            out.text(" ")
            out.px(x)
            out.text(",")
            out.int(toY - bend)
            out.text(" ")
            out.px(x)
            out.text(",")
            out.int(toY)
            out.text("\" data-events=\"")
            out.int(flow.cause)
            out.text(" ")
            out.int(flow.effect)
            out.text("\" ")
            out.text("marker-end=\"url(#arrow)\"><title>")
            out.xmlLine(events[flow.cause], of: self)
            out.text(" → ")
            out.xmlLine(events[flow.effect], of: self)
            out.text("</title></path>\n")
            out.chunks.flushIfFull()
        }
        out.text("</g>\n")

        // The note counts what was left out, so it comes last (drawn at the top right all the same).
        out.string(
            "<text class=\"note\" x=\"\(totalWidth - right)\" y=\"20\" text-anchor=\"end\">\(range.start) – \(range.end)"
        )
        var parts: [String] = []
        if arrowsHidden > 0 { parts.append(counted(arrowsHidden, "arrow")) }
        if hidden > 0 { parts.append(counted(hidden, "label")) }
        if !parts.isEmpty {
            out.string(
                "; \(parts.joined(separator: " and ")) hidden where too dense: zoom with --from and --to, or --format html"
            )
        }
        out.text("</text>\n</svg>\n")
    }

    private func svgBar(
        _ bar: Lanes.Bar, y: Int, height: Int, x10: (SimTime) -> Int64, into out: inout SVGWriter, hidden: inout Int
    ) {
        let a = x10(bar.start)
        let b = max(x10(bar.end), a + 10)  // at least one pixel
        let (dy, h): (Int, Int)
        switch bar.kind {
        case .wait, .queued, .held: (dy, h) = (39, 7)
        case .reply: (dy, h) = (35, 3)
        default: (dy, h) = (14, 20)
        }
        out.text("<rect class=\"")
        out.string(bar.kind.rawValue)
        if bar.cut { out.text(" cut") }
        out.text("\" x=\"")
        out.px(a)
        out.text("\" y=\"")
        out.int(y + dy)
        out.text("\" width=\"")
        out.px(b - a)
        out.text("\" height=\"")
        out.int(h)
        out.text("\" data-events=\"")
        for (n, e) in bar.events.enumerated() {
            if n > 0 { out.text(" ") }
            out.int(e)
        }
        out.text("\"><title>")
        writeTooltip(bar, into: &out)
        for i in bar.events {
            out.text("\n")
            out.xmlLine(events[i], of: self)
        }
        out.text("</title></rect>")
        // The id inside the bar, if it fits; else it is hidden (and counted).
        let text = bar.kind == .stretch || bar.kind == .line || bar.kind == .heard || bar.kind == .lost ? bar.label : ""
        if !text.isEmpty {
            if b - a >= Int64(displayWidth(text) * 70 + 40) {
                out.text("<text class=\"barlabel\" x=\"")
                out.px(a + 20)
                out.text("\" y=\"")
                out.int(y + dy + h / 2 + 4)
                out.text("\">")
                out.xml(text)
                out.text("</text>")
            } else if b - a >= 40 {
                hidden += 1
            }
        }
        if bar.cut {
            out.text("<line class=\"cutline\" x1=\"")
            out.px(b)
            out.text("\" y1=\"")
            out.int(y + 10)
            out.text("\" x2=\"")
            out.px(b)
            out.text("\" y2=\"")
            out.int(y + height - 2)
            out.text("\"/>")
        }
        out.text("\n")
        out.chunks.flushIfFull()
    }

    private func svgMark(
        _ mark: Lanes.Mark, y: Int, height: Int, x10: (SimTime) -> Int64, into out: inout SVGWriter,
        label: inout DrawnLabel, hidden: inout Int
    ) {
        let x = x10(mark.t)
        out.text("<g class=\"mark ")
        out.string(mark.kind.rawValue)
        out.text("\" data-events=\"")
        out.int(mark.event)
        out.text("\"><title>")
        out.xmlLine(events[mark.event], of: self)
        out.text("</title>")
        switch mark.kind {
        case .dropped:
            out.text("<path class=\"drop\" d=\"M")
            out.px(x - 35)
            out.text(",")
            out.int(y + 39)
            out.text(" l7,7 m0,-7 l-7,7\"/>")
        case .cut, .abandoned:
            out.text("<path class=\"cutmark\" d=\"M")
            out.px(x)
            out.text(",")
            out.int(y + 14)
            out.text(" l-4,-6 l8,0 z\"/>")
        case .road:
            // A tick across the lane, coloured by what happened (a fix, a drop, a turn, off route).
            out.text("<line class=\"roadmark ")
            out.string(Self.roadClasses[events[mark.event].kind.ordinal])
            out.text("\" x1=\"")
            out.px(x)
            out.text("\" y1=\"")
            out.int(y + 10)
            out.text("\" x2=\"")
            out.px(x)
            out.text("\" y2=\"")
            out.int(y + height - 10)
            out.text("\"/>")
        default:
            out.text("<circle class=\"decision\" cx=\"")
            out.px(x)
            out.text("\" cy=\"")
            out.int(y + 11)
            out.text("\" r=\"2.5\"/>")
        }
        if let rule = mark.ruleLabel {
            // A label starts 3 px right of its mark and never overlaps the one before; else it is dropped and counted.
            // The same rule at the same place as the label drawn (a barge-in's cut and its abandoned reply) is
            // already said there: nothing is hidden.
            if x == label.x, rule == label.rule {
            } else if x + 30 >= label.end {
                out.text("<text class=\"rule\" x=\"")
                out.px(x + 30)
                out.text("\" y=\"")
                out.int(y + 11)
                out.text("\">")
                out.string(rule)
                out.text("</text>")
                label = DrawnLabel(end: x + 30 + Int64(rule.count * 55 + 40), x: x, rule: rule)
            } else {
                hidden += 1
            }
        }
        out.text("</g>\n")
        out.chunks.flushIfFull()
    }

    /// How many rows of labels the road lane's moments take.
    static let momentRows = 3

    /// A road moment's label beside its mark, on the first of the lane's
    /// label rows where it overlaps no label before it; a route change's,
    /// when every row is taken, just after the label on the row that frees
    /// first (moved, never hidden); any other's then hidden and counted.
    private func svgMomentLabel(
        _ moment: Lanes.Moment, x: Int64, y: Int, ends: inout [Int64], into out: inout SVGWriter, hidden: inout Int
    ) {
        var at = x + 40
        var row = ends.firstIndex { at >= $0 }
        if row == nil, moment.isRouteChange, let first = ends.indices.min(by: { ends[$0] < ends[$1] }) {
            row = first
            at = ends[first]
        }
        guard let row else {
            hidden += 1
            return
        }
        out.text("<text class=\"moment\" x=\"")
        out.px(at)
        out.text("\" y=\"")
        out.int(y + 13 + row * 11)
        out.text("\">")
        out.string(moment.rawValue)
        out.text("</text>\n")
        ends[row] = at + Int64(moment.rawValue.count * 60 + 40)
    }

    /// Routine road marks folded into a density strip at the lane's foot: per
    /// 2 px, a bar as high as the log of how many fall there, naming them.
    private func svgDensity(
        _ marks: [Lanes.Mark], y: Int, height: Int, x10: (SimTime) -> Int64, into out: inout SVGWriter
    ) {
        out.text("<g class=\"density\"><title>")
        out.string(
            "\(counted(marks.count, "fix or report", "fixes and reports")) folded: zoom with --from and --to, or --format html"
        )
        out.text("</title>")
        var k = 0
        while k < marks.count {
            let bucket = x10(marks[k].t) / 20
            var end = k
            while end < marks.count, x10(marks[end].t) / 20 == bucket { end += 1 }
            var h = 2
            var n = end - k
            while n > 1 {
                h += 2
                n /= 2
            }
            out.text("<rect class=\"fold\" x=\"")
            out.px(bucket * 20)
            out.text("\" y=\"")
            out.int(y + height - 6 - min(h, 8))
            out.text("\" width=\"2\" height=\"")
            out.int(min(h, 8))
            out.text("\" data-events=\"")
            for m in k..<end {
                if m > k { out.text(" ") }
                out.int(marks[m].event)
            }
            out.text("\"/>")
            out.chunks.flushIfFull()
            k = end
        }
        out.text("</g>\n")
    }

    /// The last rule label drawn in a lane: where it ends, where its mark is (in tenths of a pixel), what it says.
    private struct DrawnLabel {
        var end: Int64
        var x: Int64
        var rule: String?
    }

    /// Each event kind's name as a CSS class (`road-fix-arrived`), by `EventKind.ordinal`.
    static let roadClasses = EventKind.allCases.map { $0.rawValue.split(separator: ".").joined(separator: "-") }

    /// What a bar's tooltip says first: what it is and when (its events' text
    /// lines follow), XML-escaped straight into `out` (as `xml(tooltip(bar))`).
    private func writeTooltip(_ bar: Lanes.Bar, into out: inout SVGWriter) {
        func label() {
            out.scratch.removeAll(keepingCapacity: true)
            out.scratch.append(escaped: bar.label)
            let line = out.scratch
            line.withUnsafeBufferPointer { out.xml(bytes: $0) }
        }
        switch bar.kind {
        case .line:
            out.text("line ")
            label()
            out.text(" plays")
        case .wait:
            out.text("line ")
            label()
            out.text(" waits")
        case .reply:
            out.text("reply ")
            label()
            out.text(" active")
        case .queued:
            out.text("reply ")
            label()
            out.text(" queued")
        case .held:
            out.text("stretch ")
            label()
            out.text(" held")
        case .stretch:
            out.text("stretch ")
            label()
            out.text(bar.cut ? " plays, cut" : " plays")
        case .earsClosed: out.text("ears closed")
        case .heard:
            out.text("Dad&apos;s ")
            label()
            out.text(": heard")
        case .lost:
            out.text("Dad&apos;s ")
            label()
            out.text(": lost (ears closed)")
        case .offRoute: out.text("off route")
        case .pippaYes, .pippaNo, .pippaNotKnown:
            out.text("Pippa: ")
            label()
        }
        out.text(", ")
        out.time(bar.start)
        out.text(" – ")
        out.time(bar.end)
        out.text(" (")
        out.int(bar.end.ms - bar.start.ms)
        out.text(" ms)")
    }

    static let svgStyle = """
        <defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">\
        <path d="M0,0 L8,4 L0,8 z" fill="#7a3db8"/></marker>\
        <pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
        <rect width="4" height="4" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="4" stroke="#888" stroke-width="1.5"/></pattern></defs>
        <style>
        .page { fill: #ffffff; } .heading { font-size: 14px; font-weight: bold; fill: #222; } .note { fill: #666; } .summary { fill: #333; }
        .band { fill: #f6f6f6; } .lanename { font-size: 13px; font-weight: bold; fill: #333; }
        .axis text { fill: #555; font-size: 10px; } .grid { stroke: #e2e2e2; stroke-width: 1; }
        .line { fill: #2f6fdb; } .wait { fill: url(#hatch); stroke: #0891b2; stroke-width: 1.5; }
        .line, .stretch, .heard, .lost { stroke: #ffffff; stroke-width: 1; }
        .stretch { fill: #2e9e5b; } .stretch.cut { fill: #7fc79b; }
        .reply { fill: #7c8f0a; fill-opacity: 0.45; } rect.queued { fill: url(#hatch); stroke: #777777; stroke-width: 1.5; }
        rect.held { fill: url(#hatch); stroke: #d97706; stroke-width: 1.5; } .off-route { fill: #8b5a2b; fill-opacity: 0.35; }
        .ears-closed { fill: #555555; fill-opacity: 0.75; }
        .pippa-yes { fill: #1b7f4b; fill-opacity: 0.6; } .pippa-no { fill: #be185d; fill-opacity: 0.6; }
        .pippa-not-known { fill: url(#hatch); stroke: #6b7280; stroke-width: 1.5; }
        .heard { fill: #8a5cc9; } .lost { fill: #d93b3b; }
        .barlabel { fill: #fff; font-size: 10px; pointer-events: none; }
        .cutline { stroke: #d93b3b; stroke-width: 2; } .cutmark { fill: #d93b3b; }
        .drop { stroke: #d93b3b; stroke-width: 2; fill: none; } .decision { fill: #333; }
        .rule { fill: #333; font-size: 10px; font-style: italic; }
        .flow { stroke: #7a3db8; stroke-width: 1.5; fill: none; }
        .roadmark { stroke: #b5b5b5; stroke-width: 1; } .fold { fill: #c4c4c4; }
        .moment { fill: #5c3a0a; font-size: 10px; font-weight: bold; paint-order: stroke; stroke: #f6f6f6; stroke-width: 3px; }
        .road-fix-dropped, .road-report-dropped, .road-turn-unannounced { stroke: #d93b3b; stroke-width: 2; }
        .road-turn-upcoming, .road-turn-passed, .road-stage-skipped { stroke: #2f6fdb; stroke-width: 2; }
        .road-off-route { stroke: #8b5a2b; stroke-width: 3; } .road-on-route { stroke: #2e9e5b; stroke-width: 3; }
        .road-measuring-paused, .road-measuring-resumed, .road-segment-started, .road-segment-ended { stroke: #333; stroke-width: 2; }
        .road-route-requested, .road-route-failed, .road-route-switched, .road-route-kept, .road-handoff-delivered, .road-handoff-taken,
        .road-handoff-ignored, .road-handoff-acked, .road-switch-skipped { stroke: #c27c0e; stroke-width: 3; }
        </style>

        """

    static func svgLegend(y: Int) -> String {
        let items: [(String, String)] = [
            ("line", "guidance line"), ("wait", "line waits"), ("stretch", "Pippa's stretch"),
            ("stretch cut", "stretch cut"),
            ("held", "held"), ("reply", "reply active"), ("queued", "reply queued"), ("ears-closed", "ears closed"),
            ("heard", "Dad heard"), ("lost", "Dad lost"),
        ]
        let bars = legendEntries(items, x: 10, y: y, textOffset: 18) {
            "<rect class=\"\($0)\" x=\"\($1)\" y=\"\(y - 9)\" width=\"14\" height=\"10\"/>"
        }
        let cut = legendEntries([("cutline", "cut point")], x: bars.x, y: y, textOffset: 10, swatch: legendTick(y: y))
        let x = cut.x
        return "<g class=\"legend\">" + bars.markup + cut.markup
            + "<path class=\"flow\" d=\"M\(x),\(y - 4) l22,0\" marker-end=\"url(#arrow)\"/>"
            + "<text x=\"\(x + 28)\" y=\"\(y)\">cause → effect</text></g>\n"
    }

    /// The road lane's marks, on a second legend line.
    static func svgRoadLegend(y: Int) -> String {
        let items: [(String, String)] = [
            ("road-fix-arrived", "fix arrived, report sent"), ("road-report-dropped", "fix or report dropped"),
            ("road-turn-upcoming", "turn upcoming or passed"), ("road-off-route", "off route"),
            ("road-on-route", "back on route"),
            ("road-measuring-paused", "measuring paused or resumed"), ("road-route-switched", "route change, handoff"),
        ]
        let marks = legendEntries(
            items.map { ("roadmark " + $0, $1) }, x: 46, y: y, textOffset: 12, swatch: legendTick(y: y))
        return "<g class=\"legend\"><text x=\"10\" y=\"\(y)\">road:</text>" + marks.markup + "</g>\n"
    }

    /// The view lane's spans, on a third legend line.
    static func svgViewLegend(y: Int) -> String {
        let items: [(String, String)] = [
            ("pippa-yes", "yes"), ("pippa-no", "no"),
            ("pippa-not-known", "not-known (no report, or hers over 120 s old)"),
        ]
        let bars = legendEntries(items, x: 46, y: y, textOffset: 18) {
            "<rect class=\"\($0)\" x=\"\($1)\" y=\"\(y - 9)\" width=\"14\" height=\"10\"/>"
        }
        return "<g class=\"legend\"><text x=\"10\" y=\"\(y)\">view:</text>" + bars.markup + "</g>\n"
    }

    /// Legend entries side by side from `x`: each its swatch (made from its
    /// class and x), then its text `textOffset` px to the right. Returns the
    /// markup and the x after the last entry.
    private static func legendEntries(
        _ items: [(cls: String, text: String)], x start: Int, y: Int, textOffset: Int, swatch: (String, Int) -> String
    ) -> (markup: String, x: Int) {
        var out = ""
        var x = start
        for (cls, text) in items {
            out += swatch(cls, x) + "<text x=\"\(x + textOffset)\" y=\"\(y)\">\(text)</text>"
            x += textOffset + text.count * 6 + 16
        }
        return (out, x)
    }

    /// A legend swatch that is a short upright line, as a cut point or a road mark is drawn.
    private static func legendTick(y: Int) -> (String, Int) -> String {
        { cls, x in "<line class=\"\(cls)\" x1=\"\(x + 4)\" y1=\"\(y - 10)\" x2=\"\(x + 4)\" y2=\"\(y + 1)\"/>" }
    }
}

/// An SVG document being written in chunks, with XML escaping and exact pixel numbers.
struct SVGWriter {
    /// Where the bytes go.
    var chunks: ChunkedOutput

    /// Markup, as it is: a literal, copied straight from the program's text.
    mutating func text(_ s: StaticString) {
        chunks.bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Markup made at run time (with numbers in it), as it is.
    mutating func string(_ s: String) { chunks.bytes.append(utf8: s) }

    /// An integer's decimal digits.
    mutating func int(_ v: Int) { chunks.bytes.append(int: Int64(v)) }

    /// An integer's decimal digits.
    mutating func int(_ v: Int64) { chunks.bytes.append(int: v) }

    /// A time as `SimTime.description` writes it.
    mutating func time(_ t: SimTime) { chunks.bytes.append(time: t) }

    /// Tenths of a pixel as a decimal (`12`, `12.5`).
    mutating func px(_ tenths: Int64) {
        if tenths < 0 { chunks.bytes.append(UInt8(ascii: "-")) }
        let m = tenths.magnitude
        chunks.bytes.append(int: Int64(m / 10))
        if m % 10 != 0 {
            chunks.bytes.append(UInt8(ascii: "."))
            chunks.bytes.append(UInt8(ascii: "0") + UInt8(m % 10))
        }
    }

    /// Text for XML content or an attribute (`Array.append(xml:)`).
    mutating func xml(_ s: String) {
        var s = s
        s.withUTF8 { chunks.bytes.append(xml: $0) }
    }

    /// UTF-8 bytes escaped as `xml(_:)` does.
    mutating func xml(bytes utf8: UnsafeBufferPointer<UInt8>) { chunks.bytes.append(xml: utf8) }

    /// A scratch buffer for one event's text line, reused.
    var scratch: [UInt8] = []

    /// An event's text line, XML-escaped.
    mutating func xmlLine(_ event: TimelineEvent, of timeline: Timeline) {
        scratch.removeAll(keepingCapacity: true)
        timeline.writeLine(event, into: &scratch)
        let line = scratch
        line.withUnsafeBufferPointer { xml(bytes: $0) }
    }
}

/// Text escaped for XML content and attributes (see `Array.append(xml:)`).
func xml(_ s: String) -> String {
    var s = s
    var out: [UInt8] = []
    s.withUTF8 { out.append(xml: $0) }
    return String(decoding: out, as: UTF8.self)
}
