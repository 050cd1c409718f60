import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a route response in the OSRM format (OSRM, Valhalla's `osrm`
/// output, Mapbox Directions), Valhalla's own `trip`, GraphHopper's `paths`,
/// Kakao Mobility's `routes`, Apple Maps Server's `routes`, Google's Routes
/// API or Directions API `routes`, or a GeoJSON line into a scenario: the
/// geometry as the road's points, one maneuver per step the road can say,
/// a drive at the response's own per-step speeds, generated fixes, and the
/// service's voice prompts kept for comparison. What is read, ignored and
/// refused is in docs/import.md.
package enum RouteImporter {
    /// What to import and how.
    package struct Options: Sendable, Equatable {
        /// The route to take, 0-based (`routes[N]`).
        package var route = 0
        /// The road's language: given, never guessed from the response.
        package var language: Language
        /// The polyline precision (5 or 6); nil detects it.
        package var precision: Int? = nil
        /// The file's name, for the scenario's name and description.
        package var source: String
        /// GeoJSON lines only: the speed of the generated drive, km/h.
        package var kmh = 50.0
        /// The units English lines speak; nil takes the response's own voice
        /// instructions' (feet or miles: imperial), else metric.
        package var units: Units? = nil
        /// The format to read the file as (`--service`); nil tells it by its structure (`RouteFormat.detect`).
        package var service: RouteFormat? = nil
        /// The most points the route may keep (`RouteImporter.maxPoints`; tests lower it).
        package var maxPoints = RouteImporter.maxPoints
        /// The longest route imported, meters (the format's `Route.maxLength`;
        /// the libFuzzer target lowers it, so each input is driven quickly).
        package var maxMeters = Route.maxLength

        /// Options for `source` in `language`.
        package init(language: Language, source: String) {
            self.language = language
            self.source = source
        }
    }

    /// A finished import.
    package struct Imported: Sendable, Equatable {
        /// The scenario, checked by decoding its own encoding.
        package var scenario: Scenario
        /// What was not taken as given.
        package var warnings: [ImportWarning]
        /// The geometry's length, meters (with route changes, the true path's).
        package var length: Double
        /// The response's `distance` for the route, meters (nil for GeoJSON).
        package var responseDistance: Double?
        /// The polyline precision used (nil for GeoJSON coordinates).
        package var precision: Int?
        /// Where the route's start is in the document (the first step's
        /// location, `routes[0].legs[0].steps[0].maneuver.location`; a line's
        /// first coordinate): a route change's refusal points there.
        package var start: String
    }

    /// A turn in a plain line sharper than this (degrees) becomes a maneuver.
    package static let turnAngle = 30.0
    /// The scenario format's speed range, km/h (docs/scenario-format.md).
    static let kmhLimits = 3.6...250.0
    /// The longest service prompt a scenario keeps, in characters (the format's).
    static let promptCharacters = 1000
    /// The scenario format's longest street name, in characters.
    static let streetCharacters = 200
    /// Points closer than this to the previous kept one are left out (meters).
    static let duplicateMeters = 0.5
    /// The most points a route may keep: each takes up to 80 bytes of the
    /// scenario's JSON, so the scenario stays within the 64 MiB a scenario
    /// file is read up to (`drivesim run` refuses more), checked before any
    /// work that grows with them.
    package static let maxPoints = (64 << 20) / 80

    static func checkPoints(_ points: [GeoPoint], _ path: String, limit: Int) throws(ImportProblem) {
        if points.count > limit { throw ImportProblem(.tooManyPoints(count: points.count, limit: limit), at: path) }
    }

    /// Imports the bytes of a response or GeoJSON document.
    package static func importRoute(_ bytes: [UInt8], options: Options) throws(ImportProblem) -> Imported {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch {
            throw ImportProblem(.notJSON(line: error.line, column: error.column), at: error.path)
        }
        guard case .object = root.kind else { throw ImportProblem(.notARouteResponse, at: "") }
        // The format by its structure (the map stacks before OSRM, which they share `routes` with), or as `--service` names it.
        guard let format = options.service ?? RouteFormat.detect(root) else {
            throw ImportProblem(.notARouteResponse, at: "")
        }
        var reader = Reader()
        switch format {
        case .geojson:
            return try geoJSON(root, type: try reader.member(root, "type", ""), options: options)
        case .valhalla:
            // Valhalla's error answer (`error_code` and `error`).
            if root["trip"] == nil, let code = root["error_code"], case .number(let n) = code.kind {
                throw ImportProblem(
                    .serviceError(code: n, message: try reader.string(root, "error", "")), at: "error_code")
            }
            return try reader.valhalla(root, options: options)
        case .graphhopper:
            // GraphHopper's error answer (`message` and `hints`).
            if root["paths"] == nil, root["hints"] != nil, let message = try reader.string(root, "message", "") {
                throw ImportProblem(.serviceError(code: "GraphHopper", message: message), at: "message")
            }
            return try reader.graphHopper(root, options: options)
        case .osrm: return try reader.response(root, options: options)
        case .kakao: return try reader.kakao(root, options: options)
        case .apple: return try reader.apple(root, options: options)
        case .google: return try reader.google(root, options: options)
        case .googleLegacy: return try reader.googleLegacy(root, options: options)
        }
    }

    // MARK: GeoJSON

    static func geoJSON(_ root: JSONValue, type: JSONValue, options: Options) throws(ImportProblem) -> Imported {
        var line = root
        var path = ""
        var name: String? = nil
        guard case .string(let t) = type.kind else { throw ImportProblem(.wrongType(expected: "a string"), at: "type") }
        if t == "Feature" {
            guard let g = root["geometry"] else { throw ImportProblem(.missingField("geometry"), at: "") }
            line = g
            path = "geometry"
            if let n = root["properties"]?["name"], case .string(let s) = n.kind, !s.isEmpty { name = s }
            guard let gt = g["type"], case .string(let s) = gt.kind else {
                throw ImportProblem(.missingField("type"), at: path)
            }
            guard s == "LineString" else {
                throw ImportProblem(.unsupportedGeoJSON(s), at: JSONPath.join(path, "type"))
            }
        } else if t != "LineString" {
            throw ImportProblem(.unsupportedGeoJSON(t), at: "type")
        }
        let points = try Reader().coordinates(line, JSONPath.join(path, "coordinates"))
        let kept = thin(points)
        try checkPoints(kept, JSONPath.join(path, "coordinates"), limit: options.maxPoints)
        guard kept.count >= 2, let route = try? Route(points: kept) else {
            throw ImportProblem(.tooFewPoints, at: JSONPath.join(path, "coordinates"))
        }
        try checkLength(route, JSONPath.join(path, "coordinates"), limit: options.maxMeters)
        var specs: [Scenario.ManeuverSpec] = []
        let p = route.points
        var n = 0
        for i in 1..<max(1, p.count - 1) {
            let a = p[i] - p[i - 1]
            let b = p[i + 1] - p[i]
            guard a.length >= 1, b.length >= 1 else { continue }
            let cross = a.x * b.y - a.y * b.x
            let dot = a.x * b.x + a.y * b.y
            // Positive: to the left.
            guard let turn = turn(forAngle: atan2Degrees(cross, dot)) else { continue }
            n += 1
            specs.append(Scenario.ManeuverSpec(id: "t\(n)", point: kept[i], turn: turn))
        }
        specs.append(Scenario.ManeuverSpec(id: "arrive", point: kept[kept.count - 1], turn: .arrive))
        var warnings: [ImportWarning] = []
        let placed = try place(
            specs, on: route, paths: specs.map { _ in JSONPath.join(path, "coordinates") }, warnings: &warnings)
        var road = Scenario.Road(language: options.language, points: kept, maneuvers: placed.map(\.spec))
        road.drive = Scenario.Drive(
            profile: SpeedProfile(steps: [SpeedProfile.Step(from: 0, speed: options.kmh / 3.6)]))
        try checkDrive(road, length: route.length)
        let scenario = Scenario(
            name: name ?? "line from \(options.source)",
            description:
                "Imported by drivesim import-route from \(options.source): a GeoJSON line of \(kept.count) points, "
                + "\(whole(route.length)) m, turns over \(Int(turnAngle))° as maneuvers, driven at \(format(options.kmh)) km/h.",
            road: road)
        return Imported(
            scenario: scenario, warnings: warnings, length: route.length, responseDistance: nil, precision: nil,
            start: JSONPath.join(path, "coordinates") + "[0]")
    }

    // MARK: Shared steps

    /// How far a recorded track may stray from the route made of it
    /// (`simplified`): 10 m, a lane or two, about a fix's own error, so GPS
    /// jitter makes no turn while every real corner keeps its point.
    package static let trackToleranceMeters = 10.0

    /// `points` (a recorded track) with only the points that keep every
    /// other one within `tolerance` meters of the line through them
    /// (Douglas–Peucker, with an explicit stack), first and last always kept.
    /// A straight street becomes its two ends, a corner one point.
    /// - Complexity: O(n log n) typically, O(n²) at worst.
    package static func simplified(_ points: [GeoPoint], tolerance: Double = trackToleranceMeters) -> [GeoPoint] {
        guard points.count > 2 else { return points }
        let projection = LocalProjection(origin: points[0])
        let v = points.map(projection.project)
        var keep = [Bool](repeating: false, count: v.count)
        keep[0] = true
        keep[v.count - 1] = true
        var spans = [(0, v.count - 1)]
        while let (a, b) = spans.popLast() {
            guard b > a + 1 else { continue }
            let d = v[b] - v[a]
            let length = d.length
            var farthest = a
            var distance = -1.0
            for k in (a + 1)..<b {
                let p = v[k] - v[a]
                let off = length > 0 ? abs(d.x * p.y - d.y * p.x) / length : p.length
                if off > distance {
                    distance = off
                    farthest = k
                }
            }
            guard distance > tolerance else { continue }
            keep[farthest] = true
            spans.append((farthest, b))
            spans.append((a, farthest))
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Points without consecutive near-duplicates; the last point is kept.
    static func thin(_ points: [GeoPoint]) -> [GeoPoint] {
        guard var last = points.first else { return [] }
        var out = [last]
        for p in points.dropFirst() where greatCircleDistance(last, p) >= duplicateMeters {
            out.append(p)
            last = p
        }
        if let end = points.last, out.count > 1, out[out.count - 1] != end { out[out.count - 1] = end }
        return out
    }

    /// Refuses a route longer than `limit`, stating the response's own
    /// `meters` (when above 0, else the route's) and `seconds` when given.
    static func checkLength(
        _ route: Route, _ path: String, limit: Double = Route.maxLength, meters: Double = 0, seconds: Double? = nil
    ) throws(ImportProblem) {
        if !(route.length <= limit) {
            let length = meters > 0 ? meters : route.length
            // Rounded no nearer the limit than it lies (`MeasuredValue`): never "10000 km long, beyond 10000 km".
            throw ImportProblem(
                .routeTooLong(
                    kilometers: MeasuredValue.rounded(min(length, 1e12) / 1000, beyond: limit / 1000),
                    hours: seconds.map { whole($0 / 3600) }), at: path)
        }
    }

    /// Refuses a drive that would not arrive within 24 h, saying about how
    /// long it would last, over the response's own `meters` when above 0.
    static func checkDrive(_ road: Scenario.Road, length: Double, meters: Double = 0) throws(ImportProblem) {
        guard let drive = road.drive else { return }
        let limit = SimTime(ms: Int64(ScenarioDecoder.maxTimeSeconds) * 1000)
        if Trajectory.arrival(profile: drive.profile, length: length, start: drive.start, limit: limit) == nil {
            // Each step's length at its speed, stops included: what the drive would take, near enough to say.
            let steps = drive.profile.steps
            var seconds = drive.profile.stops.reduce(0) { $0 + Double($1.dwell.ms) / 1000 }
            for (i, step) in steps.enumerated() where step.from < length {
                let end = i + 1 < steps.count ? min(steps[i + 1].from, length) : length
                seconds += max(0, end - step.from) / max(step.speed, 1)
            }
            throw ImportProblem(
                .driveTooLong(
                    hours: MeasuredValue.rounded(min(seconds / 3600, 1e9), beyond: 24),
                    kilometers: meters > 0 ? whole(min(meters, 1e12) / 1000) : nil), at: "")
        }
    }

    /// Places the maneuvers on the route; one less than a meter after the
    /// previous is left out with a warning, one off the route is refused.
    static func place(
        _ specs: [Scenario.ManeuverSpec], on route: Route, paths: [String], warnings: inout [ImportWarning]
    ) throws(ImportProblem) -> [(spec: Scenario.ManeuverSpec, distance: Double, index: Int)] {
        var kept: [(spec: Scenario.ManeuverSpec, distance: Double, index: Int)] = []
        // One at a time, each after the last kept (as `Route.place` does): linear in the route.
        var from = 0.0
        for (i, spec) in specs.enumerated() {
            do {
                let distance = try route.distance(ofManeuverAt: spec.point, from: from, index: kept.count)
                kept.append((spec, distance, i))
                from = distance + 1
            } catch {
                switch error {
                case .maneuverOutOfOrder: warnings.append(ImportWarning(.tooCloseToPrevious, at: paths[i]))
                case .maneuverOffRoute(_, let meters):
                    throw ImportProblem(
                        .maneuverOffGeometry(
                            meters: MeasuredValue.rounded(min(meters, 1e9), beyond: Route.maneuverTolerance)),
                        at: paths[i])
                case .tooFewPoints: throw ImportProblem(.tooFewPoints, at: paths[i])
                }
            }
        }
        return kept
    }

    /// The ids of the maneuvers the road passes unannounced when `scenario`
    /// is driven (`road.turn.unannounced`), in route order. One announced
    /// in the maneuver before's "now" line ("…, then turn left", reason
    /// `then`) was announced.
    static func unannounced(_ scenario: Scenario) -> [String] {
        guard let timeline = (try? Simulation(scenario))?.timeline else { return [] }
        var indices: Set<Int> = []
        for event in timeline.events {
            if case .road(.turnUnannounced(let m, let reason)) = event.what, reason != .then { indices.insert(m.int) }
        }
        return indices.sorted().map { timeline.roster.road.maneuvers[$0].id }
    }

    /// A window's maneuvers after the first it answers for, and how far
    /// before its first maneuver and after its last it begins and ends (meters).
    static let windowManeuvers = 12
    static let windowLead = 1_000.0
    static let windowTail = 300.0

    /// `road` cut to the route's vertices around `from...to` (meters along
    /// `route`, which is `road.points`), its speeds moved to match, with
    /// `maneuvers`: a short drive that says whether they are announced.
    static func window(
        _ road: Scenario.Road, route: Route, from: Double, to: Double, maneuvers: [Scenario.ManeuverSpec]
    ) -> Scenario.Road {
        let first = route.segment(at: from)
        let last = min(route.points.count - 1, route.segment(at: to) + 1)
        var window = road
        window.points = Array(road.points[first...last])
        window.maneuvers = maneuvers
        if let drive = road.drive {
            let offset = route.cumulative[first]
            let end = route.cumulative[last] - offset
            var profile = drive.profile
            let active = profile.steps.last { $0.from <= offset } ?? profile.steps[0]
            var moved = [SpeedProfile.Step(from: 0, speed: active.speed)]
            for step in profile.steps where step.from > offset && step.from - offset < end {
                if step.from - offset < RoadSetup.Limits.stepSpacing {
                    moved[0].speed = step.speed
                } else {
                    moved.append(SpeedProfile.Step(from: step.from - offset, speed: step.speed))
                }
            }
            profile.steps = moved
            profile.stops = profile.stops.filter {
                $0.at > offset + RoadSetup.Limits.stepSpacing && $0.at - offset < end
            }
            .map { SpeedProfile.Stop(at: $0.at - offset, dwell: $0.dwell) }
            window.drive = Scenario.Drive(start: drive.start, profile: profile, detours: [])
        }
        return window
    }

    static func maneuver(_ s: Scenario.ManeuverSpec) -> Maneuver {
        Maneuver(id: s.id, turn: s.turn, street: s.street, details: s.details)
    }

    /// `x` rounded to a whole number for a message, held within ±10^15 (a
    /// response's `distance` of 1e300, or a sum of durations that overflowed
    /// to infinity, must not trap the conversion); 0 for NaN.
    static func whole(_ x: Double) -> Int {
        guard !x.isNaN else { return 0 }
        return Int(Swift.min(Swift.max(x.rounded(), -1e15), 1e15))
    }

    static func format(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }

    /// The signed angle of (x, y), in degrees (-180...180).
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double { atan2(y, x) * 180 / .pi }
}
