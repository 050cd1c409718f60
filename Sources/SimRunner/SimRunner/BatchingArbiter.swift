import SimClock
import TalkArbiter

/// An arbiter that answers an instant's inputs in batches: an arbiter in
/// another process, where every message is a round trip over a pipe
/// (docs/arbiter-protocol.md).
///
/// Before it delivers the next inputs of an instant, the simulator
/// announces them, in the order it will deliver them, and whether the end of
/// the instant comes right after them. It cuts an announcement after any
/// input that may make another input due at the same instant: a `dadEnded`
/// whose reply begins `after` 0 (if Dad was heard, the reply and its ready
/// chunks come next, announced separately). Actions never make an input due
/// at the same instant: the validator refuses a `wake` not after now and an
/// end not after the start, before anything is scheduled. The inputs are then
/// delivered one by one as usual; the arbiter checks each against the
/// announcement and must fail the run on a mismatch rather than answer.
///
/// `announce` does not mutate: the arbiter keeps its batch in reference
/// storage (the simulator calls it through the protocol, on a copy).
package protocol BatchingArbiter: Arbiter {
    /// The next inputs at `now` are `inputs`, in order (the instant's
    /// revisions are already delivered); with `endsInstant`, `endInstant`
    /// follows them with no input in between.
    func announce(_ inputs: [ArbiterInput], endsInstant: Bool, at now: SimTime)
}

/// One message of an instant (the protocol's `instant`, or one instant of a `run`) and its answer: the
/// revisions and inputs it carried, whether it ended the instant, the
/// actions of each input, and the end's actions and `idle` if it did.
package struct BatchMessage: Sendable, Equatable {
    /// The instant.
    package var t: SimTime
    /// Line revisions delivered before the inputs: line index and new duration.
    package var revisions: [Revision]
    /// The inputs, in order.
    package var inputs: [ArbiterInput]
    /// Whether the end of the instant came with them.
    package var ends: Bool
    /// Each input's actions, in order.
    package var each: [[TalkArbiter.Action]] = []
    /// The end's actions (empty unless `ends`).
    package var end: [TalkArbiter.Action] = []
    /// The arbiter's `isIdle` after the end (false unless `ends`).
    package var idle = false

    /// A line re-phrased: it lasts `duration` if it starts from now on.
    package struct Revision: Sendable, Equatable {
        package var line: Int
        package var duration: SimTime
        package init(line: Int, duration: SimTime) {
            self.line = line
            self.duration = duration
        }
    }

    /// A message not yet answered.
    package init(t: SimTime, revisions: [Revision], inputs: [ArbiterInput], ends: Bool) {
        self.t = t
        self.revisions = revisions
        self.inputs = inputs
        self.ends = ends
    }

    /// Whether `other` asks the same as this one (answers aside).
    package func asks(like other: BatchMessage) -> Bool {
        t == other.t && ends == other.ends && inputs == other.inputs && revisions == other.revisions
    }
}

/// An in-process `BatchingArbiter` over any arbiter: it answers each
/// announced batch at once from `Inner`, as a process would, keeps every
/// message and answer in `log`, and serves the inputs from the answers. An
/// input that differs from the announcement sets `log.mispredicted` and draws
/// nothing. drivesim records the reference's run with it to foretell an
/// external arbiter's run (docs/arbiter-protocol.md); the tests prove with
/// it that batching leaves every timeline as it is.
package struct BatchedArbiter<Inner: Arbiter>: BatchingArbiter {
    /// A run's messages, shared with whoever built the arbiter.
    package final class Log: @unchecked Sendable {
        /// Every message of the run, answered, in order.
        package var messages: [BatchMessage] = []
        /// Whether an input ever differed from its announcement.
        package var mispredicted = false
        var inner: Inner?
        var revisions: [BatchMessage.Revision] = []
        var next = 0
        var endPending = false
        /// An empty log.
        package init() {}
    }

    /// The run's log.
    package let log: Log

    /// An arbiter over `inner` that logs into `log`.
    package init(_ inner: Inner, log: Log) {
        self.log = log
        log.inner = inner
    }

    /// An arbiter over `Inner(tables)` with a log of its own.
    package init(_ tables: ArbiterTables) { self.init(Inner(tables), log: Log()) }

    package func announce(_ inputs: [ArbiterInput], endsInstant: Bool, at now: SimTime) {
        if log.endPending || !(log.messages.last.map { log.next == $0.inputs.count } ?? true) {
            log.mispredicted = true
        }
        var message = BatchMessage(t: now, revisions: log.revisions, inputs: inputs, ends: endsInstant)
        log.revisions.removeAll()
        for input in inputs {
            var actions: [Action] = []
            log.inner!.deliver(input, at: now, into: &actions)
            message.each.append(actions)
        }
        if endsInstant {
            log.inner!.endInstant(at: now, into: &message.end)
            message.idle = log.inner!.isIdle
        }
        log.messages.append(message)
        log.next = 0
        log.endPending = endsInstant
    }

    private func input(_ input: ArbiterInput, into actions: inout [Action]) {
        guard let last = log.messages.last, log.next < last.inputs.count, last.inputs[log.next] == input else {
            log.mispredicted = true
            return
        }
        actions.append(contentsOf: last.each[log.next])
        log.next += 1
    }

    package mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { input(.lineEnded(i), into: &a) }
    package mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {
        input(.stretchEnded(i), into: &a)
    }
    package mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { input(.dadEnded(i), into: &a) }
    package mutating func earsTimer(at t: SimTime, into a: inout [Action]) { input(.earsTimer, into: &a) }
    package mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {
        input(.lineExpired(i), into: &a)
    }
    package mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {
        input(.lineRequested(i), into: &a)
    }
    package mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {
        input(.replyBegan(i), into: &a)
    }
    package mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {
        input(.chunkReady(i), into: &a)
    }
    package mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {
        input(.dadStarted(i), into: &a)
    }
    package mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) {
        log.inner!.lineRevised(i, duration: duration, at: t)
        log.revisions.append(.init(line: i, duration: duration))
    }
    package mutating func endInstant(at t: SimTime, into a: inout [Action]) {
        if !log.endPending || !(log.messages.last.map { log.next == $0.inputs.count } ?? false) {
            // An end the last announcement did not include: a message of its own.
            announce([], endsInstant: true, at: t)
        }
        guard let last = log.messages.last else { return }
        a.append(contentsOf: last.end)
        log.endPending = false
    }
    package var isIdle: Bool { log.inner!.isIdle }
}
