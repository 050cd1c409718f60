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
    public static func < (a: Rule, b: Rule) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
