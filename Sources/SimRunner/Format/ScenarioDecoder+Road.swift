import Guidance
import Road
import SimClock
import SimRunner

/// The `road` section (docs/scenario-format.md), decoded as strictly as the
/// core: every key checked, every problem typed and placed by path.
extension Decoding {
    /// The documented bounds of the road's numbers (docs/scenario-format.md),
    /// chosen so that every accepted value runs in bounded time and memory.
    enum Limits {
        /// A target speed, km/h: from the car's creep speed (1 m/s, so no
        /// target is raised silently) to 250.
        static let kmh = 3.6...250.0
        /// `drive.accel` and `drive.decel`, m/s².
        static let acceleration = 0.1...20.0
        /// Speed steps lie at least this far apart, meters.
        static let stepSpacing = 1.0
        /// `fixes.every`, in milliseconds: at most ten fixes a second.
        static let everyMs: Int64 = 100
        /// `guidance.rates.en` (words/s) and `.ko` (syllables/s).
        static let rate = 0.5...50.0
        /// `guidance.horizon`, the dead-reckoning limit, at most 600 s.
        static let horizonMs = RoadSetup.Limits.horizonMs
        /// `road.guidance.outputLatency`: at most 10 s.
        static let outputLatencyMs = RoadSetup.Limits.outputLatencyMs
        /// The longest `street` name, in characters.
        static let streetCharacters = 200
    }

    /// The literal as a `Double`: nil if it is not a number. A nonzero
    /// literal too close to zero for a normal `Double` (`1e-400`, `1e-320`) is
    /// refused as `underflow`, never read as 0 or with lost precision; one too
    /// large (`1e400`) is infinite, which no range holds.
    func double(_ value: JSONValue, _ path: String) throws(ScenarioError) -> Double? {
        guard case .number(let literal) = value.kind, let x = Double(literal) else { return nil }
        if x == 0 || x.isSubnormal {
            let mantissa = literal.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            if mantissa.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
                throw fail(.underflow, path, value)
            }
        }
        return x
    }

    /// A plain number within `range`.
    func number(_ value: JSONValue, _ path: String, _ range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        guard let x = try double(value, path) else { throw fail(.wrongType(expected: .number), path, value) }
        if x < 0 && range.lowerBound >= 0 { throw fail(.negative, path, value) }
        guard range.contains(x) else { throw fail(.outOfRange(describe(range)), path, value) }
        return x
    }

    func describe(_ range: ClosedRange<Double>) -> String { "\(format(range.lowerBound))...\(format(range.upperBound))" }

    private func format(_ x: Double) -> String { x == x.rounded() ? String(Int64(x)) : String(x) }

    func point(_ fields: Fields) throws(ScenarioError) -> GeoPoint {
        let latValue = try required(fields, "lat"), lonValue = try required(fields, "lon")
        guard case .number = latValue.kind, case .number = lonValue.kind else {
            if case .number = latValue.kind { throw fail(.wrongType(expected: .number), fields.path("lon"), lonValue) }
            throw fail(.wrongType(expected: .number), fields.path("lat"), latValue)
        }
        // A number, however large (`1e400`), is out of range, not "not a number".
        let lat = try double(latValue, fields.path("lat")) ?? .nan
        if !(abs(lat) <= 90) { throw fail(.coordinateOutOfRange, fields.path("lat"), latValue) }
        let lon = try double(lonValue, fields.path("lon")) ?? .nan
        if !(abs(lon) <= 180) { throw fail(.coordinateOutOfRange, fields.path("lon"), lonValue) }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    func windows(_ value: JSONValue, _ path: String) throws(ScenarioError) -> [TimeWindow] {
        var out: [TimeWindow] = []
        for (i, item) in try array(value, path).enumerated() {
            out.append(try window(object(item, Decoding.join(path, i), allowed: ScenarioKeys.window)))
        }
        return out
    }

    func window(_ fields: Fields) throws(ScenarioError) -> TimeWindow {
        let from = try seconds(try required(fields, "from"), fields.path("from"), .time)
        let toValue = try required(fields, "to")
        let to = try seconds(toValue, fields.path("to"), .time)
        if to <= from { throw fail(.emptyWindow, fields.path("to"), toValue) }
        return TimeWindow(from: from, to: to)
    }

    mutating func road(_ value: JSONValue, _ path: String) throws(ScenarioError) -> Scenario.Road {
        let fields = try object(value, path, allowed: ScenarioKeys.road)
        let language = try language(try required(fields, "language"), fields.path("language"))
        let routeValue = try required(fields, "route")
        let (points, maneuvers, length) = try route(routeValue, fields.path("route"))
        var road = Scenario.Road(language: language, points: points, maneuvers: maneuvers)
        if let v = fields.optional("drive") {
            let drive = try drive(v, fields.path("drive"))
            // SPEC 2: the road's drive ends within 24 h too. Integrated up to
            // the limit and no further, so a crawl is refused in bounded time.
            let limit = SimTime(ms: Int64(ScenarioDecoder.maxTimeSeconds) * 1000)
            if Trajectory.arrival(profile: drive.profile, length: length, start: drive.start, limit: limit) == nil {
                throw fail(.driveTooLong, fields.path("drive"), v)
            }
            road.drive = drive
        }
        if let v = fields.optional("fixes") { road.fixes = try fixes(v, fields.path("fixes")) }
        switch road.fixes {
        case .generated:
            if road.drive == nil { throw fail(.driveMissing, path, value) }
        case .recorded:
            if let v = fields.optional("drive") { throw fail(.driveWithRecordedFixes, fields.path("drive"), v) }
        }
        if let v = fields.optional("link") { road.link = try link(v, fields.path("link")) }
        if let v = fields.optional("app") {
            let app = try object(v, fields.path("app"), allowed: ScenarioKeys.app)
            if let b = app.optional("background") { road.background = try windows(b, app.path("background")) }
            if let s = app.optional("segments") { road.segments = try windows(s, app.path("segments")) }
        }
        if let v = fields.optional("follow") { road.follow = try follow(v, fields.path("follow")) }
        if let v = fields.optional("guidance") { try guidance(v, fields.path("guidance"), into: &road) }
        return road
    }

    /// The route's points, its maneuvers and its length in meters.
    mutating func route(_ value: JSONValue, _ path: String) throws(ScenarioError) -> ([GeoPoint], [Scenario.ManeuverSpec], Double) {
        let fields = try object(value, path, allowed: ScenarioKeys.route)
        let pointsValue = try required(fields, "points")
        let pointsPath = fields.path("points")
        var points: [GeoPoint] = []
        for (i, item) in try array(pointsValue, pointsPath).enumerated() {
            points.append(try point(object(item, Decoding.join(pointsPath, i), allowed: ScenarioKeys.point)))
        }
        var route: Route
        do { route = try Route(points: points) } catch { throw fail(.routeTooShort, pointsPath, pointsValue) }
        if route.length > Route.maxLength {
            throw fail(.routeTooLong(kilometers: Int(route.length / 1000)), pointsPath, pointsValue)
        }
        var specs: [Scenario.ManeuverSpec] = []
        var values: [JSONValue] = []
        if let v = fields.optional("maneuvers") {
            let mPath = fields.path("maneuvers")
            values = try array(v, mPath)
            for (i, item) in values.enumerated() {
                let m = try object(item, Decoding.join(mPath, i), allowed: ScenarioKeys.maneuver)
                if let last = specs.last, last.turn == .arrive { throw fail(.arrivalNotLast, Decoding.join(mPath, i), item) }
                specs.append(try maneuver(m))
            }
        }
        do {
            try route.place(specs.map { ($0.point, Maneuver(id: $0.id, turn: $0.turn, street: $0.street, details: $0.details)) })
        } catch {
            switch error {
            case .maneuverOffRoute(let i, let meters):
                throw fail(.maneuverOffRoute(meters: Int(meters.rounded(.down))), Decoding.join(fields.path("maneuvers"), i), values[i])
            case .maneuverOutOfOrder(let i):
                throw fail(.maneuverOutOfOrder, Decoding.join(fields.path("maneuvers"), i), values[i])
            case .tooFewPoints: break  // checked above
            }
        }
        return (points, specs, route.length)
    }

    /// One maneuver; each kind takes only its own keys (docs/scenario-format.md).
    mutating func maneuver(_ m: Fields) throws(ScenarioError) -> Scenario.ManeuverSpec {
        let id = try id(m)
        let at = try point(m)
        // `oneOf` guarantees the raw value exists.
        let turn = Turn(rawValue: try oneOf(try required(m, "turn"), m.path("turn"), Turn.allCases.map(\.rawValue))) ?? .straight
        /// The value of `key`, refused unless `turn` is one of `kinds`.
        func only(_ key: String, _ kinds: [Turn]) throws(ScenarioError) -> JSONValue? {
            guard let v = m.optional(key) else { return nil }
            if !kinds.contains(turn) { throw fail(.keyNotForTurn(key, turn: turn.rawValue, only: kinds.map(\.rawValue)), m.path(key), v) }
            return v
        }
        let notArrival = Turn.allCases.filter { $0 != .arrive }
        var spec = Scenario.ManeuverSpec(id: id, point: at, turn: turn)
        if let s = try only("street", notArrival) {
            let street = try nonEmptyString(s, m.path("street"))
            if street.count > Limits.streetCharacters {
                throw fail(.stringTooLong(maxCharacters: Limits.streetCharacters), m.path("street"), s)
            }
            spec.street = street
        }
        if let s = try only("toward", notArrival) { spec.details.toward = try nonEmptyString(s, m.path("toward")) }
        if let v = try only("exit", [.roundabout]) {
            let n = try integer(v, m.path("exit"))
            if n < 1 || n > Int64(ManeuverDetails.exits) { throw fail(.outOfRange("1...\(ManeuverDetails.exits)"), m.path("exit"), v) }
            spec.details.exit = Int(n)
        } else if turn == .roundabout {
            throw fail(.missingField("exit"), m.path, m.value)
        }
        if let v = try only("ref", [.offRamp]) {
            let ref = try nonEmptyString(v, m.path("ref"))
            if ref.count > 8 { throw fail(.outOfRange("1...8 characters"), m.path("ref"), v) }
            spec.details.exitNumber = ref
        }
        if let v = try only("name", [.offRamp]) { spec.details.exitName = try nonEmptyString(v, m.path("name")) }
        if let v = try only("side", [.arrive]) {
            spec.details.side = ArrivalSide(rawValue: try oneOf(v, m.path("side"), ArrivalSide.allCases.map(\.rawValue)))
        }
        return spec
    }

    func drive(_ value: JSONValue, _ path: String) throws(ScenarioError) -> Scenario.Drive {
        let fields = try object(value, path, allowed: ScenarioKeys.drive)
        let speedsValue = try required(fields, "speeds")
        let speedsPath = fields.path("speeds")
        var steps: [SpeedProfile.Step] = []
        for (i, item) in try array(speedsValue, speedsPath).enumerated() {
            let s = try object(item, Decoding.join(speedsPath, i), allowed: ScenarioKeys.speed)
            let fromValue = try required(s, "from")
            let from = try number(fromValue, s.path("from"), 0...100_000_000)
            if (i == 0 && from != 0) || (i > 0 && from < steps[i - 1].from + Limits.stepSpacing) {
                throw fail(.speedStepsOutOfOrder, s.path("from"), fromValue)
            }
            let kmhValue = try required(s, "kmh")
            guard case .number(let literal) = kmhValue.kind, let kmh = Double(literal) else {
                throw fail(.wrongType(expected: .number), s.path("kmh"), kmhValue)
            }
            if kmh < 0 { throw fail(.negativeSpeed, s.path("kmh"), kmhValue) }
            // Zero as written (`0`, `0.0`); a tiny speed that reads as 0 is below the minimum.
            if kmh == 0 && !literal.utf8.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
                throw fail(.notPositive, s.path("kmh"), kmhValue)
            }
            if !Limits.kmh.contains(kmh) { throw fail(.outOfRange(describe(Limits.kmh)), s.path("kmh"), kmhValue) }
            steps.append(SpeedProfile.Step(from: from, speed: kmh / 3.6))
        }
        if steps.isEmpty { throw fail(.speedStepsOutOfOrder, speedsPath, speedsValue) }
        var drive = Scenario.Drive(profile: SpeedProfile(steps: steps))
        if let v = fields.optional("start") { drive.start = try seconds(v, fields.path("start"), .time) }
        if let v = fields.optional("accel") { drive.profile.accel = try positive(v, fields.path("accel"), Limits.acceleration) }
        if let v = fields.optional("decel") { drive.profile.decel = try positive(v, fields.path("decel"), Limits.acceleration) }
        if let v = fields.optional("detours") {
            let dPath = fields.path("detours")
            for (i, item) in try array(v, dPath).enumerated() {
                let d = try object(item, Decoding.join(dPath, i), allowed: ScenarioKeys.detour)
                let offset = try number(try required(d, "offset"), d.path("offset"), -10_000...10_000)
                drive.detours.append(Scenario.Detour(window: try window(d), offset: offset))
            }
        }
        if let v = fields.optional("stops") {
            let sPath = fields.path("stops")
            for (i, item) in try array(v, sPath).enumerated() {
                let d = try object(item, Decoding.join(sPath, i), allowed: ScenarioKeys.stop)
                let atValue = try required(d, "at")
                let at = try number(atValue, d.path("at"), 0...Route.maxLength)
                if let last = drive.profile.stops.last, at < last.at + Limits.stepSpacing {
                    throw fail(.speedStepsOutOfOrder, d.path("at"), atValue)
                }
                let dwell = try seconds(try required(d, "dwell"), d.path("dwell"), .duration)
                drive.profile.stops.append(SpeedProfile.Stop(at: at, dwell: dwell))
            }
        }
        return drive
    }

    /// A number above zero and at most `limit`.
    func positive(_ value: JSONValue, _ path: String, _ limit: Double) throws(ScenarioError) -> Double {
        let x = try number(value, path, 0...limit)
        if x == 0 { throw fail(.notPositive, path, value) }
        return x
    }

    /// A number above zero within `range` (its lower bound above zero).
    func positive(_ value: JSONValue, _ path: String, _ range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        let x = try number(value, path, 0...range.upperBound)
        if x == 0 { throw fail(.notPositive, path, value) }
        if x < range.lowerBound { throw fail(.outOfRange(describe(range)), path, value) }
        return x
    }

    func fixes(_ value: JSONValue, _ path: String) throws(ScenarioError) -> Scenario.Fixes {
        guard case .object(let members) = value.kind else { throw fail(.wrongType(expected: .object), path, value) }
        if members.contains(where: { $0.key == "recorded" }) {
            let fields = try object(value, path, allowed: ScenarioKeys.recordedFixes)
            return .recorded(try recorded(try required(fields, "recorded"), fields.path("recorded")))
        }
        let fields = try object(value, path, allowed: ScenarioKeys.generatedFixes + ScenarioKeys.recordedFixes)
        var g = FixGenerator()
        if let v = fields.optional("every") {
            g.every = try seconds(v, fields.path("every"), .duration, positive: true)
            if g.every.ms < Limits.everyMs {
                throw fail(.outOfRange("\(Seconds.literal(milliseconds: Limits.everyMs))...\(ScenarioDecoder.maxDurationSeconds)"), fields.path("every"), v)
            }
        }
        if let v = fields.optional("accuracy") { g.accuracy = try number(v, fields.path("accuracy"), 0...10_000) }
        if let v = fields.optional("noise") { g.noise = try number(v, fields.path("noise"), 0...10_000) }
        if let v = fields.optional("seed") {
            let n = try integer(v, fields.path("seed"))
            if n < 0 { throw fail(.negative, fields.path("seed"), v) }
            g.seed = UInt64(n)
        }
        if let v = fields.optional("delay") { g.delay = try seconds(v, fields.path("delay"), .duration) }
        if let v = fields.optional("jitter") { g.jitter = try seconds(v, fields.path("jitter"), .duration) }
        if let v = fields.optional("dropPercent") {
            let n = try integer(v, fields.path("dropPercent"))
            if n < 0 { throw fail(.negative, fields.path("dropPercent"), v) }
            if n > 100 { throw fail(.outOfRange("0...100"), fields.path("dropPercent"), v) }
            g.dropPercent = Int(n)
        }
        if let v = fields.optional("gaps") { g.gaps = try windows(v, fields.path("gaps")) }
        if let v = fields.optional("late") {
            let lPath = fields.path("late")
            for (i, item) in try array(v, lPath).enumerated() {
                let l = try object(item, Decoding.join(lPath, i), allowed: ScenarioKeys.late)
                g.late.append((try window(l), try seconds(try required(l, "delay"), l.path("delay"), .duration)))
            }
        }
        if let v = fields.optional("correlation") { g.correlation = try seconds(v, fields.path("correlation"), .duration, positive: true) }
        if let v = fields.optional("stretches") {
            let sPath = fields.path("stretches")
            for (i, item) in try array(v, sPath).enumerated() {
                let st = try object(item, Decoding.join(sPath, i), allowed: ScenarioKeys.fixStretch)
                let from = try number(try required(st, "from"), st.path("from"), 0...Route.maxLength)
                let toValue = try required(st, "to")
                let to = try number(toValue, st.path("to"), 0...Route.maxLength)
                if to <= from { throw fail(.emptyWindow, st.path("to"), toValue) }
                let accuracy = try number(try required(st, "accuracy"), st.path("accuracy"), 0...10_000)
                let noise = try number(try required(st, "noise"), st.path("noise"), 0...10_000)
                g.stretches.append(FixGenerator.Stretch(from: from, to: to, accuracy: accuracy, noise: noise))
            }
        }
        if let v = fields.optional("accuracySpread") {
            let n = try integer(v, fields.path("accuracySpread"))
            if n < 0 || n > 90 { throw fail(.outOfRange("0...90"), fields.path("accuracySpread"), v) }
            g.accuracySpread = Int(n)
        }
        if let v = fields.optional("jumps") {
            let jPath = fields.path("jumps")
            for (i, item) in try array(v, jPath).enumerated() {
                let j = try object(item, Decoding.join(jPath, i), allowed: ScenarioKeys.jump)
                var jump = FixGenerator.Jump(at: try seconds(try required(j, "at"), j.path("at"), .time), along: 0, across: 0)
                if let a = j.optional("along") { jump.along = try number(a, j.path("along"), -10_000...10_000) }
                if let a = j.optional("across") { jump.across = try number(a, j.path("across"), -10_000...10_000) }
                g.jumps.append(jump)
            }
        }
        if let v = fields.optional("jumpPercent") {
            let n = try integer(v, fields.path("jumpPercent"))
            if n < 0 || n > 100 { throw fail(.outOfRange("0...100"), fields.path("jumpPercent"), v) }
            g.jumpPercent = Int(n)
        }
        if let v = fields.optional("jumpMeters") { g.jumpMeters = try number(v, fields.path("jumpMeters"), 0...10_000) }
        return .generated(g)
    }

    func recorded(_ value: JSONValue, _ path: String) throws(ScenarioError) -> [Scenario.RecordedFix] {
        var out: [Scenario.RecordedFix] = []
        for (i, item) in try array(value, path).enumerated() {
            let f = try object(item, Decoding.join(path, i), allowed: ScenarioKeys.recordedFix)
            let atValue = try required(f, "at")
            let at = try seconds(atValue, f.path("at"), .time)
            if let previous = out.last, at < previous.taken { throw fail(.fixTimeBackwards, f.path("at"), atValue) }
            var fix = Scenario.RecordedFix(taken: at, arrives: at, point: try point(f))
            if let v = f.optional("arrives") {
                fix.arrives = try seconds(v, f.path("arrives"), .time)
                if fix.arrives < at { throw fail(.arrivesBeforeTaken, f.path("arrives"), v) }
            }
            if let v = f.optional("accuracy") { fix.accuracy = try number(v, f.path("accuracy"), 0...100_000) }
            if let v = f.optional("speed") { fix.speed = try number(v, f.path("speed"), 0...150) }
            if let v = f.optional("course") {
                let c = try number(v, f.path("course"), 0...360)
                if c == 360 { throw fail(.outOfRange("0...<360"), f.path("course"), v) }
                fix.course = c
            }
            if let v = f.optional("true") { fix.truth = try point(object(v, f.path("true"), allowed: ScenarioKeys.point)) }
            out.append(fix)
        }
        return out
    }

    func link(_ value: JSONValue, _ path: String) throws(ScenarioError) -> LocationLink {
        let fields = try object(value, path, allowed: ScenarioKeys.link)
        var link = LocationLink()
        if let v = fields.optional("latency") { link.latency = try seconds(v, fields.path("latency"), .duration) }
        if let v = fields.optional("freshness") { link.freshness = try seconds(v, fields.path("freshness"), .duration) }
        if let v = fields.optional("outages") { link.outages = try windows(v, fields.path("outages")) }
        return link
    }

    func follow(_ value: JSONValue, _ path: String) throws(ScenarioError) -> RouteFollower.Settings {
        let fields = try object(value, path, allowed: ScenarioKeys.follow)
        var s = RouteFollower.Settings()
        if let v = fields.optional("accuracyLimit") { s.accuracyLimit = try positive(v, fields.path("accuracyLimit"), 100_000) }
        if let v = fields.optional("offRouteEnter") { s.offRouteEnter = try positive(v, fields.path("offRouteEnter"), 10_000) }
        if let v = fields.optional("offRouteExit") { s.offRouteExit = try positive(v, fields.path("offRouteExit"), 10_000) }
        if let v = fields.optional("offRouteCount") {
            let n = try integer(v, fields.path("offRouteCount"))
            if n < 1 || n > 100 { throw fail(.outOfRange("1...100"), fields.path("offRouteCount"), v) }
            s.offRouteCount = Int(n)
        }
        if let v = fields.optional("plausibleSpeed") { s.plausibleSpeed = try positive(v, fields.path("plausibleSpeed"), 1...150) }
        if let v = fields.optional("plausibleAccel") { s.plausibleAccel = try positive(v, fields.path("plausibleAccel"), 0.5...20) }
        if let v = fields.optional("implausibleCount") {
            let n = try integer(v, fields.path("implausibleCount"))
            if n < 0 || n > 100 { throw fail(.outOfRange("0...100"), fields.path("implausibleCount"), v) }
            s.implausibleCount = Int(n)
        }
        if let v = fields.optional("stoppedSpeed") { s.stoppedSpeed = try number(v, fields.path("stoppedSpeed"), 0...5) }
        if s.offRouteExit > s.offRouteEnter, let v = fields.optional("offRouteExit") {
            throw fail(.outOfRange("0...offRouteEnter (\(Int(s.offRouteEnter)))"), fields.path("offRouteExit"), v)
        }
        return s
    }

    func guidance(_ value: JSONValue, _ path: String, into road: inout Scenario.Road) throws(ScenarioError) {
        let fields = try object(value, path, allowed: ScenarioKeys.guidance)
        func lead(_ key: String, _ base: StageLead) throws(ScenarioError) -> StageLead {
            guard let v = fields.optional(key) else { return base }
            let l = try object(v, fields.path(key), allowed: ScenarioKeys.lead)
            var out = base
            if let s = l.optional("seconds") { out.seconds = try number(s, l.path("seconds"), 0...600) }
            if let g = l.optional("growth") { out.growth = try number(g, l.path("growth"), 0...60) }
            if let m = l.optional("minimum") { out.minimum = try number(m, l.path("minimum"), 0...100_000) }
            return out
        }
        var g = road.guidance
        g.far = try lead("far", g.far)
        g.near = try lead("near", g.near)
        g.now = try lead("now", g.now)
        if let v = fields.optional("thenWithin") { g.thenWithin = try number(v, fields.path("thenWithin"), 0...10_000) }
        if let v = fields.optional("thenSeconds") { g.thenSeconds = try number(v, fields.path("thenSeconds"), 0...600) }
        if let v = fields.optional("margin") { g.margin = try seconds(v, fields.path("margin"), .duration) }
        if let v = fields.optional("outputLatency") {
            g.outputLatency = try seconds(v, fields.path("outputLatency"), .duration)
            if g.outputLatency.ms > Limits.outputLatencyMs { throw fail(.outOfRange("0...10"), fields.path("outputLatency"), v) }
        }
        if let v = fields.optional("horizon") {
            road.horizon = try seconds(v, fields.path("horizon"), .duration)
            if road.horizon.ms > Limits.horizonMs { throw fail(.outOfRange("0...600"), fields.path("horizon"), v) }
        }
        if let v = fields.optional("rates") {
            let r = try object(v, fields.path("rates"), allowed: ScenarioKeys.rates)
            if let en = r.optional("en") { g.rates.englishWordsPerSecond = try positive(en, r.path("en"), Limits.rate) }
            if let ko = r.optional("ko") { g.rates.koreanSyllablesPerSecond = try positive(ko, r.path("ko"), Limits.rate) }
        }
        road.guidance = g
    }
}
