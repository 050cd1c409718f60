import SimClock

// The arbiter's state, one sub-state per concern (SPEC 4.1), shaped so that
// what cannot happen cannot be written: a playing stretch always belongs to the
// active reply, a held reply has a time it is held since, closed ears have no
// reopen time. Internal, not private, so that the tests can build a state that
// should not exist and see `inconsistencies(at:)` name it.

extension TalkArbiter {
    /// Pippa's side: the active reply and what its next stretch is doing.
    enum TalkState: Sendable, Equatable {
        /// No reply is active.
        case idle
        /// A reply is active and `next` has not started: its chunk is not
        /// ready yet, or it starts in this instant's settle step.
        case waiting(reply: Int, next: Int)
        /// A reply is active, `next`'s chunk is ready, and guidance has held it
        /// back since `since` (`held`).
        case held(reply: Int, next: Int, since: SimTime)
        /// A stretch of the active reply plays over `start..<end`.
        case playing(reply: Int, stretch: Int, start: SimTime, end: SimTime)

        /// The active reply, if any.
        var activeReply: Int? {
            switch self {
            case .idle: return nil
            case .waiting(let reply, _), .held(let reply, _, _), .playing(let reply, _, _, _): return reply
            }
        }

        /// The active reply and its next stretch, when no stretch plays.
        var notPlaying: (reply: Int, next: Int)? {
            switch self {
            case .waiting(let reply, let next), .held(let reply, let next, _): return (reply, next)
            case .idle, .playing: return nil
            }
        }

        var isPlaying: Bool {
            switch self {
            case .playing: return true
            case .idle, .waiting, .held: return false
            }
        }
    }

    /// The guidance player and the lines that wait for it.
    enum GuidanceState: Sendable, Equatable {
        /// Nothing plays, nothing is pending.
        case idle
        /// `line` plays; `queue` (maybe empty) waits behind it (`guidance-queue`).
        case playing(line: Int, queue: PendingLines)
        /// Nothing plays and `queue` (never empty) waits: for the playing
        /// stretch (`short-wait`), or to start in the settle step.
        case pending(PendingLines)

        /// Whether a line plays or is pending: the bus is not Pippa's.
        var isBusy: Bool {
            switch self {
            case .idle: return false
            case .playing, .pending: return true
            }
        }

        var hasPendingLines: Bool {
            switch self {
            case .idle: return false
            case .playing(_, let queue): return !queue.isEmpty
            case .pending(let queue): return !queue.isEmpty
            }
        }
    }

    /// The talk's ears (`ears-closed`). Whether they are open at an instant
    /// follows from this and the time; what was last recorded is kept apart.
    enum EarsState: Sendable, Equatable {
        case open
        /// A guidance line plays.
        case closed
        /// The last line ended; the ears reopen at `until`.
        case tail(until: SimTime)

        func isOpen(at now: SimTime) -> Bool {
            switch self {
            case .open: return true
            case .closed: return false
            case .tail(let until): return now >= until
            }
        }
    }

    /// Pending guidance lines in the order they will start: urgent first, each
    /// class first come first served.
    struct PendingLines: Sendable, Equatable {
        var urgent = IndexQueue()
        var ordinary = IndexQueue()

        var isEmpty: Bool { urgent.isEmpty && ordinary.isEmpty }

        /// The next line to start, removed.
        mutating func popFirst() -> Int? { urgent.popFirst() ?? ordinary.popFirst() }

        mutating func remove(_ line: Int) {
            urgent.remove(line)
            ordinary.remove(line)
        }

        /// Removes the lines that match, urgent ones first, each class in
        /// order, and returns them in that order.
        mutating func removeAll(where match: (Int) -> Bool) -> [Int] {
            urgent.removeAll(where: match) + ordinary.removeAll(where: match)
        }
    }

    /// A first-in first-out queue of indices (lines or replies); popping is O(1).
    struct IndexQueue: Sendable, Equatable {
        private var items: [Int] = []
        private var head = 0

        var isEmpty: Bool { head == items.count }
        var lines: ArraySlice<Int> { items[head...] }

        mutating func append(_ item: Int) { items.append(item) }

        mutating func popFirst() -> Int? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
            return item
        }

        /// Removes the newest item (the `reply-queue-lifo` mutant's order).
        mutating func popLast() -> Int? {
            guard head < items.count else { return nil }
            return items.removeLast()
        }

        mutating func remove(_ item: Int) {
            guard let i = items[head...].firstIndex(of: item) else { return }
            items.remove(at: i)
        }

        mutating func removeAll(where match: (Int) -> Bool) -> [Int] {
            var removed: [Int] = []
            var i = head
            while i < items.count {
                if match(items[i]) { removed.append(items.remove(at: i)) } else { i += 1 }
            }
            return removed
        }

        static func == (a: IndexQueue, b: IndexQueue) -> Bool { a.lines.elementsEqual(b.lines) }
    }

    /// Where a guidance line is in its life.
    enum LineProgress: Sendable {
        case idle, pending, playing, done
    }
}
