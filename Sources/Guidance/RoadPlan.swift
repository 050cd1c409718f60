import Road
import SimClock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The road planned as one pure pass before the talk runs (the road never
/// depends on the talk): the drive, its fixes in arrival order, the follower,
/// the location link and the guidance produce the road's typed events and
/// the generated guidance lines. The simulation puts the events on its
/// queue and appends the lines to its line table, so the arbiter sees them
/// exactly like hand-written ones.
package struct RoadPlan: Sendable, Equatable {
    /// Road events, in the order they happen (time, then completions first).
    package var events: [RoadEvent] = []
    /// The generated lines, by request time.
    package var lines: [GuidanceLine] = []
    /// Each generated line's stage (nil for reroute lines).
    package var stages: [Stage?] = []
    /// Per generated line (parallel to `lines`), whether it expires at the
    /// route switch that ends its route's lines (`road.route.switched`): still
    /// waiting then, it is dropped `stale` with the reason `switched`.
    package var endsAtSwitch: [Bool] = []
    /// The route's maneuvers, which road events index.
    package var maneuvers: [Maneuver] = []
    /// How many fixes the receiver took (including ones never delivered).
    package var fixCount = 0
    /// The ids of the road's route changes, which route and handoff events index (`RoadSetup.changes`).
    package var changes: [String] = []
    /// What the plan took to have become of each stretch a handoff is sent after (`RoadSetup.said`).
    package var said: [String: RoadSetup.Said] = [:]
    /// Per generated line (parallel to `lines`), its words for the position
    /// at later instants while it may still wait: a far or near line that
    /// starts at or after a revision's `t` says that revision's words (the
    /// distance then left, rounded down) and lasts its duration. Empty for
    /// "now" and reroute lines, whose words hold no distance (a waiting
    /// line's `expires` is revised in the plan's `lines`).
    package var revisions: [[LineRevision]] = []

    /// No road.
    package static let empty = RoadPlan()
    /// The drive's end, 24 h (SPEC 2): the road plans nothing after it (a fix
    /// arriving later never arrives, a report still in flight is not
    /// delivered), and guidance ends there as at a segment's end.
    package static let end = RoadSetup.Limits.maxTime

    /// Plans a road (empty when there is none). Throws the road's first
    /// problem (`RoadSetup.validate()`) instead of planning a road that could
    /// trap or run unbounded.
    package init(_ road: RoadSetup?) throws(RoadSetup.Problem) {
        guard let road else { return }
        try road.validate()
        var planner = try RoadPlanner<Announcer>(road)
        planner.run()
        self = planner.plan
    }

    /// Plans a road with another guidance than drivesim's own: `guidance`
    /// makes it for the route. Throws the road's first problem, as `init(_:)`.
    /// Only drivesim's `Announcer` re-phrases a waiting line (`revisions`).
    package init<G: Guidance>(_ road: RoadSetup?, guidance: (GuidanceRoute) -> G) throws(RoadSetup.Problem) {
        guard let road else {
            self.init()
            return
        }
        try road.validate()
        self.init(validated: road, guidance: guidance)
    }

    /// `init(_:guidance:)` for a road that `RoadSetup.validate()` has passed.
    package init<G: Guidance>(validated road: RoadSetup?, guidance: (GuidanceRoute) -> G) {
        guard let road else { return }
        do {
            self = try withoutActuallyEscaping(guidance) { make in
                var planner = try RoadPlanner<G>(road) { route, _ in make(route) }
                planner.run()
                return planner.plan
            }
        } catch {
            preconditionFailure(
                "RoadPlan(validated:guidance:) was given a road that RoadSetup.validate() refuses: \(error)")
        }
    }

    /// Plans a road that `RoadSetup.validate()` has passed (a decoded or
    /// validated scenario's), without checking it again. A road that was
    /// never validated stops the process here, before planning.
    /// `shape` is a road's shape (`RoadShape`) when the caller has one:
    /// used if the road has it.
    package init(validated road: RoadSetup?, fault: RoadFault? = nil, shape: RoadShape? = nil) {
        guard let road else { return }
        do {
            var planner = try RoadPlanner<Announcer>(road, fault: fault, shape: shape)
            planner.run()
            self = planner.plan
        } catch {
            preconditionFailure("RoadPlan(validated:) was given a road that RoadSetup.validate() refuses: \(error)")
        }
    }

    init() {}
}

/// The planning pass, with guidance `G` (drivesim's own: `Announcer`).
struct RoadPlanner<G: Guidance> {
    let road: RoadSetup
    /// The route followed now: the scenario's, or the road of the last change switched to.
    var route: Route
    /// The path the car truly drives (the route, then each change's road).
    let truePath: TruePath
    /// Makes the guidance for a route, given drivesim's own announcer for it.
    let make: (GuidanceRoute, Announcer) -> G
    /// The route followed now: 0 the scenario's, k change k − 1's.
    var current = 0
    /// Where the followed route begins on the true path, meters.
    var routeStart = 0.0
    /// The index in `plan.maneuvers` of the followed route's first maneuver.
    var base = 0
    /// Handoff deliveries and maps answers to come, by time.
    var agenda = EventQueue<RouteItem>()
    /// The request to the maps door in flight, if any (one at a time).
    var inFlight: RouteRequest? = nil
    /// The request waiting to be sent, its ticket and when it is due (`ask`).
    var pending: (request: RouteRequest, ticket: Int, due: SimTime)? = nil
    /// How many requests have waited: each one's ticket.
    var tickets = 0
    /// How many times the guidance was told the car left a route (`GuidanceRoute.reroutes`).
    var reroutes = 0
    /// Per change, the refusals the maps door has left to give.
    var refusalsLeft: [Int]
    /// Per change, whether its handoff was taken.
    var handoffTaken: [Bool]
    /// Where in `plan.lines` the followed route's lines begin.
    var epochLines = 0
    let trajectory: Trajectory?
    var plan = RoadPlan()
    var follower: RouteFollower
    var link: LocationLink
    /// The guidance that speaks.
    var guidance: G
    var announcements: [Announcement] = []
    /// Each road state the guidance went by, from the instant its fix
    /// arrived, and whether the follower was on the route then (off it, the
    /// guidance is silent).
    var states: [(from: SimTime, state: RoadState, onRoute: Bool)] = []
    /// When measuring paused (the app went to the background): nothing is predicted across one.
    var pauses: [SimTime] = []
    /// Spans in which the guidance said nothing, and why.
    var silences: [(from: SimTime, to: SimTime, reason: RoadEvent.UnannouncedReason)] = []
    /// The believed pass time of each maneuver.
    var believedPass: [SimTime?]
    /// Truth (or best estimate) of when the car passed each maneuver.
    var truePass: [SimTime?]
    /// Recorded true positions, when the fixes give them.
    let trueTrack: TrueTrack?
    /// When the true track passed each maneuver (empty without one).
    var trueTrackPass: [SimTime?]
    /// The road's events as they are planned, on SimClock's queue, which
    /// gives them in the simulation's order: time, then completions (phase 0)
    /// before arrivals and the rest (phase 1), then the order they were planned in.
    var events = EventQueue<RoadEvent>()
    /// The generated lines with their stages, on a queue: by request time, then planning order.
    var lines = EventQueue<(line: GuidanceLine, stage: Stage?)>()
    var upcoming = -1
    /// Whether the guidance was asked for its departure line (`Guidance.lineDeparting`).
    var departureAsked = false
    /// What a guidance other than drivesim's own revised of its waiting lines, by line id, in time order.
    var revised: [String: [(at: SimTime, revision: LineRevision?, expires: SimTime?)]] = [:]
    /// The first maneuver beyond the follower's progress (progress never goes back).
    var ahead = 0

    /// The next maneuver by the follower's progress, if any.
    mutating func nextManeuver() -> Int? {
        while ahead < route.maneuvers.count, route.maneuvers[ahead].distance <= follower.progress { ahead += 1 }
        return ahead < route.maneuvers.count ? ahead : nil
    }

    /// A deliberately broken road (`RoadFault`), for mutation testing; nil plans it as documented.
    let fault: RoadFault?
    /// When the app measures, and when Dad's guidance runs (nil: always), as sets.
    let measuringTimes: IntervalSet, guidingTimes: IntervalSet?

    /// drivesim's own guidance, `fault` broken (nil: as documented).
    init(_ road: RoadSetup, fault: RoadFault? = nil, shape: RoadShape? = nil) throws(RoadSetup.Problem)
    where G == Announcer {
        try self.init(road, fault: fault, shape: shape) { $1 }
    }

    /// `guidance` makes the guidance for the route, given drivesim's own
    /// announcer for it; `shape` is used if the road has it.
    init(
        _ road: RoadSetup, fault: RoadFault? = nil, shape: RoadShape? = nil,
        guidance make: @escaping (GuidanceRoute, Announcer) -> G
    ) throws(RoadSetup.Problem) {
        self.road = road
        self.fault = fault
        self.make = make
        measuringTimes = road.measuringTimes
        guidingTimes = road.guidingTimes
        let derived: RoadShape
        if let known = shape?.fitting(road) { derived = known } else { derived = try RoadShape(road) }
        truePath = derived.truePath
        let route = truePath.first
        self.route = route
        trajectory = derived.trajectory
        follower = RouteFollower(settings: road.follow)
        link = road.link
        if let fault {
            follower.fault = fault
            link.fault = fault
        }
        refusalsLeft = road.changes.map(\.refusals)
        handoffTaken = Array(repeating: false, count: road.changes.count)
        believedPass = Array(repeating: nil, count: route.maneuvers.count)
        truePass = Array(repeating: nil, count: route.maneuvers.count)
        trueTrack = road.trueTrack(on: route)
        trueTrackPass = trueTrack?.passTimes(on: route) ?? []
        guidance = Self.guidance(for: route, road, fault, reroutes: 0, make)
        plan.maneuvers = route.maneuvers
        plan.changes = road.changes.map(\.id)
        plan.said = road.said
    }

    /// The guidance `make` makes for `route`, with drivesim's own announcer for it.
    static func guidance(
        for route: Route, _ road: RoadSetup, _ fault: RoadFault?, reroutes: Int, change: GuidanceRoute.Change? = nil,
        _ make: (GuidanceRoute, Announcer) -> G
    ) -> G {
        var announcer = Announcer(settings: road.guidance, maneuvers: route.maneuvers)
        if let fault { announcer.fault = fault }
        announcer.reroutes = reroutes
        let heading = RoadPlan.heading(of: route)
        announcer.heading = heading
        var guidanceRoute = GuidanceRoute(
            maneuvers: route.maneuvers, length: route.length, settings: road.guidance, segments: road.segments,
            heading: heading)
        guidanceRoute.horizon = road.horizon
        guidanceRoute.reroutes = reroutes
        guidanceRoute.change = change
        return make(guidanceRoute, announcer)
    }

    /// Follows `route` from now on: its maneuvers join the plan's, and the
    /// guidance is made for it. The follower starts afresh (the car is placed
    /// on it by the first fix that matches).
    mutating func follow(_ route: Route, change: GuidanceRoute.Change) {
        self.route = route
        base = plan.maneuvers.count
        plan.maneuvers += route.maneuvers
        ahead = 0
        upcoming = -1
        believedPass = Array(repeating: nil, count: route.maneuvers.count)
        truePass = Array(repeating: nil, count: route.maneuvers.count)
        follower = RouteFollower(settings: road.follow)
        if let fault { follower.fault = fault }
        guidance = Self.guidance(for: route, road, fault, reroutes: reroutes, change: change, make)
    }

    func guiding(_ t: SimTime) -> Bool { guidingTimes?.contains(t) ?? true }
    /// When the guidance holding `t` ends: its segment's end, and never after
    /// the drive's end at 24 h (SPEC 2), which ends the guidance like a segment.
    func segmentEnd(at t: SimTime) -> SimTime {
        min(road.segments?.first { $0.contains(t) }?.end ?? RoadPlan.end, RoadPlan.end)
    }
    /// The first segment edge (a start or an end) after `t`, if any.
    func nextSegmentEdge(after t: SimTime) -> SimTime? {
        road.segments?.lazy.flatMap { [$0.start, $0.end] }.filter { $0 > t }.min()
    }

    /// Plans a road event at `t`; `phase` 0 for a completion (a report's end, a turn passed, a segment ended).
    mutating func add(_ t: SimTime, _ what: RoadEvent.What, phase: UInt8 = 1) {
        guard t <= RoadPlan.end else { return }  // SPEC 2: nothing happens after the drive's 24 h
        events.schedule(RoadEvent(t: t, what), at: t, phase: phase)
    }

    /// Plans a generated line, with its stage (nil for a reroute, "continue" or departure line).
    mutating func schedule(_ line: GuidanceLine, stage: Stage?) {
        lines.schedule((line, stage), at: line.at)
    }

    mutating func run() {
        // The fixes in arrival order (made in index order, so ties keep it).
        let made = makeFixes()
        var arrivals = EventQueue<Fix>()
        for fix in made where fix.arrives <= RoadPlan.end { arrivals.schedule(fix, at: fix.arrives) }
        appRecords(until: made.lazy.map(\.arrives).max() ?? .zero)
        scheduleHandoffs()
        var cursor = arrivals.first()?.time ?? .zero
        var state: RoadState? = nil
        var pause = 0
        while true {
            // A handoff delivered or a route answered before (or with) the next fix comes first.
            if let next = agenda.first()?.time, arrivals.first().map({ next <= $0.time }) ?? true {
                let item = agenda.popFirst()!.event
                guide(state, from: &cursor, until: next)
                if handle(item, at: next) { state = nil }
                continue
            }
            guard let fix = arrivals.popFirst()?.event else { break }
            guide(state, from: &cursor, until: fix.arrives)
            while pause < pauses.count, pauses[pause] <= fix.arrives {
                follower.measuringPaused()
                pause += 1
            }
            let new = take(fix)
            guidance.fixArrived(fix, state: new, onRoute: !follower.offRoute)
            if let new {
                state = new
                states.append((fix.arrives, new, !follower.offRoute))
            }
        }
        if let state {
            guide(state, from: &cursor, until: min(state.taken + road.horizon + SimTime(ms: 1), RoadPlan.end))
        }
        finishRoute(at: nil)
        plan.events.reserveCapacity(events.count)
        while let event = events.popFirst()?.event { plan.events.append(event) }
    }

    /// Ends the followed route at `end` (nil: the drive's end): its passes
    /// before then, and its lines, which expire by then (a line of an old
    /// route is never heard after the switch), revised.
    mutating func finishRoute(at end: SimTime?) {
        announcements.removeAll(keepingCapacity: true)
        guidance.settle(into: &announcements)
        receive(nil)
        passes(before: end)
        while let (line, stage) = lines.popFirst()?.event {
            var line = line
            if let end, fault != .switchKeepsOldLines { line.expires = min(line.expires ?? end, end) }
            plan.lines.append(line)
            plan.stages.append(stage)
        }
        defer {
            // A line still waiting when a switch ends its route is dropped then (`endsAtSwitch`).
            let cut = fault == .switchKeepsOldLines ? nil : end
            plan.endsAtSwitch += plan.lines[epochLines...].lazy.map { cut != nil && $0.expires == cut }
            epochLines = plan.lines.count
            states.removeAll()
            revised.removeAll()
        }
        plan.revisions.reserveCapacity(plan.lines.count)
        // Each maneuver id's first index: looked up, never iterated.
        let maneuverIndex = Dictionary(
            route.maneuvers.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        // drivesim's own guidance (or one speaking as it) re-phrases a waiting line.
        guard var own = guidance.reviser else {
            // Another guidance revises its own lines: each revision holds from its time, each expiry only comes earlier.
            // Off route it is silent, as drivesim's own is: a stage's line waiting when the car leaves the route
            // expires then (its distance was the old position's), however it was revised.
            let offRoute = states.filter { !$0.onRoute }.map(\.from)
            for i in plan.lines.indices[epochLines...] {
                var words: [LineRevision] = []
                for change in revised[plan.lines[i].id] ?? [] where change.at > plan.lines[i].at {
                    if let revision = change.revision { words.append(revision) }
                    if let expires = change.expires {
                        plan.lines[i].expires = min(plan.lines[i].expires ?? expires, max(expires, change.at))
                    }
                }
                if plan.stages[i] != nil {
                    // The first instant after its request at which the car is off route.
                    let low = offRoute.partitioningIndex { $0 > plan.lines[i].at }
                    if low < offRoute.count {
                        plan.lines[i].expires = min(plan.lines[i].expires ?? offRoute[low], offRoute[low])
                    }
                }
                plan.revisions.append(words)
            }
            return
        }
        for i in plan.lines.indices[epochLines...] { plan.revisions.append(revisions(i, maneuverIndex, by: &own)) }
    }

    /// The fixes the app measures, generated or recorded.
    mutating func makeFixes() -> [Fix] {
        switch road.fixes {
        case .generated(let generator):
            guard let trajectory, road.drive != nil else { return [] }
            let fixes = road.generatedFixes(generator, on: truePath.route, trajectory: trajectory)
            plan.fixCount = (fixes.last?.index ?? -1) + 1
            // When In Use: a fix taken just before measuring paused that would arrive after it never arrives.
            return road.background.isEmpty ? fixes : fixes.filter { measuringTimes.contains($0.arrives) }
        case .recorded(let list):
            plan.fixCount = list.count
            return list.enumerated().compactMap { i, r in
                measuringTimes.contains(r.taken) && measuringTimes.contains(r.arrives)
                    ? Fix(
                        index: i, taken: r.taken, arrives: r.arrives, position: route.projection.project(r.point),
                        accuracy: r.accuracy, speed: r.speed, course: r.course,
                        truth: r.truth.map(route.projection.project))
                    : nil
            }
        }
    }

    /// Measuring paused and resumed (background outside a segment), segments started and ended.
    mutating func appRecords(until end: SimTime) {
        var edges =
            road.background.flatMap { [$0.start, $0.end] } + (road.segments ?? []).flatMap { [$0.start, $0.end] }
        edges.append(.zero)
        edges.sort()
        var measured = true
        for t in edges {
            let now = measuringTimes.contains(t)
            if now != measured {
                add(t, now ? .measuringResumed : .measuringPaused(reason: .background))
                if !now { pauses.append(t) }
                measured = now
            }
        }
        for segment in road.segments ?? [] {
            add(segment.start, .segmentStarted)
            add(segment.end, .segmentEnded, phase: 0)
        }
    }

    /// Lets the guidance speak over `[cursor, until)`, as far as it can.
    mutating func guide(_ state: RoadState?, from cursor: inout SimTime, until: SimTime) {
        guard cursor < until else { return }
        defer { cursor = until }
        // When In Use: the guidance speaks only inside a segment, so the span
        // is cut at every segment edge in it; outside one it is silent for
        // that reason first (measuring may be paused there too: no fix).
        var from = cursor
        while from < until {
            let to = min(until, nextSegmentEdge(after: from) ?? until)
            if !guiding(from) && fault != .segmentsIgnored {
                silences.append((from, to, .notGuiding))
            } else if let state {
                if follower.offRoute {
                    silences.append((from, to, .offRoute))
                } else {
                    speak(state, from: from, until: to)
                }
            } else {
                silences.append((from, to, .noFix))
            }
            from = to
        }
    }

    /// Lets the guidance speak over `[cursor, until)`, inside one guidance segment.
    mutating func speak(_ state: RoadState, from cursor: SimTime, until: SimTime) {
        // The app did not run while paused: after a pause it waits for a fresh fix, it does not dead-reckon across it.
        let paused = pauses.first { $0 > state.taken && $0 <= cursor }
        let end = paused != nil ? cursor : min(until, state.taken + road.horizon)
        if end < until { silences.append((max(cursor, end), until, .noFix)) }
        guard cursor < end else { return }
        guidance.segmentEnd = segmentEnd(at: cursor)
        // "Head north." as the drive starts: asked once, in the first span spoken in.
        if !departureAsked {
            departureAsked = true
            if let line = guidance.lineDeparting(state, at: cursor) { addLine(line) }
        }
        announcements.removeAll(keepingCapacity: true)
        guidance.announce(state, from: cursor, until: end, into: &announcements)
        receive(state)
    }

    /// Plans what the guidance announced (in `announcements`), the car at
    /// `state` (nil: what it held back, settled later, which is never a pass).
    mutating func receive(_ state: RoadState?) {
        for announcement in announcements {
            switch announcement {
            case .line(let line, _, let stage):
                schedule(line, stage: stage)
            case .skipped(let m, let stage, let reason, let t):
                add(t, .stageSkipped(ManeuverIndex(base + m), stage: stage, reason: reason))
            case .passed(let m, let t):
                believedPass[m] = t
                // "Continue for 5 kilometers." when the next maneuver is far.
                if let state, let line = guidance.linePassing(m, state, at: t) { addLine(line) }
            case .revised(let id, let t, let revision, let expires):
                revised[id, default: []].append((t, revision, expires))
            }
        }
    }

    /// Handles one fix as it arrives; returns the new road state if it moved the car.
    mutating func take(_ fix: Fix) -> RoadState? {
        let t = fix.arrives
        let index = FixIndex(fix.index)
        add(t, .fixArrived(index, ageMs: (t - fix.taken).ms, trusted: fix.accuracy <= road.follow.accuracyLimit))
        var state: RoadState? = nil
        switch follower.admission(of: fix) {
        case .outOfOrder:
            add(t, .fixDropped(index, reason: .outOfOrder))
            report(fix, used: false)
            return nil
        case .inaccurate:
            add(t, .fixDropped(index, reason: .inaccurate))
            report(fix, used: false)
            return nil
        case .usable:
            let before = follower.progress
            switch follower.observe(fix, on: route) {
            case .none: break
            case .implausible:
                add(t, .fixDropped(index, reason: .implausible))
                report(fix, used: false)
                return nil
            case .leftRoute(let offset):
                add(t, .offRoute(offsetM: Int64(offset.rounded(.down))))
                if guiding(t) {
                    reroutes += 1
                    if let line = guidance.rerouteLine(at: t, back: false) { addLine(line) }
                }
                // The app asks the maps door for a route from where the car is.
                ask(RouteRequest(handoff: nil), at: t)
            case .rejoined:
                add(t, .onRoute(progressM: Int64(follower.progress.rounded(.down))))
                if guiding(t), let line = guidance.rerouteLine(at: t, back: true) { addLine(line) }
            }
            if trajectory == nil && trueTrack == nil { estimatePasses(from: before, taken: fix.taken) }
            // The progress holds as of when it was last matched on the route: a fix too far
            // from the route to match (a detour before it counts as off route) moves neither.
            // Before any fix matched, the guidance does not know where the car is.
            state = follower.matchedAt.map { RoadState(progress: follower.progress, taken: $0, speed: follower.speed) }
            upcomingRecord(at: t)
        }
        lastUsedTaken = max(lastUsedTaken ?? fix.taken, fix.taken)
        report(fix, used: true)
        return state
    }

    /// A line of no stage (reroute, switch, "continue", departure), if it can
    /// be spoken to its end inside the segment and the drive; false when not.
    @discardableResult
    mutating func addLine(_ line: GuidanceLine) -> Bool {
        var line = line
        if let end = road.segments?.first(where: { $0.contains(line.at) })?.end {
            guard line.at + line.duration < end else { return false }  // `expires` later than `at` (SPEC 3)
            line.expires = min(line.expires ?? end, end - line.duration)
        }
        guard line.at + line.duration <= RoadPlan.end else { return false }  // SPEC 2: it would end after the drive
        schedule(line, stage: nil)
        return true
    }

    /// With recorded fixes there is no other truth: a maneuver is passed
    /// when the matched progress crosses it, interpolated between fix times.
    mutating func estimatePasses(from before: Double, taken: SimTime) {
        guard let previous = lastTaken else {
            lastTaken = taken
            return
        }
        defer { lastTaken = taken }
        let after = follower.progress
        guard after > before else { return }
        for (m, maneuver) in route.maneuvers.enumerated() where truePass[m] == nil && maneuver.distance <= after {
            let u = max(0, (maneuver.distance - before) / (after - before))
            truePass[m] = previous + SimTime(ms: Int64((u * Double((taken - previous).ms)).rounded(.up)))
        }
    }
    var lastTaken: SimTime? = nil
    /// When the last fix the follower used was taken: where the phone is, as a route request sends it.
    var lastUsedTaken: SimTime? = nil

    /// `road.turn.upcoming` when the next maneuver changes.
    mutating func upcomingRecord(at t: SimTime) {
        let progress = follower.progress
        guard let m = nextManeuver(), m != upcoming else { return }
        upcoming = m
        let left = route.maneuvers[m].distance - progress
        let eta = follower.speed > 0.5 ? Int64((left / follower.speed * 1000).rounded(.down)) : nil
        let after =
            m + 1 < route.maneuvers.count
            ? RoadEvent.Ahead(
                ManeuverIndex(base + m + 1),
                distanceM: Int64((route.maneuvers[m + 1].distance - progress).rounded(.down)))
            : nil
        add(
            t,
            .turnUpcoming(
                RoadEvent.Ahead(ManeuverIndex(base + m), distanceM: Int64(left.rounded(.down))), etaMs: eta,
                after: after))
    }

    /// The next maneuver and its distance by the follower's progress.
    mutating func nextAhead() -> RoadEvent.Ahead? {
        nextManeuver().map { m in
            RoadEvent.Ahead(
                ManeuverIndex(base + m),
                distanceM: Int64((route.maneuvers[m].distance - follower.progress).rounded(.down)))
        }
    }

    /// The revisions of plan line `i` (see `RoadPlan.revisions`): over its
    /// wait (request to expiry), each instant at which the distance left,
    /// rounded down, changes, at the believed position (a new fix, or the
    /// prediction crossing a spoken distance). Once no distance can be said
    /// truthfully any more, the line expires then. Its expiry is revised at
    /// every fix too, by the rule it had at the request, for that fix's
    /// position and speed and the words it then says: it only ever comes
    /// earlier, and never before the fix arrives. A "now" line's words hold
    /// no distance, so only its expiry is revised. `announcer` is drivesim's
    /// own guidance as it stands after the drive: only it re-phrases.
    /// - Complexity: O(fixes and spoken distances in its wait).
    mutating func revisions(_ i: Int, _ maneuverIndex: [String: Int], by announcer: inout Announcer) -> [LineRevision] {
        let line = plan.lines[i]
        guard let stage = plan.stages[i], let expires = line.expires,
            let id = line.maneuver, let m = maneuverIndex[id]
        else { return [] }
        let point = route.maneuvers[m].distance
        // The state in force at the request: the last one from at or before it.
        var k = states.partitioningIndex { $0.from > line.at } - 1
        guard k >= 0 else { return [] }
        // "You have arrived" (or reached a waypoint) holds its words; a fix that
        // shows the car not there yet (a stop dead reckoning did not see) ends it.
        guard stage != .now || !route.maneuvers[m].turn.saidOnReaching else {
            for next in states[(k + 1)...] where next.from < expires {
                if !announcer.arriving(m, left: point - next.state.progress(at: next.from), speed: next.state.speed) {
                    plan.lines[i].expires = next.from
                    break
                }
            }
            return []
        }
        let rephrased = stage != .now
        let units = announcer.settings.spokenUnits
        var spoken = rephrased ? SpokenDistance.roundDown(point - states[k].state.progress(at: line.at), units) : nil
        var out: [LineRevision] = []
        var t = line.at
        /// The words at `t` under `state`; false when no distance can be said any more.
        func revise(at t: SimTime, _ state: RoadState) -> Bool {
            let left = point - state.progress(at: t)
            guard let now = SpokenDistance.roundDown(left, units) else {
                plan.lines[i].expires = t
                return false
            }
            // Words only when the spoken distance changes.
            guard now != spoken else { return true }
            guard let words = announcer.text(stage, m, distance: left, speed: state.speed) else {
                plan.lines[i].expires = t
                return false
            }
            spoken = now
            out.append(LineRevision(t: t, text: words, duration: announcer.duration(words)))
            return true
        }
        /// The expiry as revised so far: it only ever comes earlier.
        func expiry() -> SimTime { plan.lines[i].expires ?? expires }
        while t < expiry() {
            let state = states[k].state
            let until = min(expiry(), k + 1 < states.count ? states[k + 1].from : expiry(), state.taken + road.horizon)
            // The prediction crosses the spoken distance within this state's span.
            if let said = spoken, state.speed > Announcer.standing {
                let seconds = (point - state.progress - Double(said)) / state.speed
                if seconds.isFinite, seconds < 1e9 {
                    let cross = state.taken + SimTime(ms: Int64((seconds * 1000).rounded(.down)) + 1)
                    if cross > t, cross < until {
                        t = cross
                        guard revise(at: t, state) else { break }
                        continue
                    }
                }
            }
            // Past the horizon, or off the route, the guidance is silent: no distance can be said.
            let next = k + 1 < states.count ? states[k + 1].from : expiry()
            let silent = state.taken + road.horizon
            if silent > line.at, silent < min(expiry(), next) {
                plan.lines[i].expires = silent
                break
            }
            guard k + 1 < states.count, states[k + 1].from < expiry() else { break }
            k += 1
            t = states[k].from
            guard states[k].onRoute else {
                plan.lines[i].expires = t
                break
            }
            guard !rephrased || revise(at: t, states[k].state) else { break }
            // The fix may show the car nearer or faster: the line must still be heard before the point.
            let latest = announcer.latestStart(
                stage, point: point, states[k].state, from: t, duration: out.last?.duration ?? line.duration)
            if latest < expiry() {
                plan.lines[i].expires = max(t, latest)
                if latest <= t { break }
            }
        }
        // Re-phrased words may take longer: a line must still end by when its
        // first words would have at the latest (its segment's end, its point
        // heard in time), so it expires earlier, or at the revision that would
        // not fit, which is then dropped with the ones after it.
        let endBy = expires + line.duration
        var limit = plan.lines[i].expires ?? expires
        var kept: [LineRevision] = []
        for r in out {
            guard r.t < limit else { break }
            let latest = endBy - r.duration
            guard latest > r.t else {
                limit = r.t
                break
            }
            limit = min(limit, latest)
            kept.append(r)
        }
        plan.lines[i].expires = limit
        return kept
    }

    /// Offers the fix's report, with the navigation report beside it.
    mutating func report(_ fix: Fix, used: Bool) {
        var sent = fix.arrives
        var outcome = link.offer(taken: fix.taken, at: sent)
        if case .dropped(.busy) = outcome, fault == .linkQueuesBusy {
            // The mutant: queued, and sent when the link is free.
            sent = link.busyUntil
            outcome = link.offer(taken: fix.taken, at: sent)
        }
        let index = FixIndex(fix.index)
        // The next maneuver and its distance are the fix's own only when the follower used it and
        // matched it on the route: beside one it did not, or off the route (the progress held where
        // the car left it), they would be an earlier position's, labelled with this one's age.
        let matched = used && !follower.offRoute && follower.matchedAt == fix.taken
        let next = matched || fault == .reportKeepsOldDistance && used ? nextAhead() : nil
        switch outcome {
        case .dropped(let reason):
            add(sent, .reportDropped(index, reason: reason))
        case .failed(let at, let reason):
            add(sent, .reportSent(index, ageMs: (sent - fix.taken).ms, onRoute: !follower.offRoute, next: next))
            add(at, .reportDropped(index, reason: reason), phase: completionPhase(at, sent: sent))
        case .sent(let delivered):
            add(sent, .reportSent(index, ageMs: (sent - fix.taken).ms, onRoute: !follower.offRoute, next: next))
            add(delivered, .reportDelivered(index), phase: completionPhase(delivered, sent: sent))
        }
    }

    /// A report's end comes before the arrivals of its instant, which may
    /// send the next report; but never before its own sending: a report
    /// that lands (no latency) or times out (sent exactly at its freshness
    /// limit) in the instant it is sent ends right after it.
    func completionPhase(_ end: SimTime, sent: SimTime) -> UInt8 {
        end == sent ? 1 : 0
    }

    /// When the car truly reaches `d` along the followed route: never where
    /// its true path has left that route's road for a later change's.
    func trueTime(reaching d: Double) -> SimTime? {
        guard let trajectory, truePath.reaches(routeStart + d, on: current) else { return nil }
        return trajectory.time(reaching: min(routeStart + d, truePath.route.length))
    }

    /// `road.turn.passed` for each maneuver the car reached before `end`, and
    /// `road.turn.unannounced` with the reason when it got no "now" line.
    mutating func passes(before end: SimTime?) {
        for (m, maneuver) in route.maneuvers.enumerated() {
            let pass =
                trueTime(reaching: maneuver.distance) ?? truePass[m]
                ?? (m < trueTrackPass.count ? trueTrackPass[m] : nil)
            guard let pass, end.map({ pass < $0 }) ?? true, fault != .passNeedsBelief || believedPass[m] != nil else {
                continue
            }
            add(
                fault == .passedBelieved ? believedPass[m] ?? pass : pass, .turnPassed(ManeuverIndex(base + m)),
                phase: 0)
            guard !guidance.nowSpoken[m], fault != .nowSkippedSilently else { continue }
            let believed = believedPass[m] ?? pass
            let since = SimTime(ms: min(pass.ms, believed.ms) - 10_000)
            let silence = silences.last { $0.from < max(pass, believed) && $0.to > since }
            // Passed outside Dad's guidance segments: not guiding, whether or not a fix came.
            let outside = !guiding(pass) && fault != .segmentsIgnored
            // A guidance that does not say why was never asked before the pass if no fix had come by then.
            let unasked = states.first.map { $0.from >= pass } ?? true
            guard
                let reason = outside
                    ? .notGuiding
                    : silence?.reason ?? guidance.unannounced(m, passedAt: pass) ?? (unasked ? .noFix : nil)
            else { continue }
            add(pass, .turnUnannounced(ManeuverIndex(base + m), reason: reason), phase: 0)
        }
    }
}

extension RoadPlan {
    /// The id of the line generated for a maneuver at a stage: `m1.near`.
    /// Known from the route alone, so a scenario's ids and matchers are
    /// checked against it before anything runs.
    package static func lineID(maneuver: String, stage: Stage) -> String { "\(maneuver).\(stage.rawValue)" }

    /// The id of the departure line, which belongs to the first maneuver `maneuver` (`Announcer.departureLine`).
    package static func departureLineID(maneuver: String) -> String { "\(maneuver).depart" }

    /// How far along the route its heading at departure is measured, meters (`GuidanceRoute.heading`).
    package static let headingMeters = 30.0

    /// The compass bearing `route` sets off in, degrees (0..<360), from its
    /// start to `headingMeters` along it (the whole route when
    /// shorter); nil for a route of no length.
    package static func heading(of route: Route) -> Double? {
        let a = route.location(at: 0).point
        let b = route.location(at: min(RoadPlan.headingMeters, route.length)).point
        let d = b - a
        guard d.length > 0 else { return nil }
        // The plane is centred on the route's first point, north up: exact there.
        let degrees = atan2(d.x, d.y) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The id of the "continue" line before maneuver `maneuver` (`Announcer.continueLine`).
    package static func continueLineID(maneuver: String) -> String { "\(maneuver).continue" }

    /// The id of an arrival's (or a waypoint's) "now" line tried again after
    /// a fix showed the car was not there yet (`Announcer.retryReached`).
    package static func retryLineID(maneuver: String) -> String { "\(maneuver).now-again" }

    /// The id of maneuver `maneuver` as the route of change `change` holds it,
    /// when that route begins before the change's branch (`ManeuverIDs`): `c1/m5`.
    package static func copyID(change: String, maneuver: String) -> String { "\(change)/\(maneuver)" }

    /// The id of the line said as the drive changes onto change `change`'s route: `r1.switched`.
    package static func switchLineID(change: String) -> String { "\(change).switched" }

    /// The id of the `n`th reroute's line (n from 1): `reroute1.off` when
    /// the car leaves the route, `reroute1.back` when it rejoins it.
    package static func rerouteLineID(_ n: Int, back: Bool) -> String { "reroute\(n).\(back ? "back" : "off")" }

    /// Whether `id` has the shape of a reroute line's id: `reroute<n>.off` or
    /// `reroute<n>.back`, n a positive integer without leading zeros. How
    /// many reroutes a drive has is known only by planning it.
    package static func isRerouteLineID(_ id: String) -> Bool {
        // Read in place: most ids (every one of a long drive's) fail at the first byte.
        id.utf8.withContiguousStorageIfAvailable(isRerouteLineID)
            ?? Array(id.utf8).withUnsafeBufferPointer(isRerouteLineID)
    }

    /// `isRerouteLineID` of an id's UTF-8.
    private static func isRerouteLineID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = "reroute"
        let head = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        guard bytes.count > head.count, bytes.starts(with: head),
            let dot = bytes[head.count...].firstIndex(of: UInt8(ascii: "."))
        else { return false }
        let digits = bytes[head.count..<dot]
        let suffix = bytes[(dot + 1)...]
        guard let first = digits.first, first != UInt8(ascii: "0"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        return suffix.elementsEqual("off".utf8) || suffix.elementsEqual("back".utf8)
    }
}
