import Guidance
import Road
import SimClock

/// The checks of route changes (docs/timeline.md, road checks), from the
/// timeline and the scenario alone.
extension Invariants {
    /// `route-switch`: after `road.route.switched` onto a change, no
    /// generated line of another route's maneuver starts, and no report or
    /// upcoming turn names one (the old route's lines are never heard after
    /// the switch); one request is in flight at a time; every switch, kept
    /// route or failure answers the request in flight, for what it was asked
    /// (a handoff's answer is its own road, a reroute's never a handoff's),
    /// sent while the link was up, and no outage began between the two (a
    /// request waits while offline, it never succeeds offline).
    /// `ids` are the road's (`RoadTruth.ids`), made here when not given.
    static func checkRouteSwitches(_ scenario: Scenario, _ run: Simulation, ids: ManeuverIDs? = nil) -> [Violation] {
        guard let road = scenario.road else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        let outages = road.link.outages
        var found: [Violation] = []
        /// The followed route, once switched (k: change k − 1's), and the routes that hold each maneuver.
        var followed: Int? = nil
        let ids = ids ?? ManeuverIDs(road)
        var switchedTo = ""
        /// The handoffs taken so far.
        var taken: Set<Int> = []
        var requested: (t: SimTime, reason: RoadEvent.RouteReason, handoff: Int?)? = nil
        func name(_ handoff: Int?) -> String { handoff.map { "handoff \(road.changes[$0].id)" } ?? "a reroute" }
        /// Whether an answer for (`reason`, `handoff`) answers the request in flight.
        func answers(_ reason: RoadEvent.RouteReason, _ handoff: Int?, at t: SimTime) {
            guard let r = requested, r.reason != reason || r.handoff != handoff else { return }
            fire(t, "an answer for \(name(handoff)) came to the request for \(name(r.handoff))")
        }
        func fire(_ t: SimTime, _ message: String) {
            found.append(.init(check: .road(.routeSwitch), t: t, message: message))
        }
        func old(_ id: String) -> Bool { followed.map { ids.route(of: id) != $0 } ?? false }
        for event in timeline.events {
            switch event.what {
            case .road(.handoffTaken(let c)):
                taken.insert(c)
            case .road(.routeRequested(let reason, let handoff)):
                if outages.contains(where: { $0.contains(event.t) }) {
                    fire(event.t, "a route was requested while the link was down")
                }
                if let r = requested {
                    fire(
                        event.t,
                        "a route was requested for \(name(handoff)) while the request for \(name(r.handoff)) was in flight"
                    )
                }
                requested = (event.t, reason, handoff)
            case .road(.routeFailed(_, let reason, let handoff)):
                if requested == nil { fire(event.t, "a route request failed with no request in flight") }
                answers(reason, handoff, at: event.t)
                requested = nil
            case .road(.routeSwitched), .road(.routeKept):
                switch event.what {
                case .road(.routeSwitched(let c, .handoff)):
                    // A reroute may bring a handoff's road once the handoff is taken: it is that handoff's route.
                    if requested?.handoff == nil, taken.contains(c) { break }
                    answers(.handoff, c, at: event.t)
                case .road(.routeSwitched(let c, .offRoute)):
                    answers(.offRoute, nil, at: event.t)
                    if taken.contains(c) {
                        fire(
                            event.t,
                            "handoff \(road.changes[c].id)'s road came in as a reroute, though the handoff was taken")
                    }
                case .road(.routeKept(let reason, let handoff)): answers(reason, handoff, at: event.t)
                default: break
                }
                guard let sent = requested?.t else {
                    fire(event.t, "a route answer came with no request in flight")
                    continue
                }
                requested = nil
                if outages.contains(where: { $0.contains(event.t) || ($0.start > sent && $0.start < event.t) }) {
                    fire(event.t, "a route request sent at \(sent) was answered through an outage")
                }
                if case .road(.routeSwitched(let c, _)) = event.what {
                    followed = c + 1
                    switchedTo = road.changes[c].id
                }
            case .guidanceStarted(let l) where l.int >= scenario.guidance.count:
                if let m = roster.lines[l.int].maneuver, m != "reroute", old(m) {
                    fire(
                        event.t,
                        "line \(roster.lines[l.int].id) of an old route started after the switch to \(switchedTo)")
                }
            case .road(.reportSent(_, _, _, let next?)):
                let id = roster.road.maneuvers[next.maneuver.int].id
                if old(id) {
                    fire(event.t, "a report after the switch to \(switchedTo) names \(id), a maneuver of an old route")
                }
            case .road(.turnUpcoming(let next, _, _)):
                let id = roster.road.maneuvers[next.maneuver.int].id
                if old(id) {
                    fire(event.t, "the upcoming turn after the switch to \(switchedTo) is \(id), of an old route")
                }
            default: continue
            }
        }
        return found
    }

    /// How long a switch line may need to be said: a switch closer than
    /// this to the end of its guidance segment (or of the drive) may go
    /// unsaid (drivesim's own line is valid for 10 s).
    package static let switchLineRoom = SimTime(ms: 10_000)

    /// `switch-line`: every `road.route.switched` gets one switch line
    /// (`<change>.switched`) requested in its instant, or a
    /// `road.switch.skipped` there whose reason the truth confirms:
    /// `not-guiding` only outside Dad's guidance segments or within
    /// `switchLineRoom` of a segment's or the drive's end. Outside the
    /// segments a switch leaves one or the other (the guidance is not asked
    /// there); near an end a guidance may also say nothing. The line is
    /// urgent, in the scenario's language, and names what the switch is for:
    /// after a handoff its `destination` (else its `place`) when it has one,
    /// and never another change's; after a reroute, none. No switch line nor
    /// skip without its switch.
    static func checkSwitchLines(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        guard let road = scenario.road, !road.changes.isEmpty else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        /// What each change's handoff is called, if anything.
        let names = road.changes.map { c in c.handoff.flatMap { $0.destination ?? $0.place } }
        let ids = road.changes.map { RoadPlan.switchLineID(change: $0.id) }
        let byID = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [Violation] = []
        func fire(_ t: SimTime, _ message: String) {
            found.append(.init(check: .road(.switchLine), t: t, message: message))
        }
        var switches: [(t: SimTime, change: Int, reason: RoadEvent.RouteReason)] = []
        var said: [(t: SimTime, change: Int, line: Int)] = []
        var skipped: [(t: SimTime, change: Int, reason: SkipReason)] = []
        for event in timeline.events {
            switch event.what {
            case .road(.routeSwitched(let c, let reason)): switches.append((event.t, c, reason))
            case .road(.switchSkipped(let c, let reason)): skipped.append((event.t, c, reason))
            case .guidanceRequested(let l) where l.int >= scenario.guidance.count:
                if let c = byID[roster.lines[l.int].id] { said.append((event.t, c, l.int)) }
            default: continue
            }
        }
        for line in said where !switches.contains(where: { $0.t == line.t && $0.change == line.change }) {
            fire(
                line.t,
                "switch line \(ids[line.change]) was requested with no switch onto \(road.changes[line.change].id) in its instant"
            )
        }
        for skip in skipped where !switches.contains(where: { $0.t == skip.t && $0.change == skip.change }) {
            fire(
                skip.t,
                "switch line \(ids[skip.change]) was skipped with no switch onto \(road.changes[skip.change].id) in its instant"
            )
        }
        for s in switches {
            let onto = road.changes[s.change].id
            let lines = said.filter { $0.t == s.t && $0.change == s.change }
            let skip = skipped.first { $0.t == s.t && $0.change == s.change }
            // The truth: Dad's guidance segment holding the switch, if any, and whether it leaves room for the line.
            let segment = road.segments.map { $0.first { $0.contains(s.t) } } ?? SimInterval(.zero, RoadPlan.end)
            let room = segment.map { s.t + switchLineRoom <= min($0.end, RoadPlan.end) } ?? false
            if let skip {
                let why =
                    skip.reason != .notGuiding
                    ? "a switch line is skipped only [not-guiding]"
                    : !lines.isEmpty
                        ? "its line was requested too"
                        : room ? "Dad's guidance segment holds the switch with room for its line" : nil
                if let why { fire(s.t, "the switch onto \(onto) was skipped [\(skip.reason.rawValue)], but \(why)") }
            }
            guard let first = lines.first else {
                if skip == nil, room {
                    fire(s.t, "the switch onto \(onto) inside a guidance segment got no switch line")
                }
                if skip == nil, segment == nil {
                    fire(
                        s.t,
                        "the switch onto \(onto) outside Dad's guidance segments left no trace: no switch line, no road.switch.skipped"
                    )
                }
                continue
            }
            if lines.count > 1 { fire(s.t, "the switch onto \(onto) got \(lines.count) switch lines") }
            let line = roster.lines[first.line]
            let id = line.id
            if !line.urgent { fire(s.t, "switch line \(id) is not urgent") }
            if line.language != road.guidance.language {
                fire(
                    s.t,
                    "switch line \(id) is in \(line.language?.rawValue ?? "no language"), the scenario's guidance in \(road.guidance.language.rawValue)"
                )
            }
            let own = s.reason == .handoff ? names[s.change] : nil
            let text = line.text ?? ""
            if let own, !says(text, own) {
                fire(
                    s.t,
                    "switch line \(id) after the handoff \(road.changes[s.change].id) does not name its destination \"\(own)\""
                )
            }
            for (k, name) in names.enumerated() {
                guard let name, name != own, own.map({ says($0, name) }) != true, says(text, name) else { continue }
                let what = s.reason == .handoff ? "the handoff \(road.changes[s.change].id)" : "a reroute"
                fire(s.t, "switch line \(id) after \(what) names \"\(name)\", \(road.changes[k].id)'s destination")
                break
            }
        }
        return found
    }

    /// `handoff`: a handoff is delivered over the link (never while it is
    /// down, never before Pippa sent it), each delivery taken or ignored with
    /// a reason in its instant, taken at most once, and acknowledged at most
    /// once, after it was taken, over the link (never through an outage).
    /// One sent after a stretch is sent when the timeline shows that stretch
    /// over, as the road's plan took it (`RoadPlan.said`), and never when it
    /// shows it never over: then the timeline says so, `unsaid`, in the
    /// instant it was known.
    static func checkHandoffs(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        guard let road = scenario.road, road.changes.contains(where: { $0.handoff != nil }) else { return [] }
        let outages = road.link.outages
        var found: [Violation] = []
        var taken = [SimTime?](repeating: nil, count: road.changes.count)
        var acked = [Bool](repeating: false, count: road.changes.count)
        /// The delivery not yet taken or ignored: its handoff and instant.
        var pending: (change: Int, t: SimTime)? = nil
        func fire(_ t: SimTime, _ message: String) {
            found.append(.init(check: .road(.handoff), t: t, message: message))
        }
        func settle(_ t: SimTime) {
            if let p = pending {
                fire(p.t, "handoff \(road.changes[p.change].id) was delivered but neither taken nor ignored")
            }
            pending = nil
        }
        // What became of each stretch a handoff is sent after, by the timeline, against what the plan took.
        let roster = run.timeline.roster
        let named = road.stretchesSentAfter.compactMap { id in
            roster.stretches.firstIndex { $0.id == id }.map { (id, $0) }
        }
        var fate: [String: RoadSetup.Said] = [:]
        for ((id, _), said) in zip(named, run.timeline.fates(of: named.map(\.1))) {
            guard let said else { continue }  // the run stopped before the timeline could tell
            fate[id] = said
            let took = roster.road.said[id]
            guard took != said else { continue }
            func words(_ said: RoadSetup.Said?) -> String {
                switch said {
                case .over(let t)?: return "over at \(t)"
                case .never(let t)?: return "never over (known at \(t))"
                case nil: return "not known"
                }
            }
            let t: SimTime
            switch said {
            case .over(let at), .never(let at): t = at
            }
            fire(
                t,
                "stretch \(id), which a handoff is sent after, was \(words(said)), but the road took it as \(words(took))"
            )
        }
        /// Per change, when Pippa first sent its handoff, if she did; and each `unsaid` the timeline must show.
        var first = [SimTime?](repeating: nil, count: road.changes.count)
        var unsaid: [(change: Int, t: SimTime)] = []
        for (c, change) in road.changes.enumerated() {
            for sending in change.handoff?.sent ?? [] {
                switch sending {
                case .at(let t): first[c] = min(first[c] ?? t, t)
                case .after(let id):
                    switch fate[id] {
                    case .over(let t)?: first[c] = min(first[c] ?? t, t)
                    case .never(let t)? where t <= RoadPlan.end: unsaid.append((c, t))
                    default: continue
                    }
                }
            }
        }
        for event in run.timeline.events {
            if let p = pending, event.t > p.t { settle(event.t) }
            switch event.what {
            case .road(.handoffDelivered(let c)):
                settle(event.t)
                let id = road.changes[c].id
                if outages.contains(where: { $0.contains(event.t) }) {
                    fire(event.t, "handoff \(id) was delivered while the link was down")
                }
                if let first = first[c] {
                    if event.t < first { fire(event.t, "handoff \(id) was delivered before Pippa sent it at \(first)") }
                } else {
                    fire(event.t, "handoff \(id) was delivered, but Pippa never sent it")
                }
                pending = (c, event.t)
            case .road(.handoffTaken(let c)):
                let id = road.changes[c].id
                if pending?.change != c { fire(event.t, "handoff \(id) was taken without a delivery") }
                pending = nil
                if taken[c] != nil { fire(event.t, "handoff \(id) was taken twice") }
                taken[c] = taken[c] ?? event.t
            case .road(.handoffIgnored(let c, .unsaid)):
                if let i = unsaid.firstIndex(where: { $0.change == c && $0.t == event.t }) {
                    unsaid.remove(at: i)
                } else {
                    fire(
                        event.t,
                        "handoff \(road.changes[c].id) was ignored unsaid, but no stretch it is sent after was known then never to be over"
                    )
                }
            case .road(.handoffIgnored(let c, _)):
                if pending?.change != c {
                    fire(event.t, "handoff \(road.changes[c].id) was ignored without a delivery")
                }
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
                let latency = road.link.latency
                let sent = event.t - latency
                if event.t < since + latency {
                    fire(
                        event.t,
                        "handoff \(id)'s acknowledgement landed sooner than the link's latency after it was taken")
                } else if outages.contains(where: { $0.start <= event.t && $0.end > sent }) {
                    fire(event.t, "handoff \(id)'s acknowledgement landed through an outage")
                }
            default: continue
            }
        }
        settle(.zero)
        for (c, t) in unsaid {
            fire(
                t,
                "handoff \(road.changes[c].id) is sent after a stretch never over (known at \(t)), but the timeline does not say so (road.handoff.ignored unsaid)"
            )
        }
        return found
    }
}
