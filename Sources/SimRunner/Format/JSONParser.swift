import SimRunner

/// A strict JSON parser (RFC 8259) over raw bytes.
///
/// No comments, no trailing commas, no `NaN`, no leading zeros, no raw control
/// characters in strings, no duplicate keys. It never traps on any input: the
/// bytes are checked to be UTF-8 first, and nesting is limited to `maxDepth`
/// so the recursion is bounded.
///
/// - Complexity: O(n) in the number of bytes.
package enum JSONParser {
    /// The deepest nesting of objects and arrays accepted (the top-level
    /// container is depth 1).
    package static let maxDepth = 64

    /// Parses exactly one JSON value, surrounded by optional whitespace.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try validateUTF8(bytes)
        var state = State(bytes: bytes)
        state.skipWhitespace()
        if state.atEnd { throw state.error(.empty) }
        let value = try state.value(depth: 0)
        state.skipWhitespace()
        if !state.atEnd { throw state.error(.syntax(.trailingContent)) }
        return value
    }

    /// Finds the first byte sequence that is not UTF-8 (overlongs,
    /// surrogates and values above U+10FFFF included) and reports where it is.
    ///
    /// ASCII runs are skipped eight bytes at a time; lines and columns are
    /// counted only when a file turns out not to be UTF-8.
    static func validateUTF8(_ b: [UInt8]) throws(JSONParseError) {
        if let bad = firstInvalidUTF8(b) {
            var line = 1, column = 1
            for k in 0..<bad where b[k] & 0xC0 != 0x80 {
                if b[k] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
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
                if i + 8 <= n, UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
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
                    length = i + 1 < n && (0x90...0xBF).contains(b[i + 1]) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : 0
                case 0xF1...0xF3:
                    length = isContinuation(i + 1) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : 0
                case 0xF4:
                    length = i + 1 < n && (0x80...0x8F).contains(b[i + 1]) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : 0
                default: length = 0
                }
                if length == 0 { return i }
                i += length
            }
            return nil
        }
    }

    /// One step of a path inside the document.
    enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// Renders a path the way scenario errors show it: `replies[0].stretches`.
    static func render(_ path: [PathComponent]) -> String {
        var out = ""
        for component in path {
            switch component {
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }

    /// The parser's cursor. Positions are computed incrementally: newlines
    /// only occur in whitespace (raw ones are refused in strings), and columns
    /// are counted from a cached point on the current line, so the whole
    /// parse stays linear even for a one-line file.
    struct State {
        let b: [UInt8]
        var i = 0
        var line = 1
        var lineStart = 0
        var cachedOffset = 0
        var cachedColumn = 1
        var path: [PathComponent] = []
        /// The items and members of the containers being parsed, innermost
        /// last: each container takes its own as one array of exactly its
        /// size when it closes, so no array grows one element at a time.
        var itemStack: [JSONValue] = []
        var memberStack: [(key: String, value: JSONValue)] = []

        init(bytes: [UInt8]) { self.b = bytes }

        var atEnd: Bool { i >= b.count }

        mutating func skipWhitespace() {
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
                case UInt8(ascii: "\n"): i += 1; line += 1; lineStart = i
                default: return
                }
            }
        }

        /// The 1-based column of a byte offset on the current line, in scalars.
        mutating func column(of offset: Int) -> Int {
            if cachedOffset < lineStart || offset < cachedOffset {
                cachedOffset = lineStart; cachedColumn = 1
            }
            var k = cachedOffset, col = cachedColumn
            let end = min(offset, b.count)
            while k < end {
                if b[k] & 0xC0 != 0x80 { col += 1 }
                k += 1
            }
            cachedOffset = end; cachedColumn = col
            return col
        }

        mutating func error(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
            JSONParseError(reason: reason, line: line, column: column(of: offset ?? i), path: JSONParser.render(path))
        }

        /// The character at the cursor, as a message shows it.
        func found(at offset: Int) -> String {
            guard offset < b.count else { return "the end of the file" }
            // The input is valid UTF-8, so this decodes one whole scalar.
            var end = offset + 1
            while end < b.count, b[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: b[offset..<end], as: UTF8.self)
            guard let scalar = text.unicodeScalars.first else { return "'?'" }
            switch scalar.value {
            case 0x00...0x20, 0x7F...0xA0, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: return "'\(text)'"
            }
        }

        mutating func unexpected(_ wanted: JSONSyntax.Wanted) -> JSONParseError {
            if atEnd { return error(.syntax(.unexpectedEnd(expected: wanted))) }
            return error(.syntax(.unexpectedCharacter(found(at: i), expected: wanted)))
        }

        /// Parses the value at the cursor (whitespace already skipped).
        /// `depth` counts the containers around it.
        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            guard i < b.count else { throw unexpected(.value) }
            let line = self.line, column = self.column(of: i)
            let kind: JSONValue.Kind
            switch b[i] {
            case UInt8(ascii: "{"):
                guard depth < JSONParser.maxDepth else { throw error(.tooDeep) }
                kind = try object(depth: depth + 1)
            case UInt8(ascii: "["):
                guard depth < JSONParser.maxDepth else { throw error(.tooDeep) }
                kind = try array(depth: depth + 1)
            case UInt8(ascii: "\""):
                kind = .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                kind = .number(try number())
            case UInt8(ascii: "t"): try literal("true"); kind = .bool(true)
            case UInt8(ascii: "f"): try literal("false"); kind = .bool(false)
            case UInt8(ascii: "n"): try literal("null"); kind = .null
            default: throw unexpected(.value)
            }
            return JSONValue(kind, line: line, column: column)
        }

        mutating func literal(_ word: String) throws(JSONParseError) {
            for expected in word.utf8 {
                guard i < b.count else { throw unexpected(.value) }
                guard b[i] == expected else { throw error(.syntax(.unexpectedCharacter(found(at: i), expected: .value))) }
                i += 1
            }
        }

        mutating func array(depth: Int) throws(JSONParseError) -> JSONValue.Kind {
            i += 1  // [
            skipWhitespace()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
            let base = itemStack.count
            path.append(.index(0))
            while true {
                path[path.count - 1] = .index(itemStack.count - base)
                skipWhitespace()
                let item = try value(depth: depth)
                itemStack.append(item)
                skipWhitespace()
                guard i < b.count else { throw unexpected(.commaOrCloseBracket) }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; break }
                throw unexpected(.commaOrCloseBracket)
            }
            path.removeLast()
            let items = Array(itemStack[base...])
            itemStack.removeSubrange(base...)
            return .array(items)
        }

        mutating func object(depth: Int) throws(JSONParseError) -> JSONValue.Kind {
            i += 1  // {
            // Keys seen, for duplicates: a scan of the members while they
            // are few, a set once there are many.
            var seen: Set<String> = []
            skipWhitespace()
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object([]) }
            let base = memberStack.count
            while true {
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw unexpected(.key) }
                let keyOffset = i
                let key = try string()
                path.append(.key(key))
                let duplicate: Bool
                if memberStack.count - base < 16 {
                    duplicate = memberStack[base...].contains { $0.key == key }
                } else {
                    if seen.isEmpty { seen = Set(memberStack[base...].lazy.map(\.key)) }
                    duplicate = !seen.insert(key).inserted
                }
                guard !duplicate else { throw error(.duplicateKey(key), at: keyOffset) }
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw unexpected(.colon) }
                i += 1
                skipWhitespace()
                let member = try value(depth: depth)
                memberStack.append((key: key, value: member))
                path.removeLast()
                skipWhitespace()
                guard i < b.count else { throw unexpected(.commaOrCloseBrace) }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; break }
                throw unexpected(.commaOrCloseBrace)
            }
            let members = Array(memberStack[base...])
            memberStack.removeSubrange(base...)
            return .object(members)
        }

        /// Parses a string at the cursor (on its opening quote). A first pass
        /// finds the closing quote and checks every escape; a string without
        /// escapes is then one slice, and one with escapes is decoded straight
        /// into the new string's own storage (its UTF-8 is never longer than
        /// the escaped text), so no intermediate copy is ever held.
        mutating func string() throws(JSONParseError) -> String {
            i += 1  // opening quote
            let start = i
            var escapes = false
            while true {
                guard i < b.count else { throw unexpected(.closingQuote) }
                let c = b[i]
                if c == UInt8(ascii: "\"") { break }
                if c < 0x20 { throw error(.syntax(.controlCharacterInString)) }
                if c != UInt8(ascii: "\\") { i += 1; continue }
                escapes = true
                let escapeStart = i
                i += 1
                guard i < b.count else { throw unexpected(.closingQuote) }
                switch b[i] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 1
                case UInt8(ascii: "u"):
                    i += 1
                    guard let (_, length) = JSONParser.unicodeEscape(b, at: i) else {
                        throw error(.syntax(.invalidUnicodeEscape), at: escapeStart)
                    }
                    i += length
                default:
                    throw error(.syntax(.invalidEscape), at: escapeStart)
                }
            }
            let end = i
            i += 1  // closing quote
            guard escapes else { return String(decoding: b[start..<end], as: UTF8.self) }
            let bytes = b
            return String(unsafeUninitializedCapacity: end - start) { out in
                var k = start, n = 0
                func put(_ byte: UInt8) { out[n] = byte; n += 1 }
                while k < end {
                    let c = bytes[k]
                    if c != UInt8(ascii: "\\") { put(c); k += 1; continue }
                    let e = bytes[k + 1]
                    k += 2
                    switch e {
                    case UInt8(ascii: "b"): put(0x08)
                    case UInt8(ascii: "f"): put(0x0C)
                    case UInt8(ascii: "n"): put(0x0A)
                    case UInt8(ascii: "r"): put(0x0D)
                    case UInt8(ascii: "t"): put(0x09)
                    case UInt8(ascii: "u"):
                        // Checked in the first pass.
                        let (v, length) = JSONParser.unicodeEscape(bytes, at: k) ?? (0xFFFD, 4)
                        k += length
                        if v < 0x80 {
                            put(UInt8(v))
                        } else if v < 0x800 {
                            put(UInt8(0xC0 | v >> 6)); put(UInt8(0x80 | v & 0x3F))
                        } else if v < 0x10000 {
                            put(UInt8(0xE0 | v >> 12)); put(UInt8(0x80 | v >> 6 & 0x3F)); put(UInt8(0x80 | v & 0x3F))
                        } else {
                            put(UInt8(0xF0 | v >> 18)); put(UInt8(0x80 | v >> 12 & 0x3F))
                            put(UInt8(0x80 | v >> 6 & 0x3F)); put(UInt8(0x80 | v & 0x3F))
                        }
                    default: put(e)  // a quote, a backslash or a slash stands for itself
                    }
                }
                return n
            }
        }

        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= UInt8(ascii: "0") && b[k] <= UInt8(ascii: "9") }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
        mutating func number() throws(JSONParseError) -> String {
            let start = i
            if b[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw error(.syntax(.invalidNumber), at: start) }
            if b[i] == UInt8(ascii: "0") {
                i += 1
                if isDigit(i) { throw error(.syntax(.invalidNumber), at: start) }
            } else {
                while isDigit(i) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                guard isDigit(i) else { throw error(.syntax(.invalidNumber), at: start) }
                while isDigit(i) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard isDigit(i) else { throw error(.syntax(.invalidNumber), at: start) }
                while isDigit(i) { i += 1 }
            }
            return String(decoding: b[start..<i], as: UTF8.self)
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
