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

    /// The SVG text; `width` is the time axis in pixels.
    public func svg(width: Int = Timeline.defaultSVGWidth, window: ReviewWindow = ReviewWindow()) -> String {
        let lanes = Lanes(self)
        let range = window.range(end: lanes.end)
        let visible = lanes.visible(in: range)
        let plot = max(100, width)
        let left = 90, right = 20, top = 64, laneHeight = 48, axisHeight = 24
        let totalWidth = left + plot + right
        let height = top + axisHeight + laneHeight * lanes.shown.count + 16
        let span = range.end.ms - range.start.ms

        /// x in tenths of a pixel, so output is exact and the same everywhere;
        /// the product is taken in 128 bits (a week of stretches at 10^6 px overflows 64).
        func x10(_ t: SimTime) -> Int64 {
            Int64(left) * 10 + span.dividingFullWidth((t.ms - range.start.ms).multipliedFullWidth(by: Int64(plot) * 10)).quotient
        }
        func px(_ tenths: Int64) -> String { tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)" }
        func laneTop(_ lane: Lanes.Lane) -> Int { top + axisHeight + lane.rawValue * laneHeight }

        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(totalWidth)" height="\(height)" \
            viewBox="0 0 \(totalWidth) \(height)" font-family="Helvetica, Arial, sans-serif" font-size="11">

            """
        out += Self.svgStyle
        out += "<title>\(xml(scenario))</title>\n"
        out += "<rect class=\"page\" x=\"0\" y=\"0\" width=\"\(totalWidth)\" height=\"\(height)\"/>\n"
        out += "<text class=\"heading\" x=\"10\" y=\"20\">\(xml(scenario))</text>\n"
        out += "<text class=\"note\" x=\"\(totalWidth - right)\" y=\"20\" text-anchor=\"end\">\(range.start) – \(range.end)</text>\n"
        out += Self.svgLegend(y: 42)
        if lanes.shown.contains(.road) { out += Self.svgRoadLegend(y: 58) }

        // The axis: a tick every 1-2-5 step that leaves about 100 px between ticks.
        let step = LaneScale.niceStep(atLeast: max(1, span * 100 / Int64(plot)))
        out += "<g class=\"axis\">\n"
        var tick = (range.start.ms + step - 1) / step * step
        let axisY = top + axisHeight - 6
        let bottom = laneTop(lanes.shown.last ?? .dad) + laneHeight
        while tick <= range.end.ms {
            let x = px(x10(SimTime(ms: tick)))
            out += "<line class=\"grid\" x1=\"\(x)\" y1=\"\(axisY)\" x2=\"\(x)\" y2=\"\(bottom)\"/>"
            out += "<text x=\"\(x)\" y=\"\(axisY - 3)\" text-anchor=\"middle\" data-ms=\"\(tick)\">\(LaneScale.tick(tick))</text>\n"
            tick += step
        }
        out += "</g>\n"

        for lane in lanes.shown {
            let y = laneTop(lane)
            out += "<g class=\"lane\" id=\"lane-\(lane.title.lowercased())\" data-lane=\"\(lane.title)\">\n"
            out += "<rect class=\"band\" x=\"\(left)\" y=\"\(y + 2)\" width=\"\(plot)\" height=\"\(laneHeight - 4)\"/>"
            out += "<text class=\"lanename\" x=\"10\" y=\"\(y + laneHeight / 2 + 4)\">\(lane.title)</text>\n"
            for bar in visible.bars where bar.lane == lane {
                out += svgBar(bar, y: y, height: laneHeight, x10: x10, px: px)
            }
            var labelEnd: Int64 = 0
            for mark in visible.marks where mark.lane == lane {
                out += svgMark(mark, y: y, height: laneHeight, x10: x10, px: px, labelEnd: &labelEnd)
            }
            out += "</g>\n"
        }

        out += "<g class=\"flows\">\n"
        for flow in visible.flows {
            let x = px(x10(flow.t))
            let fromY = laneTop(flow.from) + laneHeight / 2, toY = laneTop(flow.to) + laneHeight / 2
            let bend = fromY < toY ? 8 : -8
            out += "<path class=\"flow\" d=\"M\(x),\(fromY) C\(x),\(fromY + bend) \(x),\(toY - bend) \(x),\(toY)\" "
            out += "data-events=\"\(flow.cause) \(flow.effect)\" marker-end=\"url(#arrow)\">"
            out += "<title>\(xml(line(for: events[flow.cause]))) → \(xml(line(for: events[flow.effect])))</title></path>\n"
        }
        out += "</g>\n</svg>\n"
        return out
    }

    private func svgBar(
        _ bar: Lanes.Bar, y: Int, height: Int, x10: (SimTime) -> Int64, px: (Int64) -> String
    ) -> String {
        let a = x10(bar.start), b = max(x10(bar.end), a + 10)  // at least one pixel
        let (dy, h): (Int, Int)
        switch bar.kind {
        case .wait, .queued, .held: (dy, h) = (height / 2 + 2, 10)
        case .reply: (dy, h) = (height - 12, 4)
        default: (dy, h) = (16, height - 22)
        }
        let classes = bar.kind.rawValue + (bar.cut ? " cut" : "")
        var out = "<rect class=\"\(classes)\" x=\"\(px(a))\" y=\"\(y + dy)\" width=\"\(px(b - a))\" height=\"\(h)\" "
        out += "data-events=\"\(bar.events.map(String.init).joined(separator: " "))\">"
        out += "<title>\(xml(tooltip(bar)))</title></rect>"
        // The id inside the bar, if it fits.
        let text = bar.kind == .stretch || bar.kind == .line || bar.kind == .heard || bar.kind == .lost ? bar.label : ""
        if !text.isEmpty, b - a >= Int64(text.count * 70 + 40) {
            out += "<text class=\"barlabel\" x=\"\(px(a + 20))\" y=\"\(y + dy + h / 2 + 4)\">\(xml(text))</text>"
        }
        if bar.cut {
            out += "<line class=\"cutline\" x1=\"\(px(b))\" y1=\"\(y + 10)\" x2=\"\(px(b))\" y2=\"\(y + height - 2)\"/>"
        }
        return out + "\n"
    }

    private func svgMark(
        _ mark: Lanes.Mark, y: Int, height: Int, x10: (SimTime) -> Int64, px: (Int64) -> String, labelEnd: inout Int64
    ) -> String {
        let x = x10(mark.t)
        var out = "<g class=\"mark \(mark.kind.rawValue)\" data-events=\"\(mark.event)\">"
        out += "<title>\(xml(line(for: events[mark.event])))</title>"
        switch mark.kind {
        case .dropped:
            out += "<path class=\"drop\" d=\"M\(px(x - 40)),\(y + 14) l8,8 m0,-8 l-8,8\"/>"
        case .cut, .abandoned:
            out += "<path class=\"cutmark\" d=\"M\(px(x)),\(y + 14) l-4,-6 l8,0 z\"/>"
        case .road:
            // A tick across the lane, coloured by what happened (a fix, a drop, a turn, off route).
            let kind = events[mark.event].kind.rawValue.split(separator: ".").joined(separator: "-")
            out += "<line class=\"roadmark \(kind)\" x1=\"\(px(x))\" y1=\"\(y + 10)\" x2=\"\(px(x))\" y2=\"\(y + height - 10)\"/>"
        default:
            out += "<circle class=\"decision\" cx=\"\(px(x))\" cy=\"\(y + 11)\" r=\"2.5\"/>"
        }
        if let rule = mark.rule, x >= labelEnd {
            out += "<text class=\"rule\" x=\"\(px(x + 30))\" y=\"\(y + 12)\">\(rule.rawValue)</text>"
            labelEnd = x + Int64(rule.rawValue.count * 60 + 80)
        }
        return out + "</g>\n"
    }

    /// What a bar's tooltip says: what it is, when, and its events as text lines.
    private func tooltip(_ bar: Lanes.Bar) -> String {
        let what: String
        switch bar.kind {
        case .line: what = "line \(bar.label) plays"
        case .wait: what = "line \(bar.label) waits"
        case .reply: what = "reply \(bar.label) active"
        case .queued: what = "reply \(bar.label) queued"
        case .held: what = "stretch \(bar.label) held"
        case .stretch: what = "stretch \(bar.label) " + (bar.cut ? "plays, cut" : "plays")
        case .earsClosed: what = "ears closed"
        case .heard: what = "Dad's \(bar.label): heard"
        case .lost: what = "Dad's \(bar.label): lost (ears closed)"
        }
        var out = "\(what), \(bar.start) – \(bar.end) (\(bar.end.ms - bar.start.ms) ms)"
        for i in bar.events { out += "\n" + line(for: events[i]) }
        return out
    }

    static let svgStyle = """
        <defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">\
        <path d="M0,0 L8,4 L0,8 z" fill="#7a3db8"/></marker></defs>
        <style>
        .page { fill: #ffffff; } .heading { font-size: 14px; font-weight: bold; fill: #222; } .note { fill: #666; }
        .band { fill: #f6f6f6; } .lanename { font-size: 13px; font-weight: bold; fill: #333; }
        .axis text { fill: #555; font-size: 10px; } .grid { stroke: #e2e2e2; stroke-width: 1; }
        .line { fill: #2f6fdb; } .wait { fill: #2f6fdb; fill-opacity: 0.25; stroke: #2f6fdb; stroke-dasharray: 3 2; stroke-width: 0.6; }
        .stretch { fill: #2e9e5b; } .stretch.cut { fill: #7fc79b; }
        .reply { fill: #2e9e5b; fill-opacity: 0.35; } .queued { fill: #999; fill-opacity: 0.35; }
        .held { fill: #e8a23a; fill-opacity: 0.45; }
        .ears-closed { fill: #555; fill-opacity: 0.75; }
        .heard { fill: #8a5cc9; } .lost { fill: #d93b3b; }
        .barlabel { fill: #fff; font-size: 10px; pointer-events: none; }
        .cutline { stroke: #d93b3b; stroke-width: 2; } .cutmark { fill: #d93b3b; }
        .drop { stroke: #d93b3b; stroke-width: 2; fill: none; } .decision { fill: #333; }
        .rule { fill: #333; font-size: 10px; font-style: italic; }
        .flow { stroke: #7a3db8; stroke-width: 1.5; fill: none; }
        .roadmark { stroke: #b5b5b5; stroke-width: 1; }
        .road-fix-dropped, .road-report-dropped, .road-turn-unannounced { stroke: #d93b3b; stroke-width: 2; }
        .road-turn-upcoming, .road-turn-passed, .road-stage-skipped { stroke: #2f6fdb; stroke-width: 2; }
        .road-off-route { stroke: #e8a23a; stroke-width: 3; } .road-on-route { stroke: #2e9e5b; stroke-width: 3; }
        .road-measuring-paused, .road-measuring-resumed, .road-segment-started, .road-segment-ended { stroke: #333; stroke-width: 2; }
        </style>

        """

    static func svgLegend(y: Int) -> String {
        let items: [(String, String)] = [
            ("line", "guidance line"), ("wait", "line waits"), ("stretch", "Pippa's stretch"), ("stretch cut", "stretch cut"),
            ("held", "held"), ("reply", "reply active"), ("queued", "reply queued"), ("ears-closed", "ears closed"),
            ("heard", "Dad heard"), ("lost", "Dad lost"),
        ]
        var out = "<g class=\"legend\">"
        var x = 10
        for (cls, text) in items {
            out += "<rect class=\"\(cls)\" x=\"\(x)\" y=\"\(y - 9)\" width=\"14\" height=\"10\"/>"
            out += "<text x=\"\(x + 18)\" y=\"\(y)\">\(text)</text>"
            x += 18 + text.count * 6 + 16
        }
        out += "<line class=\"cutline\" x1=\"\(x + 4)\" y1=\"\(y - 10)\" x2=\"\(x + 4)\" y2=\"\(y + 1)\"/>"
        out += "<text x=\"\(x + 10)\" y=\"\(y)\">cut point</text>"
        x += 10 + 9 * 6 + 16
        out += "<path class=\"flow\" d=\"M\(x),\(y - 4) l22,0\" marker-end=\"url(#arrow)\"/>"
        out += "<text x=\"\(x + 28)\" y=\"\(y)\">cause → effect</text></g>\n"
        return out
    }

    /// The road lane's marks, on a second legend line.
    static func svgRoadLegend(y: Int) -> String {
        let items: [(String, String)] = [
            ("road-fix-arrived", "fix arrived, report sent"), ("road-report-dropped", "fix or report dropped"),
            ("road-turn-upcoming", "turn upcoming or passed"), ("road-off-route", "off route"), ("road-on-route", "back on route"),
            ("road-measuring-paused", "measuring paused or resumed"),
        ]
        var out = "<g class=\"legend\"><text x=\"10\" y=\"\(y)\">road:</text>"
        var x = 46
        for (cls, text) in items {
            out += "<line class=\"roadmark \(cls)\" x1=\"\(x + 4)\" y1=\"\(y - 10)\" x2=\"\(x + 4)\" y2=\"\(y + 1)\"/>"
            out += "<text x=\"\(x + 12)\" y=\"\(y)\">\(text)</text>"
            x += 12 + text.count * 6 + 16
        }
        return out + "</g>\n"
    }
}

/// Text escaped for XML content and attributes.
func xml(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}
