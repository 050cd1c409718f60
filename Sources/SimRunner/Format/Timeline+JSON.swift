import SimRunner

/// The timeline as JSON (SPEC 5): `{"events": [...], "scenario": NAME}`, keys
/// sorted, one event per line, `t` in integer milliseconds. Byte-stable.
extension Timeline {
    /// The JSON text, ending in a newline.
    public var json: String {
        var out = "{\n  \"events\": ["
        for (i, event) in events.enumerated() {
            out += i == 0 ? "\n    " : ",\n    "
            out += jsonObject(event)
        }
        out += events.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"scenario\": \(JSONWriter.quoted(scenario))\n}\n"
        return out
    }

    /// One event as a one-line JSON object with sorted keys.
    public func jsonObject(_ event: TimelineEvent) -> String {
        var pairs = fields(of: event).map { ($0.name, $0.value.json) }
        pairs.append(("event", JSONWriter.quoted(event.kind.rawValue)))
        pairs.append(("t", String(event.t.ms)))
        pairs.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return "{" + pairs.map { "\(JSONWriter.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
}

extension FieldValue {
    /// The value as JSON text.
    public var json: String {
        switch self {
        case .string(let s): return JSONWriter.quoted(s)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        }
    }
}
