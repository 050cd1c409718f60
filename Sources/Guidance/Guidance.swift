import Road
import SimClock

/// A guidance engine: what decides when Dad hears which line on the road.
/// drivesim's own is `Announcer`; an app plugs its own in (from Swift, or
/// over a process: docs/test-your-guidance.md) and the road's checks judge
/// it against the car's true track.
///
/// A pure value, driven by `RoadPlan` in one pass before the talk runs:
/// it is made for the route (`GuidanceRoute`), told each fix as the phone
/// gets it, in arrival order (`fixArrived`), and asked what to say over each
/// span of time in which the follower's road state holds (`announce`); the
/// planner cuts spans at every fix, every guidance segment's edge and the
/// horizon, and never asks while the car is off the route or outside a
/// segment. It never reads a clock: the span's times are the clock.
public protocol Guidance: Sendable {
    /// When the guidance segment being spoken in ends (nil: it never does):
    /// no line may play past it. Set before each `announce`.
    var segmentEnd: SimTime? { get set }
    /// Per maneuver (in route order), whether a "now" line of its own was made for it.
    var nowSpoken: [Bool] { get }

    /// Everything to say in `[from, until)` given `state` (the progress as of
    /// the last trusted fix, when it was taken, the believed speed), appended
    /// to `out`: lines (each requested at a time in the span), stages skipped,
    /// maneuvers believed passed.
    mutating func announce(_ state: RoadState, from: SimTime, until: SimTime, into out: inout [Announcement])
    /// Fix `fix` reached the app, and the follower made `state` of it (nil: it
    /// did not move the car), on the route or not. Called before the span it opens.
    mutating func fixArrived(_ fix: Fix, state: RoadState?, onRoute: Bool)
    /// The urgent line when the car leaves the route (`back` false) or is back
    /// on it (`back` true), requested at `t`; nil says nothing.
    mutating func rerouteLine(at t: SimTime, back: Bool) -> GuidanceLine?
    /// A line of no stage to say as the guidance believes maneuver `m` passed
    /// at `t`, the car at `state` (drivesim's: "Continue for 5 kilometers."
    /// when the next maneuver is far); nil says nothing.
    mutating func linePassing(_ m: Int, _ state: RoadState, at t: SimTime) -> GuidanceLine?
    /// The line to say as the drive starts: asked once, at the start of the
    /// first span the guidance speaks in (the first trusted fix on the route
    /// inside a guidance segment), the car at `state` (drivesim's: "Head
    /// north." or "Head north for 5 kilometers." before the first maneuver);
    /// nil says nothing.
    mutating func lineDeparting(_ state: RoadState, at t: SimTime) -> GuidanceLine?
    /// Why maneuver `m`, passed without a "now" line of its own, got none, as
    /// far as the guidance knows (`then`: announced in the one before's; `late`:
    /// its "now" line could no longer be heard in time). nil: it does not say,
    /// and the timeline then says no reason (`now-line` fails). The planner's
    /// own reasons (`no-fix`, `off-route`, `not-guiding`) come first.
    func unannounced(_ m: Int) -> RoadEvent.UnannouncedReason?
    /// `unannounced(_:)` for maneuver `m` truly passed at `pass`: the
    /// default asks `unannounced(_:)`; drivesim's own says `then` only for a
    /// "now" line made by then.
    func unannounced(_ m: Int, passedAt pass: SimTime) -> RoadEvent.UnannouncedReason?
    /// drivesim's own guidance when this one speaks as it does (a wrapper of
    /// `Announcer`): the planner then re-phrases and withdraws its waiting
    /// lines as it does drivesim's own. nil (the default): the guidance
    /// revises its own lines with `Announcement.revised`.
    var reviser: Announcer? { get }
    /// The line to say as the drive changes onto this guidance's route
    /// (the guidance is made for the new route): `change` is its id,
    /// `handoff` whether Pippa handed it off (else a reroute), `destination`
    /// what the handoff calls it (nil: no name), requested at `t`; nil says
    /// nothing (docs/road.md, "Route changes").
    mutating func lineSwitching(to change: String, handoff: Bool, destination: String?, at t: SimTime) -> GuidanceLine?
    /// What the guidance held back of the spans it was asked about (a guidance
    /// in another process answers them in a batch), appended to `out` as
    /// `announce` would have: asked before the planner reads `nowSpoken` or
    /// `unannounced`, and before a route change. Default: nothing is held back.
    mutating func settle(into out: inout [Announcement])
}

extension Guidance {
    /// Fixes are not needed by a guidance that speaks from the road state alone.
    public mutating func fixArrived(_ fix: Fix, state: RoadState?, onRoute: Bool) {}
    /// Nothing is said on passing a maneuver but its own stages.
    public mutating func linePassing(_ m: Int, _ state: RoadState, at t: SimTime) -> GuidanceLine? { nil }
    /// Nothing is said at departure.
    public mutating func lineDeparting(_ state: RoadState, at t: SimTime) -> GuidanceLine? { nil }
    /// The guidance revises its own lines.
    public var reviser: Announcer? { nil }
    /// The guidance's answer whenever the maneuver was passed.
    public func unannounced(_ m: Int, passedAt pass: SimTime) -> RoadEvent.UnannouncedReason? { unannounced(m) }
    /// Nothing is said as the route changes.
    public mutating func lineSwitching(to change: String, handoff: Bool, destination: String?, at t: SimTime)
        -> GuidanceLine?
    { nil }
    /// Everything is said as it is asked.
    public mutating func settle(into out: inout [Announcement]) {}
}

/// What a guidance is made for: the route's maneuvers (in route order, placed:
/// `Maneuver.distance` set), the route's length and the scenario's guidance
/// settings (language, leads, latency, speech rates, units), and the
/// guidance segments (nil: the whole drive is one).
public struct GuidanceRoute: Sendable, Equatable {
    /// The maneuvers, in route order, placed on the route.
    public var maneuvers: [Maneuver]
    /// The route's length, meters.
    public var length: Double
    /// The scenario's `guidance` settings.
    public var settings: GuidanceSettings
    /// Dad's guidance segments (`app.segments`), nil when the whole drive is one.
    public var segments: [SimInterval]?
    /// The compass bearing the route sets off in, degrees clockwise from
    /// north (0..<360), over its first `RoadPlan.headingMeters`; nil when not known.
    public var heading: Double?
    /// How long the guidance may dead-reckon after the last trusted fix (`guidance.horizon`).
    public var horizon = RoadSetup.defaultHorizon
    /// How many times the car left a route earlier in the drive (0 on the
    /// first route): a new route's reroute lines number on from it, so that
    /// every id in the drive is its own (`RoadPlan.rerouteLineID`).
    public var reroutes = 0
    /// The route change this route comes from (nil: the drive's first route).
    public var change: Change?

    /// A route change the drive made onto this route (docs/road.md, "Route changes").
    public struct Change: Sendable, Equatable {
        /// The change's id.
        public var id: String
        /// Whether Pippa handed the destination off (else a reroute).
        public var handoff: Bool
        /// What the handoff calls the destination (nil: no name).
        public var destination: String?
        /// When the route switched.
        public var at: SimTime
        /// A change `id` made at `at`: Pippa's handoff (naming `destination`, if she did), or a reroute.
        public init(id: String, handoff: Bool, destination: String?, at: SimTime) {
            self.id = id
            self.handoff = handoff
            self.destination = destination
            self.at = at
        }
    }

    /// A route for a guidance.
    public init(
        maneuvers: [Maneuver], length: Double, settings: GuidanceSettings, segments: [SimInterval]? = nil,
        heading: Double? = nil
    ) {
        self.maneuvers = maneuvers
        self.length = length
        self.settings = settings
        self.segments = segments
        self.heading = heading
    }
}

extension Announcer: Guidance {
    /// drivesim's own guidance for `route`.
    public init(_ route: GuidanceRoute) {
        self.init(settings: route.settings, maneuvers: route.maneuvers)
        heading = route.heading
        reroutes = route.reroutes
    }

    /// `offRouteLine(at:)`, or `recalculatedLine(at:)` when back.
    public mutating func rerouteLine(at t: SimTime, back: Bool) -> GuidanceLine? {
        back ? recalculatedLine(at: t) : offRouteLine(at: t)
    }

    /// A fix that moved the car may show that "You have arrived" came too
    /// soon: it is said again on arriving (`retryReached`).
    public mutating func fixArrived(_ fix: Fix, state: RoadState?, onRoute: Bool) {
        if let state { _ = retryReached(state, at: fix.arrives) }
    }

    /// "Continue for 5 kilometers." when the next maneuver is far (`continueLine`).
    public mutating func linePassing(_ m: Int, _ state: RoadState, at t: SimTime) -> GuidanceLine? {
        continueLine(after: m, state, at: t)
    }

    /// "Head north." or "Head north for 5 kilometers." (`departureLine`).
    public mutating func lineDeparting(_ state: RoadState, at t: SimTime) -> GuidanceLine? {
        departureLine(state, at: t)
    }

    /// `then` when the maneuver before's "now" line announced it;
    /// `not-guiding` when its "now" stage could not end inside the guidance
    /// segment; else `late`.
    public func unannounced(_ m: Int) -> RoadEvent.UnannouncedReason? {
        thenSpoken[m] ? .then : nowOutsideSegment[m] ? .notGuiding : .late
    }

    /// `unannounced(_:)`, `then` only when the "now" line that announced it
    /// was made by `pass` (one made later, after a gap, announced nothing in time).
    public func unannounced(_ m: Int, passedAt pass: SimTime) -> RoadEvent.UnannouncedReason? {
        if let at = thenAt[m], at <= pass { return .then }
        return nowOutsideSegment[m] ? .notGuiding : .late
    }

    /// drivesim's own guidance revises its waiting lines itself.
    public var reviser: Announcer? { self }

    /// "The route has been recalculated." after a reroute, "Guiding you to
    /// the petrol station." after a handoff: urgent, id `<change>.switched`,
    /// valid for 10 s.
    public mutating func lineSwitching(to change: String, handoff: Bool, destination: String?, at t: SimTime)
        -> GuidanceLine?
    {
        // The mutant says a reroute's words after a handoff, and a handoff's after a reroute.
        let asHandoff = fault == .switchLineMisnamed ? !handoff : handoff
        let words =
            asHandoff
            ? Phrasebook.guiding(to: destination, settings.language) : Phrasebook.recalculated(settings.language)
        return GuidanceLine(
            id: RoadPlan.switchLineID(change: change), at: t, duration: duration(words), urgent: true, text: words,
            language: settings.language, maneuver: "reroute", expires: t + SimTime(ms: 10_000))
    }
}
