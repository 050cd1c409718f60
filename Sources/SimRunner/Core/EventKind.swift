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
    // The road (docs/timeline.md, road part).
    case roadFixArrived = "road.fix.arrived"
    case roadFixDropped = "road.fix.dropped"
    case roadReportSent = "road.report.sent"
    case roadReportDelivered = "road.report.delivered"
    case roadReportDropped = "road.report.dropped"
    case roadOffRoute = "road.off-route"
    case roadOnRoute = "road.on-route"
    case roadTurnUpcoming = "road.turn.upcoming"
    case roadTurnPassed = "road.turn.passed"
    case roadTurnUnannounced = "road.turn.unannounced"
    case roadStageSkipped = "road.stage.skipped"
    case roadMeasuringPaused = "road.measuring.paused"
    case roadMeasuringResumed = "road.measuring.resumed"
    case roadSegmentStarted = "road.segment.started"
    case roadSegmentEnded = "road.segment.ended"

    /// The fields an event of this kind may carry, besides `t` and `event`.
    public var fields: [String] {
        switch self {
        case .guidanceRequested: return ["line", "urgent", "maneuver", "stage", "text", "language"]
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
        case .roadFixArrived: return ["fix", "ageMs", "trusted"]
        case .roadFixDropped, .roadReportDropped: return ["fix", "reason"]
        case .roadReportSent: return ["fix", "reporter", "ageMs", "onRoute", "maneuver", "distanceM"]
        case .roadReportDelivered: return ["fix"]
        case .roadOffRoute: return ["offsetM"]
        case .roadOnRoute: return ["progressM"]
        case .roadTurnUpcoming: return ["maneuver", "turn", "distanceM", "etaMs", "after", "afterDistanceM"]
        case .roadTurnPassed: return ["maneuver"]
        case .roadTurnUnannounced: return ["maneuver", "reason"]
        case .roadStageSkipped: return ["maneuver", "stage", "reason"]
        case .roadMeasuringPaused: return ["reason"]
        case .roadMeasuringResumed, .roadSegmentStarted, .roadSegmentEnded: return []
        }
    }

    /// Fields whose values are integers (milliseconds); the rest are strings,
    /// but for `urgent`, which is a boolean.
    public static let integerFields: Set<String> = [
        "playedMs", "heardMs", "lostMs", "heldMs", "ageMs", "etaMs", "distanceM", "afterDistanceM", "offsetM", "progressM",
    ]
    /// Fields whose values are booleans.
    public static let booleanFields: Set<String> = ["urgent", "trusted", "onRoute"]

    /// Whether the event is the road's (its subject indexes the roster's road records).
    public var isRoad: Bool {
        switch self {
        case .roadFixArrived, .roadFixDropped, .roadReportSent, .roadReportDelivered, .roadReportDropped, .roadOffRoute,
            .roadOnRoute, .roadTurnUpcoming, .roadTurnPassed, .roadTurnUnannounced, .roadStageSkipped, .roadMeasuringPaused,
            .roadMeasuringResumed, .roadSegmentStarted, .roadSegmentEnded:
            return true
        default:
            return false
        }
    }
}
