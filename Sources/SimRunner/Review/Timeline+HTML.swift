import ScenarioFormat
import SimClock
import SimRunner

/// The timeline as one self-contained HTML page for a browser: the lanes of
/// `Lanes` on a canvas, drawn by the page's own script from data embedded in
/// it (no network: inline CSS and script, no fonts or scripts to fetch).
///
/// The page holds two JSON documents in `<script type="application/json">`:
/// `timeline`, the events shown exactly as `--format json` writes them, and
/// `layout`, the bars, marks and arrows of `Lanes` naming those events by
/// their place in `timeline`. Everything from the input is in them as JSON
/// strings with `<`, `>` and `&` written `\u003c`, `\u003e`, `\u0026`, so no
/// text can close the script element; the title is escaped as XML.
///
/// Zoomed out, each lane is drawn as density (per pixel column, how much of
/// it is covered, how many decisions fall in it), so a 2-hour drive reads at
/// a glance; zoomed in, every bar, mark, rule and arrow. Wheel or `+`/`-`
/// zooms around the pointer, dragging pans, the strip on top shows the whole
/// drive and where the view is, and a click lists the fields of the events
/// under the pointer. Opened as `PAGE#selftest`, the page zooms and pans by
/// itself and writes how long each drawing took into `#selftest`, for
/// headless checks (`Benchmarks/html-chromium.sh`).
extension Timeline {
    /// The HTML page, ending in a newline.
    public func html(window: ReviewWindow = ReviewWindow()) -> String {
        String(chunks: { writeHTML(window: window, to: $0) })
    }

    /// `html(window:)`'s UTF-8, as `run` writes it: handed to `emit` in
    /// chunks as it is written (`ChunkedOutput`), the embedded timeline
    /// streamed from `writeJSON`, so a long drive's page is never held whole.
    /// With `audio`, the page plays the drive (`run --format html --audio`):
    /// an `<audio>` under the controls, a playhead on the chart, and a
    /// collision zoomed to is played from a second before it.
    package func writeHTML(window: ReviewWindow, audio: PageAudio? = nil, to emit: (UnsafeBufferPointer<UInt8>) -> Void)
    {
        ChunkedOutput.writing(to: emit) { out in writeHTML(window: window, audio: audio, into: &out) }
    }

    /// The longest window whose WAV a page embeds (`--audio embed`): two minutes, 7.7 MB of WAV, 10 MB of base64.
    package static let embeddedAudioLimitMs: Int64 = 120_000

    private func writeHTML(window: ReviewWindow, audio: PageAudio?, into out: inout ChunkedOutput) {
        let lanes = Lanes(self, only: window.only)
        let range = window.range(end: lanes.end)
        let visible = lanes.visible(in: range)
        let shown = lanes.shown
        var laneRow = [Int](repeating: -1, count: Lanes.Lane.allCases.count)
        for (n, lane) in shown.enumerated() { laneRow[lane.rawValue] = n }

        // The events in the page: those in the window, and those any drawn shape names.
        var wanted = [Bool](repeating: false, count: events.count)
        for (i, event) in events.enumerated() where window.keeps(event) { wanted[i] = true }
        for bar in visible.bars where laneRow[bar.lane.rawValue] >= 0 { for e in bar.events { wanted[e] = true } }
        for mark in visible.marks where laneRow[mark.lane.rawValue] >= 0 { wanted[mark.event] = true }
        for flow in visible.flows {
            wanted[flow.cause] = true
            wanted[flow.effect] = true
        }
        var position = [Int](repeating: -1, count: events.count)
        var ids: [Int] = []
        for i in events.indices where wanted[i] {
            position[i] = ids.count
            ids.append(i)
        }
        let page = ids.count == events.count ? self : keeping { i, _ in wanted[i] }

        let title = xml(Self.oneLine(scenario))
        let summary = TimelineSummary(self, window: window).lines.map { "<p>" + xml($0) + "</p>" }.joined()
        out.bytes.append(
            utf8: """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>drivesim: \(title)</title>

                """)
        out.bytes.append(utf8: Self.htmlStyle)
        out.bytes.append(
            utf8: """
                </head>
                <body>
                <header><h1>\(title)</h1>
                <div class="controls"><button id="zoom-out" title="zoom out (-)">−</button><button id="zoom-in" title="zoom in (+)">+</button>\
                <button id="fit" title="the whole window (0)">whole drive</button><span id="status"></span></div></header>
                <section id="summary">\(summary)</section>

                """)
        if let audio {
            // The sound starts where the window does: the page's time 0 of the audio.
            out.bytes.append(
                utf8:
                    "<div id=\"player\"><audio id=\"audio\" controls preload=\"auto\" data-start=\"\(range.start.ms)\" src=\""
            )
            switch audio {
            case .file(let path): out.bytes.append(utf8: xml(Self.uriPath(path)))
            case .embedded:
                out.bytes.append(utf8: "data:audio/wav;base64,")
                var base64 = Base64Stream()
                writeWAV(window: window) { chunk in base64.append(chunk, to: &out) }
                base64.finish(to: &out)
            }
            out.bytes.append(
                utf8:
                    "\"></audio> <span class=\"hint\">the playhead follows the sound; a collision zoomed to plays from a second before it</span></div>\n"
            )
        }
        out.bytes.append(
            utf8: """
                <div id="collisions">Collisions: <select id="collision-rule" title="which rule's collisions"></select>\
                <button id="collision-prev" title="zoom to the one before">◀</button><button id="collision-next" title="zoom to the next">▶</button>\
                <span id="collision-at"></span><div id="collision-list"></div></div>
                <canvas id="overview" height="56"></canvas>
                <div id="chart"><canvas id="lanes"></canvas></div>
                <div id="legend"></div>
                <section id="details"><p class="hint">Click a bar or a mark to see its events. Wheel or + and − zoom, \
                dragging pans, the strip on top shows the whole drive; Collisions zooms to each decision and road moment in turn.</p></section>
                <pre id="selftest" hidden></pre>
                <script type="application/json" id="timeline">
                """)
        // The two JSON documents go into the page script-safe, as they are written.
        page.writeJSON { out.appendScriptSafe($0) }
        out.bytes.append(utf8: "</script>\n<script type=\"application/json\" id=\"layout\">\n")

        // The layout is made row by row and handed over a chunk at a time.
        var layout: [UInt8] = []
        func spill(ifFull: Bool = true) {
            guard !ifFull || layout.count >= ChunkedOutput.chunkSize else { return }
            layout.withUnsafeBufferPointer { out.appendScriptSafe($0) }
            layout.removeAll(keepingCapacity: true)
        }
        layout.append(utf8: "{\"barKinds\": [")
        for (n, kind) in Lanes.BarKind.allCases.enumerated() {
            if n > 0 { layout.append(utf8: ", ") }
            layout.append(quoted: kind.rawValue)
        }
        // A row of the layout: `[first` then each value after a comma.
        func row(_ n: Int, _ first: Int) {
            spill()
            layout.append(utf8: n == 0 ? "\n[" : ",\n[")
            layout.append(int: Int64(first))
        }
        func then(_ v: Int64) {
            layout.append(UInt8(ascii: ","))
            layout.append(int: v)
        }
        func then(_ s: String) {
            layout.append(UInt8(ascii: ","))
            layout.append(quoted: s)
        }
        layout.append(utf8: "],\n\"bars\": [")
        for (n, bar) in visible.bars.lazy.filter({ laneRow[$0.lane.rawValue] >= 0 }).enumerated() {
            row(n, laneRow[bar.lane.rawValue])
            then(Int64(Lanes.BarKind.allCases.firstIndex(of: bar.kind) ?? 0))
            then(bar.start.ms)
            then(bar.end.ms)
            then(bar.cut ? 1 : 0)
            then(bar.label)
            layout.append(utf8: ",[")
            for (k, e) in bar.events.enumerated() {
                if k > 0 { layout.append(UInt8(ascii: ",")) }
                layout.append(int: Int64(position[e]))
            }
            layout.append(utf8: "]]")
        }
        layout.append(utf8: "],\n\"end\": ")
        layout.append(int: lanes.end.ms)
        layout.append(utf8: ",\n\"flows\": [")
        for (n, flow) in visible.flows.enumerated() {
            row(n, laneRow[flow.from.rawValue])
            then(Int64(laneRow[flow.to.rawValue]))
            then(flow.t.ms)
            then(Int64(position[flow.cause]))
            then(Int64(position[flow.effect]))
            layout.append(UInt8(ascii: "]"))
        }
        layout.append(utf8: "],\n\"from\": ")
        layout.append(int: range.start.ms)
        layout.append(utf8: ",\n\"ids\": [")
        for (n, i) in ids.enumerated() {
            if n > 0 { layout.append(UInt8(ascii: ",")) }
            layout.append(int: Int64(i))
            spill()
        }
        layout.append(utf8: "],\n\"lanes\": [")
        for (n, lane) in shown.enumerated() {
            if n > 0 { layout.append(utf8: ", ") }
            layout.append(quoted: lane.title)
        }
        layout.append(utf8: "],\n\"marks\": [")
        for (n, mark) in visible.marks.lazy.filter({ laneRow[$0.lane.rawValue] >= 0 }).enumerated() {
            row(n, laneRow[mark.lane.rawValue])
            then(mark.kind == .road ? events[mark.event].kind.rawValue : mark.kind.rawValue)
            then(mark.t.ms)
            // A road moment's label stands in the rule's place: the page labels it and lists it under Collisions.
            then(mark.ruleLabel ?? mark.moment?.rawValue ?? "")
            then(Int64(position[mark.event]))
            layout.append(UInt8(ascii: "]"))
        }
        layout.append(utf8: "],\n\"to\": ")
        layout.append(int: range.end.ms)
        layout.append(utf8: "}\n")
        spill(ifFull: false)

        out.bytes.append(utf8: "</script>\n<script>\n")
        out.bytes.append(utf8: Self.htmlScript)
        out.bytes.append(utf8: "</script>\n</body>\n</html>\n")
    }

    /// The page's style sheet in its `<style>` element: `Resources/page.css`.
    static let htmlStyle = "<style>\n" + PageResource.text(of: "page", "css") + "</style>\n"

    /// The page's script: reads the two JSON documents, draws, zooms, pans and
    /// shows fields; `Resources/page.js`.
    static let htmlScript = PageResource.text(of: "page", "js")
}

extension ChunkedOutput {
    /// Appends JSON bytes made safe inside a `<script>` element
    /// (`[UInt8].appendScriptSafe`), and hands over a chunk if one is full.
    mutating func appendScriptSafe(_ chunk: UnsafeBufferPointer<UInt8>) {
        [UInt8].appendScriptSafe(chunk, to: &bytes)
        flushIfFull()
    }
}

/// How the HTML page plays the drive (`run --format html --audio`).
package enum PageAudio: Sendable, Equatable {
    /// A WAV file beside the page, by its path as given (relative to the page).
    case file(String)
    /// The window's WAV inside the page, as a `data:` URI (for windows up to `Timeline.embeddedAudioLimitMs`).
    case embedded
}

extension Timeline {
    /// `path` as a relative URI: each byte outside the unreserved set and `/` percent-encoded.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}

/// Base64 written as bytes arrive in chunks of any size: up to two bytes
/// wait for the next chunk, so the text is the same as the whole's.
struct Base64Stream {
    private var held: [UInt8] = []
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes `chunk` (after what was held) onto `out`, holding the last bytes short of three.
    mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, to out: inout ChunkedOutput) {
        var i = 0
        while !held.isEmpty, held.count < 3, i < chunk.count {
            held.append(chunk[i])
            i += 1
        }
        if held.count == 3 {
            encode(held[0], held[1], held[2], count: 3, to: &out)
            held.removeAll()
        }
        while i + 3 <= chunk.count {
            encode(chunk[i], chunk[i + 1], chunk[i + 2], count: 3, to: &out)
            i += 3
        }
        held.append(contentsOf: chunk[i...])
        out.flushIfFull()
    }

    /// Encodes what is held, padded with `=`.
    mutating func finish(to out: inout ChunkedOutput) {
        guard !held.isEmpty else { return }
        encode(held[0], held.count > 1 ? held[1] : 0, 0, count: held.count, to: &out)
        held.removeAll()
    }

    private func encode(_ a: UInt8, _ b: UInt8, _ c: UInt8, count: Int, to out: inout ChunkedOutput) {
        let n = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        out.bytes.append(Self.alphabet[Int(n >> 18 & 63)])
        out.bytes.append(Self.alphabet[Int(n >> 12 & 63)])
        out.bytes.append(count > 1 ? Self.alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
        out.bytes.append(count > 2 ? Self.alphabet[Int(n & 63)] : UInt8(ascii: "="))
    }
}
