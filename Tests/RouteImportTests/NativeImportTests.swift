import Foundation
import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import RouteImport

/// Valhalla's own `trip` and GraphHopper's `paths` import into the road the
/// OSRM-shaped answer for the same route gives. The samples are drivesim's
/// own (`Scenarios/routes/responses/native.py` writes them from the
/// OSRM-shaped ones): kilometers and miles, polyline5, polyline6 and
/// GeoJSON points, two legs with a via point, a ferry, a 2,100 km drive.
@Suite struct NativeImportTests {
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Scenarios/routes/responses/\(name)"))))
    }

    static func imported(
        _ name: String, _ language: Language = .en, _ edit: (inout RouteImporter.Options) -> Void = { _ in }
    ) throws -> RouteImporter.Imported {
        var options = RouteImporter.Options(language: language, source: name)
        edit(&options)
        return try RouteImporter.importRoute(try bytes(name), options: options)
    }

    static let samples: [(osrm: String, base: String, language: Language)] = [
        ("roundabout.osrm", "roundabout", .en), ("via-point.valhalla", "via-point", .ko),
        ("ferry.osrm", "ferry", .en), ("long-drive.osrm", "long-drive", .en),
    ]

    /// The road `osrm` gives, as a service that says no side of the destination (`sides: false`) and in `units` gives it.
    static func expected(_ osrm: String, _ language: Language, units: Units?, sides: Bool) throws -> Scenario.Road {
        var road = try #require(try imported(osrm, language) { $0.units = units }.scenario.road)
        if !sides {
            for i in road.maneuvers.indices where road.maneuvers[i].turn == .arrive {
                road.maneuvers[i].details.side = nil
            }
        }
        return road
    }

    /// Each maneuver's kind, street, details and point, and the drive, as the OSRM import's.
    static func expectSameRoad(_ native: Scenario.Road, _ osrm: Scenario.Road, _ label: String) {
        #expect(native.points == osrm.points, "\(label): points")
        #expect(native.maneuvers.map(\.turn) == osrm.maneuvers.map(\.turn), "\(label)")
        #expect(native.maneuvers.map(\.street) == osrm.maneuvers.map(\.street), "\(label)")
        #expect(native.maneuvers.map(\.details) == osrm.maneuvers.map(\.details), "\(label)")
        // A native maneuver lies on a point of its line (its index); OSRM's location may lie
        // between two at the line's precision (roundabout.osrm: 127.055702 on a line of 127.0557).
        #expect(native.maneuvers.count == osrm.maneuvers.count)
        for (x, y) in zip(native.maneuvers, osrm.maneuvers) {
            #expect(greatCircleDistance(x.point, y.point) < 1, "\(label): \(x.id) at \(x.point), \(y.point)")
        }
        #expect(native.guidance.units == osrm.guidance.units, "\(label)")
        let a = native.drive?.profile
        let b = osrm.drive?.profile
        #expect(a?.steps.count == b?.steps.count, "\(label): speed steps")
        for (x, y) in zip(a?.steps ?? [], b?.steps ?? []) {
            #expect(abs(x.from - y.from) < 1 && abs(x.speed - y.speed) * 3.6 < 0.15, "\(label): \(x) vs \(y)")
        }
        #expect(a?.stops.count == b?.stops.count, "\(label): stops")
        for (x, y) in zip(a?.stops ?? [], b?.stops ?? []) {
            #expect(abs(x.at - y.at) < 1 && abs((x.dwell - y.dwell).ms) <= 1000, "\(label)")
        }
    }

    @Test(arguments: samples.map(\.base))
    func aValhallaTripImportsIntoTheRoadOfItsOSRMAnswer(_ base: String) throws {
        let sample = try #require(Self.samples.first { $0.base == base })
        let imported = try Self.imported("\(base).trip.valhalla", sample.language)
        // roundabout and long-drive are written in miles: an English voice then speaks them.
        let miles = ["roundabout", "long-drive"].contains(base)
        let osrm = try Self.expected(
            sample.osrm, sample.language, units: miles && sample.language == .en ? .imperial : nil, sides: true)
        // Valhalla has no destination "straight ahead" (only right and left).
        var expected = osrm
        for i in expected.maneuvers.indices where expected.maneuvers[i].details.side == .ahead {
            expected.maneuvers[i].details.side = nil
        }
        Self.expectSameRoad(try #require(imported.scenario.road), expected, base)
        #expect(imported.precision == 6)
        #expect(
            imported.warnings.filter { if case .notAnnounced = $0.kind { false } else { true } }.isEmpty,
            "\(imported.warnings)")
    }

    @Test(arguments: samples.map(\.base))
    func aGraphHopperPathImportsIntoTheRoadOfItsOSRMAnswer(_ base: String) throws {
        let sample = try #require(Self.samples.first { $0.base == base })
        let imported = try Self.imported("\(base).paths.graphhopper", sample.language)
        let osrm = try Self.expected(sample.osrm, sample.language, units: nil, sides: false)
        Self.expectSameRoad(try #require(imported.scenario.road), osrm, base)
        // via-point's points are GeoJSON, the others encoded at their multiplier's precision.
        #expect(imported.precision == (base == "via-point" ? nil : base == "roundabout" ? 5 : 6))
    }

    @Test func aViaPointIsAWaypointAndAFerryIsAnnouncedInBoth() throws {
        for name in ["via-point.trip.valhalla", "via-point.paths.graphhopper"] {
            #expect(
                try Self.imported(name, .ko).scenario.road?.maneuvers.map(\.turn) == [
                    .left, .waypoint, .left, .arrive,
                ], "\(name)")
        }
        for name in ["ferry.trip.valhalla", "ferry.paths.graphhopper"] {
            let road = try #require(try Self.imported(name).scenario.road)
            #expect(road.maneuvers.map(\.turn) == [.ferry, .arrive], "\(name)")
            #expect(road.maneuvers[0].street == "Puttgarden - Rødby")
            // 12 km at 30 km/h is 24 minutes of sailing: the other 26 a wait at the terminal.
            #expect(road.drive?.profile.stops.count == 1)
            #expect(abs(Double(road.drive?.profile.stops.first?.dwell.ms ?? 0) / 1000 - 1560) < 3, "\(name)")
        }
    }

    @Test(arguments: ["long-drive.trip.valhalla", "long-drive.paths.graphhopper"])
    func aLongDriveKeepsItsLengthAndItsTime(_ name: String) throws {
        let imported = try Self.imported(name)
        let road = try #require(imported.scenario.road)
        let distance = try #require(imported.responseDistance)
        #expect(distance > 2_000_000)
        #expect(abs(imported.length - distance) <= 0.001 * distance, "\(imported.length) vs \(distance)")
        let response = try JSONParser.parse(try Self.bytes("long-drive.osrm"))
        guard case .number(let d) = response["routes"]?.kind ?? .null else {
            let seconds = try #require(
                response["routes"].flatMap { v -> Double? in
                    if case .array(let r) = v.kind, case .number(let n) = r[0]["duration"]?.kind ?? .null {
                        Double(n)
                    } else {
                        nil
                    }
                })
            let profile = try #require(road.drive?.profile)
            let arrival = try #require(
                Trajectory.arrival(
                    profile: profile, length: imported.length, start: .zero, limit: SimTime(ms: 86_400_000)))
            let took = Double(arrival.ms) / 1000
            #expect(abs(took - seconds) <= 0.01 * seconds + 30, "\(took) s vs \(seconds) s")
            return
        }
        Issue.record("routes is not an array: \(d)")
    }

    /// What is wrong with a native response is refused at its own path.
    @Test func refusalsNameThePathInTheServicesOwnDocument() {
        func problem(_ json: String) -> ImportProblem? {
            do {
                _ = try RouteImporter.importRoute(
                    Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t"))
                return nil
            } catch { return error }
        }
        let shape = "_qo]_qo]?_pR"  // (0.5, 0.5) and (0.5, 0.51) at precision 6
        func trip(_ maneuvers: String, units: String = "kilometers", status: String = "0") -> String {
            #"{"trip":{"status":\#(status),"status_message":"x","units":"\#(units)","legs":[{"shape":"\#(shape)","maneuvers":[\#(maneuvers)]}]}}"#
        }
        let start = #"{"type":1,"begin_shape_index":0,"length":1.1,"time":80}"#
        let end = #"{"type":4,"begin_shape_index":1,"length":0,"time":0}"#
        #expect(problem(trip(start + "," + end)) == nil)
        #expect(
            problem(trip(start + "," + #"{"type":4,"begin_shape_index":2,"length":0,"time":0}"#))
                == ImportProblem(
                    .shapeIndexOutOfRange(index: 2, count: 2), at: "trip.legs[0].maneuvers[1].begin_shape_index"))
        #expect(
            problem(trip(#"{"type":"start","begin_shape_index":0,"length":1,"time":80}"#))
                == ImportProblem(.wrongType(expected: "a number"), at: "trip.legs[0].maneuvers[0].type"))
        #expect(
            problem(trip(#"{"type":1.5,"begin_shape_index":0,"length":1,"time":80}"#))
                == ImportProblem(.wrongType(expected: "a whole number"), at: "trip.legs[0].maneuvers[0].type"))
        #expect(
            problem(trip(#"{"type":1,"begin_shape_index":0,"time":80}"#))
                == ImportProblem(.missingField("length"), at: "trip.legs[0].maneuvers[0]"))
        #expect(
            problem(trip(start + "," + end, units: "furlongs"))
                == ImportProblem(.unknownUnits("furlongs"), at: "trip.units"))
        #expect(
            problem(trip(start + "," + end, status: "442"))
                == ImportProblem(.serviceError(code: "442", message: "x"), at: "trip.status"))
        #expect(problem(trip("")) == ImportProblem(.noSteps, at: "trip.legs[0].maneuvers"))
        #expect(
            problem(#"{"trip":{"legs":[{"maneuvers":[]}]}}"#)
                == ImportProblem(.missingField("shape"), at: "trip.legs[0]"))
        #expect(
            problem(#"{"error_code":171,"error":"No suitable edges near location","status_code":400}"#)
                == ImportProblem(
                    .serviceError(code: "171", message: "No suitable edges near location"), at: "error_code"))
        func path(_ instructions: String?, points: String = #""points":"_t`B_t`B?o}@""#) -> String {
            #"{"paths":[{"distance":1100,"time":80000,\#(points)\#(instructions.map { #","instructions":[\#($0)]"# } ?? "")}]}"#
        }
        let go = #"{"sign":0,"interval":[0,1],"distance":1100,"time":80000,"street_name":"A"}"#
        let finish = #"{"sign":4,"interval":[1,1],"distance":0,"time":0,"street_name":""}"#
        #expect(problem(path(go + "," + finish)) == nil)
        #expect(problem(path(nil)) == ImportProblem(.noSteps, at: "paths[0].instructions"))
        #expect(
            problem(path(go + "," + #"{"sign":4,"interval":[1,5],"distance":0,"time":0}"#))
                == ImportProblem(.shapeIndexOutOfRange(index: 5, count: 2), at: "paths[0].instructions[1].interval[1]"))
        #expect(
            problem(path(go + "," + #"{"sign":4,"interval":[1],"distance":0,"time":0}"#))
                == ImportProblem(
                    .wrongType(expected: "[first, last] point indices"), at: "paths[0].instructions[1].interval"))
        #expect(
            problem(path(go + "," + finish, points: #""points":"_t`B_t`B?o}@","points_encoded_multiplier":1000"#))
                == ImportProblem(.wrongType(expected: "1e5 or 1e6"), at: "paths[0].points_encoded_multiplier"))
        #expect(
            problem(#"{"message":"Point 0 is out of bounds","hints":[{"message":"x"}]}"#)
                == ImportProblem(.serviceError(code: "GraphHopper", message: "Point 0 is out of bounds"), at: "message")
        )
        #expect(
            problem(#"{"paths":[{"distance":1,"points":"_t`B_t`B?o}@","instructions":[]}]}"#)
                == ImportProblem(.noSteps, at: "paths[0].instructions"))
    }

    @Test func aKindNoCarIsToldIsWarnedAtItsPathAndKeptStraight() throws {
        let json = #"""
            {"trip":{"units":"kilometers","legs":[{"shape":"_qo]_qo]?_pR?_pR","maneuvers":[
              {"type":1,"begin_shape_index":0,"length":1.1,"time":80},
              {"type":30,"begin_shape_index":1,"length":1.1,"time":80,"street_names":["Line 2"]},
              {"type":4,"begin_shape_index":2,"length":0,"time":0}]}]}}
            """#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t"))
        #expect(
            imported.warnings.contains(
                ImportWarning(
                    .unknownManeuverType("valhalla type 30", keptAs: "straight"), at: "trip.legs[0].maneuvers[1].type"))
        )
        #expect(imported.scenario.road?.maneuvers.map(\.turn) == [.straight, .arrive])
    }

    /// libFuzzer's finding: a finish sign before the last instruction imported as an arrival in mid-route,
    /// which the scenario decoder then refused ("no maneuver may follow the arrival").
    @Test func aFinishBeforeTheLastInstructionIsWarnedAndKeptStraight() throws {
        let json = #"""
            {"paths":[{"distance":1900,"time":190200,"points_encoded":false,"points":{"type":"LineString","coordinates":[
              [126.977,37.5704],[126.981539,37.5704],[126.981539,37.573548],[126.984375,37.573548]]},"instructions":[
              {"sign":0,"interval":[0,1],"distance":400,"time":41100,"street_name":"종로"},
              {"sign":-2,"interval":[1,2],"distance":700,"time":63000,"street_name":"세종대로"},
              {"sign":4,"interval":[2,2],"distance":0,"time":0,"street_name":"세종대로"},
              {"sign":2,"interval":[2,3],"distance":800,"time":86100,"street_name":"새문안로"},
              {"sign":4,"interval":[3,3],"distance":0,"time":0}]}]}
            """#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .ko, source: "t"))
        #expect(
            imported.warnings.contains(
                ImportWarning(
                    .unknownManeuverType("graphhopper sign 4", keptAs: "straight"), at: "paths[0].instructions[2].sign")
            ))
        #expect(imported.scenario.road?.maneuvers.last?.turn == .arrive)
        #expect(imported.scenario.road?.maneuvers.filter { $0.turn == .arrive }.count == 1)
        let encoded = ScenarioEncoder.encode(imported.scenario)
        #expect(throws: Never.self) { try ScenarioDecoder.decode(encoded, file: "imported") }
    }

    @Test func importRouteDetectsTheShapeAndRefusesWithFilePathAndReason() throws {
        var console = Console.captured
        let good = Fixtures.path("Scenarios/routes/responses/roundabout.trip.valhalla")
        #expect(Drivesim.main(["import-route", good, "--language", "en"], console: &console) == 0)
        #expect(console.stdout.contains(#""drivesim""#) && console.stdout.contains("roundabout.trip.valhalla"))
        let folder = try Fixtures.temporaryFolder()
        let bad = Fixtures.write(#"{"trip":{"units":"leagues","legs":[]}}"#, "bad.valhalla", in: folder)
        var failed = Console.captured
        #expect(Drivesim.main(["import-route", bad, "--language", "en"], console: &failed) == 2)
        // The refusal names the format the file was read as (issue 40).
        #expect(
            failed.stderr
                == "Error: \(bad): trip.units: units \"leagues\" are neither kilometers nor miles (read as a Valhalla trip)\n",
            "\(failed.stderr)")
    }
}
