import Guidance
import Road
import SimClock

/// The road planned as one pure pass before the talk runs (the road never
/// depends on the talk): the drive, its fixes in arrival order, the follower,
/// the location link and the guidance produce the road's timeline records
/// and the generated guidance lines. `Simulation` puts the records on the
/// queue and appends the lines to the line table, so the arbiter sees them
/// exactly like hand-written ones.
public struct RoadPlan: Sendable {
    /// Road events, in the order they happen (time, then completions first).
    public var records: [RoadRecord] = []
    /// The generated lines, by request time.
    public var lines: [GuidanceLine] = []
    /// Each generated line's stage (nil for reroute lines).
    public var stages: [Stage?] = []
    public var maneuvers: [Maneuver] = []
    /// How many fixes the receiver took (including ones never delivered).
    public var fixCount = 0

    /// No road.
    public static let empty = RoadPlan()

    /// Plans the road of a scenario (empty when it has none).
    public init(_ scenario: Scenario) {
        guard let road = scenario.road else { return }
        var planner = RoadPlanner(road)
        planner.run()
        self = planner.plan
    }

    init() {}
}

/// The planning pass.
struct RoadPlanner {
    let road: Scenario.Road
    let route: Route
    let trajectory: Trajectory?
    var plan = RoadPlan()
    var follower: RouteFollower
    var link: LocationLink
    var announcer: Announcer
    var announcements: [Announcement] = []
    /// Spans in which the guidance said nothing, and why.
    var silences: [(from: SimTime, to: SimTime, reason: String)] = []
    /// The believed pass time of each maneuver.
    var believedPass: [SimTime?]
    /// Truth (or best estimate) of when the car passed each maneuver.
    var truePass: [SimTime?]
    /// Completions at an instant come before arrivals: (rank, sequence) order within a millisecond.
    var ranks: [UInt8] = []
    var upcoming = -1
    /// The first maneuver beyond the follower's progress (progress never goes back).
    var ahead = 0

    /// The next maneuver by the follower's progress, if any.
    mutating func nextManeuver() -> Int? {
        while ahead < route.maneuvers.count, route.maneuvers[ahead].distance <= follower.progress { ahead += 1 }
        return ahead < route.maneuvers.count ? ahead : nil
    }

    init(_ road: Scenario.Road) {
        self.road = road
        var route = try! Route(points: road.points)  // the decoder checked it
        try! route.place(road.maneuvers.map { ($0.point, Maneuver(id: $0.id, turn: $0.turn, street: $0.street, details: $0.details)) })
        self.route = route
        trajectory = road.drive.map { Trajectory(profile: $0.profile, length: route.length, start: $0.start) }
        follower = RouteFollower(settings: road.follow)
        link = road.link
        announcer = Announcer(settings: road.guidance, maneuvers: route.maneuvers)
        believedPass = Array(repeating: nil, count: route.maneuvers.count)
        truePass = Array(repeating: nil, count: route.maneuvers.count)
        plan.maneuvers = route.maneuvers
    }

    func measuring(_ t: SimTime) -> Bool { !road.background.holds(t) || guiding(t) }
    func guiding(_ t: SimTime) -> Bool { road.segments?.holds(t) ?? true }

    mutating func add(_ record: RoadRecord, rank: UInt8 = 1) {
        plan.records.append(record)
        ranks.append(rank)
    }

    mutating func run() {
        let fixes = makeFixes().sorted { ($0.arrives, $0.index) < ($1.arrives, $1.index) }
        appRecords(until: fixes.last?.arrives ?? .zero)
        var cursor = fixes.first?.arrives ?? .zero
        var state: RoadState? = nil
        for fix in fixes {
            guide(state, from: &cursor, until: fix.arrives)
            state = take(fix) ?? state
        }
        if let state { guide(state, from: &cursor, until: state.taken + road.horizon + SimTime(ms: 1)) }
        passes()
        // Stable order: time, then completions (rank 0) before the rest.
        let order = plan.records.indices.sorted {
            (plan.records[$0].t, ranks[$0], $0) < (plan.records[$1].t, ranks[$1], $1)
        }
        plan.records = order.map { plan.records[$0] }
        let lineOrder = plan.lines.indices.sorted { (plan.lines[$0].at, $0) < (plan.lines[$1].at, $1) }
        plan.lines = lineOrder.map { plan.lines[$0] }
        plan.stages = lineOrder.map { plan.stages[$0] }
    }

    /// The fixes the app measures, generated or recorded.
    mutating func makeFixes() -> [Fix] {
        switch road.fixes {
        case .generated(let generator):
            guard let trajectory, let drive = road.drive else { return [] }
            let fixes = generator.fixes(
                along: route, trajectory: trajectory, measuring: measuring,
                detour: { t in drive.detours.first { $0.window.contains(t) }?.offset ?? 0 })
            plan.fixCount = (fixes.last?.index ?? -1) + 1
            return fixes
        case .recorded(let list):
            plan.fixCount = list.count
            return list.enumerated().compactMap { i, r in
                measuring(r.taken)
                    ? Fix(index: i, taken: r.taken, arrives: r.arrives, position: route.projection.project(r.point),
                          accuracy: r.accuracy, speed: r.speed)
                    : nil
            }
        }
    }

    /// Measuring paused and resumed (background outside a segment), segments started and ended.
    mutating func appRecords(until end: SimTime) {
        var edges = road.background.flatMap { [$0.from, $0.to] } + (road.segments ?? []).flatMap { [$0.from, $0.to] }
        edges.append(.zero)
        edges.sort()
        var measured = true
        for t in edges {
            let now = measuring(t)
            if now != measured {
                var record = RoadRecord(t: t, kind: now ? .roadMeasuringResumed : .roadMeasuringPaused)
                if !now { record.reason = "background" }
                add(record)
                measured = now
            }
        }
        for segment in road.segments ?? [] {
            add(RoadRecord(t: segment.from, kind: .roadSegmentStarted))
            add(RoadRecord(t: segment.to, kind: .roadSegmentEnded), rank: 0)
        }
    }

    /// Lets the guidance speak over `[cursor, until)`, as far as it can.
    mutating func guide(_ state: RoadState?, from cursor: inout SimTime, until: SimTime) {
        guard cursor < until else { return }
        defer { cursor = until }
        guard let state else { silences.append((cursor, until, "no-fix")); return }
        if follower.offRoute { silences.append((cursor, until, "off-route")); return }
        if !guiding(cursor) { silences.append((cursor, until, "not-guiding")); return }
        let end = min(until, state.taken + road.horizon)
        if end < until { silences.append((max(cursor, end), until, "no-fix")) }
        guard cursor < end else { return }
        announcements.removeAll(keepingCapacity: true)
        announcer.announce(state, from: cursor, until: end, into: &announcements)
        for announcement in announcements {
            switch announcement {
            case .line(let line, _, let stage):
                plan.lines.append(line)
                plan.stages.append(stage)
            case .skipped(let m, let stage, let reason, let t):
                var record = RoadRecord(t: t, kind: .roadStageSkipped)
                record.maneuver = Int32(m); record.stage = stage; record.reason = reason.rawValue
                add(record)
            case .passed(let m, let t):
                believedPass[m] = t
            }
        }
    }

    /// Handles one fix as it arrives; returns the new road state if it moved the car.
    mutating func take(_ fix: Fix) -> RoadState? {
        let t = fix.arrives
        var arrived = RoadRecord(t: t, kind: .roadFixArrived)
        arrived.fix = Int32(fix.index); arrived.ms = (t - fix.taken).ms
        arrived.flag = fix.accuracy <= road.follow.accuracyLimit
        add(arrived)
        var state: RoadState? = nil
        switch follower.accepts(fix) {
        case nil, false?:
            var dropped = RoadRecord(t: t, kind: .roadFixDropped)
            dropped.fix = Int32(fix.index)
            dropped.reason = follower.accepts(fix) == nil ? "out-of-order" : "inaccurate"
            add(dropped)
        case true?:
            let before = follower.progress
            switch follower.observe(fix, on: route) {
            case .none: break
            case .leftRoute(let offset):
                var record = RoadRecord(t: t, kind: .roadOffRoute)
                record.meters = Int64(offset.rounded(.down))
                add(record)
                if guiding(t) { addLine(announcer.offRouteLine(at: t)) }
            case .rejoined:
                var record = RoadRecord(t: t, kind: .roadOnRoute)
                record.meters = Int64(follower.progress.rounded(.down))
                add(record)
                if guiding(t) { addLine(announcer.recalculatedLine(at: t)) }
            }
            if trajectory == nil { estimatePasses(from: before, taken: fix.taken) }
            state = RoadState(progress: follower.progress, taken: fix.taken, speed: follower.speed)
            upcomingRecord(at: t)
        }
        report(fix)
        return state
    }

    mutating func addLine(_ line: GuidanceLine) {
        plan.lines.append(line)
        plan.stages.append(nil)
    }

    /// With recorded fixes there is no other truth: a maneuver is passed
    /// when the matched progress crosses it, interpolated between fix times.
    mutating func estimatePasses(from before: Double, taken: SimTime) {
        guard let previous = lastTaken else { lastTaken = taken; return }
        defer { lastTaken = taken }
        let after = follower.progress
        guard after > before else { return }
        for (m, maneuver) in route.maneuvers.enumerated() where truePass[m] == nil && maneuver.distance <= after {
            let u = max(0, (maneuver.distance - before) / (after - before))
            truePass[m] = previous + SimTime(ms: Int64((u * Double((taken - previous).ms)).rounded(.up)))
        }
    }
    var lastTaken: SimTime? = nil

    /// `road.turn.upcoming` when the next maneuver changes.
    mutating func upcomingRecord(at t: SimTime) {
        let progress = follower.progress
        guard let m = nextManeuver(), m != upcoming else { return }
        upcoming = m
        var record = RoadRecord(t: t, kind: .roadTurnUpcoming)
        record.maneuver = Int32(m)
        let left = route.maneuvers[m].distance - progress
        record.meters = Int64(left.rounded(.down))
        record.ms = follower.speed > 0.5 ? Int64((left / follower.speed * 1000).rounded(.down)) : -1
        if m + 1 < route.maneuvers.count {
            record.after = Int32(m + 1)
            record.meters2 = Int64((route.maneuvers[m + 1].distance - progress).rounded(.down))
        }
        add(record)
    }

    /// Offers the fix's report, with the navigation report beside it.
    mutating func report(_ fix: Fix) {
        let t = fix.arrives
        switch link.offer(taken: fix.taken, at: t) {
        case .dropped(let reason):
            var record = RoadRecord(t: t, kind: .roadReportDropped)
            record.fix = Int32(fix.index); record.reason = reason.rawValue
            add(record)
        case .sent(let delivered):
            var record = RoadRecord(t: t, kind: .roadReportSent)
            record.fix = Int32(fix.index); record.ms = (t - fix.taken).ms
            record.flag = !follower.offRoute
            if let m = nextManeuver() {
                record.maneuver = Int32(m)
                record.meters = Int64((route.maneuvers[m].distance - follower.progress).rounded(.down))
            }
            add(record)
            var landed = RoadRecord(t: delivered, kind: .roadReportDelivered)
            landed.fix = Int32(fix.index)
            add(landed, rank: 0)
        }
    }

    /// `road.turn.passed` for each maneuver the car reached, and
    /// `road.turn.unannounced` with the reason when it got no "now" line.
    mutating func passes() {
        for (m, maneuver) in route.maneuvers.enumerated() {
            let pass = trajectory.flatMap { $0.time(reaching: maneuver.distance) } ?? truePass[m]
            guard let pass else { continue }
            var passed = RoadRecord(t: pass, kind: .roadTurnPassed)
            passed.maneuver = Int32(m)
            add(passed, rank: 0)
            guard !announcer.nowSpoken[m] else { continue }
            let believed = believedPass[m] ?? pass
            let since = SimTime(ms: min(pass.ms, believed.ms) - 10_000)
            let silence = silences.last { $0.from < max(pass, believed) && $0.to > since }
            var record = RoadRecord(t: pass, kind: .roadTurnUnannounced)
            record.maneuver = Int32(m)
            record.reason = silence?.reason ?? "late"
            add(record, rank: 0)
        }
    }
}
