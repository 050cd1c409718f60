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

/// One run of a corpus scenario (or of a scenario built in a test), to be broken
/// by hand: its checks must pass before the break, so nothing passes vacuously.
struct Case {
    var scenario: Scenario
    var run: Simulation

    init(_ name: String) throws { try self.init(Fixtures.scenario(name)) }

    init(_ scenario: Scenario, fault: TalkArbiter.Fault? = nil) {
        self.scenario = scenario
        run = Simulation(scenario, fault: fault)
    }

    var events: [TimelineEvent] {
        get { run.timeline.events }
        set { run.timeline.events = newValue }
    }

    /// The index of the first event that matches.
    func first(_ matches: (TimelineEvent) -> Bool) throws -> Int {
        let i = events.firstIndex(where: matches)
        return try #require(i, "the scenario has the event to break")
    }

    /// Inserts road event `what` as generated line `id` starts, just before its start.
    mutating func insert(_ what: RoadEvent.What, asLineStarts id: String) throws {
        let roster = run.timeline.roster
        let start = try first {
            if case .guidanceStarted(let l) = $0.what { roster.lines[l.int].id == id } else { false }
        }
        events.insert(TimelineEvent(t: events[start].t, .road(what)), at: start)
    }

    /// Moves event `i` to time `t`, after every event up to `t`, so the timeline stays in time order.
    mutating func move(_ i: Int, to t: SimTime) {
        var event = events.remove(at: i)
        event.t = t
        events.insert(event, at: events.firstIndex { $0.t > t } ?? events.count)
    }

    /// Changes what the cut at event `i` says; each part left nil stays as recorded.
    mutating func recut(
        _ i: Int, rule: Rule? = nil, by: TalkArbiter.Cause? = nil, playedMs: Int64? = nil,
        afterCut: TalkArbiter.AfterCut? = nil
    ) throws {
        guard case .stretchCut(let r, let k, let was, let cause, let played, let then) = events[i].what else {
            throw BrokenTimelineTests.Broken()
        }
        events[i].what = .stretchCut(
            r, k, rule: rule ?? was, by: by ?? cause, playedMs: playedMs ?? played, afterCut: afterCut ?? then)
    }

    /// The cause of the cut at event `i`.
    func cause(ofCut i: Int) throws -> TalkArbiter.Cause {
        guard case .stretchCut(_, _, _, let by, _, _) = events[i].what else { throw BrokenTimelineTests.Broken() }
        return by
    }

    /// Every check of the run but invariant 7.
    var checks: Set<Check> { Set(Invariants.check(scenario, run).map(\.check)) }
}

/// A timeline (or the bus's record) broken so that exactly one check must
/// fire, for every check there is: switch any check off and its test fails.
@Suite struct BrokenTimelineTests {
    /// The checks that fire on the broken record (and, for invariant 7, the
    /// two runs compared); each case first requires its unbroken run to pass.
    static func fired(breaking check: Check) throws -> Set<Check> {
        switch check {
        case .invariant(1):
            // The bus hears a line start over a stretch (after the drive ends);
            // the timeline closes the ears for it, as a line does.
            var c = try Case("urgent-cut")
            try #require(c.checks.isEmpty)
            let end = c.events.last!.t + ms(10_000)
            c.run.bus.startStretch(0, at: end)
            c.run.bus.startGuidance(0, at: end)
            c.events.append(TimelineEvent(t: end, .earsClosed))
            return c.checks
        case .invariant(2):
            // The ears never close for the line.
            var c = try Case("short-wait")
            try #require(c.checks.isEmpty)
            c.events.remove(at: try c.first { $0.kind == .earsClosed })
            return c.checks
        case .invariant(3):
            // The urgent line was requested 500 ms before it cut the stretch.
            var c = try Case("urgent-cut")
            try #require(c.checks.isEmpty)
            c.move(try c.first { $0.kind == .guidanceRequested }, to: ms(1_500))
            return c.checks
        case .invariant(4):
            // The line was requested at 0.5 s: it waited 3.5 s for s1 (its
            // short-wait decision at 2 s, with 2 s left, still stands).
            var c = try Case("short-wait")
            try #require(c.checks.isEmpty)
            c.move(try c.first { $0.kind == .guidanceRequested }, to: ms(500))
            return c.checks
        case .invariant(5):
            // The cut says s1 (10 s) had played 8 s: only 2 s left, within waitLimit.
            var c = try Case("long-cut")
            try #require(c.checks.isEmpty)
            let i = try c.first { $0.kind == .stretchCut }
            try c.recut(i, playedMs: 8_000)
            return c.checks
        case .invariant(6):
            // The line never ends.
            var c = try Case("short-wait")
            try #require(c.checks.isEmpty)
            c.events.remove(at: try c.first { $0.kind == .guidanceEnded })
            return c.checks
        case .invariant(7):
            // Two runs that differ in one event's time.
            let a = try Case("spec-example")
            var b = a
            try #require(a.checks.isEmpty && Verdict.firstDifference(a.run.timeline, b.run.timeline) == nil)
            b.events[b.events.count - 1].t = b.events[b.events.count - 1].t + ms(1)
            return a.checks.union([Verdict.firstDifference(a.run.timeline, b.run.timeline)].compactMap { $0?.check })
        case .rule(.guidanceQueue):
            // o2 plays before o1, which was requested first.
            var c = try Case("guidance-queue-fcfs")
            try #require(c.checks.isEmpty)
            let o1 = c.run.timeline.roster.lines.firstIndex { $0.id == "o1" }!
            let o2 = c.run.timeline.roster.lines.firstIndex { $0.id == "o2" }!
            func swap(_ l: LineIndex) -> LineIndex { l.int == o1 ? LineIndex(o2) : l.int == o2 ? LineIndex(o1) : l }
            for i in c.events.indices {
                switch c.events[i].what {
                case .guidanceStarted(let l): c.events[i].what = .guidanceStarted(swap(l))
                case .guidanceEnded(let l): c.events[i].what = .guidanceEnded(swap(l))
                default: continue
                }
            }
            return c.checks
        case .rule(.superseded):
            // g2 is dropped in the right instant, but as stale, not superseded.
            var c = try Case("superseded")
            try #require(c.checks.isEmpty)
            let i = try c.first { $0.kind == .guidanceDropped }
            guard case .guidanceDropped(let l, _) = c.events[i].what else { throw Broken() }
            c.events[i].what = .guidanceDropped(l, rule: .stale)
            return c.checks
        case .rule(.stale):
            // g2 is dropped 1 ms after it expired.
            var c = try Case("stale")
            try #require(c.checks.isEmpty)
            let i = try c.first { $0.kind == .guidanceDropped }
            c.move(i, to: c.events[i].t + ms(1))
            return c.checks
        case .rule(.held):
            // s2 could start at 1.5 s and started at 3.2 s, but says it was held 1701 ms.
            var c = try Case("held")
            try #require(c.checks.isEmpty)
            let i = try c.first { if case .stretchStarted(_, _, heldMs: .some) = $0.what { true } else { false } }
            guard case .stretchStarted(let r, let k, _) = c.events[i].what else { throw Broken() }
            c.events[i].what = .stretchStarted(r, k, heldMs: 1_701)
            return c.checks
        case .rule(.afterCut):
            // The cut says skip, but s1 is played again.
            var c = try Case("after-cut-repeat")
            try #require(c.checks.isEmpty)
            let i = try c.first { $0.kind == .stretchCut }
            try c.recut(i, afterCut: .skip)
            return c.checks
        case .rule(.bargeIn):
            // Dad is heard from 1.9 s, but the reply is abandoned only at 2 s.
            var c = try Case("barge-in")
            try #require(c.checks.isEmpty)
            c.move(try c.first { $0.kind == .dadStarted }, to: ms(1_900))
            return c.checks
        case .rule(.replyQueue):
            // r2 becomes active before r1 has ended (same instant, wrong order).
            var c = try Case("reply-queue")
            try #require(c.checks.isEmpty)
            let ended = try c.first { $0.kind == .replyEnded }
            let began = try c.first { $0.kind == .replyBegan && $0.t == c.events[ended].t }
            c.events.swapAt(ended, began)
            return c.checks
        case .decision(.shortWait):
            // A real broken decision: with `wait-limit-loose`, g1 waits for s1
            // with 3001 ms left; Dad's barge-in then ends s1 after 501 ms of
            // waiting, so invariant 4 sees nothing wrong.
            let c = Case(Self.waitOverLimitThenBargeIn(requestAt: ms(6_999)), fault: .waitLimitLoose)
            try #require(Case(Self.waitOverLimitThenBargeIn(requestAt: ms(6_999))).checks.isEmpty)
            return c.checks
        case .decision(.longCut):
            // The urgent line's cut is labelled long-cut: only an ordinary line may long-cut.
            var c = try Case("urgent-cut")
            try #require(c.checks.isEmpty)
            let i = try c.first { $0.kind == .stretchCut }
            try c.recut(i, rule: .longCut)
            return c.checks
        case .decision(.bargeIn):
            // A real broken decision: with `barge-in-while-playing-only`, s1
            // starts in the instant Dad is heard and is cut by barge-in at once.
            let c = Case(Self.dadAtChunkReady(dadAt: ms(1_000)), fault: .bargeInWhilePlayingOnly)
            try #require(Case(Self.dadAtChunkReady(dadAt: ms(1_000))).checks.isEmpty)
            return c.checks
        case .road(.lineAfterManeuver):
            // m2's near line ends 1 ms after m2 was passed.
            var c = try Case("road/gps-gap")
            try #require(c.checks.isEmpty)
            let roster = c.run.timeline.roster
            let passed = try c.first {
                if case .road(.turnPassed(let m)) = $0.what { roster.road.maneuvers[m.int].id == "m2" } else { false }
            }
            let ended = try c.first {
                if case .guidanceEnded(let l) = $0.what { roster.lines[l.int].id == "m2.near" } else { false }
            }
            c.move(ended, to: c.events[passed].t + ms(1))
            return c.checks
        case .road(.nowLine):
            // m1 is passed without a now line (no fix in the tunnel), and the timeline no longer says why.
            var c = try Case("road/tunnel-beyond-horizon")
            try #require(c.checks.isEmpty)
            c.events.remove(at: try c.first { if case .road(.turnUnannounced) = $0.what { true } else { false } })
            return c.checks
        case .road(.link):
            // The first report sent 1 ms older than the link's freshness (and delivered:
            // that it lands stale is the sender's fault, not the link's).
            var c = try Case("road/gps-gap")
            try #require(c.checks.isEmpty)
            let freshness = try #require(c.scenario.road).link.freshness.ms
            let i = try c.first { if case .road(.reportSent) = $0.what { true } else { false } }
            guard case .road(.reportSent(let fix, _, let onRoute, let next)) = c.events[i].what else { throw Broken() }
            c.events[i].what = .road(.reportSent(fix, ageMs: freshness + 1, onRoute: onRoute, next: next))
            return c.checks
        case .road(.announced):
            // The car reaches the exit, but the timeline never says it passed it.
            var c = try Case("road/highway-120")
            try #require(c.checks.isEmpty)
            let roster = c.run.timeline.roster
            c.events.remove(
                at: try c.first {
                    if case .road(.turnPassed(let m)) = $0.what {
                        roster.road.maneuvers[m.int].id == "exit"
                    } else {
                        false
                    }
                })
            return c.checks
        case .road(.linkHonest):
            // A fix the busy link dropped is no longer accounted for.
            var c = try Case("road/slow-link-timeout")
            try #require(c.checks.isEmpty)
            c.events.remove(
                at: try c.first { if case .road(.reportDropped(_, .busy)) = $0.what { true } else { false } })
            return c.checks
        case .road(.spokenDistance):
            // The truth has every maneuver 80 m sooner than the run believed (the
            // gaps between them the same): its lines say more meters than are
            // truly left (the timeline is the run's own).
            var c = try Case("road/dense-detour")
            try #require(c.checks.isEmpty)
            c.scenario = RoadTruthCheckTests.maneuversSooner(c.scenario, vertices: 8)
            // Its reports would tell Pippa the same meters too many (`pippa-view`'s): they carry none here.
            for i in c.events.indices {
                guard case .road(.reportSent(let f, let age, let onRoute, _?)) = c.events[i].what else { continue }
                c.events[i].what = .road(.reportSent(f, ageMs: age, onRoute: onRoute, next: nil))
            }
            return c.checks
        case .road(.passedTruth):
            // m1 is passed 1 ms before the true track reaches it.
            var c = try Case("road/recorded-true-track")
            try #require(c.checks.isEmpty)
            let i = try c.first { if case .road(.turnPassed) = $0.what { true } else { false } }
            c.move(i, to: c.events[i].t - ms(1))
            return c.checks
        case .road(.jumpDropped):
            // The jump at the corner (78 m in a second at 9 m/s) is used: its drop is gone.
            var c = try Case("road/corner-jump-slow-car")
            try #require(c.checks.isEmpty)
            c.events.remove(
                at: try c.first { if case .road(.fixDropped(_, .implausible)) = $0.what { true } else { false } })
            return c.checks
        case .road(.geodesy):
            // The first upcoming turn puts the one after it 3% farther than the earth does.
            var c = try Case("road/highway-120")
            try #require(c.checks.isEmpty)
            let i = try c.first { if case .road(.turnUpcoming(_, _, _?)) = $0.what { true } else { false } }
            guard case .road(.turnUpcoming(let next, let eta, var after?)) = c.events[i].what else { throw Broken() }
            after.distanceM += (after.distanceM - next.distanceM) * 3 / 100
            c.events[i].what = .road(.turnUpcoming(next, etaMs: eta, after: after))
            return c.checks
        case .road(.whenInUse):
            // Dad's guidance segment ends 1 ms before the far line does.
            var c = try Case("road/segment-ends-mid-line")
            try #require(c.checks.isEmpty)
            let i = try c.first { if case .guidanceEnded = $0.what { true } else { false } }
            let end = c.events[i].t - ms(1)
            c.scenario.road?.segments = [SimInterval(.zero, end)]
            return c.checks
        case .road(.lineID):
            // The scenario holds a line of its own named like a generated one (as a guidance may answer).
            var c = try Case("road/gps-gap")
            try #require(c.checks.isEmpty)
            c.scenario.guidance.append(GuidanceLine(id: "m1.far", at: .zero, duration: ms(1_000)))
            return c.checks
        case .road(.lineWords):
            // The English voice is imperial: its lines say meters.
            var c = try Case("road/gps-gap")
            try #require(c.checks.isEmpty)
            c.scenario.road?.guidance.units = .imperial
            return c.checks
        case .road(.lateClaim):
            // m1's "now" stage is said to be skipped as late when its far line starts, half a kilometer before it.
            var c = try Case("road/gps-gap")
            try #require(c.checks.isEmpty)
            try c.insert(.stageSkipped(ManeuverIndex(0), stage: .now, reason: .late), asLineStarts: "m1.far")
            return c.checks
        case .road(.thenClaim):
            // m2's far stage is said to be skipped as announced with m1 as m1's far line starts; no line of m1 names m2.
            var c = try Case("road/gps-gap")
            try #require(c.checks.isEmpty)
            try c.insert(.stageSkipped(ManeuverIndex(1), stage: .far, reason: .then), asLineStarts: "m1.far")
            return c.checks
        case .road(.routeSwitch):
            // A report after the switch onto r1 still names m1, the old route's turn.
            var c = try Case("road/reroute-onto-another-road")
            try #require(c.checks.isEmpty)
            let switched = try c.first { if case .road(.routeSwitched) = $0.what { true } else { false } }
            let i = try c.first {
                if case .road(.reportSent(_, _, _, _?)) = $0.what { $0.t > c.events[switched].t } else { false }
            }
            guard case .road(.reportSent(let f, let age, let onRoute, var next?)) = c.events[i].what else {
                throw Broken()
            }
            next.maneuver = ManeuverIndex(0)
            c.events[i].what = .road(.reportSent(f, ageMs: age, onRoute: onRoute, next: next))
            return c.checks
        case .road(.pippaView):
            // A report sent off the route still tells Pippa how far m1 is along the road the car left.
            var c = try Case("road/off-route")
            try #require(c.checks.isEmpty)
            let i = try c.first { if case .road(.reportSent(_, _, false, nil)) = $0.what { true } else { false } }
            guard case .road(.reportSent(let f, let age, _, _)) = c.events[i].what else { throw Broken() }
            c.events[i].what = .road(
                .reportSent(f, ageMs: age, onRoute: false, next: .init(ManeuverIndex(0), distanceM: 900)))
            return c.checks
        case .road(.switchLine):
            // The handoff is now to the pharmacy, but its switch line still names where it went before.
            var c = try Case("road/handoff-through-an-outage")
            try #require(c.checks.isEmpty)
            let h = try #require(c.scenario.road?.changes.firstIndex { $0.handoff != nil })
            c.scenario.road?.changes[h].handoff?.destination = "the pharmacy"
            return c.checks
        case .road(.handoff):
            // The duplicate delivery is neither taken nor ignored.
            var c = try Case("road/handoff-through-an-outage")
            try #require(c.checks.isEmpty)
            c.events.remove(at: try c.first { if case .road(.handoffIgnored) = $0.what { true } else { false } })
            return c.checks
        case .decision(.urgentCut):
            // The long cut is labelled urgent-cut: the ordinary line that cut cannot cut by it.
            var c = try Case("long-cut")
            try #require(c.checks.isEmpty)
            let i = try c.first { $0.kind == .stretchCut && $0.rule == .longCut }
            try c.recut(i, rule: .urgentCut)
            return c.checks
        case .arbiter(.impossibleAction):
            // An arbiter that starts a line that does not exist: the run stops at
            // that action, and the violation names it.
            let file = try Fixtures.scenario("urgent-cut")
            try #require(try Verdict(file).passed)
            return Set(try Verdict(file, arbiter: Impossible.self).violations.map(\.check))
        case .arbiter(.divergence):
            // A Swift arbiter that compares short-wait's remaining time with `<`:
            // at exactly waitLimit left it cuts where the reference waits.
            let file = try Fixtures.scenario("short-wait-at-limit")
            try #require(try Verdict(file, arbiter: Wrapped<Faithful>.self, differential: true).passed)
            // The same arbiter breaks timeline checks too: what differential mode
            // adds to them is exactly the divergence.
            let alone = Set(try Verdict(file, arbiter: Wrapped<StrictWait>.self).violations.map(\.check))
            return Set(try Verdict(file, arbiter: Wrapped<StrictWait>.self, differential: true).violations.map(\.check))
                .subtracting(alone)
        default:
            Issue.record("no broken timeline for \(check)")
            return []
        }
    }

    struct Broken: Error {}

    @Test(arguments: Check.all)
    func eachCheckFiresOnATimelineBrokenForItAlone(check: Check) throws {
        let fired = try Self.fired(breaking: check)
        #expect(fired == [check], "fired: \(fired.sorted())")
    }

    @Test func everyCheckIsOneOfTheListedOnes() {
        let expected: [Check] =
            (1...7).map(Check.invariant)
            + [.guidanceQueue, .superseded, .stale, .held, .afterCut, .bargeIn, .replyQueue].map(Check.rule)
            + [.shortWait, .urgentCut, .longCut, .bargeIn].map(Check.decision)
            + [
                .lineAfterManeuver, .nowLine, .link, .announced, .linkHonest, .spokenDistance, .passedTruth,
                .jumpDropped, .geodesy, .whenInUse, .lineID, .lineWords, .lateClaim, .thenClaim, .routeSwitch,
                .switchLine, .pippaView, .handoff,
            ].map(Check.road)
            + [.impossibleAction, .divergence].map(Check.arbiter)
        #expect(Check.all == expected, "a new check needs its broken timeline above")
    }

    @Test func aReportOnTheRouteIsJudgedAtItsTrueDistanceWithinTheFixesSlack() throws {
        // The first report that names m1, put just beyond and just within the fixes' slack (and the 1 m of rounding) of the truth.
        let base = try Case("road/gps-gap")
        try #require(base.checks.isEmpty)
        let road = try #require(base.scenario.road)
        let slack = try #require(Invariants.RoadTruth(road)?.ahead)
        let i = try base.first { if case .road(.reportSent(_, _, true, _?)) = $0.what { true } else { false } }
        guard case .road(.reportSent(let f, let age, _, let next?)) = base.events[i].what else { throw Broken() }
        /// The check's verdict with the report's distance moved by `meters`.
        func checks(moving meters: Double) -> Set<Check> {
            var c = base
            let moved = RoadEvent.Ahead(next.maneuver, distanceM: next.distanceM + Int64(meters.rounded(.up)))
            c.events[i].what = .road(.reportSent(f, ageMs: age, onRoute: true, next: moved))
            return c.checks
        }
        #expect(checks(moving: 2 * slack + 2) == [.road(.pippaView)])
        #expect(checks(moving: -2 * slack - 2) == [.road(.pippaView)])
        #expect(checks(moving: 0).isEmpty)
    }

    @Test func aNowLineEndingAfterItsPassIsLineAfterManeuversFaultAlone() throws {
        // m1's now line ends 1 ms after m1 was passed: it did end, so now-line is content.
        var c = try Case("road/gps-gap")
        try #require(c.checks.isEmpty)
        let roster = c.run.timeline.roster
        let passed = try c.first {
            if case .road(.turnPassed(let m)) = $0.what { roster.road.maneuvers[m.int].id == "m1" } else { false }
        }
        let ended = try c.first {
            if case .guidanceEnded(let l) = $0.what { roster.lines[l.int].id == "m1.now" } else { false }
        }
        c.move(ended, to: c.events[passed].t + ms(1))
        #expect(c.checks == [.road(.lineAfterManeuver)])
    }

    // MARK: Decisions at their boundaries

    /// s1 (10 s) plays from 0; g1 is requested at `requestAt`; Dad speaks at 7.5 s.
    static func waitOverLimitThenBargeIn(requestAt: SimTime) -> Scenario {
        Scenario(
            name: "a wait cut short by barge-in",
            guidance: [GuidanceLine(id: "g1", at: requestAt, duration: ms(1_000))],
            replies: [.init(id: "r1", at: .zero, stretches: [.init(id: "s1", duration: ms(10_000))])],
            dad: [.init(id: "u1", at: ms(7_500), duration: ms(1_000), language: .en)])
    }

    /// r1 begins at 0, its chunk ready at 1 s; Dad speaks from `dadAt`.
    static func dadAtChunkReady(dadAt: SimTime) -> Scenario {
        Scenario(
            name: "Dad at the chunk's instant",
            replies: [.init(id: "r1", at: .zero, stretches: [.init(id: "s1", duration: ms(2_000), ready: ms(1_000))])],
            dad: [.init(id: "u1", at: dadAt, duration: ms(1_000), language: .en)])
    }

    @Test func aStretchThatStartsLateWithoutHeldMsOrHeldWhenItWasNotIsCaught() throws {
        var c = try Case("held")
        try #require(c.checks.isEmpty)
        let i = try c.first { if case .stretchStarted(_, _, heldMs: .some) = $0.what { true } else { false } }
        guard case .stretchStarted(let r, let k, _) = c.events[i].what else { throw Broken() }
        c.events[i].what = .stretchStarted(r, k, heldMs: nil)
        #expect(c.checks == [.rule(.held)])
        // The first stretch started the instant it could, so it carries no heldMs.
        var d = try Case("held")
        let j = try d.first { $0.kind == .stretchStarted }
        guard case .stretchStarted(let r0, let k0, _) = d.events[j].what else { throw Broken() }
        d.events[j].what = .stretchStarted(r0, k0, heldMs: 5)
        #expect(d.checks == [.rule(.held)])
    }

    @Test func aBargeInWhileTheEarsTailIsNotOverIsCaught() throws {
        // Dad speaks from 2.5 s while g1 plays; the ears reopen at 3.5 s. A barge-in at 3.499 s
        // (he is not heard yet: `heardMs` stays what it was) cuts and abandons while the ears are closed.
        var c = try Case("barge-in-at-ears-reopen")
        try #require(c.checks.isEmpty)
        let cut = try c.first { $0.kind == .stretchCut && $0.rule == .bargeIn }
        c.move(cut, to: ms(3_499))
        c.move(try c.first { $0.kind == .replyAbandoned }, to: ms(3_499))
        #expect(c.checks == [.decision(.bargeIn)])
        let messages = Invariants.check(c.scenario, c.run).map(\.message)
        #expect(
            messages.contains { $0.contains("while Dad was not heard (the ears' tail was not over)") }, "\(messages)")
    }

    @Test func anUrgentCutByDadIsCaught() throws {
        var c = try Case("urgent-cut")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .stretchCut && $0.rule == .urgentCut }
        guard case .line = try c.cause(ofCut: i) else { throw Broken() }
        try c.recut(i, by: .utterance(0))
        let fired = Invariants.decisionChecks(c.run.timeline, settings: c.scenario.settings)
        #expect(fired.map(\.check) == [.decision(.urgentCut)])
        #expect(fired.first?.message.contains("not by an urgent line while it played") == true, "\(fired)")
    }

    @Test func aBargeInByAGuidanceLineIsCaught() throws {
        var c = try Case("barge-in")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .stretchCut && $0.rule == .bargeIn }
        guard case .utterance = try c.cause(ofCut: i) else { throw Broken() }
        try c.recut(i, by: .line(0))
        let fired = Invariants.decisionChecks(c.run.timeline, settings: c.scenario.settings)
        #expect(fired.map(\.check) == [.decision(.bargeIn)])
        #expect(fired.first?.message.contains("by a guidance line, not by Dad") == true, "\(fired)")
    }

    @Test func aBargeInWhileALinePlaysIsCaught() throws {
        var c = try Case("barge-in-at-ears-reopen")
        try #require(c.checks.isEmpty)
        // g1 starts at 2 s; the barge-in is put right after it, while it plays.
        let cut = try c.first { $0.kind == .stretchCut && $0.rule == .bargeIn }
        var event = c.events.remove(at: cut)
        event.t = ms(2_000)
        let started = try c.first { $0.kind == .guidanceStarted }
        c.events.insert(event, at: started + 1)
        let fired = Set(Invariants.decisionChecks(c.run.timeline, settings: c.scenario.settings).map(\.check))
        #expect(fired == [.decision(.bargeIn)])
    }

    @Test func aCutLastStretchUnderSkipMustEndItsReplyNotAbandonIt() throws {
        var c = try Case("after-cut-skip-last")
        try #require(c.checks.isEmpty)
        let i = try c.first { $0.kind == .replyEnded }
        guard case .replyEnded(let r) = c.events[i].what else { throw Broken() }
        c.events[i].what = .replyAbandoned(r, rule: .afterCut)
        #expect(c.checks == [.rule(.afterCut)])
    }

    @Test func aShortWaitWithExactlyWaitLimitLeftIsAllowedEvenWhenABargeInEndsIt() {
        let c = Case(Self.waitOverLimitThenBargeIn(requestAt: ms(7_000)))
        #expect(c.events.contains { $0.rule == .shortWait })
        #expect(c.events.contains { $0.kind == .stretchCut && $0.rule == .bargeIn })
        #expect(c.checks.isEmpty)
    }

    @Test func aShortWaitWithOneMillisecondOverWaitLimitIsCaughtThoughTheWaitWasShort() {
        let c = Case(Self.waitOverLimitThenBargeIn(requestAt: ms(6_999)), fault: .waitLimitLoose)
        #expect(c.events.contains { $0.rule == .shortWait })
        let found = Invariants.check(c.scenario, c.run)
        #expect(found.map(\.check) == [.decision(.shortWait)])
        #expect(found.first?.t == ms(6_999))
    }

    @Test func aLongCutWithExactlyWaitLimitLeftIsCaughtAsADecisionAndByInvariant5() {
        // s1 has exactly 3000 ms left at 7 s: `wait-limit-strict` cuts it.
        let c = Case(Self.waitOverLimitThenBargeIn(requestAt: ms(7_000)), fault: .waitLimitStrict)
        #expect(c.events.contains { $0.rule == .longCut })
        #expect(c.checks == [.invariant(5), .decision(.longCut)])
        #expect(Case(Self.waitOverLimitThenBargeIn(requestAt: ms(6_999))).events.contains { $0.rule == .longCut })
    }

    @Test func aBargeInOneMillisecondAfterTheStretchStartedIsAllowed() {
        let c = Case(Self.dadAtChunkReady(dadAt: ms(1_001)))
        let cut = c.events.first { $0.kind == .stretchCut }
        #expect(cut?.t == ms(1_001) && cut?.rule == .bargeIn)
        #expect(c.checks.isEmpty)
    }

    @Test func dadHeardInTheInstantTheChunkIsReadyAbandonsTheReplyBeforeItsStretchStarts() {
        let c = Case(Self.dadAtChunkReady(dadAt: ms(1_000)))
        #expect(!c.events.contains { $0.kind == .stretchStarted })
        #expect(c.events.contains { $0.kind == .replyAbandoned && $0.rule == .bargeIn && $0.t == ms(1_000) })
        #expect(c.checks.isEmpty)
    }

    @Test func aBargeInInTheMillisecondTheStretchStartedIsCaught() {
        let c = Case(Self.dadAtChunkReady(dadAt: ms(1_000)), fault: .bargeInWhilePlayingOnly)
        let cut = c.events.first { $0.kind == .stretchCut }
        #expect(cut?.t == ms(1_000) && cut?.rule == .bargeIn)
        #expect(
            c.checks == [.decision(.bargeIn)],
            "the old barge-in check sees no overlap: active until 1 s, heard from 1 s")
    }
}

/// `line-after-maneuver` excuses a line that is late only because the car
/// sped up after the app last knew its speed.
@Suite struct SpeedingUpTests {
    /// A 2 km road east, m1 at 1,000 m; 36 km/h, then `kmh` from 900 m (speeding up at 2 m/s²).
    static func truth(kmh: Int) throws -> Invariants.RoadTruth {
        let east = (0...2).map { #"{ "lat": 37.5, "lon": \#(127.0 + Double($0) * 0.011_3) }"# }.joined(separator: ",")
        let text = """
            { "drivesim": 1, "name": "speeding up", "road": { "language": "en",
              "route": { "points": [\(east)], "maneuvers": [ { "id": "m1", "lat": 37.5, "lon": 127.011300, "turn": "right" } ] },
              "drive": { "speeds": [ { "from": 0, "kmh": 36 }, { "from": 900, "kmh": \(kmh) } ] } } }
            """
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "speeding-up.json")
        let road = try #require(scenario.road)
        return try #require(Invariants.RoadTruth(road))
    }

    @Test func aLineLateOnlyBecauseTheCarSpedUpAfterTheLastFixIsExcused() throws {
        let truth = try Self.truth(kmh: 108)
        let pass = try #require(truth.passes["m1"])
        let m1 = truth.route.maneuvers[0].distance
        // At 89 s the car does 10 m/s, about 132 m before m1: at that speed, less the fix's
        // speed noise (0.3 m/s), it would pass at about 102.6 s.
        let known = ms(89_000)
        let steady = known + ms(Int64((m1 - truth.trajectory!.state(at: known).distance) / 9.7 * 1000))
        #expect(pass < steady - ms(2_000))
        #expect(Invariants.spedUp(since: known, heard: pass + ms(1_000), maneuver: "m1", truth))
        #expect(!Invariants.spedUp(since: known, heard: steady + ms(1), maneuver: "m1", truth))
        // A fix taken once the car sped up tells the app: nothing is excused.
        #expect(!Invariants.spedUp(since: pass - ms(500), heard: pass + ms(1_000), maneuver: "m1", truth))
    }

    /// A fix that put the car behind where it was (within its noise) gave the app that much more
    /// road: a line late by what those meters take at the speed then is excused, no later one.
    @Test func aLineLateOnlyBecauseItsFixLayBehindTheCarIsExcused() throws {
        let truth = try Self.truth(kmh: 36)
        let pass = try #require(truth.passes["m1"])
        // At 10 m/s (9.7 m/s as the fix reports it), 9.7 m behind is one second more.
        let known = ms(89_000)
        let steady =
            known
            + ms(
                Int64(((truth.route.maneuvers[0].distance - truth.trajectory!.state(at: known).distance) / 9.7) * 1000))
        #expect(!Invariants.spedUp(since: known, heard: steady + ms(900), maneuver: "m1", truth))
        #expect(Invariants.spedUp(since: known, heard: steady + ms(900), maneuver: "m1", misplaced: 9.7, truth))
        #expect(!Invariants.spedUp(since: known, heard: steady + ms(1_100), maneuver: "m1", misplaced: 9.7, truth))
        #expect(pass < steady + ms(900))
    }

    @Test func aLineStartedWhileTheCarStoodIsExcusedAfterItSetsOff() throws {
        // A red light 6 m before m1: the car stands there for 10 s, then sets off.
        let east = (0...2).map { #"{ "lat": 37.5, "lon": \#(127.0 + Double($0) * 0.011_3) }"# }.joined(separator: ",")
        let text = """
            { "drivesim": 1, "name": "red light", "road": { "language": "en",
              "route": { "points": [\(east)], "maneuvers": [ { "id": "m1", "lat": 37.5, "lon": 127.011300, "turn": "right" } ] },
              "drive": { "speeds": [ { "from": 0, "kmh": 36 } ], "stops": [ { "at": 994, "dwell": 10 } ] } } }
            """
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "red-light.json")
        let road = try #require(scenario.road)
        let truth = try #require(Invariants.RoadTruth(road))
        let pass = try #require(truth.passes["m1"])
        let standing = pass - ms(4_000)
        let moving = pass - ms(20_000)
        #expect(truth.trajectory!.state(at: standing).speed == 0)
        #expect(Invariants.spedUp(since: standing, heard: pass + ms(1_000), maneuver: "m1", truth))
        // While it still drove towards the light, nothing is excused.
        #expect(!Invariants.spedUp(since: moving, heard: pass + ms(1_000), maneuver: "m1", truth))
    }

    @Test func atASteadySpeedNothingBeyondTheSpeedNoiseIsExcused() throws {
        let truth = try Self.truth(kmh: 36)
        let pass = try #require(truth.passes["m1"])
        // 132 m at 10 m/s is 13.2 s; at 9.7 m/s (the fix's speed 0.3 m/s low) 13.6 s.
        let left = truth.route.maneuvers[0].distance - truth.trajectory!.state(at: ms(89_000)).distance
        let allowance = ms(Int64((left / 9.7 - left / 10) * 1000))
        #expect(allowance > ms(400) && allowance < ms(420))
        #expect(Invariants.spedUp(since: ms(89_000), heard: pass + allowance - ms(2), maneuver: "m1", truth))
        #expect(!Invariants.spedUp(since: ms(89_000), heard: pass + allowance + ms(2), maneuver: "m1", truth))
    }
}
