import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// The OSRM route response (docs/http.md of Project-OSRM/osrm-backend), as
/// Valhalla's `osrm` output and Mapbox Directions write it too.
extension RouteImporter {
    /// One reading pass over a response.
    struct Reader {
        // MARK: The response

        mutating func response(_ root: JSONValue, options: Options) throws(ImportProblem) -> Imported {
            if let code = root["code"], case .string(let c) = code.kind, c != "Ok" {
                throw ImportProblem(.serviceError(code: c, message: try string(root, "message", "")), at: "code")
            }
            var warnings: [ImportWarning] = []
            let (route, path) = try chosen("routes", of: root, options)
            let total = try distance(try member(route, "distance", path), JSONPath.join(path, "distance"))
            // The route's own line (`overview=full`), or its steps' lines joined
            // when it has none (`overview=false`) or is simplified (OSRM's
            // default `overview=simplified`: fewer points than its steps).
            var points: [GeoPoint] = []
            var precision: Int? = nil
            if let overview = route["geometry"] {
                (points, precision) = try geometry(
                    overview, JSONPath.join(path, "geometry"), distance: total, asked: options.precision)
            }
            let joined = try stepLines(route, path, distance: total, asked: options.precision ?? precision)
            var overview = route["geometry"] != nil
            if let joined, RouteImporter.thin(joined.points).count > RouteImporter.thin(points).count {
                points = joined.points
                precision = joined.precision ?? precision
                if overview {
                    warnings.append(ImportWarning(.simplifiedGeometry, at: JSONPath.join(path, "geometry")))
                }
                overview = false
            }
            if points.isEmpty, route["geometry"] == nil { throw ImportProblem(.missingField("geometry"), at: path) }
            let seconds = try route["duration"].map { v throws(ImportProblem) in
                try distance(v, JSONPath.join(path, "duration"))
            }
            /// The scenario driven on `points`.
            func drive(_ points: [GeoPoint], _ precision: Int?, _ warnings: inout [ImportWarning]) throws(ImportProblem)
                -> Imported
            {
                let kept = RouteImporter.thin(points)
                try RouteImporter.checkPoints(kept, JSONPath.join(path, "geometry"), limit: options.maxPoints)
                guard kept.count >= 2, let line = try? Route(points: kept) else {
                    throw ImportProblem(.tooFewPoints, at: JSONPath.join(path, "geometry"))
                }
                try RouteImporter.checkLength(
                    line, JSONPath.join(path, "geometry"), limit: options.maxMeters, meters: total,
                    seconds: seconds)
                if total > 0, abs(line.length - total) > 0.03 * total {
                    warnings.append(
                        ImportWarning(
                            .lengthDiffers(
                                geometryMeters: RouteImporter.whole(line.length),
                                responseMeters: RouteImporter.whole(total)),
                            at: JSONPath.join(path, "geometry")))
                }
                let steps = try self.steps(route, path)
                return try build(
                    steps, points: kept, route: line, total: total, precision: precision, options: options,
                    warnings: &warnings)
            }
            var tried = warnings
            do throws(ImportProblem) {
                return try drive(points, precision, &tried)
            } catch {
                // An overview that a maneuver lies off, where the steps' own lines
                // fit every maneuver: those are driven, with a warning naming the overview.
                guard overview, let joined, case .maneuverOffGeometry(let meters) = error.reason else { throw error }
                var fallback =
                    warnings + [
                        ImportWarning(
                            .overviewMismatch(meters: meters, maneuver: error.path),
                            at: JSONPath.join(path, "geometry"))
                    ]
                guard let fitted = try? drive(joined.points, joined.precision ?? precision, &fallback) else {
                    throw error
                }
                return fitted
            }
        }

        /// The geometry's points: an encoded polyline (precision detected or
        /// given) or a GeoJSON LineString.
        func geometry(_ v: JSONValue, _ path: String, distance: Double, asked: Int?) throws(ImportProblem) -> (
            [GeoPoint], Int?
        ) {
            switch v.kind {
            case .object:
                if let t = v["type"], case .string(let s) = t.kind, s != "LineString" {
                    throw ImportProblem(.unsupportedGeoJSON(s), at: JSONPath.join(path, "type"))
                }
                return (try coordinates(v, JSONPath.join(path, "coordinates")), nil)
            case .string(let text):
                if text.isEmpty { throw ImportProblem(.emptyPolyline, at: path) }
                let raw: [(lat: Int64, lon: Int64)]
                switch Polyline.decode(text) {
                case .success(let r): raw = r
                case .failure(let e): throw ImportProblem(.polylineDoesNotDecode(offset: e.offset), at: path)
                }
                func points(_ p: Int) -> [GeoPoint] {
                    let scale = p == 6 ? 1e6 : 1e5
                    return raw.map { GeoPoint(latitude: Double($0.lat) / scale, longitude: Double($0.lon) / scale) }
                }
                if let asked {
                    guard Polyline.plausible(raw, precision: asked) else {
                        throw ImportProblem(.polylineImplausible(precision: asked), at: path)
                    }
                    return (points(asked), asked)
                }
                // Both precisions that give real coordinates; the one whose
                // length is nearer the route's `distance` wins (6 on a tie).
                let candidates = [6, 5].filter { Polyline.plausible(raw, precision: $0) }
                guard let first = candidates.first else {
                    throw ImportProblem(.polylineImplausible(precision: nil), at: path)
                }
                guard candidates.count == 2, distance > 0 else { return (points(first), first) }
                func error(_ p: Int) -> Double { abs(RouteImporter.pathLength(points(p)) - distance) }
                let best = error(5) < error(6) ? 5 : 6
                return (points(best), best)
            default:
                throw ImportProblem(.wrongType(expected: "an encoded polyline or a GeoJSON LineString"), at: path)
            }
        }

        /// Every step's own `geometry` joined in order (the shared point between
        /// two steps once), or nil when some step has none. Their precision is
        /// the one `asked` (or the overview's), else detected on the joined line.
        func stepLines(_ route: JSONValue, _ path: String, distance: Double, asked: Int?) throws(ImportProblem) -> (
            points: [GeoPoint], precision: Int?
        )? {
            guard let legs = route["legs"], case .array(let legList) = legs.kind else { return nil }
            var out: [GeoPoint] = []
            var precision = asked
            for (l, leg) in legList.enumerated() {
                guard let steps = leg["steps"], case .array(let stepList) = steps.kind, !stepList.isEmpty else {
                    return nil
                }
                for (s, step) in stepList.enumerated() {
                    guard let g = step["geometry"] else { return nil }
                    let gPath = JSONPath.join(path, "legs") + "[\(l)].steps[\(s)].geometry"
                    let stepDistance =
                        step["distance"].flatMap { if case .number(let n) = $0.kind { Double(n) } else { nil } } ?? 0
                    let (points, p) = try geometry(g, gPath, distance: stepDistance, asked: precision)
                    precision = precision ?? p
                    out.append(contentsOf: out.last == points.first ? Array(points.dropFirst()) : points)
                }
            }
            return out.count >= 2 ? (out, precision) : nil
        }

        func steps(_ route: JSONValue, _ path: String) throws(ImportProblem) -> [Step] {
            let legs = try array(try member(route, "legs", path), JSONPath.join(path, "legs"))
            var out: [Step] = []
            for (l, leg) in legs.enumerated() {
                let legPath = JSONPath.join(path, "legs") + "[\(l)]"
                let steps = try array(try member(leg, "steps", legPath), JSONPath.join(legPath, "steps"))
                if steps.isEmpty { throw ImportProblem(.noSteps, at: JSONPath.join(legPath, "steps")) }
                for (s, step) in steps.enumerated() {
                    let p = JSONPath.join(legPath, "steps") + "[\(s)]"
                    let m = try member(step, "maneuver", p)
                    let mPath = JSONPath.join(p, "maneuver")
                    let typeValue = try member(m, "type", mPath)
                    guard case .string(let type) = typeValue.kind else {
                        throw ImportProblem(.wrongType(expected: "a string"), at: JSONPath.join(mPath, "type"))
                    }
                    var exit: Int? = nil
                    if let e = m["exit"] {
                        let x = try number(e, JSONPath.join(mPath, "exit"))
                        if x >= 0, x <= 1000, x == x.rounded() { exit = Int(x) }
                    }
                    var voice: [(before: Double, text: String, path: String)] = []
                    if let v = step["voiceInstructions"] {
                        let vPath = JSONPath.join(p, "voiceInstructions")
                        for (i, item) in try array(v, vPath).enumerated() {
                            let iPath = vPath + "[\(i)]"
                            let before = try distance(
                                try member(item, "distanceAlongGeometry", iPath),
                                JSONPath.join(iPath, "distanceAlongGeometry"))
                            guard let text = try string(item, "announcement", iPath) else {
                                throw ImportProblem(.missingField("announcement"), at: iPath)
                            }
                            voice.append((before, String(text.prefix(1000)), iPath))
                        }
                    }
                    var bearings: (before: Double?, after: Double?) = (nil, nil)
                    if let b = m["bearing_before"] {
                        bearings.before = try number(b, JSONPath.join(mPath, "bearing_before"))
                    }
                    if let b = m["bearing_after"] {
                        bearings.after = try number(b, JSONPath.join(mPath, "bearing_after"))
                    }
                    out.append(
                        Step(
                            path: p, leg: l, index: s, lastOfLeg: s == steps.count - 1, type: type,
                            modifier: try string(m, "modifier", mPath), exit: exit,
                            location: try position(
                                try member(m, "location", mPath), JSONPath.join(mPath, "location")),
                            name: try string(step, "name", p), ref: try string(step, "ref", p),
                            destinations: try string(step, "destinations", p), exits: try string(step, "exits", p),
                            drivingSide: try string(step, "driving_side", p),
                            bearings: bearings,
                            distance: try distance(try member(step, "distance", p), JSONPath.join(p, "distance")),
                            duration: try distance(try member(step, "duration", p), JSONPath.join(p, "duration")),
                            voice: voice, rotaryName: try string(step, "rotary_name", p),
                            mode: try string(step, "mode", p),
                            banner: try banner(step, p)))
                }
            }
            return out
        }

        /// The step's first banner's primary text and components, if any (Mapbox).
        func banner(_ step: JSONValue, _ path: String) throws(ImportProblem) -> Banner? {
            guard let list = step["bannerInstructions"] else { return nil }
            let items = try array(list, JSONPath.join(path, "bannerInstructions"))
            guard let first = items.first else { return nil }
            let bPath = JSONPath.join(path, "bannerInstructions") + "[0]"
            guard let primary = first["primary"] else { return nil }
            let pPath = JSONPath.join(bPath, "primary")
            guard let text = try string(primary, "text", pPath) else { return nil }
            var components: [(text: String, type: String?, abbreviation: String?, priority: Double)] = []
            if let list = primary["components"] {
                let cPath = JSONPath.join(pPath, "components")
                for (i, c) in try array(list, cPath).enumerated() {
                    let p = cPath + "[\(i)]"
                    guard let t = try string(c, "text", p) else { continue }
                    let priority =
                        try c["abbr_priority"].map { v throws(ImportProblem) in
                            try number(v, JSONPath.join(p, "abbr_priority"))
                        } ?? 0
                    components.append((t, try string(c, "type", p), try string(c, "abbr", p), priority))
                }
            }
            return Banner(text: String(text.prefix(1000)), components: components)
        }

    }
}
