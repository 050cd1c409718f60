import Foundation
import Road
import RouteImport
import ScenarioFormat
import SimClock
import SimRunner
import TestSupport
import Testing

/// A long route, written here as OSRM would answer it: a line through
/// `waypoints` along great circles with a point every `spacing` meters,
/// steps of `stepMeters` (a slight turn each), each step's distance the
/// haversine along its points with OSRM's earth radius, and its duration at
/// the next of `kmh`.
struct LongResponse {
    static let osrmRadius = 6_372_797.560856

    var points: [GeoPoint] = []
    var steps: [(start: Int, distance: Double, duration: Double)] = []

    init(
        waypoints: [GeoPoint], spacing: Double = 300, stepMeters: Double = 100_000, kmh: [Double] = [100, 120, 90, 130]
    ) {
        for (a, b) in zip(waypoints, waypoints.dropFirst()) {
            let pieces = max(1, Int((greatCircleDistance(a, b) / spacing).rounded(.up)))
            for k in (points.isEmpty ? 0 : 1)...pieces { points.append(Self.slerp(a, b, Double(k) / Double(pieces))) }
        }
        var start = 0
        var run = 0.0
        for i in 1..<points.count {
            run += Self.haversine(points[i - 1], points[i])
            if run >= stepMeters || i == points.count - 1 {
                steps.append((start, run, run / (kmh[steps.count % kmh.count] / 3.6)))
                start = i
                run = 0
            }
        }
    }

    var distance: Double { steps.reduce(0) { $0 + $1.distance } }
    var duration: Double { steps.reduce(0) { $0 + $1.duration } }

    /// The response, GeoJSON geometry (as `geometries=geojson` asks).
    var json: String {
        func coordinate(_ p: GeoPoint) -> String { "[\(p.longitude),\(p.latitude)]" }
        var out: [String] = []
        for (i, step) in steps.enumerated() {
            let type = i == 0 ? "depart" : "turn"
            let modifier = i == 0 ? "" : #","modifier":"\#(i % 2 == 0 ? "slight left" : "slight right")""#
            out.append(
                #"{"distance":\#(step.distance),"duration":\#(step.duration),"name":"E\#(i)","maneuver":{"type":"\#(type)"\#(modifier),"location":\#(coordinate(points[step.start]))}}"#
            )
        }
        out.append(
            #"{"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":\#(coordinate(points[points.count - 1]))}}"#
        )
        return
            #"{"code":"Ok","routes":[{"distance":\#(distance),"duration":\#(duration),"geometry":{"type":"LineString","coordinates":["#
            + points.map(coordinate).joined(separator: ",")
            + #"]},"legs":[{"distance":\#(distance),"duration":\#(duration),"steps":["# + out.joined(separator: ",")
            + "]}]}]}"
    }

    /// OSRM's haversine.
    static func haversine(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        greatCircleDistance(a, b) * osrmRadius / LocalProjection.earthRadius
    }

    /// The point a fraction `u` of the way from `a` to `b` along the great circle.
    static func slerp(_ a: GeoPoint, _ b: GeoPoint, _ u: Double) -> GeoPoint {
        func unit(_ p: GeoPoint) -> (Double, Double, Double) {
            let lat = p.latitude * .pi / 180
            let lon = p.longitude * .pi / 180
            return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        }
        let p = unit(a)
        let q = unit(b)
        let omega = acos(min(1, p.0 * q.0 + p.1 * q.1 + p.2 * q.2))
        guard omega > 0 else { return a }
        let s = sin((1 - u) * omega) / sin(omega)
        let t = sin(u * omega) / sin(omega)
        let x = s * p.0 + t * q.0
        let y = s * p.1 + t * q.1
        let z = s * p.2 + t * q.2
        return GeoPoint(
            latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
    }
}

/// Geodesy that holds at any length (issue 23): a route as long as the
/// service says, each step's speed on its own step, the drive as long as
/// the steps' time.
@Suite struct LongRouteTests {
    static let seville = GeoPoint(latitude: 37.39, longitude: -5.98)
    static let bordeaux = GeoPoint(latitude: 44.84, longitude: -0.58)
    static let hamburg = GeoPoint(latitude: 53.55, longitude: 9.99)

    func imported(_ response: LongResponse) throws -> RouteImporter.Imported {
        try RouteImporter.importRoute(
            Array(response.json.utf8), options: RouteImporter.Options(language: .en, source: "long.json"))
    }

    @Test(
        "A 2,000 km route from Seville to Hamburg imports within 0.1% of the response's length, its speeds on their steps",
        .fullRunOnly)
    func lengthAndSpeeds() throws {
        let response = LongResponse(waypoints: [Self.seville, Self.bordeaux, Self.hamburg])
        #expect(response.distance > 2_000_000)
        let imported = try imported(response)
        #expect(
            abs(imported.length - response.distance) <= 0.001 * response.distance,
            "\(imported.length) m, the response \(response.distance) m")
        // Each speed step begins where its step does: the response's distance up to it.
        let speeds = try #require(imported.scenario.road?.drive).profile.steps
        #expect(speeds.count == response.steps.count)
        var start = 0.0
        for (step, speed) in zip(response.steps, speeds) {
            #expect(
                abs(speed.from - start) <= 0.001 * start + 1,
                "a step from \(start) m has its speed from \(speed.from) m")
            start += step.distance
        }
    }

    @Test("The drive lasts the steps' time, within 1% and 30 s", .fullRunOnly)
    func duration() throws {
        let response = LongResponse(waypoints: [Self.seville, Self.bordeaux, Self.hamburg])
        let road = try #require(try imported(response).scenario.road)
        let route = try Route(points: road.points)
        let drive = try #require(road.drive)
        let arrival = try #require(
            Trajectory.arrival(
                profile: drive.profile, length: route.length, start: drive.start, limit: SimTime(ms: 86_400_000)))
        let seconds = Double(arrival.ms) / 1000
        #expect(
            abs(seconds - response.duration) <= 0.01 * response.duration + 30,
            "\(seconds) s, the steps \(response.duration) s")
    }

    @Test(
        "East and west at 60° north, 1,500 km: as long as the great circle", .fullRunOnly,
        arguments: [
            [
                GeoPoint(latitude: 60.0, longitude: 5.3), GeoPoint(latitude: 60.2, longitude: 24.9),
                GeoPoint(latitude: 59.9, longitude: 30.3),
            ],
            [
                GeoPoint(latitude: -33.9, longitude: 151.2), GeoPoint(latitude: -37.8, longitude: 145.0),
                GeoPoint(latitude: -34.9, longitude: 138.6),
            ],
        ])
    func otherLatitudes(_ waypoints: [GeoPoint]) throws {
        let response = LongResponse(waypoints: waypoints)
        let imported = try imported(response)
        #expect(
            abs(imported.length - response.distance) <= 0.001 * response.distance,
            "\(imported.length) m, the response \(response.distance) m")
    }

    @Test("A long drive's run passes every road check, geodesy included", .fullRunOnly)
    func checksPass() throws {
        // Seville to Bordeaux, 900 km: the plane's scale is 1.005 at its end.
        let response = LongResponse(waypoints: [Self.seville, Self.bordeaux], stepMeters: 60_000)
        let scenario = try imported(response).scenario
        let run = try Simulation(scenario)
        #expect(Invariants.checkRoad(scenario, run).isEmpty)
        #expect(Invariants.checkRoadTruth(scenario, run).isEmpty)
        let gaps = run.timeline.events.filter {
            if case .road(.turnUpcoming(_, _, _?)) = $0.what { true } else { false }
        }
        #expect(gaps.count >= 10)
    }
}
