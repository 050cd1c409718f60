import SimClock
import SimRunner
import TalkArbiter

/// Which outcomes of a scenario hinge on an order of same-instant inputs or
/// on a millisecond (`drivesim explore --ties FILE`, docs/explore.md#ties).
///
/// SPEC 4.2 fixes the order of one instant by kind (completions, then
/// stale lines, then requests, then replies, chunks and utterances), which
/// the app decides; within a kind it falls back on the file's order, which
/// no platform can promise: two lines requested in the same millisecond,
/// two replies beginning in it. So each such group is run in every other
/// order (the items' places in their list exchanged), and every input
/// (a request, an expiry, a reply's beginning, a chunk, Dad starting, his
/// answer's delay) moved 1 ms earlier and later. Each item's outcome (its
/// events and their rules, without times or lengths) is compared with the
/// scenario's as written; every difference is a `Change`. A variation that
/// is not a valid scenario (Dad over himself, an expiry at the request) is
/// skipped and counted.
package struct TieReport: Sendable {
    /// One outcome that changed.
    package struct Change: Sendable, Equatable {
        /// What changed it: `order g2, g1 at 00:02.000` or `g1 at +1 ms`.
        package var under: String
        /// The item whose outcome changed: a line, reply, stretch or utterance id.
        package var item: String
        /// Its outcome in the scenario as written.
        package var was: String
        /// Its outcome under the variation.
        package var became: String
    }

    /// The orders run (other than the file's).
    package private(set) var orders = 0
    /// The shifts run.
    package private(set) var shifts = 0
    /// The variations skipped as not valid.
    package private(set) var skipped = 0
    /// The groups of same-instant items too large to run in every order
    /// (more than `largestGroup`): when, and how many items. Reported, never
    /// skipped in silence.
    package private(set) var oversized: [(at: SimTime, items: Int)] = []
    /// How many outcomes changed.
    package private(set) var changed = 0
    /// Every changed outcome, variation by variation, items in file order
    /// (empty when the report streams them: `init(_:fault:progress:each:)`).
    package private(set) var changes: [Change] = []
    /// The variations whose run broke a check, with the first violation.
    package private(set) var broken: [(under: String, violation: Violation)] = []

    /// Most items of one group whose orders are all run (6! = 720 orders).
    package static let largestGroup = 6

    /// The report of `scenario` (valid) with the reference arbiter, or `fault`'s, its changes collected.
    package init(_ scenario: Scenario, fault: TalkArbiter.Fault? = nil) {
        var all: [Change] = []
        self.init(scenario, fault: fault) { all.append($0) }
        changes = all
    }

    /// The report of `scenario` (valid), each changed outcome handed to
    /// `each` as it is found and not kept: one variation in memory at a
    /// time, whatever the scenario's size. `progress` is told the variations
    /// done and their total after each.
    /// - Complexity: O(variations × the scenario's run); the variations are
    ///   2 per input shifted, plus every order of each group of up to 6.
    package init(
        _ scenario: Scenario, fault: TalkArbiter.Fault? = nil,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
        each: (Change) -> Void
    ) {
        // Expectations judge the file as written, not its variations: validating and judging them is waste.
        var scenario = scenario
        scenario.expect = []
        scenario.expectPippa = []
        let written = Verdict(scenario, fault: fault)
        if let first = written.violations.sorted(by: { ($0.t, $0.check) < ($1.t, $1.check) }).first {
            broken.append(("the file as written", first))
        }
        let base = Self.outcomes(written.simulation.timeline)
        let total = Self.orderCount(of: scenario) + Self.shiftCount(of: scenario)
        oversized = Self.sameInstant(scenario).filter { $0.1.count > Self.largestGroup }.map { ($0.0, $0.1.count) }
        var done = 0
        func run(_ variant: Scenario, under: String) {
            defer {
                done += 1
                progress(done, total)
            }
            guard variant.isValid else {
                skipped += 1
                return
            }
            // Invariant 7 (the same timeline twice) is the file's, judged once below; a variation runs once.
            let verdict = Verdict(variant, differential: false, repeating: false) { TalkArbiter($0, fault: fault) }
            if let first = verdict.violations.sorted(by: { ($0.t, $0.check) < ($1.t, $1.check) }).first {
                broken.append((under, first))
            }
            let outcomes = Dictionary(
                Self.outcomes(verdict.simulation.timeline), uniquingKeysWith: { first, _ in first })
            for (item, was) in base {
                let became = outcomes[item] ?? "nothing"
                if became != was {
                    changed += 1
                    each(Change(under: under, item: item, was: was, became: became))
                }
            }
        }
        Self.forEachOrder(of: scenario) { label, variant in
            orders += 1
            run(variant, under: label)
        }
        Self.forEachShift(of: scenario) { label, variant in
            shifts += 1
            run(variant, under: label)
        }
    }

    /// Each item's outcome: its events but the request, in order (kind, rule, what it waited
    /// for or was cut by), without times or lengths; Dad's says whether he
    /// was heard, lost or partly heard. Items in the roster's order.
    static func outcomes(_ timeline: Timeline) -> [(item: String, story: String)] {
        var order: [String] = []
        var stories: [String: [String]] = [:]
        func add(_ item: String?, _ text: String) {
            guard let item else { return }
            if stories[item] == nil { order.append(item) }
            stories[item, default: []].append(text)
        }
        for event in timeline.events {
            func field(_ f: Field) -> String? {
                switch timeline.value(of: f, in: event) {
                case .string(let text): return text
                case let value?: return value.description
                case nil: return nil
                }
            }
            let name = event.kind.rawValue
            switch event.what {
            case .guidanceRequested: continue
            case .guidanceWaiting:
                add(field(.line), "\(name) (\(field(.rule) ?? "")\(field(.stretch).map { ", " + $0 } ?? ""))")
            case .guidanceStarted, .guidanceEnded: add(field(.line), name)
            case .guidanceDropped: add(field(.line), "\(name) (\(field(.rule) ?? ""))")
            case .replyQueued, .replyBegan, .replyEnded: add(field(.reply), name)
            case .replyAbandoned: add(field(.reply), "\(name) (\(field(.rule) ?? ""))")
            case .stretchStarted, .stretchEnded: add(field(.stretch), name)
            case .stretchCut: add(field(.stretch), "\(name) (\(field(.rule) ?? ""), by \(field(.by) ?? ""))")
            case .dadStarted: add(field(.utterance), name)
            case .dadEnded(_, let heard, let lost):
                add(field(.utterance), "\(name) (\(heard == 0 ? "lost" : lost == 0 ? "heard" : "partly heard"))")
            case .earsClosed, .earsOpened, .road: continue
            }
        }
        return order.map { ($0, stories[$0, default: []].joined(separator: ", ")) }
    }

    /// Every other order of each group of lines requested, and of replies
    /// beginning, in one instant, one at a time: the group's items exchanged
    /// in their places in the list, every permutation but the file's, groups
    /// of up to `largestGroup` items.
    static func forEachOrder(of scenario: Scenario, _ body: (String, Scenario) -> Void) {
        for (t, places) in groups(scenario.guidance.map(\.at)) {
            for order in permutations(places.count).dropFirst() {
                var variant = scenario
                for (k, place) in places.enumerated() { variant.guidance[place] = scenario.guidance[places[order[k]]] }
                body("order \(places.map { variant.guidance[$0].id }.joined(separator: ", ")) at \(t)", variant)
            }
        }
        for (t, places) in groups(scenario.replies.map(\.at)) {
            for order in permutations(places.count).dropFirst() {
                var variant = scenario
                for (k, place) in places.enumerated() { variant.replies[place] = scenario.replies[places[order[k]]] }
                body("order \(places.map { variant.replies[$0].id }.joined(separator: ", ")) at \(t)", variant)
            }
        }
    }

    /// How many orders `forEachOrder` runs.
    package static func orderCount(of scenario: Scenario) -> Int {
        (groups(scenario.guidance.map(\.at)) + groups(scenario.replies.map(\.at))).reduce(0) {
            $0 + factorial($1.1.count) - 1
        }
    }

    /// `n!` for a group's size (at most `largestGroup`).
    static func factorial(_ n: Int) -> Int { (1...max(1, n)).reduce(1, *) }

    /// Every group of two or more lines requested, or replies beginning, in one instant, by instant.
    static func sameInstant(_ scenario: Scenario) -> [(SimTime, [Int])] {
        (allGroups(scenario.guidance.map(\.at)) + allGroups(scenario.replies.map(\.at))).sorted { $0.0 < $1.0 }
    }

    /// The places of the items that share an instant, two to `largestGroup` of them, by instant.
    static func groups(_ times: [SimTime]) -> [(SimTime, [Int])] {
        allGroups(times).filter { $0.1.count <= largestGroup }
    }

    /// The places of the items that share an instant, two or more, by instant.
    /// - Complexity: O(n log n): one stable sort by time.
    static func allGroups(_ times: [SimTime]) -> [(SimTime, [Int])] {
        let sorted = times.indices.sorted { (times[$0], $0) < (times[$1], $1) }
        var out: [(SimTime, [Int])] = []
        var k = 0
        while k < sorted.count {
            var end = k + 1
            while end < sorted.count, times[sorted[end]] == times[sorted[k]] { end += 1 }
            if end - k >= 2 { out.append((times[sorted[k]], Array(sorted[k..<end]))) }
            k = end
        }
        return out
    }

    /// Every permutation of `0..<n`, the identity first, in lexicographic order.
    static func permutations(_ n: Int) -> [[Int]] {
        guard n > 1 else { return [Array(0..<n)] }
        return (0..<n).flatMap { first in
            permutations(n - 1).map { rest in [first] + rest.map { $0 >= first ? $0 + 1 : $0 } }
        }
    }

    /// Every input moved 1 ms earlier and 1 ms later, one at a time.
    static func forEachShift(of scenario: Scenario, _ body: (String, Scenario) -> Void) {
        for delta: Int64 in [-1, 1] {
            let ms = SimTime(ms: delta)
            let sign = delta < 0 ? "-1 ms" : "+1 ms"
            func add(_ label: String, _ change: (inout Scenario) -> Void) {
                var variant = scenario
                change(&variant)
                body("\(label) \(sign)", variant)
            }
            for i in scenario.guidance.indices {
                add("\(scenario.guidance[i].id) requested") { $0.guidance[i].at = $0.guidance[i].at + ms }
                if scenario.guidance[i].expires != nil {
                    add("\(scenario.guidance[i].id) expires") {
                        $0.guidance[i].expires = $0.guidance[i].expires.map { $0 + ms }
                    }
                }
            }
            for i in scenario.replies.indices {
                add("\(scenario.replies[i].id) begins") { $0.replies[i].at = $0.replies[i].at + ms }
                for k in scenario.replies[i].stretches.indices {
                    add("\(scenario.replies[i].stretches[k].id) ready") {
                        $0.replies[i].stretches[k].ready = $0.replies[i].stretches[k].ready + ms
                    }
                }
            }
            for i in scenario.dad.indices {
                add("\(scenario.dad[i].id) starts") { $0.dad[i].at = $0.dad[i].at + ms }
                if let reply = scenario.dad[i].reply {
                    add("\(reply.id) after") { $0.dad[i].reply?.after = reply.after + ms }
                    for k in reply.stretches.indices {
                        add("\(reply.stretches[k].id) ready") {
                            $0.dad[i].reply?.stretches[k].ready = reply.stretches[k].ready + ms
                        }
                    }
                }
            }
        }
    }

    /// How many shifts `forEachShift` runs (counted, not made).
    package static func shiftCount(of scenario: Scenario) -> Int {
        let lines = scenario.guidance.count + scenario.guidance.filter { $0.expires != nil }.count
        let replies = scenario.replies.reduce(0) { $0 + 1 + $1.stretches.count }
        let dad = scenario.dad.reduce(0) { $0 + 1 + ($1.reply.map { 1 + $0.stretches.count } ?? 0) }
        return 2 * (lines + replies + dad)
    }
}
