import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import SimRunner

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

/// Divergence messages point at the first instant where the decisions part,
/// with each side's input and time there.
@Suite struct DivergenceTests {
    /// r1 (one stretch s1) begins at 0; its stretch starts in the settle step.
    static let began = Decision(t: ms(0), input: .replyBegan(0), actions: [.replyBegan(reply: 0)])
    static let starts = [TalkArbiter.Action.stretchStarted(reply: 0, stretch: 0, endsAt: ms(10_000), held: nil)]

    static func roster() throws -> Roster { Roster(try Fixtures.scenario("barge-in")) }

    @Test func aSideSilentWhereTheOtherActsIsNamedAtTheOtherSidesInstantAndFollowedToItsNextDecision() throws {
        // The reference starts s1 at the end of the instant at 0; the arbiter (chunkReady
        // wired, end of instant not) does so only on a later input at 1 s.
        let reference = [Self.began, Decision(t: ms(0), input: .endOfInstant, actions: Self.starts)]
        let arbiter = [
            Self.began, Decision(t: ms(0), input: .endOfInstant, actions: []),
            Decision(t: ms(1_000), input: .chunkReady(0), actions: Self.starts),
        ]
        let divergence = try #require(Divergence.first(arbiter, reference: reference))
        #expect(divergence.t == ms(0))
        #expect(divergence.input == .endOfInstant)
        #expect(divergence.arbiterSilent && !divergence.referenceSilent)
        #expect(divergence.arbiterNext?.t == ms(1_000))
        let message = divergence.violation(try Self.roster()).message
        #expect(
            message.hasPrefix(
                "at 00:00.000, on endInstant, the reference decided [stretchStarted r1/s1 until 00:10.000]"),
            "\(message)")
        #expect(
            message.contains(
                "the arbiter decided nothing (its next decision: at 00:01.000, on chunkReady s1, [stretchStarted r1/s1 until 00:10.000])"
            ), "\(message)")
    }

    @Test func aReferenceSilentWhereTheArbiterActsIsNamedAtTheArbitersInstant() throws {
        let reference = [Self.began, Decision(t: ms(2_000), input: .chunkReady(0), actions: Self.starts)]
        let arbiter = [Self.began, Decision(t: ms(0), input: .endOfInstant, actions: Self.starts)]
        let divergence = try #require(Divergence.first(arbiter, reference: reference))
        #expect(divergence.t == ms(0))
        let message = divergence.violation(try Self.roster()).message
        #expect(
            message.hasPrefix(
                "at 00:00.000, on endInstant, the reference decided nothing (its next decision: at 00:02.000, on chunkReady s1"
            ), "\(message)")
        #expect(message.hasSuffix("the arbiter decided [stretchStarted r1/s1 until 00:10.000]"), "\(message)")
    }

    @Test func sameInstantDifferentInputsNameBoth() throws {
        let reference = [Decision(t: ms(0), input: .replyBegan(0), actions: [.replyBegan(reply: 0)])]
        let arbiter = [Decision(t: ms(0), input: .chunkReady(0), actions: [.replyBegan(reply: 0)])]
        let divergence = try #require(Divergence.first(arbiter, reference: reference))
        let message = divergence.violation(try Self.roster()).message
        #expect(
            message
                == "at 00:00.000, on replyBegan r1, the reference decided [replyBegan r1]; the arbiter decided on chunkReady s1 [replyBegan r1]"
        )
    }

    @Test func anArbiterWhoseRunEndsEarlySaysSo() throws {
        let reference = [Self.began, Decision(t: ms(0), input: .endOfInstant, actions: Self.starts)]
        let divergence = try #require(Divergence.first([Self.began], reference: reference))
        let message = divergence.violation(try Self.roster()).message
        #expect(message.hasSuffix("the arbiter decided nothing (its run ended there)"), "\(message)")
    }
}
