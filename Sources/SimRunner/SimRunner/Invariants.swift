import AudioBus
import Guidance
import SimClock
import TalkArbiter

/// A check every run must pass: an invariant of SPEC 7, one of drivesim's
/// rule checks, which pin a rule of SPEC 4.1 that no invariant covers (a
/// superseded line that still plays, a queue served out of order), a
/// decision check (a rule applied in an instant where it was allowed), or a
/// road check.
public enum Check: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// SPEC 7's invariant by number, 1 to 7.
    case invariant(Int)
    /// The rule check for one rule.
    case rule(Rule)
    /// One of the road's invariants (docs/timeline.md).
    case road(RoadCheck)
    /// That a decision by one rule was allowed in the instant it was made
    /// (`short-wait`, `long-cut`, `barge-in`; docs/timeline.md).
    case decision(Rule)
    /// What is checked of an arbiter beyond the timeline: its actions can be
    /// carried out, and, in differential mode, it decides as the reference does.
    case arbiter(ArbiterCheck)
    /// What is checked of a guidance in another process beyond the road's checks.
    case guidance(GuidanceCheck)

    /// `invariant 1`, `rule short-wait`, `road link`, `decision short-wait`, `arbiter divergence`.
    public var description: String {
        switch self {
        case .invariant(let n): return "invariant \(n)"
        case .rule(let rule): return "rule \(rule.rawValue)"
        case .road(let check): return "road \(check.rawValue)"
        case .decision(let rule): return "decision \(rule.rawValue)"
        case .arbiter(let check): return "arbiter \(check.rawValue)"
        case .guidance(let check): return "guidance \(check.rawValue)"
        }
    }

    /// Every check the core makes, in report order. `arbiter process` and
    /// `guidance process` are not: the command line adds them when an arbiter
    /// (`--arbiter`) or guidance (`--guidance`) process fails.
    public static let all: [Check] =
        (1...7).map(Check.invariant) + Invariants.ruleChecks.map(Check.rule)
        + Invariants.decisionChecks.map(Check.decision)
        + RoadCheck.allCases.map(Check.road) + ArbiterCheck.allCases.filter { $0 != .process }.map(Check.arbiter)
}

/// What is checked of a guidance in another process. Raw values are their names in reports.
public enum GuidanceCheck: String, Sendable, CaseIterable, Comparable {
    /// A guidance in another process (`--guidance`) crashed, hung, printed
    /// garbage or asked for a line that cannot be spoken.
    case process

    /// Table order.
    public static func < (a: GuidanceCheck, b: GuidanceCheck) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A broken check.
public struct Violation: Sendable, Equatable {
    /// The check it broke.
    public var check: Check
    /// When it broke.
    public var t: SimTime
    /// What broke, with the ids concerned.
    public var message: String

    /// A violation found outside the core's checks (an arbiter process that failed).
    package init(check: Check, t: SimTime, message: String) {
        self.check = check
        self.t = t
        self.message = message
    }
}

/// The invariants of SPEC 7, checked from the recorded timeline and the bus's
/// own record, never from the arbiter's state: a wrong arbiter cannot vouch
/// for itself.
package enum Invariants {
    /// Every check but invariant 7 (which needs a second run) for one run.
    /// - Complexity: O(n log n) in the drive (events and intervals played):
    ///   each check walks the timeline once; waits are measured in O(log n).
    package static func check(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        check(scenario, run, shape: nil)
    }

    /// `check(_:_:)`, the road's truth starting from its `shape` if given (`RoadShape`: a fuzz run's generator found it).
    static func check(_ scenario: Scenario, _ run: Simulation, shape: RoadShape?) -> [Violation] {
        var found: [Violation] = checkRoad(scenario, run, shape: shape)
        let timeline = run.timeline
        let roster = timeline.roster
        let settings = scenario.settings

        // 1. One voice at a time: the bus records every start over another voice.
        for overlap in run.bus.overlaps {
            let line = roster.lines[overlap.line].id
            let stretch = roster.stretches[overlap.stretch].id
            found.append(
                .init(check: .invariant(1), t: overlap.at, message: "line \(line) and stretch \(stretch) play at once"))
        }

        // 2. Ears closed during every line and for earsTail after it.
        let open = earsOpen(timeline)
        let closedWindows = IntervalSet(
            run.bus.played.lazy.filter { $0.voice == .guidance }.map {
                SimInterval($0.start, $0.end + settings.earsTail)
            })
        for overlap in open.intersection(closedWindows).intervals {
            found.append(
                .init(
                    check: .invariant(2), t: overlap.start, message: "the ears are open within a line or its earsTail"))
        }

        // 3, 4. How long each line waited while Pippa spoke.
        let pippa = CumulativeMeasure(run.bus.intervals(of: .pippa))
        var requested = [SimTime?](repeating: nil, count: roster.lines.count)
        var settled = [Bool](repeating: false, count: roster.lines.count)
        for event in timeline.events {
            switch event.what {
            case .guidanceRequested(let l): requested[l.int] = event.t
            case .guidanceStarted(let l), .guidanceDropped(let l, _):
                let line = l.int
                guard let start = requested[line] else { continue }
                if event.kind == .guidanceStarted { settled[line] = true }
                let waited = pippa.within(start, event.t).ms
                let id = roster.lines[line].id
                if roster.lines[line].urgent, waited > 0 {
                    found.append(
                        .init(
                            check: .invariant(3), t: start, message: "urgent line \(id) waited \(waited) ms for Pippa"))
                } else if waited > settings.waitLimit.ms {
                    found.append(
                        .init(
                            check: .invariant(4), t: start,
                            message: "line \(id) waited \(waited) ms for Pippa, over waitLimit"))
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
                    .init(
                        check: .invariant(5), t: event.t,
                        message: "ordinary line \(roster.lines[line].id) cut a stretch with only \(left) ms left"))
            }
        }

        // 6. Nothing vanishes.
        found += vanished(timeline, settled: settled, requested: requested)
        found += ruleChecks(timeline, earsOpen: open)
        found += decisionChecks(timeline, settings: settings)
        return found
    }

    /// When the ears were open, from the timeline's `ears.opened` and
    /// `ears.closed` (open from time zero; still open at the end runs to the
    /// end of time).
    /// - Complexity: O(n) in the events.
    static func earsOpen(_ timeline: Timeline) -> IntervalSet {
        var open = IntervalSet()
        var openSince: SimTime? = .zero
        for event in timeline.events {
            if event.kind == .earsOpened, openSince == nil { openSince = event.t }
            if event.kind == .earsClosed, let since = openSince {
                open.insert(SimInterval(since, max(since, event.t)))
                openSince = nil
            }
        }
        if let since = openSince { open.insert(SimInterval(since, .endOfTime)) }
        return open
    }

    /// Invariant 6: every line, reply, stretch and utterance is accounted for.
    /// - Complexity: O(n) in the events and the roster's items.
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
                        .init(
                            check: .invariant(6), t: event.t,
                            message: "utterance \(roster.utterances[s].id): heard + lost is not its \(whole) ms"))
                }
            default: continue
            }
        }
        for (i, line) in roster.lines.enumerated()
        where requested[i] == nil || !settled[i] || (!lineEnded[i] && !lineDropped[i]) {
            found.append(
                .init(
                    check: .invariant(6), t: end, message: "line \(line.id) was neither played to its end nor dropped"))
        }
        for i in roster.replyIDs.indices
        where i < roster.fileReplyCount && !replySeen[i] || replySeen[i] && !replyDone[i] {
            found.append(
                .init(
                    check: .invariant(6), t: end, message: "reply \(roster.replyIDs[i]) never ended nor was abandoned"))
        }
        for i in roster.stretches.indices where stretchOpen[i] {
            found.append(
                .init(
                    check: .invariant(6), t: end, message: "stretch \(roster.stretches[i].id) neither ended nor was cut"
                ))
        }
        for (i, utterance) in roster.utterances.enumerated() where !dadEnded[i] {
            found.append(
                .init(check: .invariant(6), t: end, message: "utterance \(utterance.id) has no heard and lost time"))
        }
        return found
    }
}

/// An `IntervalSet` with the running total of its measure, so that the time
/// it holds within any window is two binary searches, however many of its
/// intervals the window meets.
struct CumulativeMeasure {
    /// The set's intervals, in time order.
    let intervals: [SimInterval]
    /// `before[i]`: the measure of the first `i` intervals.
    let before: [Int64]

    /// The running totals of `set`.
    /// - Complexity: O(n)
    init(_ set: IntervalSet) {
        intervals = set.intervals
        var total: Int64 = 0
        var before: [Int64] = [0]
        before.reserveCapacity(intervals.count + 1)
        for interval in intervals {
            total &+= interval.duration.ms
            before.append(total)
        }
        self.before = before
    }

    /// The time held before `t`.
    /// - Complexity: O(log n)
    func upTo(_ t: SimTime) -> Int64 {
        // The first interval that ends after t.
        let low = intervals.partitioningIndex { $0.end > t }
        guard low < intervals.count, intervals[low].start < t else { return before[low] }
        return before[low] &+ (t - intervals[low].start).ms
    }

    /// The time held within `[from, to)` (none if `to` is not after `from`).
    /// - Complexity: O(log n)
    func within(_ from: SimTime, _ to: SimTime) -> SimTime {
        to > from ? SimTime(ms: upTo(to) &- upTo(from)) : .zero
    }
}
