import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// The OSRM route response (docs/http.md of Project-OSRM/osrm-backend), as
/// Valhalla's `osrm` output and Mapbox Directions write it too.
extension RouteImporter {
    /// One step as read: its path in the document and what the import uses.
    struct Step {
        var path: String
        var leg: Int
        var index: Int
        var lastOfLeg: Bool
        var type: String
        var modifier: String?
        var exit: Int?
        var location: GeoPoint
        var name: String?
        var ref: String?
        var destinations: String?
        var exits: String?
        /// `driving_side`: `left` or `right` (nil: not given, right).
        var drivingSide: String?
        /// The maneuver's `bearing_before` and `bearing_after`, degrees (nil: not given).
        var bearings: (before: Double?, after: Double?) = (nil, nil)
        var distance: Double
        var duration: Double
        var voice: [(before: Double, text: String, path: String)]
        /// A rotary's name (`rotary_name`: "Place de l'Étoile").
        var rotaryName: String? = nil
        /// The step's `mode` (`driving`, `ferry`, …; nil: not given).
        var mode: String? = nil
        /// Mapbox's first `bannerInstructions[].primary` (about the maneuver
        /// that ends the step): its text and its components' (text, `abbr`,
        /// `abbr_priority`).
        var banner: Banner? = nil
        /// The keys its fields go by in its document (OSRM's, Valhalla's, GraphHopper's), for warnings.
        var keys = StepKeys.osrm
        /// A ramp's sign where the service names it apart from `destinations` (Kakao's "판교IC").
        var exitName: String? = nil
        /// A step that only sets the speed from where it starts (each of Kakao's roads): no maneuver, no note.
        var speedOnly = false
        /// The service's display text for the step's own maneuver, with no distance
        /// (Kakao's `guidance`, Google's and Apple's instructions): kept as a prompt.
        var display: String? = nil
        /// Its names were read from a service's words (Google's, Apple's):
        /// `name` the street, `destinations` the toward list, `exits` the
        /// exit's number and `exitName` its name, each as the text gives it.
        var fromWords = false
        /// The maneuver's id when the service numbers its steps its own way
        /// (Apple's `steps[k]`); nil: `l<leg>s<index>`.
        var id: String? = nil
        /// The leg's end the import adds where the service sends no step of its own (Google's, Apple's arrival).
        var added = false
        /// What the service calls a step going straight on, for its warning ("STRAIGHT step"); nil: OSRM's type.
        var straightTerm: String? = nil

        /// The maneuver's id in the scenario.
        var maneuverID: String { id ?? "l\(leg)s\(index)" }
    }

    /// A banner's primary text and its components, as read.
    struct Banner: Equatable {
        var text: String
        var components: [(text: String, type: String?, abbreviation: String?, priority: Double)]

        static func == (a: Banner, b: Banner) -> Bool {
            a.text == b.text && a.components.map(\.text) == b.components.map(\.text)
                && a.components.map(\.abbreviation) == b.components.map(\.abbreviation)
        }
    }

    /// A name longer than this, in characters, is said by the banner's
    /// shorter text when the response has one (`bannerName`).
    static let longName = 24

    /// The short form of `street` a banner gives, or nil: its primary text,
    /// with its components' abbreviations (`abbr`, lowest `abbr_priority`
    /// first) while it is longer than `longName`; only a banner whose every
    /// text component is part of `street` (the same road, not "Turn right"
    /// or "Exit 432 …"), and only when shorter.
    static func bannerName(_ street: String, _ banner: Banner?) -> String? {
        guard street.count > longName, let banner, !banner.components.isEmpty,
              banner.components.allSatisfy({ $0.type == "text" && street.contains($0.text) }) else { return nil }
        var short = banner.text
        for c in banner.components.sorted(by: { $0.priority < $1.priority }) where short.count > longName {
            if let a = c.abbreviation, let r = short.firstRange(of: c.text) { short.replaceSubrange(r, with: a) }
        }
        return short.count < street.count && !short.isEmpty ? short : nil
    }

    /// The OSRM maneuver types (StepManeuver `type`).
    static let maneuverTypes = [
        "turn", "new name", "depart", "arrive", "merge", "on ramp", "off ramp", "fork", "end of road", "continue",
        "roundabout", "rotary", "roundabout turn", "notification", "exit roundabout", "exit rotary",
        // Older OSRM versions wrote these two for ramps; read as on and off ramp.
        "ramp", "use lane",
    ]

    /// A modifier as a plain turn: `uturn`, `sharp right`, …; nil is straight
    /// on, and one not in OSRM's list the nearest by its words (`nearestTurn`).
    static func plainTurn(_ modifier: String?) -> Turn {
        switch modifier {
        case nil, "straight": return .straight
        case "uturn": return .uTurn
        case "sharp right": return .sharpRight
        case "right": return .right
        case "slight right": return .slightRight
        case "slight left": return .slightLeft
        case "left": return .left
        case "sharp left": return .sharpLeft
        case let other?: return nearestTurn(other)
        }
    }

    /// Whether `modifier` is one of OSRM's (or absent).
    static func knownModifier(_ modifier: String?) -> Bool {
        [nil, "uturn", "sharp right", "right", "slight right", "straight", "slight left", "left", "sharp left"].contains(modifier)
    }

    /// The turn an unknown modifier's words name: a side (`left`, `right`),
    /// how much (`sharp`, `hard`; `slight`, `bear`, `half`), or a U-turn; else straight on.
    static func nearestTurn(_ modifier: String) -> Turn {
        let words = modifier.lowercased()
        if words.contains("uturn") || words.contains("u-turn") || words.contains("u turn") { return .uTurn }
        let sharp = words.contains("sharp") || words.contains("hard"), slight = ["slight", "bear", "half"].contains { words.contains($0) }
        if words.contains("left") { return sharp ? .sharpLeft : slight ? .slightLeft : .left }
        if words.contains("right") { return sharp ? .sharpRight : slight ? .slightRight : .right }
        return .straight
    }

    /// Whether a step is no decision for the driver and so not announced:
    /// `new name`, `notification` and `use lane` going straight on or
    /// bending slightly, `continue` straight on (or without a modifier).
    static func goesStraightOn(_ step: Step) -> Bool {
        switch step.type {
        case "new name", "notification", "use lane":
            return [nil, "straight", "slight left", "slight right"].contains(step.modifier)
        case "continue":
            return step.modifier == nil || step.modifier == "straight"
        default:
            return false
        }
    }

    /// The road maneuver for a step, or nil for a step the road does not say
    /// (departures, roundabout exits); `warning` when it was not taken as given.
    static func maneuver(for step: Step, finalLeg: Bool) -> (turn: Turn, details: ManeuverDetails, warning: ImportWarning.Kind?)? {
        var details = ManeuverDetails()
        let plain = plainTurn(step.modifier)
        switch step.type {
        case "depart", "exit roundabout", "exit rotary":
            return nil
        case "arrive":
            if !step.lastOfLeg { return (.straight, ManeuverDetails(), nil) }
            // A leg's end before the last is a waypoint; whether the route turns back there is in `reverses`.
            if !finalLeg { return (.waypoint, ManeuverDetails(), nil) }
            var side: ArrivalSide? = nil
            switch step.modifier {
            case "left", "slight left", "sharp left": side = .left
            case "right", "slight right", "sharp right": side = .right
            case "straight": side = .ahead
            default: side = nil
            }
            return (.arrive, ManeuverDetails(side: side), nil)
        case "turn", "new name", "end of road", "notification", "use lane":
            return (plain, details, nil)
        case "continue":
            switch plain {
            case .slightLeft: return (.keepLeft, details, nil)
            case .slightRight: return (.keepRight, details, nil)
            default: return (plain, details, nil)
            }
        case "merge": return (.merge, details, nil)
        case "on ramp": return (.onRamp, details, nil)
        case "off ramp", "ramp": return (.offRamp, details, nil)
        case "fork":
            switch plain {
            case .left, .slightLeft, .sharpLeft: return (.forkLeft, details, nil)
            case .right, .slightRight, .sharpRight: return (.forkRight, details, nil)
            default: return (.straight, details, nil)
            }
        case "roundabout", "rotary", "roundabout turn":
            if let exit = step.exit, (1...ManeuverDetails.exits).contains(exit) {
                details.exit = exit
                return (.roundabout, details, nil)
            }
            return (plain, details, .roundaboutWithoutExit(keptAs: plain.rawValue))
        default:
            return (plain, details, .unknownManeuverType(step.type, keptAs: plain.rawValue))
        }
    }

    /// Whether step `k` boards a ferry: its `mode` is `ferry` and the step
    /// before's is not (a departure or an arrival stays what it is).
    static func boardsFerry(_ steps: [Step], _ k: Int) -> Bool {
        steps[k].mode == "ferry" && (k == 0 || steps[k - 1].mode != "ferry") && !["depart", "arrive"].contains(steps[k].type)
    }

    /// The speed a car ferry sails at, km/h (some 16 knots): a ferry step
    /// slower on average waits at the terminal for the rest of its time.
    static let ferryKmh = 30.0

    /// A ferry step of `distance` meters and `duration` seconds as a wait at
    /// the terminal (up to the longest stop, 1 h) and the speed it then
    /// sails at, km/h, so that the two take the step's duration; nil when it
    /// sails at `ferryKmh` or faster on average (no wait).
    static func ferry(distance: Double, duration: Double) -> (wait: SimTime, kmh: Double)? {
        let sailing = distance / (ferryKmh / 3.6)
        guard duration > sailing else { return nil }
        let wait = min(duration - sailing, 3600)
        let ms = Int64((wait * 1000).rounded(.down))
        guard ms > 0 else { return nil }
        return (SimTime(ms: ms), distance / (duration - Double(ms) / 1000) * 3.6)
    }

    /// The least change of heading, degrees, at which the route is taken to
    /// turn back at a waypoint: the arrival's `bearing_before` and the next
    /// leg's departure `bearing_after` within 30° of opposite (83° in, 263° out).
    static let reversal = 150.0

    /// Whether the route turns back between `arrival` and the `departure` that follows it.
    static func reverses(_ arrival: Step, _ departure: Step?) -> Bool {
        guard let inward = arrival.bearings.before, let outward = departure?.bearings.after else { return false }
        let change = abs((outward - inward).truncatingRemainder(dividingBy: 360))
        return min(change, 360 - change) >= reversal
    }

    /// One reading pass over a response.
    struct Reader {
        // MARK: Values

        func member(_ v: JSONValue, _ key: String, _ path: String) throws(ImportProblem) -> JSONValue {
            guard let m = v[key] else { throw ImportProblem(.missingField(key), at: path) }
            return m
        }

        func array(_ v: JSONValue, _ path: String) throws(ImportProblem) -> [JSONValue] {
            guard case .array(let items) = v.kind else { throw ImportProblem(.wrongType(expected: "an array"), at: path) }
            return items
        }

        /// The route `--route N` picks from the list under `key` (OSRM's
        /// `routes`, GraphHopper's `paths`), an object, and its path.
        func chosen(_ key: String, of root: JSONValue, _ options: Options) throws(ImportProblem) -> (route: JSONValue, path: String) {
            let routes = try array(try member(root, key, ""), key)
            if routes.isEmpty { throw ImportProblem(.noRoutes, at: key) }
            guard options.route >= 0, options.route < routes.count else {
                throw ImportProblem(.routeOutOfRange(index: options.route, count: routes.count), at: key)
            }
            let path = "\(key)[\(options.route)]"
            let route = routes[options.route]
            guard case .object = route.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: path) }
            return (route, path)
        }

        func number(_ v: JSONValue, _ path: String) throws(ImportProblem) -> Double {
            guard case .number(let literal) = v.kind, let x = Double(literal) else {
                throw ImportProblem(.wrongType(expected: "a number"), at: path)
            }
            // A literal such as 1e400 is a number, beyond what a Double holds.
            guard x.isFinite else { throw ImportProblem(.numberOutOfRange(String(literal.prefix(40))), at: path) }
            return x
        }

        func distance(_ v: JSONValue, _ path: String) throws(ImportProblem) -> Double {
            let x = try number(v, path)
            if x < 0 { throw ImportProblem(.negative, at: path) }
            return x
        }

        /// An optional string member; empty strings count as absent.
        func string(_ v: JSONValue, _ key: String, _ path: String) throws(ImportProblem) -> String? {
            guard let m = v[key] else { return nil }
            switch m.kind {
            case .null: return nil
            case .string(let s): return s.isEmpty ? nil : s
            default: throw ImportProblem(.wrongType(expected: "a string"), at: RouteImporter.join(path, key))
            }
        }

        /// `[lon, lat]`, checked.
        func position(_ v: JSONValue, _ path: String) throws(ImportProblem) -> GeoPoint {
            let items = try array(v, path)
            guard items.count >= 2 else { throw ImportProblem(.wrongType(expected: "[longitude, latitude]"), at: path) }
            let lon = try number(items[0], RouteImporter.join(path, 0)), lat = try number(items[1], RouteImporter.join(path, 1))
            guard abs(lat) <= 90 else { throw ImportProblem(.coordinateOutOfRange, at: RouteImporter.join(path, 1)) }
            guard abs(lon) <= 180 else { throw ImportProblem(.coordinateOutOfRange, at: RouteImporter.join(path, 0)) }
            return GeoPoint(latitude: lat, longitude: lon)
        }

        /// A GeoJSON LineString's `coordinates`.
        func coordinates(_ line: JSONValue, _ path: String) throws(ImportProblem) -> [GeoPoint] {
            let items = try array(try member(line, "coordinates", String(path.dropLast(".coordinates".count))), path)
            var out: [GeoPoint] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() { out.append(try position(item, RouteImporter.join(path, i))) }
            return out
        }

        // MARK: The response

        mutating func response(_ root: JSONValue, options: Options) throws(ImportProblem) -> Imported {
            if let code = root["code"], case .string(let c) = code.kind, c != "Ok" {
                throw ImportProblem(.serviceError(code: c, message: try string(root, "message", "")), at: "code")
            }
            var warnings: [ImportWarning] = []
            let (route, path) = try chosen("routes", of: root, options)
            let total = try distance(try member(route, "distance", path), RouteImporter.join(path, "distance"))
            // The route's own line (`overview=full`), or its steps' lines joined
            // when it has none (`overview=false`) or is simplified (OSRM's
            // default `overview=simplified`: fewer points than its steps).
            var points: [GeoPoint] = [], precision: Int? = nil
            if let overview = route["geometry"] {
                (points, precision) = try geometry(overview, RouteImporter.join(path, "geometry"), distance: total, asked: options.precision)
            }
            let joined = try stepLines(route, path, distance: total, asked: options.precision ?? precision)
            var overview = route["geometry"] != nil
            if let joined, RouteImporter.thin(joined.points).count > RouteImporter.thin(points).count {
                points = joined.points
                precision = joined.precision ?? precision
                if overview { warnings.append(ImportWarning(.simplifiedGeometry, at: RouteImporter.join(path, "geometry"))) }
                overview = false
            }
            if points.isEmpty, route["geometry"] == nil { throw ImportProblem(.missingField("geometry"), at: path) }
            let seconds = try route["duration"].map { v throws(ImportProblem) in try distance(v, RouteImporter.join(path, "duration")) }
            /// The scenario driven on `points`.
            func drive(_ points: [GeoPoint], _ precision: Int?, _ warnings: inout [ImportWarning]) throws(ImportProblem) -> Imported {
                let kept = RouteImporter.thin(points)
                try RouteImporter.checkPoints(kept, RouteImporter.join(path, "geometry"), limit: options.maxPoints)
                guard kept.count >= 2, let line = try? Route(points: kept) else {
                    throw ImportProblem(.tooFewPoints, at: RouteImporter.join(path, "geometry"))
                }
                try RouteImporter.checkLength(line, RouteImporter.join(path, "geometry"), limit: options.maxMeters, meters: total, seconds: seconds)
                if total > 0, abs(line.length - total) > 0.03 * total {
                    warnings.append(ImportWarning(.lengthDiffers(geometryMeters: RouteImporter.whole(line.length), responseMeters: RouteImporter.whole(total)),
                                                  at: RouteImporter.join(path, "geometry")))
                }
                let steps = try self.steps(route, path)
                return try build(steps, points: kept, route: line, total: total, precision: precision, options: options, warnings: &warnings)
            }
            var tried = warnings
            do throws(ImportProblem) {
                return try drive(points, precision, &tried)
            } catch {
                // An overview that a maneuver lies off, where the steps' own lines
                // fit every maneuver: those are driven, with a warning naming the overview.
                guard overview, let joined, case .maneuverOffGeometry(let meters) = error.reason else { throw error }
                var fallback = warnings + [ImportWarning(.overviewMismatch(meters: meters, maneuver: error.path), at: RouteImporter.join(path, "geometry"))]
                guard let fitted = try? drive(joined.points, joined.precision ?? precision, &fallback) else { throw error }
                return fitted
            }
        }

        /// The geometry's points: an encoded polyline (precision detected or
        /// given) or a GeoJSON LineString.
        func geometry(_ v: JSONValue, _ path: String, distance: Double, asked: Int?) throws(ImportProblem) -> ([GeoPoint], Int?) {
            switch v.kind {
            case .object:
                if let t = v["type"], case .string(let s) = t.kind, s != "LineString" {
                    throw ImportProblem(.unsupportedGeoJSON(s), at: RouteImporter.join(path, "type"))
                }
                return (try coordinates(v, RouteImporter.join(path, "coordinates")), nil)
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
                    guard Polyline.plausible(raw, precision: asked) else { throw ImportProblem(.polylineImplausible(precision: asked), at: path) }
                    return (points(asked), asked)
                }
                // Both precisions that give real coordinates; the one whose
                // length is nearer the route's `distance` wins (6 on a tie).
                let candidates = [6, 5].filter { Polyline.plausible(raw, precision: $0) }
                guard let first = candidates.first else { throw ImportProblem(.polylineImplausible(precision: nil), at: path) }
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
        func stepLines(_ route: JSONValue, _ path: String, distance: Double, asked: Int?) throws(ImportProblem) -> (points: [GeoPoint], precision: Int?)? {
            guard let legs = route["legs"], case .array(let legList) = legs.kind else { return nil }
            var out: [GeoPoint] = [], precision = asked
            for (l, leg) in legList.enumerated() {
                guard let steps = leg["steps"], case .array(let stepList) = steps.kind, !stepList.isEmpty else { return nil }
                for (s, step) in stepList.enumerated() {
                    guard let g = step["geometry"] else { return nil }
                    let gPath = RouteImporter.join(path, "legs") + "[\(l)].steps[\(s)].geometry"
                    let stepDistance = step["distance"].flatMap { if case .number(let n) = $0.kind { Double(n) } else { nil } } ?? 0
                    let (points, p) = try geometry(g, gPath, distance: stepDistance, asked: precision)
                    precision = precision ?? p
                    out.append(contentsOf: out.last == points.first ? Array(points.dropFirst()) : points)
                }
            }
            return out.count >= 2 ? (out, precision) : nil
        }

        func steps(_ route: JSONValue, _ path: String) throws(ImportProblem) -> [Step] {
            let legs = try array(try member(route, "legs", path), RouteImporter.join(path, "legs"))
            var out: [Step] = []
            for (l, leg) in legs.enumerated() {
                let legPath = RouteImporter.join(path, "legs") + "[\(l)]"
                let steps = try array(try member(leg, "steps", legPath), RouteImporter.join(legPath, "steps"))
                if steps.isEmpty { throw ImportProblem(.noSteps, at: RouteImporter.join(legPath, "steps")) }
                for (s, step) in steps.enumerated() {
                    let p = RouteImporter.join(legPath, "steps") + "[\(s)]"
                    let m = try member(step, "maneuver", p)
                    let mPath = RouteImporter.join(p, "maneuver")
                    let typeValue = try member(m, "type", mPath)
                    guard case .string(let type) = typeValue.kind else {
                        throw ImportProblem(.wrongType(expected: "a string"), at: RouteImporter.join(mPath, "type"))
                    }
                    var exit: Int? = nil
                    if let e = m["exit"] {
                        let x = try number(e, RouteImporter.join(mPath, "exit"))
                        if x >= 0, x <= 1000, x == x.rounded() { exit = Int(x) }
                    }
                    var voice: [(before: Double, text: String, path: String)] = []
                    if let v = step["voiceInstructions"] {
                        let vPath = RouteImporter.join(p, "voiceInstructions")
                        for (i, item) in try array(v, vPath).enumerated() {
                            let iPath = vPath + "[\(i)]"
                            let before = try distance(try member(item, "distanceAlongGeometry", iPath), RouteImporter.join(iPath, "distanceAlongGeometry"))
                            guard let text = try string(item, "announcement", iPath) else {
                                throw ImportProblem(.missingField("announcement"), at: iPath)
                            }
                            voice.append((before, String(text.prefix(1000)), iPath))
                        }
                    }
                    var bearings: (before: Double?, after: Double?) = (nil, nil)
                    if let b = m["bearing_before"] { bearings.before = try number(b, RouteImporter.join(mPath, "bearing_before")) }
                    if let b = m["bearing_after"] { bearings.after = try number(b, RouteImporter.join(mPath, "bearing_after")) }
                    out.append(Step(
                        path: p, leg: l, index: s, lastOfLeg: s == steps.count - 1, type: type,
                        modifier: try string(m, "modifier", mPath), exit: exit,
                        location: try position(try member(m, "location", mPath), RouteImporter.join(mPath, "location")),
                        name: try string(step, "name", p), ref: try string(step, "ref", p),
                        destinations: try string(step, "destinations", p), exits: try string(step, "exits", p),
                        drivingSide: try string(step, "driving_side", p),
                        bearings: bearings,
                        distance: try distance(try member(step, "distance", p), RouteImporter.join(p, "distance")),
                        duration: try distance(try member(step, "duration", p), RouteImporter.join(p, "duration")),
                        voice: voice, rotaryName: try string(step, "rotary_name", p), mode: try string(step, "mode", p),
                        banner: try banner(step, p)))
                }
            }
            return out
        }

        /// The step's first banner's primary text and components, if any (Mapbox).
        func banner(_ step: JSONValue, _ path: String) throws(ImportProblem) -> Banner? {
            guard let list = step["bannerInstructions"] else { return nil }
            let items = try array(list, RouteImporter.join(path, "bannerInstructions"))
            guard let first = items.first else { return nil }
            let bPath = RouteImporter.join(path, "bannerInstructions") + "[0]"
            guard let primary = first["primary"] else { return nil }
            let pPath = RouteImporter.join(bPath, "primary")
            guard let text = try string(primary, "text", pPath) else { return nil }
            var components: [(text: String, type: String?, abbreviation: String?, priority: Double)] = []
            if let list = primary["components"] {
                let cPath = RouteImporter.join(pPath, "components")
                for (i, c) in try array(list, cPath).enumerated() {
                    let p = cPath + "[\(i)]"
                    guard let t = try string(c, "text", p) else { continue }
                    let priority = try c["abbr_priority"].map { v throws(ImportProblem) in try number(v, RouteImporter.join(p, "abbr_priority")) } ?? 0
                    components.append((t, try string(c, "type", p), try string(c, "abbr", p), priority))
                }
            }
            return Banner(text: String(text.prefix(1000)), components: components)
        }

        // MARK: The scenario

        func build(
            _ steps: [Step], points: [GeoPoint], route: Route, total: Double, precision: Int?, options: Options,
            warnings: inout [ImportWarning]
        ) throws(ImportProblem) -> Imported {
            let legCount = (steps.last?.leg ?? -1) + 1
            var specs: [Scenario.ManeuverSpec] = []
            var specPaths: [String] = []
            var specStep: [Int] = []
            for (k, step) in steps.enumerated() {
                if step.speedOnly { continue }
                // The step where the route boards a ferry (`mode` turns to `ferry`), whatever its type says.
                if RouteImporter.boardsFerry(steps, k) {
                    var spec = Scenario.ManeuverSpec(id: step.maneuverID, point: step.location, turn: .ferry)
                    (spec.street, spec.details) = RouteImporter.signs(of: step, turn: .ferry, next: nil)
                    specs.append(spec)
                    specPaths.append(RouteImporter.join(step.path, step.keys.location))
                    specStep.append(k)
                    continue
                }
                if RouteImporter.goesStraightOn(step) {
                    let kind = step.straightTerm.map { ImportWarning.Kind.straightOn(what: $0) } ?? .notAnnounced(type: step.type)
                    warnings.append(ImportWarning(kind, at: RouteImporter.join(step.path, step.keys.type)))
                    continue
                }
                guard let m = RouteImporter.maneuver(for: step, finalLeg: step.leg == legCount - 1) else { continue }
                if let w = m.warning { warnings.append(ImportWarning(w, at: RouteImporter.join(step.path, step.keys.type))) }
                if !RouteImporter.knownModifier(step.modifier), let modifier = step.modifier {
                    warnings.append(ImportWarning(.unknownModifier(modifier, keptAs: m.turn.rawValue), at: RouteImporter.join(step.path, step.keys.modifier)))
                }
                var spec = Scenario.ManeuverSpec(id: step.maneuverID, point: step.location, turn: m.turn)
                spec.details = m.details
                // The step after it, past those that only set a speed (Kakao's roads).
                let next = steps[(k + 1)...].first { !$0.speedOnly }
                if m.turn == .waypoint {
                    spec.details.uTurn = RouteImporter.reverses(step, next)
                } else if m.turn != .arrive {
                    (spec.street, spec.details) = RouteImporter.signs(of: step, turn: m.turn, next: next)
                    spec.details.exit = m.details.exit
                    // A ramp the service names apart from its directions ("판교IC", toward "서울, 양재").
                    if let name = step.exitName, m.turn == .offRamp || m.turn == .onRamp {
                        spec.details.exitName = name
                        spec.details.toward = RouteImporter.Signs(step.destinations).toward
                    }
                    // A long name by the banner's short text: the banner before the step is about its maneuver.
                    if let street = spec.street, k > 0, let short = RouteImporter.bannerName(street, steps[k - 1].banner) { spec.street = short }
                    // "At Place de l'Étoile, take the third exit."
                    if m.turn == .roundabout, let name = step.rotaryName { spec.details.exitName = name }
                }
                specs.append(spec)
                specPaths.append(RouteImporter.join(step.path, step.keys.location))
                specStep.append(k)
            }
            // Speeds: each step from where it starts, at distance / duration.
            let stepStart = RouteImporter.starts(of: steps, on: route)
            var speedSteps: [SpeedProfile.Step] = []
            var stops: [SpeedProfile.Stop] = []
            for (step, start) in zip(steps, stepStart) {
                guard step.distance > 0, step.duration > 0 else { continue }
                var kmh = step.distance / step.duration * 3.6
                // A ferry: the car waits at the terminal, then sails (`ferry(distance:duration:)`).
                if step.mode == "ferry", let (wait, sail) = RouteImporter.ferry(distance: step.distance, duration: step.duration),
                   start > (stops.last?.at ?? -1) + 1 {
                    stops.append(SpeedProfile.Stop(at: (start * 10).rounded() / 10, dwell: wait))
                    kmh = sail
                }
                if !RouteImporter.kmhLimits.contains(kmh) {
                    let limit = kmh > RouteImporter.kmhLimits.upperBound ? RouteImporter.kmhLimits.upperBound : RouteImporter.kmhLimits.lowerBound
                    warnings.append(ImportWarning(.speedClamped(kmh: MeasuredValue.rounded(kmh, beyond: limit)), at: RouteImporter.join(step.path, step.keys.duration)))
                    kmh = min(max(kmh, RouteImporter.kmhLimits.lowerBound), RouteImporter.kmhLimits.upperBound)
                }
                kmh = (kmh * 10).rounded() / 10
                let from = speedSteps.isEmpty ? 0 : (start * 10).rounded() / 10
                if let last = speedSteps.last {
                    if abs(last.speed * 3.6 - kmh) < 1e-9 { continue }
                    if from < last.from + 1 { speedSteps[speedSteps.count - 1].speed = kmh / 3.6; continue }
                }
                speedSteps.append(SpeedProfile.Step(from: from, speed: kmh / 3.6))
            }
            if speedSteps.isEmpty { speedSteps = [SpeedProfile.Step(from: 0, speed: options.kmh / 3.6)] }
            let drive = Scenario.Drive(profile: SpeedProfile(steps: speedSteps, stops: stops))
            // Place the maneuvers, then drive the road once: a maneuver the
            // road cannot give its own "now" line at these speeds (it follows
            // the one before too closely) is left out and the rest placed again.
            var road = Scenario.Road(language: options.language, points: points, maneuvers: [])
            road.drive = drive
            if options.language == .en { road.guidance.units = options.units ?? RouteImporter.voiceUnits(steps) }
            try RouteImporter.checkDrive(road, length: route.length, meters: total)
            var placed = try RouteImporter.place(specs, on: route, paths: specPaths, warnings: &warnings)
            // A maneuver the road cannot announce after the one before is left
            // out, the first such each time, and the rest placed again. Whether
            // one is announced depends on the maneuvers just before it (the
            // drive and the fixes on none), so each question is asked of a
            // window of the road around it (`RouteImporter.window`), not of the
            // whole drive: linear in the route, however many are left out. A
            // drive of the whole road checks it (below).
            var leftOut: [(step: Int, warning: ImportWarning)] = []
            func leaveOut(_ i: Int) throws(ImportProblem) {
                // The first is measured from the start: a fork 4 m after it cannot be announced either.
                let kind: ImportWarning.Kind = i == 0 ? .cannotAnnounceAfterStart(meters: RouteImporter.whole(placed[0].distance))
                    : .cannotAnnounce(metersAfterPrevious: RouteImporter.whole(placed[i].distance - placed[i - 1].distance))
                let step = specStep[placed[i].index]
                leftOut.append((step, ImportWarning(kind, at: RouteImporter.join(steps[step].path, steps[step].keys.type))))
                placed.remove(at: i)
                // Those after it are placed again, each after the one before, until one lands where
                // it was (the rest then do too). Leaving one out only lets the next lie earlier.
                var k = i
                while k < placed.count {
                    let from = k == 0 ? 0 : placed[k - 1].distance + 1
                    // It placed after a later point, so it places after an earlier one.
                    guard let distance = try? route.distance(ofManeuverAt: placed[k].spec.point, from: from, index: k),
                        distance != placed[k].distance else { break }
                    placed[k].distance = distance
                    k += 1
                }
            }
            /// Whether the maneuver at `i` may be left out: any but a first that is the arrival or a waypoint.
            func leavable(_ i: Int) -> Bool { i > 0 || ![.arrive, .waypoint].contains(placed[0].spec.turn) }
            /// Asks windows from `settled` on until the maneuvers before `until` are
            /// settled (or the route ends); returns where it got to.
            func windows(from start: Int, until: Int) throws(ImportProblem) -> Int {
                var settled = start  // placed[..<settled] are announced
                while settled < min(until, placed.count) {
                    let first = max(0, settled - 2), last = min(placed.count - 1, settled + RouteImporter.windowManeuvers)
                    let toEnd = last == placed.count - 1
                    // The maneuvers a window answers for: from `settled` to the one before its last (all, at the route's end).
                    let answered = settled..<(toEnd ? placed.count : last)
                    let from = max(0, placed[first].distance - RouteImporter.windowLead)
                    let to = toEnd ? route.length : placed[last].distance + RouteImporter.windowTail
                    let window = RouteImporter.window(road, route: route, from: from, to: to, maneuvers: placed[first...last].map(\.spec))
                    let silent = Set(RouteImporter.unannounced(Scenario(name: "import", road: window)))
                    if let i = answered.first(where: { silent.contains(placed[$0].spec.id) && leavable($0) }) {
                        try leaveOut(i)
                        settled = max(0, i - 1)  // the one before may have said it in its "now" line
                    } else {
                        if toEnd { return placed.count }
                        settled = last
                    }
                }
                return settled
            }
            _ = try windows(from: 0, until: .max)
            // The whole drive checks the windows: each maneuver it passes
            // unannounced is left out and the windows after it asked again,
            // all in one drive where they lie apart, then the whole drive again.
            for _ in 0..<placed.count {
                road.maneuvers = placed.map(\.spec)
                let silent = RouteImporter.unannounced(Scenario(name: "import", road: road))
                if silent.isEmpty { break }
                var reached = 0, changed = false
                for id in silent {
                    guard let i = placed.firstIndex(where: { $0.spec.id == id }), leavable(i), i >= reached else { continue }
                    try leaveOut(i)
                    changed = true
                    reached = try windows(from: max(0, i - 1), until: i + 2 * RouteImporter.windowManeuvers)
                }
                if !changed { break }
            }
            warnings += leftOut.sorted { $0.step < $1.step }.map(\.warning)
            road.maneuvers = placed.map(\.spec)
            // The service's prompts: each step's voice instructions announce
            // the maneuver that ends the step, which is the next step's; when
            // that step has no maneuver kept, the next one kept after it, its
            // distance counted on from where the step ends.
            var prompts: [ServicePrompt] = []
            // Display texts: each for its own step's maneuver, when kept.
            for kept in placed {
                if let text = steps[specStep[kept.index]].display { prompts.append(ServicePrompt(maneuver: kept.spec.id, before: nil, text: text)) }
            }
            for (k, step) in steps.enumerated() where !step.voice.isEmpty {
                guard let target = placed.first(where: { specStep[$0.index] > k }) else {
                    for v in step.voice { warnings.append(ImportWarning(.promptWithoutManeuver, at: v.path)) }
                    continue
                }
                let extra = specStep[target.index] == k + 1 || k + 1 >= stepStart.count ? 0 : max(0, target.distance - stepStart[k + 1])
                for v in step.voice {
                    prompts.append(ServicePrompt(maneuver: target.spec.id, before: ((v.before + extra) * 10).rounded() / 10, text: v.text))
                }
            }
            let minutes = RouteImporter.whole(steps.reduce(0) { $0 + $1.duration } / 60)
            var scenario = Scenario(
                name: "route from \(options.source)",
                description: "Imported by drivesim import-route from \(options.source): route \(options.route), \(counted(legCount, "leg")), "
                    + "\(counted(steps.count { !$0.speedOnly && !$0.added }, "step")), \(counted(placed.count, "maneuver")), "
                    + "\(RouteImporter.whole(total)) m in about \(minutes) min at the response's own speeds.",
                road: road)
            scenario.servicePrompts = prompts
            return Imported(scenario: scenario, warnings: warnings, length: route.length, responseDistance: total, precision: precision,
                            start: steps.first.map { RouteImporter.join($0.path, $0.keys.location) } ?? "")
        }
    }

    /// The units the response's own voice instructions speak: imperial when
    /// one says feet or miles, else metric.
    static func voiceUnits(_ steps: [Step]) -> Units {
        let imperial = steps.contains { $0.voice.contains { v in
            let words = v.text.lowercased()
            return [" feet", " foot", " mile"].contains { words.contains($0) }
        } }
        return imperial ? .imperial : .metric
    }

    /// Where each step starts along the route, meters: where its maneuver's
    /// point lies on the route (the first pass within the maneuver
    /// tolerance, searched on from the step before's start), or, for a
    /// point off the route, the step before's start plus its distance
    /// scaled to the geometry.
    /// - Complexity: O(points + steps) along a route that holds every step's
    ///   point; each point off it costs a search of the rest of the route.
    static func starts(of steps: [Step], on route: Route) -> [Double] {
        let stepTotal = steps.reduce(0) { $0 + $1.distance }
        let scale = stepTotal > 0 ? route.length / stepTotal : 1
        var out: [Double] = []
        out.reserveCapacity(steps.count)
        for (k, step) in steps.enumerated() {
            guard let before = out.last else { out.append(0); continue }
            let placed = route.firstPass(near: step.location, from: before)
            out.append(placed ?? min(route.length, before + steps[k - 1].distance * scale))
        }
        return out
    }

    /// The length of a line of points, meters (the road's own projection).
    static func pathLength(_ points: [GeoPoint]) -> Double {
        guard points.count >= 2, let r = try? Route(points: points) else { return 0 }
        return r.length
    }
}
