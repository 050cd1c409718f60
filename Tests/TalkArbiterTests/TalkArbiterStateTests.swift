import SimClock
import Testing

@testable import TalkArbiter

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

/// An input of the sweep's small event loop; its phase is its step in SPEC 4.2.
private typealias Event = ArbiterInput

/// A random drive on a 100 ms grid, so that things collide, run to the end
/// the way the runner runs it, with the checks read after every call.
private struct SweepRun {
    var arbiter: TalkArbiter
    var loop = SimLoop<Event>()
    var actions: [TalkArbiter.Action] = []
    /// Every inconsistency found, with the instant and the call.
    var found: [String] = []

    init(seed: UInt64, fault: TalkArbiter.Fault?) {
        var rng = SplitMix64(seed: seed)
        func grid(_ range: ClosedRange<Int64>) -> SimTime { ms(100 * rng.int(in: range)) }
        let settings = TalkArbiter.Settings(
            earsTail: ms(rng.pick([0, 1, 500])), waitLimit: ms(rng.pick([0, 1_000, 3_000])),
            afterCut: rng.pick(TalkArbiter.AfterCut.allCases))
        var lines: [TalkArbiter.Line] = []
        var requests: [SimTime] = []
        for _ in 0..<rng.int(in: 0...7) {
            let at = grid(0...60)
            let maneuver = rng.chance(60) ? Int(rng.int(in: 0...2)) : nil
            let expires = rng.chance(30) ? at + grid(1...30) : nil
            lines.append(.init(duration: grid(1...25), urgent: rng.chance(30), maneuver: maneuver, expires: expires))
            requests.append(at)
        }
        var replies: [TalkArbiter.Reply] = []
        var durations: [SimTime] = []
        var begins: [SimTime] = []
        var ready: [SimTime] = []
        for _ in 0..<rng.int(in: 0...3) {
            let count = Int(rng.int(in: 1...3))
            replies.append(.init(stretches: durations.count..<durations.count + count))
            begins.append(grid(0...60))
            for _ in 0..<count {
                durations.append(grid(1...40))
                ready.append(rng.chance(40) ? .zero : grid(0...30))
            }
        }
        arbiter = TalkArbiter(
            settings: settings, lines: lines, replies: replies, stretchDurations: durations, fault: fault)
        // File order: guidance, replies with their chunks, Dad.
        for (i, at) in requests.enumerated() {
            schedule(.lineRequested(i), at: at)
            if let expires = lines[i].expires { schedule(.lineExpired(i), at: expires) }
        }
        for (r, reply) in replies.enumerated() {
            schedule(.replyBegan(r), at: begins[r])
            for s in reply.stretches { schedule(.chunkReady(s), at: begins[r] + ready[s]) }
        }
        var t = SimTime.zero
        for u in 0..<Int(rng.int(in: 0...3)) {
            t = t + grid(1...30)
            schedule(.dadStarted(u), at: t)
            t = t + grid(1...20)
            schedule(.dadEnded(u), at: t)
        }
    }

    mutating func schedule(_ event: Event, at time: SimTime) {
        loop.schedule(event, at: time, phase: event.step)
    }

    mutating func run() {
        while let now = loop.advance() {
            while let event = loop.nextEvent() {
                arbiter.deliver(event, at: now, into: &actions)
                note(arbiter.inconsistencies(at: now, endOfInstant: false), "after \(event) at \(now)")
                perform()
            }
            arbiter.endInstant(at: now, into: &actions)
            note(arbiter.inconsistencies(at: now, endOfInstant: true), "at the end of \(now)")
            perform()
        }
    }

    mutating func note(_ inconsistencies: [TalkArbiter.Inconsistency], _ when: String) {
        if !inconsistencies.isEmpty { found.append("\(when): \(inconsistencies)") }
    }

    mutating func perform() {
        for action in actions {
            switch action {
            case .lineStarted(let line, let end): schedule(.lineEnded(line), at: end)
            case .stretchStarted(_, let stretch, let end, _): schedule(.stretchEnded(stretch), at: end)
            case .wake(let time): schedule(.earsTimer, at: time)
            case .lineWaiting, .lineEnded, .lineDropped, .replyQueued, .replyBegan, .stretchEnded, .stretchCut,
                .replyEnded,
                .replyAbandoned, .earsClosed, .earsOpened:
                break
            }
        }
        actions.removeAll(keepingCapacity: true)
    }
}

/// One arbiter with two lines, two replies of two stretches each, at rest.
private func arbiter(fault: TalkArbiter.Fault? = nil) -> TalkArbiter {
    TalkArbiter(
        settings: .init(), lines: [.init(duration: ms(1_000)), .init(duration: ms(1_000), urgent: true)],
        replies: [.init(stretches: 0..<2), .init(stretches: 2..<4)],
        stretchDurations: [ms(1_000), ms(1_000), ms(500), ms(500)],
        fault: fault)
}

/// What the checks find once `change` has put the arbiter into some state.
private func inconsistencies(
    at now: Int64 = 0, endOfInstant: Bool = false, fault: TalkArbiter.Fault? = nil,
    _ change: (inout TalkArbiter) -> Void
) -> [TalkArbiter.Inconsistency] {
    var a = arbiter(fault: fault)
    change(&a)
    return a.inconsistencies(at: ms(now), endOfInstant: endOfInstant)
}

@Suite struct TalkArbiterStateTests {
    @Test(arguments: [nil] + TalkArbiter.Fault.allCases)
    func theChecksHoldAfterEveryCallThroughASeededSweep(fault: TalkArbiter.Fault?) {
        for seed in UInt64(0)..<400 {
            var run = SweepRun(seed: seed, fault: fault)
            run.run()
            #expect(run.found.isEmpty, "seed \(seed): \(run.found.prefix(3))")
            if fault == nil { #expect(run.arbiter.isIdle, "seed \(seed) ended with work left") }
        }
    }

    @Test func anArbiterAtTimeZeroIsAtRestWithTheEarsOpen() {
        let a = arbiter()
        #expect(a.talk == .idle && a.guidance == .idle && a.ears == .open && a.isIdle)
        #expect(a.inconsistencies(at: .zero, endOfInstant: true).isEmpty)
    }

    @Test func theChecksNameStatesThatCannotHappen() {
        #expect(
            inconsistencies {
                $0.guidance = .playing(line: 0, queue: .init())
                $0.lineProgress[0] = .playing
            }
                == [.earsDisagreeWithGuidance])
        #expect(inconsistencies { $0.ears = .closed } == [.earsDisagreeWithGuidance])
        #expect(inconsistencies { $0.guidance = .pending(.init()) } == [.emptyPendingQueue])
        #expect(inconsistencies { $0.waitingReplies.append(1) } == [.repliesWaitWithoutActive])
        #expect(
            inconsistencies { $0.talk = .waiting(reply: 0, next: 2) } == [.stretchOutsideReply(reply: 0, stretch: 2)])
        #expect(inconsistencies { $0.talk = .held(reply: 0, next: 0, since: .zero) } == [.heldBadly(reply: 0)])
        let playing: (inout TalkArbiter) -> Void = {
            $0.chunkReady[0] = true
            $0.talk = .playing(reply: 0, stretch: 0, start: .zero, end: ms(1_000))
        }
        #expect(inconsistencies(at: 500, playing).isEmpty)
        #expect(inconsistencies(at: 1_001, playing) == [.stretchTimes(stretch: 0)])
        #expect(
            inconsistencies { $0.talk = .playing(reply: 0, stretch: 0, start: .zero, end: ms(1_000)) } == [
                .stretchWithoutChunk(stretch: 0)
            ])
        let twoVoices: (inout TalkArbiter) -> Void = {
            playing(&$0)
            $0.guidance = .playing(line: 0, queue: .init())
            $0.lineProgress[0] = .playing
            $0.ears = .closed
        }
        #expect(inconsistencies(twoVoices) == [.twoVoices])
        #expect(inconsistencies(fault: .heldIgnored, twoVoices).isEmpty, "the held-ignored mutant plays both by design")
    }

    @Test func theEndOfAnInstantAlsoChecksThatItSettledAndObserved() {
        let ready: (inout TalkArbiter) -> Void = {
            $0.chunkReady[0] = true
            $0.talk = .waiting(reply: 0, next: 0)
        }
        #expect(inconsistencies(ready).isEmpty, "between inputs, settle has not run yet")
        #expect(inconsistencies(endOfInstant: true, ready) == [.readyStretchNotStarted(reply: 0)])
        #expect(
            inconsistencies(endOfInstant: true) {
                $0.chunkReady[0] = true
                $0.talk = .held(reply: 0, next: 0, since: .zero)
            }
                == [.heldWithoutGuidance(reply: 0)])
        #expect(inconsistencies(at: 499, endOfInstant: true) { $0.ears = .tail(until: ms(500)) }.isEmpty)
        #expect(inconsistencies(at: 500, endOfInstant: true) { $0.ears = .tail(until: ms(500)) } == [.tailOver])
        let pending = TalkArbiter.PendingLines(ordinary: .init(first: 0, last: 0))
        #expect(
            inconsistencies(endOfInstant: true) {
                $0.guidance = .pending(pending)
                $0.lineProgress[0] = .pending
            } == [.pendingOnFreeBus])
        #expect(
            inconsistencies(endOfInstant: true) { $0.guidance = .pending(pending) } == [
                .pendingOnFreeBus, .queuedLineNotPending(line: 0),
            ])
        let urgentAsOrdinary = TalkArbiter.PendingLines(ordinary: .init(first: 1, last: 1))
        let misfiled: (inout TalkArbiter) -> Void = {
            $0.guidance = .playing(line: 0, queue: urgentAsOrdinary)
            $0.lineProgress = [.playing, .pending]
            $0.ears = .closed
        }
        #expect(inconsistencies(endOfInstant: true, misfiled) == [.queuedInWrongClass(line: 1)])
        #expect(inconsistencies(endOfInstant: true, fault: .urgentNotAhead, misfiled).isEmpty)
        let broken: (inout TalkArbiter) -> Void = {
            $0.guidance = .pending(.init(ordinary: .init(first: 0, last: 1)))
            $0.lineProgress = [.pending, .pending]
            $0.chunkReady[0] = true
            $0.talk = .playing(reply: 0, stretch: 0, start: .zero, end: ms(1_000))
        }
        #expect(inconsistencies(endOfInstant: true, broken) == [.brokenQueue], "line 0 does not link to line 1")
        let heard: (inout TalkArbiter) -> Void = {
            $0.dadSpeaking = 0
            $0.talk = .waiting(reply: 0, next: 0)
        }
        #expect(inconsistencies(endOfInstant: true, heard) == [.bargeInMissed(reply: 0)])
        #expect(inconsistencies(endOfInstant: true, fault: .bargeInWhilePlayingOnly, heard).isEmpty)
    }

    @Test func anInstantTakesItsInputsInSpecOrderThenEnds() {
        var order = TalkArbiter.InstantOrder()
        var accepted: [Bool] = []
        for input: ArbiterInput in [
            .lineEnded(0), .earsTimer, .lineRequested(0), .replyBegan(0), .chunkReady(0), .replyBegan(1),
        ] {
            accepted.append(order.admit(input, at: ms(100)))
        }
        #expect(accepted == Array(repeating: true, count: 6))
        let completionAfterArrival = order.admit(.stretchEnded(0), at: ms(100))
        let ended = order.end(at: ms(100))
        let sameTimeAgain = order.admit(.stretchEnded(0), at: ms(100))
        #expect(!completionAfterArrival && ended && sameTimeAgain, "a new instant at the same time may follow")
        let nextBeforeEnd = order.admit(.dadStarted(0), at: ms(200))
        let endOfAnother = order.end(at: ms(300))
        let backwards = order.admit(.lineEnded(0), at: ms(299))
        let endedAgain = order.end(at: ms(299))
        let emptyInstant = order.end(at: ms(400))
        #expect(!nextBeforeEnd && !endOfAnother && !backwards)
        #expect(endedAgain && emptyInstant, "an instant may have no inputs")
    }

    @Test func aRevisedLineLastsItsNewDurationOnlyIfItHasNotStarted() {
        var a = TalkArbiter(
            settings: .init(), lines: [.init(duration: ms(2_000)), .init(duration: ms(1_000))], replies: [],
            stretchDurations: [])
        var out: [TalkArbiter.Action] = []
        a.lineRevised(0, duration: ms(1_500), at: ms(100))
        a.lineRequested(0, at: ms(100), into: &out)
        a.endInstant(at: ms(100), into: &out)
        // Playing: a revision no longer applies to it.
        a.lineRevised(0, duration: ms(900), at: ms(200))
        a.lineEnded(0, at: ms(1_600), into: &out)
        a.endInstant(at: ms(1_600), into: &out)
        #expect(out.prefix(1) == [.lineStarted(line: 0, endsAt: ms(1_600))])
        #expect(out.contains(.lineEnded(line: 0)))
    }

    @Test func theEarsCloseWithALineThenWaitOutTheTailThenOpen() {
        var a = TalkArbiter(
            settings: .init(earsTail: ms(500)), lines: [.init(duration: ms(1_000))], replies: [], stretchDurations: [])
        var out: [TalkArbiter.Action] = []
        a.lineRequested(0, at: .zero, into: &out)
        a.endInstant(at: .zero, into: &out)
        #expect(a.ears == .closed && !a.earsOpen(at: .zero))
        a.lineEnded(0, at: ms(1_000), into: &out)
        a.endInstant(at: ms(1_000), into: &out)
        #expect(a.ears == .tail(until: ms(1_500)))
        a.endInstant(at: ms(1_499), into: &out)
        #expect(!a.earsOpen(at: ms(1_499)) && a.earsOpen(at: ms(1_500)))
        a.earsTimer(at: ms(1_500), into: &out)
        #expect(a.ears == .open)
        a.endInstant(at: ms(1_500), into: &out)
        #expect(
            out == [
                .lineStarted(line: 0, endsAt: ms(1_000)), .earsClosed, .lineEnded(line: 0), .wake(at: ms(1_500)),
                .earsOpened,
            ])
    }

    @Test(arguments: [
        (Int64(0), nil as TalkArbiter.Fault?, Int64?.none), (1, nil, 1_001), (1, .earsEarly, nil),
        (500, .earsEarly, 1_499),
    ])
    func aLineEndsIntoATailOrStraightIntoOpenEars(earsTail: Int64, fault: TalkArbiter.Fault?, until: Int64?) {
        var a = TalkArbiter(
            settings: .init(earsTail: ms(earsTail)), lines: [.init(duration: ms(1_000))], replies: [],
            stretchDurations: [], fault: fault)
        var out: [TalkArbiter.Action] = []
        a.lineRequested(0, at: .zero, into: &out)
        a.endInstant(at: .zero, into: &out)
        a.lineEnded(0, at: ms(1_000), into: &out)
        #expect(a.ears == (until.map { .tail(until: ms($0)) } ?? .open))
        let wakes = out.compactMap { if case .wake(let t) = $0 { return t.ms } else { return nil } }
        #expect(wakes == (until.map { [$0] } ?? []))
    }

    @Test func aReadyStretchThatGuidanceHoldsBackIsHeldSinceThatInstant() {
        var a = TalkArbiter(
            settings: .init(), lines: [.init(duration: ms(1_000))], replies: [.init(stretches: 0..<1)],
            stretchDurations: [ms(800)])
        var out: [TalkArbiter.Action] = []
        a.lineRequested(0, at: .zero, into: &out)
        a.replyBegan(0, at: .zero, into: &out)
        a.endInstant(at: .zero, into: &out)
        #expect(a.talk == .waiting(reply: 0, next: 0), "its chunk is not ready: waiting, not held")
        a.chunkReady(0, at: ms(300), into: &out)
        #expect(a.talk == .waiting(reply: 0, next: 0), "held only once the instant settles")
        a.endInstant(at: ms(300), into: &out)
        #expect(a.talk == .held(reply: 0, next: 0, since: ms(300)))
        a.endInstant(at: ms(600), into: &out)
        #expect(a.talk == .held(reply: 0, next: 0, since: ms(300)), "held since the first instant, not the last")
        out = []
        a.lineEnded(0, at: ms(1_000), into: &out)
        a.endInstant(at: ms(1_000), into: &out)
        #expect(out.contains(.stretchStarted(reply: 0, stretch: 0, endsAt: ms(1_800), held: ms(700))))
        #expect(a.talk == .playing(reply: 0, stretch: 0, start: ms(1_000), end: ms(1_800)))
    }

    @Test func aLineRequestedTheMillisecondAStretchEndsFindsTheBusFree() {
        var a = TalkArbiter(
            settings: .init(), lines: [.init(duration: ms(500))], replies: [.init(stretches: 0..<2)],
            stretchDurations: [ms(1_000), ms(1_000)])
        var out: [TalkArbiter.Action] = []
        a.replyBegan(0, at: .zero, into: &out)
        a.chunkReady(0, at: .zero, into: &out)
        a.chunkReady(1, at: .zero, into: &out)
        a.endInstant(at: .zero, into: &out)
        out = []
        a.stretchEnded(0, at: ms(1_000), into: &out)
        a.lineRequested(0, at: ms(1_000), into: &out)
        #expect(a.guidance == .pending(a.pendingForTest(0)), "it simply starts in the settle step")
        a.endInstant(at: ms(1_000), into: &out)
        #expect(out == [.stretchEnded(reply: 0, stretch: 0), .lineStarted(line: 0, endsAt: ms(1_500)), .earsClosed])
        #expect(a.talk == .held(reply: 0, next: 1, since: ms(1_000)), "guidance wins the tie with Pippa's next stretch")
    }

    @Test func aLineWaitingForAStretchIsPendingWhileTheStretchPlays() {
        var a = TalkArbiter(
            settings: .init(), lines: [.init(duration: ms(500))], replies: [.init(stretches: 0..<1)],
            stretchDurations: [ms(4_000)])
        var out: [TalkArbiter.Action] = []
        a.replyBegan(0, at: .zero, into: &out)
        a.chunkReady(0, at: .zero, into: &out)
        a.endInstant(at: .zero, into: &out)
        a.lineRequested(0, at: ms(1_000), into: &out)
        a.endInstant(at: ms(1_000), into: &out)
        #expect(a.guidance == .pending(a.pendingForTest(0)))
        #expect(a.talk == .playing(reply: 0, stretch: 0, start: .zero, end: ms(4_000)))
        #expect(a.inconsistencies(at: ms(1_000), endOfInstant: true).isEmpty)
    }

    @Test func linesRequestedInOneInstantStartUrgentFirstThenInTheOrderTheyCame() {
        let urgent: Set<Int> = [2, 4, 7]
        let lines = (0..<10).map { TalkArbiter.Line(duration: ms(100), urgent: urgent.contains($0)) }
        var a = TalkArbiter(settings: .init(), lines: lines, replies: [], stretchDurations: [])
        var out: [TalkArbiter.Action] = []
        for line in lines.indices { a.lineRequested(line, at: .zero, into: &out) }
        a.endInstant(at: .zero, into: &out)
        for t in stride(from: Int64(100), through: 1_000, by: 100) {
            if case .playing(let line, _) = a.guidance { a.lineEnded(line, at: ms(t), into: &out) }
            a.endInstant(at: ms(t), into: &out)
        }
        let started = out.compactMap { if case .lineStarted(let line, _) = $0 { return line } else { return nil } }
        #expect(started == [2, 4, 7, 0, 1, 3, 5, 6, 8, 9])
        #expect(a.isIdle)
    }

    @Test func aLineLeavesTheMiddleOfTheQueueWhenSupersededOrStale() {
        let lines: [TalkArbiter.Line] = [
            .init(duration: ms(1_000)), .init(duration: ms(100), maneuver: 1), .init(duration: ms(100), maneuver: 2),
            .init(duration: ms(100), maneuver: 3, expires: ms(500)), .init(duration: ms(100), maneuver: 4),
            .init(duration: ms(100), maneuver: 2),
        ]
        var a = TalkArbiter(settings: .init(), lines: lines, replies: [], stretchDurations: [])
        var out: [TalkArbiter.Action] = []
        for line in 0..<5 { a.lineRequested(line, at: .zero, into: &out) }
        a.endInstant(at: .zero, into: &out)
        a.lineRequested(5, at: ms(200), into: &out)
        a.endInstant(at: ms(200), into: &out)
        a.lineExpired(3, at: ms(500), into: &out)
        a.endInstant(at: ms(500), into: &out)
        #expect(a.inconsistencies(at: ms(500), endOfInstant: true).isEmpty)
        for t in stride(from: Int64(1_000), through: 1_300, by: 100) {
            if case .playing(let line, _) = a.guidance { a.lineEnded(line, at: ms(t), into: &out) }
            a.endInstant(at: ms(t), into: &out)
        }
        let started = out.compactMap { if case .lineStarted(let line, _) = $0 { return line } else { return nil } }
        #expect(started == [0, 1, 4, 5])
        #expect(
            out.contains(.lineDropped(line: 2, rule: .superseded)) && out.contains(.lineDropped(line: 3, rule: .stale)))
        #expect(a.isIdle)
    }

    @Test func everyMutantHasTheSameNameInCodeAndOnTheCommandLine() {
        for fault in TalkArbiter.Fault.allCases {
            #expect(fault.rawValue == kebabCase("\(fault)"))
        }
        #expect(TalkArbiter.Fault.allCases.map(\.rule).sorted() == Rule.allCases, "one mutant per rule")
    }
}

/// `replyQueueLIFO` as `reply-queue-lifo`: a dash where a capital follows a small letter.
private func kebabCase(_ name: String) -> String {
    var out = ""
    var previousIsLower = false
    for c in name {
        if c.isUppercase, previousIsLower { out.append("-") }
        out += c.lowercased()
        previousIsLower = c.isLowercase
    }
    return out
}

extension TalkArbiter {
    /// Pending lines holding just `line`, as the state would.
    fileprivate func pendingForTest(_ line: Int) -> PendingLines {
        let only = LineQueue(first: line, last: line)
        return lines[line].urgent ? PendingLines(urgent: only) : PendingLines(ordinary: only)
    }
}
