/// A priority queue of scheduled events, ordered by time, then by phase (the
/// fixed order of kinds within one instant), then by the order in which they
/// were scheduled. The order never depends on hashing or on the payload.
///
/// A binary min-heap; the payload is generic so road events and talk events
/// can share one queue.
public struct EventQueue<Event> {
    /// One scheduled event with its full ordering key.
    public struct Entry {
        /// When the event is due.
        public let time: SimTime
        /// Its kind's place within an instant; lower runs first.
        public let phase: UInt8
        /// Scheduling order: breaks every remaining tie.
        public let sequence: UInt64
        /// The event itself.
        public let event: Event

        @inlinable init(time: SimTime, phase: UInt8, sequence: UInt64, event: Event) {
            self.time = time; self.phase = phase; self.sequence = sequence; self.event = event
        }

        /// Phase and sequence packed in one word: compares like the pair.
        @inlinable var rank: UInt64 { UInt64(phase) << 56 | sequence }

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
        let entry = Entry(time: time, phase: phase, sequence: nextSequence, event: event)
        nextSequence &+= 1
        heap.append(entry)
        siftUp(heap.count - 1)
    }

    /// Removes and returns the earliest entry.
    /// - Complexity: O(log n)
    @inlinable public mutating func popFirst() -> Entry? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        heap[0] = last
        siftDown(0)
        return top
    }

    @inlinable mutating func siftUp(_ start: Int) {
        var child = start
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    @inlinable mutating func siftDown(_ start: Int) {
        var parent = start
        let entry = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, heap[child + 1].precedes(heap[child]) { child += 1 }
            guard heap[child].precedes(entry) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}

extension EventQueue: Sendable where Event: Sendable {}
extension EventQueue.Entry: Sendable where Event: Sendable {}
