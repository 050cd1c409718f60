extension TalkArbiter {
    /// The rules one kind of action can carry, a part of `Rule` (SPEC 5): an
    /// action's payload takes only these, so a rule that does not fit its
    /// action cannot be written. `rule` gives the timeline's vocabulary back.
    public protocol ActionRule: Sendable, Hashable, CaseIterable {
        /// The rule, in the timeline's vocabulary.
        var rule: Rule { get }
    }

    /// The rules of `lineWaiting`, in the SPEC's order.
    public enum WaitRule: ActionRule {
        /// `short-wait`: the line waits for the playing stretch.
        case shortWait
        /// `guidance-queue`: the line queues behind guidance that plays or waits.
        case guidanceQueue

        /// The rule, in the timeline's vocabulary.
        public var rule: Rule {
            switch self {
            case .shortWait: return .shortWait
            case .guidanceQueue: return .guidanceQueue
            }
        }
    }

    /// The rules of `lineDropped`, in the SPEC's order.
    public enum DropRule: ActionRule {
        /// `superseded`: a newer line for the same maneuver came.
        case superseded
        /// `stale`: the line expired while pending.
        case stale

        /// The rule, in the timeline's vocabulary.
        public var rule: Rule {
            switch self {
            case .superseded: return .superseded
            case .stale: return .stale
            }
        }
    }

    /// The rules of `stretchCut`, in the SPEC's order.
    public enum CutRule: ActionRule {
        /// `urgent-cut`: an urgent line cuts at once.
        case urgentCut
        /// `long-cut`: an ordinary line cuts a stretch with more than `waitLimit` left.
        case longCut
        /// `barge-in`: Dad, heard, cuts the stretch.
        case bargeIn

        /// The rule, in the timeline's vocabulary.
        public var rule: Rule {
            switch self {
            case .urgentCut: return .urgentCut
            case .longCut: return .longCut
            case .bargeIn: return .bargeIn
            }
        }
    }

    /// The rules of `replyAbandoned`, in the SPEC's order.
    public enum AbandonRule: ActionRule {
        /// `after-cut` under `drop`: the reply goes with its cut stretch.
        case afterCut
        /// `barge-in`: Dad, heard, abandons the active reply.
        case bargeIn

        /// The rule, in the timeline's vocabulary.
        public var rule: Rule {
            switch self {
            case .afterCut: return .afterCut
            case .bargeIn: return .bargeIn
            }
        }
    }
}

extension TalkArbiter.ActionRule {
    /// The case that is `rule`; nil if this kind of action cannot carry it.
    public init?(_ rule: Rule) {
        guard let fitting = Self.allCases.first(where: { $0.rule == rule }) else { return nil }
        self = fitting
    }
}
