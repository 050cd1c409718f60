import Guidance
import Road
import SimClock
import SimRunner

/// The road section in canonical JSON; settings equal to their defaults are left out.
extension ScenarioEncoder {
    /// A number as its shortest round-tripping literal.
    static func number(_ x: Double) -> JSONValue {
        x == x.rounded() && abs(x) < 1e15 ? .integer(Int64(x)) : .number(String(x))
    }

    static func point(_ p: GeoPoint) -> [(key: String, value: JSONValue)] {
        [("lat", number(p.latitude)), ("lon", number(p.longitude))]
    }

    static func window(_ w: SimInterval) -> [(key: String, value: JSONValue)] {
        [("from", seconds(w.start)), ("to", seconds(w.end))]
    }

    static func road(_ r: Scenario.Road) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("language", .string(r.language.rawValue))]
        var route: [(key: String, value: JSONValue)] = [("points", .array(r.points.map { .object(point($0)) }))]
        if !r.maneuvers.isEmpty { route.append(("maneuvers", maneuvers(r.maneuvers))) }
        members.append(("route", .object(route)))
        if let d = r.drive {
            var drive: [(key: String, value: JSONValue)] = [
                (
                    "speeds",
                    .array(
                        d.profile.steps.map {
                            .object([
                                ("from", number($0.from)), ("kmh", number(($0.speed * 3.6 * 1e9).rounded() / 1e9)),
                            ])
                        })
                )
            ]
            if d.start != .zero { drive.append(("start", seconds(d.start))) }
            if d.profile.accel != 2.0 { drive.append(("accel", number(d.profile.accel))) }
            if d.profile.decel != 3.0 { drive.append(("decel", number(d.profile.decel))) }
            if !d.detours.isEmpty {
                drive.append(
                    ("detours", .array(d.detours.map { .object(window($0.window) + [("offset", number($0.offset))]) })))
            }
            if !d.profile.stops.isEmpty {
                drive.append(
                    (
                        "stops",
                        .array(d.profile.stops.map { .object([("at", number($0.at)), ("dwell", seconds($0.dwell))]) })
                    ))
            }
            members.append(("drive", .object(drive)))
        }
        switch r.fixes {
        case .recorded(let list):
            members.append(
                (
                    "fixes",
                    .object([
                        (
                            "recorded",
                            .array(
                                list.map { f in
                                    var fields: [(key: String, value: JSONValue)] = [("at", seconds(f.taken))]
                                    if f.arrives != f.taken { fields.append(("arrives", seconds(f.arrives))) }
                                    fields += point(f.point)
                                    if f.accuracy != 5 { fields.append(("accuracy", number(f.accuracy))) }
                                    if let s = f.speed { fields.append(("speed", number(s))) }
                                    if let c = f.course { fields.append(("course", number(c))) }
                                    if let p = f.truth { fields.append(("true", .object(point(p)))) }
                                    return .object(fields)
                                })
                        )
                    ])
                ))
        case .generated(let g):
            let base = FixGenerator()
            var fixes: [(key: String, value: JSONValue)] = []
            if g.every != base.every { fixes.append(("every", seconds(g.every))) }
            if g.accuracy != base.accuracy { fixes.append(("accuracy", number(g.accuracy))) }
            if g.noise != base.noise { fixes.append(("noise", number(g.noise))) }
            if g.seed != base.seed { fixes.append(("seed", .integer(g.seed))) }
            if g.delay != base.delay { fixes.append(("delay", seconds(g.delay))) }
            if g.jitter != base.jitter { fixes.append(("jitter", seconds(g.jitter))) }
            if g.dropPercent != base.dropPercent { fixes.append(("dropPercent", .integer(g.dropPercent))) }
            if !g.gaps.isEmpty { fixes.append(("gaps", .array(g.gaps.map { .object(window($0)) }))) }
            if !g.late.isEmpty {
                fixes.append(
                    ("late", .array(g.late.map { .object(window($0.window) + [("delay", seconds($0.delay))]) })))
            }
            if let c = g.correlation { fixes.append(("correlation", seconds(c))) }
            if !g.stretches.isEmpty {
                fixes.append(
                    (
                        "stretches",
                        .array(
                            g.stretches.map {
                                .object([
                                    ("from", number($0.from)), ("to", number($0.to)), ("accuracy", number($0.accuracy)),
                                    ("noise", number($0.noise)),
                                ])
                            })
                    ))
            }
            if g.accuracySpread != base.accuracySpread { fixes.append(("accuracySpread", .integer(g.accuracySpread))) }
            if !g.jumps.isEmpty {
                fixes.append(
                    (
                        "jumps",
                        .array(
                            g.jumps.map {
                                .object([
                                    ("at", seconds($0.at)), ("along", number($0.along)), ("across", number($0.across)),
                                ])
                            })
                    ))
            }
            if g.jumpPercent != base.jumpPercent { fixes.append(("jumpPercent", .integer(g.jumpPercent))) }
            if g.jumpMeters != base.jumpMeters { fixes.append(("jumpMeters", number(g.jumpMeters))) }
            if !fixes.isEmpty { members.append(("fixes", .object(fixes))) }
        }
        let link = LocationLink()
        var l: [(key: String, value: JSONValue)] = []
        if r.link.latency != link.latency { l.append(("latency", seconds(r.link.latency))) }
        if r.link.freshness != link.freshness { l.append(("freshness", seconds(r.link.freshness))) }
        if !r.link.outages.isEmpty { l.append(("outages", .array(r.link.outages.map { .object(window($0)) }))) }
        if !l.isEmpty { members.append(("link", .object(l))) }
        var app: [(key: String, value: JSONValue)] = []
        if !r.background.isEmpty { app.append(("background", .array(r.background.map { .object(window($0)) }))) }
        if let s = r.segments { app.append(("segments", .array(s.map { .object(window($0)) }))) }
        if !app.isEmpty { members.append(("app", .object(app))) }
        let f = RouteFollower.Settings()
        var follow: [(key: String, value: JSONValue)] = []
        if r.follow.accuracyLimit != f.accuracyLimit {
            follow.append(("accuracyLimit", number(r.follow.accuracyLimit)))
        }
        if r.follow.offRouteEnter != f.offRouteEnter {
            follow.append(("offRouteEnter", number(r.follow.offRouteEnter)))
        }
        if r.follow.offRouteExit != f.offRouteExit { follow.append(("offRouteExit", number(r.follow.offRouteExit))) }
        if r.follow.offRouteCount != f.offRouteCount {
            follow.append(("offRouteCount", .integer(r.follow.offRouteCount)))
        }
        if r.follow.plausibleSpeed != f.plausibleSpeed {
            follow.append(("plausibleSpeed", number(r.follow.plausibleSpeed)))
        }
        if r.follow.plausibleAccel != f.plausibleAccel {
            follow.append(("plausibleAccel", number(r.follow.plausibleAccel)))
        }
        if r.follow.implausibleCount != f.implausibleCount {
            follow.append(("implausibleCount", .integer(r.follow.implausibleCount)))
        }
        if r.follow.stoppedSpeed != f.stoppedSpeed { follow.append(("stoppedSpeed", number(r.follow.stoppedSpeed))) }
        if !follow.isEmpty { members.append(("follow", .object(follow))) }
        let g = GuidanceSettings(language: r.language)
        var guidance: [(key: String, value: JSONValue)] = []
        for (key, lead, base) in [
            ("far", r.guidance.far, g.far), ("near", r.guidance.near, g.near), ("now", r.guidance.now, g.now),
        ]
        where lead != base {
            guidance.append(
                (
                    key,
                    .object([
                        ("seconds", number(lead.seconds)), ("growth", number(lead.growth)),
                        ("minimum", number(lead.minimum)),
                    ])
                ))
        }
        if r.guidance.thenWithin != g.thenWithin { guidance.append(("thenWithin", number(r.guidance.thenWithin))) }
        if r.guidance.thenSeconds != g.thenSeconds { guidance.append(("thenSeconds", number(r.guidance.thenSeconds))) }
        if r.guidance.margin != g.margin { guidance.append(("margin", seconds(r.guidance.margin))) }
        if r.guidance.outputLatency != g.outputLatency {
            guidance.append(("outputLatency", seconds(r.guidance.outputLatency)))
        }
        if r.horizon != RoadSetup.defaultHorizon { guidance.append(("horizon", seconds(r.horizon))) }
        if r.guidance.rates != g.rates {
            guidance.append(
                (
                    "rates",
                    .object([
                        ("en", number(r.guidance.rates.englishWordsPerSecond)),
                        ("ko", number(r.guidance.rates.koreanSyllablesPerSecond)),
                    ])
                ))
        }
        if r.guidance.units != g.units { guidance.append(("units", .string(r.guidance.units.rawValue))) }
        if !guidance.isEmpty { members.append(("guidance", .object(guidance))) }
        let maps = RoadSetup.MapsDoor()
        var door: [(key: String, value: JSONValue)] = []
        if r.maps.latency != maps.latency { door.append(("latency", seconds(r.maps.latency))) }
        if r.maps.timeout != maps.timeout { door.append(("timeout", seconds(r.maps.timeout))) }
        if r.maps.retry != maps.retry { door.append(("retry", seconds(r.maps.retry))) }
        if !door.isEmpty { members.append(("maps", .object(door))) }
        if !r.places.isEmpty {
            members.append(("places", .array(r.places.map { .object([("name", .string($0.name))] + point($0.point)) })))
        }
        if !r.changes.isEmpty {
            members.append(
                (
                    "changes",
                    .array(
                        r.changes.map { c in
                            var fields: [(key: String, value: JSONValue)] = [
                                ("id", .string(c.id)), ("points", .array(c.points.map { .object(point($0)) })),
                            ]
                            if !c.maneuvers.isEmpty { fields.append(("maneuvers", maneuvers(c.maneuvers))) }
                            if c.refusals != 0 { fields.append(("refusals", .integer(Int64(c.refusals)))) }
                            if let h = c.handoff {
                                var handoff: [(key: String, value: JSONValue)] = [
                                    (
                                        "sent",
                                        .array(
                                            h.sent.map { sending in
                                                switch sending {
                                                case .at(let t): return seconds(t)
                                                case .after(let stretch): return .object([("after", .string(stretch))])
                                                }
                                            })
                                    )
                                ]
                                if let p = h.place { handoff.append(("place", .string(p))) }
                                if let d = h.destination { handoff.append(("destination", .string(d))) }
                                fields.append(("handoff", .object(handoff)))
                            }
                            return .object(fields)
                        })
                ))
        }
        return .object(members)
    }

    /// A route's (or a change's) maneuvers.
    static func maneuvers(_ list: [Scenario.ManeuverSpec]) -> JSONValue {
        .array(
            list.map { m in
                var fields: [(key: String, value: JSONValue)] = [("id", .string(m.id))] + point(m.point)
                fields.append(("turn", .string(m.turn.rawValue)))
                if let s = m.street { fields.append(("street", .string(s))) }
                if let s = m.details.toward { fields.append(("toward", .string(s))) }
                if let n = m.details.exit { fields.append(("exit", .integer(Int64(n)))) }
                if let s = m.details.exitNumber { fields.append(("ref", .string(s))) }
                if let s = m.details.exitName { fields.append(("name", .string(s))) }
                if let s = m.details.side { fields.append(("side", .string(s.rawValue))) }
                if m.details.uTurn { fields.append(("uTurn", .bool(true))) }
                return .object(fields)
            })
    }
}
