import Road
import SimClock

/// A scenario's road section (`Scenario.Road`): a route with maneuvers, a
/// drive along it, the fixes it yields, the location link, when the app
/// measures, and how the guidance speaks. See `docs/scenario-format.md`.
/// `RoadPlan` plans it.
public struct RoadSetup: Sendable, Equatable {
    /// The language of every generated line; required, never guessed.
    public var language: Language
    /// The route's polyline, at least two points.
    public var points: [GeoPoint]
    /// The maneuvers in route order, each given by a point near the route.
    public var maneuvers: [ManeuverSpec]
    /// How the car drives; required with generated fixes, refused with recorded ones.
    public var drive: Drive?
    /// Where the fixes come from: generated along the drive (the default) or recorded.
    public var fixes: Fixes
    /// The link that reports fixes to the routing service (`link`: latency, freshness, outages).
    public var link = LocationLink()
    /// When the app is in the background.
    public var background: [SimInterval] = []
    /// When Dad's guidance segments run; nil means one segment for the whole drive.
    public var segments: [SimInterval]? = nil
    /// How the route follower trusts fixes and decides off route (`follow`).
    public var follow = RouteFollower.Settings()
    /// The stages' leads, margins and speech rates (`guidance`), in `language`.
    public var guidance: GuidanceSettings
    /// How long after the last trusted fix the guidance keeps predicting
    /// (dead reckoning at the believed speed, through a tunnel or a run of
    /// bad fixes): 120 s by default, `guidance.horizon` 0...600 s.
    public var horizon = RoadSetup.defaultHorizon
    /// The default `horizon`.
    public static let defaultHorizon = SimTime(ms: 120_000)
    /// Every maneuver a drive may be guided through: the route's, then each change's.
    package var everyManeuver: [ManeuverSpec] { changes.isEmpty ? maneuvers : maneuvers + changes.flatMap(\.maneuvers) }
    /// The route maneuver `id` belongs to: 0 the scenario's, k change k − 1's (ids are unique).
    /// - Complexity: O(changes' maneuvers); O(1) without changes.
    package func route(of id: String) -> Int {
        (changes.firstIndex { $0.maneuvers.contains { $0.id == id } }).map { $0 + 1 } ?? 0
    }
    /// The maps door: how the app asks for a new route (`maps`). Used only by a road with `changes`.
    public var maps = MapsDoor()
    /// Dad's saved places as the phone keeps them (`places`): a handoff naming one is resolved from this list.
    public var places: [Place] = []
    /// The roads the drive changes onto, in the order the car truly takes them (`changes`): a reroute, or a handoff's destination.
    public var changes: [RouteChange] = []
    /// What became of each stretch a handoff is sent after (`Sending.after`), by
    /// its id, once the simulation knows; one not listed is not known yet, and
    /// its handoff is not sent. Not part of the file: `Simulation` finds it.
    package var said: [String: Said] = [:]

    /// A road over `points` with `maneuvers`, a `drive` and `fixes`, every other setting at its
    /// default. Not validated: `RoadSetup.validate()` (which `RoadPlan`, `Simulation` and
    /// `Verdict` call) throws a `RoadSetup.Problem` for values the planner cannot take.
    public init(
        language: Language, points: [GeoPoint], maneuvers: [ManeuverSpec] = [], drive: Drive? = nil,
        fixes: Fixes = .generated(FixGenerator())
    ) {
        self.language = language
        self.points = points
        self.maneuvers = maneuvers
        self.drive = drive
        self.fixes = fixes
        guidance = GuidanceSettings(language: language)
    }

    /// A maneuver as written: a point near the route, the turn, the street.
    public struct ManeuverSpec: Sendable, Equatable {
        /// Its id, unique across the scenario; generated lines are named `<id>.<stage>`.
        public var id: String
        /// A point near the route (within `Route.maneuverTolerance`, 15 m, after the previous maneuver).
        public var point: GeoPoint
        /// The kind of maneuver.
        public var turn: Turn
        /// The street it leads onto, 1 to 200 characters; nil for none.
        public var street: String?
        /// The kind's details: signs, exit, side.
        public var details: ManeuverDetails

        /// A maneuver at `point`; its kind's `details` (exit, signs, side) as docs/scenario-format.md allows.
        public init(
            id: String, point: GeoPoint, turn: Turn, street: String? = nil, details: ManeuverDetails = ManeuverDetails()
        ) {
            self.id = id
            self.point = point
            self.turn = turn
            self.street = street
            self.details = details
        }

        /// The route's maneuver it names, not yet placed (`Route.place` gives its distance).
        public var maneuver: Maneuver { Maneuver(id: id, turn: turn, street: street, details: details) }
    }

    /// The drive: when the car sets off, its speed profile, and detours off the route.
    public struct Drive: Sendable, Equatable {
        /// When the car sets off (0...24 h).
        public var start = SimTime.zero
        /// The target speeds along the route and the car's acceleration limits.
        public var profile: SpeedProfile
        /// Windows in which the car is `offset` meters beside the route (right is positive).
        public var detours: [Detour] = []

        /// A drive setting off at `start` with `profile` and `detours`.
        public init(start: SimTime = .zero, profile: SpeedProfile, detours: [Detour] = []) {
            self.start = start
            self.profile = profile
            self.detours = detours
        }
    }

    /// How the app asks the maps service for a route (through the family's
    /// server): a request waits while the link is down, is answered after
    /// `latency`, and is given up after `timeout` when an outage swallows
    /// it; after a failure it is sent again `retry` later (docs/road.md, "Route changes").
    public struct MapsDoor: Sendable, Equatable {
        /// From a request sent to its answer, 0.1...60 s (1 s by default).
        public var latency = SimTime(ms: 1_000)
        /// How long the app waits for an answer, above `latency`, at most 120 s (10 s by default).
        public var timeout = SimTime(ms: 10_000)
        /// How long after a failure the request is sent again, 1...600 s (5 s by default).
        public var retry = SimTime(ms: 5_000)

        /// The default maps door.
        public init() {}
    }

    /// One of Dad's saved places ("집").
    public struct Place: Sendable, Equatable {
        /// Its name, as Dad and Pippa say it, unique in the list.
        public var name: String
        /// Where it is.
        public var point: GeoPoint

        /// A place called `name` at `point`.
        public init(name: String, point: GeoPoint) {
            self.name = name
            self.point = point
        }
    }

    /// A road the drive changes onto: its points from where it leaves the
    /// road before it (its first point lies on that road, the branch) to its
    /// end, and its maneuvers. The car truly drives the road before it up to
    /// the branch, then this one. The app follows it only once the maps door
    /// answers with it: for a reroute (the car left the route, the answer is
    /// the road it is on) or for a handoff (Pippa's destination).
    public struct RouteChange: Sendable, Equatable {
        /// Its id, unique across the scenario (`road.route.switched`'s `route`).
        public var id: String
        /// The road's polyline, at least two points, the first on the road before it.
        public var points: [GeoPoint]
        /// Its maneuvers in order, as `RoadSetup.maneuvers`; their ids are unique across the scenario.
        public var maneuvers: [ManeuverSpec]
        /// How many times the maps door refuses the request for it before it answers (0...10).
        public var refusals = 0
        /// Pippa's handoff of this road's destination; nil for a reroute.
        public var handoff: Handoff?

        /// A change onto `points` with `maneuvers`.
        public init(
            id: String, points: [GeoPoint], maneuvers: [ManeuverSpec] = [], refusals: Int = 0, handoff: Handoff? = nil
        ) {
            self.id = id
            self.points = points
            self.maneuvers = maneuvers
            self.refusals = refusals
            self.handoff = handoff
        }
    }

    /// Pippa's handoff: the destination she picked, sent to the phone over the link.
    public struct Handoff: Sendable, Equatable {
        /// When Pippa sends it (more than one: it is delivered again, and must be taken once):
        /// at a time, or after one of her stretches; the times ascending.
        public var sent: [Sending]
        /// One of Dad's saved places it names, resolved from the phone's own `places`; nil names none.
        public var place: String?
        /// What the guidance calls it ("the petrol station on Teheran-ro"); nil: the place's name, or "your destination".
        public var destination: String?

        /// A handoff sent at `sent`.
        public init(sent: [Sending], place: String? = nil, destination: String? = nil) {
            self.sent = sent
            self.place = place
            self.destination = destination
        }
    }

    /// When Pippa sends a handoff (`handoff.sent[i]`).
    public enum Sending: Sendable, Equatable {
        /// At this time of the drive.
        case at(SimTime)
        /// When her stretch with this id is over (docs/road.md, "Route changes"):
        /// the simulation finds that instant (`said`); a plan without it sends nothing.
        case after(String)

        /// The stretch it follows, if it is sent after one.
        public var stretch: String? { if case .after(let id) = self { id } else { nil } }
    }

    /// What became of a stretch a handoff is sent after, as the talk's simulation found it.
    package enum Said: Sendable, Equatable {
        /// It was over at this instant (played through, or cut and not to be played again): the handoff is sent then.
        case over(SimTime)
        /// At this instant it was known never to be over (its reply abandoned
        /// before, or never begun): the handoff is not sent (`road.handoff.ignored` `unsaid`).
        case never(SimTime)
    }

    /// The car beside its route for a while (a wrong turn and back).
    public struct Detour: Sendable, Equatable {
        /// When the car is beside the route; it drives off at the start and is back at the end.
        public var window: SimInterval
        /// How far beside the route, meters (-10,000...10,000; right of the route is positive).
        public var offset: Double

        /// The car `offset` meters beside the route during `window`.
        public init(window: SimInterval, offset: Double) {
            self.window = window
            self.offset = offset
        }

        /// How fast the car moves sideways leaving and rejoining the route, m/s.
        package static let lateralSpeed = 8.0

        /// The car's offset at `t`: it drives off at `lateralSpeed` from the
        /// window's start, and is back on the route at its end (a wrong turn
        /// and back, not a teleport, so the plausibility gate lets it through).
        package func offset(at t: SimTime) -> Double {
            guard window.contains(t) else { return 0 }
            let ramp = abs(offset) / Detour.lateralSpeed * 1000
            guard ramp >= 1 else { return offset }
            let u = min(1, Double((t - window.start).ms) / ramp, Double((window.end - t).ms) / ramp)
            return offset * u
        }
    }

    /// Where the fixes come from.
    public enum Fixes: Sendable, Equatable {
        case generated(FixGenerator)
        /// Fixes with their own times and arrival times, positions in degrees.
        case recorded([RecordedFix])
    }

    /// One recorded fix.
    public struct RecordedFix: Sendable, Equatable {
        /// When the receiver measured it (0...24 h, never before the fix listed before it).
        public var taken: SimTime
        /// When the app got it (`taken` or later, within 24 h).
        public var arrives: SimTime
        /// The measured position, degrees.
        public var point: GeoPoint
        /// The receiver's horizontal accuracy estimate, meters (0...100,000; 5 by default).
        public var accuracy: Double
        /// The receiver's speed, m/s (0...150), if it reports one.
        public var speed: Double?
        /// The receiver's course, degrees clockwise from north.
        public var course: Double?
        /// Where the car really was, when known (`true` in the file): the
        /// checks compare against it; the follower never sees it.
        public var truth: GeoPoint?

        /// A recorded fix taken at `taken` and delivered at `arrives`.
        public init(
            taken: SimTime, arrives: SimTime, point: GeoPoint, accuracy: Double = 5, speed: Double? = nil,
            course: Double? = nil, truth: GeoPoint? = nil
        ) {
            self.taken = taken
            self.arrives = arrives
            self.point = point
            self.accuracy = accuracy
            self.speed = speed
            self.course = course
            self.truth = truth
        }
    }
}

extension RoadSetup {
    /// The recorded fixes' true positions as a track on `route`'s plane, or
    /// nil when the fixes are generated or none gives one (the
    /// trajectory, or nothing, is the truth then).
    package func trueTrack(on route: Route) -> TrueTrack? {
        guard case .recorded(let list) = fixes else { return nil }
        let points = list.compactMap { f in f.truth.map { (t: f.taken, position: route.projection.project($0)) } }
        return points.isEmpty ? nil : TrueTrack(points: points)
    }

    /// When the app measures: outside `background`, or inside a guidance
    /// segment (When In Use). Every instant when there are no segments.
    package var measuringTimes: IntervalSet {
        guard let segments else { return .always }
        return IntervalSet.always.subtracting(IntervalSet(background).subtracting(IntervalSet(segments)))
    }

    /// When Dad's guidance runs: inside a segment; nil for the whole drive.
    package var guidingTimes: IntervalSet? { segments.map { IntervalSet($0) } }

    /// The fixes `generator` makes on this drive, in the order taken: none
    /// while measuring is paused, lost ones left out, each with its truth
    /// (the car's position, beside the route on a detour). The planner
    /// measures these; the checks and the map read the same ones.
    package func generatedFixes(_ generator: FixGenerator, on route: Route, trajectory: Trajectory) -> [Fix] {
        generator.fixes(
            along: route, trajectory: trajectory, measuring: measuringTimes,
            detour: { t in drive?.detours.first { $0.window.contains(t) }?.offset(at: t) ?? 0 })
    }
}

/// The road's maneuver ids and the routes that hold them, looked up by id
/// (docs/road.md, "Route changes"): each maneuver of the scenario's route
/// and of every change's road, and the copies a new route makes of the
/// maneuvers between where the car was when it was asked for and its
/// change's branch, `<change>/<maneuver>` (`RoadPlan.copyID`).
package struct ManeuverIDs: Sendable {
    /// Each maneuver's route: 0 the scenario's, k change k − 1's.
    private let routes: [String: Int]
    /// Each change's index, by id.
    private let changes: [String: Int]

    /// The ids of `road`.
    /// - Complexity: O(maneuvers of every route, and changes).
    package init(_ road: RoadSetup) {
        var routes: [String: Int] = [:]
        routes.reserveCapacity(road.maneuvers.count)
        for m in road.maneuvers where routes[m.id] == nil { routes[m.id] = 0 }
        var changes: [String: Int] = [:]
        for (c, change) in road.changes.enumerated() {
            if changes[change.id] == nil { changes[change.id] = c }
            for m in change.maneuvers where routes[m.id] == nil { routes[m.id] = c + 1 }
        }
        self.routes = routes
        self.changes = changes
    }

    /// The route that holds maneuver `id` (0 the scenario's, k change k − 1's),
    /// a copy's included; nil for an id that names none.
    /// - Complexity: O(length of `id`).
    package func route(of id: String) -> Int? {
        if let r = routes[id] { return r }
        return copy(id).map { $0.change + 1 }
    }

    /// The maneuver of the true path that `id` names: itself, or the original of a copy.
    package func original(of id: String) -> String {
        routes[id] != nil ? id : copy(id)?.original ?? id
    }

    /// Whether `id` is a copy's: `<change>/<maneuver>`, the maneuver one of a
    /// road the car drives before that change's (the scenario's route or an earlier change's).
    package func isCopy(_ id: String) -> Bool { routes[id] == nil && copy(id) != nil }

    /// Whether `id` is the id of a line of a copy: `<copy>.<stage>`, `.now-again` or `.continue`.
    package func isCopyLine(_ id: String) -> Bool {
        guard let dot = id.lastIndex(of: "."), isCopy(String(id[..<dot])) else { return false }
        let suffix = id[id.index(after: dot)...]
        return Stage.allCases.contains { $0.rawValue == suffix } || suffix == "now-again" || suffix == "continue"
    }

    /// Whether an id of the file's would be taken by a copy or a copy's line.
    package func clashes(_ id: String) -> Bool {
        copy(id) != nil || id.lastIndex(of: ".").map { copy(String(id[..<$0])) != nil } == true
    }

    /// The change and the original a copy id names, if it is one.
    private func copy(_ id: String) -> (change: Int, original: String)? {
        guard !changes.isEmpty else { return nil }
        var i = id.startIndex
        while let slash = id[i...].firstIndex(of: "/") {
            let original = String(id[id.index(after: slash)...])
            if let c = changes[String(id[..<slash])], let r = routes[original], r <= c { return (c, original) }
            i = id.index(after: slash)
        }
        return nil
    }
}
