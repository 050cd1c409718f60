import Guidance
import Road
import SimClock
import SimRunner
import Testing

@testable import RouteImport

/// Ferries and named roundabouts (issue 23), on responses written here as
/// OSRM and Mapbox answer them (a step whose `mode` is `ferry`; a rotary's
/// `rotary_name`).
@Suite struct FerryTests {
    static let points = [
        GeoPoint(latitude: 54.5, longitude: 11.0), GeoPoint(latitude: 54.5, longitude: 11.030946),
        GeoPoint(latitude: 54.5, longitude: 11.216623), GeoPoint(latitude: 54.5, longitude: 11.247569),
    ]

    /// 2 km to the terminal, 12 km by ferry in 50 minutes (14.4 km/h on
    /// average: boarding and waiting included), 2 km on to the destination.
    static var response: (json: String, duration: Double) {
        let d = zip(points, points.dropFirst()).map { LongResponse.haversine($0, $1) }
        let durations = [d[0] / (50 / 3.6), 3000, d[2] / (50 / 3.6)]
        func at(_ p: GeoPoint) -> String { "[\(p.longitude),\(p.latitude)]" }
        let total = d.reduce(0, +)
        let time = durations.reduce(0, +)
        return (
            #"""
            {"code":"Ok","routes":[{"distance":\#(total),"duration":\#(time),"geometry":{"type":"LineString","coordinates":[\#(points.map(at).joined(separator: ","))]},
             "legs":[{"distance":\#(total),"duration":\#(time),"steps":[
              {"distance":\#(d[0]),"duration":\#(durations[0]),"name":"E 47","mode":"driving","maneuver":{"type":"depart","location":\#(at(points[0]))}},
              {"distance":\#(d[1]),"duration":\#(durations[1]),"name":"Puttgarden - Rødby","mode":"ferry","maneuver":{"type":"notification","modifier":"straight","location":\#(at(points[1]))}},
              {"distance":\#(d[2]),"duration":\#(durations[2]),"name":"E 47","mode":"driving","maneuver":{"type":"notification","modifier":"straight","location":\#(at(points[2]))}},
              {"distance":0,"duration":0,"name":"","mode":"driving","maneuver":{"type":"arrive","location":\#(at(points[3]))}}]}]}]}
            """#, time
        )
    }

    func imported(_ language: Language = .en) throws -> RouteImporter.Imported {
        try RouteImporter.importRoute(
            Array(Self.response.json.utf8), options: RouteImporter.Options(language: language, source: "t.json"))
    }

    @Test func aFerryIsAnnouncedAndWaitedForThenSailed() throws {
        let imported = try imported()
        let road = try #require(imported.scenario.road)
        #expect(road.maneuvers.map(\.turn) == [.ferry, .arrive])
        #expect(road.maneuvers[0].street == "Puttgarden - Rødby")
        // 12 km at 30 km/h is 24 minutes of sailing: the other 26 minutes are a wait at the terminal.
        let drive = try #require(road.drive)
        #expect(drive.profile.stops.count == 1)
        #expect(abs(drive.profile.stops[0].at - 2000) < 5)
        #expect(abs(Double(drive.profile.stops[0].dwell.ms) / 1000 - 1560) < 2)
        #expect(drive.profile.steps.contains { abs($0.speed * 3.6 - 30) < 0.1 })
        // The drive lasts the response's time.
        let route = try Route(points: road.points)
        let arrival = try #require(
            Trajectory.arrival(
                profile: drive.profile, length: route.length, start: drive.start, limit: SimTime(ms: 86_400_000)))
        let duration = Self.response.duration
        #expect(
            abs(Double(arrival.ms) / 1000 - duration) <= 0.01 * duration + 30,
            "\(arrival.ms) ms, the steps \(duration) s")
        let run = try Simulation(imported.scenario)
        #expect(Invariants.check(imported.scenario, run).isEmpty)
        let lines = run.timeline.events.compactMap { e in
            if case .guidanceStarted(let l) = e.what { run.timeline.roster.text(of: l, startingAt: e.t) } else { nil }
        }
        #expect(lines.contains("Now take the Puttgarden - Rødby ferry."), "\(lines)")
        #expect(lines.contains("In 500 meters, take the Puttgarden - Rødby ferry."), "\(lines)")
    }

    @Test func aFerryIsSaidInBothLanguages() {
        func line(_ street: String?, _ language: Language) -> String {
            Phrasebook.line(
                .now, Maneuver(id: "f", turn: .ferry, street: street), distance: nil, then: nil, language: language)
        }
        #expect(line(nil, .en) == "Now take the ferry.")
        #expect(line("Scandlines Ferry", .en) == "Now take the Scandlines Ferry.")
        #expect(line(nil, .ko) == "지금 페리에 탑승하세요.")
        #expect(line("Puttgarden - Rødby", .ko) == "지금 Puttgarden - Rødby 페리에 탑승하세요.")
    }

    @Test(
        "A ferry step waits for what sailing at 30 km/h leaves of its time, at most an hour",
        arguments: [
            (12_000.0, 3000.0, 1560_000 as Int64?), (12_000, 1440, nil), (12_000, 1000, nil),
            (6_000, 10_000, 3_600_000),
        ])
    func ferryWait(distance: Double, duration: Double, waitMs: Int64?) throws {
        let ferry = RouteImporter.ferry(distance: distance, duration: duration)
        #expect(ferry?.wait.ms == waitMs)
        if let ferry {
            // Waiting and sailing take the step's time.
            #expect(abs(Double(ferry.wait.ms) / 1000 + distance / (ferry.kmh / 3.6) - duration) < 0.01)
        }
    }

    @Test func aRotaryIsNamed() throws {
        let step = RouteImporter.Step(
            path: "s", leg: 0, index: 1, lastOfLeg: false, type: "rotary", modifier: "right", exit: 3,
            location: GeoPoint(latitude: 48.8738, longitude: 2.2950), name: "Avenue de Friedland", ref: nil,
            destinations: nil, exits: nil, drivingSide: nil, distance: 500, duration: 60, voice: [],
            rotaryName: "Place de l'Étoile")
        #expect(step.rotaryName == "Place de l'Étoile")
        let m = Maneuver(
            id: "r", turn: .roundabout, street: "Avenue de Friedland",
            details: ManeuverDetails(exit: 3, exitName: "Place de l'Étoile"))
        #expect(
            Phrasebook.line(.now, m, distance: nil, then: nil, language: .en)
                == "At Place de l'Étoile, take the third exit onto Avenue de Friedland.")
        #expect(
            Phrasebook.line(.near, m, distance: 300, then: nil, language: .ko)
                == "300미터 앞 Place de l'Étoile 회전교차로에서 세 번째 출구로 나가 Avenue de Friedland로 진입하세요.")
        let 광화문 = Maneuver(id: "r", turn: .roundabout, details: ManeuverDetails(exit: 2, exitName: "광화문 로터리"))
        #expect(Phrasebook.line(.now, 광화문, distance: nil, then: nil, language: .ko) == "광화문 로터리에서 두 번째 출구로 나가세요.")
    }

    @Test func aRotaryResponseKeepsItsName() throws {
        // 1 km east, a rotary (exit 2) and 1 km on.
        let json = #"""
            {"code":"Ok","routes":[{"distance":1900,"duration":150,"geometry":{"type":"LineString","coordinates":[[2.28,48.8738],[2.2937,48.8738],[2.2950,48.8744],[2.2963,48.8738],[2.31,48.8738]]},
             "legs":[{"distance":1900,"duration":150,"steps":[
              {"distance":1000,"duration":80,"name":"Avenue de la Grande Armée","maneuver":{"type":"depart","location":[2.28,48.8738]}},
              {"distance":200,"duration":20,"name":"Avenue des Champs-Élysées","rotary_name":"Place de l'Étoile","maneuver":{"type":"rotary","modifier":"straight","exit":2,"location":[2.2937,48.8738]}},
              {"distance":1000,"duration":50,"name":"Avenue des Champs-Élysées","maneuver":{"type":"exit rotary","modifier":"straight","location":[2.2963,48.8738]}},
              {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":[2.31,48.8738]}}]}]}]}
            """#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t.json"))
        let m = try #require(imported.scenario.road?.maneuvers.first)
        #expect(m.turn == .roundabout && m.details.exit == 2 && m.details.exitName == "Place de l'Étoile")
        let run = try Simulation(imported.scenario)
        #expect(
            run.timeline.events.contains { e in
                if case .guidanceStarted(let l) = e.what {
                    run.timeline.roster.text(of: l, startingAt: e.t)
                        == "At Place de l'Étoile, take the second exit onto Avenue des Champs-Élysées."
                } else {
                    false
                }
            })
    }
}
