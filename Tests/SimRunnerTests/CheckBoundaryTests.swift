import AudioBus
import Guidance
import Road
import ScenarioFormat
import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import SimRunner

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

/// Each check at the exact boundary of each of its clauses, one test on
/// each side (issue 48): a check weakened or tightened by one millisecond
/// (or one meter) fails one of them. `BrokenTimelineTests` breaks each
/// check far enough that it alone fires; these pin where.
@Suite struct InvariantBoundaryTests {
    /// s1 (10 s) plays from 0; g1 (1 s) is requested at `at`.
    static func lineDuringStretch(at: SimTime, urgent: Bool = false) -> Scenario {
        Scenario(
            name: "a line during a stretch",
            guidance: [GuidanceLine(id: "g1", at: at, duration: ms(1_000), urgent: urgent)],
            replies: [.init(id: "r1", at: .zero, stretches: [.init(id: "s1", duration: ms(10_000))])])
    }

    @Test func invariant1ALineStartingInTheInstantTheStretchStopsIsNoOverlapOneStartedBeforeIs() throws {
        let c = try Case("short-wait")
        try #require(c.checks.isEmpty)
        let end = c.events.last!.t + ms(10_000)
        var apart = c
        var together = c
        apart.run.bus.startStretch(0, at: end)
        apart.run.bus.stopStretch(at: end + ms(1_000), cut: false)
        apart.run.bus.startGuidance(0, at: end + ms(1_000))
        apart.run.bus.endGuidance(at: end + ms(2_000))
        apart.events += [TimelineEvent(t: end + ms(1_000), .earsClosed)]
        #expect(apart.checks.isEmpty)
        together.run.bus.startStretch(0, at: end)
        together.run.bus.startGuidance(0, at: end + ms(1_000))
        together.run.bus.stopStretch(at: end + ms(1_000), cut: false)
        together.run.bus.endGuidance(at: end + ms(2_000))
        together.events += [TimelineEvent(t: end + ms(1_000), .earsClosed)]
        #expect(together.checks == [.invariant(1)])
    }

    @Test func invariant2TheEarsMayOpenAtEarsTailAfterALineNotOneMillisecondSooner() throws {
        // short-wait: g1 plays 4–5 s, earsTail 0.5 s: the ears open at 5.5 s.
        var c = try Case("short-wait")
        try #require(c.checks.isEmpty)
        let opened = try c.first { $0.kind == .earsOpened }
        #expect(c.events[opened].t == ms(5_500))
        c.move(opened, to: ms(5_499))
        #expect(c.checks == [.invariant(2)])
        // Closed 1 ms after the line started.
        var d = try Case("short-wait")
        let closed = try d.first { $0.kind == .earsClosed }
        d.move(closed, to: d.events[closed].t + ms(1))
        #expect(d.checks == [.invariant(2)])
    }

    @Test func invariant3AnUrgentLineMayNotWaitOneMillisecond() throws {
        // urgent-cut: g1 is requested and cuts s1 at 2 s.
        var c = try Case("urgent-cut")
        try #require(c.checks.isEmpty)
        c.move(try c.first { $0.kind == .guidanceRequested }, to: ms(1_999))
        #expect(c.checks == [.invariant(3)])
        let found = Invariants.check(c.scenario, c.run).map(\.message)
        #expect(found == ["urgent line g1 waited 1 ms for Pippa"])
    }

    @Test func invariant4AWaitOfExactlyWaitLimitPassesOneMillisecondMoreDoesNot() throws {
        // g1 at 7 s waits exactly 3000 ms (waitLimit) for s1 by short-wait.
        let exact = Case(Self.lineDuringStretch(at: ms(7_000)))
        #expect(exact.events.contains { $0.rule == .shortWait })
        #expect(exact.checks.isEmpty)
        // Requested 1 ms sooner (its short-wait decision, at 7 s with 3000 ms left, still stands).
        var over = exact
        over.move(try over.first { $0.kind == .guidanceRequested }, to: ms(6_999))
        #expect(over.checks == [.invariant(4)])
        #expect(
            Invariants.check(over.scenario, over.run).map(\.message) == [
                "line g1 waited 3001 ms for Pippa, over waitLimit"
            ])
    }

    @Test func invariant5AnOrdinaryCutWithWaitLimitAndOneMillisecondLeftPassesWithWaitLimitLeftDoesNot() throws {
        // long-cut: s1 (10 s) cut at 4 s; the cut's playedMs says how much was left.
        var c = try Case("long-cut")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .stretchCut }
        try c.recut(i, playedMs: 6_999)
        #expect(c.checks.isEmpty)
        try c.recut(i, playedMs: 7_000)
        #expect(c.checks == [.invariant(5)])
    }

    @Test func invariant6HeardAndLostMustAddUpToTheUtteranceToTheMillisecond() throws {
        var c = try Case("barge-in")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .dadEnded }
        guard case .dadEnded(let u, let heard, let lost) = c.events[i].what, heard > 0 else {
            throw BrokenTimelineTests.Broken()
        }
        c.events[i].what = .dadEnded(u, heardMs: heard - 1, lostMs: lost + 1)
        #expect(c.checks.isEmpty)
        c.events[i].what = .dadEnded(u, heardMs: heard, lostMs: lost + 1)
        #expect(c.checks == [.invariant(6)])
        c.events[i].what = .dadEnded(u, heardMs: heard - 1, lostMs: lost)
        #expect(c.checks == [.invariant(6)])
    }
}

@Suite struct RuleCheckBoundaryTests {
    @Test func guidanceQueueAnOrdinaryLineMayNotStartWhileAnUrgentOneIsPending() throws {
        // o1 (ordinary) plays 1–3 s; u1 (urgent) at 2 s cuts nothing (no stretch), waits its turn and plays first.
        let scenario = Scenario(
            name: "urgent first",
            guidance: [
                GuidanceLine(id: "o1", at: ms(1_000), duration: ms(2_000)),
                GuidanceLine(id: "o2", at: ms(1_500), duration: ms(1_000)),
                GuidanceLine(id: "u1", at: ms(2_000), duration: ms(1_000), urgent: true),
            ])
        var c = Case(scenario)
        try #require(c.checks.isEmpty)
        let lines = c.run.timeline.roster.lines
        let order = c.events.compactMap { if case .guidanceStarted(let l) = $0.what { lines[l.int].id } else { nil } }
        try #require(order == ["o1", "u1", "o2"])
        // o2 and u1 swap places: the ordinary o2 starts while the urgent u1 waits (o2 is at its class's head).
        let o2 = lines.firstIndex { $0.id == "o2" }!
        let u1 = lines.firstIndex { $0.id == "u1" }!
        func swap(_ l: LineIndex) -> LineIndex { l.int == o2 ? LineIndex(u1) : l.int == u1 ? LineIndex(o2) : l }
        for i in c.events.indices {
            switch c.events[i].what {
            case .guidanceStarted(let l): c.events[i].what = .guidanceStarted(swap(l))
            case .guidanceEnded(let l): c.events[i].what = .guidanceEnded(swap(l))
            default: continue
            }
        }
        let found = Invariants.check(c.scenario, c.run).filter { $0.check == .rule(.guidanceQueue) }.map(\.message)
        #expect(found == ["line o2 started while u1 was ahead of it in the queue"])
    }

    @Test func supersededADropOneMillisecondAfterTheNewerRequestIsLate() throws {
        // superseded: g2 is dropped at 2 s, in the instant g3 (same maneuver) is requested.
        var c = try Case("superseded")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .guidanceDropped }
        c.move(i, to: c.events[i].t + ms(1))
        #expect(c.checks == [.rule(.superseded)])
    }

    /// g1 plays from 1 s for `first`; g2 (1 s) waits behind it, expiring at 4 s.
    static func queuedBehind(first: SimTime) -> Scenario {
        Scenario(
            name: "a line that may expire",
            guidance: [
                GuidanceLine(id: "g1", at: ms(1_000), duration: first),
                GuidanceLine(id: "g2", at: ms(2_000), duration: ms(1_000), expires: ms(4_000)),
            ])
    }

    @Test func staleALineMayStartOneMillisecondBeforeItExpiresNotInTheInstant() throws {
        var c = Case(Self.queuedBehind(first: ms(2_999)))
        let started = try c.first { if case .guidanceStarted(let l) = $0.what { l.int == 1 } else { false } }
        #expect(c.events[started].t == ms(3_999))
        #expect(c.checks.isEmpty)
        c.move(started, to: ms(4_000))
        #expect(c.checks == [.rule(.stale)])
        // Dropped in the instant it expires: on time (the arbiter does so when g1 ends then).
        let dropped = Case(Self.queuedBehind(first: ms(3_000)))
        #expect(dropped.events.contains { $0.kind == .guidanceDropped && $0.rule == .stale && $0.t == ms(4_000) })
        #expect(dropped.checks.isEmpty)
    }

    @Test func heldHeldMsMustBeExactOneMillisecondEitherWayIsCaught() throws {
        // held: s2 could start at 1.5 s, started at 3.2 s with heldMs 1700.
        for wrong: Int64 in [1_699, 1_701] {
            var c = try Case("held")
            try #require(c.checks.isEmpty)
            let i = try c.first { if case .stretchStarted(_, _, heldMs: 1_700) = $0.what { true } else { false } }
            guard case .stretchStarted(let r, let k, _) = c.events[i].what else { throw BrokenTimelineTests.Broken() }
            c.events[i].what = .stretchStarted(r, k, heldMs: wrong)
            #expect(c.checks == [.rule(.held)], "heldMs \(wrong)")
        }
        // A stretch started 1 ms before its chunk was ready (s2, ready at 1.5 s), heldMs or not.
        var c = try Case("held")
        let i = try c.first { if case .stretchStarted(_, _, heldMs: 1_700) = $0.what { true } else { false } }
        guard case .stretchStarted(let r, let k, _) = c.events[i].what else { throw BrokenTimelineTests.Broken() }
        c.events[i].what = .stretchStarted(r, k, heldMs: nil)
        c.move(i, to: ms(1_499))
        let found = Invariants.ruleChecks(c.run.timeline, earsOpen: Invariants.earsOpen(c.run.timeline))
        #expect(
            found.contains { $0.check == .rule(.held) && $0.message.contains("started 1 ms before it could") },
            "\(found)")
    }

    @Test func afterCutDropAbandonsInTheInstantOfTheCutNotOneMillisecondLater() throws {
        var c = try Case("after-cut-drop")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .replyAbandoned && $0.rule == .afterCut }
        c.move(i, to: c.events[i].t + ms(1))
        #expect(c.checks == [.rule(.afterCut)])
    }

    @Test func bargeInTheReplyMayNotStayActiveOneMillisecondWhileDadIsHeard() throws {
        // barge-in: Dad is heard from 2 s and the reply is abandoned then.
        var c = try Case("barge-in")
        try #require(c.checks.isEmpty)
        let started = try c.first { $0.kind == .dadStarted }
        c.move(started, to: c.events[started].t - ms(1))
        #expect(c.checks == [.rule(.bargeIn)])
    }
}

@Suite struct RoadCheckBoundaryTests {
    /// The road checks (`Invariants.checkRoad`, the truth's included) that fire.
    static func roadChecks(_ c: Case) -> Set<Check> { Set(Invariants.checkRoad(c.scenario, c.run).map(\.check)) }

    /// gps-gap's first report: f0 taken at 0, sent at 0.2 s, delivered at 0.5 s.
    static func firstReport(_ c: Case) throws -> (sent: SimTime, delivered: SimTime, taken: SimTime) {
        let sent = try c.first { if case .road(.reportSent(FixIndex(0), _, _, _)) = $0.what { true } else { false } }
        let delivered = try c.first { if case .road(.reportDelivered(FixIndex(0))) = $0.what { true } else { false } }
        guard case .road(.reportSent(_, let age, _, _)) = c.events[sent].what else {
            throw BrokenTimelineTests.Broken()
        }
        return (c.events[sent].t, c.events[delivered].t, c.events[sent].t - ms(age))
    }

    @Test func linkHonestAnOutageShorterThanTheLatencyInsideTheFlightFiresOneEndingAtTheSendDoesNot() throws {
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let (sent, delivered, _) = try Self.firstReport(c)
        try #require(delivered - sent == ms(300))
        func with(_ outage: SimInterval) -> Set<Check> {
            var d = c
            d.scenario.road?.link.outages = [outage]
            return Self.roadChecks(d)
        }
        // Began 1 ms after the send and was over 1 ms before the landing: the report was lost.
        #expect(with(SimInterval(sent + ms(1), delivered - ms(1))) == [.road(.linkHonest)])
        // Begins in the instant it lands.
        #expect(with(SimInterval(delivered, delivered + ms(1))) == [.road(.linkHonest)])
        // Over in the instant it was sent; begins 1 ms after it landed.
        #expect(with(SimInterval(sent - ms(100), sent)).isEmpty)
        #expect(with(SimInterval(delivered + ms(1), delivered + ms(100))).isEmpty)
    }

    @Test func linkHonestAReportMayLandExactlyFreshnessAfterItsFixWasTakenNotOneMillisecondMore() throws {
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        // The oldest any report is when it lands.
        var sentAt: [Int32: SimTime] = [:]
        var oldest: Int64 = 0
        for event in c.events {
            switch event.what {
            case .road(.reportSent(let f, let age, _, _)): sentAt[f.raw] = event.t - ms(age)
            case .road(.reportDelivered(let f)): oldest = max(oldest, (event.t - sentAt[f.raw]!).ms)
            default: continue
            }
        }
        var d = c
        d.scenario.road?.link.freshness = ms(oldest)
        #expect(Self.roadChecks(d).isEmpty)
        d.scenario.road?.link.freshness = ms(oldest - 1)
        #expect(Self.roadChecks(d) == [.road(.linkHonest)])
    }

    @Test func linkHonestAReportForAFixTakenWithTheOneBeforeFiresOneTaken1MillisecondLaterDoesNot() throws {
        // f1 is said to be taken when f0 was (its age grown by the second between them).
        var c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let (_, _, taken0) = try Self.firstReport(c)
        let i = try c.first { if case .road(.reportSent(FixIndex(1), _, _, _)) = $0.what { true } else { false } }
        guard case .road(.reportSent(let f, _, let onRoute, let next)) = c.events[i].what else {
            throw BrokenTimelineTests.Broken()
        }
        c.events[i].what = .road(.reportSent(f, ageMs: (c.events[i].t - taken0).ms - 1, onRoute: onRoute, next: next))
        #expect(Self.roadChecks(c).isEmpty)
        c.events[i].what = .road(.reportSent(f, ageMs: (c.events[i].t - taken0).ms, onRoute: onRoute, next: next))
        #expect(Self.roadChecks(c) == [.road(.linkHonest)])
    }

    @Test func linkAReportExactlyFreshnessOldIsSentOneMillisecondOlderIsNot() throws {
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let freshness = try #require(c.scenario.road).link.freshness.ms
        let i = try c.first { if case .road(.reportSent) = $0.what { true } else { false } }
        guard case .road(.reportSent(let fix, _, let onRoute, let next)) = c.events[i].what else {
            throw BrokenTimelineTests.Broken()
        }
        // (Sent exactly fresh, it lands stale: that is link-honest's.)
        func link(_ age: Int64) -> [Violation] {
            var d = c
            d.events[i].what = .road(.reportSent(fix, ageMs: age, onRoute: onRoute, next: next))
            return Invariants.checkRoad(d.scenario, d.run).filter { $0.check == .road(.link) }
        }
        #expect(link(freshness).isEmpty)
        #expect(link(freshness + 1).map(\.message) == ["a report was sent \(freshness + 1) ms old, over its freshness"])
    }

    @Test func linkAReportIsSentInTheInstantItsFixArrivesNotOneMillisecondLater() throws {
        var c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let i = try c.first { if case .road(.reportSent(FixIndex(1), _, _, _)) = $0.what { true } else { false } }
        guard case .road(.reportSent(let fix, let age, let onRoute, let next)) = c.events[i].what else {
            throw BrokenTimelineTests.Broken()
        }
        c.events[i].what = .road(.reportSent(fix, ageMs: age + 1, onRoute: onRoute, next: next))
        c.move(i, to: c.events[i].t + ms(1))
        #expect(Self.roadChecks(c) == [.road(.link)])
    }

    @Test func linkAReportMaySetOffInTheInstantTheOneBeforeLandsNotBefore() throws {
        // f0 is made to land at f1's send (1.2 s): first, then after it, in the same millisecond.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let sent1 = try c.first { if case .road(.reportSent(FixIndex(1), _, _, _)) = $0.what { true } else { false } }
        let t = c.events[sent1].t
        var before = c
        var after = c
        for (d, offset) in [(0, 0), (1, 1)] {
            var e = d == 0 ? before : after
            let delivered = try e.first {
                if case .road(.reportDelivered(FixIndex(0))) = $0.what { true } else { false }
            }
            var event = e.events.remove(at: delivered)
            event.t = t
            let at = try e.first { if case .road(.reportSent(FixIndex(1), _, _, _)) = $0.what { true } else { false } }
            e.events.insert(event, at: at + offset)
            if d == 0 { before = e } else { after = e }
        }
        #expect(Self.roadChecks(before).isEmpty)
        #expect(Self.roadChecks(after) == [.road(.link)])
    }

    @Test func lineAfterManeuverALineHeardInTheInstantOfThePassPassesOneHeard1MillisecondLaterDoesNot() throws {
        // Recorded fixes: no trajectory, so no speeding up excuses a late line.
        let c = try Case("road/recorded-true-track")
        try #require(c.checks.isEmpty)
        let roster = c.run.timeline.roster
        let passed = try c.first { if case .road(.turnPassed) = $0.what { true } else { false } }
        guard case .road(.turnPassed(let m)) = c.events[passed].what else { throw BrokenTimelineTests.Broken() }
        let id = roster.road.maneuvers[m.int].id
        let pass = c.events[passed].t
        let latency = try #require(c.scenario.road).guidance.outputLatency
        let ended = try c.first {
            if case .guidanceEnded(let l) = $0.what { roster.lines[l.int].id == "\(id).now" } else { false }
        }
        var onTime = c
        var late = c
        onTime.move(ended, to: pass - latency)
        late.move(ended, to: pass - latency + ms(1))
        #expect(Self.roadChecks(onTime).isEmpty)
        #expect(Self.roadChecks(late) == [.road(.lineAfterManeuver)])
    }

    @Test func passedTruthATurnPassedInTheInstantTheTrueTrackPassesItIsNotEarly() throws {
        let c = try Case("road/recorded-true-track")
        try #require(c.checks.isEmpty)
        let road = try #require(c.scenario.road)
        let truth = try #require(Invariants.RoadTruth(road))
        let passed = try c.first { if case .road(.turnPassed) = $0.what { true } else { false } }
        guard case .road(.turnPassed(let m)) = c.events[passed].what else { throw BrokenTimelineTests.Broken() }
        let truePass = try #require(truth.passes[c.run.timeline.roster.road.maneuvers[m.int].id])
        try #require(c.events[passed].t >= truePass)
        var exact = c
        var early = c
        exact.move(passed, to: truePass)
        early.move(passed, to: truePass - ms(1))
        #expect(Invariants.checkRoadTruth(exact.scenario, exact.run).isEmpty)
        #expect(Set(Invariants.checkRoadTruth(early.scenario, early.run).map(\.check)) == [.road(.passedTruth)])
    }

    @Test func announcedATurnTheTrueTrackReachesInTheTimelinesLastInstantMustBePassed() throws {
        // The timeline is cut just before m1's true pass and ends at it, or 1 ms before it, without its pass.
        let c = try Case("road/recorded-true-track")
        try #require(c.checks.isEmpty)
        let road = try #require(c.scenario.road)
        let truth = try #require(Invariants.RoadTruth(road))
        let id = c.run.timeline.roster.road.maneuvers[0].id
        let truePass = try #require(truth.passes[id])
        func endingAt(_ end: SimTime) -> Set<Check> {
            var d = c
            d.events = d.events.filter { $0.t < end } + [TimelineEvent(t: end, .earsOpened)]
            return Set(Invariants.checkRoadTruth(d.scenario, d.run).map(\.check))
        }
        #expect(endingAt(truePass) == [.road(.announced)])
        #expect(endingAt(truePass - ms(1)).isEmpty)
    }

    @Test func geodesyTheGapMayBeOffByOneMeterAndATenthOfAPercentNoMore() throws {
        let c = try Case("road/highway-120")
        try #require(c.checks.isEmpty)
        let road = try #require(c.scenario.road)
        let route = try #require(Invariants.RoadTruth(road)).route
        let i = try c.first { if case .road(.turnUpcoming(_, _, _?)) = $0.what { true } else { false } }
        guard case .road(.turnUpcoming(let next, let eta, let after?)) = c.events[i].what else {
            throw BrokenTimelineTests.Broken()
        }
        let earth = Invariants.earthLengths(route)
        func onEarth(_ d: Double) -> Double {
            let k = route.segment(at: d)
            let span = route.cumulative[k + 1] - route.cumulative[k]
            let u = span > 0 ? min(max((d - route.cumulative[k]) / span, 0), 1) : 0
            return earth[k] + u * (earth[k + 1] - earth[k])
        }
        let expected =
            onEarth(route.maneuvers[after.maneuver.int].distance) - onEarth(route.maneuvers[next.maneuver.int].distance)
        let allowed = 1 + expected / 1000
        func saying(_ gap: Int64) -> Set<Check> {
            var d = c
            var moved = after
            moved.distanceM = next.distanceM + gap
            d.events[i].what = .road(.turnUpcoming(next, etaMs: eta, after: moved))
            return Set(Invariants.checkRoadTruth(d.scenario, d.run).map(\.check))
        }
        let most = Int64((expected + allowed).rounded(.down))
        let least = Int64((expected - allowed).rounded(.up))
        #expect(saying(most).isEmpty)
        #expect(saying(most + 1) == [.road(.geodesy)])
        #expect(saying(least).isEmpty)
        #expect(saying(least - 1) == [.road(.geodesy)])
    }

    @Test func whenInUseALineMayStartInTheInstantItsSegmentBeginsNotOneMillisecondBefore() throws {
        let c = try Case("road/segment-ends-mid-line")
        try #require(c.checks.isEmpty)
        let started = try c.first { if case .guidanceStarted = $0.what { true } else { false } }
        let ended = try c.first { if case .guidanceEnded = $0.what { true } else { false } }
        let (start, end) = (c.events[started].t, c.events[ended].t)
        func within(_ segments: [SimInterval]) -> Set<Check> {
            var d = c
            d.scenario.road?.segments = segments
            return Set(Invariants.checkWhenInUse(d.scenario, d.run).map(\.check))
        }
        // Measuring never pauses between two segments that meet: only where the line lies matters.
        // The scenario's segment ends at 96.5 s.
        let last = SimInterval(end, ms(96_500))
        #expect(within([SimInterval(.zero, start), SimInterval(start, end), last]).isEmpty)
        #expect(
            within([SimInterval(.zero, start + ms(1)), SimInterval(start + ms(1), end), last]) == [.road(.whenInUse)])
        #expect(within([SimInterval(.zero, end - ms(1)), SimInterval(end - ms(1), ms(96_500))]) == [.road(.whenInUse)])
    }

    @Test func nowLineAThenClaimStandsOnTheManeuverBeforesNowLineDroppedAndNeverOnTheFirstManeuver() throws {
        // gps-gap: m1's "now" line plays; m2 is passed with its own.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let roster = c.run.timeline.roster
        let m2Now = try c.first {
            if case .guidanceEnded(let l) = $0.what { roster.lines[l.int].id == "m2.now" } else { false }
        }
        let m2Passed = try c.first { if case .road(.turnPassed(ManeuverIndex(1))) = $0.what { true } else { false } }
        // m2's own "now" line is gone and m2 claims `then`: m1's "now" line played, or was dropped.
        var claim = c
        claim.events[m2Now].what = .guidanceDropped(
            roster.lines.firstIndex { $0.id == "m2.now" }.map(LineIndex.init)!, rule: .stale)
        claim.events.insert(
            TimelineEvent(t: claim.events[m2Passed].t, .road(.turnUnannounced(ManeuverIndex(1), reason: .then))),
            at: m2Passed)
        #expect(!Self.roadChecks(claim).contains(.road(.nowLine)))
        let m1Now = try claim.first {
            if case .guidanceEnded(let l) = $0.what { roster.lines[l.int].id == "m1.now" } else { false }
        }
        var dropped = claim
        dropped.events[m1Now].what = .guidanceDropped(
            roster.lines.firstIndex { $0.id == "m1.now" }.map(LineIndex.init)!, rule: .stale)
        #expect(!Self.roadChecks(dropped).contains(.road(.nowLine)))
        // Neither (m1 itself says why it had none): the claim is m2's alone to answer for.
        var neither = claim
        neither.events[m1Now].what = .road(.turnUnannounced(ManeuverIndex(0), reason: .late))
        let found = Invariants.checkRoad(neither.scenario, neither.run).filter { $0.check == .road(.nowLine) }
        #expect(
            found.map(\.message) == [
                "maneuver m2 is said to be announced with the one before, whose \"now\" line neither played nor was dropped"
            ])
        // The first maneuver has none before it to be announced with.
        var first = c
        let m1Passed = try first.first {
            if case .road(.turnPassed(ManeuverIndex(0))) = $0.what { true } else { false }
        }
        first.events.insert(
            TimelineEvent(t: first.events[m1Passed].t, .road(.turnUnannounced(ManeuverIndex(0), reason: .then))),
            at: m1Passed)
        #expect(Self.roadChecks(first) == [.road(.nowLine), .road(.thenClaim)])
    }

    @Test func jumpDroppedAJumpExactlyAsFarAsTheCarCouldGoMayBeUsedOneBeyondItMayNot() throws {
        // corner-jump-slow-car: f63 lies some 40 m beyond both accuracies from f62, a second before.
        var c = try Case("road/corner-jump-slow-car")
        try #require(c.checks.isEmpty)
        c.events.removeAll { if case .road(.fixDropped(_, .implausible)) = $0.what { true } else { false } }
        let road = try #require(c.scenario.road)
        let truth = try #require(Invariants.RoadTruth(road))
        let f62 = try #require(truth.fix(FixIndex(62)))
        let f63 = try #require(truth.fix(FixIndex(63)))
        try #require(f63.taken - f62.taken == ms(1_000))
        let least = try #require(Invariants.leastApart(f63, f62, on: truth.route))
        // The speeds' limit out of the way: plausibleSpeed alone decides, over one second.
        func used(plausibleSpeed: Double) -> [Violation] {
            var r = road
            r.follow.plausibleAccel = 1_000
            r.follow.plausibleSpeed = plausibleSpeed
            return Invariants.checkJumps(r, truth, c.run.timeline)
        }
        #expect(used(plausibleSpeed: least).isEmpty)
        #expect(used(plausibleSpeed: least.nextDown).map(\.check) == [.road(.jumpDropped)])
    }

    @Test func spokenDistanceALineMaySayWhatIsLeftAndTheFixesSlackNotACentimeterMore() throws {
        // gps-gap's m1 (a corner) moved west, sooner along the road, until one of its far or near
        // lines says more than is left when it starts plus the fixes' slack (`RoadTruth.ahead`):
        // a centimeter short of that, nothing fires; a centimeter beyond, spoken-distance does.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let roster = c.run.timeline.roster
        let lines = c.events.compactMap { event -> (t: SimTime, said: Double)? in
            guard case .guidanceStarted(let l) = event.what, roster.stage(of: l) != .now,
                roster.lines[l.int].maneuver == "m1",
                let text = roster.text(of: l, startingAt: event.t), let said = Invariants.spokenMeters(text)
            else { return nil }
            return (event.t, said)
        }
        try #require(lines.count >= 2)
        func moved(west degrees: Double) throws -> (scenario: Scenario, margin: Double) {
            var scenario = c.scenario
            let m1 = try #require(scenario.road?.maneuvers.firstIndex { $0.id == "m1" })
            scenario.road?.maneuvers[m1].point.longitude -= degrees
            let road = try #require(scenario.road)
            let truth = try #require(Invariants.RoadTruth(road))
            let trajectory = try #require(truth.trajectory)
            let point = try #require(truth.distances["m1"])
            let margin = lines.map { point - trajectory.state(at: $0.t).distance + truth.ahead! - $0.said }.min()!
            return (scenario, margin)
        }
        // Bisect to where the least margin crosses zero.
        var (low, high) = (0.0, 0.003)
        try #require(try moved(west: low).margin > 0 && moved(west: high).margin < 0)
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if try moved(west: mid).margin > 0 { low = mid } else { high = mid }
        }
        let short = try moved(west: low - 0.000_000_1)
        let beyond = try moved(west: high + 0.000_000_1)  // about a centimeter
        #expect(short.margin > 0 && short.margin < 0.02 && beyond.margin < 0 && beyond.margin > -0.02)
        func spoken(_ scenario: Scenario) -> [Violation] {
            Invariants.checkRoadTruth(scenario, c.run).filter { $0.check == .road(.spokenDistance) }
        }
        #expect(spoken(short.scenario).isEmpty)
        #expect(spoken(beyond.scenario).count == 1)
    }

    @Test func lateClaimAClaimMayLeaveExactlyWhatANowLineNeedsNotAMillisecondMore() throws {
        // A `late` skip of m2's "now" stage, put where the pass the app could predict (from the
        // last fix it used) lies exactly the documented allowance after it, then 1 ms sooner.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let road = try #require(c.scenario.road)
        let truth = try #require(Invariants.RoadTruth(road))
        let trajectory = try #require(truth.trajectory)
        let point = try #require(truth.distances["m2"])
        // Each used fix: when it arrived and was taken.
        var used: [(arrived: SimTime, taken: SimTime)] = []
        for event in c.events {
            if case .road(.fixArrived(_, let age, true)) = event.what { used.append((event.t, event.t - ms(age))) }
        }
        var claim: SimTime? = nil
        for (k, fix) in used.enumerated() {
            let known = trajectory.state(at: fix.taken)
            guard known.speed >= Announcer.standing else { continue }
            let predicted = fix.taken + ms(Int64(((point - known.distance) / known.speed * 1000).rounded(.down)))
            let noise = Double(FixGenerator.speedNoiseMms) / 1000
            let line = Invariants.nowLengths(
                1, at: max(0, known.speed - noise)...(known.speed + noise), c.run.timeline.roster.road.maneuvers,
                truth.ids, road.guidance
            ).longest
            let needed =
                line + road.guidance.outputLatency + road.guidance.margin
                + ms(Int64((try #require(truth.ahead) / known.speed * 1000).rounded(.up))) + Invariants.lateSlack
            let t = predicted - needed
            let next = k + 1 < used.count ? used[k + 1].arrived : .endOfTime
            if fix.arrived < t - ms(1), t < next, t - fix.taken <= Invariants.positionFresh {
                claim = t
                break
            }
        }
        let t = try #require(claim)
        func claiming(at t: SimTime) -> [Check] {
            var d = c
            let i = d.events.firstIndex { $0.t > t } ?? d.events.count
            d.events.insert(
                TimelineEvent(t: t, .road(.stageSkipped(ManeuverIndex(1), stage: .now, reason: .late))), at: i)
            return Invariants.checkLateClaims(d.scenario, d.run, truth).map(\.check)
        }
        #expect(claiming(at: t).isEmpty)
        #expect(claiming(at: t - ms(1)) == [.road(.lateClaim)])
    }
}

/// A guidance that says one line, `text`, for maneuver `m` at `stage`, at its first span.
private struct OneLine: Guidance {
    let m: Int, stage: Stage, text: String
    let route: GuidanceRoute
    var said = false
    var segmentEnd: SimTime? = nil
    var nowSpoken: [Bool]

    init(_ route: GuidanceRoute, m: Int, stage: Stage, text: String) {
        self.route = route
        self.m = m
        self.stage = stage
        self.text = text
        nowSpoken = Array(repeating: true, count: route.maneuvers.count)
    }

    mutating func announce(_ state: RoadState, from: SimTime, until: SimTime, into out: inout [Announcement]) {
        guard !said else { return }
        said = true
        let line = GuidanceLine(
            id: "x", at: from, duration: ms(1_000), text: text, language: .en, maneuver: route.maneuvers[m].id)
        out.append(.line(line, maneuver: m, stage: stage))
    }
    func rerouteLine(at t: SimTime, back: Bool) -> GuidanceLine? { nil }
    func unannounced(_ m: Int) -> RoadEvent.UnannouncedReason? { nil }
}

@Suite struct WordsAndIDBoundaryTests {
    /// A right turn onto Main Street at 900 m, a left onto Oak Avenue at 1,600 m, the arrival at 2 km.
    static let scenario = """
        { "drivesim": 1, "name": "three streets", "road": { "language": "en",
          "route": { "points": [ { "lat": 37.5, "lon": 127.0 }, { "lat": 37.5, "lon": 127.0226 } ],
                     "maneuvers": [ { "id": "m1", "lat": 37.5, "lon": 127.0102, "turn": "right", "street": "Main Street" },
                                    { "id": "m2", "lat": 37.5, "lon": 127.0181, "turn": "left", "street": "Oak Avenue" },
                                    { "id": "m3", "lat": 37.5, "lon": 127.0226, "turn": "arrive" } ] },
          "drive": { "speeds": [ { "from": 0, "kmh": 50 } ] } } }
        """

    /// The `line-words` messages about line x, said for maneuver `m` at `stage`.
    static func words(_ text: String, m: Int = 0, stage: Stage = .far) throws -> [String] {
        let scenario = try ScenarioDecoder.decode(Array(Self.scenario.utf8), file: "streets.json")
        let plan = try RoadPlan(scenario.road) { OneLine($0, m: m, stage: stage, text: text) }
        let run = Simulation(scenario, plan: plan)
        #expect(
            run.timeline.events.contains {
                if case .guidanceStarted(let l) = $0.what { run.timeline.roster.lines[l.int].id == "x" } else { false }
            })
        return Invariants.checkWords(scenario, run).map(\.message).filter { $0.hasPrefix("line x ") }
    }

    @Test func lineWordsAFarLineSaysADistanceInTheVoicesUnitsAndNamesItsOwnTurnAndStreet() throws {
        #expect(try Self.words("In 800 meters, turn right onto Main Street.").isEmpty)
        #expect(
            try Self.words("Turn right onto Main Street.") == [
                "line x (far, m1) says no distance: \"Turn right onto Main Street.\""
            ])
        #expect(try Self.words("In 800 feet, turn right onto Main Street.").count == 1)
        #expect(try Self.words("In 800 meters, turn left onto Main Street.").count == 1)
        // The one before's street in place of its own; the next one's may follow (", then").
        #expect(try Self.words("In 800 meters, turn left onto Oak Avenue.", m: 1).isEmpty)
        #expect(
            try Self.words("In 800 meters, turn left onto Main Street.", m: 1) == [
                "line x (far, m2) names m1's street, Main Street, not its own, Oak Avenue: \"In 800 meters, turn left onto Main Street.\""
            ])
        #expect(try Self.words("In 800 meters, turn right onto Main Street, then turn left onto Oak Avenue.").isEmpty)
    }

    @Test func lineWordsANowLineSaysNoDistance() throws {
        #expect(try Self.words("Now turn right onto Main Street.", stage: .now).isEmpty)
        #expect(try Self.words("In 10 meters, turn right now.", stage: .now).count == 1)
    }

    @Test func lineIDEveryIDTheScenarioHoldsIsTakenOneThatDiffersIsNot() throws {
        // The road's first generated line; each kind of id the scenario holds, named like it or not.
        let c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let generated = try #require(c.run.timeline.roster.road.lines.first).id
        func fired(_ id: String, _ put: (inout Scenario, String) -> Void) -> Bool {
            var d = c
            put(&d.scenario, id)
            return !Invariants.checkLineIDs(d.scenario, d.run).isEmpty
        }
        let kinds: [(String, (inout Scenario, String) -> Void)] = [
            ("line", { $0.guidance.append(GuidanceLine(id: $1, at: .zero, duration: ms(1_000))) }),
            (
                "reply",
                { $0.replies.append(.init(id: $1, at: .zero, stretches: [.init(id: "s", duration: ms(1_000))])) }
            ),
            (
                "stretch",
                { $0.replies.append(.init(id: "r", at: .zero, stretches: [.init(id: $1, duration: ms(1_000))])) }
            ),
            ("utterance", { $0.dad.append(.init(id: $1, at: .zero, duration: ms(1_000), language: .en)) }),
        ]
        for (kind, put) in kinds {
            #expect(fired(generated, put), "\(kind)")
            #expect(!fired(generated + "x", put), "\(kind)")
        }
    }
}
