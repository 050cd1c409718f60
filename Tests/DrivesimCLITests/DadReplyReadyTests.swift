import CLITestSupport
import DrivesimCLI
import TestSupport
import Testing

/// SPEC 3: a stretch's `ready` counts from its reply's beginning; a reply to
/// Dad begins `after` seconds after the utterance ends (docs/scenario-format.md).
@Suite struct DadReplyReadyTests {
    @Test func aDadRepliesReadyCountsFromTheReplysBeginningAfterTheUtteranceEnds() throws {
        // u1 speaks 1–3 s; r1 begins at 3 + 0.5 = 3.5 s; s2 is ready 2 s later, at 5.5 s,
        // not at 1 + 2 (from the utterance's start) nor at 3 + 2 (from its end).
        let scenario = """
            { "drivesim": 1, "name": "a Dad reply's ready",
              "dad": [ { "id": "u1", "at": 1, "duration": 2, "language": "ko",
                         "reply": { "id": "r1", "after": 0.5, "stretches": [
                           { "id": "s1", "duration": 1 }, { "id": "s2", "duration": 1, "ready": 2 } ] } } ],
              "expect": [
                { "event": "talk.reply.began", "reply": "r1", "at": 3.5 },
                { "event": "talk.stretch.started", "stretch": "s1", "at": 3.5 },
                { "event": "talk.stretch.started", "stretch": "s2", "at": 5.5 },
                { "event": "talk.stretch.started", "stretch": "s2", "between": [4.5, 5.499], "count": 0 } ] }
            """
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(scenario, "dad-ready.json", in: folder)
        let result = Fixtures.drivesim("run", file)
        #expect(result.code == 0, "\(result.stderr)")
    }
}
