import SimClock

/// A half-open span of simulated time, `[from, to)`.
public struct TimeWindow: Sendable, Equatable {
    /// Its first instant (inclusive).
    public var from: SimTime
    /// Its end (exclusive), after `from`.
    public var to: SimTime

    /// The window `[from, to)`.
    public init(from: SimTime, to: SimTime) { self.from = from; self.to = to }

    /// Whether `t` lies inside.
    @inlinable public func contains(_ t: SimTime) -> Bool { from <= t && t < to }
}

extension Array where Element == TimeWindow {
    /// Whether any window holds `t`.
    @inlinable public func holds(_ t: SimTime) -> Bool { contains { $0.contains(t) } }
}
