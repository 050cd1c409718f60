import Guidance
import Road
import SimClock
import SimRunner
import Testing

@testable import RouteImport

/// Waypoints (issue 23): a two-leg response, written here as OSRM and
/// Mapbox answer one (an `arrive` ending the first leg, a `depart` starting
/// the second at the same place), imports a `waypoint` maneuver, said when
/// reached; where the route turns back there it is a U-turn, not "continue
/// straight".
@Suite struct WaypointTests {
    /// 3 km east to the waypoint, then `out`: back west on the far
    /// carriageway (10 m north) and right at the end, or on east and left.
    static func response(turnsBack: Bool) -> String {
        let lon = turnsBack ? 127.0446 : 127.0786
        let lat = turnsBack ? 37.50699 : 37.50699
        let after = turnsBack ? 263 : 90
        let modifier = turnsBack ? "right" : "left"
        let coordinates =
            turnsBack
            ? "[127.0276,37.4979],[127.0616,37.4979],[127.0616,37.49799],[127.0446,37.49799],[127.0446,37.50699]"
            : "[127.0276,37.4979],[127.0616,37.4979],[127.0786,37.4979],[127.0786,37.50699]"
        let bend = turnsBack ? "[127.0446,37.49799]" : "[127.0786,37.4979]"
        return #"""
            {"code":"Ok","routes":[{"distance":5516,"duration":397,"geometry":{"type":"LineString","coordinates":[\#(coordinates)]},
             "legs":[
              {"distance":3003,"duration":216,"steps":[
               {"distance":3003,"duration":216,"name":"Teheran-ro","maneuver":{"type":"depart","bearing_before":0,"bearing_after":90,"location":[127.0276,37.4979]}},
               {"distance":0,"duration":0,"name":"Teheran-ro","maneuver":{"type":"arrive","bearing_before":83,"bearing_after":0,"location":[127.0616,37.4979]}}]},
              {"distance":2513,"duration":181,"steps":[
               {"distance":\#(turnsBack ? 1511 : 1501),"duration":109,"name":"Teheran-ro","maneuver":{"type":"depart","bearing_before":0,"bearing_after":\#(after),"location":[127.0616,37.4979]}},
               {"distance":1001,"duration":72,"name":"Seolleung-ro","maneuver":{"type":"turn","modifier":"\#(modifier)","bearing_before":\#(after),"bearing_after":0,"location":\#(bend)}},
               {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","bearing_before":0,"bearing_after":0,"location":[\#(lon),\#(lat)]}}]}]}]}
            """#
    }

    func imported(turnsBack: Bool, _ language: Language = .en) throws -> RouteImporter.Imported {
        try RouteImporter.importRoute(
            Array(Self.response(turnsBack: turnsBack).utf8),
            options: RouteImporter.Options(language: language, source: "t.json"))
    }

    /// The lines heard in the imported scenario's run, which passes every check.
    func said(_ imported: RouteImporter.Imported) throws -> [String] {
        let scenario = imported.scenario
        let run = try Simulation(scenario)
        #expect(Invariants.check(scenario, run).isEmpty)
        return run.timeline.events.compactMap { e in
            if case .guidanceStarted(let l) = e.what { run.timeline.roster.text(of: l, startingAt: e.t) } else { nil }
        }
    }

    @Test func aRouteThatTurnsBackAtAWaypointMakesAUTurnThere() throws {
        let imported = try imported(turnsBack: true)
        let maneuvers = try #require(imported.scenario.road?.maneuvers)
        #expect(maneuvers.map(\.turn) == [.waypoint, .right, .arrive])
        #expect(maneuvers[0].details.uTurn)
        #expect(maneuvers[0].id == "l0s1")
        let lines = try said(imported)
        #expect(lines.contains("In 500 meters, at your first waypoint, make a U-turn."))
        #expect(lines.contains("You have reached your first waypoint. Now make a U-turn."))
        #expect(!lines.contains { $0.contains("continue straight") })
        let korean = try said(try self.imported(turnsBack: true, .ko))
        #expect(korean.contains("첫 번째 경유지에 도착했습니다. 유턴하세요."))
        #expect(korean.contains("500미터 앞 첫 번째 경유지에서 유턴하세요."))
    }

    @Test func aWaypointOnTheWayIsSaidWhenReached() throws {
        let imported = try imported(turnsBack: false)
        let maneuvers = try #require(imported.scenario.road?.maneuvers)
        #expect(maneuvers.map(\.turn) == [.waypoint, .left, .arrive])
        #expect(!maneuvers[0].details.uTurn)
        let lines = try said(imported)
        #expect(lines.contains("In 500 meters, you will reach your first waypoint."))
        #expect(lines.contains("You have reached your first waypoint."))
        #expect(try said(try self.imported(turnsBack: false, .ko)).contains("첫 번째 경유지에 도착했습니다."))
    }

    @Test(
        "A turn back is an arrival's bearing and the departure's within 30° of opposite",
        arguments: [
            (83.0, 263.0, true), (90, 270, true), (350, 160, true), (10, 200, true), (90, 230, false), (0, 90, false),
            (90, 90, false),
        ])
    func reversal(inward: Double, outward: Double, back: Bool) {
        func step(_ type: String, _ bearings: (Double?, Double?)) -> RouteImporter.Step {
            var s = RouteImporter.Step(
                path: "s", leg: 0, index: 1, lastOfLeg: true, type: type, modifier: nil, exit: nil,
                location: GeoPoint(latitude: 37.5, longitude: 127), name: nil, ref: nil, destinations: nil,
                exits: nil, drivingSide: nil, distance: 0, duration: 0, voice: [])
            s.bearings = (before: bearings.0, after: bearings.1)
            return s
        }
        #expect(RouteImporter.reverses(step("arrive", (inward, 0)), step("depart", (0, outward))) == back)
        #expect(!RouteImporter.reverses(step("arrive", (nil, nil)), step("depart", (0, outward))))
    }

    @Test func waypointsAreNumberedInRouteOrderAndSaidInBothLanguages() {
        func line(_ stage: Stage, _ n: Int?, uTurn: Bool = false, _ language: Language = .en) -> String {
            let m = Maneuver(id: "w", turn: .waypoint, details: ManeuverDetails(uTurn: uTurn, waypoint: n))
            return Phrasebook.line(stage, m, distance: stage == .now ? nil : 300, then: nil, language: language)
        }
        #expect(line(.far, 2) == "In 300 meters, you will reach your second waypoint.")
        #expect(line(.now, 13) == "You have reached waypoint 13.")
        #expect(line(.now, nil) == "You have reached your waypoint.")
        #expect(line(.near, 1, .ko) == "300미터 앞에 첫 번째 경유지가 있습니다.")
        #expect(line(.now, 2, uTurn: true, .ko) == "두 번째 경유지에 도착했습니다. 유턴하세요.")
        let turn = Maneuver(id: "m", turn: .right, street: "Seolleung-ro")
        let waypoint = Maneuver(id: "w", turn: .waypoint, details: ManeuverDetails(waypoint: 1))
        #expect(
            Phrasebook.line(.now, turn, distance: nil, then: waypoint, language: .en)
                == "Now turn right onto Seolleung-ro, then you will reach your first waypoint.")
        #expect(
            Phrasebook.line(.now, turn, distance: nil, then: waypoint, language: .ko)
                == "지금 Seolleung-ro로 우회전하면 첫 번째 경유지에 도착합니다.")
    }
}
