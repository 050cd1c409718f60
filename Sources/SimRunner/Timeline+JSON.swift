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
        out += "  \"scenario\": \(JSONText.quoted(scenario))\n}\n"
        return out
    }

    /// One event as a one-line JSON object with sorted keys.
    public func jsonObject(_ event: TimelineEvent) -> String {
        var pairs = fields(of: event).map { ($0.name, $0.value.json) }
        pairs.append(("event", JSONText.quoted(event.kind.rawValue)))
        pairs.append(("t", String(event.t.ms)))
        pairs.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return "{" + pairs.map { "\(JSONText.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
}

extension FieldValue {
    /// The value as JSON text.
    public var json: String {
        switch self {
        case .string(let s): return JSONText.quoted(s)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        }
    }
}

/// JSON string quoting, shared by every writer.
public enum JSONText {
    /// `s` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
