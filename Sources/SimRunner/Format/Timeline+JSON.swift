import SimRunner

/// The timeline as JSON (SPEC 5): `{"events": [...], "scenario": NAME}`, keys
/// sorted, one event per line, `t` in integer milliseconds. Byte-stable.
///
/// Each event is written straight into one byte buffer: its keys come from
/// the field table (`EventKind.fields`, plus `event` and `t`), sorted once per
/// kind, with their `"key": ` bytes made once.
extension Timeline {
    /// The JSON text, ending in a newline.
    public var json: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// The JSON text's bytes.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(events.count * 112 + scenario.utf8.count + 48)
        out.append(utf8: "{\n  \"events\": [")
        for (i, event) in events.enumerated() {
            out.append(utf8: i == 0 ? "\n    " : ",\n    ")
            writeJSON(event, into: &out)
        }
        out.append(utf8: events.isEmpty ? "],\n" : "\n  ],\n")
        out.append(utf8: "  \"scenario\": ")
        out.append(quoted: scenario)
        out.append(utf8: "\n}\n")
        return out
    }

    /// One event as a one-line JSON object with sorted keys.
    public func jsonObject(_ event: TimelineEvent) -> String {
        var out: [UInt8] = []
        writeJSON(event, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one event's JSON object.
    func writeJSON(_ event: TimelineEvent, into out: inout [UInt8]) {
        let layout = JSONLayout.kinds[event.kind.ordinal]
        out.append(UInt8(ascii: "{"))
        var first = true
        for key in layout.keys {
            let value: FieldValue?
            switch key.slot {
            case .event: value = nil
            case .t: value = nil
            case .field(let field):
                guard let v = self.value(of: field, in: event) else { continue }
                value = v
            }
            if !first { out.append(UInt8(ascii: ",")); out.append(UInt8(ascii: " ")) }
            first = false
            out.append(contentsOf: key.prefix)
            switch (key.slot, value) {
            case (.event, _): out.append(contentsOf: layout.name)
            case (.t, _): out.append(int: event.t.ms)
            case (_, .string(let s)?): out.append(quoted: s)
            case (_, .int(let i)?): out.append(int: i)
            case (_, .bool(let b)?): out.append(utf8: b ? "true" : "false")
            case (.field, nil): break
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// The JSON keys of each event kind, in byte order, worked out once.
enum JSONLayout {
    enum Slot { case event, t, field(Field) }

    struct Key {
        var slot: Slot
        /// `"name": `
        var prefix: [UInt8]
    }

    struct Kind {
        var keys: [Key]
        /// The event's name, quoted.
        var name: [UInt8]
    }

    /// By `EventKind.ordinal`.
    static let kinds: [Kind] = EventKind.allCases.map { kind in
        var keys: [(String, Slot)] = kind.fields.map { ($0.rawValue, .field($0)) }
        keys.append(("event", .event))
        keys.append(("t", .t))
        keys.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return Kind(
            keys: keys.map { Key(slot: $0.1, prefix: Array((JSONWriter.quoted($0.0) + ": ").utf8)) },
            name: Array(JSONWriter.quoted(kind.rawValue).utf8))
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
