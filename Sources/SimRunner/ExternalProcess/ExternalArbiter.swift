import SimClock
import SimRunner
import TalkArbiter

/// The `Arbiter` that forwards every input to its process, an instant's
/// inputs in one message (`BatchingArbiter`). A process that failed draws
/// no more actions; the command reports its failure.
package struct ExternalArbiter: BatchingArbiter {
    private let connection: ArbiterProcess?
    private var idle = false

    /// A run over `tables` with `process`; with `begun`, its run over
    /// `tables` has begun already (`ArbiterProcess.verdict`).
    package init(_ tables: ArbiterTables, process: ArbiterProcess, begun: Bool = false) {
        connection = process
        if !begun { process.beginRun(tables) }
    }

    /// `Arbiter`'s own: with no process, so it draws no actions (drivesim
    /// makes each with its process, through `Verdict`'s `make`).
    package init(_ tables: ArbiterTables) { connection = nil }

    package func announce(_ inputs: [ArbiterInput], endsInstant: Bool, at now: SimTime) {
        connection?.announce(inputs, ends: endsInstant, at: now)
    }

    private func input(_ input: ArbiterInput, at now: SimTime, into actions: inout [Action]) {
        connection?.deliver(input, at: now, into: &actions)
    }

    package mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        input(.lineEnded(line), at: now, into: &actions)
    }
    package mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        input(.stretchEnded(stretch), at: now, into: &actions)
    }
    package mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        input(.dadEnded(utterance), at: now, into: &actions)
    }
    package mutating func earsTimer(at now: SimTime, into actions: inout [Action]) {
        input(.earsTimer, at: now, into: &actions)
    }
    package mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        input(.lineExpired(line), at: now, into: &actions)
    }
    package mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        input(.lineRequested(line), at: now, into: &actions)
    }
    /// Kept for the instant's next message (`"revise":[[line,duration],…]`).
    package mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) {
        connection?.batch.revisions.append(.init(line: line, duration: duration))
    }
    package mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) {
        input(.replyBegan(reply), at: now, into: &actions)
    }
    package mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        input(.chunkReady(stretch), at: now, into: &actions)
    }
    package mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        input(.dadStarted(utterance), at: now, into: &actions)
    }

    package mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        if let idle = connection?.endInstant(at: now, into: &actions) { self.idle = idle }
    }

    package var isIdle: Bool { idle }
}
