import SimRunner

/// Exact conversion between seconds as written in a scenario file and
/// integer milliseconds. No floating point: the literal's digits are moved
/// by its exponent, so `2.5` is 2500 ms and `0.0004` is refused, not rounded.
package enum Seconds {
    /// Why a literal is not a usable number of milliseconds.
    package enum Problem: Error, Equatable {
        case negative
        case notWholeMilliseconds
        case tooLarge
    }

    /// The literal (valid JSON number syntax) as milliseconds, at most `limitMs`.
    ///
    /// - Complexity: O(n) in the literal's length; exponents saturate, so
    ///   `1e400` or a 400-digit literal is `tooLarge`, never an overflow.
    package static func milliseconds(fromLiteral literal: String, limitMs: Int64) -> Result<Int64, Problem> {
        var literal = literal
        return literal.withUTF8 { milliseconds(fromLiteral: $0, limitMs: limitMs) }
    }

    /// The same over the literal's bytes, reading them in place.
    static func milliseconds(fromLiteral bytes: UnsafeBufferPointer<UInt8>, limitMs: Int64) -> Result<Int64, Problem> {
        if let ms = plainMilliseconds(bytes) { return ms > limitMs ? .failure(.tooLarge) : .success(ms) }
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        // The significant digits are the integer part, then the fraction.
        let integerStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        let integerCount = i - integerStart
        var fractionStart = i
        var fractionCount = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fractionStart = i
            while i < bytes.count, isDigit(bytes[i]) {
                fractionCount += 1
                i += 1
            }
        }
        func digit(_ k: Int) -> Int64 {
            Int64(k < integerCount ? bytes[integerStart + k] - 48 : bytes[fractionStart + k - integerCount] - 48)
        }
        var exponent = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < bytes.count, isDigit(bytes[i]) {
                // Saturate far beyond any meaningful scale.
                if exponent < 1_000_000_000 { exponent = exponent * 10 + Int(bytes[i] - 48) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // Value = digits × 10^(exponent - fractionCount) seconds
        //       = digits × 10^scale milliseconds.
        var scale = exponent - fractionCount + 3
        var start = 0
        var end = integerCount + fractionCount
        while start < end, digit(start) == 0 { start += 1 }
        if start == end { return .success(0) }  // -0 is zero, not negative
        if negative { return .failure(.negative) }
        while digit(end - 1) == 0 {
            end -= 1
            scale += 1
        }
        // The most significant digit sits at 10^(count - 1 + scale); limits
        // are far below 10^15, so anything from there on is too large.
        if end - start + scale > 15 { return .failure(.tooLarge) }
        if scale < 0 { return .failure(.notWholeMilliseconds) }
        var ms: Int64 = 0
        for k in start..<end { ms = ms * 10 + digit(k) }
        for _ in 0..<scale { ms *= 10 }
        return ms > limitMs ? .failure(.tooLarge) : .success(ms)
    }

    /// The common form, `12.345` (no sign, no exponent, at most 12 digits
    /// before the point and 3 after), as milliseconds in one pass; nil for
    /// any other, which `milliseconds(fromLiteral:limitMs:)` reads in full
    /// (to the same value: below 10^15 ms nothing is too large but by the limit).
    @inline(__always) private static func plainMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var whole: Int64 = 0
        while i < bytes.count, isDigit(bytes[i]) {
            guard i < 12 else { return nil }
            whole = whole * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
            i += 1
        }
        guard i > 0 else { return nil }
        var ms = whole * 1000
        guard i < bytes.count else { return ms }
        guard bytes[i] == UInt8(ascii: "."), bytes.count - i - 1 <= 3 else { return nil }
        var scale: Int64 = 100
        for k in i + 1..<bytes.count {
            guard isDigit(bytes[k]) else { return nil }
            ms += Int64(bytes[k] - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return ms
    }

    /// Milliseconds as the shortest exact decimal seconds: 2500 → `2.5`,
    /// 1 → `0.001`, 3000 → `3`.
    package static func literal(milliseconds ms: Int64) -> String {
        let sign = ms < 0 ? "-" : ""
        let magnitude = ms.magnitude
        let whole = magnitude / 1000
        let fraction = magnitude % 1000
        if fraction == 0 { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return sign + String(whole) + "." + digits
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
