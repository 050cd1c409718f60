import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// Reduces a failing scenario to a small one that still fails the same check.
///
/// First it makes the scenario 1-minimal: it removes lines, replies,
/// stretches, utterances and Dad's replies one at a time, keeping each removal
/// that still fails, until removing any single one makes it pass. Then it
/// simplifies what is left (settings and flags back to their defaults, texts
/// and optional languages dropped, times moved to start at zero, times and
/// durations rounded to whole seconds, half seconds or tenths, so that
/// collisions land on exact ties), each only where the failure survives, and removes
/// again, until nothing changes. A reply to Dad may become a reply of
/// Pippa's own at the same instant, so Dad can go when he does not matter.
///
/// A road shrinks too: its items are removed with the rest; between removing
/// and simplifying, its route loses every vertex the failure does not need
/// (`shrinkRoute`); simplifying puts its settings back to their defaults and
/// rounds its speeds, times, distances and coordinates
/// (`simplifyRoadValues`). At most `budget` candidates are simulated, so a
/// shrink is bounded; it is deterministic (docs/fuzzing.md#shrinking).
public struct Shrinker {
    /// The check the scenario must keep failing.
    public let check: Check
    /// The arbiter whose failure is shrunk.
    public let arbiter: ArbiterUnderTest
    /// How many candidate scenarios were simulated.
    public private(set) var attempts = 0
    /// The most candidates one shrinker simulates (`attempts`); once it is
    /// reached, every further candidate counts as passing, so each pass ends
    /// and `shrink` returns the smallest scenario found so far.
    public var budget = Shrinker.defaultBudget
    /// The default `budget`: far more than a talk or road failure of the
    /// fuzzer takes (a few hundred), so that it only bounds the pathological.
    public static let defaultBudget = 2_000

    package init(check: Check, fault: TalkArbiter.Fault? = nil) {
        self.init(check: check, arbiter: .mutant(fault))
    }

    /// A shrinker for failures of `check` by a built-in mutant of the arbiter or the road (nil: the reference).
    package init(check: Check, mutant: Mutant?) {
        self.init(check: check, arbiter: .builtIn(mutant))
    }

    /// A shrinker for failures of `check` by `arbiter` (a divergence from the
    /// reference shrinks like any other failure).
    public init(check: Check, arbiter: ArbiterUnderTest) {
        self.check = check
        self.arbiter = arbiter
    }

    /// Whether `scenario` is valid (`Scenario.validate()`, the decoder's
    /// definition) and still fails the check; an invalid candidate is never
    /// simulated, so every reproducer can be written and read back.
    public mutating func fails(_ scenario: Scenario) -> Bool {
        guard attempts < budget, scenario.isValid else { return false }
        attempts += 1
        return Fuzzer.violations(of: scenario, arbiter: arbiter).contains { $0.check == check }
    }

    /// The smallest, simplest scenario found that still fails.
    public mutating func shrink(_ scenario: Scenario) -> Scenario {
        var current = scenario
        current.expect = []
        current.expectPippa = []
        for _ in 0..<8 {
            let before = current
            current = removeItems(current)
            shrinkRoute(&current)
            shrinkRecordedFixes(&current)
            current = simplify(current)
            if current == before { break }
        }
        return current
    }

    /// The number of items: lines, stretches (a reply is its stretches) and utterances.
    /// With a road, its maneuvers and the road's windows, stops, detours and jumps count too.
    package static func size(of scenario: Scenario) -> Int {
        scenario.guidance.count + scenario.replies.reduce(0) { $0 + $1.stretches.count }
            + scenario.dad.reduce(0) { $0 + 1 + ($1.reply?.stretches.count ?? 0) } + (scenario.road.map(roadSize) ?? 0)
    }

    /// The road's items: maneuvers, outages, segments, background windows, stops, detours, gaps, late windows, jumps,
    /// saved places, and each route change with its maneuvers and handoff deliveries.
    static func roadSize(_ road: Scenario.Road) -> Int {
        var n = road.maneuvers.count + road.link.outages.count + (road.segments?.count ?? 0) + road.background.count
        n += (road.drive?.profile.stops.count ?? 0) + (road.drive?.detours.count ?? 0)
        if case .generated(let g) = road.fixes { n += g.gaps.count + g.late.count + g.jumps.count }
        n += road.places.count
        for change in road.changes { n += 1 + change.maneuvers.count + (change.handoff?.sent.count ?? 0) }
        return n
    }

    // MARK: Removing

    private mutating func removeItems(_ scenario: Scenario) -> Scenario {
        var current = scenario
        var progress = true
        while progress {
            progress = false
            for candidate in removals(of: current) where fails(candidate) {
                current = candidate
                progress = true
                break
            }
        }
        return current
    }

    /// Every scenario with one item fewer, biggest items first.
    private func removals(of s: Scenario) -> [Scenario] {
        var out: [Scenario] = []
        for i in s.replies.indices {
            var c = s
            c.replies.remove(at: i)
            out.append(c)
        }
        for i in s.dad.indices {
            var c = s
            c.dad.remove(at: i)
            out.append(c)
            if let reply = s.dad[i].reply {
                var d = s
                d.dad[i].reply = nil
                out.append(d)
                // Dad's reply without Dad: a reply of Pippa's own, beginning when his would have.
                var e = s
                e.dad.remove(at: i)
                e.replies.append(
                    Scenario.Reply(
                        id: reply.id, at: s.dad[i].at + s.dad[i].duration + reply.after, stretches: reply.stretches))
                out.append(e)
            }
        }
        for i in s.guidance.indices {
            var c = s
            c.guidance.remove(at: i)
            out.append(c)
        }
        for i in s.replies.indices where s.replies[i].stretches.count > 1 {
            for k in s.replies[i].stretches.indices {
                var c = s
                c.replies[i].stretches.remove(at: k)
                out.append(c)
            }
        }
        for i in s.dad.indices where (s.dad[i].reply?.stretches.count ?? 0) > 1 {
            for k in s.dad[i].reply!.stretches.indices {
                var c = s
                c.dad[i].reply!.stretches.remove(at: k)
                out.append(c)
            }
        }
        if let road = s.road { out += roadRemovals(of: s, road) }
        return out
    }

    /// Every scenario with one road item fewer: a window, a stop, a detour, a jump, a maneuver.
    private func roadRemovals(of s: Scenario, _ road: Scenario.Road) -> [Scenario] {
        var out: [Scenario] = []
        func with(_ change: (inout Scenario.Road) -> Void) {
            var c = s
            change(&c.road!)
            out.append(c)
        }
        for i in road.link.outages.indices { with { $0.link.outages.remove(at: i) } }
        if let segments = road.segments {
            with { $0.segments = nil }
            if segments.count > 1 { for i in segments.indices { with { $0.segments!.remove(at: i) } } }
        }
        for i in road.background.indices { with { $0.background.remove(at: i) } }
        for i in road.drive?.profile.stops.indices ?? 0..<0 { with { $0.drive!.profile.stops.remove(at: i) } }
        for i in road.drive?.detours.indices ?? 0..<0 { with { $0.drive!.detours.remove(at: i) } }
        if case .generated(let g) = road.fixes {
            func fixes(_ change: @escaping (inout FixGenerator) -> Void) {
                with { r in
                    if case .generated(var g) = r.fixes {
                        change(&g)
                        r.fixes = .generated(g)
                    }
                }
            }
            for i in g.gaps.indices { fixes { $0.gaps.remove(at: i) } }
            for i in g.late.indices { fixes { $0.late.remove(at: i) } }
            for i in g.jumps.indices { fixes { $0.jumps.remove(at: i) } }
        }
        if road.maneuvers.count > 1 { for i in road.maneuvers.indices { with { $0.maneuvers.remove(at: i) } } }
        // Route changes: a change (a later one's branch may then lie off the road: invalid, never
        // kept), a handoff (the change a reroute), one of its deliveries, a saved place, a maneuver.
        for c in road.changes.indices.reversed() {
            with { $0.changes.remove(at: c) }
            if let handoff = road.changes[c].handoff {
                with { $0.changes[c].handoff = nil }
                if handoff.sent.count > 1 {
                    for i in handoff.sent.indices { with { $0.changes[c].handoff!.sent.remove(at: i) } }
                }
            }
            for i in road.changes[c].maneuvers.indices { with { $0.changes[c].maneuvers.remove(at: i) } }
        }
        for i in road.places.indices { with { $0.places.remove(at: i) } }
        return out
    }

    // MARK: Simplifying

    private mutating func simplify(_ scenario: Scenario) -> Scenario {
        var current = scenario
        func attempt(_ change: (inout Scenario) -> Void) {
            var candidate = current
            change(&candidate)
            if candidate != current, fails(candidate) { current = candidate }
        }
        let defaults = Scenario.Settings()
        attempt { $0.settings.afterCut = defaults.afterCut }
        attempt { $0.settings.earsTail = defaults.earsTail }
        attempt { $0.settings.waitLimit = defaults.waitLimit }
        for i in current.guidance.indices {
            attempt { $0.guidance[i].urgent = false }
            attempt { $0.guidance[i].maneuver = nil }
            attempt { $0.guidance[i].expires = nil }
        }
        for i in current.dad.indices {
            attempt { $0.dad[i].reply?.after = .zero }
            for k in current.dad[i].reply?.stretches.indices ?? 0..<0 {
                attempt { $0.dad[i].reply?.stretches[k].ready = .zero }
            }
        }
        for i in current.replies.indices {
            for k in current.replies[i].stretches.indices { attempt { $0.replies[i].stretches[k].ready = .zero } }
        }
        if current.road != nil { simplifyRoad(&current) }
        // Words are not behaviour the arbiter reads: drop them where the failure survives.
        attempt { $0.dropTexts() }
        // Start at zero.
        let first = current.allTimes.min() ?? .zero
        if first > .zero { attempt { $0.shiftTimes(by: SimTime(ms: -first.ms)) } }
        // Round each time and duration to the coarsest step that keeps it failing.
        for step in [1_000, 500, 100] as [Int64] {
            for path in current.timePaths {
                attempt { $0[time: path] = SimTime(ms: ($0[time: path].ms + step / 2) / step * step) }
            }
        }
        return current
    }
}

extension Shrinker {
    /// The road's settings back to their defaults, each only where the failure survives.
    private mutating func simplifyRoad(_ current: inout Scenario) {
        func attempt(_ change: (inout Scenario.Road) -> Void) {
            var candidate = current
            change(&candidate.road!)
            if candidate != current, fails(candidate) { current = candidate }
        }
        func fixes(_ change: (inout FixGenerator) -> Void) {
            attempt { r in
                if case .generated(var g) = r.fixes {
                    change(&g)
                    r.fixes = .generated(g)
                }
            }
        }
        let link = LocationLink()
        let fixDefaults = FixGenerator()
        let guidance = GuidanceSettings(language: current.road!.language)
        attempt { $0.link.latency = link.latency }
        attempt { $0.link.freshness = link.freshness }
        attempt { $0.guidance.outputLatency = guidance.outputLatency }
        fixes { $0.dropPercent = 0 }
        fixes { $0.jitter = .zero }
        fixes { $0.correlation = nil }
        fixes { $0.accuracySpread = 0 }
        fixes { $0.noise = fixDefaults.noise }
        fixes { $0.accuracy = fixDefaults.accuracy }
        fixes { $0.delay = fixDefaults.delay }
        fixes { $0.every = fixDefaults.every }
        attempt { $0.drive?.start = .zero }
        attempt { r in if let first = r.drive?.profile.steps.first { r.drive!.profile.steps = [first] } }
        simplifyRoadValues(&current)
    }
}

extension Scenario {
    /// A time or duration field of the scenario, for the shrinker.
    enum TimePath: Sendable {
        case lineAt(Int)
        case lineDuration(Int)
        case lineExpires(Int)
        case replyAt(Int)
        case stretchDuration(Int, Int)
        case stretchReady(Int, Int)
        case dadAt(Int)
        case dadDuration(Int)
        case dadAfter(Int)
        case dadStretchDuration(Int, Int)
        case dadStretchReady(Int, Int)
    }

    var timePaths: [TimePath] {
        var out: [TimePath] = []
        for (i, line) in guidance.enumerated() {
            out += [.lineAt(i), .lineDuration(i)]
            if line.expires != nil { out.append(.lineExpires(i)) }
        }
        for (i, reply) in replies.enumerated() {
            out.append(.replyAt(i))
            for k in reply.stretches.indices { out += [.stretchDuration(i, k), .stretchReady(i, k)] }
        }
        for (i, utterance) in dad.enumerated() {
            out += [.dadAt(i), .dadDuration(i)]
            if let reply = utterance.reply {
                out.append(.dadAfter(i))
                for k in reply.stretches.indices { out += [.dadStretchDuration(i, k), .dadStretchReady(i, k)] }
            }
        }
        return out
    }

    subscript(time path: TimePath) -> SimTime {
        get {
            switch path {
            case .lineAt(let i): return guidance[i].at
            case .lineDuration(let i): return guidance[i].duration
            case .lineExpires(let i): return guidance[i].expires ?? .zero
            case .replyAt(let i): return replies[i].at
            case .stretchDuration(let i, let k): return replies[i].stretches[k].duration
            case .stretchReady(let i, let k): return replies[i].stretches[k].ready
            case .dadAt(let i): return dad[i].at
            case .dadDuration(let i): return dad[i].duration
            case .dadAfter(let i): return dad[i].reply?.after ?? .zero
            case .dadStretchDuration(let i, let k): return dad[i].reply?.stretches[k].duration ?? .zero
            case .dadStretchReady(let i, let k): return dad[i].reply?.stretches[k].ready ?? .zero
            }
        }
        set {
            switch path {
            case .lineAt(let i): guidance[i].at = newValue
            case .lineDuration(let i): guidance[i].duration = newValue
            case .lineExpires(let i): guidance[i].expires = newValue
            case .replyAt(let i): replies[i].at = newValue
            case .stretchDuration(let i, let k): replies[i].stretches[k].duration = newValue
            case .stretchReady(let i, let k): replies[i].stretches[k].ready = newValue
            case .dadAt(let i): dad[i].at = newValue
            case .dadDuration(let i): dad[i].duration = newValue
            case .dadAfter(let i): dad[i].reply?.after = newValue
            case .dadStretchDuration(let i, let k): dad[i].reply?.stretches[k].duration = newValue
            case .dadStretchReady(let i, let k): dad[i].reply?.stretches[k].ready = newValue
            }
        }
    }

    /// Every absolute time: lines' `at` and `expires`, replies' and utterances' `at`.
    var allTimes: [SimTime] {
        guidance.flatMap { [$0.at] + ($0.expires.map { [$0] } ?? []) } + replies.map(\.at) + dad.map(\.at)
    }

    /// Every text, and every optional language (a line's, a stretch's;
    /// Dad's is required), removed.
    mutating func dropTexts() {
        description = nil
        for i in guidance.indices {
            guidance[i].text = nil
            guidance[i].language = nil
        }
        func plain(_ stretches: inout [Stretch]) {
            for k in stretches.indices {
                stretches[k].text = nil
                stretches[k].language = nil
            }
        }
        for i in replies.indices { plain(&replies[i].stretches) }
        for i in dad.indices {
            dad[i].text = nil
            if dad[i].reply != nil { plain(&dad[i].reply!.stretches) }
        }
    }

    mutating func shiftTimes(by shift: SimTime) {
        for i in guidance.indices {
            guidance[i].at = guidance[i].at + shift
            guidance[i].expires = guidance[i].expires.map { $0 + shift }
        }
        for i in replies.indices { replies[i].at = replies[i].at + shift }
        for i in dad.indices { dad[i].at = dad[i].at + shift }
    }
}
