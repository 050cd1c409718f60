import SimClock
import TalkArbiter

/// One input at its time and the actions the arbiter answered with.
public struct Decision: Sendable, Equatable {
    /// The instant.
    public var t: SimTime
    /// What the arbiter was told.
    public var input: ArbiterInput
    /// What it decided, in order.
    public var actions: [TalkArbiter.Action]
}

/// An action an arbiter returned that cannot be carried out.
public struct ImpossibleAction: Sendable, Equatable {
    /// Why an action cannot be carried out.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// An index outside the scenario's tables.
        case unknownIndex = "unknown index"
        /// A line started, waited or dropped that is not pending (never requested, playing or done).
        case lineNotPending = "the line is not pending"
        /// A line ended that is not the one playing.
        case lineNotPlaying = "the line is not playing"
        /// A stretch ended or was cut that is not the one playing, or not of that reply.
        case stretchNotPlaying = "the stretch is not playing"
        /// A stretch started while another plays, or a reply ended while its stretch plays.
        case stretchStillPlaying = "a stretch is still playing"
        /// A stretch started whose chunk is not ready.
        case chunkNotReady = "its chunk is not ready"
        /// A stretch of a reply that is not the active one, or a reply ended that is not active.
        case replyNotActive = "the reply is not active"
        /// A reply queued or became active that has not begun, or is active or over.
        case replyNotWaiting = "the reply has not begun or is already active or over"
        /// A reply became active while another is.
        case twoReplies = "another reply is active"
        /// An end time that is not the start plus the duration, a played time
        /// that is not what played, or an end before its time.
        case wrongTime = "wrong time"
        /// The ears recorded as closing when closed, or opening when open.
        case earsUnchanged = "the ears are already so"
        /// A wake-up that is not after now.
        case wakeNotLater = "a wake-up not after now"
        /// A wake-up after the latest time the run can reach (`ActionValidator.horizon`):
        /// 24 h (SPEC 2) and every duration the scenario holds.
        case afterTheDrive = "a time after the drive's end (24 h and every duration the scenario holds, SPEC 2)"
        /// More wake-ups than the run allows (`ActionValidator.wakeUpLimit`): an arbiter that never lets the run end.
        case tooManyWakeUps = "more wake-ups than the run allows (ActionValidator.wakeUpLimit)"
    }

    /// The instant.
    public var t: SimTime
    /// The input that drew the action.
    public var input: ArbiterInput
    /// The action.
    public var action: TalkArbiter.Action
    /// Why it cannot be carried out.
    public var reason: Reason
}

/// What the simulator itself knows of a run, to validate each action before
/// it is performed: whatever the arbiter believes, only what was requested,
/// begun and made ready can start, and only what plays can end or be cut.
/// A line and a stretch at once (two voices) can be carried out: the bus
/// records the overlap and invariant 1 names it. A line started over another
/// line replaces it on the guidance player, as the bus does.
struct ActionValidator: Sendable {
    enum ReplyState: UInt8 { case idle, begun, active, done }

    let tables: ArbiterTables
    /// Each line's duration as last revised (`lineRevised`).
    var durations: [SimTime]
    var lines: [LineProgress]
    var replies: [ReplyState]
    var chunkReady: [Bool]
    var playingLine: (line: Int, end: SimTime)?
    var playingStretch: (reply: Int, stretch: Int, start: SimTime, end: SimTime)?
    var activeReply: Int?
    var earsOpen = true
    /// Wake-ups admitted so far, and how many the run allows.
    var wakeUps = 0
    let wakeUpLimit: Int
    /// The latest time a wake-up may be for.
    let horizon: SimTime

    /// The latest time a run over `tables` can reach: everything a scenario
    /// holds starts by 24 h (SPEC 2), and its lines, stretches and utterances
    /// (each at most 1 h, a line as revised too) may then play one after another, with 1 h more for
    /// the ears' tail. Sums of bounded counts of bounded values: no overflow.
    static func horizon(_ tables: ArbiterTables) -> SimTime {
        let lines = Int64(tables.lines.count) * Scenario.Limits.maxDuration.ms  // revisions may lengthen them
        let stretches = tables.stretchDurations.reduce(Int64(0)) { $0 + $1.ms }
        let dad = Int64(tables.utterances) * Scenario.Limits.maxDuration.ms
        return SimTime(ms: Scenario.Limits.maxTime.ms + lines + stretches + dad + Scenario.Limits.maxDuration.ms)
    }

    /// The wake-ups a run over `tables` allows: 1,000 and 8 per line, stretch
    /// and utterance (the reference asks for at most one per ears closing),
    /// so an arbiter that always asks to be woken 1 ms later, or toggles the
    /// ears, ends with a named failure in bounded time.
    static func wakeUpLimit(_ tables: ArbiterTables) -> Int {
        1_000 + 8 * (tables.lines.count + tables.stretchDurations.count + tables.utterances)
    }

    /// A validator for a run over `tables`; with `tracking` false (a run that
    /// does not validate) it keeps no state and must not be asked.
    init(_ tables: ArbiterTables, tracking: Bool = true) {
        self.tables = tables
        durations = tracking ? tables.lines.map(\.duration) : []
        lines = tracking ? Array(repeating: .idle, count: tables.lines.count) : []
        replies = tracking ? Array(repeating: .idle, count: tables.replies.count) : []
        chunkReady = tracking ? Array(repeating: false, count: tables.stretchDurations.count) : []
        wakeUpLimit = Self.wakeUpLimit(tables)
        horizon = Self.horizon(tables)
    }

    mutating func lineRequested(_ line: Int) { if lines[line] == .idle { lines[line] = .pending } }
    mutating func lineRevised(_ line: Int, duration: SimTime) { durations[line] = duration }
    mutating func replyBegins(_ reply: Int) { if replies[reply] == .idle { replies[reply] = .begun } }

    /// Takes `action` at `now` into account, or says why it is impossible.
    mutating func admit(_ action: TalkArbiter.Action, at now: SimTime) -> ImpossibleAction.Reason? {
        let lineCount = lines.count
        let stretchCount = chunkReady.count
        let replyCount = replies.count
        switch action {
        case .lineWaiting(let line, _, let stretch):
            guard line >= 0, line < lineCount, stretch.map({ $0 >= 0 && $0 < stretchCount }) ?? true else {
                return .unknownIndex
            }
            guard lines[line] == .pending else { return .lineNotPending }
        case .lineStarted(let line, let end):
            guard line >= 0, line < lineCount else { return .unknownIndex }
            guard lines[line] == .pending else { return .lineNotPending }
            guard end == now + durations[line] else { return .wrongTime }
            lines[line] = .playing
            playingLine = (line, end)
        case .lineEnded(let line):
            guard line >= 0, line < lineCount else { return .unknownIndex }
            guard let playing = playingLine, playing.line == line else { return .lineNotPlaying }
            guard playing.end == now else { return .wrongTime }
            lines[line] = .done
            playingLine = nil
        case .lineDropped(let line, _):
            guard line >= 0, line < lineCount else { return .unknownIndex }
            guard lines[line] == .pending else { return .lineNotPending }
            lines[line] = .done
        case .replyQueued(let reply):
            guard reply >= 0, reply < replyCount else { return .unknownIndex }
            guard replies[reply] == .begun else { return .replyNotWaiting }
        case .replyBegan(let reply):
            guard reply >= 0, reply < replyCount else { return .unknownIndex }
            guard replies[reply] == .begun else { return .replyNotWaiting }
            guard activeReply == nil else { return .twoReplies }
            replies[reply] = .active
            activeReply = reply
        case .stretchStarted(let reply, let stretch, let end, let held):
            guard reply >= 0, reply < replyCount, stretch >= 0, stretch < stretchCount else { return .unknownIndex }
            guard activeReply == reply else { return .replyNotActive }
            guard tables.replies[reply].stretches.contains(stretch) else { return .stretchNotPlaying }
            guard chunkReady[stretch] else { return .chunkNotReady }
            guard playingStretch == nil else { return .stretchStillPlaying }
            guard end == now + tables.stretchDurations[stretch], held.map({ $0 > .zero && $0 <= now }) ?? true else {
                return .wrongTime
            }
            playingStretch = (reply, stretch, now, end)
        case .stretchEnded(let reply, let stretch):
            guard reply >= 0, reply < replyCount, stretch >= 0, stretch < stretchCount else { return .unknownIndex }
            guard let playing = playingStretch, playing.reply == reply, playing.stretch == stretch else {
                return .stretchNotPlaying
            }
            guard playing.end == now else { return .wrongTime }
            playingStretch = nil
        case .stretchCut(let reply, let stretch, _, let by, let played, _):
            guard reply >= 0, reply < replyCount, stretch >= 0, stretch < stretchCount else { return .unknownIndex }
            switch by {
            case .line(let line): guard line >= 0, line < lineCount else { return .unknownIndex }
            case .utterance(let utterance):
                guard utterance >= 0, utterance < tables.utterances else { return .unknownIndex }
            }
            guard let playing = playingStretch, playing.reply == reply, playing.stretch == stretch else {
                return .stretchNotPlaying
            }
            guard played == now - playing.start else { return .wrongTime }
            playingStretch = nil
        case .replyEnded(let reply), .replyAbandoned(let reply, _):
            guard reply >= 0, reply < replyCount else { return .unknownIndex }
            guard activeReply == reply else { return .replyNotActive }
            guard playingStretch == nil else { return .stretchStillPlaying }
            replies[reply] = .done
            activeReply = nil
        case .earsClosed, .earsOpened:
            let opens = action == .earsOpened
            guard earsOpen != opens else { return .earsUnchanged }
            earsOpen = opens
        case .wake(let time):
            guard time > now else { return .wakeNotLater }
            guard time <= horizon else { return .afterTheDrive }
            wakeUps += 1
            guard wakeUps <= wakeUpLimit else { return .tooManyWakeUps }
        }
        return nil
    }
}
