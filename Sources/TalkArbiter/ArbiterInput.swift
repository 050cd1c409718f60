import SimClock

/// One input the simulator hands an arbiter, without its time.
public enum ArbiterInput: Sendable, Equatable {
    /// `lineEnded(_:at:into:)` for a line, by index.
    case lineEnded(Int)
    /// `stretchEnded(_:at:into:)` for a stretch, by index.
    case stretchEnded(Int)
    /// `dadEnded(_:at:into:)` for an utterance, by index.
    case dadEnded(Int)
    /// `earsTimer(at:into:)`.
    case earsTimer
    /// `lineExpired(_:at:into:)` for a line, by index.
    case lineExpired(Int)
    /// `lineRequested(_:at:into:)` for a line, by index.
    case lineRequested(Int)
    /// `replyBegan(_:at:into:)` for a reply, by index, with the chunks that are ready at once.
    case replyBegan(Int)
    /// `chunkReady(_:at:into:)` for a stretch, by index.
    case chunkReady(Int)
    /// `dadStarted(_:at:into:)` for an utterance, by index.
    case dadStarted(Int)
    /// `endInstant(at:into:)`.
    case endOfInstant

    /// Its place within one instant (SPEC 4.2): completions grouped by kind
    /// (lines, stretches, utterances, the ears' timer), then the arrivals
    /// (stale lines, requests, then replies, chunks and utterances in
    /// scheduling order), then the end. Within an instant an arbiter is told
    /// its inputs in this order; the simulator's queue keys on it.
    @inlinable public var step: UInt8 {
        switch self {
        case .lineEnded: return 0
        case .stretchEnded: return 1
        case .dadEnded: return 2
        case .earsTimer: return 3
        case .lineExpired: return 4
        case .lineRequested: return 5
        case .replyBegan, .chunkReady, .dadStarted: return 6
        case .endOfInstant: return 7
        }
    }
}

/// Where a guidance line is in its life: not yet requested, pending
/// (queued or waiting), playing, or done (ended or dropped).
public enum LineProgress: UInt8, Sendable {
    /// Not requested yet.
    case idle
    /// Requested and not started: queued or waiting.
    case pending
    /// Started and not ended.
    case playing
    /// Ended or dropped.
    case done
}

extension Arbiter {
    /// Hands `input` to the method it names (`endOfInstant`: `endInstant`).
    @inlinable public mutating func deliver(
        _ input: ArbiterInput, at now: SimTime, into actions: inout [TalkArbiter.Action]
    ) {
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
