import SimClock

/// Appending text to a byte buffer without building intermediate strings:
/// the timeline's renderers write every event straight into one reserved
/// `[UInt8]`. Every way drivesim writes bytes lives in this file: numbers
/// and times, JSON strings, and the escapes of the pictures (`<script>`-safe
/// JSON for the page, XML for the SVG, one-line text for the terminal).
extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `s`.
    @inlinable package mutating func append(utf8 s: String) {
        var s = s
        s.withUTF8 { append(contentsOf: $0) }
    }

    /// The decimal digits of `v`.
    ///
    /// The digits are made right to left in 20 bytes on the stack (a sign
    /// and 19 digits at most) and appended in one copy.
    package mutating func append(int v: Int64) {
        var magnitude = v.magnitude
        if v >= 0, magnitude < 10 {
            append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var k = 20
            repeat {
                k -= 1
                buffer[k] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if v < 0 {
                k -= 1
                buffer[k] = UInt8(ascii: "-")
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[k..<20]))
        }
    }

    /// `v` with at least `width` digits, zeros in front (v ≥ 0).
    package mutating func append(int v: Int64, width: Int) {
        var digits = 1
        var q = v
        while q >= 10 {
            q /= 10
            digits += 1
        }
        for _ in digits..<Swift.max(digits, width) { append(UInt8(ascii: "0")) }
        append(int: v)
    }

    /// A time as `SimTime.description` writes it: `[h:]mm:ss.mmm`.
    ///
    /// Made right to left in 32 bytes on the stack (a sign, 13 digits of
    /// hours and `:mm:ss.mmm` at most) and appended in one copy.
    package mutating func append(time t: SimTime) {
        let total = t.ms < 0 ? -t.ms : t.ms
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &text) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var k = 32
            func put(_ byte: UInt8) {
                k -= 1
                buffer[k] = byte
            }
            func put(_ v: Int64, digits: Int) {
                var v = v
                for _ in 0..<digits {
                    put(UInt8(ascii: "0") + UInt8(v % 10))
                    v /= 10
                }
            }
            put(total % 1000, digits: 3)
            put(UInt8(ascii: "."))
            put((total / 1000) % 60, digits: 2)
            put(UInt8(ascii: ":"))
            put((total / 60_000) % 60, digits: 2)
            var hours = total / 3_600_000
            if hours > 0 {
                put(UInt8(ascii: ":"))
                repeat {
                    put(UInt8(ascii: "0") + UInt8(hours % 10))
                    hours /= 10
                } while hours > 0
            }
            if t.ms < 0 { put(UInt8(ascii: "-")) }
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[k..<32]))
        }
    }

    /// `s` as a JSON string literal, escaped as `JSONWriter` does.
    package mutating func append(quoted s: String) {
        var s = s
        s.withUTF8 { append(quotedUTF8: $0) }
    }

    /// UTF-8 `bytes` as a JSON string literal, escaped as `JSONWriter` does
    /// (`JSONWriter.appendEscape`, the one table of escapes).
    package mutating func append(quotedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var clean = 0  // bytes[clean...] not yet copied
        for i in bytes.indices {
            let byte = bytes[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
            clean = i + 1
            JSONWriter.appendEscape(byte, to: &self)
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
        append(UInt8(ascii: "\""))
    }

    /// `n` spaces.
    package mutating func append(spaces n: Int) {
        var left = n
        while left > 0 {
            let k = Swift.min(left, 64)
            append(contentsOf: UnsafeBufferPointer(start: Self.sixtyFourSpaces.utf8Start, count: k))
            left -= k
        }
    }

    private static var sixtyFourSpaces: StaticString {
        "                                                                "
    }
}

extension Array where Element == UInt8 {
    /// `pieces` one after another, copied once into one array.
    package init(joining pieces: [UnsafeBufferPointer<UInt8>]) {
        let count = pieces.reduce(0) { $0 + $1.count }
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            var at = 0
            for piece in pieces where piece.count > 0 {
                (buffer.baseAddress! + at).initialize(from: piece.baseAddress!, count: piece.count)
                at += piece.count
            }
            initialized = at
        }
    }
}

/// Output made in chunks: a renderer appends to `bytes` and calls
/// `flushIfFull()` after each whole piece; once `chunkSize` bytes are in,
/// they go to `emit` and the buffer is reused. A long drive's picture is
/// never held whole, so its bytes are written into memory that stays in
/// cache, not into fresh pages (`TimelineFormat.write`).
package struct ChunkedOutput {
    /// What is written and not yet handed over.
    package var bytes: [UInt8] = []
    private let emit: (UnsafeBufferPointer<UInt8>) -> Void

    /// How many bytes are handed over at a time (at least).
    package static let chunkSize = 1 << 16

    /// Runs `body` with an output whose chunks go to `emit`, and hands over what is left at the end.
    package static func writing(to emit: (UnsafeBufferPointer<UInt8>) -> Void, _ body: (inout ChunkedOutput) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var out = ChunkedOutput(emit: emit)
            body(&out)
            out.flush()
        }
    }

    private init(emit: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.emit = emit
        bytes.reserveCapacity(Self.chunkSize * 2)
    }

    /// Hands over what is written if it is a chunk's worth.
    @inline(__always) package mutating func flushIfFull() {
        if bytes.count >= Self.chunkSize { flush() }
    }

    /// Hands over what is written, however little.
    package mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer(emit)
        bytes.removeAll(keepingCapacity: true)
    }
}

extension String {
    /// The UTF-8 text that `write` hands over in chunks (`ChunkedOutput`), joined.
    package init(chunks write: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
        var all: [UInt8] = []
        write { all.append(contentsOf: $0) }
        self.init(decoding: all, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Appends JSON `bytes` to `out`, safe inside a `<script>` element: `<`,
    /// `>` and `&` (which in our JSON occur only inside strings) as
    /// `\u003c`, `\u003e`, `\u0026`; the runs between them are copied whole.
    /// Each escaped byte stands alone, so a text may be handed over in
    /// chunks cut anywhere.
    package static func appendScriptSafe(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var clean = 0  // bytes[clean...] not yet copied
        var i = 0
        while i < bytes.count {
            // Sixteen bytes at a time while none of them is `<`, `>` or `&` (the usual case).
            if i + 16 <= bytes.count {
                let at = UnsafeRawPointer(bytes.baseAddress! + i)
                if !mayNeedEscape(
                    at.loadUnaligned(as: UInt64.self), at.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                {
                    i += 16
                    continue
                }
            }
            defer { i += 1 }
            let escape: StaticString
            switch bytes[i] {
            case UInt8(ascii: "<"): escape = "\\u003c"
            case UInt8(ascii: ">"): escape = "\\u003e"
            case UInt8(ascii: "&"): escape = "\\u0026"
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
            out.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            clean = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
    }

    /// Whether any byte of two words may be `<`, `>` or `&` (exact for "no":
    /// such a byte always sets its high bit in the test). `<` (0x3C) and `>`
    /// (0x3E) differ only in bit 1, so one test with that bit set finds both.
    @inline(__always) private static func mayNeedEscape(_ a: UInt64, _ b: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByte(_ v: UInt64, _ byte: UInt8) -> UInt64 {
            let x = v ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highs
        }
        let angle = ones &* 0x02
        return hasByte(a | angle, UInt8(ascii: ">")) | hasByte(a, UInt8(ascii: "&"))
            | hasByte(b | angle, UInt8(ascii: ">")) | hasByte(b, UInt8(ascii: "&")) != 0
    }
}

extension Array where Element == UInt8 {
    /// Text for XML content or an attribute: `& < > " '` as entities; a
    /// control character (which XML 1.0 does not allow, even as a reference)
    /// as a visible escape (`\u{1B}`); newlines and tabs kept (tooltips use them).
    package mutating func append(xml utf8: UnsafeBufferPointer<UInt8>) {
        var clean = 0
        var i = 0
        while i < utf8.count {
            // Eight bytes at a time while none of them may need an entity or an escape (the usual case).
            if i + 8 <= utf8.count,
                !Self.mayNeedXMLEscape(UnsafeRawPointer(utf8.baseAddress! + i).loadUnaligned(as: UInt64.self))
            {
                i += 8
                continue
            }
            defer { i += 1 }
            let byte = utf8[i]
            let entity: String
            switch byte {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&apos;"
            case 0x09, 0x0A: continue
            case 0x00...0x1F, 0x7F: entity = "\\u{" + String(byte, radix: 16, uppercase: true) + "}"
            default: continue
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<i]))
            append(utf8: entity)
            clean = i + 1
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
    }

    /// Whether any byte of `word` may be one that `append(xml:)` rewrites:
    /// `& < > " '`, a control character (tab and newline included) or DEL.
    /// Exact for "no": such a byte always sets its high bit in the test.
    @inline(__always) private static func mayNeedXMLEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByte(_ byte: UInt8) -> Bool {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highs != 0
        }
        let control = (word &- ones &* 0x20) & ~word & highs != 0  // a byte below 0x20
        return control || hasByte(UInt8(ascii: "&")) || hasByte(UInt8(ascii: "<")) || hasByte(UInt8(ascii: ">"))
            || hasByte(UInt8(ascii: "\"")) || hasByte(UInt8(ascii: "'")) || hasByte(0x7F)
    }
}

extension Array where Element == UInt8 {
    /// `s` as it is, except that unsafe scalars (`isUnsafeForDisplay`) and
    /// backslashes are written as escapes (`\n`, `\u{1B}`), so it stays on one line.
    package mutating func append(escaped s: String) {
        var s = s
        let plain = s.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return false }
            append(contentsOf: bytes)
            return true
        }
        if !plain { append(utf8: ScenarioError.escaped(s)) }
    }

    /// `s` as a JSON string literal (`append(quoted:)`), with the unsafe
    /// scalars above U+007F escaped too (`\u0085`), so it stays on one line.
    package mutating func append(displayQuoted s: String) {
        guard s.unicodeScalars.contains(where: { $0.value >= 0x7F && isUnsafeForDisplay($0) }) else {
            append(quoted: s)
            return
        }
        append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for scalar in s.unicodeScalars {
            let v = scalar.value
            if v < 0x7F, v >= 0x20 {
                if v == 0x22 || v == 0x5C { append(UInt8(ascii: "\\")) }
                append(UInt8(v))
            } else if isUnsafeForDisplay(scalar) {
                append(contentsOf: "\\u".utf8)
                for shift in [12, 8, 4, 0] { append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
            } else {
                append(contentsOf: String(scalar).utf8)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
