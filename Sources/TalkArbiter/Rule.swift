/// The arbiter's rules (SPEC 4.1). Raw values are the SPEC's names, so code,
/// docs and timeline share one vocabulary.
public enum Rule: String, Sendable, CaseIterable, Comparable {
    case earsClosed = "ears-closed"
    case urgentCut = "urgent-cut"
    case shortWait = "short-wait"
    case longCut = "long-cut"
    case guidanceQueue = "guidance-queue"
    case superseded
    case stale
    case held
    case afterCut = "after-cut"
    case bargeIn = "barge-in"
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
