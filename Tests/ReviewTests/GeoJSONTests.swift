import CLITestSupport
import Guidance
import Road
import TestSupport
import Testing

@testable import Review
@testable import ScenarioFormat

/// `run --format geojson`: coordinates at 6 decimals (0.11 m), times in
/// integer milliseconds as the timeline's `t`.
@Suite struct GeoJSONTests {
    /// Every number literal under `value`'s `coordinates`.
    static func coordinates(_ value: JSONValue, inside: Bool = false) -> [String] {
        switch value.kind {
        case .number(let literal): return inside ? [literal] : []
        case .array(let items): return items.flatMap { coordinates($0, inside: inside) }
        case .object(let members):
            return members.flatMap { coordinates($0.value, inside: inside || $0.key == "coordinates") }
        default: return []
        }
    }

    static func features(_ file: String) throws -> [JSONValue] {
        let out = Fixtures.drivesim("run", Fixtures.path(file), "--format", "geojson").stdout
        guard case .array(let features)? = try JSONParser.parse(Array(out.utf8))["features"]?.kind else { return [] }
        return features
    }

    @Test func degreesAreRoundedToSixDecimalsAndWrittenShortest() {
        #expect(GeoJSONNumbers.degrees(37.50018312) == .number("37.500183"))
        #expect(GeoJSONNumbers.degrees(127.0557) == .number("127.0557"))
        #expect(GeoJSONNumbers.degrees(-0.0000005) == .number("-0.000001"), "half away from zero")
        #expect(GeoJSONNumbers.degrees(-122.4194) == .number("-122.4194"))
        #expect(GeoJSONNumbers.degrees(127) == .integer(127))
        #expect(GeoJSONNumbers.degrees(126.9999999) == .integer(127))
    }

    @Test(arguments: ["Scenarios/routes/roundabout.json", "Scenarios/road/busy-link.json"])
    func everyCoordinateHasAtMostSixDecimals(file: String) throws {
        let features = try Self.features(file)
        let literals = features.flatMap { Self.coordinates($0) }
        #expect(!literals.isEmpty)
        for literal in literals {
            let decimals = literal.split(separator: ".").dropFirst().first?.count ?? 0
            #expect(decimals <= 6 && !literal.contains("e"), "\(literal)")
        }
    }

    @Test func timesAreTheTimelinesMillisecondsAsIntegers() throws {
        let file = "Scenarios/road/busy-link.json"
        let features = try Self.features(file)
        let timeline = Fixtures.drivesim("run", Fixtures.path(file), "--format", "json").stdout
        guard case .array(let events)? = try JSONParser.parse(Array(timeline.utf8))["events"]?.kind else {
            Issue.record("no events")
            return
        }
        let started = events.filter { $0["event"] == .string("guidance.started") }.compactMap { $0["t"] }
        let spoken = features.filter { $0["properties"]?["kind"] == .string("spoken") }
        #expect(!spoken.isEmpty)
        for feature in spoken {
            let t = try #require(feature["properties"]?["t"])
            #expect(started.contains(t), "spoken at \(t), a guidance.started's t")
        }
        let fixes = features.filter { $0["properties"]?["kind"] == .string("fix") }
        #expect(!fixes.isEmpty)
        for fix in fixes {
            guard case .number(let literal)? = fix["properties"]?["takenMs"]?.kind else {
                Issue.record("no takenMs: \(fix)")
                continue
            }
            #expect(Int64(literal) != nil, "\(literal) is whole milliseconds")
        }
    }
}

/// `run --format geojson` with route changes (issue 41): every route of the
/// drive, the true path, each change's maneuvers, the switches and the
/// handoff taken; fixes and spoken lines along the true path.
@Suite struct GeoJSONRouteChangeTests {
    static func drawn(_ file: String) throws -> [JSONValue] {
        try GeoJSONTests.features(file).filter {
            $0["properties"]?["kind"] != .string("fix") && $0["properties"]?["kind"] != .string("spoken")
        }
    }

    /// A feature as one line, its members in key order (as written).
    static func compact(_ v: JSONValue) -> String {
        String(decoding: JSONWriter.bytes(v, pretty: false), as: UTF8.self)
    }

    @Test func theRoutesTheTruePathTheManeuversAndTheSwitchArePinned() throws {
        let lines = try Self.drawn("Scenarios/road/reroute-onto-another-road.json").map(Self.compact)
        #expect(
            lines == [
                #"{"geometry":{"coordinates":[[127.0276,37.4979],[127.044603,37.4979],[127.044603,37.492504]],"type":"LineString"},"properties":{"kind":"route","meters":2100},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[[127.032,37.4979],[127.032,37.5069],[127.04,37.5069]],"type":"LineString"},"properties":{"change":"reroute","kind":"route","meters":1706,"route":"r1"},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[[127.0276,37.4979],[127.032,37.4979],[127.032,37.5069],[127.04,37.5069]],"type":"LineString"},"properties":{"kind":"true-path","meters":2095},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[127.044603,37.4979],"type":"Point"},"properties":{"distance":1500,"id":"m1","kind":"maneuver","turn":"right"},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[127.044603,37.492504],"type":"Point"},"properties":{"distance":2100,"id":"m2","kind":"maneuver","turn":"arrive"},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[127.032,37.5069],"type":"Point"},"properties":{"distance":1001,"id":"r1m1","kind":"maneuver","route":"r1","turn":"right"},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[127.04,37.5069],"type":"Point"},"properties":{"distance":1706,"id":"r1m2","kind":"maneuver","route":"r1","turn":"arrive"},"type":"Feature"}"#,
                #"{"geometry":{"coordinates":[127.032,37.498747],"type":"Point"},"properties":{"kind":"route-switched","reason":"off-route","route":"r1","t":38200},"type":"Feature"}"#,
            ])
    }

    @Test func theSameDriveWritesTheSameBytes() {
        let file = Fixtures.path("Scenarios/routes/gangnam-reroute-handoff.json")
        let a = Fixtures.drivesim("run", file, "--format", "geojson")
        let b = Fixtures.drivesim("run", file, "--format", "geojson")
        #expect(a.code == 0)
        #expect(a.stdout == b.stdout)
    }

    @Test func aHandoffIsDrawnWhereItWasTakenAndEachSwitchAtItsTime() throws {
        let file = "Scenarios/routes/gangnam-reroute-handoff.json"
        let drawn = try Self.drawn(file)
        let routes = drawn.filter { $0["properties"]?["kind"] == .string("route") }
        #expect(routes.map { $0["properties"]?["route"] } == [nil, .string("r1"), .string("h1")])
        #expect(routes.map { $0["properties"]?["change"] } == [nil, .string("reroute"), .string("handoff")])
        #expect(drawn.filter { $0["properties"]?["kind"] == .string("true-path") }.count == 1)
        let taken = drawn.filter { $0["properties"]?["kind"] == .string("handoff-taken") }
        #expect(taken.map { $0["properties"]?["handoff"] } == [.string("h1")])
        let switched = drawn.filter { $0["properties"]?["kind"] == .string("route-switched") }
        #expect(switched.map { $0["properties"]?["route"] } == [.string("r1"), .string("h1")])
        // Each switch's `t` is its timeline event's.
        let timeline = Fixtures.drivesim("run", Fixtures.path(file), "--format", "json").stdout
        guard case .array(let events)? = try JSONParser.parse(Array(timeline.utf8))["events"]?.kind else {
            Issue.record("no events")
            return
        }
        let times = events.filter { $0["event"] == .string("road.route.switched") }.compactMap { $0["t"] }
        #expect(switched.compactMap { $0["properties"]?["t"] } == times)
    }

    @Test func fixesAfterTheSwitchLieOnTheNewRoadNotTheOldRoute() throws {
        // Before: fixes were drawn along the first route, 1 km from where the car was.
        let file = "Scenarios/road/reroute-onto-another-road.json"
        let features = try GeoJSONTests.features(file)
        let path = try #require(try Fixtures.scenario("road/reroute-onto-another-road").road?.truePath())
        let fixes = features.filter { $0["properties"]?["kind"] == .string("fix") }
        #expect(fixes.count > 100)
        var far = 0.0
        for fix in fixes {
            guard case .array(let c)? = fix["geometry"]?["coordinates"]?.kind, case .number(let lon) = c[0].kind,
                case .number(let lat) = c[1].kind,
                let x = Double(lon), let y = Double(lat)
            else {
                Issue.record("\(fix)")
                continue
            }
            let v = path.route.projection.project(GeoPoint(latitude: y, longitude: x))
            far = max(far, path.route.nearest(to: v, from: 0, to: path.route.length).offset)
        }
        #expect(far < 40, "every fix within its noise of the true path, the farthest \(far) m")
    }
}
