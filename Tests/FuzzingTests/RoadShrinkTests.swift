import CLITestSupport
import Foundation
import Guidance
import Road
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import ScenarioFormat
@testable import SimRunner

/// The shrinker shrinks the road: a road mutant's reproducer keeps a handful
/// of route points (the campaign finds them on routes of 146–263) and still
/// fails the same check, from the file as written.
@Suite struct RoadShrinkTests {
    /// The most route points a seed-1 road mutant's reproducer may keep (each keeps 2 or 3).
    static let maxPoints = 4

    /// The first failure of `name`'s seed-1 campaign by the check the mutant is meant to trip.
    static func failure(_ name: String) throws -> (mutant: Mutant, check: Check, failure: Fuzzer.Failure) {
        let mutant = try #require(Mutant(name: name))
        let check = try #require(RoadFuzzTests.caughtBy[name])
        var settings = Fuzzer.Settings()
        settings.mutant = mutant
        var fuzzer = Fuzzer(settings)
        for index in 0..<RoadFuzzTests.within(name)
        where !fuzzer.failures.contains(where: { $0.violation.check == check }) { fuzzer.run(index) }
        let failure = try #require(fuzzer.failures.first { $0.violation.check == check }, "\(name) was not caught")
        return (mutant, check, failure)
    }

    @Test(arguments: RoadFuzzTests.roadMutants)
    func aRoadMutantsReproducerKeepsAHandfulOfPointsAndStillFailsTheSameCheckFromItsFile(name: String) throws {
        let (mutant, check, failure) = try Self.failure(name)
        var shrinker = Shrinker(check: check, mutant: mutant)
        let small = shrinker.shrink(failure.scenario)
        let road = try #require(small.road)
        #expect(
            road.points.count <= Self.maxPoints,
            "\(name): \(road.points.count) of \(failure.scenario.road?.points.count ?? 0) points")
        #expect(road.points.count <= failure.scenario.road?.points.count ?? 0)
        #expect(small.isValid)
        #expect(shrinker.attempts < Shrinker.defaultBudget)
        // A road still, not a point: no two neighbouring points the same, the last segment
        // 100 m or more (less what rounding to 4 decimals moves its ends: 7 m each at most).
        #expect(!zip(road.points, road.points.dropFirst()).contains { $0 == $1 }, "\(name)")
        let route = try road.placedRoute()
        #expect(
            route.length - route.cumulative[route.cumulative.count - 2] >= Shrinker.shortestLastSegment - 14,
            "\(name): \(route.length) m")
        // Written and read back, as `drivesim run FILE --mutant NAME` replays it: the same check fails.
        let file = ReproducerFile.fileName(check: check, mutant: mutant, seed: 1, run: failure.run)
        let violation = try #require(Fuzzer.violations(of: small, mutant: mutant).first { $0.check == check })
        let ready = ReproducerFile.prepare(
            small, check: check, violation: violation, mutant: mutant, seed: 1, run: failure.run,
            unshrunkSize: Shrinker.size(of: failure.scenario), file: file)
        let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(ready), file: file)
        #expect(decoded.road?.points.count == road.points.count)
        #expect(
            Verdict(decoded, fault: nil, roadPlan: mutant.roadPlan).violations.contains { $0.check == check },
            "\(name) replays")
        #expect(Verdict(decoded, fault: nil).passed, "\(name): the real road passes it")
        // Deterministic: the same failure shrinks to the same scenario in the same tries.
        var again = Shrinker(check: check, mutant: mutant)
        #expect(again.shrink(failure.scenario) == small)
        #expect(again.attempts == shrinker.attempts)
    }

    @Test func aDenseRouteLosesItsStraightVerticesAndKeepsItsCorners() {
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        // East 300 m, then north 200 m, a vertex every 10 m.
        var plane = (0...30).map { Vector(x: Double($0) * 10, y: 0) }
        plane += (1...20).map { Vector(x: 300, y: Double($0) * 10) }
        let points = plane.map(projection.unproject)
        #expect(Shrinker.withoutStraightVertices(points) == [points[0], points[30], points[50]])
        // A vertex 5 cm off the line is a corner, however small; its neighbours
        // lie 4.5 cm off the lines to it, so they stay too: the polyline is the same.
        var bent = points
        bent[10] = projection.unproject(Vector(x: 100, y: 0.05))
        #expect(
            Shrinker.withoutStraightVertices(bent) == [
                points[0], points[9], bent[10], points[11], points[30], points[50],
            ])
        // A vertex that doubles back is not between its neighbours: it stays.
        let back = [Vector(x: 0, y: 0), Vector(x: 100, y: 0), Vector(x: 50, y: 0)].map(projection.unproject)
        #expect(Shrinker.withoutStraightVertices(back) == back)
    }

    @Test func aRouteStartedAtALaterVertexReachesItsFirstManeuverWhenItDid() throws {
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        let plane = [Vector(x: 0, y: 0), Vector(x: 400, y: 0), Vector(x: 400, y: 600), Vector(x: 900, y: 600)]
        let points = plane.map(projection.unproject)
        let turn = Scenario.ManeuverSpec(id: "m0", point: points[2], turn: .right)
        let arrive = Scenario.ManeuverSpec(id: "m1", point: points[3], turn: .arrive)
        let profile = SpeedProfile(
            steps: [.init(from: 0, speed: 15), .init(from: 200, speed: 20)],
            stops: [.init(at: 100, dwell: SimTime(ms: 5_000))])
        var scenario = Scenario(name: "later start")
        scenario.road = Scenario.Road(
            language: .en, points: points, maneuvers: [turn, arrive], drive: Scenario.Drive(profile: profile))
        let later = try #require(Shrinker.starting(scenario, atVertex: 1))
        let road = try #require(later.road)
        let drive = try #require(road.drive)
        #expect(road.points == Array(points.dropFirst()))
        // 400 m cut: the step from 200 m is now the first, the stop at 100 m is gone.
        #expect(drive.profile.steps == [SpeedProfile.Step(from: 0, speed: 20)])
        #expect(drive.profile.stops.isEmpty)
        #expect(later.isValid)
        func passes(_ s: Scenario) throws -> SimTime {
            let r = try #require(s.road)
            let route = try r.placedRoute()
            let trajectory = Trajectory(profile: r.drive!.profile, length: route.length, start: r.drive!.start)
            return try #require(trajectory.time(reaching: route.maneuvers[0].distance))
        }
        // The drive sets off a whole number of fixes later, and reaches the turn within one fix of when it did.
        #expect(drive.start.ms % FixGenerator().every.ms == 0 && drive.start > .zero)
        #expect(abs(try passes(later).ms - passes(scenario).ms) <= FixGenerator().every.ms / 2)
        #expect(
            Shrinker.starting(scenario, atVertex: 2) == nil, "the vertex the first maneuver lies at is not before it")
        #expect(Shrinker.starting(scenario, atVertex: 0) == nil, "nothing cut")
    }

    @Test func theBudgetBoundsTheTriesAndKeepsTheSmallestFoundSoFar() throws {
        let (mutant, check, failure) = try Self.failure("link-queues-busy")
        var none = Shrinker(check: check, mutant: mutant)
        none.budget = 0
        var unshrunk = failure.scenario
        unshrunk.expect = []
        #expect(none.shrink(failure.scenario) == unshrunk)
        #expect(none.attempts == 0)
        var few = Shrinker(check: check, mutant: mutant)
        few.budget = 3
        let small = few.shrink(failure.scenario)
        #expect(few.attempts == 3)
        #expect(Fuzzer.violations(of: small, mutant: mutant).contains { $0.check == check })
        #expect(Shrinker.size(of: small) <= Shrinker.size(of: failure.scenario))
    }

    @Test func aRoadMutantCampaignWritesAReproducerOfAHandfulOfPointsThatRunReplays() throws {
        let folder = try Fixtures.temporaryFolder()
        #expect(
            Fixtures.drivesim("fuzz", "--mutant", "link-no-timeout", "--runs", "20", "--jobs", "1", "--out", folder)
                .code == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let file = try #require(files.first { $0.hasPrefix("road-link-honest-link-no-timeout-seed-1-run-") })
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))
        let route = try #require(((json as? [String: Any])?["road"] as? [String: Any])?["route"] as? [String: Any])
        let points = try #require(route["points"] as? [Any])
        #expect(points.count <= Self.maxPoints, "\(points.count) points")
        #expect(Fixtures.drivesim("run", folder + "/" + file, "--mutant", "link-no-timeout").code == 1)
        #expect(Fixtures.drivesim("run", folder + "/" + file).code == 0)
    }
}
