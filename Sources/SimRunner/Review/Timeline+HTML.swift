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
        for flow in visible.flows { wanted[flow.cause] = true; wanted[flow.effect] = true }
        var position = [Int](repeating: -1, count: events.count)
        var ids: [Int] = []
        for i in events.indices where wanted[i] { position[i] = ids.count; ids.append(i) }
        let page = keeping { i, _ in wanted[i] }

        var layout: [UInt8] = []
        layout.reserveCapacity(visible.bars.count * 40 + visible.marks.count * 24 + ids.count * 7 + 1024)
        layout.append(utf8: "{\"barKinds\": [")
        for (n, kind) in Lanes.BarKind.allCases.enumerated() {
            if n > 0 { layout.append(utf8: ", ") }
            layout.append(quoted: kind.rawValue)
        }
        layout.append(utf8: "],\n\"bars\": [")
        var first = true
        for bar in visible.bars where laneRow[bar.lane.rawValue] >= 0 {
            layout.append(utf8: first ? "\n[" : ",\n[")
            first = false
            layout.append(int: Int64(laneRow[bar.lane.rawValue]))
            layout.append(UInt8(ascii: ","))
            layout.append(int: Int64(Lanes.BarKind.allCases.firstIndex(of: bar.kind) ?? 0))
            layout.append(UInt8(ascii: ","))
            layout.append(int: bar.start.ms)
            layout.append(UInt8(ascii: ","))
            layout.append(int: bar.end.ms)
            layout.append(utf8: bar.cut ? ",1," : ",0,")
            layout.append(quoted: bar.label)
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
            layout.append(utf8: n == 0 ? "\n[" : ",\n[")
            for (k, v) in [laneRow[flow.from.rawValue], laneRow[flow.to.rawValue]].enumerated() {
                if k > 0 { layout.append(UInt8(ascii: ",")) }
                layout.append(int: Int64(v))
            }
            layout.append(UInt8(ascii: ","))
            layout.append(int: flow.t.ms)
            layout.append(UInt8(ascii: ","))
            layout.append(int: Int64(position[flow.cause]))
            layout.append(UInt8(ascii: ","))
            layout.append(int: Int64(position[flow.effect]))
            layout.append(UInt8(ascii: "]"))
        }
        layout.append(utf8: "],\n\"from\": ")
        layout.append(int: range.start.ms)
        layout.append(utf8: ",\n\"ids\": [")
        for (n, i) in ids.enumerated() {
            if n > 0 { layout.append(UInt8(ascii: ",")) }
            layout.append(int: Int64(i))
        }
        layout.append(utf8: "],\n\"lanes\": [")
        for (n, lane) in shown.enumerated() {
            if n > 0 { layout.append(utf8: ", ") }
            layout.append(quoted: lane.title)
        }
        layout.append(utf8: "],\n\"marks\": [")
        first = true
        for mark in visible.marks where laneRow[mark.lane.rawValue] >= 0 {
            layout.append(utf8: first ? "\n[" : ",\n[")
            first = false
            layout.append(int: Int64(laneRow[mark.lane.rawValue]))
            layout.append(UInt8(ascii: ","))
            layout.append(quoted: mark.kind == .road ? events[mark.event].kind.rawValue : mark.kind.rawValue)
            layout.append(UInt8(ascii: ","))
            layout.append(int: mark.t.ms)
            layout.append(UInt8(ascii: ","))
            layout.append(quoted: mark.rule?.rawValue ?? "")
            layout.append(UInt8(ascii: ","))
            layout.append(int: Int64(position[mark.event]))
            layout.append(UInt8(ascii: "]"))
        }
        layout.append(utf8: "],\n\"to\": ")
        layout.append(int: range.end.ms)
        layout.append(utf8: "}\n")

        let timelineJSON = page.jsonBytes
        var out: [UInt8] = []
        out.reserveCapacity(timelineJSON.count + layout.count + Self.htmlScript.utf8.count + 8192)
        let title = xml(Self.oneLine(scenario))
        out.append(utf8: """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>drivesim: \(title)</title>

            """)
        out.append(utf8: Self.htmlStyle)
        out.append(utf8: """
            </head>
            <body>
            <header><h1>\(title)</h1>
            <div class="controls"><button id="zoom-out" title="zoom out (-)">−</button><button id="zoom-in" title="zoom in (+)">+</button>\
            <button id="fit" title="the whole window (0)">whole drive</button><span id="status"></span></div></header>
            <canvas id="overview" height="56"></canvas>
            <div id="chart"><canvas id="lanes"></canvas></div>
            <div id="legend"></div>
            <section id="details"><p class="hint">Click a bar or a mark to see its events. Wheel or + and − zoom, \
            dragging pans, the strip on top shows the whole drive.</p></section>
            <pre id="selftest" hidden></pre>
            <script type="application/json" id="timeline">
            """)
        out.appendScriptSafe(timelineJSON)
        out.append(utf8: "</script>\n<script type=\"application/json\" id=\"layout\">\n")
        out.appendScriptSafe(layout)
        out.append(utf8: "</script>\n<script>\n")
        out.append(utf8: Self.htmlScript)
        out.append(utf8: "</script>\n</body>\n</html>\n")
        return String(decoding: out, as: UTF8.self)
    }

    static let htmlStyle = """
        <style>
        body { margin: 0; font: 13px Helvetica, Arial, sans-serif; color: #222; background: #fff; }
        header { display: flex; align-items: center; gap: 16px; padding: 8px 12px; border-bottom: 1px solid #ddd; }
        h1 { font-size: 15px; margin: 0; }
        .controls button { font-size: 15px; min-width: 30px; margin-right: 4px; }
        #status { color: #555; margin-left: 8px; }
        #overview { display: block; width: 100%; height: 56px; border-bottom: 1px solid #ddd; cursor: pointer; }
        #chart { position: relative; }
        #lanes { display: block; width: 100%; cursor: grab; }
        #lanes.dragging { cursor: grabbing; }
        #legend { padding: 4px 12px; color: #444; }
        #legend span { display: inline-block; margin-right: 14px; }
        #legend i { display: inline-block; width: 14px; height: 10px; margin-right: 4px; vertical-align: -1px; }
        #details { padding: 4px 12px 16px; }
        #details table { border-collapse: collapse; margin: 6px 0; }
        #details td, #details th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
        #details th { background: #f4f4f4; font-weight: normal; color: #555; }
        #details .hint { color: #666; }
        </style>

        """

    /// The page's script: reads the two JSON documents, draws, zooms, pans and shows fields.
    static let htmlScript = #"""
        "use strict";
        (function () {
        const T = JSON.parse(document.getElementById("timeline").textContent);
        const L = JSON.parse(document.getElementById("layout").textContent);
        const events = T.events;
        const COLOR = { "line": "#2f6fdb", "wait": "#2f6fdb", "reply": "#2e9e5b", "queued": "#777777", "held": "#e8a23a",
          "stretch": "#2e9e5b", "ears-closed": "#555555", "heard": "#8a5cc9", "lost": "#d93b3b", "off-route": "#e8a23a" };
        const CUT = "#7fc79b", RED = "#d93b3b", FLOW = "#7a3db8";
        const LEGEND = [["line", "guidance line"], ["wait", "line waits"], ["stretch", "Pippa's stretch"], [CUT, "stretch cut"],
          ["held", "held"], ["reply", "reply active"], ["queued", "reply queued"], ["ears-closed", "ears closed"],
          ["heard", "Dad heard"], ["lost", "Dad lost"], ["off-route", "off route"], [FLOW, "cause → effect"]];
        const LANE_H = 56, AXIS_H = 22, LEFT = 80, RIGHT = 12;
        // Rows inside a lane: marks on top, what plays in the middle, the reply band, what waits at the bottom.
        const ROWS = { marks: [3, 10], plays: [15, 22], band: [38, 3], waits: [43, 8] };
        const WAITS = { "wait": 1, "queued": 1, "held": 1 };

        // Bars by lane and row, sorted by start, with the longest duration (to find what reaches into a view).
        const rows = L.lanes.map(() => ({ plays: [], band: [], waits: [], marks: [] }));
        for (const b of L.bars) {
          const kind = L.barKinds[b[1]];
          const row = kind === "reply" ? "band" : WAITS[kind] ? "waits" : "plays";
          rows[b[0]][row].push({ lane: b[0], kind: kind, start: b[2], end: b[3], cut: b[4] === 1, label: b[5], events: b[6], row: row });
        }
        for (const m of L.marks) rows[m[0]].marks.push({ lane: m[0], kind: m[1], start: m[2], end: m[2], rule: m[3], events: [m[4]], row: "marks" });
        const lists = [];
        for (const r of rows) for (const key of ["plays", "band", "waits", "marks"]) {
          const list = r[key];
          list.sort((a, b) => a.start - b.start || a.end - b.end);
          list.longest = list.reduce((m, x) => Math.max(m, x.end - x.start), 0);
          lists.push(list);
        }
        function within(list, a, b) {
          // The items of a sorted list that touch [a, b].
          let lo = 0, hi = list.length;
          const from = a - list.longest;
          while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid].start < from) lo = mid + 1; else hi = mid; }
          const out = [];
          for (let i = lo; i < list.length && list[i].start <= b; i++) if (list[i].end >= a) out.push(list[i]);
          return out;
        }

        const full = [L.from, Math.max(L.to, L.from + 1)];
        let view = [full[0], full[1]];
        // PAGE#view=A-B opens on A to B milliseconds.
        const asked = /^#view=(\d+)-(\d+)$/.exec(location.hash);
        if (asked && +asked[2] > +asked[1]) view = [Math.max(full[0], +asked[1]), Math.min(full[1], +asked[2])];
        const MIN_SPAN = 20;
        const canvas = document.getElementById("lanes"), overview = document.getElementById("overview");
        const status = document.getElementById("status"), details = document.getElementById("details");
        let width = 800, dpr = 1, pending = false, drawMs = 0, draws = 0;

        function tick(ms) {
          const neg = ms < 0; ms = Math.abs(Math.round(ms));
          const frac = ms % 1000 ? "." + String(1000 + ms % 1000).slice(1).replace(/0+$/, "") : "";
          const s = Math.floor(ms / 1000);
          const two = (v) => (v < 10 ? "0" : "") + v;
          let text;
          if (s < 60) text = s + frac + "s";
          else { const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
            text = (h > 0 ? h + ":" + two(m) : String(m)) + ":" + two(s % 60) + frac; }
          return (neg ? "-" : "") + text;
        }
        function stamp(ms) {
          const h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60, s = Math.floor(ms / 1000) % 60;
          const pad = (v, n) => String(v).padStart(n, "0");
          return (h > 0 ? h + ":" : "") + pad(m, 2) + ":" + pad(s, 2) + "." + pad(ms % 1000, 3);
        }
        // Axis steps: 1-2-5 ms below a second, then clock steps (10 s, 1 min, 15 min, 1 h, …).
        const CLOCK = [1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000,
          3600000, 7200000, 10800000, 21600000, 43200000, 86400000];
        function niceStep(ms) {
          if (ms > 500) { for (const s of CLOCK) if (s >= ms) return s; return Math.ceil(ms / 86400000) * 86400000; }
          let base = 1;
          for (;;) { for (const k of [1, 2, 5]) if (base * k >= ms) return base * k; base *= 10; }
        }

        function resize() {
          dpr = window.devicePixelRatio || 1;
          width = Math.max(300, document.documentElement.clientWidth);
          const height = AXIS_H + LANE_H * L.lanes.length + 8;
          canvas.width = width * dpr; canvas.height = height * dpr; canvas.style.height = height + "px";
          overview.width = width * dpr; overview.height = 56 * dpr;
          drawOverviewBase();
          request();
        }
        function request() { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); } }

        // Density: how much of each pixel column a set of bars covers, per kind.
        function coverage(items, a, k, columns) {
          const out = {};
          for (const it of items) {
            const key = it.kind === "stretch" && it.cut ? "cut" : it.kind;
            const cov = out[key] || (out[key] = new Float32Array(columns));
            let x0 = (it.start - a) * k, x1 = (it.end - a) * k;
            if (x1 - x0 < 0.5) { const c = Math.floor(x0); if (c >= 0 && c < columns) cov[c] += Math.max(x1 - x0, 0.5); continue; }
            x0 = Math.max(0, x0); x1 = Math.min(columns, x1);
            for (let c = Math.floor(x0); c < x1; c++) cov[c] += Math.min(c + 1, x1) - Math.max(c, x0);
          }
          return out;
        }
        // Drawn as a histogram: per bin of 2 px, each kind's share of the time as a height, stacked from the bottom.
        const BIN = 2;
        function paintCoverage(ctx, cov, x, y, h) {
          const keys = Object.keys(cov).sort();
          const columns = keys.length ? cov[keys[0]].length : 0;
          for (let c = 0; c < columns; c += BIN) {
            let bottom = y + h;
            for (const key of keys) {
              const col = cov[key];
              let sum = 0;
              for (let j = c; j < c + BIN && j < columns; j++) sum += col[j];
              if (sum <= 0) continue;
              const bar = Math.max(1, Math.min(h, h * sum / BIN));
              ctx.fillStyle = key === "cut" ? CUT : COLOR[key];
              ctx.fillRect(x + c, bottom - bar, BIN, bar);
              bottom -= bar;
            }
          }
        }
        function markColor(m) {
          if (m.kind === "cut" || m.kind === "dropped" || m.kind === "abandoned") return RED;
          if (/dropped|unannounced/.test(m.kind)) return RED;
          if (/turn|stage/.test(m.kind)) return "#2f6fdb";
          if (m.kind === "road.off-route") return "#e8a23a";
          if (m.kind === "road.on-route") return "#2e9e5b";
          if (m.kind.startsWith("road.fix.arrived") || m.kind.startsWith("road.report")) return "#9a9a9a";
          return "#333333";
        }

        function drawOverviewBase() {
          const c = document.createElement("canvas");
          c.width = overview.width; c.height = overview.height;
          const ctx = c.getContext("2d");
          ctx.scale(dpr, dpr);
          ctx.fillStyle = "#fafafa"; ctx.fillRect(0, 0, width, 56);
          const columns = Math.max(1, Math.floor(width - LEFT - RIGHT));
          const k = columns / (full[1] - full[0]);
          const h = Math.max(4, Math.floor(48 / Math.max(1, L.lanes.length)));
          ctx.font = "10px Helvetica, Arial, sans-serif"; ctx.fillStyle = "#555";
          L.lanes.forEach((name, n) => {
            const y = 4 + n * h;
            ctx.fillStyle = "#555"; ctx.fillText(name, 8, y + h - 2);
            paintCoverage(ctx, coverage(rows[n].plays.concat(rows[n].band), full[0], k, columns), LEFT, y, h - 1);
          });
          overview.base = c;
        }
        function drawOverview() {
          const ctx = overview.getContext("2d");
          ctx.setTransform(1, 0, 0, 1, 0, 0);
          ctx.drawImage(overview.base, 0, 0);
          ctx.scale(dpr, dpr);
          const columns = width - LEFT - RIGHT, k = columns / (full[1] - full[0]);
          const x0 = LEFT + (view[0] - full[0]) * k, x1 = LEFT + (view[1] - full[0]) * k;
          ctx.fillStyle = "rgba(47,111,219,0.12)"; ctx.fillRect(x0, 0, Math.max(2, x1 - x0), 56);
          ctx.strokeStyle = "#2f6fdb"; ctx.lineWidth = 1.5; ctx.strokeRect(x0, 1, Math.max(2, x1 - x0), 54);
        }

        function draw() {
          const started = performance.now();
          const ctx = canvas.getContext("2d");
          ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
          const height = AXIS_H + LANE_H * L.lanes.length + 8;
          ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, width, height);
          const columns = Math.max(1, Math.floor(width - LEFT - RIGHT));
          const a = view[0], b = view[1], k = columns / (b - a);
          const X = (t) => LEFT + (t - a) * k;
          ctx.font = "10px Helvetica, Arial, sans-serif";
          // The axis: a tick every 1-2-5 step about 100 px apart.
          const step = niceStep((b - a) * 100 / columns);
          ctx.strokeStyle = "#e6e6e6"; ctx.fillStyle = "#555"; ctx.lineWidth = 1; ctx.textAlign = "center";
          for (let t = Math.ceil(a / step) * step; t <= b; t += step) {
            const x = Math.round(X(t)) + 0.5;
            ctx.beginPath(); ctx.moveTo(x, AXIS_H - 4); ctx.lineTo(x, height - 8); ctx.stroke();
            ctx.fillText(tick(t), x, AXIS_H - 8);
          }
          ctx.textAlign = "left";
          let dense = 0, hiddenLabels = 0;
          L.lanes.forEach((name, n) => {
            const y = AXIS_H + n * LANE_H;
            ctx.fillStyle = "#f6f6f6"; ctx.fillRect(LEFT, y + 1, columns, LANE_H - 2);
            ctx.fillStyle = "#333"; ctx.font = "bold 12px Helvetica, Arial, sans-serif";
            ctx.fillText(name, 8, y + LANE_H / 2 + 4);
            ctx.font = "10px Helvetica, Arial, sans-serif";
            for (const key of ["band", "waits", "plays"]) {
              const items = within(rows[n][key], a, b);
              const [dy, h] = ROWS[key];
              if (items.length > columns / 3) {
                dense++;
                paintCoverage(ctx, coverage(items, a, k, columns), LEFT, y + dy, h);
                continue;
              }
              for (const it of items) {
                const x0 = Math.max(LEFT, X(it.start)), x1 = Math.min(LEFT + columns, X(it.end));
                const w = Math.max(1, x1 - x0);
                ctx.fillStyle = it.cut ? CUT : COLOR[it.kind];
                if (key === "waits") {
                  ctx.globalAlpha = 0.35; ctx.fillRect(x0, y + dy, w, h); ctx.globalAlpha = 1;
                  ctx.strokeStyle = COLOR[it.kind]; ctx.strokeRect(x0 + 0.5, y + dy + 0.5, Math.max(0, w - 1), h - 1);
                } else {
                  if (key === "band") ctx.globalAlpha = 0.45;
                  // Back-to-back bars stay apart: one white pixel at the end.
                  ctx.fillRect(x0, y + dy, w > 3 ? w - 1 : w, h);
                  ctx.globalAlpha = 1;
                }
                if (it.cut) { ctx.fillStyle = RED; ctx.fillRect(X(it.end) - 1, y + 8, 2, LANE_H - 12); }
                if (key === "plays" && it.label) {
                  const tw = it.tw || (it.tw = ctx.measureText(it.label).width);
                  if (tw + 6 <= w) { ctx.fillStyle = "#fff"; ctx.fillText(it.label, x0 + 3, y + dy + h / 2 + 4); }
                  else if (w > 4) hiddenLabels++;
                }
              }
            }
            const marks = within(rows[n].marks, a, b);
            const [my, mh] = ROWS.marks;
            if (marks.length > columns / 4) {
              dense++;
              const counts = new Uint32Array(columns), red = new Uint8Array(columns);
              for (const m of marks) {
                const c = Math.min(columns - 1, Math.max(0, Math.floor((m.start - a) * k)));
                counts[c]++; if (markColor(m) === RED) red[c] = 1;
              }
              for (let c = 0; c < columns; c++) if (counts[c]) {
                ctx.fillStyle = red[c] ? RED : "#333";
                const h = Math.min(mh + 2, 3 + Math.log2(counts[c]) * 2);
                ctx.fillRect(LEFT + c, y + my + mh + 2 - h, 1, h);
              }
            } else {
              let labelEnd = -Infinity;
              for (const m of marks) {
                const x = X(m.start);
                ctx.fillStyle = markColor(m); ctx.strokeStyle = ctx.fillStyle;
                if (m.kind === "cut" || m.kind === "abandoned") {
                  ctx.beginPath(); ctx.moveTo(x, y + 14); ctx.lineTo(x - 4, y + 7); ctx.lineTo(x + 4, y + 7); ctx.fill();
                } else if (m.kind === "dropped") {
                  ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(x - 3, y + 43); ctx.lineTo(x + 3, y + 50);
                  ctx.moveTo(x + 3, y + 43); ctx.lineTo(x - 3, y + 50); ctx.stroke(); ctx.lineWidth = 1;
                } else if (m.kind.startsWith("road")) {
                  ctx.fillRect(x - 0.5, y + 8, /turn|route/.test(m.kind) ? 2 : 1, LANE_H - 16);
                } else {
                  ctx.beginPath(); ctx.arc(x, y + 10, 2.5, 0, 7); ctx.fill();
                }
                if (m.rule) {
                  if (x + 4 >= labelEnd) {
                    ctx.fillStyle = "#333"; ctx.font = "italic 10px Helvetica, Arial, sans-serif";
                    ctx.fillText(m.rule, x + 4, y + 11);
                    labelEnd = x + 4 + ctx.measureText(m.rule).width + 4;
                    ctx.font = "10px Helvetica, Arial, sans-serif";
                  } else hiddenLabels++;
                }
              }
            }
          });
          // Arrows from cause to effect, only when few enough to read.
          let flows = 0;
          for (const f of L.flows) if (f[2] >= a && f[2] <= b) flows++;
          const arrows = flows > 0 && flows <= columns / 6;
          if (arrows) {
            ctx.strokeStyle = FLOW; ctx.fillStyle = FLOW; ctx.lineWidth = 1.5;
            for (const f of L.flows) {
              if (f[2] < a || f[2] > b) continue;
              const x = X(f[2]), y0 = AXIS_H + f[0] * LANE_H + 26, y1 = AXIS_H + f[1] * LANE_H + 26;
              const dir = y1 > y0 ? 1 : -1;
              ctx.beginPath(); ctx.moveTo(x, y0); ctx.lineTo(x, y1 - dir * 5); ctx.stroke();
              ctx.beginPath(); ctx.moveTo(x, y1); ctx.lineTo(x - 4, y1 - dir * 6); ctx.lineTo(x + 4, y1 - dir * 6); ctx.fill();
            }
            ctx.lineWidth = 1;
          }
          const perPixel = (b - a) / columns;
          let text = tick(a) + " – " + tick(b) + " · 1 px = " + (perPixel < 1000 ? perPixel.toFixed(perPixel < 10 ? 1 : 0) + " ms"
            : (perPixel / 1000).toFixed(1) + " s");
          if (dense) text += " · density view: zoom in for every bar";
          if (flows && !arrows) text += " · " + flows + " arrows hidden";
          if (hiddenLabels) text += " · " + hiddenLabels + " labels hidden";
          status.textContent = text;
          drawOverview();
          drawMs = performance.now() - started; draws++;
        }

        function setView(a, b) {
          let span = Math.min(Math.max(b - a, MIN_SPAN), full[1] - full[0]);
          a = Math.max(full[0], Math.min(a, full[1] - span));
          view = [a, a + span];
          request();
        }
        function zoom(factor, atX) {
          const columns = width - LEFT - RIGHT;
          const at = view[0] + (Math.min(Math.max(atX - LEFT, 0), columns) / columns) * (view[1] - view[0]);
          setView(at - (at - view[0]) * factor, at + (view[1] - at) * factor);
        }
        const centre = () => LEFT + (width - LEFT - RIGHT) / 2;
        document.getElementById("zoom-in").onclick = () => zoom(0.5, centre());
        document.getElementById("zoom-out").onclick = () => zoom(2, centre());
        document.getElementById("fit").onclick = () => setView(full[0], full[1]);
        canvas.addEventListener("wheel", (e) => {
          e.preventDefault();
          const rect = canvas.getBoundingClientRect();
          if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
            const d = e.deltaX * (view[1] - view[0]) / (width - LEFT - RIGHT);
            setView(view[0] + d, view[1] + d);
          } else zoom(Math.exp(e.deltaY * 0.002), e.clientX - rect.left);
        }, { passive: false });
        let drag = null;
        canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, view: view.slice(), moved: false }; canvas.classList.add("dragging"); });
        window.addEventListener("mousemove", (e) => {
          if (!drag) return;
          const dx = e.clientX - drag.x;
          if (Math.abs(dx) > 3) drag.moved = true;
          const d = -dx * (drag.view[1] - drag.view[0]) / (width - LEFT - RIGHT);
          if (drag.moved) setView(drag.view[0] + d, drag.view[1] + d);
        });
        window.addEventListener("mouseup", (e) => {
          if (!drag) return;
          const wasClick = !drag.moved;
          drag = null; canvas.classList.remove("dragging");
          if (wasClick) { const rect = canvas.getBoundingClientRect(); pick(e.clientX - rect.left, e.clientY - rect.top); }
        });
        function moveOverview(e) {
          const rect = overview.getBoundingClientRect(), columns = width - LEFT - RIGHT;
          const t = full[0] + (e.clientX - rect.left - LEFT) / columns * (full[1] - full[0]);
          const span = view[1] - view[0];
          setView(t - span / 2, t + span / 2);
        }
        let overviewDrag = false;
        overview.addEventListener("mousedown", (e) => { overviewDrag = true; moveOverview(e); });
        window.addEventListener("mousemove", (e) => { if (overviewDrag) moveOverview(e); });
        window.addEventListener("mouseup", () => { overviewDrag = false; });
        window.addEventListener("keydown", (e) => {
          if (e.key === "+" || e.key === "=") zoom(0.5, centre());
          else if (e.key === "-") zoom(2, centre());
          else if (e.key === "0") setView(full[0], full[1]);
          else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
            const d = (e.key === "ArrowLeft" ? -0.25 : 0.25) * (view[1] - view[0]);
            setView(view[0] + d, view[1] + d);
          }
        });

        // A click: the items under the pointer in its lane, and their events' fields.
        function pick(px, py) {
          const n = Math.floor((py - AXIS_H) / LANE_H);
          if (n < 0 || n >= L.lanes.length || px < LEFT) return;
          const dy = py - AXIS_H - n * LANE_H;
          const columns = width - LEFT - RIGHT, k = columns / (view[1] - view[0]);
          const t = view[0] + (px - LEFT) / k, slack = 4 / k;
          const row = dy < 14 ? "marks" : dy < 37 ? "plays" : dy < 42 ? "band" : "waits";
          const order = [row].concat(["marks", "plays", "band", "waits"].filter((r) => r !== row));
          let found = [];
          for (const r of order) { found = within(rows[n][r], t - slack, t + slack); if (found.length) break; }
          show(found, L.lanes[n], t);
        }
        function cell(text) { const td = document.createElement("td"); td.textContent = text; return td; }
        function show(items, lane, t) {
          details.replaceChildren();
          const head = document.createElement("p");
          const seen = new Set(), list = [];
          for (const it of items) for (const e of it.events) if (!seen.has(e)) { seen.add(e); list.push(e); }
          list.sort((x, y) => x - y);
          head.textContent = list.length ? lane + " at " + stamp(Math.round(t)) + ": " + items.length
            + (items.length === 1 ? " shape, " : " shapes, ") + list.length + (list.length === 1 ? " event" : " events")
            : "Nothing in the " + lane + " lane at " + stamp(Math.round(t)) + ".";
          details.appendChild(head);
          const limit = 60;
          for (const e of list.slice(0, limit)) {
            const ev = events[e];
            const table = document.createElement("table");
            table.dataset.event = String(L.ids[e]);
            const tr = document.createElement("tr");
            const th = document.createElement("th"); th.colSpan = 2;
            th.textContent = "#" + L.ids[e] + "  " + stamp(ev.t) + "  " + ev.event;
            tr.appendChild(th); table.appendChild(tr);
            for (const key of Object.keys(ev)) {
              if (key === "t" || key === "event") continue;
              const row = document.createElement("tr");
              row.appendChild(cell(key)); row.appendChild(cell(JSON.stringify(ev[key])));
              table.appendChild(row);
            }
            details.appendChild(table);
          }
          if (list.length > limit) {
            const more = document.createElement("p");
            more.textContent = "… and " + (list.length - limit) + " more: zoom in.";
            details.appendChild(more);
          }
        }

        const legend = document.getElementById("legend");
        for (const [key, text] of LEGEND) {
          const span = document.createElement("span"), swatch = document.createElement("i");
          swatch.style.background = COLOR[key] || key;
          span.appendChild(swatch); span.appendChild(document.createTextNode(text)); legend.appendChild(span);
        }
        document.body.dataset.events = String(events.length);
        window.addEventListener("resize", resize);
        resize();

        // PAGE#selftest: zoom in step by step around the middle, pan, zoom out; time each drawing.
        if (location.hash === "#selftest") {
          const out = document.getElementById("selftest");
          const times = [];
          const measure = () => { const s = performance.now(); draw(); times.push(performance.now() - s); };
          measure();
          for (let i = 0; i < 16; i++) { zoom(0.5, centre()); measure(); }
          for (let i = 0; i < 16; i++) { setView(view[0] + (view[1] - view[0]) / 3, view[1] + (view[1] - view[0]) / 3); measure(); }
          for (let i = 0; i < 16; i++) { zoom(2, centre()); measure(); }
          pick(LEFT + (width - LEFT - RIGHT) / 2, AXIS_H + 26);
          out.hidden = false;
          out.textContent = "events " + events.length + "\ndraws " + times.length + "\nmax ms " + Math.max(...times).toFixed(1)
            + "\nmean ms " + (times.reduce((x, y) => x + y, 0) / times.length).toFixed(1) + "\nfirst ms " + times[0].toFixed(1)
            + "\nload ms " + performance.now().toFixed(0) + "\neach ms " + times.map((x) => x.toFixed(1)).join(" ");
        }
        })();

        """#
}

extension Array where Element == UInt8 {
    /// JSON bytes, safe inside a `<script>` element: `<`, `>` and `&` (which
    /// in our JSON occur only inside strings) as `\u003c`, `\u003e`, `\u0026`.
    mutating func appendScriptSafe(_ json: [UInt8]) {
        var clean = 0
        for i in json.indices {
            let escape: String
            switch json[i] {
            case UInt8(ascii: "<"): escape = "\\u003c"
            case UInt8(ascii: ">"): escape = "\\u003e"
            case UInt8(ascii: "&"): escape = "\\u0026"
            default: continue
            }
            append(contentsOf: json[clean..<i])
            append(utf8: escape)
            clean = i + 1
        }
        append(contentsOf: json[clean...])
    }
}
