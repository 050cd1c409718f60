import SimClock

// Internal checks: what the state must satisfy after every input and at the
// end of every instant, beyond what its shape already rules out. Debug builds
// run them after each call and stop at the first broken one; release builds
// compile the hooks to nothing.

extension TalkArbiter {
    /// Where the caller is in the current instant, to check that it keeps
    /// SPEC 4.2's order: one instant at a time, time never going back, each
    /// instant's inputs in step order, then its end.
    struct InstantOrder: Sendable, Equatable {
        var now = SimTime.zero
        var step: UInt8 = 0
        /// Whether inputs came since the last end of an instant.
        var open = false

        /// Takes `input` at `now`; false if it is out of order.
        mutating func admit(_ input: ArbiterInput, at now: SimTime) -> Bool {
            let inOrder = open ? now == self.now && input.step >= step : now >= self.now
            (self.now, step, open) = (now, input.step, true)
            return inOrder
        }

        /// Ends the instant `now`; false if inputs of another instant are open or time went back.
        mutating func end(at now: SimTime) -> Bool {
            let inOrder = open ? now == self.now : now >= self.now
            (self.now, step, open) = (now, 0, false)
            return inOrder
        }
    }

    /// Something the state or the order of the calls should never show.
    enum Inconsistency: Sendable, Equatable {
        /// The ears are closed but no line plays, or a line plays and they are not closed.
        case earsDisagreeWithGuidance
        /// Guidance is pending with nothing in its queue.
        case emptyPendingQueue
        /// The line guidance plays is not marked playing.
        case playingLineNotPlaying(line: Int)
        /// A queued line is not marked pending.
        case queuedLineNotPending(line: Int)
        /// A queue's links disagree with each other or with its ends.
        case brokenQueue
        /// A queued line is in the other class's queue.
        case queuedInWrongClass(line: Int)
        /// A line and a stretch play at once.
        case twoVoices
        /// The talk's stretch is not one of its reply's.
        case stretchOutsideReply(reply: Int, stretch: Int)
        /// The playing stretch's times disagree with its duration or with now.
        case stretchTimes(stretch: Int)
        /// A stretch plays whose chunk is not ready.
        case stretchWithoutChunk(stretch: Int)
        /// A held reply's chunk is not ready, or it is held since after now.
        case heldBadly(reply: Int)
        /// Replies wait although none is active.
        case repliesWaitWithoutActive
        // At the end of an instant only:
        /// A line is pending while nothing plays: settle should have started it.
        case pendingOnFreeBus
        /// The active reply's chunk is ready, nothing holds it, and it has not started.
        case readyStretchNotStarted(reply: Int)
        /// A reply is held while no guidance plays or is pending.
        case heldWithoutGuidance(reply: Int)
        /// Dad is heard while a reply is active, and no barge-in followed.
        case bargeInMissed(reply: Int)
        /// A line is still pending at or after its `expires` instant.
        case pendingAfterExpiry(line: Int)
        /// The ears' tail is over but they are not open.
        case tailOver
        /// An input came for another instant than the open one, or out of SPEC 4.2's order.
        case outOfOrder
    }

    /// What is wrong with the state at `now`, after an input (`endOfInstant`
    /// false) or once the instant has settled and observed.
    /// - Complexity: O(1) after an input, O(pending lines) at the end of an instant.
    func inconsistencies(at now: SimTime, endOfInstant: Bool) -> [Inconsistency] {
        var found: [Inconsistency] = []
        let linePlays: Bool
        switch guidance {
        case .idle: linePlays = false
        case .playing(let line, _):
            linePlays = true
            if lineProgress[line] != .playing { found.append(.playingLineNotPlaying(line: line)) }
        case .pending(let queue):
            linePlays = false
            if queue.isEmpty { found.append(.emptyPendingQueue) }
        }
        switch ears {
        case .closed: if !linePlays { found.append(.earsDisagreeWithGuidance) }
        case .open: if linePlays { found.append(.earsDisagreeWithGuidance) }
        case .tail(let until):
            if linePlays { found.append(.earsDisagreeWithGuidance) }
            if endOfInstant, until <= now { found.append(.tailOver) }
        }
        switch talk {
        case .idle:
            if !waitingReplies.isEmpty { found.append(.repliesWaitWithoutActive) }
        case .waiting(let reply, let next):
            if !replies[reply].stretches.contains(next) {
                found.append(.stretchOutsideReply(reply: reply, stretch: next))
            }
            if endOfInstant, chunkReady[next] { found.append(.readyStretchNotStarted(reply: reply)) }
        case .held(let reply, let next, let since):
            if !replies[reply].stretches.contains(next) {
                found.append(.stretchOutsideReply(reply: reply, stretch: next))
            }
            if !chunkReady[next] || since > now { found.append(.heldBadly(reply: reply)) }
            if endOfInstant, !guidance.isBusy { found.append(.heldWithoutGuidance(reply: reply)) }
        case .playing(let reply, let stretch, let start, let end):
            if !replies[reply].stretches.contains(stretch) {
                found.append(.stretchOutsideReply(reply: reply, stretch: stretch))
            } else {
                if end != start + stretchDurations[stretch] || start > now || end < now {
                    found.append(.stretchTimes(stretch: stretch))
                }
                if !chunkReady[stretch] { found.append(.stretchWithoutChunk(stretch: stretch)) }
            }
            if linePlays, fault != .heldIgnored { found.append(.twoVoices) }
        }
        guard endOfInstant else { return found }
        if case .pending = guidance, !talk.isPlaying { found.append(.pendingOnFreeBus) }
        if dadSpeaking != nil, let reply = talk.activeReply, ears.isOpen(at: now),
            fault != .bargeInWhilePlayingOnly || talk.isPlaying
        {
            found.append(.bargeInMissed(reply: reply))
        }
        let queue: PendingLines
        switch guidance {
        case .idle: queue = PendingLines()
        case .playing(_, let pending), .pending(let pending): queue = pending
        }
        for urgent in [true, false] {
            let ends = urgent ? queue.urgent : queue.ordinary
            var previous: Int?
            var next = ends.first
            var steps = 0
            while let line = next, steps <= lines.count {
                if queueLinks[line].previous != previous { found.append(.brokenQueue) }
                if lineProgress[line] != .pending { found.append(.queuedLineNotPending(line: line)) }
                if lines[line].urgent != urgent, fault != .urgentNotAhead || urgent {
                    found.append(.queuedInWrongClass(line: line))
                }
                if let expires = lines[line].expires, expires <= now, fault != .staleIgnored {
                    found.append(.pendingAfterExpiry(line: line))
                }
                (previous, next, steps) = (line, queueLinks[line].next, steps + 1)
            }
            if previous != ends.last || steps > lines.count { found.append(.brokenQueue) }
        }
        return found
    }

    /// The debug hook after each input: the call is in order and the state holds.
    @inline(__always)
    mutating func checkInput(_ input: ArbiterInput, at now: SimTime) {
        #if DEBUG
            var found = inconsistencies(at: now, endOfInstant: false)
            if !instant.admit(input, at: now) { found.append(.outOfOrder) }
            assert(found.isEmpty, "TalkArbiter after \(input) at \(now): \(found)")
        #endif
    }

    /// The debug hook at the end of an instant: settled, observed, consistent.
    @inline(__always)
    mutating func checkEndOfInstant(at now: SimTime) {
        #if DEBUG
            var found = inconsistencies(at: now, endOfInstant: true)
            if !instant.end(at: now) { found.append(.outOfOrder) }
            assert(found.isEmpty, "TalkArbiter at the end of instant \(now): \(found)")
        #endif
    }
}
