import ScenarioFormat
import SimClock
import Testing

@testable import ExternalProcess

/// A process's failures are worded once (`ProcessFailure.reason`): the
/// words of those no other test provokes, as drivesim has always said them.
@Suite struct ProcessFailureTests {
    @Test func theWordsOfFailuresNoProcessInTheTestsProvokes() {
        let answer = JSONValue.object([("type", .string("nope"))])
        let cases: [(ProcessFailure, String)] = [
            (
                .outOfTurn("the instant at 5 ms", answer),
                #"it answered the instant at 5 ms out of turn (no 'actions' message with 'each'): {"type":"nope"}"#
            ),
            (
                .partedFromForecast(at: SimTime(ms: 7)),
                "drivesim's run parted at 7 ms from the run it had foretold and sent (a drivesim bug: its run is not a function of the answers)"
            ),
            (.stoppedReading, "it stopped reading its input (still running)"),
            (.closedOutput, "it closed its output (still running)"),
            (
                .endedBeforeDelivering(.lineEnded(2), at: SimTime(ms: 9)),
                #"drivesim ended the instant at 9 ms before delivering ["lineEnded",2] that its batch announced"#
            ),
            (
                .announcedBeforeDelivering(at: SimTime(ms: 9)),
                "drivesim announced inputs at 9 ms before delivering the ones it had announced"
            ),
            (
                .unannouncedOther(maneuver: 3),
                "it answered the unannounced question for maneuver 3 with something else"
            ),
            (
                .unannouncedReason(maneuver: 3),
                #"it answered the unannounced question for maneuver 3: reason: expected "late", "then" or null"#
            ),
            (
                .givenUpEarlier(.timedOut(ms: 1500)),
                "not asked: the process was given up when it did not answer within 1500 ms in an earlier run"
            ),
        ]
        for (failure, words) in cases { #expect(failure.reason == words) }
    }

    @Test func aRecordedFailureEndsWithTheTailOfStandardErrorAllOnOneLine() {
        let recorded = RecordedFailure(failure: .closedOutput, standardError: "boom\u{1B}[2J\nagain")
        #expect(
            recorded.description
                == #"it closed its output (still running); its standard error ends: boom\u{1B}[2J\nagain"#)
        #expect(ProcessFailure.noAnswer(recorded).reason == recorded.description)
        #expect(
            RecordedFailure(failure: .closedOutput, standardError: "").description == ProcessFailure.closedOutput.reason
        )
    }
}
