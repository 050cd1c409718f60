/// A set of simulated times kept as sorted, disjoint `SimInterval`s: no
/// interval is empty and no two touch (touching ones are coalesced), so two
/// sets holding the same times are equal.
///
/// The set operations walk both sides once, in order: linear in their sizes.
public struct IntervalSet: Hashable, Sendable, CustomStringConvertible {
    /// The intervals, in time order: each is non-empty and ends strictly
    /// before the next starts.
    public private(set) var intervals: [SimInterval] = []

    /// The empty set.
    @inlinable public init() {}

    /// Every time from zero on: `[0, endOfTime)`.
    public static let always = IntervalSet([SimInterval(.zero, .endOfTime)])

    /// The times held by any of `intervals`, in any order, overlapping or not.
    /// - Complexity: O(n log n), O(n) if they are already sorted by start.
    @inlinable public init<S: Sequence>(_ intervals: S) where S.Element == SimInterval {
        // Inlined, so the sequence is copied by code specialised for its type.
        self.init(unsorted: Array(intervals))
    }

    /// The times held by `sorted`, sorted here by start first if they are not.
    @usableFromInline init(unsorted: [SimInterval]) {
        var sorted = unsorted
        if !sorted.indices.dropFirst().allSatisfy({ sorted[$0 - 1].start <= sorted[$0].start }) {
            sorted.sort { $0.start < $1.start }
        }
        for interval in sorted { append(interval) }
    }

    /// Whether it holds no time.
    @inlinable public var isEmpty: Bool { intervals.isEmpty }

    /// The total time held: the sum of the intervals' durations (it traps on
    /// overflow, as for a set holding times up to `Int64.max` ms).
    /// - Complexity: O(n)
    public var measure: SimTime { intervals.reduce(.zero) { $0 + $1.duration } }

    /// The time held within `window`: the measure of the intersection.
    /// - Complexity: O(log n + k), k the intervals that meet the window.
    public func measure(within window: SimInterval) -> SimTime {
        var total = SimTime.zero
        var i = firstIndex(endingAfter: window.start)
        while i < intervals.count, intervals[i].start < window.end {
            if let shared = intervals[i].intersection(window) { total = total + shared.duration }
            i += 1
        }
        return total
    }

    /// Whether `t` is held.
    /// - Complexity: O(log n)
    public func contains(_ t: SimTime) -> Bool {
        let i = firstIndex(endingAfter: t)
        return i < intervals.count && intervals[i].contains(t)
    }

    /// Whether some time of `interval` is held; an empty interval never is.
    /// - Complexity: O(log n)
    public func overlaps(_ interval: SimInterval) -> Bool {
        let i = firstIndex(endingAfter: interval.start)
        return i < intervals.count && intervals[i].overlaps(interval)
    }

    /// Whether the two sets share some time.
    /// - Complexity: O(n + m)
    public func overlaps(_ other: IntervalSet) -> Bool { !intersection(other).isEmpty }

    /// Adds the times of `interval`. Adding at or after the end, as a record
    /// kept in time order does, is O(1) amortized.
    /// - Complexity: O(log n + k) to find and merge the k intervals it meets,
    ///   plus O(n) to make room when it lands before the end.
    public mutating func insert(_ interval: SimInterval) {
        guard !interval.isEmpty else { return }
        guard let last = intervals.last, interval.start <= last.end else {
            intervals.append(interval)
            return
        }
        if interval.start >= last.start {
            intervals[intervals.count - 1].end = max(last.end, interval.end)
            return
        }
        // The intervals it meets or touches: from the first ending at or after
        // its start to the last starting at or before its end.
        var low = 0
        var high = intervals.count
        while low < high {
            let mid = (low + high) / 2
            if intervals[mid].end < interval.start { low = mid + 1 } else { high = mid }
        }
        var upper = low
        while upper < intervals.count, intervals[upper].start <= interval.end { upper += 1 }
        guard upper > low else {
            intervals.insert(interval, at: low)
            return
        }
        let merged = SimInterval(min(interval.start, intervals[low].start), max(interval.end, intervals[upper - 1].end))
        intervals.replaceSubrange(low..<upper, with: CollectionOfOne(merged))
    }

    /// Takes out the times of `interval`, cutting the intervals it meets.
    /// Removing from the last interval on, as a record kept in time order
    /// does, is O(log n) amortized.
    /// - Complexity: O(log n + k) to find the k intervals it meets, plus
    ///   O(n) to close or open a gap before the end.
    public mutating func remove(_ interval: SimInterval) {
        guard !interval.isEmpty else { return }
        let low = firstIndex(endingAfter: interval.start)
        var upper = low
        while upper < intervals.count, intervals[upper].start < interval.end { upper += 1 }
        guard upper > low else { return }
        let first = intervals[low]
        let last = intervals[upper - 1]
        let before = first.start < interval.start ? SimInterval(first.start, interval.start) : nil
        let after = last.end > interval.end ? SimInterval(interval.end, last.end) : nil
        switch (before, after) {
        case (let before?, let after?) where upper - low == 1:
            intervals[low] = before
            intervals.insert(after, at: low + 1)
        case (let before?, _):
            intervals[low] = before
            intervals.removeSubrange(low + 1..<upper)
            if let after { intervals.insert(after, at: low + 1) }
        case (nil, let after?):
            intervals[upper - 1] = after
            intervals.removeSubrange(low..<upper - 1)
        case (nil, nil):
            intervals.removeSubrange(low..<upper)
        }
    }

    /// The times held by this set and not by `other`.
    /// - Complexity: O(n + m)
    public func subtracting(_ other: IntervalSet) -> IntervalSet {
        var out = IntervalSet()
        var j = 0
        for interval in intervals {
            var from = interval.start
            while j < other.intervals.count, other.intervals[j].end <= from { j += 1 }
            var k = j
            while k < other.intervals.count, other.intervals[k].start < interval.end {
                if other.intervals[k].start > from { out.intervals.append(SimInterval(from, other.intervals[k].start)) }
                from = max(from, other.intervals[k].end)
                k += 1
            }
            if from < interval.end { out.intervals.append(SimInterval(from, interval.end)) }
        }
        return out
    }

    /// The times held by either set.
    /// - Complexity: O(n + m)
    public func union(_ other: IntervalSet) -> IntervalSet {
        var out = IntervalSet()
        out.intervals.reserveCapacity(intervals.count + other.intervals.count)
        var i = 0
        var j = 0
        while i < intervals.count || j < other.intervals.count {
            if j == other.intervals.count || i < intervals.count && intervals[i].start <= other.intervals[j].start {
                out.append(intervals[i])
                i += 1
            } else {
                out.append(other.intervals[j])
                j += 1
            }
        }
        return out
    }

    /// The times held by both sets.
    /// - Complexity: O(n + m)
    public func intersection(_ other: IntervalSet) -> IntervalSet {
        var out = IntervalSet()
        var i = 0
        var j = 0
        while i < intervals.count, j < other.intervals.count {
            let a = intervals[i]
            let b = other.intervals[j]
            // Disjoint, non-touching inputs give disjoint, non-touching pieces.
            if let shared = a.intersection(b) { out.intervals.append(shared) }
            if a.end <= b.end { i += 1 } else { j += 1 }
        }
        return out
    }

    /// The times held by this set within `window`.
    /// - Complexity: O(log n + k), k the intervals that meet the window.
    public func intersection(_ window: SimInterval) -> IntervalSet {
        var out = IntervalSet()
        var i = firstIndex(endingAfter: window.start)
        while i < intervals.count, intervals[i].start < window.end {
            if let shared = intervals[i].intersection(window) { out.intervals.append(shared) }
            i += 1
        }
        return out
    }

    /// The intervals, in time order.
    public var description: String { "{" + intervals.map(\.description).joined(separator: ", ") + "}" }

    /// Adds an interval that starts at or after the last one's start.
    /// - Complexity: O(1) amortized
    mutating func append(_ interval: SimInterval) {
        guard !interval.isEmpty else { return }
        if let last = intervals.last, interval.start <= last.end {
            precondition(interval.start >= last.start, "append out of order")
            intervals[intervals.count - 1].end = max(last.end, interval.end)
        } else {
            intervals.append(interval)
        }
    }

    /// The index of the first interval that ends after `t` (binary search).
    func firstIndex(endingAfter t: SimTime) -> Int {
        var low = 0
        var high = intervals.count
        while low < high {
            let mid = (low + high) / 2
            if intervals[mid].end <= t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
