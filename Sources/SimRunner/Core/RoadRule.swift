/// The road's decisions, named in the style of the arbiter's rules, for rule
/// coverage: each is one kind of road event, or one reason it gives.
public enum RoadRule: String, Sendable, CaseIterable {
    /// A fix taken before one already used is not used for progress.
    case fixOutOfOrder = "fix-out-of-order"
    /// A fix worse than the accuracy limit is not used for progress.
    case fixInaccurate = "fix-inaccurate"
    /// A report dropped because the link is offline.
    case reportOffline = "report-offline"
    /// A report dropped because its fix is older than the freshness limit.
    case reportStale = "report-stale"
    /// A report dropped because another is in flight.
    case reportBusy = "report-busy"
    /// The car left the route (after the hysteresis).
    case offRoute = "off-route"
    /// The car is back on the route.
    case backOnRoute = "back-on-route"
    /// A stage skipped because a more imminent one was due.
    case stageLate = "stage-late"
    /// A stage skipped because a "then" line announced it with the maneuver before.
    case thenLine = "then-line"
    /// A stage skipped because it would repeat the line before it word for word.
    case stageRepeated = "stage-repeated"
    /// A maneuver passed without a "now" line, with the reason why.
    case turnUnannounced = "turn-unannounced"
    /// Measuring paused in the background outside a guidance segment.
    case measuringPaused = "measuring-paused"

    /// The road rule an event of `kind` with `reason` shows, if any.
    init?(_ kind: EventKind, reason: String?) {
        switch (kind, reason) {
        case (.roadFixDropped, "out-of-order"): self = .fixOutOfOrder
        case (.roadFixDropped, _): self = .fixInaccurate
        case (.roadReportDropped, "offline"): self = .reportOffline
        case (.roadReportDropped, "stale"): self = .reportStale
        case (.roadReportDropped, _): self = .reportBusy
        case (.roadOffRoute, _): self = .offRoute
        case (.roadOnRoute, _): self = .backOnRoute
        case (.roadStageSkipped, "then"): self = .thenLine
        case (.roadStageSkipped, "repeated"): self = .stageRepeated
        case (.roadStageSkipped, _): self = .stageLate
        case (.roadTurnUnannounced, _): self = .turnUnannounced
        case (.roadMeasuringPaused, _): self = .measuringPaused
        default: return nil
        }
    }
}
