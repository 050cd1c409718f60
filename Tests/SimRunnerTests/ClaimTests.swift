import Guidance
import Road
import SimClock
import TestSupport
import Testing

@testable import SimRunner

/// `late-claim` and `then-claim` on `road.turn.unannounced` answers and
/// `then` skips: a reason is a claim the truth confirms or refutes.
@Suite struct ClaimTests {
    /// `c` with `road.turn.unannounced` for maneuver `m` (roster index), `reason`, right after its pass.
    static func claiming(_ c: Case, _ m: Int, _ reason: RoadEvent.UnannouncedReason) throws -> Case {
        var d = c
        let passed = try d.first { if case .road(.turnPassed(ManeuverIndex(m))) = $0.what { true } else { false } }
        d.events.insert(
            TimelineEvent(t: d.events[passed].t, .road(.turnUnannounced(ManeuverIndex(m), reason: reason))),
            at: passed + 1)
        return d
    }

    static func claims(_ c: Case) -> [Violation] {
        let truth = Invariants.RoadTruth(c.scenario.road!)
        return Invariants.checkLateClaims(c.scenario, c.run, truth)
            + Invariants.checkThenClaims(c.scenario, c.run, truth)
    }

    @Test func aTurnOnACleanHighwaySaidToBeLateIsAFalseClaim() throws {
        // highway-120: the exit at 120 km/h, a fix every second, nothing in the way.
        let c = try Case("road/highway-120")
        try #require(c.checks.isEmpty)
        let found = Self.claims(try Self.claiming(c, 0, .late))
        #expect(found.map(\.check) == [.road(.lateClaim)])
        #expect(found.first?.message.hasPrefix("exit was passed without a \"now\" line as late, but at ") == true)
    }

    @Test func aTurnPassedInAGapMayBeLate() throws {
        // gps-gap: m1 is passed at 1:08.3, in the tunnel (55 s to 80 s): no fresh fix showed its "now" stage due.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        #expect(Self.claims(try Self.claiming(c, 0, .late)).isEmpty)
        // m2, passed at 1:58.7 with a fix every second, may not.
        #expect(Self.claims(try Self.claiming(c, 1, .late)).map(\.check) == [.road(.lateClaim)])
    }

    @Test func theBlocksTurnsTwoSecondsApartAreLateAndThen() throws {
        // loop-over-itself: m2 is announced with m1 ("then"); m3 and m4 come 2.4 s after the turn before: late stands.
        let c = try Case("road/loop-over-itself")
        try #require(c.checks.isEmpty)
        let reasons = c.events.compactMap { e -> RoadEvent.UnannouncedReason? in
            if case .road(.turnUnannounced(_, let r)) = e.what { r } else { nil }
        }
        #expect(reasons == [.then, .late, .late])
        #expect(Self.claims(c).isEmpty)
    }

    @Test func aThenClaimStandsWithinThenWithinAndNotAMeterBeyond() throws {
        // loop-over-itself: m2 lies some 20 m beyond m1, whose "now" line names it ("Now turn right, then turn right.").
        var c = try Case("road/loop-over-itself")
        let road = try #require(c.scenario.road)
        let truth = try #require(Invariants.RoadTruth(road))
        let gap = try #require(truth.distance(of: "m2")) - (try #require(truth.distance(of: "m1")))
        c.scenario.road?.guidance.thenSeconds = 0
        func thenClaims(within meters: Double) -> Set<Check> {
            var d = c
            d.scenario.road?.guidance.thenWithin = meters
            return Set(Invariants.checkThenClaims(d.scenario, d.run, truth).map(\.check))
        }
        // Both claims (m2's far stage skipped `then`, m2 passed `then`) stand, then neither.
        #expect(thenClaims(within: gap).isEmpty)
        #expect(thenClaims(within: gap - 0.001) == [.road(.thenClaim)])
    }

    @Test func aThenClaimNeedsALineOfTheManeuverBeforeThatNamesIt() throws {
        // gps-gap: m2 (left) lies far beyond m1 (right); no line of m1 names it. Its far stage said to be skipped `then`
        // as m1's far line starts is a false claim; so is m2 passed `then`.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        var skip = c
        try skip.insert(.stageSkipped(ManeuverIndex(1), stage: .far, reason: .then), asLineStarts: "m1.far")
        let far = try skip.first { $0.what == .road(.stageSkipped(ManeuverIndex(1), stage: .far, reason: .then)) }
        let found = Self.claims(skip)
        #expect(found.map(\.check) == [.road(.thenClaim)])
        #expect(
            found.first?.message
                == "m2 is said to be announced with the maneuver before it, but no near or now line of m1 made by \(skip.events[far].t) names it after its own"
        )
        #expect(Self.claims(try Self.claiming(c, 1, .then)).map(\.check) == [.road(.thenClaim)])
    }

    @Test func namesReadsTheNextManeuverOnlyAfterItsOwn() {
        let right = Maneuver(id: "a", turn: .right, distance: 0)
        let left = Maneuver(id: "b", turn: .left, distance: 50)
        #expect(Invariants.names("Now turn right, then turn left.", first: right, then: left, .en))
        #expect(!Invariants.names("Now turn left, then turn right.", first: right, then: left, .en))
        #expect(Invariants.names("Now turn right, then turn right.", first: right, then: right, .en))
        #expect(!Invariants.names("Now turn right.", first: right, then: right, .en))
        #expect(Invariants.names("지금 우회전한 후 좌회전하세요.", first: right, then: left, .ko))
    }

    @Test func aTurnPassedLateIsRefutedWhileTheLineNeedsNoMoreThanWasLeftNotAMillisecondMore() throws {
        // highway-120's exit said to be passed late: raise `margin` until the claim stands. At the
        // last margin it is refuted, the time left equals what the line needs; 1 ms more and it stands.
        let c = try Self.claiming(try Case("road/highway-120"), 0, .late)
        func refuted(margin: Int64) -> [Violation] {
            var d = c
            d.scenario.road?.guidance.margin = SimTime(ms: margin)
            return Invariants.checkLateClaims(d.scenario, d.run, Invariants.RoadTruth(d.scenario.road!))
        }
        var low = c.scenario.road!.guidance.margin.ms
        var high: Int64 = 60_000
        try #require(!refuted(margin: low).isEmpty && refuted(margin: high).isEmpty)
        while high - low > 1 {
            let mid = (low + high) / 2
            if refuted(margin: mid).isEmpty { high = mid } else { low = mid }
        }
        let message = try #require(refuted(margin: low).first?.message)
        // "…, 4.491 s before the turn (a "now" line needs 4.491 s)"
        let numbers = message.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1], "\(message)")
        #expect(refuted(margin: low + 1).isEmpty)
    }
}
