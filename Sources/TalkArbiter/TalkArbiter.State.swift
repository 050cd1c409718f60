import SimClock

// The arbiter's state, one sub-state per concern (SPEC 4.1), shaped so that
// what cannot happen cannot be written: a playing stretch always belongs to the
// active reply, a held reply has a time it is held since, closed ears have no
// reopen time. Internal, not private, so that the tests can build a state that
// should not exist and see `inconsistencies(at:endOfInstant:)` name it.

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
    /// class first come first served. A line waits in one queue at most, so
    /// the lines are linked through the arbiter's `queueLinks` table and a
    /// queue is just its two ends: no allocation, and a plain value to copy.
    struct PendingLines: Sendable, Equatable {
        var urgent = LineQueue()
        var ordinary = LineQueue()

        var isEmpty: Bool { urgent.first == nil && ordinary.first == nil }
    }

    /// The ends of one class of pending lines.
    struct LineQueue: Sendable, Equatable {
        var first: Int?
        var last: Int?
    }

    /// A pending line's neighbours in its queue.
    struct QueueLink: Sendable, Equatable {
        var previous: Int?
        var next: Int?
    }

    /// A first-in first-out queue of replies; popping is O(1).
    struct ReplyQueue: Sendable, Equatable {
        private var items: [Int] = []
        private var head = 0

        var isEmpty: Bool { head == items.count }

        mutating func append(_ item: Int) { items.append(item) }

        mutating func popFirst() -> Int? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return item
        }

        /// Removes the newest item (the `reply-queue-lifo` mutant's order).
        mutating func popLast() -> Int? {
            guard head < items.count else { return nil }
            return items.removeLast()
        }

        static func == (a: ReplyQueue, b: ReplyQueue) -> Bool { a.items[a.head...].elementsEqual(b.items[b.head...]) }
    }
}
