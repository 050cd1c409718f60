/// A priority queue of scheduled events, ordered by time, then by phase (the
/// fixed order of kinds within one instant), then by the order in which they
/// were scheduled. The order never depends on hashing or on the payload.
///
/// Two sources merged by that order: the *agenda*, everything scheduled
/// before the first event is taken, sorted once (a scenario's whole file);
/// and a 4-ary min-heap for what is scheduled while running (half the depth
/// of a binary heap, a node's children side by side). The order is total, so
/// the merge gives exactly what one heap would. The payload is generic so
/// road events and talk events can share one queue.
public struct EventQueue<Event> {
    /// One scheduled event with its full ordering key.
    public struct Entry {
        /// The whole order in one number, compared in one go: the time (its
        /// sign bit flipped, so negative times sort first) in the high word;
        /// the phase in the top byte of the low word, the sequence below.
        @usableFromInline let key: UInt128
        /// The event itself.
        public let event: Event

        @inlinable init(time: SimTime, phase: UInt8, sequence: UInt64, event: Event) {
            let high = UInt64(bitPattern: time.ms) ^ (1 << 63)
            key = UInt128(high) << 64 | UInt128(UInt64(phase) << 56 | sequence)
            self.event = event
        }

        /// When the event is due.
        @inlinable public var time: SimTime {
            SimTime(ms: Int64(bitPattern: UInt64(truncatingIfNeeded: key >> 64) ^ (1 << 63)))
        }
        /// Its kind's place within an instant; lower runs first.
        @inlinable public var phase: UInt8 { UInt8(truncatingIfNeeded: key >> 56) }
        /// Scheduling order: breaks every remaining tie.
        @inlinable public var sequence: UInt64 { UInt64(truncatingIfNeeded: key) & (1 << 56 - 1) }

        @inlinable func precedes(_ other: Entry) -> Bool { key < other.key }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var agenda: [Entry] = []
    @usableFromInline var agendaStart = 0
    @usableFromInline var agendaSorted = true
    /// Whether an event has been taken: from then on, new events go to the heap.
    @usableFromInline var running = false
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty queue.
    @inlinable public init() {}

    /// The number of pending events.
    @inlinable public var count: Int { heap.count + agenda.count - agendaStart }
    /// Whether nothing is pending.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// The earliest pending entry, if any, left in the queue.
    /// - Complexity: O(1), but for the first call, which sorts the agenda.
    @inlinable public mutating func first() -> Entry? {
        startRunning()
        guard agendaStart < agenda.count else { return heap.first }
        guard let top = heap.first else { return agenda[agendaStart] }
        return top.precedes(agenda[agendaStart]) ? top : agenda[agendaStart]
    }

    /// Appends to `out` every pending event due at `time`, in the order they
    /// will be taken (what is scheduled meanwhile aside). Call only once
    /// `first()` has been asked (the agenda is sorted then).
    /// - Complexity: O(n) over the heap, plus sorting what is due.
    package func events(dueAt time: SimTime, into out: inout [Entry]) {
        let start = out.count
        var i = agendaStart
        while i < agenda.count, agenda[i].time == time {
            out.append(agenda[i])
            i += 1
        }
        let fromAgenda = out.count
        for entry in heap where entry.time == time { out.append(entry) }
        if out.count > fromAgenda { out[start...].sort { $0.precedes($1) } }
    }

    /// Reserves room for `n` pending events.
    @inlinable public mutating func reserveCapacity(_ n: Int) {
        if running { heap.reserveCapacity(n) } else { agenda.reserveCapacity(n) }
    }

    @inlinable mutating func startRunning() {
        guard !running else { return }
        running = true
        if !agendaSorted { agenda.sort { $0.precedes($1) } }
    }

    /// Schedules `event` at `time` in `phase`, after everything scheduled
    /// before it with the same time and phase.
    /// - Complexity: O(log n)
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime, phase: UInt8 = 0) {
        precondition(nextSequence < 1 << 56, "event sequence exhausted")
        let entry = Entry(time: time, phase: phase, sequence: nextSequence, event: event)
        nextSequence &+= 1
        guard running else {
            if let last = agenda.last, entry.precedes(last) { agendaSorted = false }
            agenda.append(entry)
            return
        }
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer {
            Self.siftUp(entry, from: $0.count &- 1, in: $0.baseAddress.unsafelyUnwrapped)
        }
    }

    /// Puts `entry` in the hole at `start` or above it, moving down the parents it precedes.
    ///
    /// The index arithmetic wraps and divides by shifting: indices are never
    /// negative, and checked arithmetic with a signed division showed in the
    /// hold model's profile.
    @inlinable static func siftUp(_ entry: Entry, from start: Int, in heap: UnsafeMutablePointer<Entry>) {
        var hole = start
        while hole > 0 {
            let parent = (hole &- 1) >> 2
            guard entry.precedes(heap[parent]) else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = entry
    }

    /// Removes and returns the earliest entry.
    /// - Complexity: O(1) from the agenda, O(log n) from the heap.
    @inlinable public mutating func popFirst() -> Entry? {
        startRunning()
        if agendaStart < agenda.count, heap.first.map({ !$0.precedes(agenda[agendaStart]) }) ?? true {
            agendaStart += 1
            let entry = agenda[agendaStart - 1]
            if agendaStart == agenda.count {
                agenda = []
                agendaStart = 0
            }
            return entry
        }
        return popHeap()
    }

    /// The heap's pop, Floyd's variant: the hole at the root goes down to a
    /// leaf along the smallest children, then the last entry rises from
    /// there, which is short because it usually belongs near the bottom.
    @inlinable mutating func popHeap() -> Entry? {
        guard let last = heap.popLast() else { return nil }
        let count = heap.count
        guard count > 0 else { return last }
        return heap.withUnsafeMutableBufferPointer { buffer in
            let heap = buffer.baseAddress.unsafelyUnwrapped
            let top = heap[0]
            var hole = 0
            while true {
                let first = 4 &* hole &+ 1
                guard first < count else { break }
                let child =
                    first &+ 3 < count
                    ? Self.earliestOfFour(from: first, in: heap) : Self.earliest(from: first, to: count, in: heap)
                heap[hole] = heap[child]
                hole = child
            }
            Self.siftUp(last, from: hole, in: heap)
            return top
        }
    }

    /// The index of the earliest of the four siblings from `first`, as a
    /// tournament of independent comparisons (keys are unique: no ties).
    @inlinable static func earliestOfFour(from first: Int, in heap: UnsafeMutablePointer<Entry>) -> Int {
        let a = heap[first].precedes(heap[first &+ 1]) ? first : first &+ 1
        let b = heap[first &+ 2].precedes(heap[first &+ 3]) ? first &+ 2 : first &+ 3
        return heap[a].precedes(heap[b]) ? a : b
    }

    /// The index of the earliest entry in `first..<end`, which is not empty.
    @inlinable static func earliest(from first: Int, to end: Int, in heap: UnsafeMutablePointer<Entry>) -> Int {
        var child = first
        var other = first &+ 1
        while other < end {
            if heap[other].precedes(heap[child]) { child = other }
            other &+= 1
        }
        return child
    }
}

extension EventQueue: Sendable where Event: Sendable {}
extension EventQueue.Entry: Sendable where Event: Sendable {}
