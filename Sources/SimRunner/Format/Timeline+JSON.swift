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
        JSONLayout.shared.withTables { tables in
            for (i, event) in events.enumerated() {
                out.append(utf8: i == 0 ? "\n    " : ",\n    ")
                writeJSON(event, into: &out, tables)
            }
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
        JSONLayout.shared.withTables { writeJSON(event, into: &out, $0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one event's JSON object.
    func writeJSON(_ event: TimelineEvent, into out: inout [UInt8], _ tables: JSONLayout.Tables) {
        let kind = tables.kinds[event.kind.ordinal]
        out.append(UInt8(ascii: "{"))
        var first = true
        for key in tables.keys[kind.keys] {
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
            out.append(contentsOf: UnsafeBufferPointer(rebasing: tables.bytes[key.prefix]))
            switch (key.slot, value) {
            case (.event, _): out.append(contentsOf: UnsafeBufferPointer(rebasing: tables.bytes[kind.name]))
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

/// The JSON keys of each event kind, in byte order, worked out once, in
/// flat tables of plain values (byte ranges into one buffer), so writing an
/// event touches no reference counts.
struct JSONLayout: Sendable {
    enum Slot { case event, t, field(Field) }

    struct Key {
        var slot: Slot
        /// `"name": `, in `bytes`.
        var prefix: Range<Int>
    }

    struct Kind {
        /// In `keys`.
        var keys: Range<Int>
        /// The event's name, quoted, in `bytes`.
        var name: Range<Int>
    }

    /// Every prefix and name, one after another.
    var bytes: [UInt8] = []
    var keys: [Key] = []
    /// By `EventKind.ordinal`.
    var kinds: [Kind] = []

    /// The tables for the duration of a write.
    struct Tables {
        let bytes: UnsafeBufferPointer<UInt8>
        let keys: UnsafeBufferPointer<Key>
        let kinds: UnsafeBufferPointer<Kind>
    }

    func withTables<R>(_ body: (Tables) -> R) -> R {
        bytes.withUnsafeBufferPointer { b in
            keys.withUnsafeBufferPointer { k in
                kinds.withUnsafeBufferPointer { body(Tables(bytes: b, keys: k, kinds: $0)) }
            }
        }
    }

    static let shared: JSONLayout = {
        var layout = JSONLayout()
        func add(_ text: String) -> Range<Int> {
            let start = layout.bytes.count
            layout.bytes.append(contentsOf: text.utf8)
            return start..<layout.bytes.count
        }
        for kind in EventKind.allCases {
            var names: [(String, Slot)] = kind.fields.map { ($0.rawValue, .field($0)) }
            names.append(("event", .event))
            names.append(("t", .t))
            names.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            let first = layout.keys.count
            for (name, slot) in names { layout.keys.append(Key(slot: slot, prefix: add(JSONWriter.quoted(name) + ": "))) }
            layout.kinds.append(Kind(keys: first..<layout.keys.count, name: add(JSONWriter.quoted(kind.rawValue))))
        }
        return layout
    }()
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
