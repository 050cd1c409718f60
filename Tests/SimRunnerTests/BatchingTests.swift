import Fuzzing
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter
import TestSupport
import Testing

/// Protocol 3 batches an instant's inputs (docs/arbiter-protocol.md): the
/// simulator announces them, the arbiter answers them all at once. These
/// tests prove that it changes no timeline: a batched reference
/// (`BatchedArbiter`, which answers each announcement from a `TalkArbiter`
/// before the inputs are delivered) gives every run the events, the bus and
/// the decisions of the reference asked input by input.
@Suite struct BatchingTests {
    /// The run of `scenario` batched, its log, and the same run unbatched.
    static func both(_ scenario: Scenario) -> (
        batched: Simulation, log: BatchedArbiter<TalkArbiter>.Log, plain: Simulation
    ) {
        let log = BatchedArbiter<TalkArbiter>.Log()
        let batched = Simulation(scenario, roster: nil, recordingDecisions: true) {
            BatchedArbiter(TalkArbiter($0), log: log)
        }
        let plain = Simulation(scenario, roster: nil, recordingDecisions: true) { TalkArbiter($0) }
        return (batched, log, plain)
    }

    static func expectIdentical(_ scenario: Scenario) -> (messages: Int, inputs: Int, cuts: Int) {
        let (batched, log, plain) = both(scenario)
        #expect(!log.mispredicted, "\(scenario.name): an input differed from its announcement")
        #expect(batched.timeline.events == plain.timeline.events, "\(scenario.name)")
        #expect(batched.decisions == plain.decisions, "\(scenario.name)")
        #expect(batched.endedAtRest == plain.endedAtRest && batched.impossibleAction == nil, "\(scenario.name)")
        let inputs = log.messages.reduce(0) { $0 + $1.inputs.count }
        return (log.messages.count, inputs, log.messages.filter { !$0.ends }.count)
    }

    @Test func theCorpusBatchedGivesTheTimelinesOfTheReferenceAskedInputByInput() throws {
        var messages = 0
        var unbatched = 0
        for file in Fixtures.scenarioFiles {
            let scenario = try Fixtures.load(file.path)
            let counts = Self.expectIdentical(scenario)
            messages += counts.messages
            // Protocol 2: one round trip per input and one per end of an instant.
            unbatched += counts.inputs + counts.messages - counts.cuts
        }
        #expect(messages > 0 && messages < unbatched, "\(messages) messages batched, \(unbatched) unbatched")
    }

    @Test func fuzzScenariosBatchedGiveTheTimelinesOfTheReference() {
        var cuts = 0
        for run in 0..<TestScale.size(4000, quick: 500) {
            // Talk-only and road scenarios alike (a third with a road).
            let scenario = Fuzzer.scenario(campaign: 1, run: run, mutant: nil, road: run % 3 == 0)
            cuts += Self.expectIdentical(scenario).cuts
        }
        // Dad's replies that begin at once cut some instants in two.
        #expect(cuts > 0)
    }

    @Test func anInstantIsCutAfterDadsEndWhenHisReplyBeginsAtOnce() throws {
        let scenario = Scenario(
            name: "reply at once",
            dad: [
                .init(
                    id: "u1", at: .zero, duration: SimTime(ms: 1000), language: .ko,
                    reply: .init(id: "r1", after: .zero, stretches: [.init(id: "s1", duration: SimTime(ms: 500))]))
            ])
        let (_, log, _) = Self.both(scenario)
        let atEnd = log.messages.filter { $0.t == SimTime(ms: 1000) }
        #expect(atEnd.map(\.inputs) == [[.dadEnded(0)], [.replyBegan(0), .chunkReady(0)]])
        #expect(atEnd.map(\.ends) == [false, true])
        _ = Self.expectIdentical(scenario)
    }

    @Test func anInputThatWasNotAnnouncedIsCaught() {
        let tables = try! ArbiterTables(
            settings: TalkArbiter.Settings(), lines: [TalkArbiter.Line(duration: SimTime(ms: 1000))], replies: [],
            stretchDurations: [], utterances: 0)
        var arbiter = BatchedArbiter<TalkArbiter>(tables)
        arbiter.announce([.lineRequested(0)], endsInstant: true, at: .zero)
        var actions: [TalkArbiter.Action] = []
        arbiter.earsTimer(at: .zero, into: &actions)
        #expect(arbiter.log.mispredicted && actions.isEmpty)
    }
}
