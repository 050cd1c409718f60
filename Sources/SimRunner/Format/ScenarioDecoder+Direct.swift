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

        /// Whether the bytes of `r` are `s`.
        @inline(__always) func bytes(_ r: Range<Int>, are s: StaticString) -> Bool {
            guard r.count == s.utf8CodeUnitCount else { return false }
            let p = s.utf8Start
            for k in 0..<r.count where b[r.lowerBound + k] != p[k] { return false }
            return true
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

        /// Marks `bit` as seen in `seen`; a key seen twice is the careful path's to refuse.
        @inline(__always) func mark(_ seen: inout UInt16, _ bit: UInt16) throws(Unhandled) {
            guard seen & bit == 0 else { throw Unhandled() }
            seen |= bit
        }

        // MARK: The scenario

        mutating func scenario() throws(Unhandled) -> Scenario {
            var seen: UInt16 = 0
            var name = "", description: String? = nil, golden: String? = nil
            var settings = Scenario.Settings()
            var guidance: [GuidanceLine] = [], replies: [Scenario.Reply] = [], dad: [Scenario.Utterance] = []
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "guidance") {
                        try mark(&seen, 1 << 0)
                        guidance = try lines()
                    } else if bytes(k, are: "replies") {
                        try mark(&seen, 1 << 1)
                        replies = try pippasReplies()
                    } else if bytes(k, are: "dad") {
                        try mark(&seen, 1 << 2)
                        dad = try utterances()
                    } else if bytes(k, are: "drivesim") {
                        try mark(&seen, 1 << 3)
                        // Only this format's own version, written as the integer it is.
                        let r = try number()
                        guard r.count == 1, Int(b[r.lowerBound]) - 48 == Scenario.formatVersion else { throw Unhandled() }
                    } else if bytes(k, are: "name") {
                        try mark(&seen, 1 << 4)
                        name = try string()
                    } else if bytes(k, are: "settings") {
                        try mark(&seen, 1 << 5)
                        settings = try self.settings()
                    } else if bytes(k, are: "description") {
                        try mark(&seen, 1 << 6)
                        description = try string()
                    } else if bytes(k, are: "$schema") {
                        try mark(&seen, 1 << 7)
                        _ = try rawString()
                    } else if bytes(k, are: "golden") {
                        try mark(&seen, 1 << 8)
                        let g = try string()
                        guard !g.isEmpty else { throw Unhandled() }
                        golden = g
                    } else {
                        // `road`, `expect` and unknown keys: the careful path.
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
            }
            whitespace()
            guard i == b.count, seen & (1 << 3) != 0, seen & (1 << 4) != 0 else { throw Unhandled() }
            return Scenario(
                name: name, description: description, settings: settings, guidance: guidance, replies: replies, dad: dad,
                golden: golden)
        }

        mutating func settings() throws(Unhandled) -> Scenario.Settings {
            var settings = Scenario.Settings()
            var seen: UInt16 = 0
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "earsTail") {
                        try mark(&seen, 1)
                        settings.earsTail = try span()
                    } else if bytes(k, are: "waitLimit") {
                        try mark(&seen, 2)
                        settings.waitLimit = try span()
                    } else if bytes(k, are: "afterCut") {
                        try mark(&seen, 4)
                        guard let afterCut = Scenario.AfterCut(rawValue: try string()) else { throw Unhandled() }
                        settings.afterCut = afterCut
                    } else {
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
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

        mutating func lines() throws(Unhandled) -> [GuidanceLine] { try list { (r: inout Self) throws(Unhandled) in try r.line() } }

        mutating func line() throws(Unhandled) -> GuidanceLine {
            var line = GuidanceLine(id: "", at: .zero, duration: .zero)
            var seen: UInt16 = 0
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "id") {
                        try mark(&seen, 1)
                        line.id = try string()
                    } else if bytes(k, are: "at") {
                        try mark(&seen, 2)
                        line.at = try time()
                    } else if bytes(k, are: "duration") {
                        try mark(&seen, 4)
                        line.duration = try span()
                    } else if bytes(k, are: "urgent") {
                        try mark(&seen, 8)
                        line.urgent = try bool()
                    } else if bytes(k, are: "text") {
                        try mark(&seen, 16)
                        line.text = try string()
                    } else if bytes(k, are: "language") {
                        try mark(&seen, 32)
                        line.language = try language()
                    } else if bytes(k, are: "maneuver") {
                        try mark(&seen, 64)
                        line.maneuver = try string()
                    } else if bytes(k, are: "expires") {
                        try mark(&seen, 128)
                        line.expires = try time()
                    } else {
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
            }
            guard seen & 7 == 7 else { throw Unhandled() }
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

        mutating func stretch() throws(Unhandled) -> Scenario.Stretch {
            var stretch = Scenario.Stretch(id: "", duration: .zero)
            var seen: UInt16 = 0
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "id") {
                        try mark(&seen, 1)
                        stretch.id = try string()
                    } else if bytes(k, are: "duration") {
                        try mark(&seen, 2)
                        stretch.duration = try span()
                    } else if bytes(k, are: "ready") {
                        try mark(&seen, 4)
                        stretch.ready = try span()
                    } else if bytes(k, are: "text") {
                        try mark(&seen, 8)
                        stretch.text = try string()
                    } else if bytes(k, are: "language") {
                        try mark(&seen, 16)
                        stretch.language = try language()
                    } else {
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
            }
            guard seen & 3 == 3 else { throw Unhandled() }
            return stretch
        }

        mutating func pippasReplies() throws(Unhandled) -> [Scenario.Reply] { try list { (r: inout Self) throws(Unhandled) in try r.reply() } }

        mutating func reply() throws(Unhandled) -> Scenario.Reply {
            var reply = Scenario.Reply(id: "", at: .zero, stretches: [])
            var seen: UInt16 = 0
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "id") {
                        try mark(&seen, 1)
                        reply.id = try string()
                    } else if bytes(k, are: "at") {
                        try mark(&seen, 2)
                        reply.at = try time()
                    } else if bytes(k, are: "stretches") {
                        try mark(&seen, 4)
                        reply.stretches = try stretches()
                    } else {
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
            }
            guard seen & 7 == 7 else { throw Unhandled() }
            return reply
        }

        mutating func utterances() throws(Unhandled) -> [Scenario.Utterance] { try list { (r: inout Self) throws(Unhandled) in try r.utterance() } }

        mutating func utterance() throws(Unhandled) -> Scenario.Utterance {
            var utterance = Scenario.Utterance(id: "", at: .zero, duration: .zero, language: .ko)
            var seen: UInt16 = 0
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "id") {
                        try mark(&seen, 1)
                        utterance.id = try string()
                    } else if bytes(k, are: "at") {
                        try mark(&seen, 2)
                        utterance.at = try time()
                    } else if bytes(k, are: "duration") {
                        try mark(&seen, 4)
                        utterance.duration = try span()
                    } else if bytes(k, are: "language") {
                        try mark(&seen, 8)
                        utterance.language = try language()
                    } else if bytes(k, are: "text") {
                        try mark(&seen, 16)
                        utterance.text = try string()
                    } else if bytes(k, are: "reply") {
                        try mark(&seen, 32)
                        utterance.reply = try dadReply()
                    } else {
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
            }
            guard seen & 15 == 15 else { throw Unhandled() }
            return utterance
        }

        mutating func dadReply() throws(Unhandled) -> Scenario.DadReply {
            var reply = Scenario.DadReply(id: "", stretches: [])
            var seen: UInt16 = 0
            if try open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
                repeat {
                    let k = try key()
                    if bytes(k, are: "id") {
                        try mark(&seen, 1)
                        reply.id = try string()
                    } else if bytes(k, are: "after") {
                        try mark(&seen, 2)
                        reply.after = try span()
                    } else if bytes(k, are: "stretches") {
                        try mark(&seen, 4)
                        reply.stretches = try stretches()
                    } else {
                        throw Unhandled()
                    }
                } while try more(UInt8(ascii: "}"))
            }
            guard seen & 5 == 5 else { throw Unhandled() }
            return reply
        }
    }
}
