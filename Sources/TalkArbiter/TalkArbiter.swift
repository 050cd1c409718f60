import SimClock

/// The referee of the audio bus (SPEC 4): a pure state machine.
///
/// It is handed each input with its time and appends the actions that follow
/// to a buffer the caller owns; it never reads a clock, schedules, prints or
/// records a timeline. The caller performs the actions: it schedules the end
/// of what started, plays and stops voices on the bus, and wakes the arbiter
/// when the ears' reopen timer is due.
///
/// Lines, replies and stretches are numbered by their index in the tables
/// given at creation; replies to Dad are in the table too and simply begin
/// later, if at all.
public struct TalkArbiter: Sendable {
    private let settings: Settings
    private let lines: [Line]
    private let replies: [Reply]
    private let stretchDurations: [SimTime]
    private let fault: Fault?

    private var lineStates: [LineState]
    /// Pending lines, in the order they will start: urgent first, each class first come first served.
    private var pendingUrgent: [Int] = []
    private var pendingOrdinary: [Int] = []
    private var playingLine: Int?
    /// The ears are open when no line plays and this instant has come.
    private var reopenAt = SimTime.zero
    private var earsRecordedOpen = true

    private var activeReply: Int?
    private var waitingReplies: [Int] = []
    private var waitingHead = 0
    /// Per reply: the stretch playing, or the one to play next.
    private var nextStretch: [Int]
    private var chunkReady: [Bool]
    private var playingStretch: PlayingStretch?
    /// Since when the active reply's next stretch could start but for guidance.
    private var heldSince: SimTime?
    /// The utterance Dad is speaking, if any.
    private var dadSpeaking: Int?

    /// An arbiter at time zero: the ears open, nothing playing.
    /// - Parameters:
    ///   - lines: every guidance line that may be requested.
    ///   - replies: every reply that may begin, Dad's included.
    ///   - stretchDurations: every stretch's duration; replies index into it.
    ///   - fault: a deliberate bug, for mutation testing only.
    public init(settings: Settings, lines: [Line], replies: [Reply], stretchDurations: [SimTime], fault: Fault? = nil) {
        self.settings = settings
        self.fault = fault
        self.lines = lines
        self.replies = replies
        self.stretchDurations = stretchDurations
        lineStates = Array(repeating: .idle, count: lines.count)
        nextStretch = replies.map(\.stretches.lowerBound)
        chunkReady = Array(repeating: false, count: stretchDurations.count)
    }

    // MARK: Inputs, step 1: completions

    /// A playing line reached its end.
    public mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        guard playingLine == line else { return }
        playingLine = nil
        lineStates[line] = .done
        actions.append(.lineEnded(line: line))
        reopenAt = now + settings.earsTail
        if fault == .earsEarly, reopenAt > now { reopenAt = reopenAt - SimTime(ms: 1) }
        if reopenAt > now { actions.append(.wake(at: reopenAt)) }
    }

    /// A stretch reached its end. Ends of stretches that were cut are ignored.
    public mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        guard let playing = playingStretch, playing.stretch == stretch, playing.end == now else { return }
        playingStretch = nil
        actions.append(.stretchEnded(reply: playing.reply, stretch: stretch))
        advance(playing.reply, at: now, into: &actions)
    }

    /// Dad stopped speaking.
    public mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        if dadSpeaking == utterance { dadSpeaking = nil }
    }

    /// The ears' reopen timer is due. The ears' state follows from the time,
    /// so this input only gives the instant its settle step.
    public mutating func earsTimer(at now: SimTime, into actions: inout [Action]) {}

    // MARK: Inputs, step 2: arrivals

    /// A line's `expires` instant came: dropped if it is still pending.
    public mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        guard lineStates[line] == .pending, lines[line].expires == now, fault != .staleIgnored else { return }
        removePending(line)
        lineStates[line] = .done
        actions.append(.lineDropped(line: line, rule: .stale))
    }

    /// A line is requested; decided at once against the state as it stands.
    public mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        guard lineStates[line] == .idle else { return }
        let request = lines[line]
        if let maneuver = request.maneuver, fault != .supersedingIgnored {
            for pending in pendingUrgent + pendingOrdinary where lines[pending].maneuver == maneuver {
                removePending(pending)
                lineStates[pending] = .done
                actions.append(.lineDropped(line: pending, rule: .superseded))
            }
        }
        lineStates[line] = .pending
        if let playing = playingStretch {
            if request.urgent, fault != .urgentWaits {
                cutStretch(by: .line(line), rule: .urgentCut, at: now, into: &actions)
                startLine(line, at: now, into: &actions)
            } else if waits(remaining: playing.end - now) {
                enqueue(line)
                actions.append(.lineWaiting(line: line, rule: .shortWait, stretch: playing.stretch))
            } else {
                cutStretch(by: .line(line), rule: .longCut, at: now, into: &actions)
                startLine(line, at: now, into: &actions)
            }
        } else {
            let queues = playingLine != nil || hasPendingLines
            enqueue(line)
            if queues { actions.append(.lineWaiting(line: line, rule: .guidanceQueue, stretch: nil)) }
        }
    }

    /// One of Pippa's replies begins: active at once, or queued behind the active one.
    public mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) {
        if activeReply == nil {
            activeReply = reply
            actions.append(.replyBegan(reply: reply))
        } else {
            waitingReplies.append(reply)
            actions.append(.replyQueued(reply: reply))
        }
    }

    /// A stretch's audio chunk is in the cache.
    public mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        chunkReady[stretch] = true
    }

    /// Dad started speaking.
    public mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        dadSpeaking = utterance
    }

    // MARK: Steps 3 and 4

    /// Settles the instant: starts what may start and applies barge-in,
    /// trying each in turn until nothing changes.
    public mutating func settle(at now: SimTime, into actions: inout [Action]) {
        while true {
            if playingLine == nil, playingStretch == nil, let line = popPending() {
                startLine(line, at: now, into: &actions)
                continue
            }
            if let utterance = dadSpeaking, let reply = activeReply, earsOpen(at: now),
                fault != .bargeInWhilePlayingOnly || playingStretch != nil
            {
                if playingStretch != nil {
                    cutStretch(by: .utterance(utterance), rule: .bargeIn, at: now, into: &actions)
                }
                finish(reply, .abandoned(.bargeIn), at: now, into: &actions)
                continue
            }
            if playingStretch == nil, fault == .heldIgnored || (playingLine == nil && !hasPendingLines),
                let reply = activeReply, chunkReady[nextStretch[reply]]
            {
                startStretch(of: reply, at: now, into: &actions)
                continue
            }
            break
        }
        if heldSince == nil, playingStretch == nil, playingLine != nil || hasPendingLines,
            let reply = activeReply, chunkReady[nextStretch[reply]]
        {
            heldSince = now
        }
    }

    /// Records the ears' state if it changed since the last instant.
    public mutating func observe(at now: SimTime, into actions: inout [Action]) {
        let open = earsOpen(at: now)
        guard open != earsRecordedOpen else { return }
        earsRecordedOpen = open
        actions.append(open ? .earsOpened : .earsClosed)
    }

    /// Whether the talk's ears are open at `now`: no line plays and the tail has passed.
    public func earsOpen(at now: SimTime) -> Bool { playingLine == nil && now >= reopenAt }

    /// Whether nothing is playing, pending or active: the arbiter is at rest.
    public var isIdle: Bool {
        playingLine == nil && playingStretch == nil && !hasPendingLines && activeReply == nil
            && waitingHead == waitingReplies.count
    }

    // MARK: Carrying out decisions

    private var hasPendingLines: Bool { !pendingUrgent.isEmpty || !pendingOrdinary.isEmpty }

    /// `short-wait` or `long-cut`: whether an ordinary line waits for a stretch with `remaining` left.
    private func waits(remaining: SimTime) -> Bool {
        switch fault {
        case .waitLimitStrict: return remaining < settings.waitLimit
        case .waitLimitLoose: return remaining.ms <= settings.waitLimit.ms + 1
        default: return remaining <= settings.waitLimit
        }
    }

    private mutating func enqueue(_ line: Int) {
        if lines[line].urgent, fault != .urgentNotAhead { pendingUrgent.append(line) } else { pendingOrdinary.append(line) }
    }

    private mutating func popPending() -> Int? {
        if !pendingUrgent.isEmpty { return pendingUrgent.removeFirst() }
        if !pendingOrdinary.isEmpty { return pendingOrdinary.removeFirst() }
        return nil
    }

    private mutating func removePending(_ line: Int) {
        if let i = pendingUrgent.firstIndex(of: line) { pendingUrgent.remove(at: i) }
        if let i = pendingOrdinary.firstIndex(of: line) { pendingOrdinary.remove(at: i) }
    }

    private mutating func startLine(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        lineStates[line] = .playing
        playingLine = line
        actions.append(.lineStarted(line: line, endsAt: now + lines[line].duration))
    }

    private mutating func startStretch(of reply: Int, at now: SimTime, into actions: inout [Action]) {
        let stretch = nextStretch[reply]
        let end = now + stretchDurations[stretch]
        playingStretch = PlayingStretch(reply: reply, stretch: stretch, start: now, end: end)
        actions.append(.stretchStarted(reply: reply, stretch: stretch, endsAt: end, held: heldSince.map { now - $0 }))
        heldSince = nil
    }

    private mutating func cutStretch(by cause: Cause, rule: Rule, at now: SimTime, into actions: inout [Action]) {
        guard let playing = playingStretch else { return }
        playingStretch = nil
        let byGuidance: Bool
        if case .line = cause { byGuidance = true } else { byGuidance = false }
        actions.append(
            .stretchCut(
                reply: playing.reply, stretch: playing.stretch, rule: rule, by: cause, played: now - playing.start,
                then: byGuidance ? settings.afterCut : nil))
        guard byGuidance else { return }
        switch settings.afterCut {
        case .repeat where fault == .repeatSkips: advance(playing.reply, at: now, into: &actions)
        case .repeat: break
        case .skip: advance(playing.reply, at: now, into: &actions)
        case .drop: finish(playing.reply, .abandoned(.afterCut), at: now, into: &actions)
        }
    }

    /// Moves a reply past its current stretch; the reply ends after its last.
    private mutating func advance(_ reply: Int, at now: SimTime, into actions: inout [Action]) {
        nextStretch[reply] += 1
        if nextStretch[reply] == replies[reply].stretches.upperBound {
            finish(reply, .ended, at: now, into: &actions)
        }
    }

    /// Ends or abandons the active reply; the next waiting one becomes active at once.
    private mutating func finish(_ reply: Int, _ outcome: Outcome, at now: SimTime, into actions: inout [Action]) {
        switch outcome {
        case .ended: actions.append(.replyEnded(reply: reply))
        case .abandoned(let rule): actions.append(.replyAbandoned(reply: reply, rule: rule))
        }
        activeReply = nil
        heldSince = nil
        if waitingHead < waitingReplies.count {
            let next: Int
            if fault == .replyQueueLIFO {
                next = waitingReplies.removeLast()
            } else {
                next = waitingReplies[waitingHead]
                waitingHead += 1
            }
            activeReply = next
            actions.append(.replyBegan(reply: next))
        }
    }

    private enum Outcome {
        case ended
        case abandoned(Rule)
    }

    private enum LineState: Sendable {
        case idle, pending, playing, done
    }

    private struct PlayingStretch: Sendable {
        var reply: Int
        var stretch: Int
        var start: SimTime
        var end: SimTime
    }
}
