import Road
import SimClock
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point `east` and `north` meters from `origin`, by the projection's inverse.
private func at(_ east: Double, _ north: Double, from origin: GeoPoint = GeoPoint(latitude: 37.5, longitude: 127.0))
    -> GeoPoint
{
    LocalProjection(origin: origin).unproject(Vector(x: east, y: north))
}

@Suite struct ProjectionTests {
    @Test(arguments: [(37.5, 127.0), (60.0, 10.0), (-33.9, 151.2), (1.3, 103.8)])
    func flatDistancesAreWithinATenthOfAPercentAtCityScale(latitude: Double, longitude: Double) {
        let origin = GeoPoint(latitude: latitude, longitude: longitude)
        let projection = LocalProjection(origin: origin)
        for (east, north) in [(5_000.0, 0.0), (0.0, 5_000.0), (3_000.0, 4_000.0), (-4_000.0, 2_500.0)] {
            let a = at(-east / 2, -north / 2, from: origin)
            let b = at(east / 2, north / 2, from: origin)
            let flat = (projection.project(b) - projection.project(a)).length
            let sphere = greatCircleDistance(a, b)
            #expect(abs(flat - sphere) / sphere < 0.001, "\(east), \(north): flat \(flat) m, great circle \(sphere) m")
        }
    }

    @Test(
        "A line through the centre is a great circle: its length is the haversine's at any distance",
        arguments: [10_000.0, 1_000_000, 5_000_000, 9_000_000])
    func linesThroughTheCentreAreGreatCircles(meters: Double) {
        let origin = GeoPoint(latitude: 37.5, longitude: 127.0)
        let projection = LocalProjection(origin: origin)
        for bearing in [0.0, 60, 135, 270] {
            // A point `meters` away on the great circle at `bearing`.
            let c: Double = meters / LocalProjection.earthRadius
            let th: Double = bearing * .pi / 180
            let lat0: Double = origin.latitude * .pi / 180
            let lat: Double = asin(sin(lat0) * cos(c) + cos(lat0) * sin(c) * cos(th))
            let east: Double = sin(th) * sin(c) * cos(lat0)
            let north: Double = cos(c) - sin(lat0) * sin(lat)
            let lon: Double = origin.longitude + atan2(east, north) * 180 / .pi
            let p = GeoPoint(latitude: lat * 180 / .pi, longitude: lon)
            let measured = projection.meters(from: Vector(x: 0, y: 0), to: projection.project(p))
            #expect(abs(measured - meters) <= 1e-6 * meters, "\(bearing)°: \(measured) m")
        }
    }

    @Test(
        "A short line far from the centre measures what the haversine does", arguments: [1_000.0, 1_000_000, 5_000_000])
    func shortLinesFarAwayMeasureTheGreatCircle(east: Double) {
        let origin = GeoPoint(latitude: 52.0, longitude: 5.0)
        let projection = LocalProjection(origin: origin)
        let a = projection.unproject(Vector(x: east, y: 0))
        let b = projection.unproject(Vector(x: east + 60, y: 80))
        let measured = projection.meters(from: projection.project(a), to: projection.project(b))
        let sphere = greatCircleDistance(a, b)
        #expect(abs(measured - sphere) <= 1e-6 * sphere, "\(measured) m, haversine \(sphere) m")
    }

    @Test func aLinesFractionInvertsItsMeters() {
        let line = LocalProjection.Line(from: Vector(x: -2_000_000, y: 500_000), to: Vector(x: 3_000_000, y: 4_000_000))
        for u in [0.0, 1e-9, 0.25, 0.5, 0.999, 1] {
            #expect(abs(line.fraction(at: line.meters(to: u)) - u) < 1e-12, "\(u)")
        }
        #expect(LocalProjection.Line(from: Vector(x: 5, y: 5), to: Vector(x: 5, y: 5)).meters(to: 1) == 0)
    }

    @Test func projectionRoundTrips() {
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        let v = Vector(x: 1234.5, y: -678.9)
        let back = projection.project(projection.unproject(v))
        #expect(abs(back.x - v.x) < 1e-6 && abs(back.y - v.y) < 1e-6)
    }
}

@Suite struct RouteTests {
    @Test func aRouteNeedsTwoPoints() {
        #expect(throws: Route.Problem.tooFewPoints) { try Route(points: [at(0, 0)]) }
        #expect(throws: Route.Problem.tooFewPoints) { try Route(points: []) }
    }

    @Test func cumulativeDistancesAddUpTheLegs() throws {
        let route = try Route(points: [at(0, 0), at(300, 0), at(300, 400)])
        #expect(abs(route.cumulative[1] - 300) < 1e-6)
        #expect(abs(route.length - 700) < 1e-6)
    }

    @Test func aManeuverFarFromTheRouteIsRefused() throws {
        var route = try Route(points: [at(0, 0), at(1000, 0)])
        let error = #expect(throws: Route.Problem.self) {
            try route.place([(at(500, 50), Maneuver(id: "m1", turn: .left))])
        }
        guard case .maneuverOffRoute(0, let meters)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(abs(meters - 50) < 1e-6)
    }

    /// A loop whose last leg crosses the first at 300 m east.
    static func crossing() throws -> Route {
        try Route(points: [at(0, 0), at(600, 0), at(600, 300), at(300, 300), at(300, -300)])
    }

    @Test func maneuversAtACrossingArePlacedInRouteOrder() throws {
        var route = try Self.crossing()
        // The crossing point is passed at 300 m and again at 1,500 m.
        try route.place([
            (at(300, 0), Maneuver(id: "a", turn: .straight)), (at(300, 0), Maneuver(id: "b", turn: .left)),
        ])
        #expect(abs(route.maneuvers[0].distance - 300) < 1e-6)
        #expect(abs(route.maneuvers[1].distance - 1_500) < 1e-4)
    }
}

@Suite struct FollowerTests {
    func fix(_ i: Int, _ position: Vector, accuracy: Double = 5, speed: Double? = 10) -> Fix {
        Fix(
            index: i, taken: SimTime(ms: Int64(i) * 1000), arrives: SimTime(ms: Int64(i) * 1000 + 200),
            position: position, accuracy: accuracy, speed: speed)
    }

    @Test func progressSearchesForwardAndNeverJumpsOnASelfCrossingRoute() throws {
        let route = try RouteTests.crossing()
        var follower = RouteFollower()
        // Drive the first leg at 10 m/s, right through the crossing point.
        for i in 0...40 {
            _ = follower.observe(fix(i, Vector(x: Double(i) * 10, y: 0)), on: route)
            #expect(follower.progress <= Double(i) * 10 + 1, "fix \(i) jumped to \(follower.progress) m")
        }
        #expect(abs(follower.progress - 400) < 1)
    }

    @Test func progressNeverGoesBack() throws {
        let route = try Route(points: [at(0, 0), at(1000, 0)])
        var follower = RouteFollower()
        _ = follower.observe(fix(0, Vector(x: 100, y: 0)), on: route)
        _ = follower.observe(fix(1, Vector(x: 90, y: 0)), on: route)
        #expect(abs(follower.progress - 100) < 1e-6)
    }

    @Test func offRouteNeedsThreeFarFixesAndRejoiningThreeNearOnes() throws {
        let route = try Route(points: [at(0, 0), at(1000, 0)])
        var follower = RouteFollower()
        var changes: [RouteFollower.Change] = []
        let offsets: [Double] = [0, 50, 50, 0, 50, 50, 50, 30, 10, 10, 50, 10, 10, 10]
        // Without a reported speed: 50 m aside in a second passes the 70 m/s gate (a car
        // at the 10 m/s it reports could not get there, so with one they would be implausible).
        for (i, y) in offsets.enumerated() {
            changes.append(follower.observe(fix(i, Vector(x: Double(i) * 10, y: y), speed: nil), on: route))
        }
        #expect(changes.firstIndex { if case .leftRoute = $0 { return true } else { return false } } == 6)
        #expect(changes.firstIndex(of: .rejoined) == 13)
    }

    @Test func inaccurateAndOlderFixesAreNotTrusted() throws {
        var follower = RouteFollower()
        #expect(follower.admission(of: fix(0, Vector(x: 0, y: 0), accuracy: 31)) == .inaccurate)
        #expect(follower.admission(of: fix(0, Vector(x: 0, y: 0), accuracy: 30)) == .usable)
        _ = follower.observe(fix(1, Vector(x: 10, y: 0)), on: try RouteTests.crossing())
        #expect(follower.admission(of: fix(1, Vector(x: 20, y: 0))) == .outOfOrder, "taken no later than the last used")
        #expect(follower.admission(of: fix(0, Vector(x: 20, y: 0))) == .outOfOrder)
        #expect(follower.admission(of: fix(2, Vector(x: 20, y: 0))) == .usable)
    }
}

@Suite struct DriveTests {
    @Test func theCarKeepsToItsAccelerationLimitsAndStopsAtTheEnd() {
        let profile = SpeedProfile(
            steps: [.init(from: 0, speed: 100 / 3.6), .init(from: 2_000, speed: 30 / 3.6)], accel: 2, decel: 3)
        let trajectory = Trajectory(profile: profile, length: 3_000, start: SimTime(ms: 5_000))
        let dt = Double(Trajectory.step.ms) / 1000
        for i in 1..<trajectory.speeds.count {
            let dv = trajectory.speeds[i] - trajectory.speeds[i - 1]
            #expect(dv <= 2 * dt + 1e-9 && dv >= -3 * dt - 1e-9 || i == trajectory.speeds.count - 1, "step \(i): \(dv)")
        }
        #expect(trajectory.state(at: SimTime(ms: 4_000)).distance == 0)
        #expect(trajectory.distances.last == 3_000)
        // Slowed to 30 km/h by the time it reaches 2,000 m.
        let t = trajectory.time(reaching: 2_000)!
        #expect(trajectory.state(at: t).speed <= 30 / 3.6 + 0.5)
    }

    @Test func generatedFixesAreSeededAndRespectGaps() throws {
        let route = try Route(points: [at(0, 0), at(2_000, 0)])
        let trajectory = Trajectory(
            profile: SpeedProfile(steps: [.init(from: 0, speed: 15)]), length: route.length, start: .zero)
        var generator = FixGenerator()
        generator.gaps = [SimInterval(SimTime(ms: 10_000), SimTime(ms: 20_000))]
        generator.jitter = SimTime(ms: 1_500)
        let a = generator.fixes(along: route, trajectory: trajectory, detour: { _ in 0 })
        let b = generator.fixes(along: route, trajectory: trajectory, detour: { _ in 0 })
        #expect(a == b)
        #expect(!a.contains { (10_000..<20_000).contains($0.taken.ms) })
        #expect(
            a.contains { i in a.contains { $0.taken > i.taken && $0.arrives < i.arrives } },
            "jitter reorders some arrivals")
    }
}

@Suite struct LocationLinkTests {
    @Test func reportsAreDroppedNeverQueued() {
        var link = LocationLink(
            latency: SimTime(ms: 1_500), freshness: SimTime(ms: 2_000),
            outages: [SimInterval(SimTime(ms: 10_000), SimTime(ms: 12_000))])
        #expect(link.offer(taken: SimTime(ms: 0), at: SimTime(ms: 200)) == .sent(delivered: SimTime(ms: 1_700)))
        #expect(link.offer(taken: SimTime(ms: 1_000), at: SimTime(ms: 1_699)) == .dropped(.busy))
        // Taken at 1 s, it would land at 3.2 s, older than the freshness limit: it times out at 3 s.
        #expect(
            link.offer(taken: SimTime(ms: 1_000), at: SimTime(ms: 1_700))
                == .failed(at: SimTime(ms: 3_000), reason: .timeout))
        #expect(link.offer(taken: SimTime(ms: 3_000), at: SimTime(ms: 5_001)) == .dropped(.stale))
        #expect(
            link.offer(taken: SimTime(ms: 3_000), at: SimTime(ms: 5_000))
                == .failed(at: SimTime(ms: 5_000), reason: .timeout))
        #expect(link.offer(taken: SimTime(ms: 4_500), at: SimTime(ms: 5_000)) == .sent(delivered: SimTime(ms: 6_500)))
        #expect(link.offer(taken: SimTime(ms: 10_000), at: SimTime(ms: 10_000)) == .dropped(.offline))
        #expect(
            link.offer(taken: SimTime(ms: 12_000), at: SimTime(ms: 12_000)) == .sent(delivered: SimTime(ms: 13_500)))
    }
}

@Suite struct RoadBoundsTests {
    @Test func aRouteAcrossTheAntimeridianIsMeasuredTheShortWayRound() throws {
        let route = try Route(points: [
            GeoPoint(latitude: 0, longitude: 179.9999), GeoPoint(latitude: 0, longitude: -179.9999),
        ])
        #expect(abs(route.length - 22.24) < 0.01, "\(route.length) m")
        let back = try Route(points: [
            GeoPoint(latitude: 10, longitude: -179.9999), GeoPoint(latitude: 10, longitude: 179.9999),
        ])
        #expect(back.length < 22, "\(back.length) m")
    }

    @Test func unprojectingAcrossTheAntimeridianStaysWithinRange() {
        let projection = LocalProjection(origin: GeoPoint(latitude: 0, longitude: 179.9999))
        let east = projection.unproject(Vector(x: 22.24, y: 0))
        #expect(east.longitude < -179.9998 && east.longitude > -180)
        let v = projection.project(east)
        #expect(abs(v.x - 22.24) < 1e-6)
    }

    @Test func aDriveThatWouldPassTheLimitIsFoundInBoundedTime() {
        // A tiny acceleration used to integrate forever.
        let crawl = SpeedProfile(steps: [.init(from: 0, speed: 50 / 3.6)], accel: 1e-300)
        let limit = SimTime(ms: 86_400_000)
        #expect(Trajectory.arrival(profile: crawl, length: 1000, start: .zero, limit: limit) == nil)
        #expect(Trajectory.arrival(profile: crawl, length: 1000, start: SimTime(ms: 86_400_001), limit: limit) == nil)
    }

    @Test func theBoundedArrivalIsTheTrajectorysArrival() {
        let profile = SpeedProfile(
            steps: [.init(from: 0, speed: 100 / 3.6), .init(from: 2_000, speed: 30 / 3.6)], accel: 2, decel: 3)
        let start = SimTime(ms: 5_000)
        let trajectory = Trajectory(profile: profile, length: 3_000, start: start)
        #expect(
            Trajectory.arrival(profile: profile, length: 3_000, start: start, limit: SimTime(ms: 86_400_000))
                == trajectory.arrival)
        #expect(
            Trajectory.arrival(profile: profile, length: 3_000, start: start, limit: trajectory.arrival)
                == trajectory.arrival)
        #expect(
            Trajectory.arrival(
                profile: profile, length: 3_000, start: start, limit: trajectory.arrival - SimTime(ms: 1)) == nil)
    }

    @Test func maneuversInReverseRouteOrderAreOutOfOrderNotOffRoute() throws {
        var route = try Route(points: [at(0, 0), at(1000, 0)])
        #expect(throws: Route.Problem.maneuverOutOfOrder(index: 1)) {
            try route.place([
                (at(800, 0), Maneuver(id: "b", turn: .left)), (at(200, 0), Maneuver(id: "a", turn: .right)),
            ])
        }
    }
}

/// `Route.nearest` measures on the earth only the segments that can hold
/// its match: over random routes (dense, sparse, folding back on
/// themselves, far from the plane's origin), positions, windows, headings
/// and tolerances, the match is the one measuring every segment gives.
@Suite struct RouteNearestPruningTests {
    @Test func prunedNearestIsTheMatchOfEverySegment() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        for routeIndex in 0..<60 {
            // A zigzag, sometimes folding back 10 m beside a leg, sometimes 1,000 km from the origin.
            let origin = routeIndex % 5 == 0 ? Vector(x: 1_000_000, y: -700_000) : Vector(x: 0, y: 0)
            var position = origin
            var points = [position]
            let dense = routeIndex % 2 == 0
            for leg in 0..<Int(random(2...6)) {
                let direction = leg % 2 == 0 ? Vector(x: 1, y: 0) : Vector(x: 0, y: random(0...1) < 0.5 ? 1 : -1)
                let length = random(20...600)
                if dense {
                    var done = 10.0
                    while done < length {
                        points.append(position + direction * done)
                        done += 10
                    }
                }
                position = position + direction * length
                points.append(position)
                if leg == 2, routeIndex % 3 == 0 {
                    // Back along the leg driven, 10 m beside it.
                    position = position + Vector(x: direction.y * 10, y: -direction.x * 10)
                    points.append(position)
                    position = position - direction * (length * 0.8)
                    points.append(position)
                }
            }
            let route = Route(plane: points, projection: projection)
            for _ in 0..<300 {
                let along = random(0...route.length)
                let (point, _) = route.location(at: along)
                let spread = [0.0, 0.001, 3, 15, 60, 400][Int(random(0...5.999))]
                let p = point + Vector(x: random(-spread...spread), y: random(-spread...spread))
                let from = random(0...route.length)
                let to = min(route.length, from + random(0...800))
                let heading: Double? = random(0...1) < 0.3 ? nil : random(0...360)
                let expected: Double? = random(0...1) < 0.2 ? nil : along + random(-50...50)
                let tolerance = [0.0, 1, 5, 25][Int(random(0...3.999))]
                let pruned = route.nearest(
                    to: p, from: from, to: to, heading: heading, expected: expected, tolerance: tolerance, pruned: true)
                let every = route.nearest(
                    to: p, from: from, to: to, heading: heading, expected: expected, tolerance: tolerance, pruned: false
                )
                #expect(pruned == every, "route \(routeIndex) at \(p.x), \(p.y) in \(from)...\(to)")
            }
        }
    }
}
