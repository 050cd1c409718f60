import SimClock
import TalkArbiter

/// One entry of a timeline, compact: items are numbered as in the `Roster`,
/// and names are filled in only when the timeline is rendered or compared.
public struct TimelineEvent: Sendable, Equatable {
    /// When it happened.
    public var t: SimTime
    public var kind: EventKind
    /// The line, reply or utterance it concerns (-1 for none).
    public var subject: Int32 = -1
    /// The stretch it concerns (-1 for none).
    public var stretch: Int32 = -1
    /// The rule that decided it.
    public var rule: Rule?
    /// Who cut a stretch.
    public var by: TalkArbiter.Cause?
    /// `playedMs`, `heldMs` or `heardMs`.
    public var ms: Int64 = 0
    /// `lostMs`.
    public var lostMs: Int64 = 0
    /// What follows a cut by guidance.
    public var afterCut: TalkArbiter.AfterCut?

    public init(
        t: SimTime, kind: EventKind, subject: Int = -1, stretch: Int = -1, rule: Rule? = nil,
        by: TalkArbiter.Cause? = nil, ms: Int64 = 0, lostMs: Int64 = 0, afterCut: TalkArbiter.AfterCut? = nil
    ) {
        self.t = t; self.kind = kind; self.subject = Int32(subject); self.stretch = Int32(stretch); self.rule = rule
        self.by = by; self.ms = ms; self.lostMs = lostMs; self.afterCut = afterCut
    }
}
