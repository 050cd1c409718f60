import CLITestSupport
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

/// A sample response and what its import must give.
struct Sample: Sendable, CustomStringConvertible {
    var response: String
    var scenario: String
    var language: Language
    var turns: [Turn]
    var precision: Int
    var description: String { response }
}

let samples = [
    Sample(
        response: "roundabout.osrm", scenario: "roundabout", language: .en, turns: [.right, .roundabout, .arrive],
        precision: 5),
    Sample(
        response: "motorway-exit.mapbox", scenario: "motorway-exit", language: .en,
        turns: [.onRamp, .merge, .offRamp, .forkLeft, .left, .arrive], precision: 6),
    Sample(
        response: "via-point.valhalla", scenario: "via-point", language: .ko,
        turns: [.left, .waypoint, .left, .arrive], precision: 6),
]

func importSample(_ s: Sample) throws -> RouteImporter.Imported {
    let bytes = Array(
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Scenarios/routes/responses/\(s.response)"))))
    return try RouteImporter.importRoute(
        bytes, options: RouteImporter.Options(language: s.language, source: s.response))
}

func responseJSON(_ s: Sample) throws -> JSONValue {
    try JSONParser.parse(
        Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Scenarios/routes/responses/\(s.response)")))))
}

@Suite struct RouteImporterTests {
    @Test("Each sample imports to its maneuver kinds, at the detected precision", arguments: samples)
    func kinds(_ s: Sample) throws {
        let imported = try importSample(s)
        #expect(imported.scenario.road?.maneuvers.map(\.turn) == s.turns)
        #expect(imported.precision == s.precision)
        #expect(imported.warnings.isEmpty)
    }

    @Test("Each sample's geometry is within 1% of the response's distance", arguments: samples)
    func length(_ s: Sample) throws {
        try expectLengthWithinOnePercent(try importSample(s))
    }

    @Test("Each sample drives at the response's own step speeds", arguments: samples)
    func speeds(_ s: Sample) throws {
        try expectStepSpeeds(try importSample(s), response: try responseJSON(s))
    }

    @Test("Each committed sample scenario is what the import writes, plus its golden", arguments: samples)
    func pinned(_ s: Sample) throws {
        try expectPinned(try importSample(s), as: "routes/\(s.scenario)", turns: s.turns.count)
    }

    @Test("Each sample's run announces every maneuver and leaves none unannounced", arguments: samples)
    func announced(_ s: Sample) throws {
        let scenario = try importSample(s).scenario
        let timeline = try Simulation(scenario).timeline
        var nows = 0
        var unannounced = 0
        for e in timeline.events {
            if case .guidanceStarted(let l) = e.what, timeline.roster.stage(of: l) == .now { nows += 1 }
            if case .road(.turnUnannounced) = e.what { unannounced += 1 }
        }
        #expect(nows == s.turns.count)
        #expect(unannounced == 0)
    }

    @Test("The motorway sample keeps the service's voice prompts, each naming a maneuver")
    func prompts() throws {
        let imported = try importSample(samples[1])
        #expect(imported.scenario.servicePrompts.count >= 10)
        let ids = Set(imported.scenario.road?.maneuvers.map(\.id) ?? [])
        #expect(imported.scenario.servicePrompts.allSatisfy { ids.contains($0.maneuver) })
        let bytes = ScenarioEncoder.encode(imported.scenario)
        #expect(try ScenarioDecoder.decode(bytes, file: "x").servicePrompts == imported.scenario.servicePrompts)
    }

    @Test("A service prompt naming no maneuver is refused with its path")
    func promptUnknownManeuver() throws {
        var text = String(decoding: ScenarioEncoder.encode(try importSample(samples[1]).scenario), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"maneuver\": \"l0s3\"", with: "\"maneuver\": \"nope\"")
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode(Array(text.utf8), file: "x") }
    }
}

@Suite struct RouteImportProblemTests {
    func problem(_ json: String, _ options: (inout RouteImporter.Options) -> Void = { _ in }) -> ImportProblem? {
        var o = RouteImporter.Options(language: .en, source: "t.json")
        options(&o)
        do {
            _ = try RouteImporter.importRoute(Array(json.utf8), options: o)
            return nil
        } catch { return error }
    }

    @Test("A response with no routes is refused at routes")
    func noRoutes() {
        #expect(problem(#"{"code":"Ok","routes":[]}"#) == ImportProblem(.noRoutes, at: "routes"))
        // Asked with steps=false: the legs are there, their steps empty.
        let noSteps =
            #"{"code":"Ok","routes":[{"distance":1200,"duration":90,"geometry":"_p~iF~ps|U_ulLnnqC","legs":[{"steps":[],"distance":1200,"duration":90}]}]}"#
        #expect(problem(noSteps) == ImportProblem(.noSteps, at: "routes[0].legs[0].steps"))
        // Valhalla's and GraphHopper's own formats, read: empty ones are refused where they are empty.
        #expect(problem(#"{"trip":{"legs":[]},"id":"x"}"#) == ImportProblem(.noSteps, at: "trip.legs"))
        #expect(problem(#"{"paths":[],"info":{}}"#) == ImportProblem(.noRoutes, at: "paths"))
    }

    @Test("A drive beyond 24 hours at the response's speeds is refused with how long it would last")
    func driveTooLong() {
        // 100 km in 100,000 s: 3.6 km/h, some 28 hours.
        let slow = #"""
            {"code":"Ok","routes":[{"distance":100000,"duration":100000,"geometry":{"type":"LineString","coordinates":[[127,37],[127,37.9]]},
             "legs":[{"distance":100000,"duration":100000,"steps":[
              {"distance":100000,"duration":100000,"name":"","maneuver":{"type":"depart","location":[127,37]}},
              {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":[127,37.9]}}]}]}]}
            """#
        #expect(problem(slow) == ImportProblem(.driveTooLong(hours: 28, kilometers: 100), at: ""))
    }

    /// 1 km east and 1 km north; the overview drawn `shift` degrees north of the steps' own lines.
    static func mismatched(shift: Double, stepLines: Bool = true) -> String {
        func line(_ points: [(Double, Double)]) -> String {
            stepLines
                ? #","geometry":{"type":"LineString","coordinates":[\#(points.map { "[\($0.0),\($0.1)]" }.joined(separator: ","))]}"#
                : ""
        }
        return #"""
            {"code":"Ok","routes":[{"distance":1885,"duration":150,"geometry":{"type":"LineString","coordinates":[[127,\#(37.5 + shift)],[127.01,\#(37.5 + shift)],[127.01,\#(37.509 + shift)]]},
             "legs":[{"distance":1885,"duration":150,"steps":[
              {"distance":885,"duration":70,"name":""\#(line([(127, 37.5), (127.01, 37.5)])),"maneuver":{"type":"depart","location":[127,37.5]}},
              {"distance":1000,"duration":80,"name":"Teheran-ro"\#(line([(127.01, 37.5), (127.01, 37.509)])),"maneuver":{"type":"turn","modifier":"left","location":[127.01,37.5]}},
              {"distance":0,"duration":0,"name":""\#(line([(127.01, 37.509), (127.01, 37.509)])),"maneuver":{"type":"arrive","location":[127.01,37.509]}}]}]}]}
            """#
    }

    @Test("An overview its maneuvers lie off falls back to the steps' own lines, with a warning naming it")
    func overviewMismatch() throws {
        let imported = try RouteImporter.importRoute(
            Array(Self.mismatched(shift: 0.001).utf8), options: RouteImporter.Options(language: .en, source: "t"))
        #expect(
            imported.warnings.first
                == ImportWarning(
                    .overviewMismatch(meters: 111, maneuver: "routes[0].legs[0].steps[1].maneuver.location"),
                    at: "routes[0].geometry"))
        #expect(imported.scenario.road?.points.first == GeoPoint(latitude: 37.5, longitude: 127))
        #expect(imported.scenario.road?.maneuvers.map(\.turn) == [.left, .arrive])
        // Without the steps' lines, or with an overview that fits, nothing changes.
        #expect(
            problem(Self.mismatched(shift: 0.001, stepLines: false))
                == ImportProblem(.maneuverOffGeometry(meters: 111), at: "routes[0].legs[0].steps[1].maneuver.location"))
        let fits = try RouteImporter.importRoute(
            Array(Self.mismatched(shift: 0).utf8), options: RouteImporter.Options(language: .en, source: "t"))
        #expect(fits.warnings.isEmpty)
        let (_, _, err) = Fixtures.drivesim(
            "import-route", Fixtures.write(Self.mismatched(shift: 0.001), "m.osrm", in: try Fixtures.temporaryFolder()),
            "--language", "en")
        #expect(
            err.contains(
                "routes[0].geometry: the maneuver at routes[0].legs[0].steps[1].maneuver.location lies 111 m off this line"
            ), "\(err)")
    }

    @Test("A route beyond 10,000 km is refused with the response's own distance and duration")
    func routeTooLong() throws {
        // 111° of the equator: the response says 12,356 km in 139 hours.
        let far = #"""
            {"code":"Ok","routes":[{"distance":12356000,"duration":500000,"geometry":{"type":"LineString","coordinates":[[0,0],[111,0]]},
             "legs":[{"distance":12356000,"duration":500000,"steps":[
              {"distance":12356000,"duration":500000,"name":"","maneuver":{"type":"depart","location":[0,0]}},
              {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":[111,0]}}]}]}]}
            """#
        #expect(problem(far) == ImportProblem(.routeTooLong(kilometers: 12356, hours: 139), at: "routes[0].geometry"))
        let folder = try Fixtures.temporaryFolder()
        let (code, _, err) = Fixtures.drivesim(
            "import-route", Fixtures.write(far, "far.osrm", in: folder), "--language", "en")
        #expect(code == 2)
        #expect(err.contains("the route is 12356 km long, about 139 hours, beyond the format's 10000 km"), "\(err)")
    }

    @Test("A modifier not in OSRM's list is read by its words, with a warning at its path")
    func unknownModifier() throws {
        #expect(RouteImporter.plainTurn("bear right") == .slightRight)
        #expect(RouteImporter.plainTurn("Sharp-Left") == .sharpLeft)
        #expect(RouteImporter.plainTurn("u-turn") == .uTurn)
        #expect(RouteImporter.plainTurn("right") == .right)
        #expect(RouteImporter.plainTurn("ahead") == .straight)
        let json = #"""
            {"code":"Ok","routes":[{"distance":2000,"duration":150,"geometry":{"type":"LineString","coordinates":[[127,37.5],[127.01,37.5],[127.01,37.509]]},
             "legs":[{"distance":2000,"duration":150,"steps":[
              {"distance":885,"duration":70,"name":"","maneuver":{"type":"depart","location":[127,37.5]}},
              {"distance":1000,"duration":80,"name":"Teheran-ro","maneuver":{"type":"turn","modifier":"hard left","location":[127.01,37.5]}},
              {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":[127.01,37.509]}}]}]}]}
            """#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t.json"))
        #expect(imported.scenario.road?.maneuvers.first?.turn == .sharpLeft)
        #expect(
            imported.warnings.contains(
                ImportWarning(
                    .unknownModifier("hard left", keptAs: "sharp-left"),
                    at: "routes[0].legs[0].steps[1].maneuver.modifier")))
    }

    @Test("A route index beyond the response is refused with the count")
    func outOfRange() {
        #expect(
            problem(#"{"routes":[{}]}"#) { $0.route = 2 }
                == ImportProblem(.routeOutOfRange(index: 2, count: 1), at: "routes"))
    }

    @Test("A polyline cut short does not decode, with its offset")
    func badPolyline() {
        #expect(
            problem(#"{"routes":[{"distance":10,"geometry":"_p~iF~","legs":[]}]}"#)
                == ImportProblem(.polylineDoesNotDecode(offset: 6), at: "routes[0].geometry"))
    }

    @Test("A coordinate beyond the poles is refused at its path")
    func outOfRangeCoordinate() {
        let json =
            #"{"routes":[{"distance":10,"geometry":{"type":"LineString","coordinates":[[127,37],[127,91]]},"legs":[]}]}"#
        #expect(problem(json) == ImportProblem(.coordinateOutOfRange, at: "routes[0].geometry.coordinates[1][1]"))
    }

    @Test("A maneuver type that is not a string is refused at steps[i].maneuver.type")
    func badType() {
        let json =
            #"{"routes":[{"distance":150,"geometry":{"type":"LineString","coordinates":[[127,37],[127.001,37.001]]},"legs":[{"steps":[{"maneuver":{"type":3,"location":[127,37]},"distance":1,"duration":1}]}]}]}"#
        #expect(
            problem(json)
                == ImportProblem(.wrongType(expected: "a string"), at: "routes[0].legs[0].steps[0].maneuver.type"))
    }

    @Test("A service error is refused with its code")
    func serviceError() {
        #expect(
            problem(#"{"code":"NoRoute","message":"Impossible route","routes":[]}"#)
                == ImportProblem(.serviceError(code: "NoRoute", message: "Impossible route"), at: "code"))
    }

    @Test("An unknown maneuver type is kept as a plain turn with a warning naming the step")
    func unknownType() throws {
        let json =
            #"{"routes":[{"distance":200,"geometry":{"type":"LineString","coordinates":[[127,37],[127.001,37],[127.001,37.001]]},"legs":[{"steps":[{"maneuver":{"type":"depart","location":[127,37]},"distance":89,"duration":8},{"maneuver":{"type":"teleport","modifier":"left","location":[127.001,37]},"distance":111,"duration":10},{"maneuver":{"type":"arrive","location":[127.001,37.001]},"distance":0,"duration":0}]}]}]}"#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t"))
        #expect(imported.scenario.road?.maneuvers.map(\.turn) == [.left, .arrive])
        #expect(
            imported.warnings == [
                ImportWarning(
                    .unknownManeuverType("teleport", keptAs: "left"), at: "routes[0].legs[0].steps[1].maneuver.type")
            ])
    }

    @Test("A GeoJSON line's turns over 30 degrees become maneuvers")
    func geoJSONLine() throws {
        let json =
            #"{"type":"Feature","properties":{"name":"block"},"geometry":{"type":"LineString","coordinates":[[127,37],[127.005,37],[127.005,37.004],[127.0052,37.008]]}}"#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t"))
        #expect(imported.scenario.road?.maneuvers.map(\.turn) == [.left, .arrive])
        #expect(imported.scenario.name == "block")
    }

    @Test("The command exits 2 naming the file, the path and the reason")
    func command() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(#"{"routes":[]}"#, "r.json", in: folder)
        let (code, out, err) = Fixtures.drivesim("import-route", file, "--language", "en")
        #expect(code == 2)
        #expect(out.isEmpty)
        #expect(err.contains("r.json: routes: the response has no routes"))
        #expect(Fixtures.drivesim("import-route", file).code == 2, "the language is required")
    }

    @Test("run --format geojson writes a FeatureCollection with the route and the spoken lines")
    func geoJSONOut() throws {
        let (code, out, _) = Fixtures.drivesim(
            "run", Fixtures.path("Scenarios/routes/roundabout.json"), "--format", "geojson")
        #expect(code == 0)
        let value = try JSONParser.parse(Array(out.utf8))
        #expect(value["type"] == .string("FeatureCollection"))
        guard case .array(let features) = value["features"]?.kind ?? .null else {
            Issue.record("no features")
            return
        }
        let kinds = features.compactMap { $0["properties"]?["kind"] }
        #expect(kinds.filter { $0 == .string("route") }.count == 1)
        #expect(kinds.filter { $0 == .string("spoken") }.count >= 9)
    }

    @Test("run --prompts text puts the comparison on standard error, never on standard output")
    func promptsTable() throws {
        let plain = Fixtures.drivesim("run", Fixtures.path("Scenarios/routes/motorway-exit.json"))
        let (code, out, err) = Fixtures.drivesim(
            "run", Fixtures.path("Scenarios/routes/motorway-exit.json"), "--prompts", "text")
        #expect(code == 0)
        #expect(out == plain.stdout)
        #expect(err.contains("l0s3      far"))
        let json = Fixtures.drivesim("run", Fixtures.path("Scenarios/routes/motorway-exit.json"), "--prompts", "json")
            .stderr
        #expect(json.contains("\"serviceBefore\": 1000"))
    }
}

/// The committed scenario `name` (under Scenarios/) is what the import
/// writes, plus its golden and, added by hand, one expectation per maneuver
/// (its "now" line starts).
func expectPinned(_ imported: RouteImporter.Imported, as name: String, turns: Int) throws {
    var scenario = imported.scenario
    scenario.golden = "\(name.split(separator: "/").last!).timeline.json"
    let committed = try Fixtures.scenario(name)
    #expect(committed.expect.count == turns)
    scenario.expect = committed.expect
    #expect(scenario == committed)
}

/// The import drives at each step's own speed (`distance / duration`, km/h to
/// 0.1), one speed step per change, in the order of the response's steps.
func expectStepSpeeds(_ imported: RouteImporter.Imported, response: JSONValue) throws {
    guard case .array(let routes) = response["routes"]?.kind ?? .null,
        case .array(let legs) = routes[0]["legs"]?.kind ?? .null
    else {
        Issue.record("no legs")
        return
    }
    var expected: [Double] = []
    for leg in legs {
        guard case .array(let steps) = leg["steps"]?.kind ?? .null else { continue }
        for step in steps {
            guard case .number(let d) = step["distance"]?.kind, case .number(let t) = step["duration"]?.kind,
                let dd = Double(d), let tt = Double(t), dd > 0, tt > 0
            else { continue }
            let kmh = (dd / tt * 3.6 * 10).rounded() / 10
            if expected.last != kmh { expected.append(kmh) }
        }
    }
    let got = try #require(imported.scenario.road?.drive).profile.steps.map { ($0.speed * 3.6 * 10).rounded() / 10 }
    #expect(got == expected)
}

/// The imported geometry's length is within 1% of the response's own `distance`.
func expectLengthWithinOnePercent(_ imported: RouteImporter.Imported) throws {
    let distance = try #require(imported.responseDistance)
    #expect(abs(imported.length - distance) <= 0.01 * distance)
}

/// Hostile numbers in a response never trap the import (issue 21).
@Suite struct HostileNumberTests {
    /// A three-step response with `distance` for the route and `duration` for the middle step.
    static func response(distance: String, duration: String) -> [UInt8] {
        Array(
            #"{"routes":[{"distance":\#(distance),"geometry":{"type":"LineString","coordinates":[[127,37],[127.001,37],[127.001,37.001]]},"legs":[{"steps":[{"maneuver":{"type":"depart","location":[127,37]},"distance":89,"duration":8},{"maneuver":{"type":"turn","modifier":"left","location":[127.001,37]},"distance":111,"duration":\#(duration)},{"maneuver":{"type":"arrive","location":[127.001,37.001]},"distance":0,"duration":0}]}]}]}"#
                .utf8)
    }
    static let options = RouteImporter.Options(language: .en, source: "t")

    @Test(arguments: ["9.3e18", "9223372036854775807", "1e300"])
    func aRouteDistanceBeyondInt64IsAWarningNotATrap(distance: String) throws {
        let imported = try RouteImporter.importRoute(
            Self.response(distance: distance, duration: "10"), options: Self.options)
        #expect(
            imported.warnings.contains {
                if case .lengthDiffers(_, let r) = $0.kind { r == 1_000_000_000_000_000 } else { false }
            })
    }

    @Test(arguments: ["1e300", "1.7e308"])
    func aStepDurationOfAnAgeIsClampedNotATrap(duration: String) throws {
        let imported = try RouteImporter.importRoute(
            Self.response(distance: "200", duration: duration), options: Self.options)
        #expect(imported.warnings.contains { if case .speedClamped = $0.kind { true } else { false } })
    }

    @Test func aNumberBeyondADoubleIsOutOfRangeNotNotANumber() {
        #expect(throws: ImportProblem(.numberOutOfRange("1e400"), at: "routes[0].distance")) {
            try RouteImporter.importRoute(Self.response(distance: "1e400", duration: "10"), options: Self.options)
        }
    }
}

/// Import cost (issue 21): linear in the response, and what `run` could not read back refused with the figure.
@Suite struct ImportCostTests {
    /// An OSRM response of `n` steps `spacing` m apart, zigzagging east and north, each a turn.
    static func zigzag(_ n: Int, spacing: Double = 20) -> [UInt8] {
        let mlat = 1 / 111_320.0
        let mlon = 1 / (111_320.0 * 0.79335334)  // cos(37.5°)
        var points: [(Double, Double)] = [(127.0, 37.5)]
        for i in 0..<n {
            let (lon, lat) = points[points.count - 1]
            points.append(i % 2 == 0 ? (lon + spacing * mlon, lat) : (lon, lat + spacing * mlat))
        }
        func at(_ p: (Double, Double)) -> String { "[\(p.0),\(p.1)]" }
        var steps: [String] = []
        for i in 0..<n {
            let maneuver =
                i == 0
                ? #"{"type":"depart","location":\#(at(points[0]))}"#
                : #"{"type":"turn","modifier":"\#(i % 2 == 1 ? "left" : "right")","location":\#(at(points[i]))}"#
            steps.append(
                #"{"maneuver":\#(maneuver),"name":"street \#(i)","distance":\#(spacing),"duration":\#(spacing / 10)}"#)
        }
        steps.append(#"{"maneuver":{"type":"arrive","location":\#(at(points[n]))},"distance":0,"duration":0}"#)
        let line = points.map(at).joined(separator: ",")
        return Array(
            #"{"code":"Ok","routes":[{"distance":\#(Double(n) * spacing),"geometry":{"type":"LineString","coordinates":[\#(line)]},"legs":[{"steps":[\#(steps.joined(separator: ","))]}]}]}"#
                .utf8)
    }

    // A hang guard, not a speed check: a drive of the whole road per maneuver left out took 20 s.
    @Test(.timeLimit(.minutes(1))) func manyManeuversTooCloseToAnnounceAreLeftOut() throws {
        // 300 steps 20 m apart: most are left out.
        let imported = try RouteImporter.importRoute(
            Self.zigzag(300), options: RouteImporter.Options(language: .en, source: "z"))
        #expect(imported.warnings.filter { if case .cannotAnnounce = $0.kind { true } else { false } }.count > 100)
        // What is kept is announced: no maneuver passes unannounced (but in a "then").
        #expect(RouteImporter.unannounced(imported.scenario).isEmpty)
    }

    @Test func aGeometryOfMorePointsThanAScenarioHoldsIsRefusedWithTheFigure() {
        var options = RouteImporter.Options(language: .en, source: "z")
        options.maxPoints = 100
        #expect(throws: ImportProblem(.tooManyPoints(count: 201, limit: 100), at: "routes[0].geometry")) {
            try RouteImporter.importRoute(Self.zigzag(200), options: options)
        }
    }
}
