/// The arbiter's rules (SPEC 4.1). Raw values are the SPEC's names, so code,
/// docs and timeline share one vocabulary.
public enum Rule: String, Sendable, CaseIterable, Comparable {
    /// A guidance line closes the talk's ears until `earsTail` after it.
    case earsClosed = "ears-closed"
    /// An urgent line cuts the playing stretch at once.
    case urgentCut = "urgent-cut"
    /// An ordinary line waits for a stretch with at most `waitLimit` left.
    case shortWait = "short-wait"
    /// An ordinary line cuts a stretch with more than `waitLimit` left.
    case longCut = "long-cut"
    /// A line queues behind guidance that plays or waits; urgent lines first.
    case guidanceQueue = "guidance-queue"
    /// A newer line for the same maneuver drops a pending one.
    case superseded
    /// A pending line is dropped at its `expires` instant.
    case stale
    /// Pippa's next stretch waits while guidance plays or is pending.
    case held
    /// What follows a stretch that guidance cut: repeat, skip or drop.
    case afterCut = "after-cut"
    /// Dad, heard, cuts the stretch and abandons the active reply.
    case bargeIn = "barge-in"
    /// A reply that begins while another is active waits its turn.
    case replyQueue = "reply-queue"

    /// Table order of the SPEC.
    public static func < (a: Rule, b: Rule) -> Bool { a.index < b.index }

    /// The rule's place in `allCases`, the SPEC's table order.
    public var index: Int {
        switch self {
        case .earsClosed: return 0
        case .urgentCut: return 1
        case .shortWait: return 2
        case .longCut: return 3
        case .guidanceQueue: return 4
        case .superseded: return 5
        case .stale: return 6
        case .held: return 7
        case .afterCut: return 8
        case .bargeIn: return 9
        case .replyQueue: return 10
        }
    }
}
