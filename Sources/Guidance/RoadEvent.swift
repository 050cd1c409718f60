import Road
import SimClock

/// One road event of a plan, typed: each case carries exactly the fields
/// its timeline entry shows (docs/timeline.md, road part), with typed
/// indices and typed reasons. The timeline holds these payloads themselves,
/// so two runs' road entries compare by what they say.
public struct RoadEvent: Sendable, Equatable {
    /// When it happens.
    public var t: SimTime
    /// What happens.
    public var what: What

    /// An event `what` at `t`.
    public init(t: SimTime, _ what: What) {
        self.t = t
        self.what = what
    }

    /// The road's events, one case per timeline event name.
    public enum What: Sendable, Equatable {
        /// `road.fix.arrived`: a fix reached the app, `ageMs` after it was taken.
        case fixArrived(FixIndex, ageMs: Int64, trusted: Bool)
        /// `road.fix.dropped`: a fix not used for progress.
        case fixDropped(FixIndex, reason: FixDropReason)
        /// `road.report.sent`: a fix's report, with the next maneuver and its distance if there is one.
        case reportSent(FixIndex, ageMs: Int64, onRoute: Bool, next: Ahead?)
        /// `road.report.delivered`.
        case reportDelivered(FixIndex)
        /// `road.report.dropped`: not sent (at the fix's arrival), or sent and
        /// failed in flight (`interrupted`, `timeout`, at the instant it failed).
        case reportDropped(FixIndex, reason: LocationLink.DropReason)
        /// `road.off-route`, whole meters from the route.
        case offRoute(offsetM: Int64)
        /// `road.on-route`, at whole meters of progress.
        case onRoute(progressM: Int64)
        /// `road.turn.upcoming`: the next maneuver changed; its eta is nil when the car is (nearly) still.
        case turnUpcoming(Ahead, etaMs: Int64?, after: Ahead?)
        /// `road.turn.passed`.
        case turnPassed(ManeuverIndex)
        /// `road.turn.unannounced`: passed without a "now" line.
        case turnUnannounced(ManeuverIndex, reason: UnannouncedReason)
        /// `road.stage.skipped`.
        case stageSkipped(ManeuverIndex, stage: Stage, reason: SkipReason)
        /// `road.measuring.paused`.
        case measuringPaused(reason: PauseReason)
        /// `road.measuring.resumed`.
        case measuringResumed
        /// `road.segment.started`.
        case segmentStarted
        /// `road.segment.ended`.
        case segmentEnded
        /// `road.route.requested`: the app asked the maps door for a route (sent: the link is up),
        /// for a reroute or for change `handoff`'s handoff.
        case routeRequested(reason: RouteReason, handoff: Int?)
        /// `road.route.failed`: the request (`request`, for `handoff`) got no route
        /// (`timeout`, `refused`); it is sent again after `maps.retry` unless another supersedes it.
        case routeFailed(reason: RouteFailure, request: RouteReason, handoff: Int?)
        /// `road.route.switched`: the answer is a new route (change `change`), followed from now on.
        case routeSwitched(change: Int, reason: RouteReason)
        /// `road.switch.skipped`: the switch onto change `change` says no switch line, and why
        /// (`not-guiding`: outside Dad's guidance segments, or it could not end before his segment or the drive does).
        case switchSkipped(change: Int, reason: SkipReason)
        /// `road.route.kept`: the answer to a request (`request`, for `handoff`) is the route already followed.
        case routeKept(request: RouteReason, handoff: Int?)
        /// `road.handoff.delivered`: Pippa's handoff (of change `change`) reached the phone.
        case handoffDelivered(change: Int)
        /// `road.handoff.taken`: the phone took it and asks for its route.
        case handoffTaken(change: Int)
        /// `road.handoff.ignored`: a delivery not taken, or a sending never made (`unsaid`), and why.
        case handoffIgnored(change: Int, reason: HandoffIgnoredReason)
        /// `road.handoff.acked`: the phone's acknowledgement reached Pippa's side.
        case handoffAcknowledged(change: Int)
    }

    /// Why a route is asked for. Raw values are the timeline's words.
    public enum RouteReason: String, Sendable, Equatable, CaseIterable {
        /// The car left the route: a reroute.
        case offRoute = "off-route"
        /// Pippa handed a destination off.
        case handoff
    }

    /// Why a route request got no route. Raw values are the timeline's words.
    public enum RouteFailure: String, Sendable, Equatable, CaseIterable {
        /// An outage swallowed it: no answer within `maps.timeout`.
        case timeout
        /// The maps service answered with an error (`changes[].refusals`).
        case refused
    }

    /// Why a handoff delivery is not taken, or a sending not made. Raw values are the timeline's words.
    public enum HandoffIgnoredReason: String, Sendable, Equatable, CaseIterable {
        /// The same handoff was taken already.
        case duplicate
        /// It names a saved place the phone's list does not hold.
        case unknownPlace = "unknown-place"
        /// Pippa sends it after a stretch that was never over (never played, or
        /// its reply abandoned before): she never sent it. No delivery precedes it.
        case unsaid
    }

    /// A maneuver ahead and how far it is, in whole meters.
    public struct Ahead: Sendable, Equatable {
        /// The maneuver.
        public var maneuver: ManeuverIndex
        /// How far ahead it is.
        public var distanceM: Int64

        /// `maneuver`, `distanceM` ahead.
        public init(_ maneuver: ManeuverIndex, distanceM: Int64) {
            self.maneuver = maneuver
            self.distanceM = distanceM
        }
    }

    /// Why a fix was not used. Raw values are the timeline's words.
    public enum FixDropReason: String, Sendable, Equatable, CaseIterable {
        /// Taken before one already used.
        case outOfOrder = "out-of-order"
        /// Worse than the accuracy limit.
        case inaccurate
        /// Farther from the last used fix than any car could have gone (a multipath jump).
        case implausible
    }

    /// Why a maneuver got no "now" line. Raw values are the timeline's words.
    public enum UnannouncedReason: String, Sendable, Equatable, CaseIterable {
        /// The guidance spoke, but too late.
        case late
        /// No fix to guide by.
        case noFix = "no-fix"
        /// The car was off the route.
        case offRoute = "off-route"
        /// Outside Dad's guidance segments.
        case notGuiding = "not-guiding"
        /// Too close behind the maneuver before for a "now" line of its own,
        /// it was announced in that maneuver's "now" line ("…, then turn left").
        case then
    }

    /// Why measuring paused. Raw values are the timeline's words.
    public enum PauseReason: String, Sendable, Equatable, CaseIterable {
        /// The app is in the background outside a guidance segment.
        case background
    }
}
