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
extension Timeline {
    /// The trace JSON text, ending in a newline.
    public func trace(window: ReviewWindow = ReviewWindow()) -> String {
        let lanes = Lanes(self)
        let range = window.range(end: lanes.end)
        let visible = lanes.visible(in: range)
        var entries: [String] = []
        func us(_ t: SimTime) -> Int64 { t.ms * 1000 }
        func tid(_ lane: Lanes.Lane) -> Int { lane.rawValue + 1 }
        func args(_ indices: [Int]) -> String {
            "{\"events\": [" + indices.map { JSONWriter.quoted(line(for: events[$0])) }.joined(separator: ", ") + "]}"
        }

        entries.append(#"{"args": {"name": \#(JSONWriter.quoted("drivesim: " + scenario))}, "name": "process_name", "ph": "M", "pid": 1}"#)
        for lane in lanes.shown {
            entries.append(#"{"args": {"name": "\#(lane.title)"}, "name": "thread_name", "ph": "M", "pid": 1, "tid": \#(tid(lane))}"#)
            entries.append(#"{"args": {"sort_index": \#(lane.rawValue)}, "name": "thread_sort_index", "ph": "M", "pid": 1, "tid": \#(tid(lane))}"#)
        }
        var asyncID = 0
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
            }
            let cat = JSONWriter.quoted(bar.kind.rawValue)
            switch bar.kind {
            case .wait, .queued, .held:
                asyncID += 1
                for (ph, t) in [("b", bar.start), ("e", bar.end)] {
                    entries.append(
                        "{\"args\": \(args(bar.events)), \"cat\": \(cat), \"id\": \(asyncID), \"name\": \(JSONWriter.quoted(name)), "
                            + "\"ph\": \"\(ph)\", \"pid\": 1, \"tid\": \(tid(bar.lane)), \"ts\": \(us(t))}")
                }
            default:
                entries.append(
                    "{\"args\": \(args(bar.events)), \"cat\": \(cat), \"dur\": \(us(bar.end) - us(bar.start)), "
                        + "\"name\": \(JSONWriter.quoted(name)), \"ph\": \"X\", \"pid\": 1, \"tid\": \(tid(bar.lane)), \"ts\": \(us(bar.start))}")
            }
        }
        for mark in visible.marks {
            let name = mark.rule?.rawValue ?? mark.kind.rawValue
            entries.append(
                "{\"args\": \(args([mark.event])), \"cat\": \"decision\", \"name\": \(JSONWriter.quoted(name)), "
                    + "\"ph\": \"i\", \"pid\": 1, \"s\": \"t\", \"tid\": \(tid(mark.lane)), \"ts\": \(us(mark.t))}")
        }
        // Flow arrows bind to the enclosing slices: the cause's starts at the
        // instant (1 µs in), the effect's ends there (1 µs before).
        for (n, flow) in visible.flows.enumerated() {
            let name = JSONWriter.quoted(events[flow.effect].rule?.rawValue ?? "cause")
            entries.append(
                "{\"cat\": \"cause\", \"id\": \(n + 1), \"name\": \(name), \"ph\": \"s\", \"pid\": 1, "
                    + "\"tid\": \(tid(flow.from)), \"ts\": \(us(flow.t) + 1)}")
            entries.append(
                "{\"bp\": \"e\", \"cat\": \"cause\", \"id\": \(n + 1), \"name\": \(name), \"ph\": \"f\", \"pid\": 1, "
                    + "\"tid\": \(tid(flow.to)), \"ts\": \(max(0, us(flow.t) - 1))}")
        }
        return "{\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [\n    " + entries.joined(separator: ",\n    ") + "\n  ]\n}\n"
    }
}
