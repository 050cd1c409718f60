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
    case roadRouteRequested = "road.route.requested"
    case roadRouteFailed = "road.route.failed"
    case roadRouteSwitched = "road.route.switched"
    case roadRouteKept = "road.route.kept"
    case roadHandoffDelivered = "road.handoff.delivered"
    case roadHandoffTaken = "road.handoff.taken"
    case roadHandoffIgnored = "road.handoff.ignored"
    case roadHandoffAcknowledged = "road.handoff.acked"
    case roadSwitchSkipped = "road.switch.skipped"

    /// The one table of the timeline's fields (SPEC 5 and docs/timeline.md):
    /// for each kind, the SPEC's fields first, then drivesim's extras (a
    /// line's text, how long a stretch was held). The JSON, the text, golden
    /// files and matchers all read it.
    package var schema: (spec: [Field], extras: [Field]) {
        switch self {
        case .guidanceRequested: return ([.line, .urgent], [.maneuver, .stage, .text, .language])
        case .guidanceWaiting: return ([.line, .rule, .stretch], [])
        case .guidanceStarted: return ([.line], [.text, .language])
        case .guidanceEnded: return ([.line], [])
        case .guidanceDropped: return ([.line, .rule], [.reason])
        case .replyQueued: return ([.reply, .rule], [])
        case .replyBegan: return ([.reply], [])
        case .stretchStarted: return ([.reply, .stretch], [.rule, .heldMs, .text, .language])
        case .stretchEnded: return ([.reply, .stretch], [])
        case .stretchCut: return ([.reply, .stretch, .rule, .by, .playedMs], [.afterCut])
        case .replyEnded: return ([.reply], [])
        case .replyAbandoned: return ([.reply, .rule], [])
        case .earsClosed: return ([], [.rule])
        case .earsOpened: return ([], [])
        case .dadStarted: return ([.utterance, .language], [.text])
        case .dadEnded: return ([.utterance, .heardMs, .lostMs], [])
        // The road's events are drivesim's own (docs/timeline.md): all their fields count as the SPEC's.
        case .roadFixArrived: return ([.fix, .ageMs, .trusted], [])
        case .roadFixDropped, .roadReportDropped: return ([.fix, .reason], [])
        case .roadReportSent: return ([.fix, .reporter, .ageMs, .onRoute, .maneuver, .distanceM], [])
        case .roadReportDelivered: return ([.fix], [])
        case .roadOffRoute: return ([.offsetM], [])
        case .roadOnRoute: return ([.progressM], [])
        case .roadTurnUpcoming: return ([.maneuver, .turn, .distanceM, .etaMs, .after, .afterDistanceM], [])
        case .roadTurnPassed: return ([.maneuver], [])
        case .roadTurnUnannounced: return ([.maneuver, .reason], [])
        case .roadStageSkipped: return ([.maneuver, .stage, .reason], [])
        case .roadMeasuringPaused: return ([.reason], [])
        case .roadMeasuringResumed, .roadSegmentStarted, .roadSegmentEnded: return ([], [])
        case .roadRouteRequested: return ([.reason, .handoff], [])
        case .roadRouteFailed: return ([.reason, .request, .handoff], [])
        case .roadRouteKept: return ([.request, .handoff], [])
        case .roadRouteSwitched: return ([.route, .reason], [])
        case .roadHandoffDelivered, .roadHandoffTaken, .roadHandoffAcknowledged: return ([.handoff], [])
        case .roadHandoffIgnored: return ([.handoff, .reason], [])
        case .roadSwitchSkipped: return ([.route, .reason], [])
        }
    }

    /// The fields an event of this kind may carry, besides `t` and `event`,
    /// in the table's order (SPEC fields, then extras).
    package var fields: [Field] { EventKind.tables[ordinal].fields }

    /// The fields golden files compare (SPEC 5's), so an extra drivesim adds
    /// later does not break a golden file.
    package var specFields: [Field] { EventKind.tables[ordinal].spec }

    /// The kind's place in `allCases`.
    package var ordinal: Int {
        switch self {
        case .guidanceRequested: return 0
        case .guidanceWaiting: return 1
        case .guidanceStarted: return 2
        case .guidanceEnded: return 3
        case .guidanceDropped: return 4
        case .replyQueued: return 5
        case .replyBegan: return 6
        case .stretchStarted: return 7
        case .stretchEnded: return 8
        case .stretchCut: return 9
        case .replyEnded: return 10
        case .replyAbandoned: return 11
        case .earsClosed: return 12
        case .earsOpened: return 13
        case .dadStarted: return 14
        case .dadEnded: return 15
        case .roadFixArrived: return 16
        case .roadFixDropped: return 17
        case .roadReportSent: return 18
        case .roadReportDelivered: return 19
        case .roadReportDropped: return 20
        case .roadOffRoute: return 21
        case .roadOnRoute: return 22
        case .roadTurnUpcoming: return 23
        case .roadTurnPassed: return 24
        case .roadTurnUnannounced: return 25
        case .roadStageSkipped: return 26
        case .roadMeasuringPaused: return 27
        case .roadMeasuringResumed: return 28
        case .roadSegmentStarted: return 29
        case .roadSegmentEnded: return 30
        case .roadRouteRequested: return 31
        case .roadRouteFailed: return 32
        case .roadRouteSwitched: return 33
        case .roadRouteKept: return 34
        case .roadHandoffDelivered: return 35
        case .roadHandoffTaken: return 36
        case .roadHandoffIgnored: return 37
        case .roadHandoffAcknowledged: return 38
        case .roadSwitchSkipped: return 39
        }
    }

    /// Each kind's fields, worked out once from `schema`.
    static let tables: [(fields: [Field], spec: [Field])] = allCases.map {
        ($0.schema.spec + $0.schema.extras, $0.schema.spec)
    }

    /// Whether the event is the road's.
    package var isRoad: Bool {
        switch self {
        case .roadFixArrived, .roadFixDropped, .roadReportSent, .roadReportDelivered, .roadReportDropped, .roadOffRoute,
            .roadOnRoute, .roadTurnUpcoming, .roadTurnPassed, .roadTurnUnannounced, .roadStageSkipped,
            .roadMeasuringPaused,
            .roadMeasuringResumed, .roadSegmentStarted, .roadSegmentEnded, .roadRouteRequested, .roadRouteFailed,
            .roadRouteSwitched, .roadRouteKept, .roadHandoffDelivered, .roadHandoffTaken, .roadHandoffIgnored,
            .roadHandoffAcknowledged, .roadSwitchSkipped:
            return true
        default:
            return false
        }
    }
}

/// A field of the timeline: raw values are its names in SPEC 5 and
/// docs/timeline.md. Which kinds carry which is `EventKind.schema`.
public enum Field: String, Sendable, CaseIterable {
    /// The guidance's and the talk's fields.
    case line, urgent, maneuver, stage, text, language, rule, stretch, reply, heldMs, by, playedMs, afterCut
    /// Dad's fields.
    case utterance, heardMs, lostMs
    /// The road's fields.
    case fix, ageMs, trusted, reason, reporter, onRoute, distanceM, offsetM, progressM, turn, etaMs, after,
        afterDistanceM
    /// The route changes' fields (`request`: why the request answered was asked, `off-route` or `handoff`).
    case route, handoff, request

    /// What a field's values are.
    public enum ValueType: Sendable, Equatable {
        /// A JSON string, an integer, a boolean.
        case string, int, bool
    }

    /// Integers for milliseconds and meters, booleans for flags, strings for the rest.
    package var type: ValueType {
        switch self {
        case .playedMs, .heardMs, .lostMs, .heldMs, .ageMs, .etaMs, .distanceM, .afterDistanceM, .offsetM, .progressM:
            return .int
        case .urgent, .trusted, .onRoute: return .bool
        case .line, .maneuver, .stage, .text, .language, .rule, .stretch, .reply, .by, .afterCut, .utterance, .fix,
            .reason,
            .reporter, .turn, .after, .route, .handoff, .request:
            return .string
        }
    }
}
