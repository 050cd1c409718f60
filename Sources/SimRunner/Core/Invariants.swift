import AudioBus
import SimClock
import TalkArbiter

/// A check every run must pass: an invariant of SPEC 7, or one of
/// drivesim's rule checks, which pin a rule of SPEC 4.1 that no invariant
/// covers (a superseded line that still plays, a queue served out of order).
public enum Check: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// SPEC 7's invariant by number, 1 to 7.
    case invariant(Int)
    /// The rule check for one rule.
    case rule(Rule)
    /// One of the road's invariants (docs/timeline.md).
    case road(RoadCheck)
    /// What is checked of an arbiter beyond the timeline: its actions can be
    /// carried out, and, in differential mode, it decides as the reference does.
    case arbiter(ArbiterCheck)

    /// `invariant 1`, `rule short-wait`, `road link`, `arbiter divergence`.
    public var description: String {
        switch self {
        case .invariant(let n): return "invariant \(n)"
        case .rule(let rule): return "rule \(rule.rawValue)"
        case .road(let check): return "road \(check.rawValue)"
        case .arbiter(let check): return "arbiter \(check.rawValue)"
        }
    }

    /// Every check, in report order.
    public static let all: [Check] =
        (1...7).map(Check.invariant) + Invariants.ruleChecks.map(Check.rule) + RoadCheck.allCases.map(Check.road)
        + ArbiterCheck.allCases.map(Check.arbiter)
}

/// A broken check.
public struct Violation: Sendable, Equatable {
    /// The check it broke.
    public var check: Check
    /// When it broke.
    public var t: SimTime
    /// What broke, with the ids concerned.
    public var message: String
}

/// The invariants of SPEC 7, checked from the recorded timeline and the bus's
/// own record, never from the arbiter's state: a wrong arbiter cannot vouch
/// for itself.
public enum Invariants {
    /// Every check but invariant 7 (which needs a second run) for one run.
    public static func check(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        var found: [Violation] = checkRoad(scenario, run)
        let timeline = run.timeline, roster = timeline.roster, settings = scenario.settings
        let guidance = run.bus.played.filter { $0.voice == .guidance }
        let pippa = run.bus.played.filter { $0.voice == .pippa }

        // 1. One voice at a time: the bus records every start over another voice.
        for overlap in run.bus.overlaps {
            let line = roster.lines[overlap.line].id, stretch = roster.stretches[overlap.stretch].id
            found.append(.init(check: .invariant(1), t: overlap.at, message: "line \(line) and stretch \(stretch) play at once"))
        }

        // 2. Ears closed during every line and for earsTail after it.
        var open: [(SimTime, SimTime)] = []
        var openSince: SimTime? = .zero
        for event in timeline.events {
            if event.kind == .earsOpened, openSince == nil { openSince = event.t }
            if event.kind == .earsClosed, let since = openSince {
                open.append((since, event.t))
                openSince = nil
            }
        }
        if let since = openSince { open.append((since, SimTime(ms: .max))) }
        let closedWindows = guidance.map { ($0.start, $0.end + settings.earsTail) }
        for overlap in overlaps(open, closedWindows) {
            found.append(.init(check: .invariant(2), t: overlap.0, message: "the ears are open within a line or its earsTail"))
        }

        // 3, 4. How long each line waited while Pippa spoke.
        let pippaUnion = union(pippa.map { ($0.start, $0.end) })
        var requested = [SimTime?](repeating: nil, count: roster.lines.count)
        var settled = [Bool](repeating: false, count: roster.lines.count)
        for event in timeline.events {
            switch event.what {
            case .guidanceRequested(let l): requested[l.int] = event.t
            case .guidanceStarted(let l), .guidanceDropped(let l, _):
                let line = l.int
                guard let start = requested[line] else { continue }
                if event.kind == .guidanceStarted { settled[line] = true }
                let waited = overlaps([(start, event.t)], sortedUnion: pippaUnion)
                    .reduce(Int64(0)) { $0 + ($1.1 - $1.0).ms }
                let id = roster.lines[line].id
                if roster.lines[line].urgent, waited > 0 {
                    found.append(.init(check: .invariant(3), t: start, message: "urgent line \(id) waited \(waited) ms for Pippa"))
                } else if waited > settings.waitLimit.ms {
                    found.append(
                        .init(check: .invariant(4), t: start, message: "line \(id) waited \(waited) ms for Pippa, over waitLimit"))
                }
                if event.kind == .guidanceDropped { settled[line] = true }
            default: continue
            }
        }

        // 5. A stretch cut by guidance: by an urgent line, or with more than waitLimit left.
        for event in timeline.events {
            guard case .stretchCut(_, let stretch, _, .line(let line), let played, _) = event.what else { continue }
            let left = roster.stretches[stretch.int].duration.ms - played
            if !roster.lines[line].urgent, left <= settings.waitLimit.ms {
                found.append(
                    .init(check: .invariant(5), t: event.t,
                          message: "ordinary line \(roster.lines[line].id) cut a stretch with only \(left) ms left"))
            }
        }

        // 6. Nothing vanishes.
        found += vanished(timeline, settled: settled, requested: requested)
        found += ruleChecks(timeline, earsOpen: open)
        return found
    }

    private static func vanished(_ timeline: Timeline, settled: [Bool], requested: [SimTime?]) -> [Violation] {
        let roster = timeline.roster
        var found: [Violation] = []
        let end = timeline.events.last?.t ?? .zero
        var lineEnded = [Bool](repeating: false, count: roster.lines.count)
        var lineDropped = [Bool](repeating: false, count: roster.lines.count)
        var replySeen = [Bool](repeating: false, count: roster.replyIDs.count)
        var replyDone = [Bool](repeating: false, count: roster.replyIDs.count)
        var stretchOpen = [Bool](repeating: false, count: roster.stretches.count)
        var dadEnded = [Bool](repeating: false, count: roster.utterances.count)
        for event in timeline.events {
            switch event.what {
            case .guidanceEnded(let l): lineEnded[l.int] = true
            case .guidanceDropped(let l, _): lineDropped[l.int] = true
            case .replyQueued(let r), .replyBegan(let r): replySeen[r.int] = true
            case .replyEnded(let r), .replyAbandoned(let r, _): replyDone[r.int] = true
            case .stretchStarted(_, let k, _): stretchOpen[k.int] = true
            case .stretchEnded(_, let k), .stretchCut(_, let k, _, _, _, _): stretchOpen[k.int] = false
            case .dadEnded(let u, let heard, let lost):
                let s = u.int
                dadEnded[s] = true
                let whole = roster.utterances[s].duration.ms
                if heard < 0 || lost < 0 || heard + lost != whole {
                    found.append(
                        .init(check: .invariant(6), t: event.t,
                              message: "utterance \(roster.utterances[s].id): heard + lost is not its \(whole) ms"))
                }
            default: continue
            }
        }
        for (i, line) in roster.lines.enumerated() where requested[i] == nil || !settled[i] || (!lineEnded[i] && !lineDropped[i]) {
            found.append(.init(check: .invariant(6), t: end, message: "line \(line.id) was neither played to its end nor dropped"))
        }
        for i in roster.replyIDs.indices where i < roster.fileReplyCount && !replySeen[i] || replySeen[i] && !replyDone[i] {
            found.append(.init(check: .invariant(6), t: end, message: "reply \(roster.replyIDs[i]) never ended nor was abandoned"))
        }
        for i in roster.stretches.indices where stretchOpen[i] {
            found.append(.init(check: .invariant(6), t: end, message: "stretch \(roster.stretches[i].id) neither ended nor was cut"))
        }
        for (i, utterance) in roster.utterances.enumerated() where !dadEnded[i] {
            found.append(.init(check: .invariant(6), t: end, message: "utterance \(utterance.id) has no heard and lost time"))
        }
        return found
    }

    /// The positive-length intersections of the intervals of `a` with the
    /// union of the intervals of `b` (all half-open).
    /// - Complexity: O((a + b) log b)
    static func overlaps(_ a: [(SimTime, SimTime)], _ b: [(SimTime, SimTime)]) -> [(SimTime, SimTime)] {
        overlaps(a, sortedUnion: union(b))
    }

    /// The union of `intervals` as sorted, disjoint intervals.
    /// - Complexity: O(n log n)
    static func union(_ intervals: [(SimTime, SimTime)]) -> [(SimTime, SimTime)] {
        var union: [(SimTime, SimTime)] = []
        for y in intervals.sorted(by: { $0.0 < $1.0 }) where y.0 < y.1 {
            if let last = union.last, y.0 <= last.1 { union[union.count - 1].1 = max(last.1, y.1) } else { union.append(y) }
        }
        return union
    }

    /// `overlaps(a, b)` with `b` already a sorted, disjoint union.
    /// - Complexity: O(a log b + the overlaps found)
    static func overlaps(_ a: [(SimTime, SimTime)], sortedUnion union: [(SimTime, SimTime)]) -> [(SimTime, SimTime)] {
        var out: [(SimTime, SimTime)] = []
        for x in a {
            // The first interval of the union that ends after x starts.
            var low = 0, high = union.count
            while low < high {
                let mid = (low + high) / 2
                if union[mid].1 <= x.0 { low = mid + 1 } else { high = mid }
            }
            while low < union.count, union[low].0 < x.1 {
                let start = max(x.0, union[low].0), end = min(x.1, union[low].1)
                if start < end { out.append((start, end)) }
                low += 1
            }
        }
        return out
    }
}
