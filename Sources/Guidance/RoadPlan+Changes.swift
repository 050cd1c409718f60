import Road
import SimClock

/// A request to the maps door: for a reroute (`handoff` nil) or for change `handoff`'s handoff.
struct RouteRequest: Equatable {
    /// The change whose handoff it serves; nil for a reroute.
    var handoff: Int?
    /// Why it is asked: the timeline's `reason`.
    var reason: RoadEvent.RouteReason { handoff == nil ? .offRoute : .handoff }
}

/// A route change's step to come: a handoff delivered, a request due, or
/// the outcome of the request in flight.
enum RouteItem {
    /// One of change `change`'s handoff deliveries reaches the phone.
    case delivery(change: Int)
    /// The request waiting is due to be sent, if it is still request `ticket`.
    case due(ticket: Int)
    /// The request in flight failed.
    case failed(RoadEvent.RouteFailure)
    /// The request in flight, sent with the car at `start` along its true
    /// path, is answered: change `change`'s road (nil: the route followed).
    case answer(change: Int?, start: Double)
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

    /// Every handoff delivery, on the agenda: each sent at its time, or when
    /// the stretch it follows was over (`RoadSetup.said`); one whose stretch
    /// was never over is ignored `unsaid` when that was known, and one whose
    /// stretch is not known yet is not sent.
    mutating func scheduleHandoffs() {
        for (c, change) in road.changes.enumerated() {
            for sending in change.handoff?.sent ?? [] {
                let sent: SimTime
                switch sending {
                case .at(let t): sent = t
                case .after(let stretch):
                    switch road.said[stretch] {
                    case .over(let t)?: sent = t
                    case .never(let t)?:
                        add(t, .handoffIgnored(change: c, reason: .unsaid))
                        continue
                    case nil: continue
                    }
                }
                let at = landing(sentAt: sent)
                if at <= RoadPlan.end { agenda.schedule(.delivery(change: c), at: at) }
            }
        }
    }

    /// The car's distance along its true path at `t`.
    func trueDistance(at t: SimTime) -> Double { trajectory?.state(at: t).distance ?? 0 }

    /// The change whose road the car is on at `d` along its true path (nil: the scenario's route).
    func change(at d: Double) -> Int? { truePath.starts.lastIndex { $0 <= d } }

    /// Asks the maps door for a route at `t`. One request is in flight at a
    /// time and one waits, the newest, except that a reroute asked while a
    /// handoff's request waits is dropped (that one is routed from where the
    /// car is too). The one waiting is sent as soon as the door is free and the link up.
    mutating func ask(_ request: RouteRequest, at t: SimTime) {
        if let waiting = pending?.request, waiting.handoff != nil, request.handoff == nil { return }
        wait(request, until: t, now: t)
    }

    /// `request` waits, at `now`, to be sent at `due` (or later: the door busy, the link down).
    mutating func wait(_ request: RouteRequest, until due: SimTime, now: SimTime) {
        tickets += 1
        pending = (request, tickets, due)
        guard inFlight == nil else { return }  // the answer sends it
        sendPending(at: now)
    }

    /// Sends the request waiting at `t` when the link is up then, else puts it on the agenda for when it is.
    mutating func sendPending(at t: SimTime) {
        guard let (request, ticket, due) = pending else { return }
        let s = fault == .mapsThroughOutage ? max(t, due) : linkUp(at: max(t, due))
        guard s == t else {
            if s <= RoadPlan.end { agenda.schedule(.due(ticket: ticket), at: s) }
            return
        }
        pending = nil
        send(request, at: s)
    }

    /// Sends `request` at `s` (the link up): an outage beginning before the
    /// answer lands swallows it (`timeout`, after `maps.timeout`); a refusal
    /// answers after `maps.latency`; else the answer is `change`'s road for
    /// a handoff, and for a reroute the road the car is truly on.
    mutating func send(_ request: RouteRequest, at s: SimTime) {
        let maps = road.maps
        add(s, .routeRequested(reason: request.reason, handoff: request.handoff))
        inFlight = request
        let lands = s + maps.latency
        if fault != .mapsThroughOutage, road.link.outages.contains(where: { $0.start > s && $0.start <= lands }) {
            agenda.schedule(.failed(.timeout), at: s + maps.timeout)
            return
        }
        // A maps service routes from the position the phone sends: its last fix's (the car's, before any fix).
        let start = trueDistance(at: lastUsedTaken.map { min($0, s) } ?? s)
        let target = request.handoff ?? change(at: start)
        if let target, refusalsLeft[target] > 0 {
            refusalsLeft[target] -= 1
            agenda.schedule(.failed(.refused), at: lands)
        } else {
            agenda.schedule(.answer(change: target, start: start), at: lands)
        }
    }

    /// Handles a handoff delivery or a step of the maps door at `t`; true when the route switched.
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
            add(
                fault == .ackThroughOutage ? t + road.link.latency : landing(sentAt: t), .handoffAcknowledged(change: c)
            )
            ask(RouteRequest(handoff: c), at: t)
            return false
        case .due(let ticket):
            if inFlight == nil, pending?.ticket == ticket { sendPending(at: t) }
            return false
        case .failed(let reason):
            guard let request = inFlight else { return false }
            inFlight = nil
            add(t, .routeFailed(reason: reason, request: request.reason, handoff: request.handoff))
            // Sent again `retry` later, unless a request waiting supersedes it.
            if pending == nil || (request.handoff != nil && pending?.request.handoff == nil) {
                wait(request, until: t + road.maps.retry, now: t)
            } else {
                sendPending(at: t)
            }
            return false
        case .answer(let c, let start):
            guard let request = inFlight else { return false }
            inFlight = nil
            defer { sendPending(at: t) }
            // A route already followed, or one the drive has left behind, is kept.
            guard let c, c + 1 > current, start - truePath.starts[c] < truePath.roads[c].length else {
                add(t, .routeKept(request: request.reason, handoff: request.handoff))
                return false
            }
            // A handoff's road answering a reroute, once the app has taken that
            // handoff, is the handoff's route: it says so, and answers the handoff's request too.
            let handoff = road.changes[c].handoff != nil && handoffTaken[c]
            switchRoute(to: c, from: start, at: t, reason: handoff ? .handoff : request.reason)
            // The new route starts where the car was: a reroute waiting is answered by it.
            if pending?.request.handoff == nil || pending?.request.handoff == c { pending = nil }
            return true
        }
    }

    /// Follows change `c`'s road from `start` along the true path, at `t`:
    /// the old route's lines expire, the new route is the true path from
    /// `start` to the road's first point and then the road (the road alone
    /// from `start` when the car is already on it), its maneuvers ahead of
    /// `start` kept; the maneuvers of the true path between `start` and the
    /// branch come with it as copies (`RoadPlan.copyID`), since a maps
    /// service routes from where the phone is. The guidance made for it says the switch.
    mutating func switchRoute(to c: Int, from start: Double, at t: SimTime, reason: RoadEvent.RouteReason) {
        finishRoute(at: t)
        let road = truePath.roads[c]
        let branch = truePath.starts[c]
        let offset = branch - start
        let points =
            offset > 0
            ? truePath.route.points(from: start, to: branch) + road.points.dropFirst()
            : road.points(from: -offset, to: road.length)
        var next = Route(plane: points, projection: route.projection)
        // The true path's maneuvers between where the car was and the branch, on the roads before it.
        var between: [Maneuver] = []
        var at: [Double] = []
        if offset > 0, fault != .trueTurnDropped {
            for k in 0...c {
                let before = truePath.road(k)
                let from = truePath.start(k)
                for m in before.maneuvers
                where from + m.distance > start && truePath.reaches(from + m.distance, on: k)
                    && from + m.distance <= branch + TruePath.slack
                {
                    var copy = m
                    copy.id = RoadPlan.copyID(change: self.road.changes[c].id, maneuver: m.id)
                    between.append(copy)
                    at.append(min(from + m.distance - start, next.length))
                }
            }
        }
        let kept = road.maneuvers.filter { $0.distance + offset > 0 }
        next.place(
            between + kept,
            at: at + kept.map { fault == .oldRouteDistances ? min($0.distance, next.length) : $0.distance + offset })
        current = c + 1
        routeStart = start
        let handoff = self.road.changes[c].handoff
        let change = GuidanceRoute.Change(
            id: self.road.changes[c].id, handoff: reason == .handoff,
            destination: handoff?.destination ?? handoff?.place, at: t)
        follow(next, change: change)
        add(t, .routeSwitched(change: c, reason: reason))
        // Its line, or why none is said: outside Dad's guidance (the guidance is not asked), or it could not end in time.
        guard guiding(t) else {
            add(t, .switchSkipped(change: c, reason: .notGuiding))
            return
        }
        if let line = guidance.lineSwitching(
            to: change.id, handoff: change.handoff, destination: change.destination, at: t), !addLine(line)
        {
            add(t, .switchSkipped(change: c, reason: .notGuiding))
        }
    }
}
