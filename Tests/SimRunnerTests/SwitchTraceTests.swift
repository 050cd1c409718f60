import Guidance
import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import SimRunner

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

/// What a route switch leaves behind (issue 49, "Every route event says what
/// it serves"): a line dropped because its route was switched says so, and a
/// switch line not said leaves `road.switch.skipped` with its reason, which
/// `switch-line` judges against the truth.
@Suite struct SwitchTraceTests {
    /// The switch onto h1 at 72.5 s, between Dad's guidance segments (0–60 s, 85–200 s).
    static let outside = "road/handoff-outside-guidance"
    static let switchTime = ms(72_500)

    /// `switch-line`'s findings on `run` of `scenario`.
    func switchLine(_ scenario: Scenario, _ run: Simulation) -> [String] {
        Invariants.checkRoad(scenario, run).filter { $0.check == .road(.switchLine) }.map(\.message)
    }

    func isSkip(_ event: TimelineEvent) -> Bool { if case .road(.switchSkipped) = event.what { true } else { false } }

    @Test func aLineWaitingAtItsRoutesSwitchIsDroppedSwitchedAnOrdinaryExpiryStaysStale() throws {
        let scenario = try Fixtures.scenario("road/handoff-while-a-line-waits")
        let timeline = try Simulation(scenario).timeline
        let drop = try #require(timeline.events.first { $0.kind == .guidanceDropped })
        #expect(drop.t == Self.switchTime && timeline.value(of: .reason, in: drop) == .string("switched"))
        #expect(
            timeline.summary(of: drop)
                == "01:12.500 guidance.dropped line=\"m1.far\" rule=\"stale\" reason=\"switched\"")
        // The same line dropped stale 1 ms before the switch (its own expiry) gives no reason.
        var early = timeline
        let i = try #require(early.events.firstIndex(of: drop))
        early.events[i].t = Self.switchTime - ms(1)
        #expect(early.value(of: .reason, in: early.events[i]) == nil)
        // Nor does a hand-written line's expiry.
        let stale = try Simulation(try Fixtures.scenario("stale")).timeline
        let plain = try #require(stale.events.first { $0.kind == .guidanceDropped })
        #expect(stale.value(of: .reason, in: plain) == nil && !stale.json.contains("\"reason\""))
    }

    @Test func aSwitchOutsideTheSegmentsSaysItsLineIsSkippedNotGuidingAndPasses() throws {
        let scenario = try Fixtures.scenario(Self.outside)
        let run = try Simulation(scenario)
        let skips = run.timeline.events.filter(isSkip)
        #expect(skips.map(\.t) == [Self.switchTime])
        #expect(skips.first.map { run.timeline.value(of: .reason, in: $0) } == .string("not-guiding"))
        #expect(Invariants.checkRoad(scenario, run).isEmpty)
    }

    @Test func aSwitchLineThatCannotEndBeforeTheSegmentIsSkippedOneMillisecondAwayItIsSaid() throws {
        var scenario = try Fixtures.scenario(Self.outside)
        scenario.road?.segments = nil
        let said = try Simulation(scenario).timeline
        let line = try #require(said.roster.lines.first { $0.id == "h1.switched" })
        #expect(line.at == Self.switchTime)
        /// The run with Dad's guidance from the start to `end`, and whether it skipped the switch line.
        func skipped(segmentEnd end: SimTime) throws -> Bool {
            scenario.road?.segments = [SimInterval(.zero, end)]
            let run = try Simulation(scenario)
            let saysIt = run.timeline.roster.lines.contains { $0.id == "h1.switched" }
            let skips = run.timeline.events.filter(isSkip).count
            #expect(saysIt != (skips == 1), "a switch line is said or skipped, never both nor neither")
            #expect(switchLine(scenario, run).isEmpty)
            return skips == 1
        }
        // The line must end before the segment does (SPEC 3: it expires later than it is requested).
        #expect(try skipped(segmentEnd: Self.switchTime + line.duration))
        #expect(try !skipped(segmentEnd: Self.switchTime + line.duration + ms(1)))
    }

    @Test func aSwitchOutsideTheSegmentsThatLeavesNoTraceFiresSwitchLine() throws {
        let scenario = try Fixtures.scenario(Self.outside)
        var run = try Simulation(scenario)
        run.timeline.events.removeAll(where: isSkip)
        #expect(
            switchLine(scenario, run) == [
                "the switch onto h1 outside Dad's guidance segments left no trace: no switch line, no road.switch.skipped"
            ])
    }

    @Test func aSkipTheSegmentsDoNotConfirmFiresSwitchLineOnEachSideOfItsBoundaries() throws {
        let base = try Fixtures.scenario(Self.outside)
        let run = try Simulation(base)
        /// `switch-line` on the recorded timeline, with Dad's guidance over `segment` instead.
        func fired(_ segment: SimInterval) -> Bool {
            var scenario = base
            scenario.road?.segments = [segment]
            return !switchLine(scenario, run).isEmpty
        }
        let t = Self.switchTime
        let room = Invariants.switchLineRoom
        let far = ms(200_000)
        // A segment holding the switch with room for its line: the skip is a lie.
        #expect(fired(SimInterval(t, far)))
        #expect(!fired(SimInterval(t + ms(1), far)))
        #expect(fired(SimInterval(.zero, t + room)))
        #expect(!fired(SimInterval(.zero, t + room - ms(1))))
        #expect(!fired(SimInterval(.zero, t)))
        let message = { (segment: SimInterval) -> [String] in
            var scenario = base
            scenario.road?.segments = [segment]
            return self.switchLine(scenario, run)
        }(SimInterval(.zero, far))
        #expect(
            message == [
                "the switch onto h1 was skipped [not-guiding], but Dad's guidance segment holds the switch with room for its line"
            ])
    }

    @Test func aSkipForAnotherReasonBesideALineOrWithNoSwitchFiresSwitchLine() throws {
        let scenario = try Fixtures.scenario(Self.outside)
        let run = try Simulation(scenario)
        let i = try #require(run.timeline.events.firstIndex(where: isSkip))
        var late = run
        late.timeline.events[i].what = .road(.switchSkipped(change: 0, reason: .late))
        #expect(
            switchLine(scenario, late) == [
                "the switch onto h1 was skipped [late], but a switch line is skipped only [not-guiding]"
            ])
        var moved = run
        moved.timeline.events[i].t = Self.switchTime + ms(1)
        #expect(
            switchLine(scenario, moved) == [
                "switch line h1.switched was skipped with no switch onto h1 in its instant",
                "the switch onto h1 outside Dad's guidance segments left no trace: no switch line, no road.switch.skipped",
            ])
        // A switch whose line was said, skipped too.
        let said = try Fixtures.scenario("road/handoff-through-an-outage")
        var both = try Simulation(said)
        #expect(switchLine(said, both).isEmpty)
        let at = try #require(
            both.timeline.events.firstIndex { if case .road(.routeSwitched) = $0.what { true } else { false } })
        both.timeline.events.insert(
            TimelineEvent(t: both.timeline.events[at].t, .road(.switchSkipped(change: 0, reason: .notGuiding))),
            at: at + 1)
        #expect(
            switchLine(said, both) == ["the switch onto h1 was skipped [not-guiding], but its line was requested too"])
    }
}
