/// The project's own seeded generator (Steele, Lea and Flood's SplitMix64).
/// The same seed gives the same numbers on every machine and toolchain; the
/// range mapping is ours too, so no standard-library change can move a value.
public struct SplitMix64: Sendable, Equatable {
    /// The generator's whole state.
    public private(set) var state: UInt64

    /// A generator started from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (Lemire's multiply-shift with rejection).
    public mutating func below(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        while true {
            let product = next().multipliedFullWidth(by: bound)
            if product.low >= (0 &- bound) % bound { return product.high }
        }
    }

    /// A number in `range`, inclusive.
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if span == 0 { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: below(span))
    }

    /// True with probability `percent` in 100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < UInt64(max(0, percent)) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[Int(below(UInt64(items.count)))] }
}
