/// A measured value in words that never reads as the limit it broke
/// (issue 49: 15.6 m was printed "15 m … must be within 15 m").
package enum MeasuredValue {
    /// `value` rounded to the fewest decimals (none to six) that keep it on
    /// its side of `limit`: 15.6 beyond 15 is 16, 15.4 is 15.4, 500.04
    /// beyond 500 is 500.04, 3.58 below 3.6 is 3.58, 27.8 beyond 24 is 28.
    /// A value within a millionth of the limit, or too large for whole
    /// digits, is returned as it is.
    package static func rounded(_ value: Double, beyond limit: Double) -> Double {
        guard value.isFinite, abs(value) < 1e12, value != limit else { return value }
        var scale = 1.0
        for _ in 0...6 {
            let r = (value * scale).rounded() / scale
            if value > limit ? r > limit : r < limit { return r }
            scale *= 10
        }
        return value
    }

    /// `rounded(_:beyond:)` in words: "16", "15.4", "500.04".
    package static func text(_ value: Double, beyond limit: Double) -> String { plain(rounded(value, beyond: limit)) }

    /// A number as written: a whole one without decimals ("600", not "600.0"), any other in Swift's shortest exact form.
    package static func plain(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
    }
}
