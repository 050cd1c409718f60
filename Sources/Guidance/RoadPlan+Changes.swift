import Road
import SimClock

/// A route change's step to come: a handoff delivered, or a maps answer.
enum RouteItem {
    /// One of change `change`'s handoff deliveries reaches the phone.
    case delivery(change: Int)
    /// A request that waited for the maps door to be free is sent.
    case request(reason: RoadEvent.RouteReason, change: Int?)
    /// The maps door answers a request sent with the car at `start` along its
    /// true path: change `change`'s road (nil: the scenario's route).
    case answer(change: Int?, start: Double, reason: RoadEvent.RouteReason)
}

/// Route changes (docs/road.md, "Route changes"): the maps door, Pippa's
/// handoffs and the switch onto a new route.
extension RoadPlanner {
    /// The first instant at or after `t` at which the link is up.
    func linkUp(at t: SimTime) -> SimTime {
        var t = t
        while let outage = road.link.outages.first(where: { $0.contains(t) }) { t = outage.end }
        return t
    }

    /// When something sent over the link at `t` lands on the other side: it
    /// waits while the link is down, and is sent again at an outage's end when
    /// one begins before it lands (a handoff waits on Pippa's side).
    func landing(sentAt t: SimTime) -> SimTime {
        var s = linkUp(at: t)
        while let outage = road.link.outages.first(where: { $0.start > s && $0.start <= s + road.link.latency }) {
            s = linkUp(at: outage.start)
        }
        return s + road.link.latency
    }

    /// Every handoff delivery, on the agenda.
    mutating func scheduleHandoffs() {
        for (c, change) in road.changes.enumerated() {
            for sent in change.handoff?.sent ?? [] {
                let at = landing(sentAt: sent)
                if at <= RoadPlan.end { agenda.schedule(.delivery(change: c), at: at) }
            }
        }
    }

    /// The car's distance along its true path at `t`.
    func trueDistance(at t: SimTime) -> Double { trajectory?.state(at: t).distance ?? 0 }

    /// The change whose road the car is on at `d` along its true path (nil: the scenario's route).
    func change(at d: Double) -> Int? { truePath.starts.lastIndex { $0 <= d } }

    /// Asks the maps door for a route from `t` (once it is free): sent when
    /// the link is up; an outage beginning before the answer lands swallows it
    /// (`timeout`, after `maps.timeout`); a refusal answers after
    /// `maps.latency`; either is sent again `maps.retry` later. The answer is
    /// `change`'s road for a handoff, else the road the car is truly on.
    /// A request made while another is in flight waits for its answer (on the
    /// agenda, after it).
    mutating func requestRoute(at t0: SimTime, reason: RoadEvent.RouteReason, change handoff: Int?) {
        guard t0 >= requestFree else {
            if requestFree <= RoadPlan.end { agenda.schedule(.request(reason: reason, change: handoff), at: requestFree) }
            return
        }
        let maps = road.maps
        var t = t0
        while t <= RoadPlan.end {
            let s = fault == .mapsThroughOutage ? t : linkUp(at: t)
            guard s <= RoadPlan.end else { break }
            add(s, .routeRequested(reason: reason))
            let lands = s + maps.latency
            if fault != .mapsThroughOutage, road.link.outages.contains(where: { $0.start > s && $0.start <= lands }) {
                add(s + maps.timeout, .routeFailed(reason: .timeout))
                t = s + maps.timeout + maps.retry
                continue
            }
            let start = trueDistance(at: s)
            let target = handoff ?? change(at: start)
            if let target, refusalsLeft[target] > 0 {
                refusalsLeft[target] -= 1
                add(lands, .routeFailed(reason: .refused))
                t = lands + maps.retry
                continue
            }
            requestFree = lands
            if lands <= RoadPlan.end { agenda.schedule(.answer(change: target, start: start, reason: reason), at: lands) }
            return
        }
        requestFree = RoadPlan.end + SimTime(ms: 1)
    }

    /// Handles a handoff delivery or a maps answer at `t`; true when the route switched.
    mutating func handle(_ item: RouteItem, at t: SimTime) -> Bool {
        switch item {
        case .delivery(let c):
            add(t, .handoffDelivered(change: c))
            if handoffTaken[c] && fault != .handoffTakenTwice {
                add(t, .handoffIgnored(change: c, reason: .duplicate))
                return false
            }
            // The phone resolves a saved place from its own list, offline or not.
            if let place = road.changes[c].handoff?.place, !road.places.contains(where: { $0.name == place }) {
                add(t, .handoffIgnored(change: c, reason: .unknownPlace))
                return false
            }
            handoffTaken[c] = true
            add(t, .handoffTaken(change: c))
            add(fault == .ackThroughOutage ? t + road.link.latency : landing(sentAt: t), .handoffAcknowledged(change: c))
            requestRoute(at: t, reason: .handoff, change: c)
            return false
        case .request(let reason, let c):
            requestRoute(at: t, reason: reason, change: c)
            return false
        case .answer(let c, let start, let reason):
            // A route already followed, or one the drive has left behind, is kept.
            guard let c, c + 1 > current, start - truePath.starts[c] < truePath.roads[c].length else {
                add(t, .routeKept)
                return false
            }
            switchRoute(to: c, from: start, at: t, reason: reason)
            return true
        }
    }

    /// Follows change `c`'s road from `start` along the true path, at `t`:
    /// the old route's lines expire, the new route is the true path from
    /// `start` to the road's first point and then the road (the road alone
    /// from `start` when the car is already on it), its maneuvers ahead of
    /// `start` kept, and the guidance made for it says the switch.
    mutating func switchRoute(to c: Int, from start: Double, at t: SimTime, reason: RoadEvent.RouteReason) {
        finishRoute(at: t)
        let road = truePath.roads[c], branch = truePath.starts[c]
        let offset = branch - start
        let points = offset > 0
            ? truePath.route.points(from: start, to: branch) + road.points.dropFirst()
            : road.points(from: -offset, to: road.length)
        var next = Route(plane: points, projection: route.projection)
        let kept = road.maneuvers.filter { $0.distance + offset > 0 }
        next.place(kept, at: kept.map { fault == .oldRouteDistances ? min($0.distance, next.length) : $0.distance + offset })
        current = c + 1
        routeStart = start
        let handoff = self.road.changes[c].handoff
        let change = GuidanceRoute.Change(
            id: self.road.changes[c].id, handoff: reason == .handoff, destination: handoff?.destination ?? handoff?.place, at: t)
        follow(next, change: change)
        add(t, .routeSwitched(change: c, reason: reason))
        if guiding(t), let line = guidance.lineSwitching(to: change.id, handoff: change.handoff, destination: change.destination, at: t) {
            addLine(line)
        }
    }
}
