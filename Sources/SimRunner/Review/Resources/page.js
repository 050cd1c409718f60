"use strict";
(function () {
const T = JSON.parse(document.getElementById("timeline").textContent);
const L = JSON.parse(document.getElementById("layout").textContent);
const events = T.events;
// One colour per kind of bar, as in the SVG (Timeline+SVG.swift's style), each at least 3:1 against the lane's grey
// but the cut stretch's pale green, which a red cut line marks.
const COLOR = { "line": "#2f6fdb", "wait": "#0891b2", "reply": "#7c8f0a", "queued": "#777777", "held": "#d97706",
  "stretch": "#2e9e5b", "ears-closed": "#555555", "heard": "#8a5cc9", "lost": "#d93b3b", "off-route": "#8b5a2b",
  "pippa-yes": "#1b7f4b", "pippa-no": "#be185d", "pippa-not-known": "#6b7280" };
const CUT = "#7fc79b", RED = "#d93b3b", FLOW = "#7a3db8";
// The road lane's marks by what happened (markColor), drawn as ticks: their own legend line, shown with the road lane.
const ROAD = { fix: "#9a9a9a", turn: "#2f6fdb", off: "#8b5a2b", on: "#2e9e5b", change: "#c27c0e", other: "#333333" };
const LEGEND = [["line", "guidance line"], ["wait", "line waits"], ["stretch", "Pippa's stretch"], [CUT, "stretch cut"],
  ["held", "held"], ["reply", "reply active"], ["queued", "reply queued"], ["ears-closed", "ears closed"],
  ["heard", "Dad heard"], ["lost", "Dad lost"], ["off-route", "off route"], [FLOW, "cause → effect"]];
const ROAD_LEGEND = [[ROAD.fix, "fix arrived, report sent"], [RED, "fix or report dropped, turn unannounced"],
  [ROAD.turn, "turn upcoming or passed"], [ROAD.off, "off route"], [ROAD.on, "back on route"],
  [ROAD.change, "route change, handoff"], [ROAD.other, "measuring paused or resumed"]];
// The view lane: Pippa's answer to "am I on the right road?" (each bar's label gives her reports' age).
const VIEW_LEGEND = [["pippa-yes", "yes"], ["pippa-no", "no"], ["pippa-not-known", "not-known (no report, or hers over 120 s old)"]];
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
// The drive's sound, when the page has it (run --format html --audio); its time 0 is the window's start.
const audio = document.getElementById("audio");
let playheadT = null;
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
// A mark's label (a rule, or a road moment in bold) right of it when it clears the one before; a
// route change's just after that one instead (moved, never hidden); else hidden (null). Where the next may start.
function markLabel(ctx, m, x, baseline, labelEnd) {
  const moment = MOMENT.test(m.rule);
  if (x + 4 < labelEnd && !ROUTE_CHANGE.test(m.rule)) return null;
  const at = Math.max(x + 4, labelEnd);
  ctx.fillStyle = moment ? "#5c3a0a" : "#333";
  ctx.font = (moment ? "bold" : "italic") + " 10px Helvetica, Arial, sans-serif";
  ctx.fillText(m.rule, at, baseline);
  const end = at + ctx.measureText(m.rule).width + 4;
  ctx.font = "10px Helvetica, Arial, sans-serif";
  return end;
}
// A road moment's label is words (`route switched`); a rule's is one word (`urgent-cut`), its reason after a colon (`stale: switched`).
const MOMENT = /^[a-z]+ /, ROUTE_CHANGE = /^route /;

function markColor(m) {
  if (m.kind === "cut" || m.kind === "dropped" || m.kind === "abandoned") return RED;
  if (/dropped|unannounced/.test(m.kind)) return RED;
  if (/turn|stage/.test(m.kind)) return ROAD.turn;
  if (m.kind === "road.off-route") return ROAD.off;
  if (m.kind.startsWith("road.route") || m.kind.startsWith("road.handoff") || m.kind === "road.switch.skipped") return ROAD.change;
  if (m.kind === "road.on-route") return ROAD.on;
  if (m.kind.startsWith("road.fix.arrived") || m.kind.startsWith("road.report")) return ROAD.fix;
  return ROAD.other;
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
      // The road's moments keep their tick and label however dense the lane (a route change's is never hidden).
      let labelEnd = -Infinity;
      for (const m of marks) if (m.rule) {
        const x = X(m.start);
        ctx.fillStyle = markColor(m); ctx.fillRect(x - 0.5, y + 8, 2, LANE_H - 16);
        // Below the density strip, so the two never overlap.
        const end = markLabel(ctx, m, x, y + 28, labelEnd);
        if (end === null) hiddenLabels++; else labelEnd = end;
      }
    } else {
      let labelEnd = -Infinity, labelX = null, labelRule = null;
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
        // The same rule at the same place as the label drawn is already said there: nothing is hidden.
        if (m.rule && !(x === labelX && m.rule === labelRule)) {
          const end = markLabel(ctx, m, x, y + 11, labelEnd);
          if (end === null) hiddenLabels++; else { labelEnd = end; labelX = x; labelRule = m.rule; }
        }
      }
    }
  });
  // The collision zoomed to: a yellow band across the lanes.
  if (focusT !== null && focusT >= a && focusT <= b) {
    ctx.fillStyle = "rgba(255,196,0,0.3)"; ctx.fillRect(X(focusT) - 3, AXIS_H, 6, height - AXIS_H - 8);
  }
  // Where the sound is: a red line across the lanes.
  if (playheadT !== null && playheadT >= a && playheadT <= b) {
    ctx.fillStyle = "#d0021b"; ctx.fillRect(X(playheadT) - 1, AXIS_H - 6, 2, height - AXIS_H - 2);
  }
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
  listCollisions(a, b);
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

// Collisions: every decision with a rule and every road moment (its label in the rule's place), in time order. The menu picks a rule, the arrows step
// through its collisions (each zooms the view to 10 s around it), the list names those in the view.
const collisions = [];
rows.forEach((r) => { for (const m of r.marks) if (m.rule) collisions.push(m); });
collisions.sort((x, y) => x.start - y.start || x.lane - y.lane);
collisions.longest = 0;
const byRule = {};
for (const c of collisions) (byRule[c.rule] = byRule[c.rule] || Object.assign([], { longest: 0 })).push(c);
const ruleMenu = document.getElementById("collision-rule"), collisionAt = document.getElementById("collision-at");
const collisionList = document.getElementById("collision-list");
function option(value, text) { const o = document.createElement("option"); o.value = value; o.textContent = text; ruleMenu.appendChild(o); }
option("", (collisions.some((c) => MOMENT.test(c.rule)) ? "every rule and road moment (" : "every rule (") + collisions.length + ")");
// The arbiter's rules first, then the road's moments (off route, route switched, handoff taken…).
for (const rule of Object.keys(byRule).sort((a, b) => MOMENT.test(a) - MOMENT.test(b) || (a < b ? -1 : a > b ? 1 : 0))) {
  option(rule, (MOMENT.test(rule) ? "road: " : "") + rule + " (" + byRule[rule].length + ")");
}
const ZOOM_SPAN = 10000, LISTED = 40;
let focus = -1, focusT = null, listed = "";
const chosen = () => (ruleMenu.value ? byRule[ruleMenu.value] : collisions);
function zoomTo(list, i) {
  if (!list.length) { collisionAt.textContent = "none"; return; }
  focus = (i + list.length) % list.length;
  const c = list[focus];
  focusT = c.start;
  setView(c.start - ZOOM_SPAN / 2, c.start + ZOOM_SPAN / 2);
  collisionAt.textContent = (focus + 1) + " of " + list.length + ": " + c.rule + " in " + L.lanes[c.lane] + " at " + stamp(c.start);
  show([c], L.lanes[c.lane], c.start);
  // Heard from a second before it, so what it cut or held is heard too.
  if (audio) { audio.currentTime = Math.max(0, (c.start - 1000 - +audio.dataset.start) / 1000); playheadT = c.start - 1000; }
}
document.getElementById("collision-prev").onclick = () => zoomTo(chosen(), focus - 1);
document.getElementById("collision-next").onclick = () => zoomTo(chosen(), focus + 1);
ruleMenu.onchange = () => zoomTo(chosen(), 0);
function listCollisions(a, b) {
  const list = within(chosen(), a, b);
  const key = ruleMenu.value + " " + (list.length ? list[0].start + " " + list[list.length - 1].start : "") + " " + list.length;
  if (key === listed) return;
  listed = key;
  collisionList.replaceChildren();
  const head = document.createElement("span");
  head.className = "count";
  head.textContent = list.length + " in view" + (list.length > LISTED ? ": zoom in to list them, or step with ◀ ▶" : list.length ? ":" : "");
  collisionList.appendChild(head);
  if (list.length > LISTED) return;
  // Collisions of one rule at one instant (an utterance abandoning every queued reply) share a button: "×10".
  for (let i = 0; i < list.length; ) {
    const c = list[i];
    let j = i + 1;
    while (j < list.length && list[j].start === c.start && list[j].rule === c.rule) j++;
    const link = document.createElement("button");
    link.className = "collision";
    link.textContent = stamp(c.start) + " " + c.rule + (j - i > 1 ? " ×" + (j - i) : "");
    link.onclick = () => zoomTo(chosen(), chosen().indexOf(c));
    collisionList.appendChild(link);
    i = j;
  }
}

const legend = document.getElementById("legend");
function legendLine(items, heading, tick) {
  const line = document.createElement("div");
  if (heading) { const b = document.createElement("b"); b.textContent = heading; line.appendChild(b); }
  for (const [key, text] of items) {
    const span = document.createElement("span"), swatch = document.createElement("i");
    swatch.style.background = COLOR[key] || key;
    if (tick) swatch.className = "tick";
    span.appendChild(swatch); span.appendChild(document.createTextNode(text)); line.appendChild(span);
  }
  legend.appendChild(line);
}
legendLine(LEGEND, "", false);
if (L.lanes.includes("road")) legendLine(ROAD_LEGEND, "road: ", true);
if (L.lanes.includes("view")) legendLine(VIEW_LEGEND, "view: ", false);
document.body.dataset.events = String(events.length);
window.addEventListener("resize", resize);
resize();
// While the sound plays, the playhead moves and the view follows it when it leaves.
if (audio) {
  const follow = () => {
    playheadT = +audio.dataset.start + audio.currentTime * 1000;
    const span = view[1] - view[0];
    if (!audio.paused && (playheadT < view[0] || playheadT > view[1])) setView(playheadT - span * 0.1, playheadT + span * 0.9);
    else request();
    if (!audio.paused) requestAnimationFrame(follow);
  };
  audio.addEventListener("play", follow);
  audio.addEventListener("seeked", follow);
}
// PAGE#collision=K opens zoomed on the K-th collision (from 1).
const askedCollision = /^#collision=(\d+)$/.exec(location.hash);
if (askedCollision) zoomTo(collisions, +askedCollision[1] - 1);

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
