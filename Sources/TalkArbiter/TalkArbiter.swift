import SimClock

/// The referee of the audio bus (SPEC 4): a pure state machine.
///
/// It is handed each input with its time and appends the actions that follow
/// to a buffer the caller owns; it never reads a clock, schedules, prints or
/// records a timeline. The caller performs the actions: it schedules the end
/// of what started, plays and stops voices on the bus, and wakes the arbiter
/// when the ears' reopen timer is due.
///
/// It owns SPEC 4.2's instant: the caller hands over the instant's inputs in
/// their order (completions, then arrivals), then calls `endInstant(at:into:)`
/// once, which settles and observes. In debug builds every input and every
/// instant's end checks the state and the order of the calls.
///
/// Lines, replies and stretches are numbered by their index in the tables
/// given at creation; replies to Dad are in the table too and simply begin
/// later, if at all.
public struct TalkArbiter: Sendable {
    let settings: Settings
    var lines: [Line]
    let replies: [Reply]
    let stretchDurations: [SimTime]
    let fault: Fault?

    // The state. Internal rather than private so that tests can build states
    // that should never exist and see the checks name them.
    var talk = TalkState.idle
    var guidance = GuidanceState.idle
    var ears = EarsState.open
    /// Replies that began while another was active, in the order they began.
    var waitingReplies = ReplyQueue()
    /// The utterance Dad is speaking, if any.
    var dadSpeaking: Int?
    /// Whether the ears were open when last recorded (`observe`); open at time zero.
    var earsRecordedOpen = true
    var lineProgress: [LineProgress]
    /// Per line: its neighbours while it is pending.
    var queueLinks: [QueueLink]
    var chunkReady: [Bool]

    #if DEBUG
        /// The instant the inputs belong to and the step of SPEC 4.2 of the last one.
        var instant = InstantOrder()
    #endif

    /// An arbiter at time zero: the ears open, nothing playing. Unchecked
    /// tables, for tests; the public way in is `init(_:)` with `ArbiterTables`.
    /// - Parameters:
    ///   - lines: every guidance line that may be requested.
    ///   - replies: every reply that may begin, Dad's included.
    ///   - stretchDurations: every stretch's duration; replies index into it.
    package init(settings: Settings, lines: [Line], replies: [Reply], stretchDurations: [SimTime]) {
        self.init(settings: settings, lines: lines, replies: replies, stretchDurations: stretchDurations, fault: nil)
    }

    /// An arbiter with a deliberate bug, for mutation testing only.
    package init(settings: Settings, lines: [Line], replies: [Reply], stretchDurations: [SimTime], fault: Fault?) {
        self.settings = settings
        self.fault = fault
        self.lines = lines
        self.replies = replies
        self.stretchDurations = stretchDurations
        lineProgress = Array(repeating: .idle, count: lines.count)
        queueLinks = Array(repeating: QueueLink(), count: lines.count)
        chunkReady = Array(repeating: false, count: stretchDurations.count)
    }

    // MARK: Inputs, step 1: completions

    /// A playing line reached its end.
    public mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.lineEnded(line), at: now) }
        guard case .playing(line, let queue) = guidance else { return }
        guidance = queue.isEmpty ? .idle : .pending(queue)
        lineProgress[line] = .done
        actions.append(.lineEnded(line: line))
        var reopenAt = now + settings.earsTail
        if fault == .earsEarly, reopenAt > now { reopenAt = reopenAt - SimTime(ms: 1) }
        if reopenAt > now {
            ears = .tail(until: reopenAt)
            actions.append(.wake(at: reopenAt))
        } else {
            ears = .open
        }
    }

    /// A stretch reached its end. Ends of stretches that were cut are ignored.
    public mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.stretchEnded(stretch), at: now) }
        guard case .playing(let reply, stretch, _, now) = talk else { return }
        actions.append(.stretchEnded(reply: reply, stretch: stretch))
        advance(reply, past: stretch, at: now, into: &actions)
    }

    /// Dad stopped speaking.
    public mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.dadEnded(utterance), at: now) }
        if dadSpeaking == utterance { dadSpeaking = nil }
    }

    /// The ears' reopen timer is due: the tail is over if it ends now.
    public mutating func earsTimer(at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.earsTimer, at: now) }
        reopenEarsIfDue(at: now)
    }

    // MARK: Inputs, step 2: arrivals

    /// A line's `expires` instant came: dropped if it is still pending.
    public mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.lineExpired(line), at: now) }
        guard lineProgress[line] == .pending, lines[line].expires == now, fault != .staleIgnored else { return }
        var pending = pendingLines
        unlink(line, from: &pending)
        setPendingLines(pending)
        lineProgress[line] = .done
        actions.append(.lineDropped(line: line, rule: .stale))
    }

    /// A line re-phrased while it waits: it lasts `duration` if it starts from now on.
    public mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) {
        guard lineProgress[line] != .playing, lineProgress[line] != .done, duration > .zero else { return }
        lines[line].duration = duration
    }

    /// A line is requested; decided at once against the state as it stands.
    public mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.lineRequested(line), at: now) }
        guard lineProgress[line] == .idle else { return }
        let request = lines[line]
        if let maneuver = request.maneuver, fault != .supersedingIgnored, guidance.hasPendingLines {
            var pending = pendingLines
            // Urgent ones first, each class in order.
            for urgentClass in [true, false] {
                var next = urgentClass ? pending.urgent.first : pending.ordinary.first
                while let queued = next {
                    next = queueLinks[queued].next
                    guard lines[queued].maneuver == maneuver else { continue }
                    unlink(queued, from: &pending)
                    lineProgress[queued] = .done
                    actions.append(.lineDropped(line: queued, rule: .superseded))
                }
            }
            setPendingLines(pending)
        }
        lineProgress[line] = .pending
        if case .playing(_, let stretch, _, let end) = talk {
            if request.urgent, fault != .urgentWaits {
                cutStretch(by: .line(line), rule: .urgentCut, at: now, into: &actions)
                startLine(line, at: now, into: &actions)
            } else if waits(remaining: end - now) {
                enqueue(line)
                actions.append(.lineWaiting(line: line, rule: .shortWait, stretch: stretch))
            } else {
                cutStretch(by: .line(line), rule: .longCut, at: now, into: &actions)
                startLine(line, at: now, into: &actions)
            }
        } else {
            let queues = guidance.isBusy
            enqueue(line)
            if queues { actions.append(.lineWaiting(line: line, rule: .guidanceQueue, stretch: nil)) }
        }
    }

    /// One of Pippa's replies begins: active at once, or queued behind the active one.
    public mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.replyBegan(reply), at: now) }
        switch talk {
        case .idle:
            talk = .waiting(reply: reply, next: replies[reply].stretches.lowerBound)
            actions.append(.replyBegan(reply: reply))
        case .waiting, .held, .playing:
            waitingReplies.append(reply)
            actions.append(.replyQueued(reply: reply))
        }
    }

    /// A stretch's audio chunk is in the cache.
    public mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.chunkReady(stretch), at: now) }
        chunkReady[stretch] = true
    }

    /// Dad started speaking.
    public mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        defer { checkInput(.dadStarted(utterance), at: now) }
        dadSpeaking = utterance
    }

    // MARK: Steps 3 and 4

    /// Ends the instant `now` once its inputs are in: settles (starts what may
    /// start and applies barge-in until nothing changes), then records the
    /// ears if their state changed since the last instant.
    public mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        settle(at: now, into: &actions)
        observe(at: now, into: &actions)
        checkEndOfInstant(at: now)
    }

    /// Whether the talk's ears are open at `now`: no line plays and the tail has passed.
    public func earsOpen(at now: SimTime) -> Bool { ears.isOpen(at: now) }

    /// Whether nothing is playing, pending or active: the arbiter is at rest.
    public var isIdle: Bool {
        switch (guidance, talk) {
        case (.idle, .idle): return waitingReplies.isEmpty
        case (.idle, .waiting), (.idle, .held), (.idle, .playing), (.playing, _), (.pending, _): return false
        }
    }

    /// SPEC 4.2 step 3: try a, b, c in turn, from a again after any change.
    private mutating func settle(at now: SimTime, into actions: inout [Action]) {
        while true {
            // a. Nothing plays: the first pending line starts.
            if case .pending(var pending) = guidance, !talk.isPlaying,
                let line = pending.urgent.first ?? pending.ordinary.first
            {
                unlink(line, from: &pending)
                guidance = pending.isEmpty ? .idle : .pending(pending)
                startLine(line, at: now, into: &actions)
                continue
            }
            // b. Dad is heard while a reply is active: barge-in.
            if let utterance = dadSpeaking, let reply = talk.activeReply, ears.isOpen(at: now),
                fault != .bargeInWhilePlayingOnly || talk.isPlaying
            {
                cutStretch(by: .utterance(utterance), rule: .bargeIn, at: now, into: &actions)
                finish(reply, .abandoned(.bargeIn), at: now, into: &actions)
                continue
            }
            // c. Nothing plays and nothing is pending: the next stretch starts if its chunk is ready.
            if let (reply, next) = talk.notPlaying, fault == .heldIgnored || !guidance.isBusy, chunkReady[next] {
                startStretch(next, of: reply, at: now, into: &actions)
                continue
            }
            break
        }
        if case .waiting(let reply, let next) = talk, guidance.isBusy, chunkReady[next] {
            talk = .held(reply: reply, next: next, since: now)
        }
    }

    /// SPEC 4.2 step 4: records the ears' state if it changed since the last instant.
    private mutating func observe(at now: SimTime, into actions: inout [Action]) {
        reopenEarsIfDue(at: now)
        let open = ears.isOpen(at: now)
        guard open != earsRecordedOpen else { return }
        earsRecordedOpen = open
        actions.append(open ? .earsOpened : .earsClosed)
    }

    // MARK: Carrying out decisions

    private mutating func reopenEarsIfDue(at now: SimTime) {
        if case .tail(let until) = ears, now >= until { ears = .open }
    }

    /// `short-wait` or `long-cut`: whether an ordinary line waits for a stretch with `remaining` left.
    private func waits(remaining: SimTime) -> Bool {
        switch fault {
        case .waitLimitStrict: return remaining < settings.waitLimit
        case .waitLimitLoose: return remaining.ms <= settings.waitLimit.ms + 1
        case nil, .earsEarly, .urgentWaits, .urgentNotAhead, .supersedingIgnored, .staleIgnored, .heldIgnored,
            .repeatSkips, .bargeInWhilePlayingOnly, .replyQueueLIFO:
            return remaining <= settings.waitLimit
        }
    }

    /// The lines waiting for guidance, urgent and ordinary.
    private var pendingLines: PendingLines {
        switch guidance {
        case .idle: return PendingLines()
        case .playing(_, let pending), .pending(let pending): return pending
        }
    }

    /// Puts back the pending lines; with nothing playing and nothing left, guidance is idle.
    private mutating func setPendingLines(_ pending: PendingLines) {
        switch guidance {
        case .idle, .pending: guidance = pending.isEmpty ? .idle : .pending(pending)
        case .playing(let line, _): guidance = .playing(line: line, queue: pending)
        }
    }

    /// The class a line queues in: `guidance-queue` puts urgent lines ahead.
    private func queuesAsUrgent(_ line: Int) -> Bool { lines[line].urgent && fault != .urgentNotAhead }

    private mutating func enqueue(_ line: Int) {
        var pending = pendingLines
        if queuesAsUrgent(line) { append(line, to: &pending.urgent) } else { append(line, to: &pending.ordinary) }
        setPendingLines(pending)
    }

    private mutating func append(_ line: Int, to queue: inout LineQueue) {
        queueLinks[line] = QueueLink(previous: queue.last, next: nil)
        if let last = queue.last { queueLinks[last].next = line } else { queue.first = line }
        queue.last = line
    }

    /// Takes a pending line out of its queue.
    private mutating func unlink(_ line: Int, from pending: inout PendingLines) {
        let link = queueLinks[line]
        queueLinks[line] = QueueLink()
        let urgent = queuesAsUrgent(line)
        var queue = urgent ? pending.urgent : pending.ordinary
        if let previous = link.previous { queueLinks[previous].next = link.next } else { queue.first = link.next }
        if let next = link.next { queueLinks[next].previous = link.previous } else { queue.last = link.previous }
        if urgent { pending.urgent = queue } else { pending.ordinary = queue }
    }

    /// Starts `line` now; whatever was pending stays pending behind it.
    private mutating func startLine(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        // Only the held-ignored mutant starts a line while another plays.
        guidance = .playing(line: line, queue: pendingLines)
        ears = .closed
        lineProgress[line] = .playing
        actions.append(.lineStarted(line: line, endsAt: now + lines[line].duration))
    }

    private mutating func startStretch(_ stretch: Int, of reply: Int, at now: SimTime, into actions: inout [Action]) {
        let end = now + stretchDurations[stretch]
        let held: SimTime?
        if case .held(_, _, let since) = talk { held = now - since } else { held = nil }
        talk = .playing(reply: reply, stretch: stretch, start: now, end: end)
        actions.append(.stretchStarted(reply: reply, stretch: stretch, endsAt: end, held: held))
    }

    /// Cuts the playing stretch, if one plays; `after-cut` decides what follows a cut by guidance.
    private mutating func cutStretch(by cause: Cause, rule: CutRule, at now: SimTime, into actions: inout [Action]) {
        guard case .playing(let reply, let stretch, let start, _) = talk else { return }
        talk = .waiting(reply: reply, next: stretch)
        let byGuidance: Bool
        switch cause {
        case .line: byGuidance = true
        case .utterance: byGuidance = false
        }
        actions.append(
            .stretchCut(
                reply: reply, stretch: stretch, rule: rule, by: cause, played: now - start,
                then: byGuidance ? settings.afterCut : nil))
        guard byGuidance else { return }
        switch settings.afterCut {
        case .repeat where fault == .repeatSkips: advance(reply, past: stretch, at: now, into: &actions)
        case .repeat: break
        case .skip: advance(reply, past: stretch, at: now, into: &actions)
        case .drop: finish(reply, .abandoned(.afterCut), at: now, into: &actions)
        }
    }

    /// Moves the active reply past `stretch`; the reply ends after its last.
    private mutating func advance(_ reply: Int, past stretch: Int, at now: SimTime, into actions: inout [Action]) {
        if stretch + 1 == replies[reply].stretches.upperBound {
            finish(reply, .ended, at: now, into: &actions)
        } else {
            talk = .waiting(reply: reply, next: stretch + 1)
        }
    }

    /// Ends or abandons the active reply; the next waiting one becomes active at once.
    private mutating func finish(_ reply: Int, _ outcome: Outcome, at now: SimTime, into actions: inout [Action]) {
        switch outcome {
        case .ended: actions.append(.replyEnded(reply: reply))
        case .abandoned(let rule): actions.append(.replyAbandoned(reply: reply, rule: rule))
        }
        talk = .idle
        let next = fault == .replyQueueLIFO ? waitingReplies.popLast() : waitingReplies.popFirst()
        if let next {
            talk = .waiting(reply: next, next: replies[next].stretches.lowerBound)
            actions.append(.replyBegan(reply: next))
        }
    }

    private enum Outcome {
        case ended
        case abandoned(AbandonRule)
    }
}
