import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// Makes road scenarios from a seed (`fuzz --road`, and every run of a road
/// mutant's campaign): valid by construction, small (a route of a few km,
/// a drive of a few minutes), and aimed at the road's boundaries.
///
/// Each scenario draws a *road profile* (swarm testing again): a dense route
/// (a vertex every 10 m, as routing engines return) or a sparse one (vertices
/// at the turns only) with 1–5 maneuvers of any kind, speeds of 20–130 km/h,
/// stops, a detour, fixes with uniform or correlated noise, jitter, drops,
/// a tunnel, late fixes, multipath jumps, a slow or lossy link with outages,
/// guidance segments and the background, the output latency, and talk on
/// top (hand-written lines, Pippa's replies, Dad's questions). A dry run
/// (the road's plan: its events and generated lines) then moves one to three
/// things onto the road's boundaries: a reply whose stretch has exactly
/// `waitLimit` left (±1 ms) when a generated line comes due; a segment ending
/// in the instant a fix arrives; an outage beginning while a report is in
/// flight (or in the instant it lands); a freshness limit a report reaches
/// in flight; a jump 40–140 m before a turn; a hand-written line playing when a
/// generated one comes due; a tunnel ending shortly before a turn.
struct RoadGenerator {
    /// Mixed into a run's seed for the draw that picks a road run, so that
    /// the talk generator's draws are untouched.
    static let salt: UInt64 = 0x526F_6164_5072_6F66

    private var random: SplitMix64
    /// The stream that draws route changes (`RoadGenerator+Changes`).
    var changeStream: SplitMix64
    /// The stream that draws which handoffs Pippa sends after one of her stretches (`sendAfterStretches`).
    var sayingStream: SplitMix64
    /// The stream that aims at ties of the maps door (`snapTie`).
    var tieStream: SplitMix64
    private let mutant: Mutant?
    /// The road of the last dry run and its plan. A snap that moved talk
    /// only (or nothing, or was not kept) leaves the road as it was, and the
    /// next dry run reuses its plan: planning is a pure function of the
    /// road. The scenario's own road is planned last (`planned(name:)`),
    /// and its plan goes on to the run's check.
    private var dryRun: (road: RoadSetup?, plan: RoadPlan)? = nil
    /// The shape of the scenario's road (`RoadShape`), found once as it is
    /// validated: the snaps move times, never roads, so every dry run, every
    /// candidate's validation and the run's check share it.
    private var shape: RoadShape? = nil

    /// A generator for one road scenario; the dry runs use the mutant under test.
    init(seed: UInt64, mutant: Mutant?) {
        random = SplitMix64(seed: seed)
        changeStream = SplitMix64(seed: seed ^ RoadGenerator.changeSalt)
        sayingStream = SplitMix64(seed: seed ^ RoadGenerator.sayingSalt)
        tieStream = SplitMix64(seed: seed ^ RoadGenerator.tieSalt)
        self.mutant = mutant
    }

    /// One road scenario (`scenario(name:)`) and what the generator knows
    /// of its road: its shape, and its plan by drivesim's own guidance with
    /// the mutant's road fault.
    mutating func planned(name: String) -> (scenario: Scenario, road: KnownRoad) {
        let scenario = scenario(name: name)
        return (scenario, KnownRoad(shape: shape, plan: plan(scenario.road)))
    }

    /// `road` as the mutant under test plans it (drivesim's own guidance with
    /// its road fault, if any): the last dry run's plan if it was of `road`.
    private mutating func plan(_ road: RoadSetup?) -> RoadPlan {
        if let dryRun, dryRun.road == road { return dryRun.plan }
        let plan = RoadPlan(validated: road, fault: mutant?.road, shape: shape)
        dryRun = (road, plan)
        return plan
    }

    /// One road scenario, valid by `Scenario.validate()`.
    mutating func scenario(name: String) -> Scenario {
        var scenario = base(name: name)
        // The road's shape, if the scenario is valid: every snap keeps it.
        shape = scenario.validRoadShape
        if shape == nil {
            // Valid by construction; should a draw ever slip, the optional windows go, never the run.
            scenario.road?.segments = nil
            scenario.road?.background = []
            scenario.road?.link.outages = []
            shape = scenario.validRoadShape
            assert(shape != nil, "RoadGenerator made an invalid scenario")
        }
        for _ in 0..<Int(random.int(in: 1...3)) {
            var candidate = scenario
            snap(&candidate)
            if valid(candidate) { scenario = candidate }
        }
        // Half the drives that change route: a tie of the maps door in one millisecond.
        if scenario.road?.changes.isEmpty == false, tieStream.chance(50) {
            var candidate = scenario
            if snapTie(&candidate, plan: plan(scenario.road)), valid(candidate) { scenario = candidate }
        }
        return scenario
    }

    /// Whether a snapped scenario is valid (its road's shape is the scenario's: the snaps move times, never roads).
    private func valid(_ candidate: Scenario) -> Bool {
        shape.map { candidate.isValid(roadShapedLike: $0.road) } ?? candidate.isValid
    }

    // MARK: The profile and the base scenario

    private mutating func ms(_ range: ClosedRange<Int64>) -> SimTime { SimTime(ms: random.int(in: range)) }

    private mutating func base(name: String) -> Scenario {
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        let dense = random.chance(50)
        let count = Int(random.int(in: 1...5))
        let arrives = random.chance(60)
        // A zigzag that never crosses itself: east, then north or south, then east…
        var position = Vector(x: 0, y: 0)
        var points = [projection.unproject(position)]
        var specs: [Scenario.ManeuverSpec] = []
        var along = 0.0
        var corners: [Double] = []
        var eastward = true
        var directions: [Vector] = []
        let legs = count + (arrives ? 0 : 1)
        // A waypoint at one of the corners before the last maneuver, where the
        // route may turn back (a U-turn: across to the other carriageway,
        // `RoadGenerator.carriageways` beside, and back along it), and a ferry
        // crossing the leg after another corner (issue 23).
        let waypoint: Int? = count >= 2 && random.chance(25) ? Int(random.int(in: 0...Int64(count - 2))) : nil
        let reverses = waypoint != nil && random.chance(50)
        let ferryCorners = (0..<count).filter { $0 != waypoint && $0 + 1 < legs && !(arrives && $0 == count - 1) }
        let ferry: Int? = !ferryCorners.isEmpty && random.chance(20) ? random.pick(ferryCorners) : nil
        // After a U-turn every north or south leg goes the same way, away from the road already driven.
        var away: Double? = nil
        /// Bends of the line that are no maneuver (the U-turn's crossing), kept clear of detours.
        var bends: [Double] = []
        func walk(_ direction: Vector, _ length: Double) {
            if dense {
                var done = 10.0
                while done < length {
                    points.append(projection.unproject(position + direction * done))
                    done += 10
                }
            }
            position = position + direction * length
            points.append(projection.unproject(position))
            along += length
        }
        for i in 0..<legs {
            var leg = Double(random.int(in: 150...(i == 0 ? 1_200 : 700)))
            if reverses, let w = waypoint, i == w + 1, let incoming = directions.last {
                // Across, then back along the leg driven, never past its start.
                // Beyond the leg it came by, where no road driven lies (after an east leg, the way the
                // last north or south leg went; after a north or south one, east).
                let side = directions.last(where: { $0.x == 0 })?.y ?? (random.chance(50) ? 1 : -1)
                let across = incoming.x != 0 ? Vector(x: 0, y: side) : Vector(x: 1, y: 0)
                if incoming.x != 0 { away = across.y }
                walk(across, RoadGenerator.carriageways)
                bends.append(along)
                let back = Vector(x: -incoming.x, y: -incoming.y)
                let before = corners[w] - (w == 0 ? 0 : corners[w - 1])
                leg = min(leg, max(100, before - 40))
                directions.append(back)
                walk(back, leg)
                corners.append(along)
                // The alternation goes on from the leg before the waypoint's.
                continue
            }
            let direction = eastward ? Vector(x: 1, y: 0) : Vector(x: 0, y: away ?? (random.chance(50) ? 1 : -1))
            directions.append(direction)
            walk(direction, leg)
            corners.append(along)
            eastward.toggle()
        }
        // Every kind but the ends: waypoints and ferries are placed above.
        let kinds = Turn.allCases.filter { ![.arrive, .waypoint, .ferry].contains($0) }
        for i in 0..<count {
            let point = projection.unproject(pointAt(corners[i], points: points, projection: projection))
            let last = arrives && i == count - 1
            let turn = last ? Turn.arrive : i == waypoint ? .waypoint : i == ferry ? .ferry : random.pick(kinds)
            var details = ManeuverDetails()
            if turn == .waypoint { details.uTurn = reverses }
            if turn == .roundabout { details.exit = Int(random.int(in: 1...4)) }
            if turn == .offRamp && random.chance(50) { details.exitNumber = "\(random.int(in: 1...40))" }
            if last && random.chance(50) { details.side = random.pick(ArrivalSide.allCases) }
            let street =
                turn == .ferry
                ? random.pick([nil, "Puttgarden - Rødby", "한강 페리"])
                : !last && turn != .waypoint && random.chance(30)
                    ? random.pick(["Gangnam-daero", "테헤란로", "Olympic-ro", "Central"]) : nil
            specs.append(Scenario.ManeuverSpec(id: "m\(i)", point: point, turn: turn, street: street, details: details))
        }
        // The roads the car may change onto; the drive is along its true path.
        let changing =
            ferry == nil && !reverses
            ? changeRoads(firstLeg: corners[0], dense: dense, projection: projection) : nil
        let driven = changing?.length ?? along
        // The drive.
        let kmh = { (r: inout SplitMix64) in Double(r.int(in: 20...130)) / 3.6 }
        var steps = [SpeedProfile.Step(from: 0, speed: kmh(&random))]
        // Speeding up (setting off, a higher speed, leaving a stop) and slowing down are drawn
        // anywhere, a turn just ahead included (docs/fuzzing.md).
        if ferry == nil, random.chance(40) {
            let from = Double(random.int(in: 100...Int64(driven - 50)))
            steps.append(SpeedProfile.Step(from: from, speed: kmh(&random)))
        }
        var profile = SpeedProfile(steps: steps)
        if let f = ferry {
            // As an import times one: a wait at the terminal, then the crossing at the ferry's speed, then the road's again.
            profile.steps.append(SpeedProfile.Step(from: corners[f], speed: RoadGenerator.ferryKmh / 3.6))
            if f + 1 < corners.count - 1 {
                profile.steps.append(SpeedProfile.Step(from: corners[f + 1], speed: steps[0].speed))
            }
            profile.stops = [SpeedProfile.Stop(at: corners[f], dwell: ms(5_000...60_000))]
        } else if random.chance(25) {
            let at = Double(random.int(in: 50...Int64(driven - 20)))
            profile.stops = [SpeedProfile.Stop(at: at, dwell: ms(2_000...30_000))]
        }
        let start = SimTime(ms: random.pick([0, random.int(in: 0...5_000)]))
        let trajectory = Trajectory(profile: profile, length: driven, start: start)
        let span = trajectory.arrival.ms
        var drive = Scenario.Drive(start: start, profile: profile)
        // Fixes.
        var g = FixGenerator()
        g.seed = UInt64(random.int(in: 0...4_294_967_295))
        let jumps = random.chance(30) && changing == nil
        g.every = SimTime(ms: jumps ? 1_000 : random.pick([1_000, 1_000, 500, 2_000]))
        g.accuracy = Double(random.pick([5, 5, 10, random.int(in: 3...(jumps ? 10 : 25))]))
        g.noise = Double(random.pick([0, 3, 3, random.int(in: 0...10)]))
        // The fixes' reported accuracy is honest (the checks trust it): uniform noise within it,
        // correlated (normal) noise with its deviation at most a third of it.
        if random.chance(20) { g.correlation = ms(5_000...30_000) }
        g.noise = min(g.noise, g.correlation == nil ? g.accuracy : (g.accuracy / 3).rounded(.down))
        if !jumps && random.chance(20) { g.accuracySpread = Int(random.int(in: 10...60)) }
        g.delay = ms(100...600)
        g.jitter = SimTime(ms: random.pick([0, 0, 400, random.int(in: 0...1_500)]))
        // Jumps are single: a fix used after one not used (dropped, out of order, or a jump
        // itself) may honestly be farther off, so no jitter then, and jumps 5 s apart.
        if jumps { g.jitter = .zero }
        if jumps {
            // Single multipath jumps ahead along the route, each 110–160 m: farther than the
            // plausibility gate allows in 1 s, within the follower's search window.
            g.jumps = (0..<Int(random.int(in: 1...2))).map { _ in
                FixGenerator.Jump(
                    at: ms(start.ms...max(start.ms, span - 1_000)), along: Double(random.int(in: 110...160)),
                    across: Double(random.int(in: -10...10)))
            }
            // The first one from 40–70 m before a turn onto the road after it, 80–100 m
            // past the turn (100 m or more away, but within the follower's search window),
            // where a follower that trusts it moves on past the turn early.
            // Not at a U-turn: the road after it runs back beside the one before.
            let eligible = (0..<count).filter {
                $0 + 1 < count && $0 + 1 < directions.count && !(reverses && $0 == waypoint)
            }
            if !eligible.isEmpty {
                let k = random.pick(eligible)
                let before = Double(random.int(in: 40...70))
                let incoming = directions[k]
                let outgoing = directions[k + 1]
                let side = (outgoing.x * incoming.y - outgoing.y * incoming.x) > 0 ? 1.0 : -1.0
                if let at = trajectory.time(reaching: corners[k] - before) {
                    g.jumps[0] = FixGenerator.Jump(
                        at: at, along: before, across: side * Double(random.int(in: 80...100)))
                }
            }
            g.jumps = RoadGenerator.apart(g.jumps)
        } else {
            g.dropPercent = random.pick([0, 0, 2, 10])
            // A tunnel, entered once the car has set off.
            if random.chance(30) {
                let cruising = start.ms + Int64(steps[0].speed / profile.accel * 1000) + 2_000
                let from = ms(min(cruising, span)...max(cruising, span - 5_000))
                g.gaps = [SimInterval(from, from + ms(5_000...60_000))]
            }
            if random.chance(15) {
                let from = ms(start.ms...max(start.ms, span - 5_000))
                g.late = [(SimInterval(from, from + ms(2_000...20_000)), ms(500...4_000))]
            }
        }
        if !jumps && random.chance(15) {
            let from = ms(start.ms...max(start.ms, span - 20_000))
            let detour = Scenario.Detour(
                window: SimInterval(from, from + ms(10_000...40_000)),
                offset: Double(random.pick([-1, 1]) * random.int(in: 50...150)))
            // A detour is a sideways offset from the route (docs/road.md): across a turn the
            // offset would swing round with the road and the car jump, so it stays on one leg,
            // its offset and 30 m clear of every turn.
            let a = trajectory.state(at: detour.window.start).distance
            let b = trajectory.state(at: detour.window.end).distance
            let clear = abs(detour.offset) + 30
            if changing == nil, !(corners.dropLast() + bends).contains(where: { $0 > a - clear && $0 < b + clear }) {
                drive.detours = [detour]
            }
        }
        let language: Language = random.chance(50) ? .ko : .en
        var road = Scenario.Road(
            language: language, points: points, maneuvers: specs, drive: drive, fixes: .generated(g))
        // The link.
        road.link.latency = SimTime(ms: random.pick([0, 300, 300, random.int(in: 100...3_000)]))
        road.link.freshness = SimTime(ms: random.pick([2_000, 2_000, random.int(in: 500...4_000)]))
        if random.chance(40) {
            var t = start.ms
            road.link.outages = (0..<Int(random.int(in: 1...2))).compactMap { _ in
                let from = t + random.int(in: 0...max(1, (span - t) / 2))
                let to = from + random.int(in: 2_000...30_000)
                t = to + 1
                return SimInterval(SimTime(ms: from), SimTime(ms: to))
            }
        }
        if let changing { addChanges(changing, to: &road, trajectory: trajectory, span: span) }
        // The app: guidance segments, the background.
        if random.chance(35) {
            let a = random.int(in: 0...max(1, span / 2))
            let b = a + random.int(in: 10_000...max(10_001, span))
            var segments = [SimInterval(SimTime(ms: a), SimTime(ms: b))]
            if random.chance(40) {
                let from = b + random.int(in: 1_000...20_000)
                segments.append(SimInterval(SimTime(ms: from), SimTime(ms: max(from + 10_000, span + 10_000))))
            }
            road.segments = segments
            if !jumps && random.chance(50) { road.background = [SimInterval(.zero, SimTime(ms: span + 20_000))] }
        }
        road.guidance.outputLatency = SimTime(ms: random.pick([1_500, 1_500, 0, random.int(in: 0...3_000)]))
        // Talk on top.
        var scenario = Scenario(
            name: name,
            settings: Scenario.Settings(
                earsTail: SimTime(ms: random.pick([0, 500, random.int(in: 1...1_500)])),
                waitLimit: SimTime(ms: random.pick([0, 3_000, random.int(in: 200...4_000)])),
                afterCut: random.pick(Scenario.AfterCut.allCases)))
        var stretch = 0
        for i in 0..<Int(random.int(in: 0...4)) {
            let stretches = (0..<Int(random.int(in: 1...3))).map { k -> Scenario.Stretch in
                defer { stretch += 1 }
                return Scenario.Stretch(
                    id: "s\(stretch)", duration: ms(500...6_000),
                    ready: k > 0 && random.chance(30) ? ms(1...3_000) : .zero)
            }
            scenario.replies.append(Scenario.Reply(id: "r\(i)", at: ms(0...span), stretches: stretches))
        }
        // Hand-written lines on the same bus, which generated lines wait behind.
        for i in 0..<Int(random.int(in: 0...2)) {
            scenario.guidance.append(
                GuidanceLine(id: "g\(i)", at: ms(0...span), duration: ms(1_000...8_000), urgent: random.chance(30)))
        }
        var free = SimTime.zero
        for i in 0..<Int(random.int(in: 0...2)) {
            let at = free + ms(0...max(1, span / 2))
            let length = ms(500...3_000)
            free = at + length
            let reply =
                random.chance(50)
                ? Scenario.DadReply(
                    id: "a\(i)", after: ms(0...1_000),
                    stretches: [Scenario.Stretch(id: "a\(i)s0", duration: ms(500...4_000))])
                : nil
            scenario.dad.append(
                Scenario.Utterance(id: "u\(i)", at: at, duration: length, language: language, reply: reply))
        }
        scenario.road = road
        sendAfterStretches(&scenario)
        return scenario
    }

    /// How far apart a U-turn's two carriageways lie, meters: beyond what
    /// any drawn fix's accuracy and noise (25 m each) put a fix off its own.
    static let carriageways = 60.0
    /// A generated ferry's speed, km/h (`RouteImporter.ferryKmh`).
    static let ferryKmh = 30.0

    /// Jumps in time order, each at least 5 s after the one before (the others left out).
    static func apart(_ jumps: [FixGenerator.Jump]) -> [FixGenerator.Jump] {
        var out: [FixGenerator.Jump] = []
        for jump in jumps.sorted(by: { $0.at < $1.at })
        where out.last.map({ jump.at - $0.at >= SimTime(ms: 5_000) }) ?? true {
            out.append(jump)
        }
        return out
    }

    /// The point `distance` meters along the polyline `points`.
    private func pointAt(_ distance: Double, points: [GeoPoint], projection: LocalProjection) -> Vector {
        var done = 0.0
        var previous = projection.project(points[0])
        for point in points.dropFirst() {
            let p = projection.project(point)
            let leg = (p - previous).length
            if done + leg >= distance - 1e-6 { return previous + (p - previous) * ((distance - done) / max(leg, 1e-9)) }
            done += leg
            previous = p
        }
        return previous
    }

    // MARK: Aiming at the road's boundaries

    /// Moves one thing onto an instant of a dry run that matters: the
    /// road's plan, whose events and generated lines the simulation would
    /// record at the same instants (the road never depends on the talk).
    private mutating func snap(_ scenario: inout Scenario) {
        guard var road = scenario.road, case .generated(var g) = road.fixes else { return }
        let plan = plan(scenario.road)
        if !road.changes.isEmpty, changeStream.chance(50), snapChange(&scenario, plan: plan) { return }
        // When each generated line is requested, in the order the simulation requests them.
        let requests = plan.lines.map(\.at)
        var arrivals: [SimTime] = []
        var sent: [(SimTime, Int64)] = []
        var passes: [SimTime] = []
        for event in plan.events {
            switch event.what {
            case .fixArrived: arrivals.append(event.t)
            case .reportSent(_, let age, _, _): sent.append((event.t, age))
            case .turnPassed: passes.append(event.t)
            default: continue
            }
        }
        switch random.below(7) {
        case 0:
            // A generated line comes due while Pippa's stretch has exactly waitLimit left (±1 ms).
            guard !requests.isEmpty else { return }
            let t = random.pick(requests)
            let length = ms(1_000...6_000)
            let at = t + scenario.settings.waitLimit - length + SimTime(ms: random.int(in: -1...1))
            guard at >= .zero else { return }
            scenario.replies.append(
                Scenario.Reply(id: "rw", at: at, stretches: [Scenario.Stretch(id: "sw", duration: length)]))
            return
        case 1:
            // A fix arriving in the instant a guidance segment ends.
            guard !arrivals.isEmpty else { return }
            let t = random.pick(arrivals)
            var segments = road.segments ?? []
            if let i = segments.firstIndex(where: { $0.start < t && t <= $0.end }) {
                segments[i].end = t
            } else if segments.allSatisfy({ $0.end <= SimTime(ms: max(0, t.ms - 20_000)) || $0.start > t }) {
                segments.append(SimInterval(SimTime(ms: max(0, t.ms - 20_000)), t))
                segments.sort { $0.start < $1.start }
            }
            road.segments = segments
        case 2:
            // An outage beginning while a report is in flight, or in the instant it lands.
            guard !sent.isEmpty, road.link.latency.ms > 0 else { return }
            let (t, _) = random.pick(sent)
            let from =
                t + SimTime(ms: random.chance(25) ? road.link.latency.ms : random.int(in: 1...road.link.latency.ms))
            road.link.outages = [SimInterval(from, from + ms(1_000...15_000))]
        case 3:
            // A report that reaches its freshness limit in flight (or 1 ms either side).
            guard !sent.isEmpty else { return }
            let (_, age) = random.pick(sent)
            let freshness = age + road.link.latency.ms + random.int(in: -1...1)
            guard freshness >= 0 else { return }
            road.link.freshness = SimTime(ms: freshness)
        case 4:
            // A multipath jump 40–140 m before a turn (only where jumps are drawn).
            guard !g.jumps.isEmpty, !passes.isEmpty else { return }
            let pass = random.pick(passes)
            let speed = max(1, road.drive?.profile.steps.first?.speed ?? 10)
            let at = pass - SimTime(ms: Int64(Double(random.int(in: 40...140)) / speed * 1000))
            guard at >= .zero else { return }
            g.jumps[0].at = at
            g.jumps = RoadGenerator.apart(g.jumps)
        case 5:
            // A hand-written line playing when a generated one comes due (it waits behind it).
            guard !requests.isEmpty else { return }
            let t = random.pick(requests)
            let length = ms(2_000...8_000)
            let at = t - SimTime(ms: random.int(in: 0...min(length.ms - 1, 3_000)))
            guard at >= .zero else { return }
            scenario.guidance.append(GuidanceLine(id: "gw", at: at, duration: length, urgent: random.chance(50)))
            return
        default:
            // A tunnel ending 3–20 s before a turn.
            guard g.jumps.isEmpty, !passes.isEmpty, let drive = road.drive else { return }
            let end = random.pick(passes) - ms(3_000...20_000)
            let from = end - ms(5_000...60_000)
            // Entered once the car has set off (see `base`).
            guard
                from >= drive.start
                    + SimTime(ms: Int64(drive.profile.steps[0].speed / drive.profile.accel * 1000) + 2_000)
            else { return }
            g.gaps = [SimInterval(from, end)]
        }
        road.fixes = .generated(g)
        scenario.road = road
    }
}
