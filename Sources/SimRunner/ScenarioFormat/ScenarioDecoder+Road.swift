import Guidance
import Road
import SimClock
import SimRunner

/// The `road` section (docs/scenario-format.md), read for its shape as
/// strictly as the core: every key checked, every type, every literal. Its
/// values are judged in one place, `RoadSetup.validate()` (its limits are
/// `RoadSetup.Limits`), whose problems `ScenarioDecoder` places in the file
/// by their path (`Decoding.error(for:in:)`).
extension Decoding {
    /// The literal as a `Double`: nil if it is not a number. A nonzero
    /// literal too close to zero for a normal `Double` (`1e-400`, `1e-320`) is
    /// refused as `underflow`, never read as 0 or with lost precision; one too
    /// large (`1e400`) is infinite, which no range holds.
    func double(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> Double? {
        if let x = value.withNumber(Decoding.exactDouble) ?? nil, x != 0 { return x }
        guard let literal = value.number, let x = Double(literal) else { return nil }
        if x == 0 || x.isSubnormal {
            let mantissa = literal.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            if mantissa.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
                throw fail(.underflow, path(), value)
            }
        }
        return x
    }

    /// The value of a number literal without an exponent and with at most
    /// 19 digits, correctly rounded (the double `Double(String)` gives), so
    /// a coordinate is read in place. Digits that, read as an integer, are
    /// at most 2⁵³ with at most 22 after the point: that integer and the
    /// power of ten are exact doubles, so one division is the correctly
    /// rounded value (Clinger's fast path). More digits (a coordinate's
    /// 17) with at most 19 after the point: `roundedQuotient`. Nil for any
    /// other literal (the caller reads it as `Double(String)`).
    static func exactDouble(_ literal: UnsafeBufferPointer<UInt8>) -> Double? {
        guard var p = literal.baseAddress, !literal.isEmpty else { return nil }
        let end = p + literal.count
        let negative = p.pointee == UInt8(ascii: "-")
        if negative { p += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var point: UnsafePointer<UInt8>? = nil
        // The tape has checked the grammar: digits, at most one point, or an exponent (refused here).
        while p < end {
            let digit = p.pointee &- UInt8(ascii: "0")
            if digit < 10 {
                guard digits < 19 else { return nil }  // 19 digits always fit a UInt64
                mantissa = mantissa &* 10 &+ UInt64(digit)
                digits += 1
            } else if p.pointee == UInt8(ascii: "."), point == nil {
                point = p
            } else {
                return nil  // an exponent
            }
            p += 1
        }
        let scale = point.map { end - $0 - 1 } ?? 0
        let x: Double
        if mantissa <= 1 << 53, scale < Decoding.powersOfTen.count {
            x = Double(mantissa) / Decoding.powersOfTen[scale]
        } else if let quotient = roundedQuotient(mantissa, tenTo: scale) {
            x = quotient
        } else {
            return nil
        }
        return negative ? -x : x
    }

    /// `w ÷ 10^scale` correctly rounded (to nearest, ties to even), for
    /// `scale` at most 19 (so 10^scale is a `UInt64`): the 54-bit quotient
    /// of `w · 2^k ÷ 10^scale` and its remainder, in 128-bit integer
    /// arithmetic, give the 53-bit significand, the rounding bit and
    /// whether anything lies beyond it. Nil if `w` is 0 or the quotient
    /// would need `w` shifted right (`w ÷ 10^scale` of 2⁵⁴ or more).
    static func roundedQuotient(_ w: UInt64, tenTo scale: Int) -> Double? {
        guard w > 0, scale >= 0, scale < Decoding.integerPowersOfTen.count else { return nil }
        let d = Decoding.integerPowersOfTen[scale]
        // 2^(k + bits(w) - bits(d) ± 1) brackets the quotient: start at 2^54 and step down or up.
        var k = 54 - (d.leadingZeroBitCount - w.leadingZeroBitCount)
        for _ in 0..<3 {
            guard k >= 0, k < 64 else { return nil }
            let high = k == 0 ? 0 : w >> (64 - k)
            let low = w << k
            guard high < d else { return nil }  // the quotient would not fit 64 bits
            let (q, r) = d.dividingFullWidth((high: high, low: low))
            if q >= 1 << 54 {
                k -= 1
                continue
            }
            if q < 1 << 53 {
                k += 1
                continue
            }
            var significand = q >> 1
            if q & 1 == 1, r != 0 || significand & 1 == 1 { significand += 1 }
            return Double(sign: .plus, exponent: 1 - k, significand: Double(significand))
        }
        return nil
    }

    /// 10⁰ through 10¹⁹, every `UInt64` power of ten.
    static let integerPowersOfTen: [UInt64] = (0...19).map { k in (0..<k).reduce(1) { value, _ in value * 10 } }

    /// 10⁰ through 10²², every one an exact double.
    static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { value, _ in value * 10 } }

    /// A number, however large (`1e400` is infinite, which `validate()` finds in no range).
    func number(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> Double {
        guard let x = try double(value, path()) else { throw fail(.wrongType(expected: .number), path(), value) }
        return x
    }

    func point(_ fields: Fields) throws(ScenarioError) -> GeoPoint {
        let latValue = try required(fields, "lat")
        let lonValue = try required(fields, "lon")
        guard latValue.isNumber, lonValue.isNumber else {
            if latValue.isNumber { throw fail(.wrongType(expected: .number), fields.path("lon"), lonValue) }
            throw fail(.wrongType(expected: .number), fields.path("lat"), latValue)
        }
        // A number, however large (`1e400`), is out of range, not "not a number".
        return GeoPoint(
            latitude: try number(latValue, fields.path("lat")), longitude: try number(lonValue, fields.path("lon")))
    }

    func windows(_ value: JSONNode, _ path: String) throws(ScenarioError) -> [SimInterval] {
        var out: [SimInterval] = []
        for (i, item) in try array(value, path).enumerated() {
            out.append(try window(object(item, Location(base: path, index: i), allowed: ScenarioKeys.window)))
        }
        return out
    }

    /// A window `[from, to)`: a `SimInterval`, so its `to` must be after its
    /// `from` to be one at all (in `validate()`'s words for an empty window).
    func window(_ fields: Fields) throws(ScenarioError) -> SimInterval {
        let from = try seconds(try required(fields, "from"), fields.path("from"), .time)
        let toValue = try required(fields, "to")
        let to = try seconds(toValue, fields.path("to"), .time)
        guard to > from else { throw fail(.invalid(.road(.emptyWindow)), fields.path("to"), toValue) }
        return SimInterval(from, to)
    }

    mutating func road(_ value: JSONNode, _ path: String) throws(ScenarioError) -> Scenario.Road {
        let fields = try object(value, path, allowed: ScenarioKeys.road)
        let language = try language(try required(fields, "language"), fields.path("language"))
        let (points, maneuvers) = try route(try required(fields, "route"), fields.path("route"))
        var road = Scenario.Road(language: language, points: points, maneuvers: maneuvers)
        if let v = fields.optional("drive") { road.drive = try drive(v, fields.path("drive")) }
        if let v = fields.optional("fixes") { road.fixes = try fixes(v, fields.path("fixes")) }
        if let v = fields.optional("link") { road.link = try link(v, fields.path("link")) }
        if let v = fields.optional("app") {
            let app = try object(v, fields.path("app"), allowed: ScenarioKeys.app)
            if let b = app.optional("background") { road.background = try windows(b, app.path("background")) }
            if let s = app.optional("segments") { road.segments = try windows(s, app.path("segments")) }
        }
        if let v = fields.optional("follow") { road.follow = try follow(v, fields.path("follow")) }
        if let v = fields.optional("guidance") { try guidance(v, fields.path("guidance"), into: &road) }
        if let v = fields.optional("maps") {
            let maps = try object(v, fields.path("maps"), allowed: ScenarioKeys.maps)
            if let t = maps.optional("latency") { road.maps.latency = try seconds(t, maps.path("latency"), .duration) }
            if let t = maps.optional("timeout") { road.maps.timeout = try seconds(t, maps.path("timeout"), .duration) }
            if let t = maps.optional("retry") { road.maps.retry = try seconds(t, maps.path("retry"), .duration) }
        }
        if let v = fields.optional("places") {
            let path = fields.path("places")
            for (i, item) in try array(v, path).enumerated() {
                let place = try object(item, Location(base: path, index: i), allowed: ScenarioKeys.place)
                road.places.append(
                    Scenario.Road.Place(
                        name: try string(try required(place, "name"), place.path("name")), point: try point(place)))
            }
        }
        if let v = fields.optional("changes") {
            let path = fields.path("changes")
            for (i, item) in try array(v, path).enumerated() {
                road.changes.append(try change(item, Location(base: path, index: i)))
            }
        }
        return road
    }

    /// One route change, `road.changes[]`: its road as a route is given, and a handoff if Pippa sent one.
    mutating func change(_ value: JSONNode, _ location: Location) throws(ScenarioError) -> Scenario.Road.RouteChange {
        let fields = try object(value, location, allowed: ScenarioKeys.change)
        let id = try nonEmptyString(try required(fields, "id"), fields.path("id"))
        let (points, maneuvers) = try route(value, location, keys: ScenarioKeys.change)
        var change = Scenario.Road.RouteChange(id: id, points: points, maneuvers: maneuvers)
        if let v = fields.optional("refusals") {
            change.refusals = Int(clamping: try integer(v, fields.path("refusals")))  // its range is `validate()`'s
        }
        if let v = fields.optional("handoff") {
            let h = try object(v, fields.path("handoff"), allowed: ScenarioKeys.handoff)
            let sentValue = try required(h, "sent")
            let sentPath = h.path("sent")
            var sent: [Scenario.Road.Sending] = []
            for (i, t) in try array(sentValue, sentPath).enumerated() {
                let location = Location(base: sentPath, index: i)
                if t.isNumber {
                    sent.append(.at(try seconds(t, location.path, .time)))
                } else if t.isObject {
                    let after = try object(t, location, allowed: ScenarioKeys.sending)
                    sent.append(.after(try nonEmptyString(try required(after, "after"), after.path("after"))))
                } else {
                    throw fail(.wrongType(expected: .sending), location.path, t)
                }
            }
            var handoff = Scenario.Road.Handoff(sent: sent)
            if let p = h.optional("place") { handoff.place = try string(p, h.path("place")) }
            if let d = h.optional("destination") { handoff.destination = try string(d, h.path("destination")) }
            change.handoff = handoff
        }
        return change
    }

    /// The route's points and its maneuvers (placed on it by `validate()`).
    mutating func route(_ value: JSONNode, _ path: String) throws(ScenarioError) -> (
        [GeoPoint], [Scenario.ManeuverSpec]
    ) {
        try route(value, Location(base: path, index: nil), keys: ScenarioKeys.route)
    }

    /// The points and maneuvers of an object with `keys` (a route, a change).
    mutating func route(_ value: JSONNode, _ location: Location, keys: KeyList) throws(ScenarioError) -> (
        [GeoPoint], [Scenario.ManeuverSpec]
    ) {
        let fields = try object(value, location, allowed: keys)
        let pointsValue = try required(fields, "points")
        let pointsPath = fields.path("points")
        var points: [GeoPoint] = []
        for (i, item) in try array(pointsValue, pointsPath).enumerated() {
            points.append(try point(object(item, Location(base: pointsPath, index: i), allowed: ScenarioKeys.point)))
        }
        var specs: [Scenario.ManeuverSpec] = []
        if let v = fields.optional("maneuvers") {
            let mPath = fields.path("maneuvers")
            for (i, item) in try array(v, mPath).enumerated() {
                specs.append(
                    try maneuver(try object(item, Location(base: mPath, index: i), allowed: ScenarioKeys.maneuver)))
            }
        }
        return (points, specs)
    }

    /// Every turn, in `Turn`'s order.
    static let turnCases = Turn.allCases
    /// Every turn's name, in `Turn`'s order (the allowed values of `turn`).
    static let turns = turnCases.map(\.rawValue)
    /// The kinds said before they are reached: every one but an arrival's and a waypoint's.
    static let notArrival = turnCases.filter { !$0.saidOnReaching }

    /// One maneuver; each kind takes only its own keys (docs/scenario-format.md).
    mutating func maneuver(_ m: Fields) throws(ScenarioError) -> Scenario.ManeuverSpec {
        let id = try id(m)
        let at = try point(m)
        let turn = Decoding.turnCases[try position(try required(m, "turn"), m.path("turn"), Decoding.turns)]
        /// The value of `key`, refused unless `turn` is one of `kinds`.
        func only(_ key: StaticString, _ kinds: [Turn]) throws(ScenarioError) -> JSONNode? {
            guard let v = m.optional(key) else { return nil }
            if !kinds.contains(turn) {
                throw fail(
                    .keyNotForTurn(key.description, turn: turn.rawValue, only: kinds.map(\.rawValue)),
                    m.path(key.description), v)
            }
            return v
        }
        var spec = Scenario.ManeuverSpec(id: id, point: at, turn: turn)
        // Most maneuvers have only the four keys they must have (id, lat, lon and turn): then no other is looked up.
        guard m.members.count > 4 else { return spec }
        if let s = try only("street", Decoding.notArrival) { spec.street = try string(s, m.path("street")) }
        if let s = try only("toward", Decoding.notArrival) { spec.details.toward = try string(s, m.path("toward")) }
        if let v = try only("exit", [.roundabout]) { spec.details.exit = Int(clamping: try integer(v, m.path("exit"))) }
        if let v = try only("ref", [.offRamp]) { spec.details.exitNumber = try string(v, m.path("ref")) }
        if let v = try only("name", [.offRamp, .onRamp, .roundabout]) {
            spec.details.exitName = try string(v, m.path("name"))
        }
        if let v = try only("side", [.arrive, .offRamp, .onRamp]) {
            // A ramp leaves on the left or the right; only a destination is ahead.
            let sides = turn == .arrive ? ArrivalSide.allCases : [.left, .right]
            spec.details.side = ArrivalSide(rawValue: try oneOf(v, m.path("side"), sides.map(\.rawValue)))
        }
        if let v = try only("uTurn", [.waypoint]) { spec.details.uTurn = try bool(v, m.path("uTurn")) }
        return spec
    }

    func drive(_ value: JSONNode, _ path: String) throws(ScenarioError) -> Scenario.Drive {
        let fields = try object(value, path, allowed: ScenarioKeys.drive)
        let speedsValue = try required(fields, "speeds")
        let speedsPath = fields.path("speeds")
        var steps: [SpeedProfile.Step] = []
        for (i, item) in try array(speedsValue, speedsPath).enumerated() {
            let s = try object(item, Location(base: speedsPath, index: i), allowed: ScenarioKeys.speed)
            let from = try number(try required(s, "from"), s.path("from"))
            steps.append(SpeedProfile.Step(from: from, speed: try number(try required(s, "kmh"), s.path("kmh")) / 3.6))
        }
        var drive = Scenario.Drive(profile: SpeedProfile(steps: steps))
        if let v = fields.optional("start") { drive.start = try seconds(v, fields.path("start"), .time) }
        if let v = fields.optional("accel") { drive.profile.accel = try number(v, fields.path("accel")) }
        if let v = fields.optional("decel") { drive.profile.decel = try number(v, fields.path("decel")) }
        if let v = fields.optional("detours") {
            let dPath = fields.path("detours")
            for (i, item) in try array(v, dPath).enumerated() {
                let d = try object(item, Location(base: dPath, index: i), allowed: ScenarioKeys.detour)
                let offset = try number(try required(d, "offset"), d.path("offset"))
                drive.detours.append(Scenario.Detour(window: try window(d), offset: offset))
            }
        }
        if let v = fields.optional("stops") {
            let sPath = fields.path("stops")
            for (i, item) in try array(v, sPath).enumerated() {
                let d = try object(item, Location(base: sPath, index: i), allowed: ScenarioKeys.stop)
                let at = try number(try required(d, "at"), d.path("at"))
                let dwell = try seconds(try required(d, "dwell"), d.path("dwell"), .duration)
                drive.profile.stops.append(SpeedProfile.Stop(at: at, dwell: dwell))
            }
        }
        return drive
    }

    func fixes(_ value: JSONNode, _ path: String) throws(ScenarioError) -> Scenario.Fixes {
        guard let members = value.members else { throw fail(.wrongType(expected: .object), path, value) }
        if members.has("recorded") {
            let fields = try object(value, path, allowed: ScenarioKeys.recordedFixes)
            return .recorded(try recorded(try required(fields, "recorded"), fields.path("recorded")))
        }
        let fields = try object(value, path, allowed: ScenarioKeys.generatedFixes + ScenarioKeys.recordedFixes)
        var g = FixGenerator()
        if let v = fields.optional("every") {
            g.every = try seconds(v, fields.path("every"), .duration)
        }
        if let v = fields.optional("accuracy") { g.accuracy = try number(v, fields.path("accuracy")) }
        if let v = fields.optional("noise") { g.noise = try number(v, fields.path("noise")) }
        if let v = fields.optional("seed") {
            // Read as it is written, so that a negative seed is refused, never wrapped.
            let n = try integer(v, fields.path("seed"))
            if n < 0 { throw fail(.invalid(.negative), fields.path("seed"), v) }
            g.seed = UInt64(n)
        }
        if let v = fields.optional("delay") { g.delay = try seconds(v, fields.path("delay"), .duration) }
        if let v = fields.optional("jitter") { g.jitter = try seconds(v, fields.path("jitter"), .duration) }
        if let v = fields.optional("dropPercent") {
            g.dropPercent = Int(clamping: try integer(v, fields.path("dropPercent")))
        }
        if let v = fields.optional("gaps") { g.gaps = try windows(v, fields.path("gaps")) }
        if let v = fields.optional("late") {
            let lPath = fields.path("late")
            for (i, item) in try array(v, lPath).enumerated() {
                let l = try object(item, Location(base: lPath, index: i), allowed: ScenarioKeys.late)
                g.late.append((try window(l), try seconds(try required(l, "delay"), l.path("delay"), .duration)))
            }
        }
        if let v = fields.optional("correlation") {
            g.correlation = try seconds(v, fields.path("correlation"), .duration)
        }
        if let v = fields.optional("stretches") {
            let sPath = fields.path("stretches")
            for (i, item) in try array(v, sPath).enumerated() {
                let st = try object(item, Location(base: sPath, index: i), allowed: ScenarioKeys.fixStretch)
                g.stretches.append(
                    FixGenerator.Stretch(
                        from: try number(try required(st, "from"), st.path("from")),
                        to: try number(try required(st, "to"), st.path("to")),
                        accuracy: try number(try required(st, "accuracy"), st.path("accuracy")),
                        noise: try number(try required(st, "noise"), st.path("noise"))))
            }
        }
        if let v = fields.optional("accuracySpread") {
            g.accuracySpread = Int(clamping: try integer(v, fields.path("accuracySpread")))
        }
        if let v = fields.optional("jumps") {
            let jPath = fields.path("jumps")
            for (i, item) in try array(v, jPath).enumerated() {
                let j = try object(item, Location(base: jPath, index: i), allowed: ScenarioKeys.jump)
                var jump = FixGenerator.Jump(
                    at: try seconds(try required(j, "at"), j.path("at"), .time), along: 0, across: 0)
                if let a = j.optional("along") { jump.along = try number(a, j.path("along")) }
                if let a = j.optional("across") { jump.across = try number(a, j.path("across")) }
                g.jumps.append(jump)
            }
        }
        if let v = fields.optional("jumpPercent") {
            g.jumpPercent = Int(clamping: try integer(v, fields.path("jumpPercent")))
        }
        if let v = fields.optional("jumpMeters") { g.jumpMeters = try number(v, fields.path("jumpMeters")) }
        return .generated(g)
    }

    func recorded(_ value: JSONNode, _ path: String) throws(ScenarioError) -> [Scenario.RecordedFix] {
        var out: [Scenario.RecordedFix] = []
        for (i, item) in try array(value, path).enumerated() {
            let f = try object(item, Location(base: path, index: i), allowed: ScenarioKeys.recordedFix)
            let at = try seconds(try required(f, "at"), f.path("at"), .time)
            var fix = Scenario.RecordedFix(taken: at, arrives: at, point: try point(f))
            if let v = f.optional("arrives") { fix.arrives = try seconds(v, f.path("arrives"), .time) }
            if let v = f.optional("accuracy") { fix.accuracy = try number(v, f.path("accuracy")) }
            if let v = f.optional("speed") { fix.speed = try number(v, f.path("speed")) }
            if let v = f.optional("course") { fix.course = try number(v, f.path("course")) }
            if let v = f.optional("true") {
                fix.truth = try point(object(v, f.path("true"), allowed: ScenarioKeys.point))
            }
            out.append(fix)
        }
        return out
    }

    func link(_ value: JSONNode, _ path: String) throws(ScenarioError) -> LocationLink {
        let fields = try object(value, path, allowed: ScenarioKeys.link)
        var link = LocationLink()
        if let v = fields.optional("latency") { link.latency = try seconds(v, fields.path("latency"), .duration) }
        if let v = fields.optional("freshness") { link.freshness = try seconds(v, fields.path("freshness"), .duration) }
        if let v = fields.optional("outages") { link.outages = try windows(v, fields.path("outages")) }
        return link
    }

    func follow(_ value: JSONNode, _ path: String) throws(ScenarioError) -> RouteFollower.Settings {
        let fields = try object(value, path, allowed: ScenarioKeys.follow)
        var s = RouteFollower.Settings()
        if let v = fields.optional("accuracyLimit") { s.accuracyLimit = try number(v, fields.path("accuracyLimit")) }
        if let v = fields.optional("offRouteEnter") { s.offRouteEnter = try number(v, fields.path("offRouteEnter")) }
        if let v = fields.optional("offRouteExit") { s.offRouteExit = try number(v, fields.path("offRouteExit")) }
        if let v = fields.optional("offRouteCount") {
            s.offRouteCount = Int(clamping: try integer(v, fields.path("offRouteCount")))
        }
        if let v = fields.optional("plausibleSpeed") { s.plausibleSpeed = try number(v, fields.path("plausibleSpeed")) }
        if let v = fields.optional("plausibleAccel") { s.plausibleAccel = try number(v, fields.path("plausibleAccel")) }
        if let v = fields.optional("implausibleCount") {
            s.implausibleCount = Int(clamping: try integer(v, fields.path("implausibleCount")))
        }
        if let v = fields.optional("stoppedSpeed") { s.stoppedSpeed = try number(v, fields.path("stoppedSpeed")) }
        return s
    }

    func guidance(_ value: JSONNode, _ path: String, into road: inout Scenario.Road) throws(ScenarioError) {
        let fields = try object(value, path, allowed: ScenarioKeys.guidance)
        func lead(_ key: StaticString, _ base: StageLead) throws(ScenarioError) -> StageLead {
            guard let v = fields.optional(key) else { return base }
            let l = try object(v, fields.path(key.description), allowed: ScenarioKeys.lead)
            var out = base
            if let s = l.optional("seconds") { out.seconds = try number(s, l.path("seconds")) }
            if let g = l.optional("growth") { out.growth = try number(g, l.path("growth")) }
            if let m = l.optional("minimum") { out.minimum = try number(m, l.path("minimum")) }
            return out
        }
        var g = road.guidance
        g.far = try lead("far", g.far)
        g.near = try lead("near", g.near)
        g.now = try lead("now", g.now)
        if let v = fields.optional("thenWithin") { g.thenWithin = try number(v, fields.path("thenWithin")) }
        if let v = fields.optional("thenSeconds") { g.thenSeconds = try number(v, fields.path("thenSeconds")) }
        if let v = fields.optional("margin") { g.margin = try seconds(v, fields.path("margin"), .duration) }
        if let v = fields.optional("outputLatency") {
            g.outputLatency = try seconds(v, fields.path("outputLatency"), .duration)
        }
        if let v = fields.optional("horizon") { road.horizon = try seconds(v, fields.path("horizon"), .duration) }
        if let v = fields.optional("units") {
            // Korean is always spoken in metric units.
            let units = road.language == .ko ? [Units.metric] : Units.allCases
            g.units = Units(rawValue: try oneOf(v, fields.path("units"), units.map(\.rawValue))) ?? .metric
        }
        if let v = fields.optional("rates") {
            let r = try object(v, fields.path("rates"), allowed: ScenarioKeys.rates)
            if let en = r.optional("en") { g.rates.englishWordsPerSecond = try number(en, r.path("en")) }
            if let ko = r.optional("ko") { g.rates.koreanSyllablesPerSecond = try number(ko, r.path("ko")) }
        }
        road.guidance = g
    }
}
