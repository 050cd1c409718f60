import SimClock
import TalkArbiter

/// drivesim's rule checks: properties of single rules of SPEC 4.1 that the
/// invariants of SPEC 7 do not reach, read from the timeline alone. Like the
/// invariants they hold for every correct run; the fuzzer's mutants show
/// that each of them catches its rule being broken.
extension Invariants {
    /// The rules with a check of their own (the others are covered by the invariants).
    static let ruleChecks: [Rule] = [.guidanceQueue, .superseded, .stale, .held, .afterCut, .bargeIn, .replyQueue]

    /// Every rule check of one run.
    /// - Complexity: O(n log n) in the events.
    static func ruleChecks(_ timeline: Timeline, earsOpen: IntervalSet) -> [Violation] {
        var found: [Violation] = []
        found += lineChecks(timeline)
        found += talkChecks(timeline, earsOpen: earsOpen)
        return found
    }

    /// `guidance-queue`: a line starts only when no pending line comes before it
    /// (urgent first, then first come first served). `superseded`: a pending
    /// line is dropped the instant a newer line for its maneuver is requested.
    /// `stale`: no line is pending after its `expires` instant.
    /// - Complexity: O(n) in the events: the pending lines are two queues
    ///   (one per class) whose heads skip lines already gone, and a
    ///   maneuver's newest request is looked up, never searched for.
    private static func lineChecks(_ timeline: Timeline) -> [Violation] {
        let lines = timeline.roster.lines
        var found: [Violation] = []
        // Pending lines by class, in the order they were requested; a line
        // stays in its queue after it leaves, until it reaches the head.
        var queues: (urgent: [Int], ordinary: [Int]) = ([], [])
        var heads: (urgent: Int, ordinary: Int) = (0, 0)
        var pending = [Bool](repeating: false, count: lines.count)
        // When each line was requested (as the request's place in the
        // timeline), and each maneuver's newest request: a pending line was
        // superseded when its maneuver was requested again after it.
        var requestedAt = [Int](repeating: -1, count: lines.count)
        var newest: [String: (event: Int, t: SimTime)] = [:]
        func fail(_ rule: Rule, _ t: SimTime, _ message: String) {
            found.append(Violation(check: .rule(rule), t: t, message: message))
        }
        func head(urgent: Bool) -> Int? {
            if urgent {
                while heads.urgent < queues.urgent.count, !pending[queues.urgent[heads.urgent]] { heads.urgent += 1 }
                return heads.urgent < queues.urgent.count ? queues.urgent[heads.urgent] : nil
            }
            while heads.ordinary < queues.ordinary.count, !pending[queues.ordinary[heads.ordinary]] {
                heads.ordinary += 1
            }
            return heads.ordinary < queues.ordinary.count ? queues.ordinary[heads.ordinary] : nil
        }
        for (n, event) in timeline.events.enumerated() {
            let t = event.t
            switch event.what {
            case .guidanceRequested(let l):
                let line = l.int
                if let maneuver = lines[line].maneuver { newest[maneuver] = (n, t) }
                guard !pending[line] else { continue }
                pending[line] = true
                requestedAt[line] = n
                if lines[line].urgent { queues.urgent.append(line) } else { queues.ordinary.append(line) }
            case .guidanceStarted(let l), .guidanceDropped(let l, _):
                let line = l.int
                guard pending[line] else { continue }
                let id = lines[line].id
                let urgent = lines[line].urgent
                // Ahead of it: an earlier line of its class, or any urgent line if it is ordinary.
                let first = head(urgent: urgent)
                let ahead = first != line ? first : urgent ? nil : head(urgent: true)
                pending[line] = false
                if let maneuver = lines[line].maneuver, let due = newest[maneuver], due.event > requestedAt[line],
                    event.kind == .guidanceStarted || event.rule != .superseded || t != due.t
                {
                    fail(.superseded, t, "line \(id) was still pending after a newer line for its maneuver at \(due.t)")
                }
                if let expires = lines[line].expires, event.kind == .guidanceStarted ? t >= expires : t > expires {
                    fail(.stale, t, "line \(id) was still pending after it expired at \(expires)")
                }
                guard event.kind == .guidanceStarted else { continue }
                if let ahead {
                    fail(.guidanceQueue, t, "line \(id) started while \(lines[ahead].id) was ahead of it in the queue")
                }
            default: continue
            }
        }
        return found
    }

    /// `reply-queue`: one reply active at a time, taken in the order they
    /// began. `barge-in`: no reply stays active while Dad is heard.
    /// `after-cut`: what follows a cut by guidance is what `afterCut` says
    /// (under `skip`, a cut last stretch ends its reply in that instant).
    /// `held`: a stretch starts the instant it could (its reply active, its
    /// chunk ready, its reply's previous play over), or carries `heldMs`,
    /// exactly how long after that it started (SPEC 4.1: it was held).
    /// - Complexity: O(n log n) in the events (the final sort of what it
    ///   found; the walk and the interval arithmetic are linear).
    private static func talkChecks(_ timeline: Timeline, earsOpen: IntervalSet) -> [Violation] {
        let roster = timeline.roster
        var found: [Violation] = []
        func fail(_ rule: Rule, _ t: SimTime, _ message: String) {
            found.append(Violation(check: .rule(rule), t: t, message: message))
        }
        var arrivals: [Int] = []
        var began = 0
        var arrived = [Bool](repeating: false, count: roster.replyIDs.count)
        var active: Int?
        var activeSince = SimTime.zero
        var activeIntervals = IntervalSet()
        var speech = IntervalSet()
        var dadSince: SimTime?
        // When each reply arrived (its `at`: queued or began), became active, and last stopped playing.
        var arrivedAt = [SimTime?](repeating: nil, count: roster.replyIDs.count)
        var activeAt = [SimTime?](repeating: nil, count: roster.replyIDs.count)
        var playedUntil = [SimTime?](repeating: nil, count: roster.replyIDs.count)
        // After a cut by guidance: what the reply must do next.
        var afterCut = [(then: TalkArbiter.AfterCut, stretch: Int, at: SimTime)?](
            repeating: nil, count: roster.replyIDs.count)
        func close(_ reply: Int, at t: SimTime) {
            if active == reply {
                activeIntervals.insert(SimInterval(activeSince, max(activeSince, t)))
                active = nil
            }
        }
        for event in timeline.events {
            let reply = event.reply?.int ?? -1
            let t = event.t
            switch event.what {
            case .replyQueued:
                arrivals.append(reply)
                arrived[reply] = true
                arrivedAt[reply] = t
            case .replyBegan:
                activeAt[reply] = t
                if arrivedAt[reply] == nil { arrivedAt[reply] = t }
                if !arrived[reply] {
                    arrivals.append(reply)
                    arrived[reply] = true
                }
                if let current = active {
                    fail(
                        .replyQueue, t,
                        "reply \(roster.replyIDs[reply]) began while \(roster.replyIDs[current]) was active")
                }
                if began < arrivals.count, arrivals[began] != reply {
                    fail(
                        .replyQueue, t,
                        "reply \(roster.replyIDs[reply]) began before \(roster.replyIDs[arrivals[began]])")
                }
                began += 1
                active = reply
                activeSince = t
            case .replyEnded, .replyAbandoned:
                if let expected = afterCut[reply] {
                    afterCut[reply] = nil
                    let ok: Bool
                    switch expected.then {
                    case .drop: ok = event.kind == .replyAbandoned && event.rule == .afterCut && t == expected.at
                    case .skip:
                        // A cut last stretch ends the reply at once (SPEC 4.2 step 1); before it, only a barge-in abandons it.
                        ok =
                            expected.stretch + 1 == roster.replyStretches[reply].upperBound
                            ? event.kind == .replyEnded && t == expected.at
                            : event.kind == .replyAbandoned && event.rule == .bargeIn
                    case .repeat: ok = event.kind == .replyAbandoned && event.rule != .afterCut
                    }
                    if !ok {
                        fail(
                            .afterCut, t,
                            "reply \(roster.replyIDs[reply]) did not \(expected.then.rawValue) its cut stretch")
                    }
                }
                close(reply, at: t)
            case .stretchStarted(_, let stretch, let heldMs):
                let couldStart =
                    [
                        activeAt[reply], arrivedAt[reply].map { $0 + roster.stretches[stretch.int].ready },
                        playedUntil[reply],
                    ]
                    .compactMap { $0 }.max() ?? t
                let id = roster.stretches[stretch.int].id
                let waited = (t - couldStart).ms
                if waited < 0 {
                    fail(
                        .held, t,
                        "stretch \(id) started \(-waited) ms before it could (its reply active, its chunk ready, the previous stretch over)"
                    )
                } else if heldMs != (waited > 0 ? waited : nil) {
                    let should =
                        waited > 0
                        ? "heldMs \(waited) (it could start at \(couldStart))"
                        : "no heldMs (it started the instant it could)"
                    fail(
                        .held, t,
                        "stretch \(id) started with \(heldMs.map { "heldMs \($0)" } ?? "no heldMs"); it should carry \(should)"
                    )
                }
                if let expected = afterCut[reply] {
                    afterCut[reply] = nil
                    let next = expected.then == .repeat ? expected.stretch : expected.stretch + 1
                    if expected.then == .drop || stretch.int != next {
                        fail(
                            .afterCut, t,
                            "reply \(roster.replyIDs[reply]) did not \(expected.then.rawValue) its cut stretch")
                    }
                }
            case .stretchCut(_, let stretch, _, _, _, let then):
                playedUntil[reply] = t
                if let then { afterCut[reply] = (then, stretch.int, t) }
            case .stretchEnded:
                playedUntil[reply] = t
            case .dadStarted:
                dadSince = t
            case .dadEnded:
                if let since = dadSince { speech.insert(SimInterval(since, max(since, t))) }
                dadSince = nil
            default: continue
            }
        }
        if active != nil { activeIntervals.insert(SimInterval(activeSince, .endOfTime)) }
        for (reply, expected) in afterCut.enumerated() where expected?.then == .drop {
            fail(.afterCut, expected!.at, "reply \(roster.replyIDs[reply]) was not abandoned after its cut")
        }
        for overlap in speech.intersection(earsOpen).intersection(activeIntervals).intervals {
            fail(.bargeIn, overlap.start, "a reply stayed active while Dad was heard")
        }
        return found.sorted { $0.t < $1.t }
    }
}

/// drivesim's decision checks: a rule applied in an instant where SPEC 4.1
/// and 4.2 allowed it, judged by the state at that instant as the timeline
/// records it, whatever happened later (a barge-in that shortens a wait
/// hides a wrong `short-wait` from invariant 4).
extension Invariants {
    /// The rules whose decisions are checked at the instant they were made.
    static let decisionChecks: [Rule] = [.shortWait, .urgentCut, .longCut, .bargeIn]

    /// `short-wait`: an ordinary line waited for the stretch playing at the
    /// request, which had at most `waitLimit` left (its start plus its
    /// duration, minus now). `urgent-cut`: an urgent line cut the stretch
    /// playing. `long-cut`: an ordinary line cut the stretch
    /// playing, which had more than `waitLimit` left. `barge-in`: Dad, never a
    /// guidance line, cuts; never cuts a
    /// stretch in the millisecond it started (settle step c starts a stretch
    /// only when step b found nothing to do, and starting it cannot make Dad
    /// heard or a reply active, so b has nothing to do after it either), and
    /// cuts or abandons only while Dad is heard: he is speaking, no line
    /// plays and the ears' tail after the last line is over (settle step b),
    /// as the instant stands at that point (a line that starts later in the
    /// same instant closes the ears after the barge-in: SPEC 4.2).
    /// - Complexity: O(n) in the events.
    static func decisionChecks(_ timeline: Timeline, settings: Scenario.Settings) -> [Violation] {
        let roster = timeline.roster
        var found: [Violation] = []
        func fail(_ rule: Rule, _ t: SimTime, _ message: String) {
            found.append(Violation(check: .decision(rule), t: t, message: message))
        }
        // The stretch playing now, and when it started.
        var playing: (stretch: Int, start: SimTime)?
        // Lines playing, when the last one ended, and Dad's utterances under way.
        var linesPlaying = 0
        var lastLineEnded: SimTime?
        var speaking = 0
        /// Whether Dad is heard at this point of the instant `t` (settle step b's test).
        func dadHeard(at t: SimTime) -> Bool {
            speaking > 0 && linesPlaying == 0 && lastLineEnded.map { t >= $0 + settings.earsTail } ?? true
        }
        /// What was left of `stretch` at `t`, if it was the one playing.
        func remaining(_ stretch: Int, at t: SimTime) -> Int64? {
            guard let playing, playing.stretch == stretch else { return nil }
            return (playing.start + roster.stretches[stretch].duration - t).ms
        }
        for event in timeline.events {
            let t = event.t
            switch event.what {
            case .stretchStarted(_, let k, _):
                playing = (k.int, t)
            case .stretchEnded(_, let k):
                if playing?.stretch == k.int { playing = nil }
            case .guidanceStarted:
                linesPlaying += 1
            case .guidanceEnded:
                linesPlaying -= 1
                lastLineEnded = t
            case .dadStarted:
                speaking += 1
            case .dadEnded:
                speaking -= 1
            case .replyAbandoned(let r, .bargeIn):
                if !dadHeard(at: t) {
                    fail(
                        .bargeIn, t, "reply \(roster.replyIDs[r.int]) was abandoned by barge-in while Dad was not heard"
                    )
                }
            case .guidanceWaiting(let l, .shortWait, let k):
                let id = roster.lines[l.int].id
                guard let k, let left = remaining(k.int, at: t) else {
                    fail(.shortWait, t, "line \(id) waited by short-wait for a stretch that was not playing")
                    continue
                }
                if roster.lines[l.int].urgent {
                    fail(.shortWait, t, "urgent line \(id) waited by short-wait")
                } else if left > settings.waitLimit.ms {
                    fail(.shortWait, t, "line \(id) waited by short-wait with \(left) ms left, over waitLimit")
                }
            case .stretchCut(_, let k, let rule, let by, _, _):
                defer { if playing?.stretch == k.int { playing = nil } }
                let id = roster.stretches[k.int].id
                switch rule {
                case .longCut:
                    guard case .line(let l) = by, !roster.lines[l].urgent, let left = remaining(k.int, at: t) else {
                        fail(
                            .longCut, t,
                            "stretch \(id) was cut by long-cut, but not by an ordinary line while it played")
                        continue
                    }
                    if left <= settings.waitLimit.ms {
                        fail(.longCut, t, "stretch \(id) was cut by long-cut with only \(left) ms left")
                    }
                case .urgentCut:
                    guard case .line(let l) = by, roster.lines[l].urgent, remaining(k.int, at: t) != nil else {
                        fail(
                            .urgentCut, t,
                            "stretch \(id) was cut by urgent-cut, but not by an urgent line while it played")
                        continue
                    }
                case .bargeIn:
                    if case .line = by {
                        fail(.bargeIn, t, "stretch \(id) was cut by barge-in, but by a guidance line, not by Dad")
                    } else if let playing, playing.stretch == k.int, playing.start == t {
                        fail(.bargeIn, t, "stretch \(id) was cut by barge-in in the millisecond it started")
                    } else if !dadHeard(at: t) {
                        fail(
                            .bargeIn, t,
                            "stretch \(id) was cut by barge-in while Dad was not heard (\(linesPlaying > 0 ? "a line played" : speaking == 0 ? "he was not speaking" : "the ears' tail was not over"))"
                        )
                    }
                default: continue
                }
            default: continue
            }
        }
        return found
    }
}
