import SimRunner

/// A strict JSON parser (RFC 8259) over raw bytes.
///
/// No comments, no trailing commas, no `NaN`, no leading zeros, no raw control
/// characters in strings, no duplicate keys. It never traps on any input: the
/// bytes are checked to be UTF-8 first, and nesting is limited to `maxDepth`
/// so the recursion is bounded. The grammar is read in one place,
/// `JSONTape`; `parse` builds a `JSONValue` tree from its tape.
///
/// - Complexity: O(n) in the number of bytes.
package enum JSONParser {
    /// The deepest nesting of objects and arrays accepted (the top-level
    /// container is depth 1).
    package static let maxDepth = 64

    /// Parses exactly one JSON value, surrounded by optional whitespace.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONTape(bytes).withRoot { $0.tree }
    }

    /// Finds the first byte sequence that is not UTF-8 (overlongs,
    /// surrogates and values above U+10FFFF included) and reports where it is.
    ///
    /// ASCII runs are skipped eight bytes at a time; lines and columns are
    /// counted only when a file turns out not to be UTF-8.
    static func validateUTF8(_ b: [UInt8]) throws(JSONParseError) {
        if let bad = firstInvalidUTF8(b) {
            var line = 1
            var column = 1
            for k in 0..<bad where b[k] & 0xC0 != 0x80 {
                if b[k] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            throw JSONParseError(reason: .invalidUTF8, line: line, column: column, path: "")
        }
    }

    /// The offset of the first byte that does not start a valid UTF-8
    /// sequence, or nil if all of `b` is UTF-8.
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        b.withUnsafeBufferPointer { b in
            let n = b.count
            var i = 0
            func isContinuation(_ k: Int) -> Bool { k < n && b[k] & 0xC0 == 0x80 }
            while i < n {
                if i + 8 <= n,
                    UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                    continue
                }
                let c = b[i]
                var length = 0
                switch c {
                case 0x00...0x7F: length = 1
                case 0xC2...0xDF: length = isContinuation(i + 1) ? 2 : 0
                case 0xE0: length = i + 1 < n && (0xA0...0xBF).contains(b[i + 1]) && isContinuation(i + 2) ? 3 : 0
                case 0xE1...0xEC, 0xEE...0xEF: length = isContinuation(i + 1) && isContinuation(i + 2) ? 3 : 0
                case 0xED: length = i + 1 < n && (0x80...0x9F).contains(b[i + 1]) && isContinuation(i + 2) ? 3 : 0
                case 0xF0:
                    length =
                        i + 1 < n && (0x90...0xBF).contains(b[i + 1]) && isContinuation(i + 2) && isContinuation(i + 3)
                        ? 4 : 0
                case 0xF1...0xF3:
                    length = isContinuation(i + 1) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : 0
                case 0xF4:
                    length =
                        i + 1 < n && (0x80...0x8F).contains(b[i + 1]) && isContinuation(i + 2) && isContinuation(i + 3)
                        ? 4 : 0
                default: length = 0
                }
                if length == 0 { return i }
                i += length
            }
            return nil
        }
    }

    /// The character at `offset`, as a message shows it.
    static func found(_ b: [UInt8], at offset: Int) -> String {
        guard offset < b.count else { return "the end of the file" }
        // The input is valid UTF-8, so this decodes one whole scalar.
        var end = offset + 1
        while end < b.count, b[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: b[offset..<end], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first else { return "'?'" }
        // Unsafe scalars, a space and a no-break space are named by code point: quoted, they would not show.
        guard isUnsafeForDisplay(scalar) || scalar == " " || scalar == "\u{A0}" else { return "'\(text)'" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The string of a tape's string node.
    static func unescapedString(_ b: [UInt8], _ node: JSONTape.Node) -> String {
        let start = Int(node.start) + 1
        let end = Int(node.end)
        guard node.tag == .escapedString else { return String(decoding: b[start..<end], as: UTF8.self) }
        return unescape(b, start..<end)
    }

    /// The string whose escaped text (checked by `JSONTape`) is `range`,
    /// decoded straight into the new string's own storage (its UTF-8 is
    /// never longer than the escaped text), so no intermediate copy is held.
    static func unescape(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        let start = range.lowerBound
        let end = range.upperBound
        return String(unsafeUninitializedCapacity: end - start) { out in
            var k = start
            var n = 0
            func put(_ byte: UInt8) {
                out[n] = byte
                n += 1
            }
            while k < end {
                let c = bytes[k]
                if c != UInt8(ascii: "\\") {
                    put(c)
                    k += 1
                    continue
                }
                let e = bytes[k + 1]
                k += 2
                switch e {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    // Checked by the tape.
                    let (v, length) = JSONParser.unicodeEscape(bytes, at: k) ?? (0xFFFD, 4)
                    k += length
                    if v < 0x80 {
                        put(UInt8(v))
                    } else if v < 0x800 {
                        put(UInt8(0xC0 | v >> 6))
                        put(UInt8(0x80 | v & 0x3F))
                    } else if v < 0x10000 {
                        put(UInt8(0xE0 | v >> 12))
                        put(UInt8(0x80 | v >> 6 & 0x3F))
                        put(UInt8(0x80 | v & 0x3F))
                    } else {
                        put(UInt8(0xF0 | v >> 18))
                        put(UInt8(0x80 | v >> 12 & 0x3F))
                        put(UInt8(0x80 | v >> 6 & 0x3F))
                        put(UInt8(0x80 | v & 0x3F))
                    }
                default: put(e)  // a quote, a backslash or a slash stands for itself
                }
            }
            return n
        }
    }

    /// The scalar of a `\\u` escape whose four hex digits start at `k` (a
    /// surrogate pair takes a second escape), and how many bytes it spans
    /// from `k`; nil if it is not a valid escape of a Unicode scalar.
    static func unicodeEscape(_ b: [UInt8], at k: Int) -> (scalar: UInt32, length: Int)? {
        guard let high = hex4(b, at: k) else { return nil }
        if (0xDC00...0xDFFF).contains(high) { return nil }
        guard (0xD800...0xDBFF).contains(high) else { return (high, 4) }
        guard k + 5 < b.count, b[k + 4] == UInt8(ascii: "\\"), b[k + 5] == UInt8(ascii: "u"),
            let low = hex4(b, at: k + 6), (0xDC00...0xDFFF).contains(low)
        else { return nil }
        return (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), 10)
    }

    /// Four hex digits at `k`, or nil if they are not there.
    static func hex4(_ b: [UInt8], at k: Int) -> UInt32? {
        guard k >= 0, k + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for c in b[k..<(k + 4)] {
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }
}

extension JSONNode {
    /// The value and everything in it as a `JSONValue` tree, each with its
    /// line and column (found in file order, so in one pass over the bytes).
    package var tree: JSONValue {
        let (line, column) = tape.position(of: Int(node.start))
        let kind: JSONValue.Kind
        switch tag {
        case .null: kind = .null
        case .false: kind = .bool(false)
        case .true: kind = .bool(true)
        case .number: kind = .number(number ?? "0")
        case .string, .escapedString: kind = .string(tape.string(at: index))
        case .array:
            var items: [JSONValue] = []
            if let list = self.items {
                items.reserveCapacity(list.count)
                for item in list { items.append(item.tree) }
            }
            kind = .array(items)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            if let list = self.members {
                members.reserveCapacity(list.count)
                for member in list { members.append((key: member.key, value: member.value.tree)) }
            }
            kind = .object(members)
        }
        return JSONValue(kind, line: line, column: column)
    }
}
