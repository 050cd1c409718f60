import Road
import SimClock
import Testing

/// A route east from the origin, `length` meters, a vertex every `step` meters.
private func eastRoute(_ length: Double, step: Double) throws -> Route {
    let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
    var points: [GeoPoint] = []
    var x = 0.0
    while x < length {
        points.append(projection.unproject(Vector(x: x, y: 0)))
        x += step
    }
    points.append(projection.unproject(Vector(x: length, y: 0)))
    return try Route(points: points)
}

/// Meters to the millimeter: the plane's scale (1 + 10⁻⁹ at 600 m) is no part of what these tests pin.
private func mm(_ meters: Double) -> Double { (meters * 1000).rounded() / 1000 }

private func fix(_ i: Int, _ x: Double, _ y: Double = 0, speed: Double? = 14, accuracy: Double = 5) -> Fix {
    Fix(
        index: i, taken: SimTime(ms: Int64(i) * 1000), arrives: SimTime(ms: Int64(i) * 1000),
        position: Vector(x: x, y: y),
        accuracy: accuracy, speed: speed)
}

@Suite struct DenseMatchingTests {
    @Test func theOffsetIsMeasuredToThePartOfTheRouteTheWindowHolds() throws {
        for step in [10.0, 2_000.0] {
            let route = try eastRoute(2_000, step: step)
            // A point on the route 500 m ahead, searched within 0...200 m: 300 m away, on sparse and dense routes alike.
            let match = route.nearest(to: Vector(x: 500, y: 0), from: 0, to: 200)
            #expect(abs(match.offset - 300) < 1e-4, "step \(step): offset \(match.offset)")
            #expect(abs(match.distance - 200) < 1e-6)
        }
    }

    /// A route that goes round a 20 m block and back onto its own road: 280...300 m and 360...380 m are the same place.
    static func blockLoop() throws -> Route {
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        let corners = [(0.0, 0.0), (0, 300), (20, 300), (20, 280), (0, 280), (0, 700)]
        return try Route(points: corners.map { projection.unproject(Vector(x: $0.0, y: $0.1)) })
    }

    @Test func whereTheRouteRunsOverItselfThePassNearerTheExpectedProgressIsTaken() throws {
        let route = try Self.blockLoop()
        // 0.5 m nearer the second pass's corner than the first pass.
        let p = Vector(x: 1, y: 280.5)
        let nearest = route.nearest(to: p, from: 250, to: 420, heading: 0)
        #expect(nearest.distance > 355)
        let expected = route.nearest(to: p, from: 250, to: 420, heading: 0, expected: 282, tolerance: 5)
        #expect(abs(expected.distance - 280.5) < 1e-6)
        // Beyond the tolerance the nearer pass stands.
        #expect(route.nearest(to: p, from: 250, to: 420, heading: 0, expected: 282, tolerance: 0.4).distance > 355)
        // The two sides of one corner are one pass: near the block's corner at 300 m, the nearest stands.
        let corner = Vector(x: 1, y: 298)
        #expect(
            route.nearest(to: corner, from: 250, to: 420, heading: 0, expected: 303, tolerance: 5).distance
                == route.nearest(to: corner, from: 250, to: 420, heading: 0).distance)
        // Either way the other pass matched as well.
        #expect(expected.otherPass)
        #expect(
            !route.nearest(to: Vector(x: 1, y: 500), from: 250, to: 700, heading: 0, expected: 500, tolerance: 5)
                .otherPass)
    }

    @Test func afterAPauseAFixWhereTheRoutePassesTwiceDoesNotPlaceTheCar() throws {
        let route = try Self.blockLoop()
        var follower = RouteFollower()
        _ = follower.observe(fix(0, 0, 0, speed: 0), on: route)
        follower.measuringPaused()
        // Northbound on the stretch driven twice (280...300 m and 360...380 m): which pass is unknown.
        _ = follower.observe(fix(80, 1, 290, speed: 5), on: route)
        #expect(follower.progress == 0 && follower.matchedAt == nil)
        // Past it, one pass only: placed.
        _ = follower.observe(fix(110, 1, 440, speed: 5), on: route)
        #expect(abs(follower.progress - 520) < 1e-6)
    }

    @Test func theFollowerDoesNotSkipABlockItDrivesRound() throws {
        let route = try Self.blockLoop()
        var follower = RouteFollower()
        // Northbound at 5 m/s with fixes 1 m east of the road: each is 1 m from both passes near 280 m.
        for i in 0...56 {
            _ = follower.observe(fix(i, 1, Double(i) * 5, speed: 5), on: route)
        }
        #expect(follower.progress < 300, "progress \(follower.progress)")
    }

    @Test func aDetourOfAnyLengthIsRejoinedOnADenseRoute() throws {
        let route = try eastRoute(10_000, step: 10)
        for seconds in [12, 180] {
            var follower = RouteFollower()
            var i = 0
            var rejoined = false
            // 10 s on the route, `seconds` 100 m beside it, then on it again.
            while i < 10 + seconds + 10 {
                let beside = i >= 10 && i < 10 + seconds
                if follower.observe(fix(i, Double(i) * 14, beside ? -100 : 0), on: route) == .rejoined {
                    rejoined = true
                }
                i += 1
            }
            #expect(rejoined, "a \(seconds) s detour")
            #expect(!follower.offRoute)
            #expect(abs(follower.progress - Double(i - 1) * 14) < 1)
        }
    }
}

@Suite struct PlausibilityTests {
    @Test func aFixThatJumps150MetersIsNotUsed() throws {
        let route = try eastRoute(2_000, step: 10)
        var follower = RouteFollower()
        for i in 0..<5 { _ = follower.observe(fix(i, Double(i) * 14), on: route) }
        #expect(follower.observe(fix(5, 5 * 14 + 150), on: route) == .implausible)
        #expect(abs(follower.progress - 56) < 1e-6)
        #expect(follower.observe(fix(6, 6 * 14), on: route) == .none)
        #expect(abs(follower.progress - 84) < 1e-6)
    }

    @Test func afterTheLimitOfImplausibleFixesTheNextIsUsed() throws {
        let route = try eastRoute(2_000, step: 10)
        var follower = RouteFollower()
        _ = follower.observe(fix(0, 0), on: route)  // the first fix was the wrong one
        for i in 1...3 { #expect(follower.observe(fix(i, 250 + Double(i) * 14), on: route) == .implausible) }
        #expect(follower.observe(fix(4, 306), on: route) == .none)
        #expect(abs(follower.progress - 306) < 1e-6)
    }

    @Test func aJumpUnderThePlausibleSpeedButBeyondTheCarsOwnIsNotUsed() throws {
        // A car at 9 m/s; a multipath fix 60 m ahead and 40 m aside: 72 m in a second is
        // under 70 m/s once both accuracies are allowed, but no car at 9 m/s gets there.
        let route = try eastRoute(2_000, step: 10)
        var follower = RouteFollower()
        for i in 0..<5 { _ = follower.observe(fix(i, Double(i) * 9, speed: 9), on: route) }
        #expect(follower.observe(fix(5, 36 + 60, 40, speed: 9), on: route) == .implausible)
        #expect(abs(follower.progress - 36) < 1e-6)
        // Speeding up as hard as `plausibleAccel` allows is plausible.
        var hard = RouteFollower()
        _ = hard.observe(fix(0, 0, speed: 9), on: route)
        #expect(hard.observe(fix(1, 9 + 2.5 + 10, speed: 9), on: route) == .none)  // beyond both accuracies (5 m each)
        var off = RouteFollower()
        _ = off.observe(fix(0, 0, speed: 9), on: route)
        #expect(off.observe(fix(1, 9 + 2.5 + 10 + 1, speed: 9), on: route) == .implausible)
    }
}

@Suite struct StandingStillTests {
    /// The progress after each of `fixes`, measuring paused just before fix `pausedBefore`.
    func progress(_ fixes: [Fix], on route: Route, pausedBefore: Int? = nil) -> [Double] {
        var follower = RouteFollower()
        return fixes.indices.map { i in
            if i == pausedBefore { follower.measuringPaused() }
            _ = follower.observe(fixes[i], on: route)
            return mm(follower.progress)
        }
    }

    @Test func noiseAtARedLightDoesNotRatchetProgressForward() throws {
        let route = try eastRoute(1_000, step: 10)
        var follower = RouteFollower()
        _ = follower.observe(fix(0, 488), on: route)
        var random = SplitMix64(seed: 3)
        var stoppedAt: Double? = nil
        for i in 1...60 {
            let noise = Double(random.int(in: -10_000...10_000)) / 1000  // ±10 m
            _ = follower.observe(fix(i, 488 + noise, speed: 0.1), on: route)
            // The first standing fix says where the car stopped; the rest is noise.
            stoppedAt = stoppedAt ?? mm(follower.progress)
        }
        #expect(stoppedAt.map { $0 >= 488 && $0 <= 498 } == true)
        #expect(mm(follower.progress) == stoppedAt)
    }

    @Test func theFirstStandingFixSaysWhereTheCarStoppedWhileFixesWereLost() throws {
        let route = try eastRoute(1_000, step: 10)
        // Two fixes lost; it stopped at the end of the route, 20 m on.
        let stopped = progress([fix(0, 900), fix(3, 920, speed: 0), fix(4, 925, speed: 0)], on: route)
        #expect(Array(stopped.dropFirst()) == [920, 920])
    }

    @Test func aFirstFixStandingFarAlongTheRouteLocatesTheCar() throws {
        // Measuring began mid-drive (the app was in the background): the car already stands at 600 m.
        let route = try eastRoute(1_000, step: 10)
        #expect(progress([fix(0, 600, speed: 0)], on: route) == [600])
        // Standing at the start, its noise within the accuracy holds progress there.
        #expect(progress([fix(0, 5, speed: 0), fix(1, 6, speed: 0)], on: route) == [0, 0])
    }

    @Test func afterAMeasuringPauseTheFirstFixOnTheRouteLocatesTheCar() throws {
        // One fix standing at the start, then the app is in the background while the car drives 600 m and stops.
        let route = try eastRoute(1_000, step: 10)
        let fixes = [fix(0, 0, speed: 0), fix(60, 600, speed: 0), fix(61, 608, speed: 0)]
        // 60 s after the last match (`RouteFollower.relocateAfter` or more), the first fix locates it too, pause or not.
        #expect(progress(Array(fixes.prefix(2)), on: route) == [0, 600])
        // Standing on after it, noise holds progress again.
        #expect(progress(fixes, on: route, pausedBefore: 1) == [0, 600, 600])
    }

    @Test func withoutASpeedADisplacementWithinTheAccuracyDoesNotMoveTheCar() throws {
        let route = try eastRoute(1_000, step: 10)
        var follower = RouteFollower()
        _ = follower.observe(fix(0, 488, speed: nil), on: route)
        for i in 1...20 { _ = follower.observe(fix(i, 488 + (i % 2 == 0 ? 4 : -4), speed: nil), on: route) }
        #expect(mm(follower.progress) == 488)
        _ = follower.observe(fix(21, 520, speed: nil), on: route)
        #expect(mm(follower.progress) == 520)
    }
}

@Suite struct HonestLinkTests {
    @Test func anOutageFailsTheReportInFlight() {
        var link = LocationLink(
            latency: SimTime(ms: 800), outages: [SimInterval(SimTime(ms: 30_500), SimTime(ms: 40_000))])
        #expect(
            link.offer(taken: SimTime(ms: 30_000), at: SimTime(ms: 30_000))
                == .failed(at: SimTime(ms: 30_500), reason: .interrupted))
        #expect(link.offer(taken: SimTime(ms: 31_000), at: SimTime(ms: 31_000)) == .dropped(.offline))
        #expect(
            link.offer(taken: SimTime(ms: 40_000), at: SimTime(ms: 40_000)) == .sent(delivered: SimTime(ms: 40_800)))
    }

    @Test func aReportTimesOutAtItsFreshnessLimit() {
        var link = LocationLink(latency: SimTime(ms: 2_500), freshness: SimTime(ms: 2_000))
        #expect(
            link.offer(taken: SimTime(ms: 0), at: SimTime(ms: 200)) == .failed(at: SimTime(ms: 2_000), reason: .timeout)
        )
        #expect(link.offer(taken: SimTime(ms: 1_000), at: SimTime(ms: 1_200)) == .dropped(.busy))
        #expect(
            link.offer(taken: SimTime(ms: 2_000), at: SimTime(ms: 2_200))
                == .failed(at: SimTime(ms: 4_000), reason: .timeout))
    }

    @Test func anOlderFixIsNeverReportedAfterANewerOne() {
        var link = LocationLink()
        #expect(
            link.offer(taken: SimTime(ms: 11_000), at: SimTime(ms: 11_200)) == .sent(delivered: SimTime(ms: 11_500)))
        #expect(link.offer(taken: SimTime(ms: 10_000), at: SimTime(ms: 11_500)) == .dropped(.outOfOrder))
    }
}

@Suite struct RealisticFixTests {
    let route: Route
    let trajectory: Trajectory

    init() throws {
        route = try eastRoute(3_000, step: 10)
        trajectory = Trajectory(profile: SpeedProfile(steps: [.init(from: 0, speed: 14)]), length: 3_000, start: .zero)
    }

    func errors(_ g: FixGenerator) -> [Double] {
        g.fixes(along: route, trajectory: trajectory, detour: { _ in 0 }).map { f in
            f.position.y - f.truth!.y
        }
    }

    /// The lag-one autocorrelation of a series.
    func lagOne(_ e: [Double]) -> Double {
        let mean = e.reduce(0, +) / Double(e.count)
        let d = e.map { $0 - mean }
        return zip(d, d.dropFirst()).map { $0 * $1 }.reduce(0, +) / d.map { $0 * $0 }.reduce(0, +)
    }

    @Test func gaussMarkovNoiseIsCorrelatedOverTimeAndUniformNoiseIsNot() {
        var g = FixGenerator()
        g.noise = 5
        #expect(abs(lagOne(errors(g))) < 0.2)
        g.correlation = SimTime(ms: 20_000)
        #expect(lagOne(errors(g)) > 0.8)
    }

    @Test func aGivenJumpDisplacesExactlyOneFix() {
        var g = FixGenerator()
        g.noise = 0
        g.jumps = [.init(at: SimTime(ms: 30_000), along: 150, across: 0)]
        let far = g.fixes(along: route, trajectory: trajectory, detour: { _ in 0 })
            .filter { ($0.position - $0.truth!).length > 100 }
        #expect(far.map(\.taken) == [SimTime(ms: 30_000)])
    }

    @Test func fixesCarryCourseWhileMovingAndNoneStanding() {
        let fixes = FixGenerator().fixes(along: route, trajectory: trajectory, detour: { _ in 0 })
        let moving = fixes.first { ($0.speed ?? 0) > 5 }!
        #expect(abs(moving.course! - 90) < 1e-6)  // east
        #expect(fixes.last!.course == nil)  // arrived
    }

    @Test func aStretchGivesItsOwnAccuracy() {
        var g = FixGenerator()
        g.stretches = [.init(from: 1_000, to: 2_000, accuracy: 40, noise: 10)]
        let fixes = g.fixes(along: route, trajectory: trajectory, detour: { _ in 0 })
        #expect(fixes.filter { $0.accuracy == 40 }.allSatisfy { $0.truth!.x >= 1_000 && $0.truth!.x < 2_000 })
        #expect(fixes.contains { $0.accuracy == 40 })
    }
}

@Suite struct StopTests {
    @Test func theCarStandsAtAStopForItsDwell() {
        var profile = SpeedProfile(steps: [.init(from: 0, speed: 14)])
        profile.stops = [.init(at: 500, dwell: SimTime(ms: 45_000))]
        let t = Trajectory(profile: profile, length: 1_000, start: .zero)
        let reached = t.time(reaching: 499.999)!
        #expect(t.state(at: reached + SimTime(ms: 1_000)).speed == 0)
        #expect(abs(t.state(at: reached + SimTime(ms: 40_000)).distance - 500) < 1e-9)
        #expect(t.time(reaching: 500.5)! > reached + SimTime(ms: 45_000))
    }

    @Test func theTrueTrackPassesAManeuverWhenItReachesIt() throws {
        var route = try eastRoute(1_000, step: 10)
        let p = route.projection
        try route.place([(p.unproject(Vector(x: 500, y: 0)), Maneuver(id: "m1", turn: .right))])
        let track = TrueTrack(
            points: (0...10).map { (SimTime(ms: Int64($0) * 1000), Vector(x: Double($0) * 100, y: 0)) })
        #expect(track.passTimes(on: route) == [SimTime(ms: 5_000)])
    }
}
