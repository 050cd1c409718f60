/// The timeline's vocabulary (SPEC 5): every event name and the fields it may
/// carry. The first fields are the SPEC's; the rest are extras drivesim adds
/// (a line's text, how long a stretch was held).
public enum EventKind: String, Sendable, CaseIterable {
    case guidanceRequested = "guidance.requested"
    case guidanceWaiting = "guidance.waiting"
    case guidanceStarted = "guidance.started"
    case guidanceEnded = "guidance.ended"
    case guidanceDropped = "guidance.dropped"
    case replyQueued = "talk.reply.queued"
    case replyBegan = "talk.reply.began"
    case stretchStarted = "talk.stretch.started"
    case stretchEnded = "talk.stretch.ended"
    case stretchCut = "talk.stretch.cut"
    case replyEnded = "talk.reply.ended"
    case replyAbandoned = "talk.reply.abandoned"
    case earsClosed = "ears.closed"
    case earsOpened = "ears.opened"
    case dadStarted = "dad.started"
    case dadEnded = "dad.ended"

    /// The fields an event of this kind may carry, besides `t` and `event`.
    public var fields: [String] {
        switch self {
        case .guidanceRequested: return ["line", "urgent", "maneuver", "text", "language"]
        case .guidanceWaiting: return ["line", "rule", "stretch"]
        case .guidanceStarted: return ["line", "text", "language"]
        case .guidanceEnded: return ["line"]
        case .guidanceDropped: return ["line", "rule"]
        case .replyQueued: return ["reply", "rule"]
        case .replyBegan: return ["reply"]
        case .stretchStarted: return ["reply", "stretch", "rule", "heldMs", "text", "language"]
        case .stretchEnded: return ["reply", "stretch"]
        case .stretchCut: return ["reply", "stretch", "rule", "by", "playedMs", "afterCut"]
        case .replyEnded: return ["reply"]
        case .replyAbandoned: return ["reply", "rule"]
        case .earsClosed: return ["rule"]
        case .earsOpened: return []
        case .dadStarted: return ["utterance", "language", "text"]
        case .dadEnded: return ["utterance", "heardMs", "lostMs"]
        }
    }

    /// Fields whose values are integers (milliseconds); the rest are strings,
    /// but for `urgent`, which is a boolean.
    public static let integerFields: Set<String> = ["playedMs", "heardMs", "lostMs", "heldMs"]
}
