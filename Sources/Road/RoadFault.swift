/// Deliberately broken road behaviours, for mutation testing only (`fuzz
/// --mutant`, `run --mutant`): one per road rule, each in the component
/// whose behaviour it breaks, so that the fuzzer and the road checks are
/// shown to find that kind of bug (docs/fuzzing.md#road-mutants). Each raw
/// value is its name on the command line. `package`, like
/// `TalkArbiter.Fault`: no library user sees it, and with nil (the default
/// everywhere) every component behaves as documented.
package enum RoadFault: String, Sendable, CaseIterable {
    /// `LocationLink`: a report in flight when an outage begins still lands.
    case linkThroughOutage = "link-through-outage"
    /// `LocationLink`: a report in flight never times out; it lands however old.
    case linkNoTimeout = "link-no-timeout"
    /// `RoadPlanner`: a fix that arrives while a report is in flight is queued
    /// and sent when the link is free, instead of dropped `busy`.
    case linkQueuesBusy = "link-queues-busy"
    /// `RouteFollower`: the plausibility gate is off; a multipath jump is used.
    case jumpTrusted = "jump-trusted"
    /// `Announcer`: generated lines carry no expiry, so a line that waited
    /// plays after its maneuver was passed.
    case expiryIgnored = "expiry-ignored"
    /// `RoadPlanner`: a maneuver passed without a "now" line is not recorded
    /// as unannounced (no reason given).
    case nowSkippedSilently = "now-skipped-silently"
    /// `Announcer`: far and near lines say the distance rounded up to a preset, not down.
    case distanceRoundedUp = "distance-rounded-up"
    /// `RoadPlanner`: the guidance speaks outside Dad's guidance segments.
    case segmentsIgnored = "segments-ignored"
    /// `RoadPlanner`: "turn passed" is recorded when the guidance believes it
    /// (its prediction from the fixes), not when the car reaches the turn.
    case passedBelieved = "passed-believed"
    /// `RoadPlanner`: a maneuver the guidance never believed passed (a
    /// tunnel, off route, outside a segment) is never recorded as passed.
    case passNeedsBelief = "pass-needs-belief"
    /// `RoadPlanner`: at a route switch the old route's waiting lines keep
    /// their expiry, so one may still be heard after the switch.
    case switchKeepsOldLines = "switch-keeps-old-lines"
    /// `RoadPlanner`: after a switch, the new route's maneuvers are placed
    /// at their distances from where its road left the old one, not from
    /// where the car joined it (the old route's reckoning).
    case oldRouteDistances = "old-route-distances"
    /// `RoadPlanner`: a handoff delivered again is taken again.
    case handoffTakenTwice = "handoff-taken-twice"
    /// `RoadPlanner`: a handoff's acknowledgement lands the link's latency
    /// after it was taken, through an outage.
    case ackThroughOutage = "ack-through-outage"
    /// `RoadPlanner`: a route request is sent while the link is down and
    /// answered through an outage.
    case mapsThroughOutage = "maps-through-outage"
    /// `RoadPlanner`: a new route begins at its change's branch, not where the
    /// car was: the turns the car makes before the branch are on no route.
    case trueTurnDropped = "true-turn-dropped"
    /// `Announcer`: the switch line says a reroute's words after a handoff
    /// ("The route has been recalculated.", not its destination), and a
    /// handoff's after a reroute.
    case switchLineMisnamed = "switch-line-misnamed"
    /// `RoadPlanner`: a report beside a fix the follower used carries the
    /// next maneuver and its distance even off the route or unmatched: the
    /// progress held where the car left the road.
    case reportKeepsOldDistance = "report-keeps-old-distance"
    /// `Announcer`: a turn's "now" line is never said, and the turn, passed
    /// without one, is said to be `late` (an engine that stays silent and claims it).
    case nowClaimedLate = "now-claimed-late"
}
