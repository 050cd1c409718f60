import Road
import SimClock

extension RoadSetup {
    /// The documented bounds of a road's values (docs/scenario-format.md),
    /// chosen so that every accepted road is planned in bounded time and
    /// memory, with no arithmetic that can trap. `validate()` is their one
    /// judge: the decoder reads a road's shape and places `validate()`'s
    /// problems in the file (line, column, path).
    package enum Limits {
        /// The latest absolute time, 24 h (SPEC 2; `Scenario.Limits.maxTime`).
        package static let maxTime = SimTime(ms: 86_400_000)
        /// The longest single span, 1 h (SPEC 2; `Scenario.Limits.maxDuration`).
        package static let maxSpan = SimTime(ms: 3_600_000)
        /// A target speed, km/h: from the car's creep speed (1 m/s) to 250.
        package static let kmh = 3.6...250.0
        /// `drive.accel` and `drive.decel`, m/s².
        package static let acceleration = 0.1...20.0
        /// Speed steps, and stops, lie at least this far apart, meters.
        package static let stepSpacing = 1.0
        /// The shortest `fixes.every`, ms: at most ten fixes a second.
        package static let everyMs: Int64 = 100
        /// `guidance.rates.en` (words/s) and `.ko` (syllables/s).
        package static let rate = 0.5...50.0
        /// The longest `guidance.horizon`, ms (600 s).
        package static let horizonMs: Int64 = 600_000
        /// The longest `guidance.outputLatency`, ms (10 s).
        package static let outputLatencyMs: Int64 = 10_000
        /// The longest `street` name, in characters.
        package static let streetCharacters = 200
        /// The longest exit `ref`, in characters.
        package static let refCharacters = 8
    }

    /// Why a road cannot be planned, and where: `path` names the value by the
    /// keys of the scenario file's `road` section (`fixes`, `every`), so the
    /// decoder and a caller can point at it.
    public struct Problem: Error, Sendable, Equatable {
        /// What is wrong.
        public enum Reason: Sendable, Equatable {
            /// The route's points or maneuvers (fewer than two points, a
            /// maneuver off the route or out of order).
            case route(Route.Problem)
            /// The route is `meters` long, more than `Route.maxLength` (10,000 km).
            case routeTooLong(meters: Double)
            /// A latitude outside -90...90 or a longitude outside -180...180 (or not a number).
            case coordinateOutOfRange
            /// A number outside its documented range (NaN and infinities included).
            case outOfRange(ClosedRange<Double>)
            /// A number below zero where none may be.
            case negative
            /// Zero where the value must be above zero.
            case notPositive
            /// A count outside its documented range.
            case countOutOfRange(ClosedRange<Int>)
            /// A time outside 0...`maxTime`, or a span outside 0...`maxSpan`
            /// (0...600 s for the horizon), or below its least value
            /// (`fixes.every` under 100 ms, a zero `correlation`).
            case timeOutOfRange(ClosedRange<SimTime>)
            /// A window whose `to` is not after its `from`.
            case emptyWindow
            /// Text that must not be empty is empty.
            case textEmpty
            /// Text longer than its limit, in characters.
            case textTooLong(maxCharacters: Int)
            /// A recorded fix's `course` outside 0 up to (not including) 360.
            case courseOutOfRange
            /// A maneuver after the `arrive` one.
            case arrivalNotLast
            /// A roundabout without an `exit`.
            case exitMissing
            /// Generated fixes without a drive.
            case driveMissing
            /// Recorded fixes with a drive (the fixes are the drive).
            case driveWithRecordedFixes
            /// The drive does not arrive within 24 h.
            case driveTooLong
            /// Speed steps (or stops) not starting at 0, or not `stepSpacing` apart in order.
            case stepsOutOfOrder
            /// A recorded fix taken before the one before it.
            case fixTimeBackwards
            /// A recorded fix that arrives before it was taken.
            case arrivesBeforeTaken
            /// `follow.offRouteExit` greater than `follow.offRouteEnter`, which is `enter` meters.
            case exitBeyondEnter(enter: Double)
            /// A change's first point lies `meters` from the road before it (after the previous change's branch).
            case branchOffRoad(meters: Double)
            /// `maps.timeout` not above `maps.latency`: no answer could ever come.
            case timeoutNotAboveLatency
            /// A handoff's `sent` times not ascending.
            case sentOutOfOrder
            /// A name already given to a saved place.
            case duplicateName
            /// Route changes with recorded fixes: the car's true path is a drive's.
            case changesNeedADrive
        }

        /// Where, from the `road` object down.
        public var path: [JSONPath.Step]
        /// What is wrong there.
        public var reason: Reason

        /// A problem at `path`.
        public init(_ reason: Reason, at path: [JSONPath.Step]) {
            self.reason = reason
            self.path = path
        }
    }

    /// Checks every value the planner relies on and throws the first problem,
    /// in the order of the file's keys: the route's points and maneuvers (and
    /// each change's, which the drive runs along too), the
    /// drive (its speeds, limits, stops and detours, arriving within 24 h),
    /// the fixes (generated with a drive, recorded without one), the link, the
    /// app's windows, the follower and the guidance. A road that passes is
    /// planned by `RoadPlan` without trapping and in bounded time.
    ///
    /// - Complexity: O(points + maneuvers × points + fixes), plus integrating
    ///   the drive (at most 24 h of 100 ms steps).
    public func validate() throws(Problem) {
        var v = RoadValidation(self)
        try v.run()
    }

    /// `validate()` for a road known to have the shape of `valid`, a road
    /// that passed it (`hasShape(of:)`: a fuzz run's snap moves times, never
    /// roads): what the shape decides passes for both, so only the rest is
    /// checked. Any other road is validated in full.
    package func validate(shapedLike valid: RoadSetup) throws(Problem) {
        var v = RoadValidation(self)
        try v.run(shapeKnown: hasShape(of: valid))
    }

    /// `validate()`, returning the road's shape (`RoadShape`), whose true
    /// path validation finds on its way.
    package func validatedShape() throws(Problem) -> RoadShape {
        var v = RoadValidation(self)
        try v.run()
        guard let found = v.found else { return try RoadShape(self) }
        return RoadShape(self, truePath: try v.changedPath?.get() ?? TruePath(placed(found)))
    }

    /// The route through `points` with the maneuvers placed, as the planner
    /// builds it; throws `.route` when the points or maneuvers do not make one.
    package func placedRoute() throws(Problem) -> Route {
        placed(try routeAndPlacements())
    }

    /// The route of `routeAndPlacements()` with the maneuvers placed.
    func placed(_ found: (route: Route, distances: [Double])) -> Route {
        var route = found.route
        route.place(maneuvers.map(\.maneuver), at: found.distances)
        return route
    }

    /// The route through `points` and where each maneuver lies along it
    /// (`Route.placements`), the maneuvers not yet placed: what `validate()`
    /// checks. Throws `.route` when the points or maneuvers do not make one.
    func routeAndPlacements() throws(Problem) -> (route: Route, distances: [Double]) {
        let route: Route
        do { route = try Route(points: points) } catch {
            throw Problem(.route(error), at: [.key("route"), .key("points")])
        }
        do {
            return (route, try route.placements(of: maneuvers.map(\.point)))
        } catch {
            switch error {
            case .maneuverOffRoute(let i, _), .maneuverOutOfOrder(let i):
                throw Problem(.route(error), at: [.key("route"), .key("maneuvers"), .index(i)])
            case .tooFewPoints:
                throw Problem(.route(error), at: [.key("route"), .key("points")])
            }
        }
    }
}

/// One validation pass over a road. A path is built only for a problem:
/// the checks take it as an autoclosure, so a long list of fixes or
/// maneuvers validates without an array per item.
private struct RoadValidation {
    typealias Step = JSONPath.Step
    typealias Limits = RoadSetup.Limits
    let road: RoadSetup
    /// The route and its maneuvers' places, and the true path of a road with changes, once `run` has found them.
    var found: (route: Route, distances: [Double])? = nil
    var changedPath: Result<TruePath, RoadSetup.Problem>? = nil

    init(_ road: RoadSetup) { self.road = road }

    func fail(_ reason: RoadSetup.Problem.Reason, _ path: [Step]) -> RoadSetup.Problem {
        RoadSetup.Problem(reason, at: path)
    }

    /// Within `range`; below zero is `negative` when the range starts at zero or above.
    func number(_ x: Double, _ range: ClosedRange<Double>, _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem)
    {
        if x < 0 && range.lowerBound >= 0 { throw fail(.negative, path()) }
        if !range.contains(x) { throw fail(.outOfRange(range), path()) }  // NaN and infinities are in no range
    }

    /// Above zero and within `range`: zero is `notPositive`.
    func positive(_ x: Double, _ range: ClosedRange<Double>, _ path: @autoclosure () -> [Step]) throws(RoadSetup
        .Problem)
    {
        if x == 0 { throw fail(.notPositive, path()) }
        try number(x, range, path())
    }

    func count(_ n: Int, _ range: ClosedRange<Int>, _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem) {
        if !range.contains(n) { throw fail(.countOutOfRange(range), path()) }
    }

    func time(_ t: SimTime, _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem) {
        if !(SimTime.zero...Limits.maxTime).contains(t) {
            throw fail(.timeOutOfRange(SimTime.zero...Limits.maxTime), path())
        }
    }

    func span(_ t: SimTime, _ path: @autoclosure () -> [Step], least: SimTime = .zero, most: SimTime = Limits.maxSpan)
        throws(RoadSetup.Problem)
    {
        if !(least...most).contains(t) { throw fail(.timeOutOfRange(least...most), path()) }
    }

    func window(_ w: SimInterval, _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem) {
        try time(w.start, path() + [.key("from")])
        try time(w.end, path() + [.key("to")])
        if w.end <= w.start { throw fail(.emptyWindow, path() + [.key("to")]) }
    }

    func windows(_ list: [SimInterval], _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem) {
        for (i, w) in list.enumerated() { try window(w, path() + [.index(i)]) }
    }

    func point(_ p: GeoPoint, _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem) {
        if !(abs(p.latitude) <= 90) { throw fail(.coordinateOutOfRange, path() + [.key("lat")]) }
        if !(abs(p.longitude) <= 180) { throw fail(.coordinateOutOfRange, path() + [.key("lon")]) }
    }

    func text(_ s: String?, _ most: Int, _ path: @autoclosure () -> [Step]) throws(RoadSetup.Problem) {
        guard let s else { return }
        if s.isEmpty { throw fail(.textEmpty, path()) }
        if s.count > most { throw fail(.textTooLong(maxCharacters: most), path()) }
    }

    /// Every check in order; with `shapeKnown` (the road has the shape of
    /// one that passed), none of those the shape decides: the route, its
    /// maneuvers, the drive, the maps door, the places and the changes.
    mutating func run(shapeKnown: Bool = false) throws(RoadSetup.Problem) {
        let truePath = shapeKnown ? nil : try shape()
        switch road.fixes {
        case .generated(let g):
            if road.drive == nil { throw fail(.driveMissing, []) }
            try generated(g)
        case .recorded(let list):
            if road.drive != nil { throw fail(.driveWithRecordedFixes, [.key("drive")]) }
            try recorded(list)
        }
        let link: [Step] = [.key("link")]
        try span(road.link.latency, link + [.key("latency")])
        try span(road.link.freshness, link + [.key("freshness")])
        try windows(road.link.outages, link + [.key("outages")])
        try windows(road.background, [.key("app"), .key("background")])
        if let segments = road.segments { try windows(segments, [.key("app"), .key("segments")]) }
        try follow(road.follow)
        try guidance()
        if !shapeKnown { try changes(truePath) }
    }

    /// The route, its maneuvers and the drive; returns the true path's
    /// result for `changes` (nil without changes).
    mutating func shape() throws(RoadSetup.Problem) -> Result<TruePath, RoadSetup.Problem>? {
        let routePath: [Step] = [.key("route")]
        for (i, p) in road.points.enumerated() { try point(p, routePath + [.key("points"), .index(i)]) }
        try maneuvers(road.maneuvers, routePath + [.key("maneuvers")])
        // A change's road is driven too: a point of it off the earth is refused at its own path, before the drive along it.
        for (c, change) in road.changes.enumerated() {
            let path: [Step] = [.key("changes"), .index(c)]
            for (i, p) in change.points.enumerated() { try point(p, path + [.key("points"), .index(i)]) }
            try maneuvers(change.maneuvers, path + [.key("maneuvers")])
        }
        let found = try road.routeAndPlacements()
        let route = found.route
        if !(route.length <= Route.maxLength) {
            throw fail(.routeTooLong(meters: route.length), routePath + [.key("points")])
        }
        // The car drives its true path: the route, then the roads it changes onto (a bad change is reported below).
        let truePath =
            road.changes.isEmpty
            ? nil : Result { () throws(RoadSetup.Problem) in try road.truePath(from: road.placed(found)) }
        (self.found, changedPath) = (found, truePath)
        let driven = (try? truePath?.get())?.route.length ?? route.length
        if let drive = road.drive { try self.drive(drive, length: min(driven, Route.maxLength)) }
        return truePath
    }

    /// The maps door, the saved places and the route changes (docs/road.md,
    /// "Route changes"); `truePath` is the road's (`RoadSetup.truePath()`), nil without changes.
    func changes(_ truePath: Result<TruePath, RoadSetup.Problem>?) throws(RoadSetup.Problem) {
        let maps: [Step] = [.key("maps")]
        try span(road.maps.latency, maps + [.key("latency")], least: SimTime(ms: 100), most: SimTime(ms: 60_000))
        try span(road.maps.timeout, maps + [.key("timeout")], least: SimTime(ms: 100), most: SimTime(ms: 120_000))
        if road.maps.timeout <= road.maps.latency { throw fail(.timeoutNotAboveLatency, maps + [.key("timeout")]) }
        try span(road.maps.retry, maps + [.key("retry")], least: SimTime(ms: 1_000), most: SimTime(ms: 600_000))
        for (i, place) in road.places.enumerated() {
            try text(place.name, Limits.streetCharacters, [.key("places"), .index(i), .key("name")])
            if road.places[..<i].contains(where: { $0.name == place.name }) {
                throw fail(.duplicateName, [.key("places"), .index(i), .key("name")])
            }
            try point(place.point, [.key("places"), .index(i)])
        }
        guard let truePath else { return }
        if road.drive == nil { throw fail(.changesNeedADrive, [.key("changes")]) }
        for (c, change) in road.changes.enumerated() {
            let path: [Step] = [.key("changes"), .index(c)]
            try count(change.refusals, 0...10, path + [.key("refusals")])
            guard let handoff = change.handoff else { continue }
            let h = path + [.key("handoff")]
            try count(handoff.sent.count, 1...10, h + [.key("sent")])
            // The times ascending; the stretch an `after` names is the scenario's to judge (`Scenario.validate()`).
            var last: SimTime? = nil
            for (i, sending) in handoff.sent.enumerated() {
                guard case .at(let t) = sending else { continue }
                try time(t, h + [.key("sent"), .index(i)])
                if let last, t < last { throw fail(.sentOutOfOrder, h + [.key("sent"), .index(i)]) }
                last = t
            }
            try text(handoff.place, Limits.streetCharacters, h + [.key("place")])
            try text(handoff.destination, Limits.streetCharacters, h + [.key("destination")])
        }
        let path = try truePath.get()
        if !(path.route.length <= Route.maxLength) {
            throw fail(.routeTooLong(meters: path.route.length), [.key("changes")])
        }
    }

    /// A route's (or a change's) maneuvers, `base` their list's path.
    func maneuvers(_ list: [RoadSetup.ManeuverSpec], _ base: [Step]) throws(RoadSetup.Problem) {
        for (i, m) in list.enumerated() {
            func path() -> [Step] { base + [.index(i)] }
            if i > 0, list[i - 1].turn == .arrive { throw fail(.arrivalNotLast, path()) }
            try point(m.point, path())
            try text(m.street, Limits.streetCharacters, path() + [.key("street")])
            try text(m.details.toward, Int.max, path() + [.key("toward")])
            try text(m.details.exitNumber, Limits.refCharacters, path() + [.key("ref")])
            try text(m.details.exitName, Int.max, path() + [.key("name")])
            if let exit = m.details.exit {
                try count(exit, 1...ManeuverDetails.exits, path() + [.key("exit")])
            } else if m.turn == .roundabout {
                throw fail(.exitMissing, path())
            }
        }
    }

    func drive(_ drive: RoadSetup.Drive, length: Double) throws(RoadSetup.Problem) {
        let path: [Step] = [.key("drive")]
        let steps = drive.profile.steps
        if steps.isEmpty { throw fail(.stepsOutOfOrder, path + [.key("speeds")]) }
        for (i, s) in steps.enumerated() {
            func sPath() -> [Step] { path + [.key("speeds"), .index(i)] }
            if !(s.from >= 0 && s.from <= 100_000_000) {
                throw fail(.outOfRange(0...100_000_000), sPath() + [.key("from")])
            }
            if (i == 0 && s.from != 0) || (i > 0 && !(s.from >= steps[i - 1].from + Limits.stepSpacing)) {
                throw fail(.stepsOutOfOrder, sPath() + [.key("from")])
            }
            // The profile is in m/s, the file and the limit in km/h: compared in
            // m/s, as the decoder divides (division is monotonic, so a km/h within
            // the limit is a m/s within the limit divided).
            let kmh = Limits.kmh
            if s.speed == 0 { throw fail(.notPositive, sPath() + [.key("kmh")]) }
            if s.speed < 0 { throw fail(.negative, sPath() + [.key("kmh")]) }
            if !((kmh.lowerBound / 3.6)...(kmh.upperBound / 3.6)).contains(s.speed) {
                throw fail(.outOfRange(kmh), sPath() + [.key("kmh")])
            }
        }
        try time(drive.start, path + [.key("start")])
        try positive(drive.profile.accel, Limits.acceleration, path + [.key("accel")])
        try positive(drive.profile.decel, Limits.acceleration, path + [.key("decel")])
        for (i, d) in drive.detours.enumerated() {
            func dPath() -> [Step] { path + [.key("detours"), .index(i)] }
            try number(d.offset, -10_000...10_000, dPath() + [.key("offset")])
            try window(d.window, dPath())
        }
        for (i, stop) in drive.profile.stops.enumerated() {
            func sPath() -> [Step] { path + [.key("stops"), .index(i)] }
            try number(stop.at, 0...Route.maxLength, sPath() + [.key("at")])
            if i > 0, !(stop.at >= drive.profile.stops[i - 1].at + Limits.stepSpacing) {
                throw fail(.stepsOutOfOrder, sPath() + [.key("at")])
            }
            try span(stop.dwell, sPath() + [.key("dwell")])
        }
        // SPEC 2: the drive ends within 24 h; integrated up to the limit and no further.
        if Trajectory.arrival(profile: drive.profile, length: length, start: drive.start, limit: Limits.maxTime) == nil
        {
            throw fail(.driveTooLong, path)
        }
    }

    func generated(_ g: FixGenerator) throws(RoadSetup.Problem) {
        let path: [Step] = [.key("fixes")]
        try span(g.every, path + [.key("every")], least: SimTime(ms: Limits.everyMs))
        try number(g.accuracy, 0...10_000, path + [.key("accuracy")])
        try number(g.noise, 0...10_000, path + [.key("noise")])
        try span(g.delay, path + [.key("delay")])
        try span(g.jitter, path + [.key("jitter")])
        try count(g.dropPercent, 0...100, path + [.key("dropPercent")])
        try windows(g.gaps, path + [.key("gaps")])
        for (i, late) in g.late.enumerated() {
            try window(late.window, path + [.key("late"), .index(i)])
            try span(late.delay, path + [.key("late"), .index(i), .key("delay")])
        }
        if let c = g.correlation { try span(c, path + [.key("correlation")], least: SimTime(ms: 1)) }
        for (i, s) in g.stretches.enumerated() {
            func sPath() -> [Step] { path + [.key("stretches"), .index(i)] }
            try number(s.from, 0...Route.maxLength, sPath() + [.key("from")])
            try number(s.to, 0...Route.maxLength, sPath() + [.key("to")])
            if s.to <= s.from { throw fail(.emptyWindow, sPath() + [.key("to")]) }
            try number(s.accuracy, 0...10_000, sPath() + [.key("accuracy")])
            try number(s.noise, 0...10_000, sPath() + [.key("noise")])
        }
        try count(g.accuracySpread, 0...90, path + [.key("accuracySpread")])
        for (i, j) in g.jumps.enumerated() {
            func jPath() -> [Step] { path + [.key("jumps"), .index(i)] }
            try time(j.at, jPath() + [.key("at")])
            try number(j.along, -10_000...10_000, jPath() + [.key("along")])
            try number(j.across, -10_000...10_000, jPath() + [.key("across")])
        }
        try count(g.jumpPercent, 0...100, path + [.key("jumpPercent")])
        try number(g.jumpMeters, 0...10_000, path + [.key("jumpMeters")])
    }

    func recorded(_ list: [RoadSetup.RecordedFix]) throws(RoadSetup.Problem) {
        for (i, f) in list.enumerated() {
            func path() -> [Step] { [.key("fixes"), .key("recorded"), .index(i)] }
            try time(f.taken, path() + [.key("at")])
            if i > 0, f.taken < list[i - 1].taken { throw fail(.fixTimeBackwards, path() + [.key("at")]) }
            try time(f.arrives, path() + [.key("arrives")])
            if f.arrives < f.taken { throw fail(.arrivesBeforeTaken, path() + [.key("arrives")]) }
            try point(f.point, path())
            try number(f.accuracy, 0...100_000, path() + [.key("accuracy")])
            if let s = f.speed { try number(s, 0...150, path() + [.key("speed")]) }
            if let c = f.course {
                if c < 0 { throw fail(.negative, path() + [.key("course")]) }
                if !(c < 360) { throw fail(.courseOutOfRange, path() + [.key("course")]) }
            }
            if let t = f.truth { try point(t, path() + [.key("true")]) }
        }
    }

    func follow(_ s: RouteFollower.Settings) throws(RoadSetup.Problem) {
        let path: [Step] = [.key("follow")]
        try positive(s.accuracyLimit, 0...100_000, path + [.key("accuracyLimit")])
        try positive(s.offRouteEnter, 0...10_000, path + [.key("offRouteEnter")])
        try positive(s.offRouteExit, 0...10_000, path + [.key("offRouteExit")])
        try count(s.offRouteCount, 1...100, path + [.key("offRouteCount")])
        try positive(s.plausibleSpeed, 1...150, path + [.key("plausibleSpeed")])
        try positive(s.plausibleAccel, 0.5...20, path + [.key("plausibleAccel")])
        try count(s.implausibleCount, 0...100, path + [.key("implausibleCount")])
        try number(s.stoppedSpeed, 0...5, path + [.key("stoppedSpeed")])
        // Not in the file; bounded all the same.
        try number(s.searchBehind, 0...10_000, path + [.key("searchBehind")])
        try number(s.searchAhead, 0...10_000, path + [.key("searchAhead")])
        try number(s.searchSpeed, 1...150, path + [.key("searchSpeed")])
        if s.offRouteExit > s.offRouteEnter {
            throw fail(.exitBeyondEnter(enter: s.offRouteEnter), path + [.key("offRouteExit")])
        }
    }

    func guidance() throws(RoadSetup.Problem) {
        let g = road.guidance
        let path: [Step] = [.key("guidance")]
        for (key, lead) in [("far", g.far), ("near", g.near), ("now", g.now)] {
            try number(lead.seconds, 0...600, path + [.key(key), .key("seconds")])
            try number(lead.growth, 0...60, path + [.key(key), .key("growth")])
            try number(lead.minimum, 0...100_000, path + [.key(key), .key("minimum")])
        }
        try number(g.thenWithin, 0...10_000, path + [.key("thenWithin")])
        try number(g.thenSeconds, 0...600, path + [.key("thenSeconds")])
        try span(g.margin, path + [.key("margin")])
        try span(g.outputLatency, path + [.key("outputLatency")], most: SimTime(ms: Limits.outputLatencyMs))
        try span(road.horizon, path + [.key("horizon")], most: SimTime(ms: Limits.horizonMs))
        try positive(g.rates.englishWordsPerSecond, Limits.rate, path + [.key("rates"), .key("en")])
        try positive(g.rates.koreanSyllablesPerSecond, Limits.rate, path + [.key("rates"), .key("ko")])
    }
}

/// The road the car truly drives (docs/road.md, "Route changes"): the
/// scenario's route up to the first change's branch, then each change's
/// road in turn, all in the route's plane. Without changes it is the route.
package struct TruePath: Sendable {
    /// The scenario's route, its maneuvers placed.
    package let first: Route
    /// The path the car drives, in the same plane.
    package let route: Route
    /// Per change, its road (in the same plane), its maneuvers placed on it.
    package let roads: [Route]
    /// Per change, the path's distance at its road's first point.
    package let starts: [Double]

    /// The road a route index names: 0 the scenario's route, k change k − 1's road.
    package func road(_ k: Int) -> Route { k == 0 ? first : roads[k - 1] }
    /// Where road `k` begins on the path.
    package func start(_ k: Int) -> Double { k == 0 ? 0 : starts[k - 1] }
    /// How far along the path the car keeps to road `k`: up to the next change's branch, or the path's end.
    package func reach(_ k: Int) -> Double { k < starts.count ? starts[k] : route.length }

    /// Whether the car truly reaches `d` along the path while on road `k`
    /// (a road's end, the path's, is reached though the sums that place it
    /// differ in the last bits: within `slack`).
    package func reaches(_ d: Double, on k: Int) -> Bool { d <= reach(k) + TruePath.slack }
    /// How far past a road's reach a distance still counts as reaching it, meters.
    package static let slack = 0.001

    /// Every maneuver the car truly reaches on its own road, by id: its distance along the path (at most the path's length).
    package var maneuverDistances: [String: Double] {
        var out: [String: Double] = [:]
        for k in 0...roads.count {
            for m in road(k).maneuvers where reaches(start(k) + m.distance, on: k) {
                out[m.id] = min(start(k) + m.distance, route.length)
            }
        }
        return out
    }
}

extension TruePath {
    /// The path of a road without changes: its route alone.
    init(_ route: Route) { self.init(first: route, route: route, roads: [], starts: []) }
}

extension RoadSetup {
    /// The path the car truly drives (`TruePath`); throws `.route` (or
    /// `.branchOffRoad` for a change's first point) where the roads do not make one.
    /// - Complexity: O(points of the route and every change).
    package func truePath() throws(Problem) -> TruePath {
        try truePath(from: placedRoute())
    }

    /// The true path from the route placed (`placedRoute()`).
    func truePath(from first: Route) throws(Problem) -> TruePath {
        guard !changes.isEmpty else { return TruePath(first) }
        var path = first
        var roads: [Route] = []
        var starts: [Double] = []
        for (c, change) in changes.enumerated() {
            func at(_ rest: [JSONPath.Step]) -> [JSONPath.Step] { [.key("changes"), .index(c)] + rest }
            guard change.points.count >= 2 else { throw Problem(.route(.tooFewPoints), at: at([.key("points")])) }
            let plane = change.points.map(first.projection.project)
            var road = Route(plane: plane, projection: first.projection)
            let previous = starts.last ?? 0
            guard let branch = path.firstPass(near: change.points[0], from: previous) else {
                let offset = path.nearest(to: plane[0], from: previous, to: path.length).offset
                throw Problem(.branchOffRoad(meters: offset), at: at([.key("points"), .index(0)]))
            }
            do {
                road.place(change.maneuvers.map(\.maneuver), at: try road.placements(of: change.maneuvers.map(\.point)))
            } catch {
                switch error {
                case .maneuverOffRoute(let i, _), .maneuverOutOfOrder(let i):
                    throw Problem(.route(error), at: at([.key("maneuvers"), .index(i)]))
                case .tooFewPoints:
                    throw Problem(.route(error), at: at([.key("points")]))
                }
            }
            let joined = path.joined(at: branch, to: plane)
            starts.append(joined.cumulative[joined.points.count - plane.count])
            roads.append(road)
            path = joined
        }
        return TruePath(first: first, route: path, roads: roads, starts: starts)
    }
}
