import Guidance
import Road
import SimClock
import SimRunner

/// Shrinking the road: its route's points, its maneuvers' details, its
/// speeds, fixes, link and windows (docs/fuzzing.md#shrinking). Every
/// candidate goes through `fails` like any other: valid, and still failing
/// the same check, or it is not kept.
extension Shrinker {
    // MARK: The route's points

    /// The route's points down to what the failure needs. The passes, in order:
    /// 1. every straight vertex (within 1 cm of the line from the vertex kept
    ///    before it to the next) dropped at once: the same geometry;
    /// 2. only the ends and the vertices the maneuvers lie at kept, at once;
    ///    then each run of vertices between two of those emptied, last run first;
    /// 3. every other vertex of each run of two or more dropped, repeated while it halves;
    /// 4. the route started at a later vertex before the first maneuver (the
    ///    nearest of up to four), the drive setting off later so that it
    ///    reaches that maneuver when it did (`starting(_:atVertex:)`);
    /// 5. each vertex alone (the ends included), last first;
    /// 6. the route's end (with a maneuver that lies there) moved halfway back
    ///    along its last segment, while the failure survives and the segment
    ///    keeps 100 m, at most 8 times;
    /// 7. every coordinate (points and maneuvers) rounded to 4, else 5, else 6
    ///    decimals (never so coarse that two neighbouring points become one).
    mutating func shrinkRoute(_ current: inout Scenario) {
        guard current.road != nil else { return }
        @discardableResult
        func attempt(_ points: [GeoPoint]) -> Bool {
            guard points.count >= 2, points != current.road!.points else { return false }
            var candidate = current
            candidate.road!.points = points
            guard fails(candidate) else { return false }
            current = candidate
            return true
        }
        // 1. Straight runs, on the route and on every road it changes onto.
        attempt(Self.withoutStraightVertices(current.road!.points))
        for c in current.road!.changes.indices {
            var candidate = current
            candidate.road!.changes[c].points = Self.withoutStraightVertices(current.road!.changes[c].points)
            if candidate != current, fails(candidate) { current = candidate }
        }
        // 2. Runs between anchors.
        attempt(Self.anchors(of: current.road!).map { current.road!.points[$0] })
        // Last run first, so that emptying one leaves the indices of those before it.
        let anchors = Self.anchors(of: current.road!)
        for (a, b) in zip(anchors, anchors.dropFirst()).reversed() where b - a > 1 {
            var points = current.road!.points
            points.removeSubrange((a + 1)..<b)
            attempt(points)
        }
        // 3. Halving dense runs.
        for _ in 0..<8 {
            var halved = false
            let anchors = Self.anchors(of: current.road!)
            for (a, b) in zip(anchors, anchors.dropFirst()).reversed() where b - a > 2 {
                let points = current.road!.points.enumerated().filter { i, _ in !(i > a && i < b && (i - a) % 2 == 1) }
                    .map(\.element)
                if attempt(points) { halved = true }
            }
            if !halved { break }
        }
        // 4. A later start.
        if let first = Self.anchors(of: current.road!, maneuversOnly: true).first {
            for k in stride(from: first - 1, through: max(1, first - 4), by: -1) {
                if let candidate = Self.starting(current, atVertex: k), fails(candidate) {
                    current = candidate
                    break
                }
            }
        }
        // 5. Single vertices.
        for i in current.road!.points.indices.reversed()
        where current.road!.points.count > 2 && i < current.road!.points.count {
            var points = current.road!.points
            points.remove(at: i)
            attempt(points)
        }
        // 6. A shorter last segment; a maneuver at the end (an arrival) moves with it.
        for _ in 0..<8 {
            var candidate = current
            let n = candidate.road!.points.count
            let a = candidate.road!.points[n - 2]
            let b = candidate.road!.points[n - 1]
            let mid = GeoPoint(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
            // A road still, not a point: the last segment keeps `shortestLastSegment`.
            guard (LocalProjection(origin: a).project(mid)).length >= Self.shortestLastSegment else { break }
            candidate.road!.points[n - 1] = mid
            for i in candidate.road!.maneuvers.indices where candidate.road!.maneuvers[i].point == b {
                candidate.road!.maneuvers[i].point = mid
            }
            guard fails(candidate) else { break }
            current = candidate
        }
        // 7. Round coordinates.
        for decimals in [4, 5, 6] {
            var candidate = current
            candidate.road!.roundCoordinates(decimals: decimals)
            if candidate == current { break }
            // Too coarse where two neighbours become one point.
            func repeats(_ road: Scenario.Road) -> Bool {
                ([road.points] + road.changes.map(\.points)).contains { p in zip(p, p.dropFirst()).contains { $0 == $1 }
                }
            }
            if repeats(candidate.road!) && !repeats(current.road!) { continue }
            if fails(candidate) {
                current = candidate
                break
            }
        }
    }

    /// The shortest last segment the shrinker leaves when it moves the route's end back, meters.
    static let shortestLastSegment = 100.0

    /// `points` without the vertices that lie on a straight line between
    /// their neighbours (within 1 cm, strictly between them): the same
    /// polyline with fewer vertices.
    static func withoutStraightVertices(_ points: [GeoPoint]) -> [GeoPoint] {
        guard points.count > 2 else { return points }
        let projection = LocalProjection(origin: points[0])
        let plane = points.map(projection.project)
        var kept = [0]
        for i in 1..<(points.count - 1) {
            let a = plane[kept[kept.count - 1]]
            let p = plane[i]
            let b = plane[i + 1]
            let ab = b - a
            let ap = p - a
            let span2 = ab.x * ab.x + ab.y * ab.y
            let u = span2 > 0 ? (ap.x * ab.x + ap.y * ab.y) / span2 : -1
            let off = (ap - ab * u).length
            if !(u > 0 && u < 1 && off <= 0.01) { kept.append(i) }
        }
        kept.append(points.count - 1)
        return kept.map { points[$0] }
    }

    /// The indices of the route's ends (unless `maneuversOnly`) and of the
    /// vertex nearest each maneuver's place on it, ascending; just the ends
    /// when the route cannot be placed.
    static func anchors(of road: Scenario.Road, maneuversOnly: Bool = false) -> [Int] {
        var out = maneuversOnly ? [] : [0, road.points.count - 1]
        if let route = try? road.placedRoute() {
            for m in route.maneuvers {
                let i = route.segment(at: m.distance)
                let nearer = m.distance - route.cumulative[i] <= route.cumulative[i + 1] - m.distance ? i : i + 1
                out.append(nearer)
            }
        }
        var sorted: [Int] = []
        for i in out.sorted() where sorted.last != i { sorted.append(i) }
        return sorted
    }

    /// `scenario` with its route starting at vertex `k`, before the first
    /// maneuver: the speed steps, stops and fix stretches moved back by the
    /// distance cut, and the drive setting off at the instant (a whole number
    /// of `every` later, so fixes keep their phase) from which it reaches the
    /// first maneuver when it did. Nil when there is no such instant, the
    /// fixes are recorded or nothing is cut.
    static func starting(_ scenario: Scenario, atVertex k: Int) -> Scenario? {
        guard var road = scenario.road, k > 0, k < road.points.count - 1, let drive = road.drive,
            case .generated(var g) = road.fixes, let route = try? road.placedRoute(), let first = route.maneuvers.first
        else { return nil }
        let cut = route.cumulative[k]
        guard cut < first.distance else { return nil }
        let old = Trajectory(profile: drive.profile, length: route.length, start: drive.start)
        guard let passes = old.time(reaching: first.distance) else { return nil }
        var profile = drive.profile
        var steps: [SpeedProfile.Step] = []
        for step in profile.steps {
            let from = max(0, step.from - cut)
            if from == 0 {
                steps = [SpeedProfile.Step(from: 0, speed: step.speed)]
            } else {
                steps.append(SpeedProfile.Step(from: from, speed: step.speed))
            }
        }
        profile.steps = steps
        profile.stops = profile.stops.filter { $0.at >= cut }.map {
            SpeedProfile.Stop(at: $0.at - cut, dwell: $0.dwell)
        }
        g.stretches = g.stretches.filter { $0.to > cut }.map {
            FixGenerator.Stretch(from: max(0, $0.from - cut), to: $0.to - cut, accuracy: $0.accuracy, noise: $0.noise)
        }
        let fresh = Trajectory(profile: profile, length: route.length - cut, start: .zero)
        guard let reach = fresh.time(reaching: first.distance - cut) else { return nil }
        let every = max(1, g.every.ms)
        let shift = passes.ms - reach.ms - drive.start.ms
        let start =
            drive.start.ms + (shift >= 0 ? (shift + every / 2) / every : -((-shift + every / 2) / every)) * every
        guard start >= 0 else { return nil }
        var out = scenario
        road.points.removeFirst(k)
        road.drive!.profile = profile
        road.drive!.start = SimTime(ms: start)
        road.fixes = .generated(g)
        out.road = road
        return out
    }

    // MARK: Everything else on the road

    /// The road's values simplified, each only where the failure survives, in
    /// this order: a waypoint's U-turn, a waypoint or a ferry as straight on,
    /// the maneuvers' streets and details (a roundabout keeps its exit); the
    /// stops left out; the speed profile to one step (each step's speed tried from 0),
    /// the speeds rounded to 10, 5 or 1 km/h, the limits back to their
    /// defaults; the follower's and the guidance's settings and the horizon
    /// back to their defaults; the fixes' seed and models (stretches, drawn
    /// jumps) back to their defaults; every time of the scenario moved so
    /// that the drive sets off at 0 (a window that began before then begins
    /// at 0); then every road time (the start, the
    /// link's latency and freshness, the output latency, the fixes' delay
    /// and jitter, every window's ends, a late window's delay, a jump's
    /// instant, a stop's dwell) rounded to whole seconds, half seconds or
    /// tenths, and every road distance (a stop's place, a step's start, a
    /// detour's offset, a jump's displacement) to 10 m or whole meters.
    mutating func simplifyRoadValues(_ current: inout Scenario) {
        guard current.road != nil else { return }
        func attempt(_ change: (inout Scenario.Road) -> Void) {
            var candidate = current
            change(&candidate.road!)
            if candidate != current, fails(candidate) { current = candidate }
        }
        for i in current.road!.maneuvers.indices {
            // A waypoint (a U-turn at it) or a ferry only where the failure needs one.
            if [.waypoint, .ferry].contains(current.road!.maneuvers[i].turn) {
                attempt { $0.maneuvers[i].details.uTurn = false }
                attempt { r in
                    r.maneuvers[i].turn = .straight
                    r.maneuvers[i].details = ManeuverDetails()
                }
            }
            attempt { $0.maneuvers[i].street = nil }
            attempt { r in
                var details = ManeuverDetails()
                details.exit = r.maneuvers[i].details.exit
                r.maneuvers[i].details = details
            }
        }
        // A ferry's wait at its terminal, or a stop, only where the failure needs it.
        if current.road!.drive?.profile.stops.isEmpty == false { attempt { $0.drive!.profile.stops = [] } }
        if let steps = current.road!.drive?.profile.steps, steps.count > 1 {
            for step in steps.dropFirst() {
                attempt { $0.drive!.profile.steps = [SpeedProfile.Step(from: 0, speed: step.speed)] }
            }
            for i in steps.indices.dropFirst().reversed() where i < current.road!.drive!.profile.steps.count {
                attempt { $0.drive!.profile.steps.remove(at: i) }
            }
        }
        for kmh in [10.0, 5, 1] {
            for i in current.road!.drive?.profile.steps.indices ?? 0..<0 {
                attempt { r in
                    let speed = r.drive!.profile.steps[i].speed
                    r.drive!.profile.steps[i].speed = max(kmh, (speed * 3.6 / kmh).rounded() * kmh) / 3.6
                }
            }
        }
        let profile = SpeedProfile(steps: [])
        attempt { $0.drive?.profile.accel = profile.accel }
        attempt { $0.drive?.profile.decel = profile.decel }
        attempt { $0.follow = RouteFollower.Settings() }
        attempt { $0.guidance = GuidanceSettings(language: $0.language) }
        attempt { $0.horizon = RoadSetup.defaultHorizon }
        attempt { $0.maps = RoadSetup.MapsDoor() }
        for c in current.road!.changes.indices {
            attempt { $0.changes[c].refusals = 0 }
            attempt { $0.changes[c].handoff?.place = nil }
            attempt { $0.changes[c].handoff?.destination = nil }
            for i in current.road!.changes[c].maneuvers.indices {
                attempt { $0.changes[c].maneuvers[i].street = nil }
                attempt { $0.changes[c].maneuvers[i].details = ManeuverDetails() }
            }
        }
        let fixDefaults = FixGenerator()
        func fixes(_ change: (inout FixGenerator) -> Void) {
            attempt { r in
                if case .generated(var g) = r.fixes {
                    change(&g)
                    r.fixes = .generated(g)
                }
            }
        }
        fixes { $0.seed = fixDefaults.seed }
        fixes { $0.stretches = [] }
        fixes { $0.jumpPercent = 0 }
        fixes { $0.jumpMeters = fixDefaults.jumpMeters }
        if let start = current.road!.drive?.start, start > .zero {
            var candidate = current
            candidate.shiftTimes(by: SimTime(ms: -start.ms))
            candidate.road!.shiftTimes(by: SimTime(ms: -start.ms))
            if fails(candidate) { current = candidate }
        }
        for step in [1_000, 500, 100] as [Int64] {
            for path in current.road!.timePaths {
                attempt { $0[keyPath: path] = SimTime(ms: ($0[keyPath: path].ms + step / 2) / step * step) }
            }
        }
        for step in [10.0, 1] {
            for path in current.road!.distancePaths {
                attempt { $0[keyPath: path] = ($0[keyPath: path] / step).rounded() * step }
            }
        }
    }

    /// Recorded fixes removed: halves, then quarters, and so on down to
    /// single fixes, each removal kept only where the failure survives.
    mutating func shrinkRecordedFixes(_ current: inout Scenario) {
        guard case .recorded(let first) = current.road?.fixes else { return }
        var size = max(1, first.count / 2)
        while true {
            guard case .recorded(let list) = current.road?.fixes else { return }
            var start = list.count - size
            while start >= 0 {
                guard case .recorded(var fixes) = current.road!.fixes, start + size <= fixes.count else { break }
                fixes.removeSubrange(start..<(start + size))
                var candidate = current
                candidate.road!.fixes = .recorded(fixes)
                if fails(candidate) { current = candidate }
                start -= size
            }
            if size == 1 { return }
            size = max(1, size / 2)
        }
    }
}

extension RoadSetup.Sending {
    /// The time of a sending at a time, zero for one after a stretch (set: ignored then).
    fileprivate var time: SimTime {
        get { if case .at(let t) = self { t } else { .zero } }
        set { if case .at = self { self = .at(newValue) } }
    }
}

extension RoadSetup {
    /// The generated fixes' settings, nil for recorded fixes (set: ignored then).
    fileprivate var generatedFixes: FixGenerator? {
        get { if case .generated(let g) = fixes { return g } else { return nil } }
        set { if let newValue, case .generated = fixes { fixes = .generated(newValue) } }
    }

    /// Every time and duration of the road the shrinker rounds; a setting
    /// at its default is left as it is (the file leaves it out: simpler than any round value).
    fileprivate var timePaths: [WritableKeyPath<RoadSetup, SimTime>] {
        var out: [WritableKeyPath<RoadSetup, SimTime>] = []
        let link = LocationLink()
        let guidance = GuidanceSettings(language: language)
        let settings: [(WritableKeyPath<RoadSetup, SimTime>, SimTime)] = [
            (\.link.latency, link.latency), (\.link.freshness, link.freshness),
            (\.guidance.outputLatency, guidance.outputLatency),
        ]
        for (path, value) in settings where self[keyPath: path] != value { out.append(path) }
        let maps = MapsDoor()
        for (path, value) in [
            (\RoadSetup.maps.latency, maps.latency), (\.maps.timeout, maps.timeout), (\.maps.retry, maps.retry),
        ]
        where self[keyPath: path] != value { out.append(path) }
        for c in changes.indices {
            for (i, sending) in (changes[c].handoff?.sent ?? []).enumerated() where sending.stretch == nil {
                out.append(\.changes[c].handoff!.sent[i].time)
            }
        }
        func window(_ list: WritableKeyPath<RoadSetup, [SimInterval]>, _ count: Int) {
            for i in 0..<count { out += [list.appending(path: \.[i].start), list.appending(path: \.[i].end)] }
        }
        window(\.link.outages, link.outages.count)
        window(\.background, background.count)
        if let segments { window(\.segments!, segments.count) }
        if let drive {
            out.append(\.drive!.start)
            for i in drive.detours.indices {
                out += [\.drive!.detours[i].window.start, \.drive!.detours[i].window.end]
            }
            for i in drive.profile.stops.indices { out.append(\.drive!.profile.stops[i].dwell) }
        }
        if let g = generatedFixes {
            if g.delay != FixGenerator().delay { out.append(\.generatedFixes!.delay) }
            out.append(\.generatedFixes!.jitter)
            window(\.generatedFixes!.gaps, g.gaps.count)
            for i in g.late.indices {
                out += [
                    \.generatedFixes!.late[i].window.start, \.generatedFixes!.late[i].window.end,
                    \.generatedFixes!.late[i].delay,
                ]
            }
            for i in g.jumps.indices { out.append(\.generatedFixes!.jumps[i].at) }
        }
        return out
    }

    /// Every instant of the road moved by `shift`: the drive's start, every
    /// window (one that would begin before 0 begins at 0), every jump.
    fileprivate mutating func shiftTimes(by shift: SimTime) {
        func moved(_ w: SimInterval) -> SimInterval { SimInterval(max(.zero, w.start + shift), w.end + shift) }
        link.outages = link.outages.map(moved)
        background = background.map(moved)
        segments = segments?.map(moved)
        for c in changes.indices where changes[c].handoff != nil {
            for i in changes[c].handoff!.sent.indices {
                changes[c].handoff!.sent[i].time = max(.zero, changes[c].handoff!.sent[i].time + shift)
            }
        }
        if drive != nil {
            drive!.start = drive!.start + shift
            for i in drive!.detours.indices { drive!.detours[i].window = moved(drive!.detours[i].window) }
        }
        if var g = generatedFixes {
            g.gaps = g.gaps.map(moved)
            g.late = g.late.map { (moved($0.window), $0.delay) }
            for i in g.jumps.indices { g.jumps[i].at = g.jumps[i].at + shift }
            generatedFixes = g
        }
    }

    /// Every distance of the road the shrinker rounds, in meters.
    fileprivate var distancePaths: [WritableKeyPath<RoadSetup, Double>] {
        var out: [WritableKeyPath<RoadSetup, Double>] = []
        if let drive {
            for i in drive.profile.stops.indices { out.append(\.drive!.profile.stops[i].at) }
            for i in drive.profile.steps.indices.dropFirst() { out.append(\.drive!.profile.steps[i].from) }
            for i in drive.detours.indices { out.append(\.drive!.detours[i].offset) }
        }
        for i in generatedFixes?.jumps.indices ?? 0..<0 {
            out += [\.generatedFixes!.jumps[i].along, \.generatedFixes!.jumps[i].across]
        }
        return out
    }

    /// Every point of the route and every maneuver's point rounded to `decimals` decimals of a degree.
    fileprivate mutating func roundCoordinates(decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        func round(_ p: GeoPoint) -> GeoPoint {
            GeoPoint(
                latitude: (p.latitude * scale).rounded() / scale, longitude: (p.longitude * scale).rounded() / scale)
        }
        points = points.map(round)
        for i in maneuvers.indices { maneuvers[i].point = round(maneuvers[i].point) }
        for c in changes.indices {
            changes[c].points = changes[c].points.map(round)
            for i in changes[c].maneuvers.indices {
                changes[c].maneuvers[i].point = round(changes[c].maneuvers[i].point)
            }
        }
        for i in places.indices { places[i].point = round(places[i].point) }
    }
}
