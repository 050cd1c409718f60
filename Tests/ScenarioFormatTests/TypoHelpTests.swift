import Testing

@testable import DrivesimCLI
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

/// A typo gets a suggestion that names the right field or event, and the
/// message lists what the event carries (issue 52).
struct TypoHelpTests {
    /// The error of a scenario whose one matcher is `matcher`.
    static func error(_ matcher: String) -> ScenarioError? {
        let text =
            #"{"drivesim": 1, "name": "t", "guidance": [{"id": "g1", "at": 1, "duration": 1}], "dad": [{"id": "u1", "at": 5, "duration": 1, "language": "ko"}], "expect": [\#(matcher)]}"#
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "t.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func aFieldAnEventDoesNotCarryIsListedWithItsFieldsAndTheOneHoldingTheSameKindOfIDIsSuggested() throws {
        let cut = try #require(Self.error(#"{"event": "talk.stretch.cut", "line": "g1"}"#))
        #expect(cut.reason == .unknownField("line", event: "talk.stretch.cut", suggestion: "by"))
        #expect(
            cut.description.hasSuffix(
                #"expect[0].line: unknown field "line" for event "talk.stretch.cut"; it carries reply, stretch, rule, by, playedMs, afterCut; did you mean "by"?"#
            ), "\(cut)")
        #expect(
            Self.error(#"{"event": "talk.stretch.cut", "utterance": "u1"}"#)?.reason
                == .unknownField("utterance", event: "talk.stretch.cut", suggestion: "by"))
        // And back: `by` on a line's event means its `line`, on Dad's his `utterance`.
        #expect(
            Self.error(#"{"event": "guidance.started", "by": "g1"}"#)?.reason
                == .unknownField("by", event: "guidance.started", suggestion: "line"))
        #expect(
            Self.error(#"{"event": "dad.ended", "by": "u1"}"#)?.reason
                == .unknownField("by", event: "dad.ended", suggestion: "utterance"))
        // An event with no field says so.
        #expect(
            Self.error(#"{"event": "ears.opened", "rule": "x"}"#)?.description.contains("it carries no field") == true)
    }

    @Test func anUnknownEventNameGetsADidYouMeanAndItsFamilysEvents() throws {
        let cutted = try #require(Self.error(#"{"event": "talk.stretch.cutted"}"#))
        #expect(cutted.reason == .unknownEvent("talk.stretch.cutted", family: "talk", suggestion: "talk.stretch.cut"))
        #expect(
            cutted.description.contains(#"the talk events are "talk.reply.queued""#)
                && !cutted.description.contains("guidance.started"), "\(cutted)")
        #expect(cutted.description.hasSuffix(#"; did you mean "talk.stretch.cut"?"#), "\(cutted)")
        #expect(TimelineSuggestion.event(for: "road.handoff.take") == "road.handoff.taken")
        #expect(TimelineSuggestion.event(for: "road.route.switchedover") == "road.route.switched")
        // No family: every event is listed, no guess.
        let none = try #require(Self.error(#"{"event": "zzz"}"#))
        #expect(none.reason == .unknownEvent("zzz", family: nil, suggestion: nil))
        #expect(none.description.contains(#"expected one of "guidance.requested""#), "\(none)")
    }

    @Test func onlyTakesTheLaneNamesThePicturesShow() {
        #expect(EventFamily(named: "pippa") == .talk && EventFamily(named: "Pippa") == .talk)
        #expect(
            EventFamily(named: "Dad") == .dad && EventFamily(named: "dad") == .dad
                && EventFamily(named: "Guidance") == .guidance)
        #expect(EventFamily(named: "pipa") == nil)
        #expect(EventFamilies.parse("pippa,Dad") == .success([.talk, .dad]))
        #expect(
            throws: DrivesimError.usage(
                .unknownValue(option: "--only", value: "pipa", allowed: EventFamily.names, suggestion: "pippa"))
        ) {
            try RunCommand.Shown(
                Arguments(["x.json", "--only", "pipa"], options: RunCommand.options))
        }
    }
}
