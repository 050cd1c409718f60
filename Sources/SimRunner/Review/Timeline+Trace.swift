import ScenarioFormat
import SimClock
import SimRunner

/// The timeline as Chrome Trace Event JSON, which Perfetto (ui.perfetto.dev)
/// and `chrome://tracing` open: one thread per lane, complete events (`X`)
/// for lines, stretches, active replies, closed ears and Dad's utterance
/// (with his heard and lost parts nested inside), async events (`b`/`e`) for
/// waits that may overlap (a waiting line, a queued reply, a held stretch),
/// instant events (`i`) for every decision with its rule, and flow arrows
/// (`s`/`f`) from the line or utterance that cut a stretch or abandoned a reply.
/// Timestamps are microseconds (simulated milliseconds × 1000); keys sorted.
///
/// Perfetto's JSON importer binds a flow event to the topmost slice on its
/// thread's track when it reads it (the last one begun there; an ended slice
/// stays topmost until the next one begins), and reads events in timestamp
/// order, keeping file order within a timestamp. So entries are written in
/// `(ts, class)` order, the classes being: async ends, slices (longer first),
/// flow starts, then instants, each followed by the ends of the flows into it. A flow starts at the effect's instant on
/// the cause's thread, inside the line or utterance that caused it, and ends at
/// the same instant on the effect's thread with `"bp": "e"`, bound to the
/// decision's own instant slice: it goes forward in time (end = start) and
/// both ends bind to real slices.
///
/// Async waits reuse a few ids (the fewest that keep one id's waits apart),
/// so a long drive makes a handful of async tracks, not one per wait.
extension Timeline {
    /// The trace JSON text, ending in a newline.
    public func trace(window: ReviewWindow = ReviewWindow()) -> String {
        String(decoding: traceBytes(window: window), as: UTF8.self)
    }

    /// `trace(window:)`'s UTF-8, as `run` writes it.
    func traceBytes(window: ReviewWindow) -> [UInt8] {
        let lanes = Lanes(self, only: window.only)
        let range = window.range(end: lanes.end)
        let visible = lanes.visible(in: range)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(visible.bars.count * 200 + visible.marks.count * 160 + 1024)
        // Each entry's bytes are `buffer[start..<end]`; the entries are sorted, then joined.
        var entries: [(ts: Int64, rank: Int, dur: Int64, sub: Int, start: Int, end: Int)] = []
        func us(_ t: SimTime) -> Int64 { t.ms * 1000 }
        func tid(_ lane: Lanes.Lane) -> Int64 { Int64(lane.rawValue + 1) }
        func begin() -> Int { buffer.count }
        func finish(_ start: Int, ts: Int64, rank: Int, dur: Int64 = 0, sub: Int = 0) { entries.append((ts, rank, dur, sub, start, buffer.count)) }
        var scratch: [UInt8] = []
        func args(_ indices: [Int]) {
            buffer.append(utf8: "{\"args\": {\"events\": [")
            for (n, i) in indices.enumerated() {
                if n > 0 { buffer.append(utf8: ", ") }
                scratch.removeAll(keepingCapacity: true)
                writeLine(events[i], into: &scratch)
                scratch.withUnsafeBufferPointer { buffer.append(quotedUTF8: $0) }
            }
            buffer.append(utf8: "]}, ")
        }
        func tail(ph: String, tid t: Int64, ts: Int64) {
            buffer.append(utf8: "\"ph\": \"")
            buffer.append(utf8: ph)
            buffer.append(utf8: "\", \"pid\": 1, \"tid\": ")
            buffer.append(int: t)
            buffer.append(utf8: ", \"ts\": ")
            buffer.append(int: ts)
            buffer.append(UInt8(ascii: "}"))
        }

        var header: [UInt8] = []
        header.append(utf8: "{\"args\": {\"name\": ")
        header.append(quoted: "drivesim: " + scenario)
        header.append(utf8: "}, \"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1}")
        for lane in lanes.shown {
            header.append(utf8: ",\n    {\"args\": {\"name\": \"\(lane.title)\"}, \"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": \(tid(lane))}")
            header.append(utf8: ",\n    {\"args\": {\"sort_index\": \(lane.rawValue)}, \"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": \(tid(lane))}")
        }

        // The async ids: per kind, the lowest id whose last wait has ended.
        var slotEnds: [Lanes.BarKind: [SimTime]] = [:]
        for bar in visible.bars {
            let name: String
            switch bar.kind {
            case .line: name = bar.label
            case .stretch: name = bar.label + (bar.cut ? " (cut)" : "")
            case .reply: name = "reply " + bar.label
            case .earsClosed: name = "ears closed"
            case .heard: name = bar.label + " heard"
            case .lost: name = bar.label + " lost"
            case .wait: name = bar.label + " waits"
            case .queued: name = bar.label + " queued"
            case .held: name = bar.label + " held"
            case .offRoute: name = "off route"
            }
            switch bar.kind {
            case .wait, .queued, .held:
                // Taken out and put back, so the list is never copied.
                var ends = slotEnds.removeValue(forKey: bar.kind) ?? []
                let slot = ends.firstIndex { $0 <= bar.start } ?? ends.count
                if slot == ends.count { ends.append(bar.end) } else { ends[slot] = bar.end }
                slotEnds[bar.kind] = ends
                // The wait's begin and its end (written in place: no list of the two per bar).
                func wait(_ ph: String, _ t: SimTime, rank: Int) {
                    let start = begin()
                    args(bar.events)
                    buffer.append(utf8: "\"cat\": \"")
                    buffer.append(utf8: bar.kind.rawValue)
                    buffer.append(utf8: "\", \"id\": ")
                    buffer.append(int: Int64(slot + 1))
                    buffer.append(utf8: ", \"name\": ")
                    buffer.append(quoted: name)
                    buffer.append(utf8: ", ")
                    tail(ph: ph, tid: tid(bar.lane), ts: us(t))
                    finish(start, ts: us(t), rank: rank)
                }
                wait("b", bar.start, rank: 1)
                wait("e", bar.end, rank: 0)
            default:
                let start = begin()
                args(bar.events)
                buffer.append(utf8: "\"cat\": \"")
                buffer.append(utf8: bar.kind.rawValue)
                buffer.append(utf8: "\", \"dur\": ")
                buffer.append(int: us(bar.end) - us(bar.start))
                buffer.append(utf8: ", \"name\": ")
                buffer.append(quoted: name)
                buffer.append(utf8: ", ")
                tail(ph: "X", tid: tid(bar.lane), ts: us(bar.start))
                finish(start, ts: us(bar.start), rank: 1, dur: us(bar.end) - us(bar.start))
            }
        }
        for mark in visible.marks {
            let start = begin()
            args([mark.event])
            buffer.append(utf8: "\"cat\": \"decision\", \"name\": ")
            buffer.append(quoted: mark.rule?.rawValue ?? mark.kind.rawValue)
            buffer.append(utf8: ", \"ph\": \"i\", \"pid\": 1, \"s\": \"t\", \"tid\": ")
            buffer.append(int: tid(mark.lane))
            buffer.append(utf8: ", \"ts\": ")
            buffer.append(int: us(mark.t))
            buffer.append(UInt8(ascii: "}"))
            finish(start, ts: us(mark.t), rank: 3, sub: mark.event * 2)
        }
        for (n, flow) in visible.flows.enumerated() {
            let name = events[flow.effect].rule?.rawValue ?? "cause"
            func end(_ ph: String, _ lane: Lanes.Lane, rank: Int) {
                let start = begin()
                if ph == "f" { buffer.append(utf8: "{\"bp\": \"e\", ") } else { buffer.append(UInt8(ascii: "{")) }
                buffer.append(utf8: "\"cat\": \"cause\", \"id\": ")
                buffer.append(int: Int64(n + 1))
                buffer.append(utf8: ", \"name\": ")
                buffer.append(quoted: name)
                buffer.append(utf8: ", ")
                tail(ph: ph, tid: tid(lane), ts: us(flow.t))
                // A flow's end comes right after its effect's instant, before any other decision of the instant.
                finish(start, ts: us(flow.t), rank: rank == 4 ? 3 : rank, sub: rank == 4 ? flow.effect * 2 + 1 : 0)
            }
            end("s", flow.from, rank: 2)
            end("f", flow.to, rank: 4)
        }
        // Longer slices first within a timestamp, so a parent begins before what it holds;
        // then the order they were written in (`start` grows with it). The entries
        // themselves are sorted (a sort of indices would read them at random).
        entries.sort { x, y in
            if x.ts != y.ts { return x.ts < y.ts }
            if x.rank != y.rank { return x.rank < y.rank }
            if x.dur != y.dur { return x.dur > y.dur }
            if x.sub != y.sub { return x.sub < y.sub }
            return x.start < y.start
        }
        // The entries in order, copied once.
        func bytes(_ s: StaticString) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount) }
        return buffer.withUnsafeBufferPointer { all in
            header.withUnsafeBufferPointer { header in
                var pieces = [bytes("{\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [\n    "), header]
                pieces.reserveCapacity(entries.count * 2 + 3)
                let separator = bytes(",\n    ")
                for entry in entries {
                    pieces.append(separator)
                    pieces.append(UnsafeBufferPointer(rebasing: all[entry.start..<entry.end]))
                }
                pieces.append(bytes("\n  ]\n}\n"))
                return [UInt8](joining: pieces)
            }
        }
    }
}
