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

/// Valhalla's own route response (`trip`: `legs[].maneuvers[]` and each
/// leg's polyline6 `shape`) and GraphHopper's (`paths[]`: `instructions[]`
/// over the path's `points`), read into the steps the OSRM reader makes, so
/// that they import into the same scenario (docs/import.md, "Valhalla's
/// trip and GraphHopper's paths").
extension RouteImporter {
    /// The keys a step's fields go by in its document, for the paths of warnings.
    struct StepKeys: Sendable {
        /// Where its maneuver lies, its kind, its turn, its time.
        var location: String, type: String, modifier: String, duration: String

        static let osrm = StepKeys(
            location: "maneuver.location", type: "maneuver.type", modifier: "maneuver.modifier", duration: "duration")
        static let valhalla = StepKeys(location: "begin_shape_index", type: "type", modifier: "type", duration: "time")
        static let graphHopper = StepKeys(location: "interval", type: "sign", modifier: "sign", duration: "time")
        static let kakao = StepKeys(location: "road_index", type: "type", modifier: "type", duration: "duration")
        static let google = StepKeys(
            location: "polyline", type: "navigationInstruction.maneuver", modifier: "navigationInstruction.maneuver",
            duration: "staticDuration")
        static let googleLegacy = StepKeys(
            location: "start_location", type: "maneuver", modifier: "maneuver", duration: "duration.value")
        static let apple = StepKeys(
            location: "stepPathIndex", type: "instructions", modifier: "instructions", duration: "durationSeconds")
    }

    /// Meters in one unit of a Valhalla trip's `units`; nil for another.
    static func valhallaUnit(_ units: String) -> Double? {
        switch units {
        case "kilometers", "kilometres", "km": return 1000
        case "miles", "mi": return 1609.344
        default: return nil
        }
    }

    /// A Valhalla maneuver `type` (its `Maneuver.Type` codes) as the OSRM
    /// step type and modifier it reads as; nil for one no car is told
    /// (transit, elevators, …), kept as a plain turn with a warning.
    static func valhallaType(_ code: Int) -> (type: String, modifier: String?)? {
        switch code {
        case 1, 2, 3: return ("depart", nil)  // start, start right, start left
        case 4: return ("arrive", nil)  // destination
        case 5: return ("arrive", "right")  // destination right
        case 6: return ("arrive", "left")  // destination left
        case 7: return ("new name", "straight")  // becomes
        case 8: return ("continue", "straight")
        case 9: return ("turn", "slight right")
        case 10: return ("turn", "right")
        case 11: return ("turn", "sharp right")
        case 12, 13: return ("turn", "uturn")  // U-turn right, left
        case 14: return ("turn", "sharp left")
        case 15: return ("turn", "left")
        case 16: return ("turn", "slight left")
        case 17: return ("on ramp", "straight")  // ramp straight
        case 18: return ("on ramp", "slight right")  // ramp right
        case 19: return ("on ramp", "slight left")  // ramp left
        case 20: return ("off ramp", "slight right")  // exit right
        case 21: return ("off ramp", "slight left")  // exit left
        case 22: return ("fork", "straight")  // stay straight
        case 23: return ("fork", "slight right")  // stay right
        case 24: return ("fork", "slight left")  // stay left
        case 25: return ("merge", nil)
        case 26: return ("roundabout", nil)  // roundabout enter (`roundabout_exit_count`)
        case 27: return ("exit roundabout", nil)
        case 28, 29: return ("notification", "straight")  // ferry enter (its mode is `ferry`), ferry exit
        case 37: return ("merge", "slight right")
        case 38: return ("merge", "slight left")
        default: return nil
        }
    }

    /// A GraphHopper instruction `sign` as the OSRM step type and modifier
    /// it reads as; nil for one no car is told (public transport), kept as
    /// a plain turn with a warning. The first instruction of each leg
    /// (`sign` 0) is its departure.
    static func graphHopperSign(_ sign: Int) -> (type: String, modifier: String?)? {
        switch sign {
        case -98, -8, 8: return ("turn", "uturn")  // U-turn unknown, left, right
        case -7: return ("continue", "slight left")  // keep left
        case 7: return ("continue", "slight right")  // keep right
        case -6: return ("exit roundabout", nil)  // leave roundabout
        case -3: return ("turn", "sharp left")
        case -2: return ("turn", "left")
        case -1: return ("turn", "slight left")
        case 0: return ("new name", "straight")  // continue on street
        case 1: return ("turn", "slight right")
        case 2: return ("turn", "right")
        case 3: return ("turn", "sharp right")
        case 4, 5: return ("arrive", nil)  // finish, reached via
        case 6: return ("roundabout", nil)  // use roundabout (`exit_number`)
        case 9: return ("notification", "straight")  // ferry (its mode is `ferry`)
        default: return nil
        }
    }

    /// The initial great-circle bearing from `a` to `b`, degrees (0..<360).
    static func bearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let f1 = a.latitude * .pi / 180
        let f2 = b.latitude * .pi / 180
        let dl = (b.longitude - a.longitude) * .pi / 180
        let degrees = atan2(sin(dl) * cos(f2), cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl)) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

}

extension RouteImporter.Reader {
    // MARK: Values

    /// A whole number within ±10^9 (an index, a code, a count).
    func integer(_ v: JSONValue, _ path: String) throws(ImportProblem) -> Int {
        let x = try number(v, path)
        guard x == x.rounded(), abs(x) <= 1e9 else {
            throw ImportProblem(.wrongType(expected: "a whole number"), at: path)
        }
        return Int(x)
    }

    /// An optional array of strings (Valhalla's `street_names`); empty ones left out.
    func strings(_ v: JSONValue, _ key: String, _ path: String) throws(ImportProblem) -> [String] {
        guard let list = v[key] else { return [] }
        let p = JSONPath.join(path, key)
        var out: [String] = []
        for (i, item) in try array(list, p).enumerated() {
            guard case .string(let s) = item.kind else {
                throw ImportProblem(.wrongType(expected: "a string"), at: JSONPath.join(p, i))
            }
            if !s.isEmpty { out.append(s) }
        }
        return out
    }

    /// The texts of a Valhalla sign's elements (`exit_number_elements`: `[{"text": "12"}]`).
    func signTexts(_ sign: JSONValue, _ key: String, _ path: String) throws(ImportProblem) -> [String] {
        guard let list = sign[key] else { return [] }
        let p = JSONPath.join(path, key)
        var out: [String] = []
        for (i, item) in try array(list, p).enumerated() {
            if let text = try string(item, "text", JSONPath.join(p, i)) { out.append(text) }
        }
        return out
    }

    /// The signs as OSRM's `destinations` writes them: "REF, REF: NAME, NAME" (`RouteImporter.Signs`).
    static func destinations(refs: [String], names: [String]) -> String? {
        if refs.isEmpty { return names.isEmpty ? nil : names.joined(separator: ", ") }
        return refs.joined(separator: ", ") + ": " + names.joined(separator: ", ")
    }

    // MARK: Valhalla

    /// A Valhalla `trip` (`--route 0`) or one of its `alternates` (`--route N`).
    mutating func valhalla(_ root: JSONValue, options: RouteImporter.Options) throws(ImportProblem)
        -> RouteImporter.Imported
    {
        var tripPath = "trip"
        var trip = try member(root, "trip", "")
        if options.route != 0 {
            let alternates = try root["alternates"].map { v throws(ImportProblem) in try array(v, "alternates") } ?? []
            guard options.route > 0, options.route <= alternates.count else {
                throw ImportProblem(
                    .routeOutOfRange(index: options.route, count: alternates.count + 1),
                    at: alternates.isEmpty ? "trip" : "alternates")
            }
            let p = "alternates[\(options.route - 1)]"
            tripPath = JSONPath.join(p, "trip")
            trip = try member(alternates[options.route - 1], "trip", p)
        }
        guard case .object = trip.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: tripPath) }
        if let status = trip["status"], try number(status, JSONPath.join(tripPath, "status")) != 0 {
            let code = try integer(status, JSONPath.join(tripPath, "status"))
            throw ImportProblem(
                .serviceError(code: String(code), message: try string(trip, "status_message", tripPath)),
                at: JSONPath.join(tripPath, "status"))
        }
        let unitsName = try string(trip, "units", tripPath) ?? "kilometers"
        guard let unit = RouteImporter.valhallaUnit(unitsName) else {
            throw ImportProblem(.unknownUnits(unitsName), at: JSONPath.join(tripPath, "units"))
        }
        var options = options
        if options.units == nil, unit != 1000 { options.units = .imperial }
        let legsPath = JSONPath.join(tripPath, "legs")
        let legs = try array(try member(trip, "legs", tripPath), legsPath)
        if legs.isEmpty { throw ImportProblem(.noSteps, at: legsPath) }
        let precision = options.precision ?? 6
        var points: [GeoPoint] = []
        var steps: [RouteImporter.Step] = []
        for (l, leg) in legs.enumerated() {
            let legPath = legsPath + "[\(l)]"
            let shapePath = JSONPath.join(legPath, "shape")
            let (shape, _) = try geometry(try member(leg, "shape", legPath), shapePath, distance: 0, asked: precision)
            if shape.isEmpty { throw ImportProblem(.tooFewPoints, at: shapePath) }
            points.append(contentsOf: points.last == shape.first ? Array(shape.dropFirst()) : shape)
            let neighbours = RouteImporter.Neighbours(shape)
            let mPath = JSONPath.join(legPath, "maneuvers")
            let maneuvers = try array(try member(leg, "maneuvers", legPath), mPath)
            if maneuvers.isEmpty { throw ImportProblem(.noSteps, at: mPath) }
            for (j, m) in maneuvers.enumerated() {
                let p = mPath + "[\(j)]"
                guard case .object = m.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: p) }
                let code = try integer(try member(m, "type", p), JSONPath.join(p, "type"))
                let iPath = JSONPath.join(p, "begin_shape_index")
                let index = try integer(try member(m, "begin_shape_index", p), iPath)
                guard index >= 0, index < shape.count else {
                    throw ImportProblem(.shapeIndexOutOfRange(index: index, count: shape.count), at: iPath)
                }
                let kind = RouteImporter.valhallaType(code)
                var exit: Int? = nil
                if let e = m["roundabout_exit_count"] {
                    let x = try integer(e, JSONPath.join(p, "roundabout_exit_count"))
                    if x >= 0, x <= 1000 { exit = x }
                }
                var refs: [String] = []
                var names: [String] = []
                var exits: [String] = []
                if let sign = m["sign"] {
                    let sPath = JSONPath.join(p, "sign")
                    guard case .object = sign.kind else {
                        throw ImportProblem(.wrongType(expected: "an object"), at: sPath)
                    }
                    exits = try signTexts(sign, "exit_number_elements", sPath)
                    refs = try signTexts(sign, "exit_branch_elements", sPath)
                    names = try signTexts(sign, "exit_toward_elements", sPath)
                    if names.isEmpty { names = try signTexts(sign, "exit_name_elements", sPath) }
                }
                var ferry = code == 28
                if let f = m["ferry"] {
                    guard case .bool(let b) = f.kind else {
                        throw ImportProblem(.wrongType(expected: "true or false"), at: JSONPath.join(p, "ferry"))
                    }
                    ferry = ferry || b
                }
                var drivingSide: String? = nil
                if let d = m["drive_on_right"] {
                    guard case .bool(let right) = d.kind else {
                        throw ImportProblem(
                            .wrongType(expected: "true or false"), at: JSONPath.join(p, "drive_on_right"))
                    }
                    drivingSide = right ? "right" : "left"
                }
                let streetNames = try strings(m, "street_names", p)
                let length = try distance(try member(m, "length", p), JSONPath.join(p, "length"))
                steps.append(
                    RouteImporter.Step(
                        path: p, leg: l, index: j, lastOfLeg: j == maneuvers.count - 1,
                        type: kind?.type ?? "valhalla type \(code)", modifier: kind?.modifier, exit: exit,
                        location: shape[index], name: streetNames.isEmpty ? nil : streetNames.joined(separator: "; "),
                        ref: nil,
                        destinations: Self.destinations(refs: refs, names: names),
                        exits: exits.isEmpty ? nil : exits.joined(separator: "; "),
                        drivingSide: drivingSide, bearings: RouteImporter.bearings(at: index, shape, neighbours),
                        distance: length * unit,
                        duration: try distance(try member(m, "time", p), JSONPath.join(p, "time")),
                        voice: [], mode: ferry && code != 29 ? "ferry" : "driving", keys: .valhalla))
            }
        }
        var total = steps.reduce(0) { $0 + $1.distance }
        var seconds: Double? = steps.reduce(0) { $0 + $1.duration }
        if let summary = trip["summary"] {
            let sPath = JSONPath.join(tripPath, "summary")
            if let v = summary["length"] { total = try distance(v, JSONPath.join(sPath, "length")) * unit }
            if let v = summary["time"] { seconds = try distance(v, JSONPath.join(sPath, "time")) }
        }
        return try native(
            steps, points: points, precision: precision, total: total, seconds: seconds, geometryPath: legsPath,
            options: options)
    }

    // MARK: GraphHopper

    /// A GraphHopper `paths[N]` (`--route N`): its `instructions` over its `points`.
    mutating func graphHopper(_ root: JSONValue, options: RouteImporter.Options) throws(ImportProblem)
        -> RouteImporter.Imported
    {
        let (route, path) = try chosen("paths", of: root, options)
        let total = try distance(try member(route, "distance", path), JSONPath.join(path, "distance"))
        let seconds = try route["time"].map { v throws(ImportProblem) in
            try distance(v, JSONPath.join(path, "time")) / 1000
        }
        let pointsPath = JSONPath.join(path, "points")
        let pointsValue = try member(route, "points", path)
        var precision: Int? = nil
        if case .string = pointsValue.kind {
            // `points_encoded_multiplier` (1e5 unless asked otherwise) is the precision.
            let mPath = JSONPath.join(path, "points_encoded_multiplier")
            let multiplier =
                try route["points_encoded_multiplier"].map { v throws(ImportProblem) in try number(v, mPath) } ?? 1e5
            guard multiplier == 1e5 || multiplier == 1e6 else {
                throw ImportProblem(.wrongType(expected: "1e5 or 1e6"), at: mPath)
            }
            precision = options.precision ?? (multiplier == 1e6 ? 6 : 5)
        }
        let (points, _) = try geometry(pointsValue, pointsPath, distance: total, asked: precision)
        if points.isEmpty { throw ImportProblem(.tooFewPoints, at: pointsPath) }
        // Asked with `instructions=false`, a path has none: nothing to announce.
        let listPath = JSONPath.join(path, "instructions")
        guard let list = route["instructions"] else { throw ImportProblem(.noSteps, at: listPath) }
        let instructions = try array(list, listPath)
        if instructions.isEmpty { throw ImportProblem(.noSteps, at: listPath) }
        var steps: [RouteImporter.Step] = []
        let neighbours = RouteImporter.Neighbours(points)
        var leg = 0
        var index = 0
        for (k, item) in instructions.enumerated() {
            let p = listPath + "[\(k)]"
            guard case .object = item.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: p) }
            let sign = try integer(try member(item, "sign", p), JSONPath.join(p, "sign"))
            let iPath = JSONPath.join(p, "interval")
            let interval = try array(try member(item, "interval", p), iPath)
            guard interval.count == 2 else {
                throw ImportProblem(.wrongType(expected: "[first, last] point indices"), at: iPath)
            }
            let first = try integer(interval[0], JSONPath.join(iPath, 0))
            let last = try integer(interval[1], JSONPath.join(iPath, 1))
            guard first >= 0, first < points.count else {
                throw ImportProblem(
                    .shapeIndexOutOfRange(index: first, count: points.count), at: JSONPath.join(iPath, 0))
            }
            // `[5, 1]`: the interval runs backwards, not past the line.
            if last < first, last >= 0 { throw ImportProblem(.reversedInterval(first: first, last: last), at: iPath) }
            guard last >= first, last < points.count else {
                throw ImportProblem(
                    .shapeIndexOutOfRange(index: last, count: points.count), at: JSONPath.join(iPath, 1))
            }
            // A finish (4) ends the path: one before the last instruction is no kind a car is told (warned, kept straight).
            let final = k == instructions.count - 1
            let kind =
                index == 0 && sign == 0
                ? ("depart", nil) : sign == 4 && !final ? nil : RouteImporter.graphHopperSign(sign)
            var exit: Int? = nil
            if sign == 6, let e = item["exit_number"] {
                let x = try integer(e, JSONPath.join(p, "exit_number"))
                if x >= 0, x <= 1000 { exit = x }
            }
            let destination = try string(item, "street_destination", p)
            let destinationRef = try string(item, "street_destination_ref", p)
            let time = try distance(try member(item, "time", p), JSONPath.join(p, "time"))
            steps.append(
                RouteImporter.Step(
                    path: p, leg: leg, index: index, lastOfLeg: sign == 5 || final,
                    type: kind?.type ?? "graphhopper sign \(sign)", modifier: kind?.modifier, exit: exit,
                    location: points[first], name: try string(item, "street_name", p),
                    ref: try string(item, "street_ref", p),
                    destinations: Self.destinations(
                        refs: destinationRef.map { RouteImporter.Signs($0).names } ?? [],
                        names: destination.map { RouteImporter.Signs($0).names } ?? []),
                    exits: nil, drivingSide: nil, bearings: RouteImporter.bearings(at: first, points, neighbours),
                    distance: try distance(try member(item, "distance", p), JSONPath.join(p, "distance")),
                    duration: time / 1000,
                    voice: [], mode: sign == 9 ? "ferry" : "driving", keys: .graphHopper))
            // A via point ends a leg: the next instruction departs on the next.
            if sign == 5 {
                leg += 1
                index = 0
            } else {
                index += 1
            }
        }
        return try native(
            steps, points: points, precision: precision, total: total, seconds: seconds, geometryPath: pointsPath,
            options: options)
    }

    // MARK: Shared

    /// The scenario driven on `points` (the route's whole line) with `steps`,
    /// as the OSRM reader builds it, after the warnings its reader gave
    /// (`read`); refusals and warnings about the line name `geometryPath`.
    func native(
        _ steps: [RouteImporter.Step], points: [GeoPoint], precision: Int?, total: Double, seconds: Double?,
        geometryPath: String,
        options: RouteImporter.Options, warnings read: [ImportWarning] = []
    ) throws(ImportProblem) -> RouteImporter.Imported {
        var warnings = read
        let kept = RouteImporter.thin(points)
        try RouteImporter.checkPoints(kept, geometryPath, limit: options.maxPoints)
        guard kept.count >= 2, let line = try? Route(points: kept) else {
            throw ImportProblem(.tooFewPoints, at: geometryPath)
        }
        try RouteImporter.checkLength(line, geometryPath, limit: options.maxMeters, meters: total, seconds: seconds)
        if total > 0, abs(line.length - total) > 0.03 * total {
            warnings.append(
                ImportWarning(
                    .lengthDiffers(
                        geometryMeters: RouteImporter.whole(line.length), responseMeters: RouteImporter.whole(total)),
                    at: geometryPath))
        }
        return try build(
            steps, points: kept, route: line, total: total, precision: precision, options: options, warnings: &warnings)
    }
}
