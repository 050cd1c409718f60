import Guidance
import Road
import SimClock
import SimRunner
import TestSupport
import Testing

/// Values built with the public initializers, without the decoder: a bad one
/// is refused with a typed problem by the run, never run into a trap.
@Suite struct PublicValidationTests {
    /// A 1.1 km road with a drive at 36 km/h: valid as it stands.
    static func road() -> RoadSetup {
        let a = GeoPoint(latitude: 37.5, longitude: 127.0)
        let b = GeoPoint(latitude: 37.51, longitude: 127.0)
        return RoadSetup(
            language: .en, points: [a, b],
            drive: RoadSetup.Drive(profile: SpeedProfile(steps: [.init(from: 0, speed: 10)])))
    }

    static func problem(_ road: RoadSetup) -> RoadSetup.Problem? {
        do {
            try road.validate()
            return nil
        } catch { return error }
    }

    static func problem(_ scenario: Scenario) -> ScenarioProblem? {
        do {
            _ = try Verdict(scenario)
            return nil
        } catch { return error }
    }

    @Test func aRoadBuiltInCodeThatIsValidIsPlannedAndRun() throws {
        #expect(Self.problem(Self.road()) == nil)
        let plan = try RoadPlan(Self.road())
        #expect(plan.fixCount > 0)
        let verdict = try Verdict(Scenario(name: "road", road: Self.road()))
        #expect(verdict.violations.isEmpty, "\(verdict.violations)")
    }

    @Test func aRouteOfOnePointIsAProblemNotATrap() {
        var road = Self.road()
        road.points.removeLast()
        #expect(Self.problem(road) == RoadSetup.Problem(.route(.tooFewPoints), at: [.key("route"), .key("points")]))
        #expect(throws: RoadSetup.Problem(.route(.tooFewPoints), at: [.key("route"), .key("points")])) {
            try RoadPlan(road)
        }
        #expect(
            Self.problem(Scenario(name: "one point", road: road))
                == ScenarioProblem(.road(.route(.tooFewPoints)), at: [.key("road"), .key("route"), .key("points")]))
    }

    @Test func aManeuverFarFromTheRouteIsAProblemNotATrap() throws {
        var road = Self.road()
        road.maneuvers = [.init(id: "m1", point: GeoPoint(latitude: 37.505, longitude: 127.01), turn: .left)]
        let problem = try #require(Self.problem(road))
        #expect(problem.path == [.key("route"), .key("maneuvers"), .index(0)])
        guard case .route(.maneuverOffRoute(index: 0, _)) = problem.reason else {
            Issue.record("expected maneuverOffRoute, got \(problem.reason)")
            return
        }
    }

    @Test func fixesEveryZeroMillisecondsIsRefusedBeforeItCouldLoopForever() {
        var road = Self.road()
        var generator = FixGenerator()
        generator.every = .zero
        road.fixes = .generated(generator)
        #expect(
            Self.problem(road)
                == RoadSetup.Problem(
                    .timeOutOfRange(SimTime(ms: 100)...SimTime(ms: 3_600_000)), at: [.key("fixes"), .key("every")]))
    }

    @Test func aLinkWithANegativeLatencyIsRefused() {
        var road = Self.road()
        road.link = LocationLink(latency: SimTime(ms: -1))
        #expect(
            Self.problem(road)
                == RoadSetup.Problem(
                    .timeOutOfRange(.zero...SimTime(ms: 3_600_000)), at: [.key("link"), .key("latency")]))
    }

    @Test func aSpeedOfZeroIsRefusedBeforeTheDriveCouldNeverArrive() {
        var road = Self.road()
        road.drive?.profile.steps[0].speed = 0
        #expect(
            Self.problem(road)
                == RoadSetup.Problem(.notPositive, at: [.key("drive"), .key("speeds"), .index(0), .key("kmh")]))
        road.drive?.profile.steps[0].speed = 0.5
        #expect(
            Self.problem(road)
                == RoadSetup.Problem(
                    .outOfRange(3.6...250.0), at: [.key("drive"), .key("speeds"), .index(0), .key("kmh")]))
    }

    @Test func generatedFixesWithoutADriveAreRefused() {
        var road = Self.road()
        road.drive = nil
        #expect(Self.problem(road) == RoadSetup.Problem(.driveMissing, at: []))
    }

    @Test func aNotANumberCoordinateIsRefused() {
        var road = Self.road()
        road.points[1].latitude = .nan
        #expect(
            Self.problem(road)
                == RoadSetup.Problem(
                    .coordinateOutOfRange, at: [.key("route"), .key("points"), .index(1), .key("lat")]))
    }

    @Test func aScenarioBuiltInCodeWithATimeThatWouldOverflowIsRefused() {
        let huge = SimTime(ms: .max)
        let scenario = Scenario(name: "huge", guidance: [GuidanceLine(id: "g1", at: huge, duration: SimTime(ms: 1000))])
        #expect(
            Self.problem(scenario)
                == ScenarioProblem(.tooLarge(limitSeconds: 86_400), at: [.key("guidance"), .index(0), .key("at")]))
        #expect(throws: ScenarioProblem.self) { try Simulation(scenario) }
    }

    @Test func aReplyWithoutStretchesIsRefusedByTheRun() {
        let scenario = Scenario(name: "empty reply", replies: [Scenario.Reply(id: "r1", at: .zero, stretches: [])])
        #expect(
            Self.problem(scenario)
                == ScenarioProblem(.emptyStretches, at: [.key("replies"), .index(0), .key("stretches")]))
    }

    @Test(arguments: Fixtures.scenarioFiles.filter { $0.path.contains("/road/") })
    func everyCorpusRoadPassesTheRoadsOwnValidation(_ file: ScenarioFile) throws {
        let scenario = try Fixtures.load(file.path)
        let road = try #require(scenario.road)
        #expect(Self.problem(road) == nil, "\(file.path)")
    }
}
