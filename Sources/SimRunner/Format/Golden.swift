import SimClock
import SimRunner

/// Golden timelines: a scenario may name a file holding the whole timeline
/// it must produce (its `--format json` text). Timelines are compared on the
/// SPEC 5 fields only (`t`, `event` and `EventKind.specFields`),
/// so an extra drivesim adds later (a line's text) does not break a golden file.
public enum Golden {
    /// Why a golden file cannot be used.
    public enum Failure: Error, Sendable, Equatable {
        /// Not JSON at all.
        case notJSON(line: Int, column: Int)
        /// JSON, but not a timeline; the path says where.
        case notATimeline(path: String, reason: String)
    }

    /// Each event as one comparable line: its time, its name and its SPEC fields.
    ///
    ///     00:02.000  guidance.waiting  line=g1 rule=short-wait stretch=s1
    public static func lines(of timeline: Timeline) -> [String] {
        timeline.events.map { event in
            let fields = event.kind.specFields.compactMap { field in
                timeline.value(of: field, in: event).map { (field.rawValue, $0.json) }
            }
            return line(t: event.t, event: event.kind.rawValue, fields: fields)
        }
    }

    /// The comparable lines of a golden file's text.
    ///
    /// - Throws: `Golden.Failure` when the text is not a timeline.
    public static func lines(ofGolden bytes: [UInt8]) throws(Failure) -> [String] {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw .notJSON(line: error.line, column: error.column) }
        guard case .object(let members) = root.kind,
              let eventsValue = members.first(where: { $0.key == "events" })?.value,
              case .array(let items) = eventsValue.kind
        else { throw .notATimeline(path: "", reason: "expected an object with an \"events\" list") }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let path = "events[\(i)]"
            guard case .object(let fields) = item.kind else { throw .notATimeline(path: path, reason: "expected an object") }
            func member(_ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
            guard let tValue = member("t"), case .number(let literal) = tValue.kind, let ms = Int64(literal), ms >= 0 else {
                throw .notATimeline(path: path + ".t", reason: "expected whole milliseconds")
            }
            guard let nameValue = member("event"), case .string(let name) = nameValue.kind, let kind = EventKind(rawValue: name)
            else { throw .notATimeline(path: path + ".event", reason: "expected an event name of SPEC 5") }
            var compared: [(String, String)] = []
            for field in kind.specFields {
                let key = field.rawValue
                guard let value = member(key) else { continue }
                switch value.kind {
                case .string(let s): compared.append((key, JSONWriter.quoted(s)))
                case .number(let n): compared.append((key, n))
                case .bool(let b): compared.append((key, b ? "true" : "false"))
                default: throw .notATimeline(path: path + "." + key, reason: "expected a string, number or boolean")
                }
            }
            out.append(line(t: SimTime(ms: ms), event: name, fields: compared))
        }
        return out
    }

    static func line(t: SimTime, event: String, fields: [(String, String)]) -> String {
        var out = "\(t)  \(event)"
        for (name, value) in fields { out += " \(name)=\(value)" }
        return out
    }

    /// A readable diff of two timelines' lines, or nil when they are equal:
    /// the first difference with two lines of context, `-` for the golden
    /// file, `+` for this run; at most `limit` changed lines of each.
    public static func diff(golden: [String], actual: [String], limit: Int = 12) -> String? {
        guard golden != actual else { return nil }
        var prefix = 0
        while prefix < golden.count, prefix < actual.count, golden[prefix] == actual[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < golden.count - prefix, suffix < actual.count - prefix,
              golden[golden.count - 1 - suffix] == actual[actual.count - 1 - suffix] { suffix += 1 }
        let removed = golden[prefix..<(golden.count - suffix)]
        let added = actual[prefix..<(actual.count - suffix)]
        var out = "first difference at event \(prefix) (- golden, + this run):\n"
        for line in golden[max(0, prefix - 2)..<prefix] { out += "    \(line)\n" }
        for line in removed.prefix(limit) { out += "  - \(line)\n" }
        if removed.count > limit { out += "  - … \(removed.count - limit) more\n" }
        for line in added.prefix(limit) { out += "  + \(line)\n" }
        if added.count > limit { out += "  + … \(added.count - limit) more\n" }
        for line in golden[(golden.count - suffix)..<min(golden.count, golden.count - suffix + 2)] { out += "    \(line)\n" }
        out += "golden has \(golden.count) events, this run \(actual.count)\n"
        return out
    }
}
