import SimClock
import TalkArbiter

/// An arbiter that answers an instant's inputs in batches: an arbiter in
/// another process, where every message is a round trip over a pipe
/// (docs/arbiter-protocol.md, protocol 3).
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

extension Arbiter {
    /// Hands `input` to the method it names (`endOfInstant`: `endInstant`).
    package mutating func deliver(_ input: ArbiterInput, at now: SimTime, into actions: inout [Action]) {
        switch input {
        case .lineEnded(let i): lineEnded(i, at: now, into: &actions)
        case .stretchEnded(let i): stretchEnded(i, at: now, into: &actions)
        case .dadEnded(let i): dadEnded(i, at: now, into: &actions)
        case .earsTimer: earsTimer(at: now, into: &actions)
        case .lineExpired(let i): lineExpired(i, at: now, into: &actions)
        case .lineRequested(let i): lineRequested(i, at: now, into: &actions)
        case .replyBegan(let i): replyBegan(i, at: now, into: &actions)
        case .chunkReady(let i): chunkReady(i, at: now, into: &actions)
        case .dadStarted(let i): dadStarted(i, at: now, into: &actions)
        case .endOfInstant: endInstant(at: now, into: &actions)
        }
    }
}
