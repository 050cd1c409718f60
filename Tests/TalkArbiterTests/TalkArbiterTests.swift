import SimClock
import Testing

@testable import TalkArbiter

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

/// A small driver for the arbiter as a value: feeds inputs one instant at a
/// time, like the runner does, and keeps every action it returned.
private struct Bench {
    var arbiter: TalkArbiter
    var actions: [TalkArbiter.Action] = []

    init(
        _ settings: TalkArbiter.Settings = .init(), lines: [TalkArbiter.Line] = [], stretches: [[Int64]] = [],
        dadReplies: [[Int64]] = []
    ) {
        var durations: [SimTime] = []
        var replies: [TalkArbiter.Reply] = []
        for reply in stretches + dadReplies {
            replies.append(.init(stretches: durations.count..<durations.count + reply.count))
            durations += reply.map(ms)
        }
        arbiter = TalkArbiter(settings: settings, lines: lines, replies: replies, stretchDurations: durations)
    }

    /// Runs one instant: `inputs` in order, then its end; returns its actions.
    @discardableResult
    mutating func instant(
        _ t: Int64, _ inputs: (inout TalkArbiter, SimTime, inout [TalkArbiter.Action]) -> Void = { _, _, _ in }
    )
        -> [TalkArbiter.Action]
    {
        var out: [TalkArbiter.Action] = []
        inputs(&arbiter, ms(t), &out)
        arbiter.endInstant(at: ms(t), into: &out)
        actions += out
        return out
    }

    /// Reply 0 begins at 0 with every chunk ready; its first stretch starts.
    mutating func pippaSpeaks(chunks: Range<Int>) {
        instant(0) { a, t, out in
            a.replyBegan(0, at: t, into: &out)
            for c in chunks { a.chunkReady(c, at: t, into: &out) }
        }
    }
}

@Suite struct TalkArbiterTests {
    @Test func aLineOnAnIdleBusStartsAndClosesTheEars() {
        var bench = Bench(lines: [.init(duration: ms(1800))])
        let actions = bench.instant(2000) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        #expect(actions == [.lineStarted(line: 0, endsAt: ms(3800)), .earsClosed])
        #expect(actions.last?.rule == .earsClosed)
    }

    @Test(arguments: [(Int64(2_999), Rule.shortWait), (3_000, .shortWait), (3_001, .longCut)])
    func ordinaryLineWaitsOnlyWhenTheStretchEndsWithinTheLimit(remaining: Int64, rule: Rule) {
        var bench = Bench(lines: [.init(duration: ms(1000))], stretches: [[10_000]])
        bench.pippaSpeaks(chunks: 0..<1)
        let t = 10_000 - remaining
        let actions = bench.instant(t) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        if rule == .shortWait {
            #expect(actions == [.lineWaiting(line: 0, rule: .shortWait, stretch: 0)])
        } else {
            #expect(
                actions.prefix(2) == [
                    .stretchCut(reply: 0, stretch: 0, rule: .longCut, by: .line(0), played: ms(t), then: .repeat),
                    .lineStarted(line: 0, endsAt: ms(t + 1000)),
                ])
        }
    }

    @Test func urgentLineCutsEvenAShortRemainder() {
        var bench = Bench(lines: [.init(duration: ms(1000), urgent: true)], stretches: [[4_000]])
        bench.pippaSpeaks(chunks: 0..<1)
        let actions = bench.instant(3_999) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        #expect(
            actions.first
                == .stretchCut(reply: 0, stretch: 0, rule: .urgentCut, by: .line(0), played: ms(3_999), then: .repeat))
        #expect(actions.contains(.lineStarted(line: 0, endsAt: ms(4_999))))
    }

    @Test func aWaitingLineStartsTheInstantTheStretchEndsAndHoldsTheNext() {
        var bench = Bench(lines: [.init(duration: ms(1000))], stretches: [[4_000, 2_000]])
        bench.pippaSpeaks(chunks: 0..<2)
        bench.instant(2_000) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        let atEnd = bench.instant(4_000) { a, t, out in a.stretchEnded(0, at: t, into: &out) }
        #expect(atEnd == [.stretchEnded(reply: 0, stretch: 0), .lineStarted(line: 0, endsAt: ms(5_000)), .earsClosed])
        let after = bench.instant(5_000) { a, t, out in a.lineEnded(0, at: t, into: &out) }
        #expect(
            after == [
                .lineEnded(line: 0), .wake(at: ms(5_500)),
                .stretchStarted(reply: 0, stretch: 1, endsAt: ms(7_000), held: ms(1_000)),
            ])
        #expect(bench.instant(5_500) { a, t, out in a.earsTimer(at: t, into: &out) } == [.earsOpened])
    }

    @Test func urgentLinesGoAheadOfPendingOrdinaryOnes() {
        let lines: [TalkArbiter.Line] = [
            .init(duration: ms(1000)), .init(duration: ms(1000)), .init(duration: ms(1000), urgent: true),
        ]
        var bench = Bench(lines: lines)
        bench.instant(0) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        let queued = bench.instant(100) { a, t, out in
            a.lineRequested(1, at: t, into: &out)
            a.lineRequested(2, at: t, into: &out)
        }
        #expect(
            queued == [
                .lineWaiting(line: 1, rule: .guidanceQueue, stretch: nil),
                .lineWaiting(line: 2, rule: .guidanceQueue, stretch: nil),
            ])
        let next = bench.instant(1_000) { a, t, out in a.lineEnded(0, at: t, into: &out) }
        #expect(next.contains(.lineStarted(line: 2, endsAt: ms(2_000))))
    }

    @Test func aNewerLineSupersedesAPendingOneButNeverAPlayingOne() {
        let lines: [TalkArbiter.Line] = [
            .init(duration: ms(1000), maneuver: 7), .init(duration: ms(1000), maneuver: 7),
            .init(duration: ms(1000), maneuver: 7),
        ]
        var bench = Bench(lines: lines)
        bench.instant(0) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        let second = bench.instant(100) { a, t, out in a.lineRequested(1, at: t, into: &out) }
        #expect(second == [.lineWaiting(line: 1, rule: .guidanceQueue, stretch: nil)])
        let third = bench.instant(200) { a, t, out in a.lineRequested(2, at: t, into: &out) }
        #expect(
            third == [
                .lineDropped(line: 1, rule: .superseded), .lineWaiting(line: 2, rule: .guidanceQueue, stretch: nil),
            ])
    }

    @Test func aPendingLineIsStaleAtItsExpiryEvenIfItCouldStartThen() {
        let lines: [TalkArbiter.Line] = [.init(duration: ms(1000)), .init(duration: ms(1000), expires: ms(1_000))]
        var bench = Bench(lines: lines)
        bench.instant(0) { a, t, out in
            a.lineRequested(0, at: t, into: &out)
            a.lineRequested(1, at: t, into: &out)
        }
        let actions = bench.instant(1_000) { a, t, out in
            a.lineEnded(0, at: t, into: &out)
            a.lineExpired(1, at: t, into: &out)
        }
        #expect(actions == [.lineEnded(line: 0), .wake(at: ms(1_500)), .lineDropped(line: 1, rule: .stale)])
    }

    @Test(arguments: [(Int64(499), false), (500, true), (501, true)])
    func dadBargesInOnlyOnceTheEarsReopen(afterEnd: Int64, bargesIn: Bool) {
        var bench = Bench(lines: [.init(duration: ms(1000))], stretches: [[5_000]])
        bench.instant(0) { a, t, out in
            a.lineRequested(0, at: t, into: &out)
            a.replyBegan(0, at: t, into: &out)
            a.chunkReady(0, at: t, into: &out)
        }
        bench.instant(1_000) { a, t, out in a.lineEnded(0, at: t, into: &out) }
        let actions = bench.instant(1_000 + afterEnd) { a, t, out in
            if afterEnd == 500 { a.earsTimer(at: t, into: &out) }
            a.dadStarted(0, at: t, into: &out)
        }
        #expect(actions.contains(.replyAbandoned(reply: 0, rule: .bargeIn)) == bargesIn)
    }

    @Test(arguments: TalkArbiter.AfterCut.allCases)
    func afterCutDecidesWhatFollowsACut(afterCut: TalkArbiter.AfterCut) {
        var bench = Bench(
            .init(afterCut: afterCut), lines: [.init(duration: ms(1000), urgent: true)], stretches: [[4_000, 2_000]])
        bench.pippaSpeaks(chunks: 0..<2)
        let cut = bench.instant(1_000) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        let resumed = bench.instant(2_000) { a, t, out in a.lineEnded(0, at: t, into: &out) }
        switch afterCut {
        case .repeat:
            #expect(resumed.contains(.stretchStarted(reply: 0, stretch: 0, endsAt: ms(6_000), held: ms(1_000))))
        case .skip: #expect(resumed.contains(.stretchStarted(reply: 0, stretch: 1, endsAt: ms(4_000), held: ms(1_000))))
        case .drop:
            #expect(cut.contains(.replyAbandoned(reply: 0, rule: .afterCut)))
            #expect(!resumed.contains { if case .stretchStarted = $0 { return true } else { return false } })
        }
    }

    @Test func aReplyThatBeginsWhileAnotherIsActiveQueuesAndFollowsAtOnce() {
        var bench = Bench(stretches: [[1_000], [1_000]])
        bench.pippaSpeaks(chunks: 0..<1)
        let queued = bench.instant(500) { a, t, out in
            a.replyBegan(1, at: t, into: &out)
            a.chunkReady(1, at: t, into: &out)
        }
        #expect(queued == [.replyQueued(reply: 1)])
        let handover = bench.instant(1_000) { a, t, out in a.stretchEnded(0, at: t, into: &out) }
        #expect(
            handover == [
                .stretchEnded(reply: 0, stretch: 0), .replyEnded(reply: 0), .replyBegan(reply: 1),
                .stretchStarted(reply: 1, stretch: 1, endsAt: ms(2_000), held: nil),
            ])
    }

    @Test func theEarsAreRecordedOnlyWhenTheirStateChangesOverAnInstant() {
        var bench = Bench(.init(earsTail: .zero), lines: [.init(duration: ms(1000)), .init(duration: ms(1000))])
        bench.instant(0) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        let handover = bench.instant(1_000) { a, t, out in
            a.lineEnded(0, at: t, into: &out)
            a.lineRequested(1, at: t, into: &out)
        }
        #expect(handover == [.lineEnded(line: 0), .lineStarted(line: 1, endsAt: ms(2_000))])
    }

    @Test func theEndOfACutStretchIsIgnored() {
        var bench = Bench(lines: [.init(duration: ms(1000), urgent: true)], stretches: [[4_000]])
        bench.pippaSpeaks(chunks: 0..<1)
        bench.instant(1_000) { a, t, out in a.lineRequested(0, at: t, into: &out) }
        let stale = bench.instant(4_000) { a, t, out in a.stretchEnded(0, at: t, into: &out) }
        #expect(stale.isEmpty)
        #expect(!bench.arbiter.isIdle)
    }
}

@Suite struct RuleTests {
    @Test func everyRuleKnowsItsPlaceInTheSpecTable() {
        #expect(Rule.allCases.map(\.index) == Array(0..<11))
        #expect(Rule.allCases.map(\.rawValue).first == "ears-closed")
    }

    @Test func eachActionsRulesMapToTheirRuleAndBackAndNoOtherRuleFits() {
        func check<R: TalkArbiter.ActionRule>(_: R.Type, _ rules: [Rule]) {
            #expect(R.allCases.map(\.rule) == rules)  // the SPEC's order
            for rule in Rule.allCases {
                #expect(R(rule)?.rule == (rules.contains(rule) ? rule : nil), "\(R.self) \(rule)")
            }
        }
        check(TalkArbiter.WaitRule.self, [.shortWait, .guidanceQueue])
        check(TalkArbiter.DropRule.self, [.superseded, .stale])
        check(TalkArbiter.CutRule.self, [.urgentCut, .longCut, .bargeIn])
        check(TalkArbiter.AbandonRule.self, [.afterCut, .bargeIn])
        #expect(TalkArbiter.Action.lineDropped(line: 0, rule: .stale).rule == .stale)
        #expect(
            TalkArbiter.Action.stretchCut(
                reply: 0, stretch: 0, rule: .bargeIn, by: .utterance(0), played: .zero, then: nil
            ).rule == .bargeIn)
    }
}
