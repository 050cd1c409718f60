import Guidance

/// The road's decisions, named in the style of the arbiter's rules, for rule
/// coverage: each is one kind of road event, or one reason it gives.
package enum RoadRule: String, Sendable, CaseIterable {
    /// A fix taken before one already used is not used for progress.
    case fixOutOfOrder = "fix-out-of-order"
    /// A fix worse than the accuracy limit is not used for progress.
    case fixInaccurate = "fix-inaccurate"
    /// A fix implying an impossible speed is not used for progress.
    case fixImplausible = "fix-implausible"
    /// A report dropped because the link is offline.
    case reportOffline = "report-offline"
    /// A report dropped because its fix is older than the freshness limit.
    case reportStale = "report-stale"
    /// A report dropped because another is in flight.
    case reportBusy = "report-busy"
    /// A report dropped because its fix was taken before one already reported.
    case reportOutOfOrder = "report-out-of-order"
    /// A report in flight failed because an outage began.
    case reportInterrupted = "report-interrupted"
    /// A report in flight timed out at its freshness limit.
    case reportTimeout = "report-timeout"
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
    /// A stage skipped because it could not end before the guidance segment does.
    case stageNotGuiding = "stage-not-guiding"
    /// A maneuver passed without a "now" line, with the reason why.
    case turnUnannounced = "turn-unannounced"
    /// Measuring paused in the background outside a guidance segment.
    case measuringPaused = "measuring-paused"
    /// A route request swallowed by an outage.
    case routeTimeout = "route-timeout"
    /// A route request refused by the maps service.
    case routeRefused = "route-refused"
    /// The drive changed onto a new route.
    case routeSwitched = "route-switched"
    /// The maps door answered with the route already followed.
    case routeKept = "route-kept"
    /// A switch line not said: outside Dad's guidance segments, or it could not end before his segment does.
    case switchNotGuiding = "switch-not-guiding"
    /// A handoff delivered again, not taken twice.
    case handoffDuplicate = "handoff-duplicate"
    /// A handoff naming a saved place the phone does not know.
    case handoffUnknownPlace = "handoff-unknown-place"
    /// A handoff sent after a stretch that was never over: never sent.
    case handoffUnsaid = "handoff-unsaid"

    /// The road rule a road event shows, if any.
    init?(_ event: RoadEvent.What) {
        switch event {
        case .fixDropped(_, .outOfOrder): self = .fixOutOfOrder
        case .fixDropped(_, .inaccurate): self = .fixInaccurate
        case .fixDropped(_, .implausible): self = .fixImplausible
        case .reportDropped(_, .offline): self = .reportOffline
        case .reportDropped(_, .stale): self = .reportStale
        case .reportDropped(_, .busy): self = .reportBusy
        case .reportDropped(_, .outOfOrder): self = .reportOutOfOrder
        case .reportDropped(_, .interrupted): self = .reportInterrupted
        case .reportDropped(_, .timeout): self = .reportTimeout
        case .offRoute: self = .offRoute
        case .onRoute: self = .backOnRoute
        case .stageSkipped(_, _, .then): self = .thenLine
        case .stageSkipped(_, _, .repeated): self = .stageRepeated
        case .stageSkipped(_, _, .late): self = .stageLate
        case .stageSkipped(_, _, .notGuiding): self = .stageNotGuiding
        case .turnUnannounced: self = .turnUnannounced
        case .measuringPaused: self = .measuringPaused
        case .routeFailed(.timeout, _, _): self = .routeTimeout
        case .routeFailed(.refused, _, _): self = .routeRefused
        case .routeSwitched: self = .routeSwitched
        case .routeKept: self = .routeKept
        case .switchSkipped(_, .notGuiding): self = .switchNotGuiding
        case .handoffIgnored(_, .duplicate): self = .handoffDuplicate
        case .handoffIgnored(_, .unknownPlace): self = .handoffUnknownPlace
        case .handoffIgnored(_, .unsaid): self = .handoffUnsaid
        case .switchSkipped, .routeRequested, .handoffDelivered, .handoffTaken, .handoffAcknowledged,
            .fixArrived, .reportSent, .reportDelivered, .turnUpcoming, .turnPassed, .measuringResumed, .segmentStarted,
            .segmentEnded:
            return nil
        }
    }
}
