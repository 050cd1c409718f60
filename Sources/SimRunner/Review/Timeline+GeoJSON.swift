import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// Where things were on the road: the routes, the car's true position over
/// time, and each fix's position, rebuilt from the scenario exactly as the
/// planner builds them (the same true path, trajectory and fix generator).
struct RoadGeometry {
    /// The scenario's route and each change's road, their maneuvers placed, in one plane.
    let path: TruePath
    let trajectory: Trajectory?
    /// Each fix's position, by fix number (nil for a fix never taken).
    let fixes: [Vector?]
    let fixTimes: [SimTime?]

    /// The scenario's route, its maneuvers placed.
    var first: Route { path.first }
    /// The road the car truly drives: the route, or with changes the route
    /// up to the first branch and each change's road in turn. The car's
    /// position and the generated fixes are along it.
    var route: Route { path.route }

    init?(_ road: Scenario.Road?) {
        guard let road, let path = try? road.truePath() else { return nil }
        self.path = path
        let route = path.route
        let trajectory = road.drive.map { Trajectory(profile: $0.profile, length: route.length, start: $0.start) }
        self.trajectory = trajectory
        switch road.fixes {
        case .recorded(let list):
            fixes = list.map { route.projection.project($0.point) }
            fixTimes = list.map(\.taken)
        case .generated(let generator):
            guard let trajectory, road.drive != nil else {
                fixes = []
                fixTimes = []
                return
            }
            let made = road.generatedFixes(generator, on: route, trajectory: trajectory)
            var positions = [Vector?](repeating: nil, count: (made.last?.index ?? -1) + 1)
            var times = [SimTime?](repeating: nil, count: positions.count)
            for f in made {
                positions[f.index] = f.position
                times[f.index] = f.taken
            }
            fixes = positions
            fixTimes = times
        }
    }

    func geo(_ v: Vector) -> GeoPoint { route.projection.unproject(v) }
}

extension Timeline {
    /// The drive as a GeoJSON FeatureCollection (RFC 7946) any map tool
    /// opens: every route of the drive (the first and each change's), the
    /// true path when it changes route, every maneuver, every fix, where each
    /// guidance line started, each route switch and handoff taken, and every
    /// dropped report, each with a `kind` property.
    /// Without a road, an empty collection.
    ///
    /// Written as it goes (`JSONStream`: the bytes `JSONWriter` gives the
    /// same value), each object's members in key order.
    public func geoJSON(_ scenario: Scenario) -> String {
        String(decoding: geoJSONBytes(scenario), as: UTF8.self)
    }

    /// `geoJSON(_:)`'s UTF-8, as `run` writes it.
    func geoJSONBytes(_ scenario: Scenario) -> [UInt8] {
        var out = JSONStream()
        func point(_ p: GeoPoint) {
            out.key("geometry")
            out.open(.object)
            out.key("coordinates")
            out.open(.array)
            out.item()
            GeoJSONNumbers.write(p.longitude, into: &out.bytes)
            out.item()
            GeoJSONNumbers.write(p.latitude, into: &out.bytes)
            out.close(.array)
            out.member("type", "Point")
            out.close(.object)
        }
        /// A feature at `p`: its properties, in key order, are what `properties` writes.
        func feature(at p: GeoPoint, _ properties: () -> Void) {
            out.item()
            out.open(.object)
            point(p)
            out.key("properties")
            out.open(.object)
            properties()
            out.close(.object)
            out.member("type", "Feature")
            out.close(.object)
        }
        out.open(.object)
        out.key("features")
        out.open(.array)
        /// A LineString feature through `points`: its properties, in key order, are what `properties` writes.
        func line(_ points: [GeoPoint], _ properties: () -> Void) {
            out.item()
            out.open(.object)
            out.key("geometry")
            out.open(.object)
            out.key("coordinates")
            out.open(.array)
            for p in points {
                out.item()
                out.open(.array)
                out.item()
                GeoJSONNumbers.write(p.longitude, into: &out.bytes)
                out.item()
                GeoJSONNumbers.write(p.latitude, into: &out.bytes)
                out.close(.array)
            }
            out.close(.array)
            out.member("type", "LineString")
            out.close(.object)
            out.key("properties")
            out.open(.object)
            properties()
            out.close(.object)
            out.member("type", "Feature")
            out.close(.object)
        }
        if let g = RoadGeometry(scenario.road), let road = scenario.road {
            // Every route of the drive: the first, then each change's road (`route` its id, as `road.route.switched`'s).
            line(road.points) {
                out.member("kind", "route")
                out.member("meters", Int64(g.first.length.rounded()))
            }
            for (c, change) in road.changes.enumerated() {
                line(change.points) {
                    out.member("change", change.handoff == nil ? "reroute" : "handoff")
                    out.member("kind", "route")
                    out.member("meters", Int64(g.path.roads[c].length.rounded()))
                    out.member("route", change.id)
                }
            }
            // The road the car truly drove, when it is not the route; a branch, where
            // one road ends and the next begins at the same point, is written once.
            if !road.changes.isEmpty {
                var points: [Vector] = []
                for p in g.route.points where points.last.map({ (p - $0).length >= 0.05 }) ?? true { points.append(p) }
                line(points.map(g.geo)) {
                    out.member("kind", "true-path")
                    out.member("meters", Int64(g.route.length.rounded()))
                }
            }
            for k in 0...road.changes.count {
                let on = g.path.road(k)
                for m in on.maneuvers {
                    feature(at: g.geo(on.location(at: m.distance).point)) {
                        out.member("distance", Int64(m.distance.rounded()))
                        out.member("id", m.id)
                        out.member("kind", "maneuver")
                        if k > 0 { out.member("route", road.changes[k - 1].id) }
                        out.member("turn", m.turn.rawValue)
                    }
                }
            }
            // Times in milliseconds, an integer, as the timeline's `t`.
            for (i, p) in g.fixes.enumerated() {
                guard let p, let taken = g.fixTimes[i] else { continue }
                feature(at: g.geo(p)) {
                    out.key("fix")
                    out.fixName(i)
                    out.member("kind", "fix")
                    out.member("takenMs", taken.ms)
                }
            }
            var distances = g.distances()
            for event in events {
                switch event.what {
                case .guidanceStarted(let l):
                    guard let d = distances.at(event.t) else { continue }
                    let line = roster.lines[l.int]
                    feature(at: g.geo(g.route.location(at: d).point)) {
                        out.member("kind", "spoken")
                        out.member("line", line.id)
                        out.member("t", event.t.ms)
                        if let text = roster.text(of: l, startingAt: event.t) { out.member("text", text) }
                    }
                case .road(.routeSwitched(let c, let reason)):
                    guard let d = distances.at(event.t), c < road.changes.count else { continue }
                    feature(at: g.geo(g.route.location(at: d).point)) {
                        out.member("kind", "route-switched")
                        out.member("reason", reason.rawValue)
                        out.member("route", road.changes[c].id)
                        out.member("t", event.t.ms)
                    }
                case .road(.handoffTaken(let c)):
                    guard let d = distances.at(event.t), c < road.changes.count else { continue }
                    feature(at: g.geo(g.route.location(at: d).point)) {
                        out.member("handoff", road.changes[c].id)
                        out.member("kind", "handoff-taken")
                        out.member("t", event.t.ms)
                    }
                case .road(.reportDropped(let f, let reason)):
                    guard f.int < g.fixes.count, let p = g.fixes[f.int] else { continue }
                    feature(at: g.geo(p)) {
                        out.key("fix")
                        out.fixName(f.int)
                        out.member("kind", "report-dropped")
                        out.member("reason", reason.rawValue)
                        out.member("t", event.t.ms)
                    }
                default: continue
                }
            }
        }
        out.close(.array)
        out.member("name", scenario.name)
        out.member("type", "FeatureCollection")
        out.close(.object)
        out.bytes.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")])
        return out.bytes
    }
}

extension JSONStream {
    /// A fix's name, `f12`, as a string.
    fileprivate mutating func fixName(_ i: Int) {
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "f")])
        bytes.append(int: Int64(i))
        bytes.append(UInt8(ascii: "\""))
    }
}

extension RoadGeometry {
    /// How far along the route the car truly is at each of a run of
    /// nondecreasing times: the trajectory, or the last fix (by number) taken
    /// by then matched to the route, found by walking the fixes in the order
    /// they were taken once for the whole run (a long drive stays linear).
    struct Distances {
        let geometry: RoadGeometry
        /// Fix numbers with a position, in the order taken (ties by number).
        let byTime: [Int]
        var next = 0
        /// The highest fix number among `byTime[..<next]`.
        var latest: Int? = nil
        var last: SimTime? = nil

        mutating func at(_ t: SimTime) -> Double? {
            if let trajectory = geometry.trajectory { return trajectory.state(at: t).distance }
            // Times go forward through a timeline; one that went back starts the walk again.
            if let last, t < last {
                next = 0
                latest = nil
            }
            last = t
            while next < byTime.count, let taken = geometry.fixTimes[byTime[next]], taken <= t {
                latest = Swift.max(latest ?? byTime[next], byTime[next])
                next += 1
            }
            return latest.map {
                geometry.route.nearest(to: geometry.fixes[$0]!, from: 0, to: geometry.route.length).distance
            }
        }
    }

    func distances() -> Distances {
        let taken = fixes.indices.filter { fixes[$0] != nil && fixTimes[$0] != nil }
        return Distances(geometry: self, byTime: taken.sorted { (fixTimes[$0]!, $0) < (fixTimes[$1]!, $1) })
    }
}

/// Coordinates in degrees at 6 decimals, the shortest literal that keeps
/// them: a millionth of a degree is 0.11 m of latitude (and at most that of
/// longitude), finer than any fix (a few meters) and as fine as a
/// precision-6 polyline, where a double's 15 digits (1 nm) only made the
/// file large (RFC 7946 §11.2 advises 6).
enum GeoJSONNumbers {
    /// `x` rounded half away from zero to 6 decimals, trailing zeros left out:
    /// 127.0557 → `127.0557`, 37.50018312 → `37.500183`, 127 → `127`.
    static func degrees(_ x: Double) -> JSONValue {
        var out: [UInt8] = []
        write(x, into: &out)
        return .number(String(decoding: out, as: UTF8.self))
    }

    /// The literal of `degrees(x)`, appended.
    static func write(_ x: Double, into out: inout [UInt8]) {
        let micro = Int64((x * 1_000_000).rounded())
        let whole = micro.magnitude / 1_000_000
        var fraction = micro.magnitude % 1_000_000
        if fraction == 0 {
            out.append(int: micro / 1_000_000)
            return
        }
        if micro < 0 { out.append(UInt8(ascii: "-")) }
        out.append(int: Int64(whole))
        out.append(UInt8(ascii: "."))
        // Six digits, the trailing zeros left out.
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out.append(int: Int64(fraction), width: digits)
    }
}
