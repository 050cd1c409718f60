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
        String(chunks: { writeTrace(window: window, to: $0) })
    }

    /// One entry of the trace, before it is written: where it sorts, and what it is.
    private struct TraceEntry {
        var ts: Int64, rank: Int, dur: Int64 = 0, sub: Int = 0
        /// The order it was made in: the last tie-break.
        var made: Int
        var piece: Piece

        enum Piece {
            /// Bar `bar`'s complete event (`X`).
            case slice(bar: Int)
            /// The begin (`b`) or end (`e`) of wait bar `bar`, under async id `slot + 1`.
            case wait(bar: Int, slot: Int, begins: Bool)
            /// Mark `mark`'s instant (`i`).
            case instant(mark: Int)
            /// Flow `flow`'s start (`s`) or end (`f`).
            case flow(Int, starts: Bool)
        }

        /// Longer slices first within a timestamp, so a parent begins before
        /// what it holds; then the order they were made in.
        static func < (x: TraceEntry, y: TraceEntry) -> Bool {
            if x.ts != y.ts { return x.ts < y.ts }
            if x.rank != y.rank { return x.rank < y.rank }
            if x.dur != y.dur { return x.dur > y.dur }
            if x.sub != y.sub { return x.sub < y.sub }
            return x.made < y.made
        }
    }

    /// `trace(window:)`'s UTF-8, as `run` writes it: the entries are sorted
    /// first, then written in order into chunks handed to `emit` (`ChunkedOutput`).
    func writeTrace(window: ReviewWindow, to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        let lanes = Lanes(self, only: window.only)
        let range = window.range(end: lanes.end)
        let visible = lanes.visible(in: range)
        func us(_ t: SimTime) -> Int64 { t.ms * 1000 }
        func tid(_ lane: Lanes.Lane) -> Int64 { Int64(lane.rawValue + 1) }

        var entries: [TraceEntry] = []
        entries.reserveCapacity(visible.bars.count + visible.marks.count + visible.flows.count * 2)
        func add(_ piece: TraceEntry.Piece, ts: Int64, rank: Int, dur: Int64 = 0, sub: Int = 0) {
            entries.append(TraceEntry(ts: ts, rank: rank, dur: dur, sub: sub, made: entries.count, piece: piece))
        }
        // The async ids: per kind, the lowest id whose last wait has ended.
        var slotEnds: [Lanes.BarKind: [SimTime]] = [:]
        for (n, bar) in visible.bars.enumerated() {
            switch bar.kind {
            case .wait, .queued, .held:
                // Taken out and put back, so the list is never copied.
                var ends = slotEnds.removeValue(forKey: bar.kind) ?? []
                let slot = ends.firstIndex { $0 <= bar.start } ?? ends.count
                if slot == ends.count { ends.append(bar.end) } else { ends[slot] = bar.end }
                slotEnds[bar.kind] = ends
                add(.wait(bar: n, slot: slot, begins: true), ts: us(bar.start), rank: 1)
                add(.wait(bar: n, slot: slot, begins: false), ts: us(bar.end), rank: 0)
            default:
                add(.slice(bar: n), ts: us(bar.start), rank: 1, dur: us(bar.end) - us(bar.start))
            }
        }
        for (n, mark) in visible.marks.enumerated() {
            add(.instant(mark: n), ts: us(mark.t), rank: 3, sub: mark.event * 2)
        }
        for (n, flow) in visible.flows.enumerated() {
            add(.flow(n, starts: true), ts: us(flow.t), rank: 2)
            // A flow's end comes right after its effect's instant, before any other decision of the instant.
            add(.flow(n, starts: false), ts: us(flow.t), rank: 3, sub: flow.effect * 2 + 1)
        }
        entries.sort(by: <)

        ChunkedOutput.writing(to: emit) { out in
            var scratch: [UInt8] = []
            func args(_ indices: [Int]) {
                out.bytes.append(utf8: "{\"args\": {\"events\": [")
                for (n, i) in indices.enumerated() {
                    if n > 0 { out.bytes.append(utf8: ", ") }
                    scratch.removeAll(keepingCapacity: true)
                    writeLine(events[i], into: &scratch)
                    scratch.withUnsafeBufferPointer { out.bytes.append(quotedUTF8: $0) }
                }
                out.bytes.append(utf8: "]}, ")
            }
            func tail(ph: String, tid t: Int64, ts: Int64) {
                out.bytes.append(utf8: "\"ph\": \"")
                out.bytes.append(utf8: ph)
                out.bytes.append(utf8: "\", \"pid\": 1, \"tid\": ")
                out.bytes.append(int: t)
                out.bytes.append(utf8: ", \"ts\": ")
                out.bytes.append(int: ts)
                out.bytes.append(UInt8(ascii: "}"))
            }
            func name(_ bar: Lanes.Bar) -> String {
                switch bar.kind {
                case .line: return bar.label
                case .stretch: return bar.label + (bar.cut ? " (cut)" : "")
                case .reply: return "reply " + bar.label
                case .earsClosed: return "ears closed"
                case .heard: return bar.label + " heard"
                case .lost: return bar.label + " lost"
                case .wait: return bar.label + " waits"
                case .queued: return bar.label + " queued"
                case .held: return bar.label + " held"
                case .offRoute: return "off route"
                case .pippaYes, .pippaNo, .pippaNotKnown: return "Pippa: " + bar.label
                }
            }

            /// A bar's entry: its events, category, `key` (`dur` of a slice, `id` of a wait) and name.
            func barEntry(_ bar: Lanes.Bar, _ key: String, _ value: Int64, ph: String, ts: Int64) {
                args(bar.events)
                out.bytes.append(utf8: "\"cat\": \"")
                out.bytes.append(utf8: bar.kind.rawValue)
                out.bytes.append(utf8: "\", \"")
                out.bytes.append(utf8: key)
                out.bytes.append(utf8: "\": ")
                out.bytes.append(int: value)
                out.bytes.append(utf8: ", \"name\": ")
                out.bytes.append(quoted: name(bar))
                out.bytes.append(utf8: ", ")
                tail(ph: ph, tid: tid(bar.lane), ts: ts)
            }

            out.bytes.append(utf8: "{\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [\n    ")
            out.bytes.append(utf8: "{\"args\": {\"name\": ")
            out.bytes.append(quoted: "drivesim: " + scenario)
            out.bytes.append(utf8: "}, \"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1}")
            for lane in lanes.shown {
                out.bytes.append(
                    utf8:
                        ",\n    {\"args\": {\"name\": \"\(lane.title)\"}, \"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": \(tid(lane))}"
                )
                out.bytes.append(
                    utf8:
                        ",\n    {\"args\": {\"sort_index\": \(lane.rawValue)}, \"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": \(tid(lane))}"
                )
            }
            for entry in entries {
                out.bytes.append(utf8: ",\n    ")
                switch entry.piece {
                case .slice(let n):
                    let bar = visible.bars[n]
                    barEntry(bar, "dur", us(bar.end) - us(bar.start), ph: "X", ts: entry.ts)
                case .wait(let n, let slot, let begins):
                    barEntry(visible.bars[n], "id", Int64(slot + 1), ph: begins ? "b" : "e", ts: entry.ts)
                case .instant(let n):
                    let mark = visible.marks[n]
                    args([mark.event])
                    out.bytes.append(utf8: "\"cat\": \"decision\", \"name\": ")
                    out.bytes.append(quoted: mark.ruleLabel ?? mark.kind.rawValue)
                    out.bytes.append(utf8: ", \"ph\": \"i\", \"pid\": 1, \"s\": \"t\", \"tid\": ")
                    out.bytes.append(int: tid(mark.lane))
                    out.bytes.append(utf8: ", \"ts\": ")
                    out.bytes.append(int: entry.ts)
                    out.bytes.append(UInt8(ascii: "}"))
                case .flow(let n, let starts):
                    let flow = visible.flows[n]
                    out.bytes.append(utf8: starts ? "{" : "{\"bp\": \"e\", ")
                    out.bytes.append(utf8: "\"cat\": \"cause\", \"id\": ")
                    out.bytes.append(int: Int64(n + 1))
                    out.bytes.append(utf8: ", \"name\": ")
                    out.bytes.append(quoted: events[flow.effect].rule?.rawValue ?? "cause")
                    out.bytes.append(utf8: ", ")
                    tail(ph: starts ? "s" : "f", tid: tid(starts ? flow.from : flow.to), ts: entry.ts)
                }
                out.flushIfFull()
            }
            out.bytes.append(utf8: "\n  ]\n}\n")
        }
    }
}
