import TalkArbiter

/// How often each rule of SPEC 4.1 fired in a timeline: one count per
/// decision, read from the timeline.
///
/// What counts, exactly:
/// - every event that carries a `rule` counts one firing of it
///   (`ears.closed` → `ears-closed`, `guidance.waiting` → `short-wait` or
///   `guidance-queue`, `guidance.dropped` → `superseded` or `stale`,
///   `talk.stretch.cut` → `urgent-cut` or `long-cut`, `talk.stretch.started`
///   with `heldMs` → `held`, `talk.reply.queued` → `reply-queue`,
///   `talk.reply.abandoned` → `barge-in`);
/// - every `talk.stretch.cut` that carries `afterCut` (a cut by guidance)
///   counts one `after-cut`;
/// - so that one decision counts once, a `talk.stretch.cut` by `barge-in` is
///   not counted (the `talk.reply.abandoned` it comes with is), nor is a
///   `talk.reply.abandoned` by `after-cut` (the cut that carries `afterCut` is).
/// - each road event that shows a `RoadRule` counts one firing of it.
package struct RuleCoverage: Sendable, Equatable {
    /// Firings per rule, in `Rule.allCases` order.
    package private(set) var counts: [Int] = Array(repeating: 0, count: Rule.allCases.count)
    /// Firings per road rule, in `RoadRule.allCases` order.
    package private(set) var roadCounts: [Int] = Array(repeating: 0, count: RoadRule.allCases.count)

    /// No firings.
    package init() {}

    /// The firings in one timeline.
    package init(_ timeline: Timeline) {
        for event in timeline.events {
            if case .road(let road) = event.what {
                if let rule = RoadRule(road) { roadCounts[RoadRule.allCases.firstIndex(of: rule)!] += 1 }
                continue
            }
            if case .stretchCut(_, _, _, _, _, _?) = event.what { add(.afterCut) }
            guard let rule = event.rule else { continue }
            if event.kind == .stretchCut, rule == .bargeIn { continue }
            if event.kind == .replyAbandoned, rule == .afterCut { continue }
            add(rule)
        }
    }

    /// How often `rule` fired.
    package subscript(rule: Rule) -> Int { counts[rule.index] }

    mutating func add(_ rule: Rule, _ n: Int = 1) { counts[rule.index] += n }

    /// How often the road's `rule` fired.
    package subscript(road rule: RoadRule) -> Int { roadCounts[RoadRule.allCases.firstIndex(of: rule)!] }

    /// Adds another run's firings.
    package mutating func add(_ other: RuleCoverage) {
        for i in counts.indices { counts[i] += other.counts[i] }
        for i in roadCounts.indices { roadCounts[i] += other.roadCounts[i] }
    }

    /// The road rules that never fired.
    package var roadNeverFired: [RoadRule] { RoadRule.allCases.filter { self[road: $0] == 0 } }

    /// The rules that never fired, in SPEC order.
    package var neverFired: [Rule] { Rule.allCases.filter { self[$0] == 0 } }
}
