import SimRunner

/// Writes a `JSONValue` as canonical JSON: keys sorted by their UTF-8 bytes
/// (the same order as by Unicode scalars), strings escaped minimally, numbers
/// as their literal text. The same value always gives the same bytes.
package enum JSONWriter {
    /// The value's bytes. Pretty output indents by two spaces, puts one
    /// member or item per line and ends with a newline.
    ///
    /// - Complexity: O(n log n) in the size of the value (sorting keys).
    package static func bytes(_ value: JSONValue, pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out, pretty: pretty, indent: 0)
        if pretty { out.append(UInt8(ascii: "\n")) }
        return out
    }

    static func newline(_ out: inout [UInt8], indent: Int) {
        // One copy from a literal for the usual depths.
        let lineAndSpaces: StaticString = "\n                                "
        if indent * 2 < lineAndSpaces.utf8CodeUnitCount {
            out.append(contentsOf: UnsafeBufferPointer(start: lineAndSpaces.utf8Start, count: 1 + indent * 2))
        } else {
            out.append(UInt8(ascii: "\n"))
            out.append(spaces: indent * 2)
        }
    }

    static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value.kind {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent: indent + 1) }
                write(item, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !items.isEmpty { newline(&out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // Sort by UTF-8 bytes, not `String.<` (which follows Unicode
            // canonical ordering); stable, so equal keys keep their order.
            let sorted = members.enumerated().map { (bytes: Array($0.element.key.utf8), index: $0.offset) }
                .sorted {
                    $0.bytes.lexicographicallyPrecedes($1.bytes) || ($0.bytes == $1.bytes && $0.index < $1.index)
                }
            for (n, entry) in sorted.enumerated() {
                let member = members[entry.index]
                if n > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent: indent + 1) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { newline(&out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `s` as a JSON string literal.
    package static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        writeString(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(quoted: s)
    }

    /// The escape of one byte that may not appear in a JSON string as is
    /// (a quote, a backslash or a control character).
    static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        case 0x08: out.append(contentsOf: "\\b".utf8)
        case 0x0C: out.append(contentsOf: "\\f".utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: "\\u00".utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }
}
