import SimClock
import TalkArbiter

/// drivesim's rule checks: properties of single rules of SPEC 4.1 that the
/// invariants of SPEC 7 do not reach, read from the timeline alone. Like the
/// invariants they hold for every correct run; the fuzzer's mutants show
/// that each of them catches its rule being broken.
extension Invariants {
    /// The rules with a check of their own (the others are covered by the invariants).
    static let ruleChecks: [Rule] = [.guidanceQueue, .superseded, .stale, .afterCut, .bargeIn, .replyQueue]

    static func ruleChecks(_ timeline: Timeline, earsOpen: [(SimTime, SimTime)]) -> [Violation] {
        var found: [Violation] = []
        found += lineChecks(timeline)
        found += talkChecks(timeline, earsOpen: earsOpen)
        return found
    }

    /// `guidance-queue`: a line starts only when no pending line comes before it
    /// (urgent first, then first come first served). `superseded`: a pending
    /// line is dropped the instant a newer line for its maneuver is requested.
    /// `stale`: no line is pending after its `expires` instant.
    private static func lineChecks(_ timeline: Timeline) -> [Violation] {
        let lines = timeline.roster.lines
        var found: [Violation] = []
        var pending: [Int] = []  // in the order they were requested
        var supersededAt = [SimTime?](repeating: nil, count: lines.count)
        func fail(_ rule: Rule, _ t: SimTime, _ message: String) {
            found.append(Violation(check: .rule(rule), t: t, message: message))
        }
        for event in timeline.events {
            let t = event.t
            switch event.what {
            case .guidanceRequested(let l):
                let line = l.int
                if let maneuver = lines[line].maneuver {
                    for other in pending where lines[other].maneuver == maneuver { supersededAt[other] = t }
                }
                pending.append(line)
            case .guidanceStarted(let l), .guidanceDropped(let l, _):
                let line = l.int
                guard let index = pending.firstIndex(of: line) else { continue }
                pending.remove(at: index)
                let id = lines[line].id
                if let due = supersededAt[line], event.kind == .guidanceStarted || event.rule != .superseded || t != due {
                    fail(.superseded, t, "line \(id) was still pending after a newer line for its maneuver at \(due)")
                }
                if let expires = lines[line].expires, event.kind == .guidanceStarted ? t >= expires : t > expires {
                    fail(.stale, t, "line \(id) was still pending after it expired at \(expires)")
                }
                guard event.kind == .guidanceStarted else { continue }
                // Ahead of it: an earlier line of its class, or any urgent line if it is ordinary.
                let urgent = lines[line].urgent
                let earlier = pending[..<index].first { lines[$0].urgent == urgent }
                if let ahead = earlier ?? (urgent ? nil : pending.first { lines[$0].urgent }) {
                    fail(.guidanceQueue, t, "line \(id) started while \(lines[ahead].id) was ahead of it in the queue")
                }
            default: continue
            }
        }
        return found
    }

    /// `reply-queue`: one reply active at a time, taken in the order they
    /// began. `barge-in`: no reply stays active while Dad is heard.
    /// `after-cut`: what follows a cut by guidance is what `afterCut` says.
    private static func talkChecks(_ timeline: Timeline, earsOpen: [(SimTime, SimTime)]) -> [Violation] {
        let roster = timeline.roster
        var found: [Violation] = []
        func fail(_ rule: Rule, _ t: SimTime, _ message: String) {
            found.append(Violation(check: .rule(rule), t: t, message: message))
        }
        var arrivals: [Int] = [], began = 0
        var active: Int?
        var activeSince = SimTime.zero
        var activeIntervals: [(SimTime, SimTime)] = []
        var speech: [(SimTime, SimTime)] = []
        var dadSince: SimTime?
        // After a cut by guidance: what the reply must do next.
        var afterCut = [(then: TalkArbiter.AfterCut, stretch: Int, at: SimTime)?](repeating: nil, count: roster.replyIDs.count)
        func close(_ reply: Int, at t: SimTime) {
            if active == reply {
                activeIntervals.append((activeSince, t))
                active = nil
            }
        }
        for event in timeline.events {
            let reply = event.reply?.int ?? -1, t = event.t
            switch event.what {
            case .replyQueued:
                arrivals.append(reply)
            case .replyBegan:
                if !arrivals.contains(reply) { arrivals.append(reply) }
                if let current = active {
                    fail(.replyQueue, t, "reply \(roster.replyIDs[reply]) began while \(roster.replyIDs[current]) was active")
                }
                if began < arrivals.count, arrivals[began] != reply {
                    fail(.replyQueue, t, "reply \(roster.replyIDs[reply]) began before \(roster.replyIDs[arrivals[began]])")
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
                    case .skip: ok = event.kind == .replyAbandoned || expected.stretch + 1 == roster.replyStretches[reply].upperBound
                    case .repeat: ok = event.kind == .replyAbandoned && event.rule != .afterCut
                    }
                    if !ok { fail(.afterCut, t, "reply \(roster.replyIDs[reply]) did not \(expected.then.rawValue) its cut stretch") }
                }
                close(reply, at: t)
            case .stretchStarted(_, let stretch, _):
                if let expected = afterCut[reply] {
                    afterCut[reply] = nil
                    let next = expected.then == .repeat ? expected.stretch : expected.stretch + 1
                    if expected.then == .drop || stretch.int != next {
                        fail(.afterCut, t, "reply \(roster.replyIDs[reply]) did not \(expected.then.rawValue) its cut stretch")
                    }
                }
            case .stretchCut(_, let stretch, _, _, _, let then):
                if let then { afterCut[reply] = (then, stretch.int, t) }
            case .dadStarted:
                dadSince = t
            case .dadEnded:
                if let since = dadSince { speech.append((since, t)) }
                dadSince = nil
            default: continue
            }
        }
        if active != nil { activeIntervals.append((activeSince, SimTime(ms: .max))) }
        for (reply, expected) in afterCut.enumerated() where expected?.then == .drop {
            fail(.afterCut, expected!.at, "reply \(roster.replyIDs[reply]) was not abandoned after its cut")
        }
        let heard = overlaps(speech, earsOpen)
        for overlap in overlaps(heard, activeIntervals) {
            fail(.bargeIn, overlap.0, "a reply stayed active while Dad was heard")
        }
        return found.sorted { $0.t < $1.t }
    }
}
