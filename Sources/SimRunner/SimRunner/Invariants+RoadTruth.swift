import Guidance
import Road
import SimClock

/// The road's checks against the truth: the true track (the generated
/// drive's trajectory, or the recorded fixes' `true` positions) and the
/// recorded timeline, never the planner's or the follower's state.
extension Invariants {
    /// Values by fix index (`FixIndex.raw`): in an array over the fixes the
    /// road took (`RoadPlan.fixCount`), and in a dictionary for any other
    /// index a timeline names (a broken one may name any).
    struct ByFix<Value> {
        private var taken: [Value?]
        private var other: [Int32: Value] = [:]

        /// None yet, for a road that took `count` fixes.
        init(_ count: Int) { taken = Array(repeating: nil, count: max(0, count)) }

        /// The value of fix `f`, if any.
        subscript(_ f: Int32) -> Value? {
            get { f >= 0 && Int(f) < taken.count ? taken[Int(f)] : other[f] }
            set { if f >= 0 && Int(f) < taken.count { taken[Int(f)] = newValue } else { other[f] = newValue } }
        }
    }

    /// The truth of a road, recomputed from the scenario alone.
    struct RoadTruth {
        /// The scenario's route.
        let route: Route
        let trajectory: Trajectory?
        /// Each maneuver's distance along the true path (the route, then the
        /// roads it changes onto), by id: only those the car truly reaches on their own road.
        let distances: [String: Double]
        /// When the true track reached each maneuver, by id (none: never, or no truth).
        let passes: [String: SimTime]
        /// How far the believed position may honestly lie from the truth:
        /// the worst accuracy the generated fixes report, meters.
        let tolerance: Double
        /// Whether there is any truth to compare with.
        var known: Bool { trajectory != nil || !passes.isEmpty }
        /// How far ahead of the truth the follower's progress may honestly be
        /// (the worst accuracy, twice the worst noise of a fix, four deviations
        /// of correlated noise, projected onto a corner, and 5 m), meters;
        /// nil without generated fixes.
        let ahead: Double?
        /// The farthest from the truth the worst noise puts a fix, meters
        /// (four deviations of correlated noise); 0 without generated fixes.
        let noiseReach: Double
        /// The generated fixes by index, each with its truth (nil: lost, or recorded fixes).
        let fixes: [Fix?]
        /// The road's maneuver ids, copies included, and the routes that hold them.
        let ids: ManeuverIDs
        /// Where the car leaves each road for the next along the true path (each change's branch), meters.
        let branches: [Double]

        /// Where maneuver `id` (or the original of a copy, `ManeuverIDs`) lies along the true path, if the car reaches it.
        func distance(of id: String) -> Double? { distances[ids.original(of: id)] }
        /// When the true track reached maneuver `id` (or the original of a copy).
        func pass(of id: String) -> SimTime? { passes[ids.original(of: id)] }

        /// The generated fix `f`, if there is one.
        func fix(_ f: FixIndex) -> Fix? { f.int >= 0 && f.int < fixes.count ? fixes[f.int] : nil }

        /// Whether fix `f` lies within what noise explains of the truth (or
        /// there is no generated fix to tell): a follower that used it knows
        /// where the car is. One farther off (a multipath jump) may match the
        /// route anywhere near it, or leave the follower behind: progress
        /// never moves back, so a jump backwards holds the progress of
        /// earlier fixes as of its own, later time.
        func honest(_ f: FixIndex) -> Bool { error(f) <= noiseReach }

        /// How far fix `f` lies from where the car truly was, meters (0 when there is no generated fix to tell).
        func error(_ f: FixIndex) -> Double {
            guard let fix = fix(f), let truth = fix.truth else { return 0 }
            return route.meters(fix.position, truth)
        }

        /// `shape` is the road's shape (`RoadShape`) when the caller has it
        /// (a fuzz run's generator found it): used if the road has it.
        init?(_ road: Scenario.Road, shape: RoadShape? = nil) {
            guard let shape = shape?.fitting(road) ?? (try? RoadShape(road)) else { return nil }
            let path = shape.truePath
            let route = path.first
            self.route = route
            ids = ManeuverIDs(road)
            branches = path.starts
            switch road.fixes {
            case .generated(let g):
                tolerance = g.stretches.map(\.accuracy).reduce(g.accuracy, max) * (1 + Double(g.accuracySpread) / 100)
                let t = shape.trajectory
                trajectory = t
                distances = path.maneuverDistances
                passes = distances.compactMapValues { t?.time(reaching: $0) }
                let noise = g.stretches.map(\.noise).reduce(g.noise, max) * (g.correlation == nil ? 1 : 4)
                ahead = tolerance + 2 * 2.0.squareRoot() * noise + 5
                noiseReach = 2.0.squareRoot() * noise
                let made = t.map { road.generatedFixes(g, on: path.route, trajectory: $0) } ?? []
                var byIndex = [Fix?](repeating: nil, count: (made.last?.index ?? -1) + 1)
                for f in made { byIndex[f.index] = f }
                fixes = byIndex
            case .recorded:
                tolerance = 0
                ahead = nil
                noiseReach = 0
                fixes = []
                trajectory = nil
                distances = Dictionary(route.maneuvers.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
                let times = road.trueTrack(on: route)?.passTimes(on: route) ?? []
                passes = Dictionary(
                    zip(route.maneuvers, times).compactMap { m, t in t.map { (m.id, $0) } },
                    uniquingKeysWith: { a, _ in a })
            }
        }
    }

    /// The spoken distance of a far or near line, meters: a fraction of a
    /// mile, or the first number followed by its unit (`meters`,
    /// `kilometers`, `미터`, `킬로미터`, `feet`, `miles`).
    static func spokenMeters(_ text: String) -> Double? { spokenDistance(text)?.meters }

    /// The spoken distance of a line and the units it is said in (`spokenMeters`'s reading).
    static func spokenDistance(_ text: String) -> (meters: Double, units: Units)? {
        let mile = SpokenDistance.metersPerFoot * 5280
        for (words, miles) in [("a quarter mile", 0.25), ("a half mile", 0.5), ("three quarters of a mile", 0.75)]
        where says(text, words) {
            return (miles * mile, .imperial)
        }
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            guard ("0"..."9").contains(scalars[i]) else {
                i += 1
                continue
            }
            var j = i
            while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == "." || scalars[j] == "," {
                j += 1
            }
            let number = Double(String(String.UnicodeScalarView(scalars[i..<j].filter { $0 != "," })))
            var k = j
            while k < scalars.count, scalars[k] == " " { k += 1 }
            let rest = String(String.UnicodeScalarView(scalars[k..<min(scalars.count, k + 10)]))
            if let number {
                if rest.hasPrefix("kilometer") || rest.hasPrefix("킬로미터") { return (number * 1000, .metric) }
                if rest.hasPrefix("meter") || rest.hasPrefix("미터") { return (number, .metric) }
                if rest.hasPrefix("feet") || rest.hasPrefix("foot") {
                    return (number * SpokenDistance.metersPerFoot, .imperial)
                }
                if rest.hasPrefix("mile") { return (number * mile, .imperial) }
            }
            i = j
        }
        return nil
    }

    /// How old the last trusted fix may be for the app to know where it is (R6).
    package static let positionFresh = SimTime(ms: 3_000)

    /// R4 `announced`: every maneuver the true track reaches is passed in the
    /// timeline (whether it got a "now" line or a reason is R2's); R5
    /// `link-honest`: no report lands in an outage, none sent fresh lands
    /// older than the freshness limit (one sent stale is R3's), none is sent
    /// for a fix older than one already reported, every fix that arrives
    /// is reported or dropped with a reason; R6 `spoken-distance`: a far or
    /// near line never says more meters than are truly left when it starts,
    /// while the app knows where it is (the last fix it used was taken within
    /// `positionFresh` and is no jump, `RoadTruth.honest`; beyond that its
    /// position is a prediction, and how far the car truly went is not the
    /// app's to know); R7 `passed-truth`: "turn passed" never before the
    /// true track passed it, and no fix that is no jump moves the follower
    /// on to the next maneuver (`road.turn.upcoming`) while the true track
    /// is more than `RoadTruth.ahead` before it; R8 `jump-dropped` (`checkJumps`); R9
    /// `geodesy` (`checkGeodesy`).
    package static func checkRoadTruth(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        scenario.road.map { checkRoadTruth(scenario, run, RoadTruth($0)) } ?? []
    }

    /// As `checkRoadTruth(_:_:)`, with the road's truth already made (it generates every fix again).
    static func checkRoadTruth(_ scenario: Scenario, _ run: Simulation, _ truth: RoadTruth?) -> [Violation] {
        guard let road = scenario.road else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        var found: [Violation] = []
        let count = roster.road.maneuvers.count
        var passedAt = [SimTime?](repeating: nil, count: count)
        var index: [String: Int] = [:]
        for (i, m) in roster.road.maneuvers.enumerated() { index[m.id] = i }
        // The link: reports sent and in flight, by fix (when its fix was taken, and when it was sent).
        var reports = ByFix<(taken: SimTime, sent: SimTime)>(roster.road.fixCount)
        var newestSent: SimTime? = nil
        var arrived: [Int32] = []
        var reported = ByFix<Bool>(roster.road.fixCount)
        var lastUsedTaken: SimTime? = nil
        var lastUsedHonest = true
        var lastArrivedTaken: SimTime? = nil
        var lastArrived: FixIndex? = nil
        let dropped = droppedFixes(timeline)
        let arrivals = arrivals(roster)
        for event in timeline.events {
            switch event.what {
            case .road(.turnPassed(let m)): passedAt[m.int] = passedAt[m.int] ?? event.t
            case .guidanceStarted(let l)
            where roster.stage(of: l) == .now && roster.lines[l.int].maneuver.map(arrivals.contains) == true:
                // "You have arrived" is heard only once the car is truly within `arrivedWithin`
                // of the destination, and what its fixes explain (as for a pass: a jump, or a
                // stale position, excuses it).
                let heard = event.t + road.guidance.outputLatency
                guard let taken = lastUsedTaken, lastUsedHonest, heard - taken <= positionFresh,
                    let truth, let trajectory = truth.trajectory, let slack = truth.ahead,
                    let point = roster.lines[l.int].maneuver.flatMap(truth.distance(of:))
                else { continue }
                let left = point - trajectory.state(at: heard).distance
                // The app predicts at the speed of its last fix; braking since, the car truly went
                // up to ½·decel·T² less.
                let since = Double((heard - taken).ms) / 1000
                let braking = (road.drive?.profile.decel ?? 0) * since * since / 2
                if left > slack + Announcer.arrivedWithin + braking {
                    found.append(
                        .init(
                            check: .road(.passedTruth), t: event.t,
                            message:
                                "line \(roster.lines[l.int].id) says the car has arrived, heard from \(heard), \(Int(left.rounded(.down))) m before the destination"
                        ))
                }
            case .guidanceStarted(let l):
                // The words it starts with: a line that waited says what the position then gives.
                guard let taken = lastUsedTaken, lastUsedHonest, event.t - taken <= positionFresh,
                    // Far and near lines, and "continue" lines (no stage): each says a distance to its maneuver.
                    let truth, let trajectory = truth.trajectory, roster.stage(of: l) != .now,
                    let id = roster.lines[l.int].maneuver, let point = truth.distance(of: id),
                    let text = roster.text(of: l, startingAt: event.t),
                    let said = spokenMeters(text)
                else { continue }
                let left = point - trajectory.state(at: event.t).distance
                // The app knows where it is only as well as its fixes are: their
                // accuracy and, for generated fixes, their noise (as for the follower).
                if said > left + (truth.ahead ?? truth.tolerance) {
                    found.append(
                        .init(
                            check: .road(.spokenDistance), t: event.t,
                            message:
                                "line \(roster.lines[l.int].id) says \(Int(said)) m when \(Int(max(0, left))) m are left"
                        ))
                }
            case .road(.fixArrived(let f, let age, let trusted)):
                arrived.append(f.raw)
                lastArrived = f
                lastArrivedTaken = event.t - SimTime(ms: age)
                if trusted && dropped[f.raw] == nil {
                    lastUsedTaken = event.t - SimTime(ms: age)
                    lastUsedHonest = truth?.honest(f) ?? true
                }
            case .road(.turnUpcoming(let next, _, _)):
                // The follower moved on past the maneuver before `next` with the fix just arrived:
                // the car must truly be there, within what the fixes' accuracy and noise allow.
                // A jump (a fix farther from the truth than noise puts one) may match the route
                // anywhere near it, however far along: whether it should have been used is `jump-dropped`'s.
                // The maneuver before is of the same route: a new route's first maneuver has none.
                guard next.maneuver.int > 0, let taken = lastArrivedTaken,
                    let truth, let trajectory = truth.trajectory, let slack = truth.ahead,
                    lastArrived.map(truth.honest) ?? true,
                    case let before = roster.road.maneuvers[next.maneuver.int - 1].id,
                    truth.ids.route(of: before) == truth.ids.route(of: roster.road.maneuvers[next.maneuver.int].id),
                    let point = truth.distance(of: before)
                else { continue }
                let behind = point - trajectory.state(at: taken).distance
                // On a detour the car is truly beside the route, and a fix there may lie nearer the leg after a corner.
                let aside = road.drive?.detours.map { abs($0.offset(at: taken)) }.max() ?? 0
                if behind > slack + 2 * aside {
                    found.append(
                        .init(
                            check: .road(.passedTruth), t: event.t,
                            message:
                                "the follower moved past \(roster.road.maneuvers[next.maneuver.int - 1].id) at \(event.t), \(Int(behind)) m before the car reached it"
                        ))
                }
            case .road(.reportSent(let f, let age, _, _)):
                reported[f.raw] = true
                let taken = event.t - SimTime(ms: age)
                if let newest = newestSent, taken <= newest {
                    found.append(
                        .init(
                            check: .road(.linkHonest), t: event.t, message: "f\(f.raw) was reported after a newer fix"))
                }
                newestSent = max(newestSent ?? taken, taken)
                reports[f.raw] = (taken, event.t)
            case .road(.reportDropped(let f, _)): reported[f.raw] = true
            case .road(.reportDelivered(let f)):
                guard let report = reports[f.raw] else {
                    found.append(
                        .init(check: .road(.linkHonest), t: event.t, message: "f\(f.raw) was delivered but never sent"))
                    continue
                }
                let (taken, sent) = report  // no outage may begin between the send and the landing
                if road.link.outages.contains(where: { $0.contains(event.t) || ($0.start > sent && $0.start < event.t) }
                ) {
                    found.append(
                        .init(
                            check: .road(.linkHonest), t: event.t, message: "f\(f.raw) was delivered through an outage")
                    )
                }
                // A report sent stale is the sender's fault (R3 `link`); one sent fresh must not go stale in flight.
                if (sent - taken).ms <= road.link.freshness.ms, (event.t - taken).ms > road.link.freshness.ms {
                    found.append(
                        .init(
                            check: .road(.linkHonest), t: event.t,
                            message:
                                "f\(f.raw) was sent fresh but delivered \((event.t - taken).ms) ms old, over its freshness"
                        ))
                }
            default: continue
            }
        }
        for f in arrived where reported[f] == nil {
            found.append(
                .init(
                    check: .road(.linkHonest), t: .zero,
                    message: "f\(f) arrived but was neither reported nor dropped with a reason"))
        }
        if let truth { found += checkJumps(road, truth, timeline) + checkGeodesy(truth, timeline) }
        guard let truth, truth.known else { return found }
        let end = timeline.events.last?.t ?? .zero
        var passedByID: [String: SimTime] = [:]
        for m in 0..<count {
            let id = roster.road.maneuvers[m].id
            guard let pass = passedAt[m] else { continue }
            passedByID[id] = passedByID[id] ?? pass
            if let truePass = truth.pass(of: id), pass < truePass {
                found.append(
                    .init(
                        check: .road(.passedTruth), t: pass,
                        message: "\(id) was passed at \(pass), before the true track passed it at \(truePass)"))
            }
        }
        found += checkTrueTurns(road, truth, timeline, passed: passedByID, until: end)
        return found + checkPippaView(truth, timeline)
    }

    /// `pippa-view`: every `road.report.delivered` (what Pippa's location
    /// layer is told) is judged against the truth at the instant its fix was
    /// taken, for generated fixes that are no jump. Sent off the route
    /// (`onRoute` false) it carries no next maneuver: a distance along the
    /// road the car has left is not where it is. One that carries the next
    /// maneuver names one the car has not truly passed, with no maneuver of
    /// the route followed then truly between the car and it, at its true
    /// distance within the fixes' slack (`RoadTruth.ahead`, and 1 m of
    /// rounding down). Once the follower used a jump on a route (after as
    /// many refusals as allowed: `jump-dropped`), progress never moves back,
    /// so that route's reports are not judged by where the car is.
    static func checkPippaView(_ truth: RoadTruth, _ timeline: Timeline) -> [Violation] {
        guard let trajectory = truth.trajectory, let slack = truth.ahead, !truth.fixes.isEmpty else { return [] }
        let roster = timeline.roster
        // Every maneuver the car truly makes, by its distance along the true path, with its route.
        let ahead = truth.distances.compactMap { id, d in truth.ids.route(of: id).map { (d, $0, id) } }
            .sorted { ($0.0, $0.2) < ($1.0, $1.2) }
        var sent = ByFix<(taken: SimTime, onRoute: Bool, next: RoadEvent.Ahead?, route: Int)>(roster.road.fixCount)
        var followed = 0
        /// Whether the follower used a jump on the route followed.
        var jumped = false
        let dropped = droppedFixes(timeline)
        var found: [Violation] = []
        func fire(_ t: SimTime, _ message: String) {
            found.append(.init(check: .road(.pippaView), t: t, message: message))
        }
        for event in timeline.events {
            switch event.what {
            case .road(.routeSwitched(let c, _)):
                followed = c + 1
                jumped = false
            case .road(.fixArrived(let f, _, true)) where dropped[f.raw] == nil && !truth.honest(f): jumped = true
            case .road(.reportSent(let f, let age, let onRoute, let next)):
                sent[f.raw] = (event.t - SimTime(ms: age), onRoute, next, followed)
            case .road(.reportDelivered(let f)):
                guard let report = sent[f.raw], let next = report.next, truth.honest(f) else { continue }
                let id = roster.road.maneuvers[next.maneuver.int].id
                if !report.onRoute {
                    fire(
                        event.t,
                        "f\(f.raw)'s report, sent off the route, tells Pippa \(id) is \(next.distanceM) m ahead along the road the car left"
                    )
                    continue
                }
                guard !jumped, let point = truth.distance(of: id) else { continue }
                let car = trajectory.state(at: report.taken).distance
                let left = point - car
                if point < car - slack {
                    fire(
                        event.t,
                        "f\(f.raw)'s report names \(id) as next, which the car truly passed \(Int(-left)) m before")
                    continue
                }
                if abs(Double(next.distanceM) - left) > slack + 1 {
                    fire(
                        event.t,
                        "f\(f.raw)'s report puts \(id) \(next.distanceM) m ahead, truly \(Int(left.rounded(.down))) m")
                    continue
                }
                // The first maneuver of the route followed truly ahead of the car, beyond the slack.
                let low = ahead.partitioningIndex { $0.0 > car + slack }
                if let first = ahead[low...].first(where: { $0.1 <= report.route }), first.0 < point - slack,
                    truth.ids.original(of: id) != first.2
                {
                    fire(event.t, "f\(f.raw)'s report names \(id) as next, but the car truly reaches \(first.2) first")
                }
            default: continue
            }
        }
        return found
    }

    /// R4 `announced`, for every maneuver the car truly makes (on the
    /// scenario's route and on each road it changes onto), reached by `end`:
    /// the route the app followed then holds it (as itself, or as a copy
    /// when that route began before its branch: `RoadPlan.copyID`) and the
    /// timeline says it was passed, so that R2 judges its "now" line or its
    /// reason; or it lies on a road the car branched onto that no route the
    /// app had then holds (the car left the app's route: at the branch, or
    /// on a road the maps door has not answered with yet), and the app
    /// learned it: the follower has the car off route at the pass or later,
    /// or a later switch brings a route; or too few fixes came to learn it
    /// from: fewer than `follow.offRouteCount` taken once the car was
    /// `follow.offRouteEnter` and the fixes' slack past the branch (it can
    /// lie no farther than that from the route it left).
    static func checkTrueTurns(
        _ road: Scenario.Road, _ truth: RoadTruth, _ timeline: Timeline, passed: [String: SimTime], until end: SimTime
    ) -> [Violation] {
        // The route followed from each instant (0 the scenario's, k change k − 1's), and whether the follower had the car off it.
        var followed: [(t: SimTime, route: Int)] = [(.zero, 0)]
        var offRoute: [(t: SimTime, off: Bool)] = []
        var taken: [SimTime] = []
        for event in timeline.events {
            switch event.what {
            case .road(.fixArrived(_, let age, _)): taken.append(event.t - SimTime(ms: age))
            case .road(.routeSwitched(let c, _)):
                followed.append((event.t, c + 1))
                offRoute.append((event.t, false))
            case .road(.offRoute): offRoute.append((event.t, true))
            case .road(.onRoute): offRoute.append((event.t, false))
            default: continue
            }
        }
        /// The last entry of `list` at or before `t`, by time.
        func last<T>(_ list: [(t: SimTime, T)], at t: SimTime) -> Int? {
            let after = list.partitioningIndex { $0.t > t }
            return after > 0 ? after - 1 : nil
        }
        var found: [Violation] = []
        for (id, pass) in truth.passes.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) where pass <= end {
            guard let k = truth.ids.route(of: id) else { continue }
            let f = last(followed, at: pass)!
            let r = followed[f].route
            if k > r {
                // On a road the app has no route for yet: it must learn that the car left its route.
                let i = last(offRoute, at: pass)
                let away = truth.branches[r] + road.follow.offRouteEnter + (truth.ahead ?? truth.tolerance)
                let off = truth.trajectory?.time(reaching: away) ?? RoadSetup.Limits.maxTime + SimTime(ms: 1)
                let knew =
                    (i.map { offRoute[$0].off } ?? false) || f + 1 < followed.count
                    || offRoute[((i ?? -1) + 1)...].contains { $0.off }
                    || taken.lazy.filter { $0 >= off }.count < road.follow.offRouteCount
                if !knew {
                    found.append(
                        .init(
                            check: .road(.announced), t: pass,
                            message:
                                "the car made \(id) at \(pass) on a road no route followed then holds, and the follower never had it off its route"
                        ))
                }
                continue
            }
            let held = k == r ? id : RoadPlan.copyID(change: road.changes[r - 1].id, maneuver: id)
            if passed[held] == nil {
                let on = r == 0 ? "the scenario's route" : "the route of \(road.changes[r - 1].id)"
                found.append(
                    .init(
                        check: .road(.announced), t: pass,
                        message:
                            held == id
                            ? "the car passed \(id) at \(pass) but the timeline never says so"
                            : "the car passed \(id) at \(pass), followed on \(on) as \(held), but the timeline never says so"
                    ))
            }
        }
        return found
    }

    /// R8 `jump-dropped`: a generated fix that reaches the plausibility gate
    /// (trusted, in order) while the fix the follower used last is one it
    /// did use and fewer than `follow.implausibleCount` were refused since,
    /// is dropped `implausible` when its truth rules it out: the least the
    /// two fixes can lie apart (this one's error, less the other's, the
    /// car's true move between them and both accuracies) is more than
    /// `follow.plausibleSpeed` allows, or than the faster of their reported
    /// speeds gaining `follow.plausibleAccel`. That least distance is a
    /// lower bound of what the follower measures, so a follower as
    /// documented always refuses such a fix; one that trusts every jump
    /// does not. A jump it may honestly use (a plausible one, or one after
    /// `implausibleCount` refusals: then the earlier fix was the wrong one)
    /// is used, and `passed-truth` excuses where it puts the follower.
    static func checkJumps(_ road: Scenario.Road, _ truth: RoadTruth, _ timeline: Timeline) -> [Violation] {
        let follow = road.follow
        guard follow.implausibleCount > 0, !truth.fixes.isEmpty else { return [] }
        let dropped = droppedFixes(timeline)
        var found: [Violation] = []
        var last: Fix? = nil
        var refused = 0
        for event in timeline.events {
            guard case .road(.fixArrived(let f, _, true)) = event.what else { continue }
            switch dropped[f.raw] {
            case .implausible?:
                refused += 1
                continue
            case .outOfOrder?, .inaccurate?: continue
            case nil: break
            }
            let fix = truth.fix(f)
            defer {
                last = fix
                refused = 0
            }
            guard let fix, let before = last, refused < follow.implausibleCount,
                let least = leastApart(fix, before, on: truth.route), fix.taken > before.taken
            else { continue }
            let seconds = Double((fix.taken - before.taken).ms) / 1000
            var limit = follow.plausibleSpeed * seconds
            if let a = fix.speed, let b = before.speed {
                limit = min(limit, (max(a, b) + follow.plausibleAccel * seconds / 2) * seconds)
            }
            if least > limit {
                found.append(
                    .init(
                        check: .road(.jumpDropped), t: event.t,
                        message:
                            "f\(f.raw) was used, though it lies \(Int(least.rounded(.down))) m beyond both accuracies from f\(before.index) "
                            + "taken \(Int64(seconds * 1000)) ms before, farther than the car could go (\(Int(limit.rounded(.up))) m)"
                    ))
            }
        }
        return found
    }

    /// Why each fix not used was dropped, by fix (a fix that arrived trusted
    /// and is not here was used: the follower observed it).
    static func droppedFixes(_ timeline: Timeline) -> ByFix<RoadEvent.FixDropReason> {
        var dropped = ByFix<RoadEvent.FixDropReason>(timeline.roster.road.fixCount)
        for event in timeline.events {
            if case .road(.fixDropped(let f, let reason)) = event.what { dropped[f.raw] = reason }
        }
        return dropped
    }

    /// R9 `geodesy`: the gap a `road.turn.upcoming` gives between its
    /// maneuver and the next is the earth's, within 0.1% and the 1 m of
    /// rounding both distances down. The earth's is measured apart from the
    /// road's own metric: the great circle (haversine) along the route's
    /// points, each segment's line cut into pieces of at most 1 km
    /// (`earthLengths`). A plane measured at one latitude drifts by
    /// percents over hundreds of kilometers; this is where it shows.
    static func checkGeodesy(_ truth: RoadTruth, _ timeline: Timeline) -> [Violation] {
        let route = truth.route
        let earth = earthLengths(route)
        /// The earth's distance to a point `d` meters along by the road (its segment and its fraction of it).
        func onEarth(_ d: Double) -> Double {
            let i = route.segment(at: d)
            let span = route.cumulative[i + 1] - route.cumulative[i]
            let u = span > 0 ? min(max((d - route.cumulative[i]) / span, 0), 1) : 0
            return earth[i] + u * (earth[i + 1] - earth[i])
        }
        var found: [Violation] = []
        for event in timeline.events {
            guard case .road(.turnUpcoming(let next, _, let after?)) = event.what,
                after.maneuver.int < route.maneuvers.count, next.maneuver.int < route.maneuvers.count
            else { continue }
            let expected =
                onEarth(route.maneuvers[after.maneuver.int].distance)
                - onEarth(route.maneuvers[next.maneuver.int].distance)
            let said = Double(after.distanceM) - Double(next.distanceM)
            if abs(said - expected) > 1 + expected / 1000 {
                found.append(
                    .init(
                        check: .road(.geodesy), t: event.t,
                        message:
                            "the road puts \(route.maneuvers[after.maneuver.int].id) \(Int64(said)) m after \(route.maneuvers[next.maneuver.int].id), "
                            + "the earth \(Int64(expected.rounded())) m"))
            }
        }
        return found
    }

    /// The great-circle length of the route up to each vertex, meters: the
    /// haversine along each segment's line, unprojected every 1 km or less.
    /// - Complexity: O(points + length / 1 km).
    static func earthLengths(_ route: Route) -> [Double] {
        var out = [0.0]
        out.reserveCapacity(route.points.count)
        for i in 1..<route.points.count {
            let a = route.points[i - 1]
            let b = route.points[i]
            let pieces = max(1, Int(((b - a).length / 1000).rounded(.up)))
            var previous = route.projection.unproject(a)
            var total = out[i - 1]
            for k in 1...pieces {
                let next = route.projection.unproject(a + (b - a) * (Double(k) / Double(pieces)))
                total += greatCircleDistance(previous, next)
                previous = next
            }
            out.append(total)
        }
        return out
    }

    /// The ids of the road's `arrive` and `waypoint` maneuvers: the "now"
    /// line for one is said on reaching it (`Turn.saidOnReaching`).
    static func arrivals(_ roster: Roster) -> Set<String> {
        Set(roster.road.maneuvers.lazy.filter { $0.turn.saidOnReaching }.map(\.id))
    }

    /// The least fixes `a` and `b` can lie apart beyond both their
    /// accuracies, by their truth, meters (nil without a truth).
    static func leastApart(_ a: Fix, _ b: Fix, on route: Route) -> Double? {
        guard let ta = a.truth, let tb = b.truth else { return nil }
        return route.meters(a.position, ta) - route.meters(b.position, tb) - route.meters(ta, tb)
            - (a.accuracy + b.accuracy)
    }
}
