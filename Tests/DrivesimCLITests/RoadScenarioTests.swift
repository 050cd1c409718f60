import CLITestSupport
import Foundation
import Guidance
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

/// A scenario whose road section is `road`.
private func withRoad(_ road: String) -> String { #"{"drivesim": 1, "name": "t", "road": "# + road + "}" }

private let points = #"[{"lat": 37.5, "lon": 127.0}, {"lat": 37.5, "lon": 127.01}]"#
private let drive = #""drive": {"speeds": [{"from": 0, "kmh": 50}]}"#

private func failure(_ text: String) -> ScenarioError? {
    do {
        _ = try ScenarioDecoder.decode(Array(text.utf8), file: "road.json")
        return nil
    } catch {
        return error
    }
}

@Suite struct RoadDecodingTests {
    @Test(
        arguments: [
            (
                withRoad(#"{"language": "en", "route": {"points": [{"lat": 37.5, "lon": 127.0}]}, "# + drive + "}"),
                ScenarioError.Reason.invalid(.road(.route(.tooFewPoints))), "road.route.points"
            ),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": "# + points
                        + #"}, "fixes": {"recorded": [{"at": 2, "lat": 37.5, "lon": 127.0}, {"at": 1, "lat": 37.5, "lon": 127.0}]}}"#
                ),
                .invalid(.road(.fixTimeBackwards)), "road.fixes.recorded[1].at"
            ),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": "# + points
                        + #"}, "drive": {"speeds": [{"from": 0, "kmh": -5}]}}"#),
                .invalid(.road(.negative)), "road.drive.speeds[0].kmh"
            ),
            (
                withRoad(#"{"language": "de", "route": {"points": "# + points + "}, " + drive + "}"),
                .unknownValue("de", allowed: ["ko", "en"], suggestion: nil), "road.language"
            ),
            (withRoad(#"{"route": {"points": "# + points + "}, " + drive + "}"), .missingField("language"), "road"),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": [{"lat": 37.5, "lon": 127.0}, {"lat": 37.5, "lonn": 127.0}]}, "#
                        + drive + "}"),
                .unknownKey("lonn", suggestion: "lon"), "road.route.points[1].lonn"
            ),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": [{"lat": 37.5, "lon": 127.0}, {"lat": 97.5, "lon": 127.0}]}, "#
                        + drive + "}"),
                .invalid(.road(.coordinateOutOfRange)), "road.route.points[1].lat"
            ),
            (
                withRoad(#"{"language": "en", "route": {"points": "# + points + "}}"), .invalid(.road(.driveMissing)),
                "road"
            ),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": "# + points
                        + #"}, "fixes": {"recorded": [{"at": 2, "arrives": 1, "lat": 37.5, "lon": 127.0}]}}"#),
                .invalid(.road(.arrivesBeforeTaken)), "road.fixes.recorded[0].arrives"
            ),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": "# + points + "}, " + drive
                        + #", "link": {"outages": [{"from": 5, "to": 5}]}}"#),
                .invalid(.road(.emptyWindow)), "road.link.outages[0].to"
            ),
            (
                withRoad(
                    #"{"language": "en", "route": {"points": "# + points + "}, " + drive
                        + #", "fixes": {"jitterr": 1}}"#),
                .unknownKey("jitterr", suggestion: "jitter"), "road.fixes.jitterr"
            ),
        ] as [(String, ScenarioError.Reason, String)])
    func badRoadInputIsRefusedWithReasonAndPath(text: String, reason: ScenarioError.Reason, path: String) throws {
        let error = try #require(failure(text))
        #expect(error.reason == reason)
        #expect(error.path == path)
    }

    /// The distance is measured on the earth, so the test reads it whole, as the message does.
    @Test func aManeuverOffTheRouteSaysHowFarOffItLies() throws {
        let text = withRoad(
            #"{"language": "en", "route": {"points": "# + points
                + #", "maneuvers": [{"id": "m1", "lat": 37.501, "lon": 127.005, "turn": "left"}]}, "# + drive + "}")
        let error = try #require(failure(text))
        guard case .invalid(.road(.route(.maneuverOffRoute(index: 0, let meters)))) = error.reason else {
            Issue.record("\(error.reason)")
            return
        }
        #expect(Int(meters) == 111)
        #expect(error.path == "road.route.maneuvers[0]")
        #expect(
            error.reason.message
                == "the maneuver lies 111 m from the route; it must be within 15 m, after the previous maneuver")
    }

    @Test func badRoadInputExitsWithCodeTwoNamingThePath() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(
            withRoad(#"{"language": "en", "route": {"points": [{"lat": 37.5, "lon": 127.0}]}, "# + drive + "}"),
            "short.json", in: folder)
        let result = Fixtures.drivesim("run", file)
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("short.json")
                && result.stderr.contains("road.route.points: a route needs at least two points"))
    }

    @Test(arguments: Fixtures.scenarioFiles.filter { $0.path.contains("/road/") })
    func roadScenariosRoundTripThroughTheEncoder(file: ScenarioFile) throws {
        let scenario = try ScenarioFiles.load(file.path).get()
        let again = try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "again")
        #expect(again == scenario)
    }
}

@Suite struct RoadSimulationTests {
    @Test func theCorpusHasTenRoadScenarios() {
        #expect(ScenarioFiles.discover([Fixtures.path("Scenarios/road")]).count >= 10)
    }

    @Test func theGeneratedTwoHourRoadDriveKeepsEveryInvariant() throws {
        let scenario = GeneratedDrive.roadScenario(seed: 1)
        let verdict = try Verdict(scenario)
        #expect(verdict.violations.isEmpty, "\(verdict.report)")
        let road = verdict.simulation.timeline.roster.road
        #expect(road.maneuvers.count == 100)
        #expect(road.fixCount > 7_000)
    }

    @Test(arguments: 1...5 as ClosedRange<UInt64>)
    func seededRoadDrivesKeepEveryInvariant(seed: UInt64) throws {
        let scenario = GeneratedDrive.roadScenario(seed: seed, maneuvers: 15, replies: 60, utterances: 10)
        let verdict = try Verdict(scenario)
        #expect(verdict.violations.isEmpty, "seed \(seed): \(verdict.report)")
    }

    @Test func generatedLinesEnterTheArbiterLikeHandWrittenOnes() throws {
        let scenario = try ScenarioFiles.load(Fixtures.path("Scenarios/road/two-turns-150m.json")).get()
        let run = try Simulation(scenario)
        let requested = run.timeline.events.filter { $0.kind == .guidanceRequested }
        let ended = run.timeline.events.filter { $0.kind == .guidanceEnded }
        #expect(requested.count == run.timeline.roster.road.lines.count)
        #expect(ended.count == requested.count)
    }
}

@Suite struct ImportGPXTests {
    let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><trkseg>
            <trkpt lat="37.4979" lon="127.0276"><time>2024-05-01T09:00:00Z</time></trkpt>
            <trkpt lat="37.4980" lon="127.0280"><time>2024-05-01T09:00:01.250Z</time></trkpt>
            <trkpt lat="37.4981" lon="127.0284"><time>2024-05-01T18:00:03+09:00</time></trkpt>
          </trkseg></trk>
        </gpx>
        """

    @Test func aTrackBecomesRecordedFixesKeepingItsTimestamps() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(gpx, "drive.gpx", in: folder)
        let result = Fixtures.drivesim("import-gpx", file)
        #expect(result.code == 0, "\(result.stderr)")
        let road = withRoad(
            #"{"language": "en", "route": {"points": [{"lat": 37.4979, "lon": 127.0276}, {"lat": 37.4981, "lon": 127.0284}]}, "fixes": "#
                + result.stdout + "}")
        let scenario = try ScenarioDecoder.decode(Array(road.utf8), file: "gpx")
        guard case .recorded(let fixes)? = scenario.road?.fixes else {
            Issue.record("not recorded")
            return
        }
        #expect(fixes.map(\.taken) == [SimTime(ms: 0), SimTime(ms: 1_250), SimTime(ms: 3_000)])
        #expect(fixes[1].point.latitude == 37.498)
    }

    @Test(arguments: [
        ("<html><body>no</body></html>", "the root element is <html>, not <gpx>"),
        ("{\"drivesim\": 1}", "not a GPX file"),
        ("<gpx><trk><trkseg></trkseg></trk></gpx>", "no track points"),
        (
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt><trkpt lat=\"1\" lon=\"2\"><time>soon</time></trkpt></trkseg></trk></gpx>",
            "no usable track point: all 2 were skipped"
        ),
    ])
    func aFileThatIsNotAUsableGPXTrackExitsWithCodeTwo(text: String, reason: String) throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(text, "bad.gpx", in: folder)
        let result = Fixtures.drivesim("import-gpx", file)
        #expect(result.code == 2)
        #expect(result.stderr.contains(file) && result.stderr.contains(reason), "\(result.stderr)")
    }
}
