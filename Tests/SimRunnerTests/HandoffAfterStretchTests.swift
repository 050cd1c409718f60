import Guidance
import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import ScenarioFormat
@testable import SimRunner

/// A handoff sent after one of Pippa's stretches (issue 49): it goes when
/// that stretch is over as the talk played it (played through, or cut and
/// not said again; held or repeated first), found pass by pass
/// (`Simulation.resolvingHandoffs`); never, and visibly, when it is never over.
@Suite struct HandoffAfterStretchTests {
    /// `Scenarios/road/handoff-after-a-stretch-cut-by-a-turn.json`: s2 cut by m0's "now" line at 21.364 s,
    /// held and said again, over at 28.672 s; h1 sent after s2.
    static func cut() throws -> Scenario { try Fixtures.scenario("road/handoff-after-a-stretch-cut-by-a-turn") }

    /// `scenario` with h1 sent at `sent`, its matchers left out (they pin the file's sending).
    static func sending(_ scenario: Scenario, _ sent: [Scenario.Road.Sending]) -> Scenario {
        var s = scenario
        s.road!.changes[0].handoff!.sent = sent
        s.expect = []
        return s
    }

    /// The instants of the events `matches` finds.
    static func times(_ run: Simulation, _ matches: (TimelineEvent.What) -> Bool) -> [SimTime] {
        run.timeline.events.filter { matches($0.what) }.map(\.t)
    }

    static func delivered(_ run: Simulation) -> [SimTime] {
        times(run) { if case .road(.handoffDelivered) = $0 { true } else { false } }
    }
    static func unsaid(_ run: Simulation) -> [SimTime] {
        times(run) { $0 == .road(.handoffIgnored(change: 0, reason: .unsaid)) }
    }

    /// The first instant the roster's stretch `id` ends as `ended` or is cut.
    static func end(of id: String, _ run: Simulation, cut: Bool = false) throws -> SimTime {
        let roster = run.timeline.roster
        let s = try #require(roster.stretches.firstIndex { $0.id == id })
        return try #require(
            run.timeline.events.first {
                switch $0.what {
                case .stretchEnded(_, let k): return !cut && k.int == s
                case .stretchCut(_, let k, _, _, _, _): return cut && k.int == s
                default: return false
                }
            }
        ).t
    }

    /// Sent after `stretch`, the drive is the drive with it sent at the instant `stretch` is over: event for event.
    static func expectSameAsSentAt(
        _ scenario: Scenario, _ t: SimTime, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Simulation {
        let verdict = try Verdict(scenario)
        #expect(verdict.passed, "\(verdict)", sourceLocation: sourceLocation)
        var fixed = scenario
        for c in fixed.road!.changes.indices where fixed.road!.changes[c].handoff != nil {
            fixed.road!.changes[c].handoff!.sent = [.at(t)]
        }
        let same = verdict.simulation.timeline.events == (try Simulation(fixed)).timeline.events
        #expect(same, "the drive with the handoff sent at \(t)", sourceLocation: sourceLocation)
        return verdict.simulation
    }

    @Test func aStretchCutByATurnAndSaidAgainTakesTheHandoffWithIt() throws {
        let scenario = try Self.cut()
        let run = try Self.expectSameAsSentAt(scenario, SimTime(ms: 28_672))
        #expect(try Self.end(of: "s2", run, cut: true) == SimTime(ms: 21_364))
        #expect(try Self.end(of: "s2", run) == SimTime(ms: 28_672))
        // Delivered the link's latency after s2 is over, not after the 24 s it would have been over uncut.
        #expect(Self.delivered(run) == [SimTime(ms: 28_972)])
        let uncut = try Simulation(Self.sending(scenario, [.at(SimTime(ms: 24_000))]))
        #expect(Self.delivered(uncut) == [SimTime(ms: 24_300)])
    }

    @Test func aHeldStretchSendsItWhenItIsOver() throws {
        // r1 begins while m0's "now" line plays (21.364 to 23.672 s): s1 is held, then plays for 1.5 s.
        var scenario = Self.sending(try Self.cut(), [.after("s1")])
        scenario.replies[0].at = SimTime(ms: 22_000)
        let held = try #require(
            try Simulation(scenario).timeline.events.first {
                if case .stretchStarted(_, let s, let held?) = $0.what { s.int == 0 && held == 1_672 } else { false }
            })
        #expect(held.t == SimTime(ms: 23_672))
        let run = try Self.expectSameAsSentAt(scenario, SimTime(ms: 25_172))
        #expect(Self.delivered(run) == [SimTime(ms: 25_472)])
    }

    @Test func aStretchCutAndNotSaidAgainIsOverAtItsCut() throws {
        for afterCut in [Scenario.AfterCut.skip, .drop] {
            var scenario = try Self.cut()
            scenario.settings.afterCut = afterCut
            scenario.expect = []
            let run = try Self.expectSameAsSentAt(scenario, SimTime(ms: 21_364))
            #expect(Self.delivered(run) == [SimTime(ms: 21_664)], "\(afterCut)")
        }
    }

    @Test func twoStretchesAreFoundPassByPassAsTheirTimesWouldBe() throws {
        // s1 is over at 19 s: its sending is taken, and the switch line cuts s2 at 20.3 s, so s2 is
        // over at 28.762 s, not 28.672 s as in the first pass: its sending is delivered then, a duplicate.
        let scenario = Self.sending(try Self.cut(), [.after("s1"), .after("s2")])
        let run = try Simulation(scenario)
        let fixed = try Simulation(Self.sending(scenario, [.at(SimTime(ms: 19_000)), .at(SimTime(ms: 28_762))]))
        let same = run.timeline.events == fixed.timeline.events
        #expect(same)
        #expect(try Self.end(of: "s2", run, cut: true) == SimTime(ms: 20_300))
        #expect(Self.delivered(run) == [SimTime(ms: 19_300), SimTime(ms: 29_062)])
        #expect(
            Self.times(run) { $0 == .road(.handoffIgnored(change: 0, reason: .duplicate)) } == [SimTime(ms: 29_062)])
        #expect(try Verdict(scenario).passed)
    }

    @Test func aStretchNeverPlayedSendsNothingAndSaysSo() throws {
        // Under drop, m0's "now" line cutting s2 abandons r1: s3 is never said.
        var scenario = Self.sending(try Self.cut(), [.after("s3")])
        scenario.settings.afterCut = .drop
        scenario.replies[0].stretches.append(
            Scenario.Stretch(id: "s3", duration: SimTime(ms: 2_000), text: "It's on your phone."))
        let verdict = try Verdict(scenario)
        #expect(verdict.passed, "\(verdict)")
        #expect(Self.unsaid(verdict.simulation) == [SimTime(ms: 21_364)])
        #expect(Self.delivered(verdict.simulation).isEmpty)
        #expect(
            Self.times(verdict.simulation) { if case .road(.routeRequested(.handoff, _)) = $0 { true } else { false } }
                .isEmpty)
        // The same drive as a handoff never sent, but for the one event that says so.
        var never = scenario
        never.road!.changes[0].handoff = nil
        let same =
            verdict.simulation.timeline.events.filter { $0.what != .road(.handoffIgnored(change: 0, reason: .unsaid)) }
            == (try Simulation(never)).timeline.events
        #expect(same)
    }

    @Test func anAnswerToDadWhollyLostIsNeverSaid() throws {
        // Dad speaks from 1 to 3 s while m0's "far" line keeps the ears closed: his answer never begins.
        var scenario = Self.sending(try Self.cut(), [.after("a1s1")])
        scenario.dad = [
            Scenario.Utterance(
                id: "u1", at: SimTime(ms: 1_000), duration: SimTime(ms: 2_000), language: .en,
                reply: Scenario.DadReply(
                    id: "a1", stretches: [Scenario.Stretch(id: "a1s1", duration: SimTime(ms: 2_000))]))
        ]
        let verdict = try Verdict(scenario)
        #expect(verdict.passed, "\(verdict)")
        #expect(Self.unsaid(verdict.simulation) == [SimTime(ms: 3_000)])
        #expect(Self.delivered(verdict.simulation).isEmpty)
    }

    @Test func aScenarioWithoutSuchAHandoffIsSimulatedOnce() throws {
        // The road is planned once: the guidance is asked for one route (its first), as before.
        let scenario = Self.sending(try Self.cut(), [.at(SimTime(ms: 24_000))])
        let count = Counter()
        _ = Simulation(
            scenario, roster: nil,
            roadPlan: RoadPlanning {
                count.plans += 1
                return RoadPlan(validated: $0)
            },
            recordingDecisions: false
        ) { TalkArbiter($0) }
        #expect(count.plans == 1)
        let after = Self.sending(scenario, [.after("s1"), .after("s2")])
        count.plans = 0
        _ = Simulation(
            after, roster: nil,
            roadPlan: RoadPlanning {
                count.plans += 1
                return RoadPlan(validated: $0)
            },
            recordingDecisions: false
        ) { TalkArbiter($0) }
        #expect(count.plans == 3, "the road as written, then one pass per stretch")
    }

    final class Counter: @unchecked Sendable { var plans = 0 }

    @Test func aSendingAfterAStretchRoundTrips() throws {
        let scenario = Self.sending(try Self.cut(), [.after("s1"), .at(SimTime(ms: 30_500))])
        #expect(try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "t.json") == scenario)
    }

    // MARK: The handoff check

    /// The cut scenario's first run, and what the `handoff` check finds in it once `breaking` breaks its timeline.
    static func handoffCheck(_ scenario: Scenario, breaking: (inout Case) throws -> Void) throws -> [Violation] {
        var c = Case(scenario, fault: nil)
        #expect(Invariants.check(c.scenario, c.run).isEmpty)
        try breaking(&c)
        return Invariants.check(c.scenario, c.run).filter { $0.check == .road(.handoff) }
    }

    @Test func theHandoffCheckFiresWhenTheStretchIsOverAtAnotherInstantThanThePlanTook() throws {
        let scenario = try Self.cut()
        for shift in [-1, 1] {
            let found = try Self.handoffCheck(scenario) { c in
                let roster = c.run.timeline.roster
                let i = try c.first {
                    if case .stretchEnded(_, let s) = $0.what { roster.stretches[s.int].id == "s2" } else { false }
                }
                c.move(i, to: c.events[i].t + SimTime(ms: Int64(shift)))
            }
            #expect(
                found.map(\.message) == [
                    "stretch s2, which a handoff is sent after, was over at \(SimTime(ms: 28_672 + Int64(shift))), but the road took it as over at \(SimTime(ms: 28_672))"
                ], "\(shift) ms")
        }
        // A handoff delivered before the stretch it is sent after is over.
        let early = try Self.handoffCheck(scenario) { c in
            let i = try c.first { if case .road(.handoffDelivered) = $0.what { true } else { false } }
            for k in [i, i + 1, i + 2] { c.move(k, to: SimTime(ms: 28_671)) }
        }
        #expect(early.map(\.message) == ["handoff h1 was delivered before Pippa sent it at \(SimTime(ms: 28_672))"])
    }

    @Test func theHandoffCheckFiresWhenAnUnsaidHandoffIsNotSaidOrSaidOfOneThatWasSent() throws {
        var never = Self.sending(try Self.cut(), [.after("s3")])
        never.settings.afterCut = .drop
        never.replies[0].stretches.append(Scenario.Stretch(id: "s3", duration: SimTime(ms: 2_000)))
        let silent = try Self.handoffCheck(never) { c in
            c.events.remove(at: try c.first { $0.what == .road(.handoffIgnored(change: 0, reason: .unsaid)) })
        }
        #expect(
            silent.map(\.message) == [
                "handoff h1 is sent after a stretch never over (known at \(SimTime(ms: 21_364))), but the timeline does not say so (road.handoff.ignored unsaid)"
            ])
        let claimed = try Self.handoffCheck(try Self.cut()) { c in
            let i = try c.first { if case .road(.handoffDelivered) = $0.what { true } else { false } }
            c.events.insert(TimelineEvent(t: c.events[i].t, .road(.handoffIgnored(change: 0, reason: .unsaid))), at: i)
        }
        #expect(
            claimed.map(\.message) == [
                "handoff h1 was ignored unsaid, but no stretch it is sent after was known then never to be over"
            ])
    }
}
