import Guidance
import SimClock

/// Handoffs sent after one of Pippa's stretches (`RoadSetup.Sending.after`,
/// docs/road.md, "Route changes"). The road is planned before the talk
/// runs, but such a handoff is sent when the talk is done with the stretch.
/// Causality makes it computable: a stretch over at E depends only on what
/// happened before E, and the handoff sent at E changes the road only after
/// it. So the road is planned without the handoffs not known yet, the talk
/// simulated, the earliest of their stretches' ends E read, the road planned
/// again with those handoffs sent at E, the talk simulated again, and so on:
/// one pass per stretch at most, and one more to record the stretches never
/// over. The `handoff` check judges the last pass's timeline against what
/// its plan took (`RoadPlan.said`).
extension RoadSetup {
    /// The stretches handoffs are sent after, by id, each once, in file order.
    package var stretchesSentAfter: [String] {
        var out: [String] = []
        for change in changes {
            for sending in change.handoff?.sent ?? [] {
                if let id = sending.stretch, !out.contains(id) { out.append(id) }
            }
        }
        return out
    }
}

extension Timeline {
    /// What became of each of `stretches` (indices into the roster's) in
    /// this timeline: over at its first `talk.stretch.ended`, or at its first
    /// `talk.stretch.cut` after which it is not played again (an `afterCut`
    /// other than `repeat`, or a barge-in); never over once its reply is
    /// abandoned before that, or when the reply is Dad's answer to an
    /// utterance wholly lost (at that utterance's end). Nil where the
    /// timeline does not tell (a run stopped at an impossible action).
    /// - Complexity: O(events × stretches).
    func fates(of stretches: [Int]) -> [RoadSetup.Said?] {
        var out = [RoadSetup.Said?](repeating: nil, count: stretches.count)
        func settle(_ matches: (Int) -> Bool, _ said: RoadSetup.Said) {
            for (i, s) in stretches.enumerated() where out[i] == nil && matches(s) { out[i] = said }
        }
        for event in events {
            switch event.what {
            case .stretchEnded(_, let s): settle({ $0 == s.int }, .over(event.t))
            case .stretchCut(_, let s, _, _, _, let then) where then != .repeat: settle({ $0 == s.int }, .over(event.t))
            case .replyAbandoned(let r, _): settle({ roster.stretchReply[$0] == r.int }, .never(event.t))
            case .dadEnded(let u, let heard, _) where heard == 0:
                if let r = roster.answer[u.int] { settle({ roster.stretchReply[$0] == r }, .never(event.t)) }
            default: continue
            }
        }
        return out
    }
}

extension Simulation {
    /// The last pass's run of `scenario`, its road planned knowing what became
    /// of the stretches its handoffs are sent after: `first` is the run over
    /// the road as written (the only one when no handoff is sent after a
    /// stretch), `plan` plans a road, `run` simulates a plan, `timeline` reads a run's.
    static func resolvingHandoffs<R>(
        _ scenario: Scenario, first: R, plan: (RoadSetup) -> RoadPlan, run: (RoadPlan) -> R, timeline: (R) -> Timeline
    ) -> R {
        guard var road = scenario.road else { return first }
        let named = road.stretchesSentAfter
        guard !named.isEmpty else { return first }
        var last = first
        let roster = timeline(first).roster
        // `Scenario.validate()` found each.
        let indices = named.map { id in roster.stretches.firstIndex { $0.id == id }! }
        // Each pass settles at least one stretch, or records those never over and stops.
        for _ in 0...named.count {
            let fates = timeline(last).fates(of: indices)
            let open = named.indices.filter { road.said[named[$0]] == nil }
            let ends = open.compactMap { i -> SimTime? in if case .over(let t)? = fates[i] { t } else { nil } }
            if let earliest = ends.min() {
                for i in open where fates[i] == .over(earliest) { road.said[named[i]] = .over(earliest) }
            } else {
                let never = open.filter { if case .never? = fates[$0] { true } else { false } }
                guard !never.isEmpty else { break }
                for i in never { road.said[named[i]] = fates[i] }
            }
            last = run(plan(road))
        }
        return last
    }
}
