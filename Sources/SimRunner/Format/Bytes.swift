import SimClock

/// Appending text to a byte buffer without building intermediate strings:
/// the timeline's renderers write every event straight into one reserved
/// `[UInt8]`.
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
        if v >= 0, magnitude < 10 { append(UInt8(ascii: "0") + UInt8(magnitude)); return }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var k = 20
            repeat {
                k -= 1
                buffer[k] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if v < 0 { k -= 1; buffer[k] = UInt8(ascii: "-") }
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[k..<20]))
        }
    }

    /// `v` with at least `width` digits, zeros in front (v ≥ 0).
    package mutating func append(int v: Int64, width: Int) {
        var digits = 1, q = v
        while q >= 10 { q /= 10; digits += 1 }
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
            func put(_ byte: UInt8) { k -= 1; buffer[k] = byte }
            func put(_ v: Int64, digits: Int) {
                var v = v
                for _ in 0..<digits { put(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 }
            }
            put(total % 1000, digits: 3)
            put(UInt8(ascii: "."))
            put((total / 1000) % 60, digits: 2)
            put(UInt8(ascii: ":"))
            put((total / 60_000) % 60, digits: 2)
            var hours = total / 3_600_000
            if hours > 0 {
                put(UInt8(ascii: ":"))
                repeat { put(UInt8(ascii: "0") + UInt8(hours % 10)); hours /= 10 } while hours > 0
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

    private static var sixtyFourSpaces: StaticString { "                                                                " }
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
