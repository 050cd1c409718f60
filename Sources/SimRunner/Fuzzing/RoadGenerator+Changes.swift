import Guidance
import Road
import SimClock
import SimRunner

/// Route changes in road fuzzing (docs/fuzzing.md, "Route changes"): a
/// reroute onto another road or a handoff from Pippa, drawn from a stream
/// of their own (`RoadGenerator.changeSalt`), so that every run without a
/// change is the run it was before route changes were drawn.
///
/// The roads never come near the route again: the first branches off the
/// route's first leg (east, at least 150 m before its end) and goes
/// north or south, then west, where no road of the route lies; a second
/// branches off the first's west leg the same way, farther out. The car
/// takes each branch, so it leaves the route there; a handoff is sent by
/// Pippa up to 40 s before the car reaches its branch (or just after), once
/// or twice, maybe naming a saved place (one the phone may not have); a third
/// of them first after one of her stretches instead (`sendAfterStretches`).
extension RoadGenerator {
    /// Mixed into a run's seed for the stream that draws its route changes.
    static let changeSalt: UInt64 = 0x5265_726F_7574_6521
    /// Mixed into a run's seed for the stream that aims at ties of the maps
    /// door (`snapTie`), so that every run it leaves alone is the run it was
    /// before ties were aimed at.
    static let tieSalt: UInt64 = 0x5469_6573_2E4D_6170

    /// The roads drawn, before the drive is: what the drive needs to know.
    struct ChangeRoads {
        /// The changes, their handoffs not yet timed.
        var changes: [Scenario.Road.RouteChange]
        /// Where each change's road begins along the true path, meters.
        var branches: [Double]
        /// The true path's length, meters.
        var length: Double
    }

    /// The roads the car changes onto, or nil when the run keeps its route
    /// (7 runs in 10, and every run whose first leg is too short).
    /// - Parameters:
    ///   - firstLeg: the route's first leg (east from the origin), meters.
    ///   - dense: a vertex every 10 m, as the route has.
    mutating func changeRoads(firstLeg: Double, dense: Bool, projection: LocalProjection) -> ChangeRoads? {
        guard firstLeg >= 190, changeStream.chance(30) else { return nil }
        let side: Double = changeStream.chance(50) ? 1 : -1
        let count = changeStream.chance(20) ? 2 : 1
        var heading = Vector(x: 1, y: 0)
        var branch = Vector(x: Double(changeStream.int(in: 40...Int64(firstLeg - 150))), y: 0)
        var along = branch.x
        var out = ChangeRoads(changes: [], branches: [], length: 0)
        for c in 0..<count {
            let out1 = Double(changeStream.int(in: 150...600))
            let back = Double(changeStream.int(in: c + 1 < count ? 400...800 : 200...700))
            let away = Vector(x: 0, y: side)
            let west = Vector(x: -1, y: 0)
            let corner = branch + away * out1
            let end = corner + west * back
            var plane = [branch]
            func walk(to target: Vector, from origin: Vector) {
                let leg = (target - origin).length
                let step = (target - origin) * (1 / leg)
                if dense {
                    var done = 10.0
                    while done < leg {
                        plane.append(origin + step * done)
                        done += 10
                    }
                }
                plane.append(target)
            }
            walk(to: corner, from: branch)
            walk(to: end, from: corner)
            let id = "c\(c + 1)"
            func turn(from a: Vector, to b: Vector) -> Turn { a.x * b.y - a.y * b.x > 0 ? .left : .right }
            func street() -> String? {
                changeStream.chance(40) ? changeStream.pick(["Teheran-ro", "Yeoksam-ro", "봉은사로", "선릉로"]) : nil
            }
            var maneuvers = [
                Scenario.ManeuverSpec(
                    id: "\(id)m0", point: projection.unproject(branch), turn: turn(from: heading, to: away),
                    street: street()),
                Scenario.ManeuverSpec(
                    id: "\(id)m1", point: projection.unproject(corner), turn: turn(from: away, to: west),
                    street: street()),
            ]
            if changeStream.chance(60) {
                var arrival = Scenario.ManeuverSpec(id: "\(id)m2", point: projection.unproject(end), turn: .arrive)
                if changeStream.chance(50) { arrival.details.side = changeStream.pick(ArrivalSide.allCases) }
                maneuvers.append(arrival)
            }
            out.changes.append(
                Scenario.Road.RouteChange(id: id, points: plane.map(projection.unproject), maneuvers: maneuvers))
            out.branches.append(along)
            if c + 1 < count {
                // The next branch on this road's west leg, 150 m or more from either end.
                let k = Double(changeStream.int(in: 150...Int64(back - 150)))
                along += out1 + k
                branch = corner + west * k
                heading = west
            } else {
                along += out1 + back
            }
        }
        out.length = along
        return out
    }

    /// The changes put on `road`, once the drive is known: each a handoff
    /// (half of them) or a reroute, maybe refused once or twice; the maps
    /// door's times; the saved places; maybe an outage around a branch.
    mutating func addChanges(_ roads: ChangeRoads, to road: inout Scenario.Road, trajectory: Trajectory, span: Int64) {
        let saved = ["집", "회사", "Home"]
        let end = roads.changes.last!.points.last!
        if changeStream.chance(50) { road.places = saved.prefix(2).map { Scenario.Road.Place(name: $0, point: end) } }
        if changeStream.chance(50) {
            let latency = changeStream.int(in: 100...5_000)
            road.maps.latency = SimTime(ms: latency)
            road.maps.timeout = SimTime(ms: latency + changeStream.int(in: 100...10_000))
            road.maps.retry = SimTime(ms: changeStream.int(in: 1_000...15_000))
        }
        road.changes = roads.changes
        for c in road.changes.indices {
            let reaches = trajectory.time(reaching: roads.branches[c])?.ms ?? span
            if changeStream.chance(20) { road.changes[c].refusals = Int(changeStream.int(in: 1...2)) }
            if changeStream.chance(50) {
                let first =
                    changeStream.chance(20)
                    ? reaches + changeStream.int(in: 0...8_000)
                    : max(0, reaches - changeStream.int(in: 0...40_000))
                var sent: [Scenario.Road.Sending] = [.at(SimTime(ms: first))]
                if changeStream.chance(30) { sent.append(.at(SimTime(ms: first + changeStream.int(in: 0...6_000)))) }
                var handoff = Scenario.Road.Handoff(sent: sent)
                if changeStream.chance(25) { handoff.place = changeStream.pick(saved) }
                if changeStream.chance(70) {
                    handoff.destination = road.language == .ko ? "테헤란로 주유소" : "the petrol station on Teheran-ro"
                }
                road.changes[c].handoff = handoff
            }
            if changeStream.chance(40) {
                let from = reaches + changeStream.int(in: -5_000...15_000)
                if from >= 0 {
                    road.link.outages = [
                        SimInterval(SimTime(ms: from), SimTime(ms: from + changeStream.int(in: 1_000...20_000)))
                    ]
                }
            }
        }
    }

    /// Mixed into a run's seed for the stream that draws handoffs sent after a stretch.
    static let sayingSalt: UInt64 = 0x5361_6964_5468_656E

    /// Once the talk is drawn: a third of the handoffs are first sent after
    /// one of Pippa's stretches instead of at a time, when there is one.
    /// From a stream of its own, so every other draw is as it was.
    mutating func sendAfterStretches(_ scenario: inout Scenario) {
        guard var road = scenario.road, road.changes.contains(where: { $0.handoff != nil }) else { return }
        let stretches =
            scenario.replies.flatMap { $0.stretches.map(\.id) }
            + scenario.dad.flatMap { $0.reply?.stretches.map(\.id) ?? [] }
        guard !stretches.isEmpty else { return }
        for c in road.changes.indices where road.changes[c].handoff != nil && sayingStream.chance(33) {
            road.changes[c].handoff!.sent[0] = .after(sayingStream.pick(stretches))
        }
        scenario.road = road
    }

    /// Moves one thing onto an instant of a route change in the dry run
    /// (the road's `plan`); false when there is no such instant to aim at.
    /// - a hand-written line playing across a switch (the old route's
    ///   waiting lines must expire at it);
    /// - Pippa speaking when a route switches (the switch line and the new
    ///   route's first lines wait or cut her);
    /// - an outage beginning while a handoff's acknowledgement is in flight,
    ///   or while a maps request is.
    mutating func snapChange(_ scenario: inout Scenario, plan: RoadPlan) -> Bool {
        guard var road = scenario.road else { return false }
        var switches: [SimTime] = []
        var taken: [SimTime] = []
        var requests: [SimTime] = []
        for event in plan.events {
            switch event.what {
            case .routeSwitched: switches.append(event.t)
            case .handoffTaken: taken.append(event.t)
            case .routeRequested: requests.append(event.t)
            default: continue
            }
        }
        func outage(after sent: [SimTime], within flight: SimTime) -> Bool {
            guard !sent.isEmpty, flight.ms > 0 else { return false }
            let from = changeStream.pick(sent) + SimTime(ms: changeStream.int(in: 1...flight.ms))
            road.link.outages = [SimInterval(from, from + SimTime(ms: changeStream.int(in: 1_000...15_000)))]
            scenario.road = road
            return true
        }
        switch changeStream.below(4) {
        case 0:
            guard !switches.isEmpty else { return false }
            let t = changeStream.pick(switches)
            let before = SimTime(ms: changeStream.int(in: 500...6_000))
            guard t >= before else { return false }
            scenario.guidance.append(
                GuidanceLine(
                    id: "gs", at: t - before, duration: before + SimTime(ms: changeStream.int(in: 500...4_000)),
                    urgent: changeStream.chance(50)))
            return true
        case 1:
            guard !switches.isEmpty else { return false }
            let at = changeStream.pick(switches) - SimTime(ms: changeStream.int(in: 0...2_000))
            guard at >= .zero else { return false }
            scenario.replies.append(
                Scenario.Reply(
                    id: "rs", at: at,
                    stretches: [Scenario.Stretch(id: "ss", duration: SimTime(ms: changeStream.int(in: 1_000...6_000)))])
            )
            return true
        case 2:
            return outage(after: taken, within: road.link.latency)
        default:
            return outage(after: requests, within: road.maps.latency)
        }
    }

    /// Moves one step of the maps door onto the very millisecond of another
    /// in the dry run, so that the order within one instant is what is
    /// tried: a handoff sent to land then, a request answered then
    /// (`maps.latency` from one sent before), an outage beginning or ending
    /// then (refused, when a handoff's), or a failed request's retry due
    /// then (`maps.retry`; a handoff's request refused once when none failed). A handoff or an outage aims
    /// at any step (a handoff delivered, the car leaving the route, an
    /// outage's edge, a request sent, answered or failed); an answer or a
    /// retry at one that does not follow from it (a delivery, the car
    /// leaving the route, an outage's edge). False when there is nothing to
    /// aim at; a move the format refuses is not kept. Drawn from a stream of
    /// its own (`RoadGenerator.tieSalt`).
    mutating func snapTie(_ scenario: inout Scenario, plan: RoadPlan) -> Bool {
        guard var road = scenario.road else { return false }
        var anchors = road.link.outages.flatMap { [$0.start, $0.end] }
        var steps: [SimTime] = []
        var requests: [SimTime] = []
        var failures: [SimTime] = []
        var handoffRequests: [(t: SimTime, change: Int)] = []
        for event in plan.events {
            switch event.what {
            case .handoffDelivered, .offRoute: anchors.append(event.t)
            case .routeSwitched, .routeKept: steps.append(event.t)
            case .routeRequested(_, let c):
                requests.append(event.t)
                if let c { handoffRequests.append((event.t, c)) }
            case .routeFailed: failures.append(event.t)
            default: continue
            }
        }
        let instants = anchors + steps + requests + failures
        /// An anchor from `gap` to `most` ms after `t`, if any.
        func anchor(after t: SimTime, _ gap: Int64, most: Int64) -> SimTime? {
            let later = anchors.filter { ($0 - t).ms >= gap && ($0 - t).ms <= most }
            return later.isEmpty ? nil : tieStream.pick(later)
        }
        switch tieStream.below(4) {
        case 0:
            // One of a handoff's sends lands at an instant (the link up, it flies for the link's latency).
            let handoffs = road.changes.indices.filter { road.changes[$0].handoff != nil }
            let latency = road.link.latency
            let after = instants.filter { $0 >= latency }
            guard !handoffs.isEmpty, !after.isEmpty else { return false }
            let c = tieStream.pick(handoffs)
            // Only a send at a time moves (one after a stretch goes when her words are over); the times stay ascending.
            var sent = road.changes[c].handoff!.sent
            let timed = sent.indices.filter { if case .at = sent[$0] { true } else { false } }
            guard !timed.isEmpty else { return false }
            sent[timed[Int(tieStream.below(UInt64(timed.count)))]] = .at(tieStream.pick(after) - latency)
            let times = timed.compactMap { if case .at(let t) = sent[$0] { t } else { nil } }.sorted()
            for (i, t) in zip(timed, times) { sent[i] = .at(t) }
            road.changes[c].handoff!.sent = sent
        case 1:
            // The first request (the only one the latency does not move) is answered at a later
            // anchor, or refused then when it is a handoff's.
            guard let r = requests.first, let t = anchor(after: r, 100, most: 60_000) else { return false }
            if let c = handoffRequests.first?.change, handoffRequests[0].t == r, tieStream.chance(50) {
                road.changes[c].refusals = max(1, road.changes[c].refusals)
            }
            road.maps.latency = t - r
            road.maps.timeout = max(road.maps.timeout, road.maps.latency + SimTime(ms: tieStream.int(in: 1...5_000)))
        case 2:
            // An outage begins or ends at an instant.
            guard !instants.isEmpty else { return false }
            let t = tieStream.pick(instants)
            let length = SimTime(ms: tieStream.int(in: 1_000...15_000))
            road.link.outages = [
                tieStream.chance(50) || t < length ? SimInterval(t, t + length) : SimInterval(t - length, t)
            ]
        default:
            // A failed request is sent again at a later anchor; with no failure, a handoff's request is refused once.
            var failed = failures
            if failed.isEmpty, !handoffRequests.isEmpty {
                let (r, c) = tieStream.pick(handoffRequests)
                road.changes[c].refusals = max(1, road.changes[c].refusals)
                failed = [r + road.maps.latency]
            }
            guard !failed.isEmpty else { return false }
            let f = tieStream.pick(failed)
            guard let t = anchor(after: f, 1_000, most: 600_000) else { return false }
            road.maps.retry = t - f
        }
        scenario.road = road
        return true
    }
}
