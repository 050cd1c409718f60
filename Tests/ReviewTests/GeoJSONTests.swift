import CLITestSupport
@testable import Review
@testable import ScenarioFormat
import TestSupport
import Testing

/// `run --format geojson`: coordinates at 6 decimals (0.11 m), times in
/// integer milliseconds as the timeline's `t`.
@Suite struct GeoJSONTests {
    /// Every number literal under `value`'s `coordinates`.
    static func coordinates(_ value: JSONValue, inside: Bool = false) -> [String] {
        switch value.kind {
        case .number(let literal): return inside ? [literal] : []
        case .array(let items): return items.flatMap { coordinates($0, inside: inside) }
        case .object(let members): return members.flatMap { coordinates($0.value, inside: inside || $0.key == "coordinates") }
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
        guard case .array(let events)? = try JSONParser.parse(Array(timeline.utf8))["events"]?.kind else { Issue.record("no events"); return }
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
            guard case .number(let literal)? = fix["properties"]?["takenMs"]?.kind else { Issue.record("no takenMs: \(fix)"); continue }
            #expect(Int64(literal) != nil, "\(literal) is whole milliseconds")
        }
    }
}
