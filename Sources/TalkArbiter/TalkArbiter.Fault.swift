extension TalkArbiter {
    /// Deliberately broken variants of the arbiter, one per rule, for showing
    /// that the fuzzer and the checks have teeth (`drivesim fuzz --mutant`).
    /// A real run never sets one, so they are not public API. Each raw value
    /// is its case's name in kebab case, the name the command line takes.
    package enum Fault: String, Sendable, CaseIterable {
        /// `ears-closed`: the ears reopen 1 ms before the tail has passed.
        case earsEarly = "ears-early"
        /// `urgent-cut`: urgent lines wait for a stretch like ordinary ones.
        case urgentWaits = "urgent-waits"
        /// `short-wait`: the wait limit compared with `<` instead of `≤`.
        case waitLimitStrict = "wait-limit-strict"
        /// `long-cut`: a line waits for a stretch with up to 1 ms over the limit.
        case waitLimitLoose = "wait-limit-loose"
        /// `guidance-queue`: urgent lines queue behind pending ordinary ones.
        case urgentNotAhead = "urgent-not-ahead"
        /// `superseded`: a newer line for the same maneuver drops nothing.
        case supersedingIgnored = "superseding-ignored"
        /// `stale`: expiry is ignored; late lines still play.
        case staleIgnored = "stale-ignored"
        /// `held`: Pippa's next stretch starts while a line plays.
        case heldIgnored = "held-ignored"
        /// `after-cut`: under `repeat`, a cut stretch is skipped instead.
        case repeatSkips = "repeat-skips"
        /// `barge-in`: Dad is ignored while the reply waits for a chunk or is held.
        case bargeInWhilePlayingOnly = "barge-in-while-playing-only"
        /// `reply-queue`: the newest waiting reply goes first.
        case replyQueueLIFO = "reply-queue-lifo"

        /// The rule this fault breaks.
        package var rule: Rule {
            switch self {
            case .earsEarly: return .earsClosed
            case .urgentWaits: return .urgentCut
            case .waitLimitStrict: return .shortWait
            case .waitLimitLoose: return .longCut
            case .urgentNotAhead: return .guidanceQueue
            case .supersedingIgnored: return .superseded
            case .staleIgnored: return .stale
            case .heldIgnored: return .held
            case .repeatSkips: return .afterCut
            case .bargeInWhilePlayingOnly: return .bargeIn
            case .replyQueueLIFO: return .replyQueue
            }
        }
    }
}
