import CLITestSupport
import Foundation
import Road
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import RouteImport
@testable import ScenarioFormat
@testable import SimRunner

/// `import-gpx --route-from-track`: a scenario that runs as written, its
/// route the track simplified, its fixes the track's points.
@Suite struct RouteFromTrackTests {
    @Test func theSampleTracksScenarioRunsAsWritten() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = folder + "/track.json"
        let imported = Fixtures.drivesim(
            "import-gpx", Fixtures.path("Scenarios/gpx/sample-drive.gpx"), "--route-from-track", "--language", "en",
            "--out", out)
        #expect(imported.code == 0, "\(imported.stderr)")
        let scenario = try ScenarioFiles.load(out).get()
        let road = try #require(scenario.road)
        guard case .recorded(let fixes) = road.fixes else {
            Issue.record("not recorded fixes")
            return
        }
        #expect(fixes.count == 40, "every track point a fix")
        #expect(road.points.count >= 2 && road.points.count < 10, "simplified: \(road.points.count) points")
        #expect(road.maneuvers.last?.turn == .arrive)
        #expect(road.drive == nil)
        let run = Fixtures.drivesim("run", out)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("guidance  started"), "the road speaks")
        #expect(Fixtures.drivesim("check", out).stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func theLanguageIsRequiredAndTheFlagsExcludeEachOther() {
        let gpx = Fixtures.path("Scenarios/gpx/sample-drive.gpx")
        #expect(
            thrown(["import-gpx", gpx, "--route-from-track"])
                == .usage(.missingOption(option: "--language", allowed: ["ko", "en"])))
        #expect(
            thrown(["import-gpx", gpx, "--language", "en"])
                == .usage(.needsOption(flag: "--language", option: "--route-from-track")))
        #expect(
            thrown(["import-gpx", gpx, "--route-from-track", "--language", "en", "--road"])
                == .usage(.excludes("--route-from-track", "--road")))
        if case .usage(.unknownValue(let option, "fr", _, _))? = thrown([
            "import-gpx", gpx, "--route-from-track", "--language", "fr",
        ]) {
            #expect(option == "--language")
        } else {
            Issue.record("--language fr is not refused as an unknown value")
        }
    }

    @Test func simplifyingKeepsTheEndsAndEveryCornerAndDropsTheJitter() {
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127))
        // East 300 m with ±2 m of jitter, then north 200 m: an L.
        var track: [GeoPoint] = []
        for i in 0...30 { track.append(projection.unproject(Vector(x: Double(i) * 10, y: i % 2 == 0 ? 2 : -2))) }
        for i in 1...20 { track.append(projection.unproject(Vector(x: 300, y: Double(i) * 10))) }
        let kept = RouteImporter.simplified(track)
        #expect(kept.count == 3, "\(kept.count) points")
        #expect(kept.first == track.first)
        #expect(kept.last == track.last)
        #expect(kept.contains(track[30]), "the corner")
        #expect(RouteImporter.simplified(Array(track.prefix(2))) == Array(track.prefix(2)))
    }
}
