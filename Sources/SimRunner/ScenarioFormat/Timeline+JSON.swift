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

    /// The JSON text's bytes: `writeJSON`'s chunks, joined.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(events.count * 128 + scenario.utf8.count * 6 + 256)
        writeJSON { out.append(contentsOf: $0) }
        return out
    }

    /// The same bytes as `jsonBytes`, handed to `emit` in chunks of about
    /// `chunkSize` bytes as they are written, so the whole text is never held
    /// (`run --format json` to standard output). A chunk is valid only during the call.
    package func writeJSON(chunkSize: Int = 1 << 18, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        JSONLayout.shared.withTables { tables in
            var capacity = Swift.max(chunkSize, 256)
            var progress = JSONProgress()
            while !progress.done {
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
                defer { buffer.deallocate() }
                var raw = RawBytes(base: buffer.baseAddress!, capacity: capacity)
                while !progress.done {
                    raw.count = 0
                    writeJSON(into: &raw, &progress, tables)
                    // Nothing fitted: one event is larger than the chunk.
                    if raw.count == 0 { break }
                    emit(UnsafeBufferPointer(rebasing: buffer[..<raw.count]))
                }
                capacity *= 2
            }
        }
    }

    /// Where writing the JSON text has got to.
    struct JSONProgress {
        var started = false
        /// The next event to write.
        var next = 0
        var done = false
    }

    /// Writes as much of the JSON text as fits in `raw`, from `progress` on,
    /// ending on a whole event.
    func writeJSON(into raw: inout RawBytes, _ progress: inout JSONProgress, _ tables: JSONLayout.Tables) {
        if !progress.started {
            guard raw.room >= 16 else { return }
            raw.put(ascii: "{\n  \"events\": [")
            progress.started = true
        }
        while progress.next < events.count {
            let mark = raw.count
            guard raw.room >= 6 else { return }
            raw.put(ascii: progress.next == 0 ? "\n    " : ",\n    ")
            guard writeJSON(events[progress.next], into: &raw, tables) else {
                raw.count = mark
                return
            }
            progress.next += 1
        }
        guard raw.room >= scenario.utf8.count * 6 + 32 else { return }
        raw.put(ascii: events.isEmpty ? "],\n" : "\n  ],\n")
        raw.put(ascii: "  \"scenario\": ")
        raw.put(quoted: scenario)
        raw.put(ascii: "\n}\n")
        progress.done = true
    }

    /// One event as a one-line JSON object with sorted keys.
    package func jsonObject(_ event: TimelineEvent) -> String {
        var out: [UInt8] = []
        JSONLayout.shared.withTables { writeJSON(event, into: &out, $0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one event's JSON object.
    func writeJSON(_ event: TimelineEvent, into out: inout [UInt8], _ tables: JSONLayout.Tables) {
        var capacity = tables.kinds[event.kind.ordinal].longest + 64
        while true {
            var fits = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var raw = RawBytes(base: buffer.baseAddress!, capacity: buffer.count)
                fits = writeJSON(event, into: &raw, tables)
                initialized = fits ? raw.count : 0
            }
            if fits {
                out.append(contentsOf: bytes)
                return
            }
            capacity *= 4
        }
    }

    /// Writes one event's JSON object into `raw`; false, with `raw` partly
    /// written, if it has no room for it.
    func writeJSON(_ event: TimelineEvent, into raw: inout RawBytes, _ tables: JSONLayout.Tables) -> Bool {
        let kind = tables.kinds[event.kind.ordinal]
        guard raw.room >= kind.longest + RawBytes.blockSlack else { return false }
        raw.put(UInt8(ascii: "{"))
        var first = true
        for key in tables.keys[kind.keys] {
            let value: FieldValue?
            switch key.slot {
            case .event, .t: value = nil
            case .field(let field):
                guard let v = self.value(of: field, in: event) else { continue }
                if case .string(let s) = v, raw.room < s.utf8.count * 6 + 2 + kind.longest + RawBytes.blockSlack {
                    return false
                }
                value = v
            }
            if !first {
                raw.put(UInt8(ascii: ","))
                raw.put(UInt8(ascii: " "))
            }
            first = false
            raw.put(table: UnsafeBufferPointer(rebasing: tables.bytes[key.prefix]))
            switch (key.slot, value) {
            case (.event, _): raw.put(table: UnsafeBufferPointer(rebasing: tables.bytes[kind.name]))
            case (.t, _): raw.put(int: event.t.ms)
            case (_, .string(let s)?): raw.put(quoted: s)
            case (_, .int(let i)?): raw.put(int: i)
            case (_, .bool(let b)?): raw.put(ascii: b ? "true" : "false")
            case (.field, nil): break
            }
        }
        raw.put(UInt8(ascii: "}"))
        return true
    }
}

/// Bytes written in place into memory the caller owns, `base[0..<capacity]`.
/// Writing does not check the room: callers check `room` first.
struct RawBytes {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count = 0

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The bytes still free.
    var room: Int { capacity - count }

    @inline(__always) mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        if n <= 16 {
            for k in 0..<n { base[count + k] = bytes[k] }
        } else {
            (base + count).update(from: bytes.baseAddress!, count: n)
        }
        count += n
    }

    /// The room an event's writer keeps past its longest form, for `put(table:)`'s block.
    static let blockSlack = 16

    /// Bytes of a `JSONLayout` table (a key's prefix, an event's name): 16
    /// or fewer are copied as one 16-byte block, which the table's padding
    /// makes readable and `blockSlack` of room writable; then `count`
    /// moves past the bytes only.
    @inline(__always) mutating func put(table bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n <= 16 else { return put(bytes) }
        let from = UnsafeRawPointer(bytes.baseAddress!)
        let to = UnsafeMutableRawPointer(base + count)
        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        count += n
    }

    /// An ASCII literal (a separator, `true`).
    @inline(__always) mutating func put(ascii s: StaticString) {
        put(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The decimal digits of `v`: at most 20 bytes.
    mutating func put(int v: Int64) {
        if v < 0 { put(UInt8(ascii: "-")) }
        var magnitude = v.magnitude
        // At most 19 digits: the power reaches 10^19 at most, below 2^64.
        var digits = 1
        var power: UInt64 = 10
        while magnitude >= power {
            digits += 1
            power &*= 10
        }
        var k = count + digits
        count = k
        // Two digits a step, from the table of "00" to "99".
        let pairs = RawBytes.digitPairs.utf8Start
        while magnitude >= 10 {
            let pair = Int(magnitude % 100) * 2
            magnitude /= 100
            k -= 2
            base[k] = pairs[pair]
            base[k + 1] = pairs[pair + 1]
        }
        if k > count - digits { base[k - 1] = UInt8(ascii: "0") + UInt8(magnitude) }
    }

    /// "00", "01", ... "99", one after another.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// `s` as a JSON string literal, escaped as `JSONWriter` does: at most
    /// six bytes per byte of `s`, and the quotes.
    mutating func put(quoted s: String) {
        put(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Most strings (ids, names) need no escape: one copy.
            if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                put(bytes)
                return
            }
            for byte in bytes {
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    var escape: [UInt8] = []
                    JSONWriter.appendEscape(byte, to: &escape)
                    escape.withUnsafeBufferPointer { put($0) }
                } else {
                    put(byte)
                }
            }
        }
        put(UInt8(ascii: "\""))
    }
}

/// The JSON keys of each event kind, in byte order, worked out once, in
/// flat tables of plain values (byte ranges into one buffer), so writing an
/// event touches no reference counts.
struct JSONLayout: Sendable {
    enum Slot {
        case event, t
        case field(Field)
    }

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
        /// The most bytes an event of this kind takes besides its strings'
        /// values: braces, separators, keys, its name and 20 per value.
        var longest: Int
    }

    /// Every prefix and name, one after another, then 16 zeros (so that
    /// 16 bytes can be read from the start of each: `RawBytes.put(table:)`).
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
            var longest = 2
            for (name, slot) in names {
                let prefix = add(JSONWriter.quoted(name) + ": ")
                layout.keys.append(Key(slot: slot, prefix: prefix))
                longest += 2 + prefix.count + 20
            }
            let name = add(JSONWriter.quoted(kind.rawValue))
            layout.kinds.append(Kind(keys: first..<layout.keys.count, name: name, longest: longest + name.count))
        }
        layout.bytes += repeatElement(0, count: 16)
        return layout
    }()
}

extension FieldValue {
    /// The value as JSON text.
    package var json: String {
        switch self {
        case .string(let s): return JSONWriter.quoted(s)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        }
    }
}
