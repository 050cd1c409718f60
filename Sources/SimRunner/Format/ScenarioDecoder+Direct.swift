import Guidance
import SimClock
import SimRunner

/// The fast path of `ScenarioDecoder.decode`: a talk scenario read straight
/// from the bytes, with no JSON tree in between.
///
/// It reads only what a plain talk scenario holds (no `road`, no `expect`,
/// strings without escapes, only the keys of the format) and gives up,
/// returning nil, on anything else or on anything wrong. `decode` then
/// reads the file the careful way, which finds the problem and words it,
/// so errors never come from here. What it does read, it reads exactly as
/// the careful path would: the same strict JSON (UTF-8 checked first, the
/// number grammar, no duplicate keys, nothing after the value), the same
/// exact seconds, the same defaults.
///
/// - Complexity: O(n) in the file's size; one pass, no allocation per field
///   beyond the scenario's own values.
enum DirectReader {
    /// Not read here: the careful path decides.
    struct Unhandled: Error {}

    /// The scenario in `bytes`, or nil if this reader does not handle the file
    /// (it may still be valid). Not yet validated (`Scenario.validate()`).
    static func scenario(_ bytes: [UInt8]) -> Scenario? {
        guard JSONParser.firstInvalidUTF8(bytes) == nil else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Scenario? in
            var cursor = Cursor(b: buffer)
            do {
                return try cursor.scenario()
            } catch {
                return nil
            }
        }
    }

    static let timeLimitMs = Int64(ScenarioDecoder.maxTimeSeconds) * 1000
    static let durationLimitMs = Int64(ScenarioDecoder.maxDurationSeconds) * 1000

    /// The reader's position in the bytes.
    struct Cursor {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0
        /// The stretches of the reply being read.
        var scratch: [Scenario.Stretch] = []

        // MARK: JSON

        @inline(__always) mutating func whitespace() {
            while i < b.count {
                switch b[i] {
                case 0x20, 0x0A, 0x0D, 0x09: i += 1
                default: return
                }
            }
        }

        /// The next byte after whitespace, which must be `c`.
        @inline(__always) mutating func expect(_ c: UInt8) throws(Unhandled) {
            whitespace()
            guard i < b.count, b[i] == c else { throw Unhandled() }
            i += 1
        }

        /// Opens an object or array (`open`); false if it is empty (`close` follows at once).
        @inline(__always) mutating func open(_ open: UInt8, _ close: UInt8) throws(Unhandled) -> Bool {
            try expect(open)
            whitespace()
            if i < b.count, b[i] == close { i += 1; return false }
            return true
        }

        /// After a member or an item: true for a comma (another follows), false for `close`.
        @inline(__always) mutating func more(_ close: UInt8) throws(Unhandled) -> Bool {
            whitespace()
            guard i < b.count else { throw Unhandled() }
            if b[i] == UInt8(ascii: ",") { i += 1; return true }
            if b[i] == close { i += 1; return false }
            throw Unhandled()
        }

        /// A string without escapes or control characters: the range of its bytes.
        @inline(__always) mutating func rawString() throws(Unhandled) -> Range<Int> {
            whitespace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw Unhandled() }
            i += 1
            let start = i
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return start..<(i - 1)
                }
                if c < 0x20 || c == UInt8(ascii: "\\") { throw Unhandled() }
                i += 1
            }
            throw Unhandled()
        }

        /// A member's key and its colon.
        @inline(__always) mutating func key() throws(Unhandled) -> Range<Int> {
            let k = try rawString()
            try expect(UInt8(ascii: ":"))
            return k
        }

        mutating func string() throws(Unhandled) -> String {
            let r = try rawString()
            return String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self)
        }

        mutating func bool() throws(Unhandled) -> Bool {
            whitespace()
            if i + 4 <= b.count, b[i] == UInt8(ascii: "t"), b[i + 1] == UInt8(ascii: "r"), b[i + 2] == UInt8(ascii: "u"),
               b[i + 3] == UInt8(ascii: "e") {
                i += 4
                return true
            }
            if i + 5 <= b.count, b[i] == UInt8(ascii: "f"), b[i + 1] == UInt8(ascii: "a"), b[i + 2] == UInt8(ascii: "l"),
               b[i + 3] == UInt8(ascii: "s"), b[i + 4] == UInt8(ascii: "e") {
                i += 5
                return false
            }
            throw Unhandled()
        }

        @inline(__always) func isDigit(_ k: Int) -> Bool {
            k < b.count && b[k] >= UInt8(ascii: "0") && b[k] <= UInt8(ascii: "9")
        }

        /// A number literal by JSON's grammar: the range of its bytes.
        mutating func number() throws(Unhandled) -> Range<Int> {
            whitespace()
            let start = i
            if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw Unhandled() }
            if b[i] == UInt8(ascii: "0") {
                i += 1
                if isDigit(i) { throw Unhandled() }
            } else {
                while isDigit(i) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                guard isDigit(i) else { throw Unhandled() }
                while isDigit(i) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard isDigit(i) else { throw Unhandled() }
                while isDigit(i) { i += 1 }
            }
            return start..<i
        }

        /// Seconds as exact milliseconds, at most `limitMs` (`Seconds`, as the careful path).
        mutating func seconds(_ limitMs: Int64) throws(Unhandled) -> SimTime {
            let r = try number()
            switch Seconds.milliseconds(fromLiteral: UnsafeBufferPointer(rebasing: b[r]), limitMs: limitMs) {
            case .success(let ms): return SimTime(ms: ms)
            case .failure: throw Unhandled()
            }
        }

        mutating func time() throws(Unhandled) -> SimTime { try seconds(DirectReader.timeLimitMs) }
        mutating func span() throws(Unhandled) -> SimTime { try seconds(DirectReader.durationLimitMs) }

        mutating func language() throws(Unhandled) -> Language {
            let r = try rawString()
            if bytes(r, are: "ko") { return .ko }
            if bytes(r, are: "en") { return .en }
            throw Unhandled()
        }

        /// Reads one object of the format whose keys are `keys` (its list in
        /// `ScenarioKeys`, where the format names them): `read` reads the
        /// value of `keys[n]`. A key not in the list, or given twice, is the
        /// careful path's to refuse. Returns the keys seen, bit `n` for `keys[n]`.
        @inline(__always) mutating func object(
            _ keys: [String], _ read: (inout Self, String) throws(Unhandled) -> Void
        ) throws(Unhandled) -> UInt32 {
            var seen: UInt32 = 0
            guard try open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { return seen }
            repeat {
                let k = try key()
                guard let n = keys.firstIndex(where: { bytes(k, are: $0) }), seen & (1 << n) == 0 else { throw Unhandled() }
                seen |= 1 << n
                try read(&self, keys[n])
            } while try more(UInt8(ascii: "}"))
            return seen
        }

        /// Whether the bytes of `r` are the key `s`.
        @inline(__always) func bytes(_ r: Range<Int>, are s: String) -> Bool {
            var k = r.lowerBound
            for c in s.utf8 {
                guard k < r.upperBound, b[k] == c else { return false }
                k += 1
            }
            return k == r.upperBound
        }

        // MARK: The scenario

        mutating func scenario() throws(Unhandled) -> Scenario {
            var out = Scenario(name: "")
            var version = false
            let seen = try object(ScenarioKeys.root) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "guidance": out.guidance = try r.list { (r: inout Self) throws(Unhandled) in try r.line() }
                case "replies": out.replies = try r.list { (r: inout Self) throws(Unhandled) in try r.reply() }
                case "dad": out.dad = try r.list { (r: inout Self) throws(Unhandled) in try r.utterance() }
                case "drivesim":
                    // Only this format's own version, written as the integer it is.
                    let n = try r.number()
                    version = n.count == 1 && Int(r.b[n.lowerBound]) - 48 == Scenario.formatVersion
                case "name": out.name = try r.string()
                case "settings": out.settings = try r.settings()
                case "description": out.description = try r.string()
                case "$schema": _ = try r.rawString()
                case "golden":
                    let g = try r.string()
                    guard !g.isEmpty else { throw Unhandled() }
                    out.golden = g
                default:
                    // `road` and `expect`: the careful path.
                    throw Unhandled()
                }
            }
            whitespace()
            guard i == b.count, version, seen & Self.mask(ScenarioKeys.root, "name") != 0 else { throw Unhandled() }
            return out
        }

        /// The bits of `required` among `keys`.
        static func mask(_ keys: [String], _ required: String...) -> UInt32 {
            required.reduce(0) { $0 | (1 << UInt32(keys.firstIndex(of: $1)!)) }
        }

        mutating func settings() throws(Unhandled) -> Scenario.Settings {
            var settings = Scenario.Settings()
            _ = try object(ScenarioKeys.settings) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "earsTail": settings.earsTail = try r.span()
                case "waitLimit": settings.waitLimit = try r.span()
                default:
                    guard let afterCut = Scenario.AfterCut(rawValue: try r.string()) else { throw Unhandled() }
                    settings.afterCut = afterCut
                }
            }
            return settings
        }

        /// A JSON array, each item read by `item`.
        mutating func list<T>(_ item: (inout Self) throws(Unhandled) -> T) throws(Unhandled) -> [T] {
            var result: [T] = []
            guard try open(UInt8(ascii: "["), UInt8(ascii: "]")) else { return result }
            result.reserveCapacity(64)
            repeat { result.append(try item(&self)) } while try more(UInt8(ascii: "]"))
            return result
        }

        static let lineRequired = mask(ScenarioKeys.line, "id", "at", "duration")

        mutating func line() throws(Unhandled) -> GuidanceLine {
            var line = GuidanceLine(id: "", at: .zero, duration: .zero)
            let seen = try object(ScenarioKeys.line) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "id": line.id = try r.string()
                case "at": line.at = try r.time()
                case "duration": line.duration = try r.span()
                case "urgent": line.urgent = try r.bool()
                case "text": line.text = try r.string()
                case "language": line.language = try r.language()
                case "maneuver": line.maneuver = try r.string()
                default: line.expires = try r.time()
                }
            }
            guard seen & Self.lineRequired == Self.lineRequired else { throw Unhandled() }
            return line
        }

        /// A reply's stretches, gathered in `scratch` and then copied at their exact size.
        mutating func stretches() throws(Unhandled) -> [Scenario.Stretch] {
            guard try open(UInt8(ascii: "["), UInt8(ascii: "]")) else { return [] }
            scratch.removeAll(keepingCapacity: true)
            repeat {
                let stretch = try stretch()
                scratch.append(stretch)
            } while try more(UInt8(ascii: "]"))
            return Array(scratch[...])
        }

        static let stretchRequired = mask(ScenarioKeys.stretch, "id", "duration")

        mutating func stretch() throws(Unhandled) -> Scenario.Stretch {
            var stretch = Scenario.Stretch(id: "", duration: .zero)
            let seen = try object(ScenarioKeys.stretch) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "id": stretch.id = try r.string()
                case "duration": stretch.duration = try r.span()
                case "ready": stretch.ready = try r.span()
                case "text": stretch.text = try r.string()
                default: stretch.language = try r.language()
                }
            }
            guard seen & Self.stretchRequired == Self.stretchRequired else { throw Unhandled() }
            return stretch
        }

        static let replyRequired = mask(ScenarioKeys.reply, "id", "at", "stretches")

        mutating func reply() throws(Unhandled) -> Scenario.Reply {
            var reply = Scenario.Reply(id: "", at: .zero, stretches: [])
            let seen = try object(ScenarioKeys.reply) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "id": reply.id = try r.string()
                case "at": reply.at = try r.time()
                default: reply.stretches = try r.stretches()
                }
            }
            guard seen & Self.replyRequired == Self.replyRequired else { throw Unhandled() }
            return reply
        }

        static let utteranceRequired = mask(ScenarioKeys.utterance, "id", "at", "duration", "language")

        mutating func utterance() throws(Unhandled) -> Scenario.Utterance {
            var utterance = Scenario.Utterance(id: "", at: .zero, duration: .zero, language: .ko)
            let seen = try object(ScenarioKeys.utterance) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "id": utterance.id = try r.string()
                case "at": utterance.at = try r.time()
                case "duration": utterance.duration = try r.span()
                case "language": utterance.language = try r.language()
                case "text": utterance.text = try r.string()
                default: utterance.reply = try r.dadReply()
                }
            }
            guard seen & Self.utteranceRequired == Self.utteranceRequired else { throw Unhandled() }
            return utterance
        }

        static let dadReplyRequired = mask(ScenarioKeys.dadReply, "id", "stretches")

        mutating func dadReply() throws(Unhandled) -> Scenario.DadReply {
            var reply = Scenario.DadReply(id: "", stretches: [])
            let seen = try object(ScenarioKeys.dadReply) { (r: inout Self, key) throws(Unhandled) in
                switch key {
                case "id": reply.id = try r.string()
                case "after": reply.after = try r.span()
                default: reply.stretches = try r.stretches()
                }
            }
            guard seen & Self.dadReplyRequired == Self.dadReplyRequired else { throw Unhandled() }
            return reply
        }
    }
}
