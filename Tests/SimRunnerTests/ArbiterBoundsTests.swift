import Review
import ScenarioFormat
import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import SimRunner

/// Which way a `Waking` arbiter misbehaves.
protocol WakingChoice: Sendable {
    /// The wake-up asked for on `at` (the ears closed first when `closesEars`).
    static func wake(at now: SimTime) -> SimTime
    /// Whether every ears timer toggles the ears too.
    static var toggles: Bool { get }
}

/// An arbiter that closes the ears at the first request and asks to be woken
/// (`Choice.wake`), and on every ears timer asks again (toggling the ears
/// when `Choice.toggles`): it never lets a run end by itself.
struct Waking<Choice: WakingChoice>: Arbiter {
    var earsOpen = true
    var asked = false
    init(_ tables: ArbiterTables) {}
    mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func earsTimer(at t: SimTime, into a: inout [Action]) {
        if Choice.toggles {
            a.append(earsOpen ? .earsClosed : .earsOpened)
            earsOpen.toggle()
        }
        a.append(.wake(at: Choice.wake(at: t)))
    }
    mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) {}
    mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {
        guard !asked else { return }
        asked = true
        earsOpen = false
        a.append(.earsClosed)
        a.append(.wake(at: Choice.wake(at: t)))
    }
    mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func endInstant(at t: SimTime, into a: inout [Action]) {}
    var isIdle: Bool { true }
}

enum AtTheEndOfTime: WakingChoice {
    static func wake(at now: SimTime) -> SimTime { SimTime(ms: .max) }
    static var toggles: Bool { false }
}
enum APetasecondOut: WakingChoice {
    static func wake(at now: SimTime) -> SimTime { now + SimTime(ms: 1_000_000_000_000_000) }
    static var toggles: Bool { false }
}
enum OneMillisecondLater: WakingChoice {
    static func wake(at now: SimTime) -> SimTime { now + SimTime(ms: 1) }
    static var toggles: Bool { false }
}
enum TogglingTheEars: WakingChoice {
    static func wake(at now: SimTime) -> SimTime { now + SimTime(ms: 1) }
    static var toggles: Bool { true }
}

/// Every time an arbiter gives is bounded (SPEC 2), and so are its wake-ups (issue 21).
@Suite struct ArbiterBoundsTests {
    /// The run of urgent-cut with `arbiter`; its impossible action's reason.
    func reason<A: Arbiter>(_ arbiter: A.Type) throws -> (ImpossibleAction.Reason?, Verdict) {
        let verdict = try Verdict(try Fixtures.scenario("urgent-cut"), arbiter: A.self)
        return (verdict.simulation.impossibleAction?.reason, verdict)
    }

    @Test func aWakeUpAtTheEndOfTimeIsImpossibleAndEveryPictureOfTheRunDraws() throws {
        let (reason, verdict) = try reason(Waking<AtTheEndOfTime>.self)
        #expect(reason == .afterTheDrive)
        #expect(
            verdict.violations.contains {
                $0.check == .arbiter(.impossibleAction) && $0.message.contains("after the drive's end")
            })
        let timeline = verdict.simulation.timeline
        #expect(!timeline.svg().isEmpty && !timeline.trace().isEmpty && !timeline.lanesChart().isEmpty)
    }

    @Test func aWakeUpAPetasecondOutIsImpossibleNotAPass() throws {
        let (reason, verdict) = try reason(Waking<APetasecondOut>.self)
        #expect(reason == .afterTheDrive)
        #expect(!verdict.passed)
    }

    @Test func anArbiterThatAlwaysAsksToBeWokenLaterEndsWithTooManyWakeUps() throws {
        #expect(try reason(Waking<OneMillisecondLater>.self).0 == .tooManyWakeUps)
        #expect(try reason(Waking<TogglingTheEars>.self).0 == .tooManyWakeUps)
    }

    @Test func theHorizonCoversAScenarioWhoseSpeechRunsPastTwentyFourHours() throws {
        // A reply at 23:59:59 of two one-hour stretches: the reference's run ends past 24 h, and passes.
        let late = try ScenarioDecoder.decode(
            Array(
                """
                { "drivesim": 1, "name": "late", "guidance": [ { "id": "g", "at": 86399, "duration": 1 } ],
                  "replies": [ { "id": "r", "at": 86399, "stretches": [ { "id": "a", "duration": 3600 }, { "id": "b", "duration": 3600 } ] } ] }
                """.utf8), file: "late.json")
        let verdict = try Verdict(late)
        #expect(verdict.passed && verdict.simulation.impossibleAction == nil)
    }
}
