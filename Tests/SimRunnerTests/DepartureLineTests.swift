import Guidance
import Road
import SimClock
import TestSupport
import Testing

@testable import SimRunner

/// The departure line: said once as the drive starts, before the first
/// maneuver's far stage, and judged by the road's checks like any line of
/// that maneuver.
@Suite struct DepartureLineTests {
    func lines(_ name: String) throws -> (Scenario, Simulation, [GuidanceLine]) {
        let s = try Fixtures.scenario(name)
        let run = try Simulation(s)
        return (s, run, try RoadPlan(s.road).lines)
    }

    @Test func theDriveStartsWithTheHeadingAndTheDistanceWhenTheFirstManeuverIsFar() throws {
        let (s, run, lines) = try lines("road/highway-120")
        let departure = try #require(lines.first { $0.id == "exit.depart" })
        #expect(departure.text == "Head east for 5 kilometers.")
        #expect(departure.maneuver == "exit" && !departure.urgent)
        #expect(lines.filter { $0.id.hasSuffix(".depart") }.count == 1)
        // It gives way to the first maneuver's far line: expired before that is requested.
        let far = try #require(lines.first { $0.id == "exit.far" })
        #expect(try #require(departure.expires) <= far.at)
        #expect(Invariants.check(s, run).isEmpty)
    }

    @Test func koreanAndImperialDrivesSayItInTheirOwnWords() throws {
        #expect(try lines("road/seoul-city-ko").2.first { $0.id.hasSuffix(".depart") }?.text == "동쪽 방향으로 출발하세요.")
        #expect(
            try lines("road/highway-120-imperial").2.first { $0.id.hasSuffix(".depart") }?.text
                == "Head east for 3 miles.")
    }

    @Test func aDriveWhoseFirstManeuverIsAlreadyDueHearsThatInstead() throws {
        // The via point's first turn is announced at the first fix: no departure line before it.
        let (_, _, lines) = try lines("routes/via-point")
        #expect(!lines.contains { $0.id.hasSuffix(".depart") })
    }

    @Test func theHeadingIsTheRoutesFirstMeters() throws {
        func heading(_ points: [(Double, Double)]) throws -> Double? {
            RoadPlan.heading(of: try Route(points: points.map { GeoPoint(latitude: $0.0, longitude: $0.1) }))
        }
        #expect(try heading([(37.5, 127.0), (37.51, 127.0)]).map { abs($0) < 0.01 || abs($0 - 360) < 0.01 } == true)
        #expect(try heading([(37.5, 127.0), (37.5, 126.99)]).map { abs($0 - 270) < 0.01 } == true)
        #expect(try heading([(37.5, 127.0), (37.49, 127.01)]).map { $0 > 135 && $0 < 160 } == true)
    }

    @Test func aDepartureLineHeardAfterItsManeuverFiresLineAfterManeuver() throws {
        // "Head east for 5 kilometers." started at 03:05 and still heard after the exit was
        // passed at 03:06.523. (Left at 00:00.200 and only its end moved, the car's speeding
        // up from standing since it started would excuse it: the guidance could not know.)
        let s = try Fixtures.scenario("road/highway-120")
        let run = try Simulation(s)
        var bad = run
        for (kind, at) in [(EventKind.guidanceStarted, 185_000), (.guidanceEnded, 190_000)] as [(EventKind, Int64)] {
            let i = try #require(
                bad.timeline.events.firstIndex { e in
                    switch e.what {
                    case .guidanceStarted(let l), .guidanceEnded(let l):
                        e.kind == kind && run.timeline.roster.lines[l.int].id == "exit.depart"
                    default: false
                    }
                })
            var event = bad.timeline.events.remove(at: i)
            event.t = SimTime(ms: at)
            bad.timeline.events.insert(
                event, at: bad.timeline.events.firstIndex { $0.t > event.t } ?? bad.timeline.events.count)
        }
        #expect(Invariants.checkRoad(s, run).isEmpty)
        let found = Invariants.checkRoad(s, bad).filter { $0.check == .road(.lineAfterManeuver) }
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("line exit.depart was heard until") == true, "\(found)")
    }

    @Test func aDepartureLineSaidWithLessLeftThanItSaysFiresSpokenDistance() throws {
        // "Head east for 5 kilometers." started 60 s later, some 2 km on.
        let s = try Fixtures.scenario("road/highway-120")
        let run = try Simulation(s)
        var bad = run
        let i = try #require(
            bad.timeline.events.firstIndex { e in
                if case .guidanceStarted(let l) = e.what {
                    run.timeline.roster.lines[l.int].id == "exit.depart"
                } else {
                    false
                }
            })
        var event = bad.timeline.events.remove(at: i)
        event.t = event.t + SimTime(ms: 60_000)
        bad.timeline.events.insert(
            event, at: bad.timeline.events.firstIndex { $0.t > event.t } ?? bad.timeline.events.count)
        #expect(Invariants.checkRoadTruth(s, run).isEmpty)
        let found = Invariants.checkRoadTruth(s, bad).filter { $0.check == .road(.spokenDistance) }
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("line exit.depart says 5000 m when") == true, "\(found)")
    }
}
