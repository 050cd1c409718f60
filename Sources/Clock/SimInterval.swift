/// A half-open stretch of simulated time, `[start, end)`: it holds `start`
/// and not `end`, so two intervals that touch (one ends where the next
/// begins) do not overlap. This is how the bus and the checks read a voice
/// that stops in the millisecond another starts.
public struct SimInterval: Hashable, Sendable, CustomStringConvertible {
    /// The first millisecond inside.
    public var start: SimTime
    /// The first millisecond after; never before `start`.
    public var end: SimTime

    /// The interval `[start, end)`; `end` must not be before `start`.
    @inlinable public init(_ start: SimTime, _ end: SimTime) {
        precondition(start <= end, "interval ends before it starts: \(start) > \(end)")
        self.start = start
        self.end = end
    }

    /// How long it lasts.
    @inlinable public var duration: SimTime { end - start }
    /// Whether it holds no time at all (`start == end`).
    @inlinable public var isEmpty: Bool { start == end }

    /// Whether `t` is inside: `start <= t < end`.
    /// - Complexity: O(1)
    @inlinable public func contains(_ t: SimTime) -> Bool { start <= t && t < end }

    /// Whether the two share some time; touching and empty intervals do not.
    /// - Complexity: O(1)
    @inlinable public func overlaps(_ other: SimInterval) -> Bool {
        max(start, other.start) < min(end, other.end)
    }

    /// The time both share, or nil if they share none.
    /// - Complexity: O(1)
    @inlinable public func intersection(_ other: SimInterval) -> SimInterval? {
        let from = max(start, other.start)
        let to = min(end, other.end)
        return from < to ? SimInterval(from, to) : nil
    }

    /// `[start, end)` in the timeline's time format.
    public var description: String { "[\(start), \(end))" }
}

extension SimTime {
    /// The last representable time (`Int64.max` ms): the end of an interval
    /// that is open until further notice.
    public static let endOfTime = SimTime(ms: .max)
}
