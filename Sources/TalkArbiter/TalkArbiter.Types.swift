import SimClock

extension TalkArbiter {
    /// The arbiter's settings (SPEC 3, `settings`).
    public struct Settings: Sendable, Equatable {
        /// How long the ears stay closed after the last guidance line ends.
        public var earsTail: SimTime
        /// An ordinary line waits for a stretch only if it ends within this.
        public var waitLimit: SimTime
        /// What Pippa does with a stretch that guidance cut.
        public var afterCut: AfterCut

        /// Settings; the defaults are SPEC 3's.
        public init(
            earsTail: SimTime = SimTime(ms: 500), waitLimit: SimTime = SimTime(ms: 3000), afterCut: AfterCut = .repeat
        ) {
            self.earsTail = earsTail
            self.waitLimit = waitLimit
            self.afterCut = afterCut
        }
    }

    /// What Pippa does with a stretch that guidance cut (`after-cut`).
    public enum AfterCut: String, Sendable, Equatable, CaseIterable {
        /// Play the cut stretch again from its start.
        case `repeat`
        /// Go on with the next stretch; after the last, the reply ends.
        case skip
        /// Abandon the whole reply.
        case drop
    }

    /// What the arbiter needs to know of a guidance line.
    public struct Line: Sendable, Equatable {
        /// How long it plays.
        public var duration: SimTime
        /// Whether it cuts Pippa at once (`urgent-cut`) and queues ahead of ordinary lines.
        public var urgent: Bool
        /// The maneuver it announces, numbered by the caller.
        public var maneuver: Int?
        /// A line still pending at this instant is dropped.
        public var expires: SimTime?

        /// A line; `ArbiterTables` refuses a duration that is not above zero.
        public init(duration: SimTime, urgent: Bool = false, maneuver: Int? = nil, expires: SimTime? = nil) {
            self.duration = duration
            self.urgent = urgent
            self.maneuver = maneuver
            self.expires = expires
        }
    }

    /// What the arbiter needs to know of a reply: its stretches, in order.
    public struct Reply: Sendable, Equatable {
        /// Indices into the stretch table; never empty.
        public var stretches: Range<Int>

        /// A reply of the given stretches; `ArbiterTables` refuses an empty or out-of-range one.
        public init(stretches: Range<Int>) {
            self.stretches = stretches
        }
    }

    /// Who cut a stretch.
    public enum Cause: Sendable, Equatable {
        /// A guidance line (by index).
        case line(Int)
        /// One of Dad's utterances (by index).
        case utterance(Int)
    }

    /// What the caller must carry out, in order.
    public enum Action: Sendable, Equatable {
        /// A line waits: for the playing stretch (`short-wait`) or behind guidance (`guidance-queue`).
        case lineWaiting(line: Int, rule: WaitRule, stretch: Int?)
        /// A line starts playing now; the caller reports its end at `endsAt`.
        case lineStarted(line: Int, endsAt: SimTime)
        /// A playing line ended (its `lineEnded` input came).
        case lineEnded(line: Int)
        /// A pending line is dropped (`superseded` or `stale`).
        case lineDropped(line: Int, rule: DropRule)
        /// A reply began while another was active (`reply-queue`).
        case replyQueued(reply: Int)
        /// A reply became active.
        case replyBegan(reply: Int)
        /// A stretch starts playing now; the caller reports its end at `endsAt`.
        /// `held` is how long guidance held it back, if it did.
        case stretchStarted(reply: Int, stretch: Int, endsAt: SimTime, held: SimTime?)
        /// The playing stretch ended (its `stretchEnded` input came at its end).
        case stretchEnded(reply: Int, stretch: Int)
        /// A stretch is cut now; `then` is what follows under `after-cut` when guidance cut it.
        case stretchCut(reply: Int, stretch: Int, rule: CutRule, by: Cause, played: SimTime, then: AfterCut?)
        /// The active reply's last stretch is over.
        case replyEnded(reply: Int)
        /// The active reply is abandoned (`barge-in` or `after-cut`).
        case replyAbandoned(reply: Int, rule: AbandonRule)
        /// The ears closed over this instant (recorded only when they change).
        case earsClosed
        /// The ears opened over this instant (recorded only when they change).
        case earsOpened
        /// Call `earsTimer(at:)` at this instant.
        case wake(at: SimTime)

        /// The rule that caused this action, if one did.
        public var rule: Rule? {
            switch self {
            case .lineWaiting(_, let rule, _): return rule.rule
            case .lineDropped(_, let rule): return rule.rule
            case .stretchCut(_, _, let rule, _, _, _): return rule.rule
            case .replyAbandoned(_, let rule): return rule.rule
            case .replyQueued: return .replyQueue
            case .stretchStarted(_, _, _, let held): return held == nil ? nil : .held
            case .earsClosed: return .earsClosed
            case .lineStarted, .lineEnded, .replyBegan, .stretchEnded, .replyEnded, .earsOpened, .wake:
                return nil
            }
        }
    }
}
