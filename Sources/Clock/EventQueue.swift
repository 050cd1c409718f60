/// A priority queue of scheduled events, ordered by time, then by phase (the
/// fixed order of kinds within one instant), then by the order in which they
/// were scheduled. The order never depends on hashing or on the payload.
///
/// A 4-ary min-heap (half the depth of a binary one, and a node's children
/// share a cache line or two); the payload is generic so road events and
/// talk events can share one queue.
public struct EventQueue<Event> {
    /// One scheduled event with its full ordering key.
    public struct Entry {
        /// When the event is due.
        public let time: SimTime
        /// Phase in the top byte, scheduling order below: compares like the pair.
        @usableFromInline let rank: UInt64
        /// The event itself.
        public let event: Event

        @inlinable init(time: SimTime, rank: UInt64, event: Event) {
            self.time = time; self.rank = rank; self.event = event
        }

        /// Its kind's place within an instant; lower runs first.
        @inlinable public var phase: UInt8 { UInt8(truncatingIfNeeded: rank >> 56) }
        /// Scheduling order: breaks every remaining tie.
        @inlinable public var sequence: UInt64 { rank & (1 << 56 - 1) }

        @inlinable func precedes(_ other: Entry) -> Bool {
            time.ms != other.time.ms ? time.ms < other.time.ms : rank < other.rank
        }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty queue.
    @inlinable public init() {}

    /// The number of pending events.
    @inlinable public var count: Int { heap.count }
    /// Whether nothing is pending.
    @inlinable public var isEmpty: Bool { heap.isEmpty }
    /// The earliest pending entry, if any.
    @inlinable public var first: Entry? { heap.first }

    /// Reserves room for `n` pending events.
    @inlinable public mutating func reserveCapacity(_ n: Int) { heap.reserveCapacity(n) }

    /// Schedules `event` at `time` in `phase`, after everything scheduled
    /// before it with the same time and phase.
    /// - Complexity: O(log n)
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime, phase: UInt8 = 0) {
        precondition(nextSequence < 1 << 56, "event sequence exhausted")
        heap.append(Entry(time: time, rank: UInt64(phase) << 56 | nextSequence, event: event))
        nextSequence &+= 1
        heap.withUnsafeMutableBufferPointer { heap in
            let entry = heap[heap.count - 1]
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 4
                guard entry.precedes(heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = entry
        }
    }

    /// Removes and returns the earliest entry.
    ///
    /// Floyd's variant: the hole at the root goes down to a leaf along the
    /// smallest children, then the last entry rises
    /// from there, which is short because it usually belongs near the bottom.
    /// - Complexity: O(log n)
    @inlinable public mutating func popFirst() -> Entry? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        return heap.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            let count = heap.count
            var hole = 0
            while true {
                let first = 4 * hole + 1
                guard first < count else { break }
                var child = first
                for other in first + 1..<min(first + 4, count) where heap[other].precedes(heap[child]) { child = other }
                heap[hole] = heap[child]
                hole = child
            }
            while hole > 0 {
                let parent = (hole - 1) / 4
                guard last.precedes(heap[parent]) else { break }
                heap[hole] = heap[parent]
                hole = parent
            }
            heap[hole] = last
            return top
        }
    }
}

extension EventQueue: Sendable where Event: Sendable {}
extension EventQueue.Entry: Sendable where Event: Sendable {}
