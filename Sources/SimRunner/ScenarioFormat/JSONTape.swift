import SimClock
import SimRunner

/// One strict JSON document (RFC 8259) parsed into a flat tape: every value
/// a fixed-size node in file order, pointing into the document's bytes.
///
/// No value is copied out while parsing: a string or a number is the range
/// of its bytes, decoded only when a reader asks (`JSONNode.string`,
/// `.number`), and an object's keys are compared as bytes. A container's
/// node holds how many items or members it has and where its subtree ends,
/// so a reader steps over a value in one move. `JSONParser.parse` builds a
/// `JSONValue` tree from the same tape for readers that want one.
///
/// Strict as `JSONParser` documents it: UTF-8 checked first, no duplicate
/// keys, the number grammar, at most `JSONParser.maxDepth` levels; it never
/// traps on any input.
///
/// - Complexity: O(n) in the number of bytes, one node per value.
package final class JSONTape {
    /// What a node is.
    package enum Tag: UInt8, Sendable {
        case null, `false`, `true`, number, string, escapedString, array, object
    }

    /// One value: 16 bytes.
    struct Node {
        /// The offset of its first byte (a string's opening quote).
        var start: Int32
        /// A number's or a string's end (the closing quote); a container's
        /// next node, past its subtree; for `null`, `true`, `false`, unused.
        var end: Int32
        /// A container's number of items or members.
        var count: Int32
        var tag: Tag
    }

    /// Parses exactly one JSON value, surrounded by optional whitespace.
    /// The bytes are read in place (kept, not copied): nodes point into them.
    package init(_ bytes: [UInt8]) throws(JSONParseError) {
        try JSONParser.validateUTF8(bytes)
        let parsed = bytes.withUnsafeBufferPointer { b -> Result<UnsafeMutablePointer<Node>, JSONParseError> in
            var parser = Parser(bytes: bytes, b: b)
            do throws(JSONParseError) {
                try parser.document()
                return .success(parser.nodes)
            } catch {
                parser.nodes.deallocate()
                return .failure(error)
            }
        }
        nodes = try parsed.get()
        state = UnsafeMutablePointer<View.State>.allocate(capacity: 1)
        state.initialize(to: View.State(bytes: bytes))
    }

    deinit {
        nodes.deallocate()
        #if DEBUG
            // Kept, emptied, in debug builds (a few bytes a tape): a node that
            // outlived its tape finds it gone instead of reading freed memory.
            state.pointee.alive = false
            state.pointee.bytes = []
        #else
            state.deinitialize(count: 1)
            state.deallocate()
        #endif
    }

    /// The document's bytes.
    package var bytes: [UInt8] { state.pointee.bytes }

    /// `body` over the document's top-level value. A node does not keep its
    /// tape alive (walking a tape counts no references) and points into the
    /// document's bytes as `withUnsafeBufferPointer` lends them for `body`,
    /// so no node may outlive `body`.
    package func withRoot<R, E: Error>(_ body: (JSONNode) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(self) { () throws(E) -> R in
            // A tape holds one value at least, so its bytes are never empty.
            let result = state.pointee.bytes.withUnsafeBufferPointer { b -> Result<R, E> in
                guard let text = b.baseAddress else { preconditionFailure("a JSONTape's document is never empty") }
                let view = View(text: text, byteCount: b.count, nodes: nodes, state: state)
                do throws(E) { return .success(try body(JSONNode(tape: view, index: 0))) } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }
    }

    /// The nodes, in file order; freed with the tape.
    private let nodes: UnsafeMutablePointer<Node>
    /// The document's bytes and what `View.position(of:)` remembers; freed with the tape.
    private let state: UnsafeMutablePointer<View.State>

    /// The tape's memory as raw pointers, which nodes copy freely: the
    /// document's bytes (lent by `withRoot`) and the nodes, owned and freed
    /// by the tape. Every offset and index on the tape is inside them by construction.
    struct View {
        let text: UnsafePointer<UInt8>
        let byteCount: Int
        let nodes: UnsafeMutablePointer<Node>
        let state: UnsafeMutablePointer<State>

        /// The document as an array (for escapes and trees), and the last
        /// position asked for, so that positions asked for in file order
        /// cost one pass over the bytes in all.
        struct State {
            var bytes: [UInt8]
            var cachedOffset = 0, cachedLine = 1, cachedColumn = 1
            /// False once the tape is freed (debug builds keep the state to say so).
            var alive = true
        }

        /// Node `index`.
        @inline(__always) func node(_ index: Int) -> Node {
            checkAlive()
            return nodes[index]
        }

        /// In a debug build, stops the program, saying so, when a node is
        /// used after its tape was freed (one kept past `JSONTape.withRoot`).
        @inline(__always) func checkAlive() {
            #if DEBUG
                precondition(
                    state.pointee.alive,
                    "a JSONNode was used after its JSONTape was freed: no node may outlive JSONTape.withRoot")
            #endif
        }

        /// The 1-based line and column (in Unicode scalars) of a byte offset.
        func position(of offset: Int) -> (line: Int, column: Int) {
            checkAlive()
            var from = state.pointee.cachedOffset
            var line = state.pointee.cachedLine
            var column = state.pointee.cachedColumn
            if offset < from {
                from = 0
                line = 1
                column = 1
            }
            let end = min(offset, byteCount)
            for k in from..<end {
                let c = text[k]
                if c == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if c & 0xC0 != 0x80 {
                    column += 1
                }
            }
            state.pointee.cachedOffset = end
            state.pointee.cachedLine = line
            state.pointee.cachedColumn = column
            return (line, column)
        }

        /// The node after `index` and its subtree.
        @inline(__always) func next(after index: Int) -> Int {
            let node = self.node(index)
            return node.tag.rawValue >= Tag.array.rawValue ? Int(node.end) : index + 1
        }

        /// The string of node `index` (a string node), its escapes decoded.
        func string(at index: Int) -> String {
            let node = self.node(index)
            let start = Int(node.start) + 1
            let end = Int(node.end)
            guard node.tag == .escapedString else {
                return String(decoding: UnsafeBufferPointer(start: text + start, count: end - start), as: UTF8.self)
            }
            return JSONParser.unescape(state.pointee.bytes, start..<end)
        }

        /// String node `index` packed, if it has no escapes and is at most `PackedKey.width` bytes.
        @inline(__always) func packedKey(at index: Int) -> PackedKey? {
            let node = self.node(index)
            let start = Int(node.start) + 1
            let count = Int(node.end) - start
            guard node.tag == .string, count <= PackedKey.width else { return nil }
            // Two whole words only inside the bytes (a key near the document's end, rarely).
            guard start + PackedKey.width <= byteCount else {
                return PackedKey(
                    String(decoding: UnsafeBufferPointer(start: text + start, count: count), as: UTF8.self))
            }
            let p = UnsafeRawPointer(text + start)
            var low = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
            var high = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
                low &= (1 << (8 * UInt64(count))) - 1
                high = 0
            } else if count < 16 {
                high &= (1 << (8 * UInt64(count - 8))) - 1
            }
            return PackedKey(count: count, low: low, high: high)
        }

        /// Whether string node `index` is `s`, compared as bytes.
        @inline(__always) func string(at index: Int, is s: String) -> Bool {
            let node = self.node(index)
            guard node.tag == .string else { return node.tag == .escapedString && string(at: index) == s }
            let start = Int(node.start) + 1
            let count = Int(node.end) - start
            let utf8 = s.utf8
            guard utf8.count == count else { return false }
            var k = text + start
            for c in utf8 {
                if k.pointee != c { return false }
                k += 1
            }
            return true
        }
    }

    /// The tape's builder: the grammar, the limits and the errors' wording
    /// (`JSONParseError`) with the path of the value being read.
    struct Parser {
        /// The document, as an array for the rare paths (escapes, errors) and in place.
        let bytes: [UInt8]
        let b: UnsafeBufferPointer<UInt8>
        /// The nodes so far, with room for `capacity`.
        var nodes: UnsafeMutablePointer<Node>
        var capacity: Int
        var count = 0
        var i = 0
        /// The containers being read, innermost last: each one's node, and
        /// the key node (an object's) or item number (an array's) being read, or -1.
        var open: [(node: Int, at: Int)] = []

        /// The nodes first made room for: enough for a document of `n` bytes
        /// that has one value per 8 bytes or fewer (an indented scenario has
        /// one per 12-14 bytes), so that a long drive's tape is one heap block,
        /// reused once freed; a denser document doubles it as it goes.
        static func initialCapacity(_ n: Int) -> Int { n / 8 + JSONParser.maxDepth + 2 }

        init(bytes: [UInt8], b: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            self.b = b
            capacity = Self.initialCapacity(b.count)
            nodes = .allocate(capacity: capacity)
            open.reserveCapacity(JSONParser.maxDepth)
        }

        mutating func document() throws(JSONParseError) {
            skipWhitespace()
            if i >= b.count { throw error(.empty) }
            try value()
            skipWhitespace()
            if i < b.count { throw error(.syntax(.trailingContent)) }
        }

        @inline(__always) mutating func skipWhitespace() {
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): i += 1
                default: return
                }
            }
        }

        /// The path of the value being read, as scenario errors show it.
        func path() -> String {
            var path: [JSONPath.Step] = []
            for container in open where container.at >= 0 {
                if nodes[container.node].tag == .array {
                    path.append(.index(container.at))
                } else {
                    let key = nodes[container.at]
                    path.append(.key(JSONParser.unescapedString(bytes, key)))
                }
            }
            return JSONPath.render(path)
        }

        func error(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
            var line = 1
            var column = 1
            for k in 0..<min(offset ?? i, b.count) {
                if b[k] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if b[k] & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return JSONParseError(reason: reason, line: line, column: column, path: path())
        }

        func unexpected(_ wanted: JSONSyntax.Wanted) -> JSONParseError {
            if i >= b.count { return error(.syntax(.unexpectedEnd(expected: wanted))) }
            return error(.syntax(.unexpectedCharacter(JSONParser.found(bytes, at: i), expected: wanted)))
        }

        @inline(__always) mutating func append(_ tag: Tag, _ start: Int, _ end: Int = 0) {
            if count == capacity { grow() }
            nodes[count] = Node(
                start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: end), count: 0, tag: tag)
            count += 1
        }

        /// Twice the room, the nodes so far moved there.
        mutating func grow() {
            let larger = UnsafeMutablePointer<Node>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: nodes, count: count)
            nodes.deallocate()
            nodes = larger
            capacity *= 2
        }

        /// Reads the value at the cursor (whitespace already skipped).
        mutating func value() throws(JSONParseError) {
            guard i < b.count else { throw unexpected(.value) }
            switch b[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < JSONParser.maxDepth else { throw error(.tooDeep) }
                try container(isObject: b[i] == UInt8(ascii: "{"))
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true", .true)
            case UInt8(ascii: "f"): try literal("false", .false)
            case UInt8(ascii: "n"): try literal("null", .null)
            default: throw unexpected(.value)
            }
        }

        mutating func literal(_ word: StaticString, _ tag: Tag) throws(JSONParseError) {
            append(tag, i)
            let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for expected in w {
                guard i < b.count else { throw unexpected(.value) }
                guard b[i] == expected else {
                    throw error(.syntax(.unexpectedCharacter(JSONParser.found(bytes, at: i), expected: .value)))
                }
                i += 1
            }
        }

        /// An object or an array: its node, then its members or items, then
        /// its count and the end of its subtree filled in.
        mutating func container(isObject: Bool) throws(JSONParseError) {
            let me = count
            append(isObject ? .object : .array, i)
            i += 1  // { or [
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            skipWhitespace()
            var size = 0
            if i < b.count, b[i] == close {
                i += 1
            } else {
                open.append((node: me, at: -1))
                if isObject { size = try members() } else { size = try items() }
                open.removeLast()
            }
            nodes[me].count = Int32(truncatingIfNeeded: size)
            nodes[me].end = Int32(truncatingIfNeeded: count)
        }

        mutating func items() throws(JSONParseError) -> Int {
            var n = 0
            while true {
                open[open.count - 1].at = n
                skipWhitespace()
                try value()
                n += 1
                skipWhitespace()
                guard i < b.count else { throw unexpected(.commaOrCloseBracket) }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "]") {
                    i += 1
                    return n
                }
                throw unexpected(.commaOrCloseBracket)
            }
        }

        mutating func members() throws(JSONParseError) -> Int {
            let object = count - 1
            // Keys seen, for duplicates: a scan of the members while they
            // are few, a set once there are many.
            var seen: Set<String> = []
            var n = 0
            while true {
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw unexpected(.key) }
                let keyOffset = i
                let key = self.count
                try string()
                open[open.count - 1].at = key
                if isDuplicate(key, object: object, count: n, seen: &seen) {
                    throw error(.duplicateKey(JSONParser.unescapedString(bytes, nodes[key])), at: keyOffset)
                }
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw unexpected(.colon) }
                i += 1
                skipWhitespace()
                try value()
                n += 1
                open[open.count - 1].at = -1
                skipWhitespace()
                guard i < b.count else { throw unexpected(.commaOrCloseBrace) }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "}") {
                    i += 1
                    return n
                }
                throw unexpected(.commaOrCloseBrace)
            }
        }

        /// Whether key node `key` repeats one of the `count` members before it.
        func isDuplicate(_ key: Int, object: Int, count: Int, seen: inout Set<String>) -> Bool {
            if count < 16 {
                var k = object + 1
                for _ in 0..<count {
                    if sameKey(k, key) { return true }
                    k = nextAfterValue(k + 1)
                }
                return false
            }
            if seen.isEmpty {
                var k = object + 1
                for _ in 0..<count {
                    seen.insert(JSONParser.unescapedString(bytes, nodes[k]))
                    k = nextAfterValue(k + 1)
                }
            }
            return !seen.insert(JSONParser.unescapedString(bytes, nodes[key])).inserted
        }

        func nextAfterValue(_ k: Int) -> Int {
            nodes[k].tag.rawValue >= Tag.array.rawValue ? Int(nodes[k].end) : k + 1
        }

        func sameKey(_ x: Int, _ y: Int) -> Bool {
            let p = nodes[x]
            let q = nodes[y]
            if p.tag == .escapedString || q.tag == .escapedString {
                return JSONParser.unescapedString(bytes, p) == JSONParser.unescapedString(bytes, q)
            }
            let count = Int(p.end - p.start)
            guard count == Int(q.end - q.start) else { return false }
            let s = Int(p.start)
            let t = Int(q.start)
            for k in 1..<count where b[s + k] != b[t + k] { return false }
            return true
        }

        /// A string at the cursor (on its opening quote): every escape checked,
        /// nothing decoded.
        mutating func string() throws(JSONParseError) {
            let start = i
            i += 1  // opening quote
            var escapes = false
            while true {
                guard i < b.count else { throw unexpected(.closingQuote) }
                let c = b[i]
                if c == UInt8(ascii: "\"") { break }
                if c < 0x20 { throw error(.syntax(.controlCharacterInString)) }
                if c != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
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
                    guard let (_, length) = JSONParser.unicodeEscape(bytes, at: i) else {
                        throw error(.syntax(.invalidUnicodeEscape), at: escapeStart)
                    }
                    i += length
                default:
                    throw error(.syntax(.invalidEscape), at: escapeStart)
                }
            }
            append(escapes ? .escapedString : .string, start, i)
            i += 1  // closing quote
        }

        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= UInt8(ascii: "0") && b[k] <= UInt8(ascii: "9") }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as its range.
        mutating func number() throws(JSONParseError) {
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
            append(.number, start, i)
        }
    }
}

extension JSONTape {
    /// A key as its length and its first 16 bytes of UTF-8 in two words
    /// (zeros past its end): two keys of at most `width` bytes are equal
    /// exactly when their packed forms are.
    package struct PackedKey: Equatable, Sendable {
        /// The most bytes a packed key holds whole.
        package static let width = 16
        var count: Int
        var low: UInt64, high: UInt64

        init(count: Int, low: UInt64, high: UInt64) {
            self.count = count
            self.low = low
            self.high = high
        }

        /// `key` packed (only its first `width` bytes, when longer), read in
        /// place: its bytes copied whole into two zeroed words (byte k of
        /// the key is byte k of the pair in memory, little-endian).
        @inline(__always) package init(_ key: StaticString) {
            guard key.hasPointerRepresentation else {
                self.init(key.description)
                return
            }
            let count = key.utf8CodeUnitCount
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: key.utf8Start, count: min(count, PackedKey.width)))
            }
            self.init(count: count, low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1))
        }

        /// `key` packed (only its first `width` bytes, when longer).
        package init(_ key: String) {
            count = key.utf8.count
            low = 0
            high = 0
            var k: UInt64 = 0
            for c in key.utf8 {
                if k < 8 { low |= UInt64(c) << (8 * k) } else if k < 16 { high |= UInt64(c) << (8 * (k - 8)) }
                k += 1
            }
        }
    }
}

/// A value on a `JSONTape`: what a reader walks instead of a tree.
package struct JSONNode {
    /// Not counted: the tape is alive in `JSONTape.withRoot`, where nodes live.
    let tape: JSONTape.View
    let index: Int

    @inline(__always) var node: JSONTape.Node { tape.node(index) }

    /// What the value is.
    package var tag: JSONTape.Tag { node.tag }
    package var isObject: Bool { tag == .object }
    package var isNumber: Bool { tag == .number }

    /// The 1-based line of its first character.
    package var line: Int { tape.position(of: Int(node.start)).line }
    /// The 1-based column (in Unicode scalars) of its first character.
    package var column: Int { tape.position(of: Int(node.start)).column }

    /// The string, its escapes decoded; nil if the value is not a string.
    package var string: String? {
        let tag = self.tag
        return tag == .string || tag == .escapedString ? tape.string(at: index) : nil
    }

    /// The boolean; nil if the value is not one.
    package var bool: Bool? {
        switch tag {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// The number's literal text, exactly as written; nil if the value is not a number.
    package var number: String? {
        let node = self.node
        guard node.tag == .number else { return nil }
        return String(
            decoding: UnsafeBufferPointer(start: tape.text + Int(node.start), count: Int(node.end - node.start)),
            as: UTF8.self)
    }

    /// `body` over the number's literal bytes; nil if the value is not a number.
    package func withNumber<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let node = self.node
        guard node.tag == .number else { return nil }
        return body(UnsafeBufferPointer(start: tape.text + Int(node.start), count: Int(node.end - node.start)))
    }

    /// The items; nil if the value is not an array.
    package var items: Items? {
        let node = self.node
        guard node.tag == .array else { return nil }
        return Items(tape: tape, first: index + 1, count: Int(node.count))
    }

    /// The members in file order; nil if the value is not an object.
    package var members: Members? {
        let node = self.node
        guard node.tag == .object else { return nil }
        return Members(tape: tape, first: index + 1, count: Int(node.count))
    }

    /// The member with this key, if the value is an object that has it.
    package subscript(key: String) -> JSONNode? { members?.first(key) }

    /// An array's items in order.
    package struct Items: Sequence {
        let tape: JSONTape.View
        let first: Int
        /// How many there are.
        package let count: Int

        /// Item `n`, found by stepping over the ones before it; nil past the end.
        package func item(_ n: Int) -> JSONNode? {
            guard n >= 0 else { return nil }
            var items = makeIterator()
            for _ in 0..<n {
                if items.next() == nil { return nil }
            }
            return items.next()
        }

        package func makeIterator() -> Each<JSONNode> {
            Each(
                children: Children(tape: tape, cursor: first, left: count, pairs: false),
                make: JSONNode.init(tape:index:))
        }
    }

    /// An object's members in file order.
    package struct Members: Sequence {
        let tape: JSONTape.View
        let first: Int
        /// How many there are.
        package let count: Int

        /// The value of the member with this key, compared as bytes.
        package func first(_ key: String) -> JSONNode? {
            var keys = Children(tape: tape, cursor: first, left: count, pairs: true)
            while let k = keys.next() {
                if tape.string(at: k, is: key) { return JSONNode(tape: tape, index: k + 1) }
            }
            return nil
        }

        /// Whether a member has this key.
        package func has(_ key: String) -> Bool { first(key) != nil }

        /// The first member, if any.
        package var firstMember: Member? { count > 0 ? Member(tape: tape, keyIndex: first) : nil }

        package func makeIterator() -> Each<Member> {
            Each(
                children: Children(tape: tape, cursor: first, left: count, pairs: true),
                make: Member.init(tape:keyIndex:))
        }
    }

    /// The first node of each of a container's `left` children from
    /// `cursor`: an item, or a member's key (`pairs`), its value after it.
    package struct Children: IteratorProtocol {
        let tape: JSONTape.View
        var cursor: Int
        var left: Int
        let pairs: Bool

        package mutating func next() -> Int? {
            guard left > 0 else { return nil }
            left -= 1
            let child = cursor
            cursor = tape.next(after: pairs ? cursor + 1 : cursor)
            return child
        }
    }

    /// A container's items or members, each made from its first node.
    package struct Each<Element>: IteratorProtocol {
        var children: Children
        let make: (JSONTape.View, Int) -> Element

        package mutating func next() -> Element? { children.next().map { make(children.tape, $0) } }
    }

    /// One member of an object.
    package struct Member {
        let tape: JSONTape.View
        let keyIndex: Int

        /// The key, its escapes decoded.
        package var key: String { tape.string(at: keyIndex) }
        /// The key packed, if it has no escapes and is at most `PackedKey.width` bytes.
        var packedKey: JSONTape.PackedKey? { tape.packedKey(at: keyIndex) }
        /// Whether the key is `s`, compared as bytes.
        package func keyIs(_ s: String) -> Bool { tape.string(at: keyIndex, is: s) }
        /// The value.
        package var value: JSONNode { JSONNode(tape: tape, index: keyIndex + 1) }
    }
}
