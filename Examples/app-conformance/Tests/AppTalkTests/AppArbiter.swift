import AppTalk
import SimClock
import TalkArbiter

/// The app's `TalkReferee` behind drivesim's `Arbiter` protocol: drivesim's
/// inputs become the referee's events, its decisions become drivesim's actions.
struct AppArbiter: Arbiter {
    let referee: TalkReferee
    /// Where the referee's callback puts its decisions until the call returns.
    let inbox: Inbox

    final class Inbox { var actions: [Action] = [] }

    init(_ tables: ArbiterTables) {
        let s = tables.settings
        referee = TalkReferee(
            lines: tables.lines.map { .init(durationMs: $0.duration.ms, urgent: $0.urgent, maneuver: $0.maneuver, expiresMs: $0.expires?.ms) },
            replies: tables.replies.map(\.stretches), stretchMs: tables.stretchDurations.map(\.ms),
            earsTailMs: s.earsTail.ms, waitLimitMs: s.waitLimit.ms, afterCut: s.afterCut.rawValue)
        let inbox = Inbox()
        self.inbox = inbox
        referee.onDecision = { inbox.actions.append(AppArbiter.action($0)) }
    }

    private func send(_ event: TalkReferee.Event, _ now: SimTime, _ actions: inout [Action]) {
        referee.handle(event, atMs: now.ms)
        actions += inbox.actions
        inbox.actions.removeAll(keepingCapacity: true)
    }

    mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) { send(.lineFinished(line), now, &actions) }
    mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) { send(.stretchFinished(stretch), now, &actions) }
    mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) { send(.micReleased(utterance), now, &actions) }
    mutating func earsTimer(at now: SimTime, into actions: inout [Action]) { send(.timer, now, &actions) }
    mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) { send(.lineExpired(line), now, &actions) }
    mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) { send(.lineRequested(line), now, &actions) }
    mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) { referee.lineReworded(line, durationMs: duration.ms) }
    mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) { send(.replyArrived(reply), now, &actions) }
    mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) { send(.chunkCached(stretch), now, &actions) }
    mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) { send(.micPressed(utterance), now, &actions) }

    mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        referee.instantOver(atMs: now.ms)
        actions += inbox.actions
        inbox.actions.removeAll(keepingCapacity: true)
    }

    var isIdle: Bool { referee.isQuiet }

    /// A decision in drivesim's words. Each action takes only the rules that
    /// fit it, so a rule name that is not one of those (a typo, or `stale`
    /// for a wait) cannot be said: it is the referee's bug, and stops the test.
    static func action(_ d: TalkReferee.Decision) -> Action {
        func rule<R: TalkArbiter.ActionRule>(_ name: String) -> R {
            guard let rule = Rule(rawValue: name).flatMap(R.init) else { preconditionFailure("the referee decided \(d) with a rule that does not fit it") }
            return rule
        }
        func ms(_ v: Int64) -> SimTime { SimTime(ms: v) }
        switch d {
        case .lineWaits(let l, let r, let s): return .lineWaiting(line: l, rule: rule(r), stretch: s)
        case .playLine(let l, let until): return .lineStarted(line: l, endsAt: ms(until))
        case .lineDone(let l): return .lineEnded(line: l)
        case .dropLine(let l, let r): return .lineDropped(line: l, rule: rule(r))
        case .queueReply(let r): return .replyQueued(reply: r)
        case .activateReply(let r): return .replyBegan(reply: r)
        case .playStretch(let r, let s, let until, let held): return .stretchStarted(reply: r, stretch: s, endsAt: ms(until), held: held.map(ms))
        case .stretchDone(let r, let s): return .stretchEnded(reply: r, stretch: s)
        case .cutStretch(let r, let s, let cutRule, let by, let played, let then):
            let cause: TalkArbiter.Cause
            switch by {
            case .line(let l): cause = .line(l)
            case .dad(let u): cause = .utterance(u)
            }
            return .stretchCut(reply: r, stretch: s, rule: rule(cutRule), by: cause, played: ms(played), then: then.flatMap(TalkArbiter.AfterCut.init(rawValue:)))
        case .replyDone(let r): return .replyEnded(reply: r)
        case .abandonReply(let r, let abandonRule): return .replyAbandoned(reply: r, rule: rule(abandonRule))
        case .earsChanged(let open): return open ? .earsOpened : .earsClosed
        case .wakeMe(let at): return .wake(at: ms(at))
        }
    }
}
