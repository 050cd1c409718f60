import Guidance
import Road
import SimClock

/// The checks of route changes (docs/timeline.md, road checks), from the
/// timeline and the scenario alone.
extension Invariants {
    /// `route-switch`: after `road.route.switched` onto a change, no
    /// generated line of another route's maneuver starts, and no report or
    /// upcoming turn names one (the old route's lines are never heard after
    /// the switch); every switch or kept route answers a request sent while
    /// the link was up, and no outage began between the two (a request
    /// waits while offline, it never succeeds offline).
    static func checkRouteSwitches(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        guard let road = scenario.road, !road.changes.isEmpty else { return [] }
        let timeline = run.timeline, roster = timeline.roster
        let outages = road.link.outages
        var found: [Violation] = []
        /// The followed route's maneuver ids, once switched.
        var followed: Set<String>? = nil
        var switchedTo = ""
        var requested: SimTime? = nil
        func fire(_ t: SimTime, _ message: String) { found.append(.init(check: .road(.routeSwitch), t: t, message: message)) }
        func old(_ id: String) -> Bool { followed.map { !$0.contains(id) } ?? false }
        for event in timeline.events {
            switch event.what {
            case .road(.routeRequested):
                if outages.contains(where: { $0.contains(event.t) }) { fire(event.t, "a route was requested while the link was down") }
                requested = event.t
            case .road(.routeFailed):
                requested = nil
            case .road(.routeSwitched), .road(.routeKept):
                guard let sent = requested else {
                    fire(event.t, "a route answer came with no request in flight")
                    continue
                }
                requested = nil
                if outages.contains(where: { $0.contains(event.t) || ($0.start > sent && $0.start < event.t) }) {
                    fire(event.t, "a route request sent at \(sent) was answered through an outage")
                }
                if case .road(.routeSwitched(let c, _)) = event.what {
                    followed = Set(road.changes[c].maneuvers.map(\.id))
                    switchedTo = road.changes[c].id
                }
            case .guidanceStarted(let l) where l.int >= scenario.guidance.count:
                if let m = roster.lines[l.int].maneuver, m != "reroute", old(m) {
                    fire(event.t, "line \(roster.lines[l.int].id) of an old route started after the switch to \(switchedTo)")
                }
            case .road(.reportSent(_, _, _, let next?)):
                let id = roster.road.maneuvers[next.maneuver.int].id
                if old(id) { fire(event.t, "a report after the switch to \(switchedTo) names \(id), a maneuver of an old route") }
            case .road(.turnUpcoming(let next, _, _)):
                let id = roster.road.maneuvers[next.maneuver.int].id
                if old(id) { fire(event.t, "the upcoming turn after the switch to \(switchedTo) is \(id), of an old route") }
            default: continue
            }
        }
        return found
    }

    /// `handoff`: a handoff is delivered over the link (never while it is
    /// down, never before Pippa sent it), each delivery taken or ignored with
    /// a reason in its instant, taken at most once, and acknowledged at most
    /// once, after it was taken, over the link (never through an outage).
    static func checkHandoffs(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        guard let road = scenario.road, road.changes.contains(where: { $0.handoff != nil }) else { return [] }
        let outages = road.link.outages
        var found: [Violation] = []
        var taken = [SimTime?](repeating: nil, count: road.changes.count)
        var acked = [Bool](repeating: false, count: road.changes.count)
        /// The delivery not yet taken or ignored: its handoff and instant.
        var pending: (change: Int, t: SimTime)? = nil
        func fire(_ t: SimTime, _ message: String) { found.append(.init(check: .road(.handoff), t: t, message: message)) }
        func settle(_ t: SimTime) {
            if let p = pending { fire(p.t, "handoff \(road.changes[p.change].id) was delivered but neither taken nor ignored") }
            pending = nil
        }
        for event in run.timeline.events {
            if let p = pending, event.t > p.t { settle(event.t) }
            switch event.what {
            case .road(.handoffDelivered(let c)):
                settle(event.t)
                let id = road.changes[c].id
                if outages.contains(where: { $0.contains(event.t) }) { fire(event.t, "handoff \(id) was delivered while the link was down") }
                if let first = road.changes[c].handoff?.sent.first, event.t < first {
                    fire(event.t, "handoff \(id) was delivered before Pippa sent it at \(first)")
                }
                pending = (c, event.t)
            case .road(.handoffTaken(let c)):
                let id = road.changes[c].id
                if pending?.change != c { fire(event.t, "handoff \(id) was taken without a delivery") }
                pending = nil
                if taken[c] != nil { fire(event.t, "handoff \(id) was taken twice") }
                taken[c] = taken[c] ?? event.t
            case .road(.handoffIgnored(let c, _)):
                if pending?.change != c { fire(event.t, "handoff \(road.changes[c].id) was ignored without a delivery") }
                pending = nil
            case .road(.handoffAcknowledged(let c)):
                let id = road.changes[c].id
                guard let since = taken[c] else {
                    fire(event.t, "handoff \(id) was acknowledged before it was taken")
                    continue
                }
                if acked[c] { fire(event.t, "handoff \(id) was acknowledged twice") }
                acked[c] = true
                // It flies for the link's latency from its last sending (at the taking, or at an outage's end).
                let latency = road.link.latency, sent = event.t - latency
                if event.t < since + latency {
                    fire(event.t, "handoff \(id)'s acknowledgement landed sooner than the link's latency after it was taken")
                } else if outages.contains(where: { $0.start <= event.t && $0.end > sent }) {
                    fire(event.t, "handoff \(id)'s acknowledgement landed through an outage")
                }
            default: continue
            }
        }
        settle(.zero)
        return found
    }
}
