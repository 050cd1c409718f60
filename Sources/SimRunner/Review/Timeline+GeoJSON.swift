import Road
import ScenarioFormat
import SimClock
import SimRunner

/// Where things were on the road: the route, the car's true position over
/// time, and each fix's position, rebuilt from the scenario exactly as the
/// planner builds them (the same route, trajectory and fix generator).
struct RoadGeometry {
    let route: Route
    let trajectory: Trajectory?
    /// Each fix's position, by fix number (nil for a fix never taken).
    let fixes: [Vector?]
    let fixTimes: [SimTime?]

    init?(_ road: Scenario.Road?) {
        guard let road, var route = try? Route(points: road.points) else { return nil }
        try? route.place(road.maneuvers.map { ($0.point, Maneuver(id: $0.id, turn: $0.turn, street: $0.street, details: $0.details)) })
        self.route = route
        let trajectory = road.drive.map { Trajectory(profile: $0.profile, length: route.length, start: $0.start) }
        self.trajectory = trajectory
        switch road.fixes {
        case .recorded(let list):
            fixes = list.map { route.projection.project($0.point) }
            fixTimes = list.map(\.taken)
        case .generated(let generator):
            guard let trajectory, road.drive != nil else { fixes = []; fixTimes = []; return }
            let made = road.generatedFixes(generator, on: route, trajectory: trajectory)
            var positions = [Vector?](repeating: nil, count: (made.last?.index ?? -1) + 1)
            var times = [SimTime?](repeating: nil, count: positions.count)
            for f in made { positions[f.index] = f.position; times[f.index] = f.taken }
            fixes = positions
            fixTimes = times
        }
    }

    /// How far along the route the car truly is at `t`: the trajectory, or
    /// the last fix taken by then matched to the route.
    func distance(at t: SimTime) -> Double? {
        if let trajectory { return trajectory.state(at: t).distance }
        var best: Vector? = nil
        for (i, p) in fixes.enumerated() { if let taken = fixTimes[i], taken <= t, let p { best = p } }
        return best.map { route.nearest(to: $0, from: 0, to: route.length).distance }
    }

    func geo(_ v: Vector) -> GeoPoint { route.projection.unproject(v) }
}

extension Timeline {
    /// The drive as a GeoJSON FeatureCollection (RFC 7946) any map tool
    /// opens: the route, its maneuvers, every fix, where each guidance line
    /// started, and every dropped report, each with a `kind` property.
    /// Without a road, an empty collection.
    public func geoJSON(_ scenario: Scenario) -> String {
        var features: [JSONValue] = []
        func point(_ p: GeoPoint) -> JSONValue {
            .object([("type", .string("Point")), ("coordinates", .array([GeoJSONNumbers.degrees(p.longitude), GeoJSONNumbers.degrees(p.latitude)]))])
        }
        func feature(_ geometry: JSONValue, _ properties: [(key: String, value: JSONValue)]) -> JSONValue {
            .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
        }
        // Times in milliseconds, an integer, as the timeline's `t`.
        func ms(_ t: SimTime) -> JSONValue { .integer(t.ms) }
        if let g = RoadGeometry(scenario.road), let road = scenario.road {
            features.append(feature(
                .object([("type", .string("LineString")), ("coordinates", .array(road.points.map {
                    .array([GeoJSONNumbers.degrees($0.longitude), GeoJSONNumbers.degrees($0.latitude)])
                }))]),
                [("kind", .string("route")), ("meters", .integer(Int64(g.route.length.rounded())))]))
            for m in g.route.maneuvers {
                features.append(feature(point(g.geo(g.route.location(at: m.distance).point)), [
                    ("kind", .string("maneuver")), ("id", .string(m.id)), ("turn", .string(m.turn.rawValue)),
                    ("distance", .integer(Int64(m.distance.rounded()))),
                ]))
            }
            for (i, p) in g.fixes.enumerated() {
                guard let p, let taken = g.fixTimes[i] else { continue }
                features.append(feature(point(g.geo(p)), [("kind", .string("fix")), ("fix", .string("f\(i)")), ("takenMs", ms(taken))]))
            }
            for event in events {
                switch event.what {
                case .guidanceStarted(let l):
                    guard let d = g.distance(at: event.t) else { continue }
                    let line = roster.lines[l.int]
                    var props: [(key: String, value: JSONValue)] = [("kind", .string("spoken")), ("line", .string(line.id)), ("t", ms(event.t))]
                    if let text = roster.text(of: l, startingAt: event.t) { props.append(("text", .string(text))) }
                    features.append(feature(point(g.geo(g.route.location(at: d).point)), props))
                case .road(.reportDropped(let f, let reason)):
                    guard f.int < g.fixes.count, let p = g.fixes[f.int] else { continue }
                    features.append(feature(point(g.geo(p)), [
                        ("kind", .string("report-dropped")), ("fix", .string("f\(f.int)")), ("t", ms(event.t)),
                        ("reason", .string(reason.rawValue)),
                    ]))
                default: continue
                }
            }
        }
        let collection = JSONValue.object([("type", .string("FeatureCollection")), ("name", .string(scenario.name)), ("features", .array(features))])
        return String(decoding: JSONWriter.bytes(collection), as: UTF8.self) + "\n"
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
        let micro = Int64((x * 1_000_000).rounded())
        let whole = micro.magnitude / 1_000_000, fraction = micro.magnitude % 1_000_000
        let sign = micro < 0 ? "-" : ""
        if fraction == 0 { return .integer(micro / 1_000_000) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return .number(sign + String(whole) + "." + digits)
    }
}
