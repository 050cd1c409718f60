import Guidance
import Road
import SimClock

/// The road's invariants (docs/timeline.md). Raw values are their names in reports.
public enum RoadCheck: String, Sendable, CaseIterable, Comparable {
    /// No guidance line is heard to its end (output latency included) after its maneuver has been passed.
    case lineAfterManeuver = "line-after-maneuver"
    /// Every maneuver passed got a "now" line, or the timeline says why not (when it ended is R1's).
    case nowLine = "now-line"
    /// No report is sent stale or queued (later than its fix arrived), and never two are in flight.
    case link
    /// Every maneuver the true track reaches is passed in the timeline (Invariants+RoadTruth).
    case announced
    /// No report lands in an outage, none sent fresh lands stale, none out of order, every fix accounted for.
    case linkHonest = "link-honest"
    /// A far or near line never says more meters than are truly left when it starts.
    case spokenDistance = "spoken-distance"
    /// "Turn passed" never before the true track passed the turn.
    case passedTruth = "passed-truth"
    /// A generated fix so far from the truth that the fix before it rules it out is dropped `implausible`.
    case jumpDropped = "jump-dropped"
    /// The gap `road.turn.upcoming` gives to the next maneuver is the earth's (great circle) within 0.1%.
    case geodesy
    /// When In Use: no generated line plays outside a guidance segment, and no
    /// fix arrives and no report is sent while measuring is paused.
    case whenInUse = "when-in-use"
    /// Every line has an id of its own: a generated line never takes an id
    /// the scenario holds (a line, reply, stretch, utterance or maneuver) or
    /// an earlier generated line's.
    case lineID = "line-id"
    /// A far, near or "now" line names its own maneuver (its side, exit,
    /// kind) and not a neighbour's street; a far or near line says a distance
    /// in the voice's units; a "now" line says none (Invariants+Words).
    case lineWords = "line-words"
    /// A "now" stage skipped `late`, or a maneuver passed `late`, truly could
    /// no longer be heard in time, by the fixes the app had (Invariants+Claims).
    case lateClaim = "late-claim"
    /// A maneuver said to be announced with the one before (`then`) lies
    /// close enough behind it, and a line of that one named it (Invariants+Claims).
    case thenClaim = "then-claim"
    /// After a route switch no line, report or upcoming turn of an old route's
    /// maneuver; every route answer came for a request over a link that was up (Invariants+RouteChanges).
    case routeSwitch = "route-switch"
    /// Each switch inside a guidance segment gets one switch line, urgent, in the
    /// scenario's language, naming what it is for and nothing else's (Invariants+RouteChanges).
    case switchLine = "switch-line"
    /// Every report Pippa gets says what the app knew at its fix, by the truth:
    /// off the route no distance; else the next maneuver the car truly
    /// reaches on the route followed, at its true distance within the fixes' slack (Invariants+RoadTruth).
    case pippaView = "pippa-view"
    /// A handoff is delivered over the link, taken or ignored, taken once, acknowledged once after it was taken (Invariants+RouteChanges).
    case handoff

    /// Whether `a` is listed before `b`: declaration order, which reports follow.
    public static func < (a: RoadCheck, b: RoadCheck) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The road's invariants, checked from the recorded timeline alone, never
/// from the planner's state: a wrong planner cannot vouch for itself.
extension Invariants {
    /// Whether a line heard until `heard` would have ended before the car
    /// reached `maneuver` had it kept the speed it had when the last trusted
    /// fix the app had when the line started was taken (`known`), less what
    /// the fix's reported speed may be off (`FixGenerator.speedNoiseMms`):
    /// then it was late only because the car sped up after the app last knew
    /// its speed, which no app can foresee (the guidance dead-reckons at the
    /// speed it measured). At a steady speed, or slowing down, that pass is
    /// no later than the true one, so this excuses nothing else. A car that
    /// stood or crawled then (that speed below `Announcer.standing`) may set
    /// off at any moment: its lines are excused. The fix itself may have put
    /// the car up to `misplaced` meters (its distance from the truth, within
    /// what noise explains) behind where it was: the app counted from there.
    static func spedUp(
        since known: SimTime?, heard: SimTime, maneuver id: String, misplaced: Double = 0, _ truth: RoadTruth
    ) -> Bool {
        guard let known, let trajectory = truth.trajectory,
            let point = truth.distance(of: id)
        else { return false }
        let state = trajectory.state(at: known)
        let left = point - state.distance + misplaced
        guard left > 0 else { return false }
        // The app knew the speed only as the fix reported it, up to its noise;
        // a car standing then may set off at any moment, which no app can know.
        let measured = state.speed - Double(FixGenerator.speedNoiseMms) / 1000
        if measured < Announcer.standing { return true }
        let seconds = left / measured
        return heard <= known + SimTime(ms: Int64((seconds * 1000).rounded(.down)))
    }

    /// R1 no guidance line plays after its maneuver has been passed; R2 every
    /// maneuver passed got a "now" line (R1 sees that it ended before), or
    /// the timeline says why not; R3 no report is sent stale or queued, never two in flight,
    /// and none beside a fix not used carries a distance.
    package static func checkRoad(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        checkRoad(scenario, run, shape: nil)
    }

    /// `checkRoad(_:_:)`, its truth starting from the road's `shape` if given (`RoadTruth`).
    static func checkRoad(_ scenario: Scenario, _ run: Simulation, shape: RoadShape?) -> [Violation] {
        guard let road = scenario.road else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        var found: [Violation] = []
        var passed: [String: SimTime] = [:]
        var unannounced: Set<String> = []
        /// Maneuvers said to be announced in the maneuver before's "now" line.
        var thenClaims: [(maneuver: Int, t: SimTime)] = []
        for event in timeline.events {
            switch event.what {
            case .road(.turnPassed(let m)): passed[roster.road.maneuvers[m.int].id] = event.t
            case .road(.turnUnannounced(let m, let reason)):
                unannounced.insert(roster.road.maneuvers[m.int].id)
                if reason == .then { thenClaims.append((m.int, event.t)) }
            default: continue
            }
        }
        // R1 and R2: lines by maneuver.
        var nowEnded: Set<String> = []
        var nowDropped: Set<String> = []
        // Per line, when the last fix the app used as it started was taken and how far it lay from the car;
        // the lines started while that fix was a jump (the app did not know where the car was).
        var knownAt: [Int: (taken: SimTime, misplaced: Double)] = [:]
        var unknown: Set<Int> = []
        var lastUsedTaken: SimTime? = nil
        var lastUsedError = 0.0
        let truth = RoadTruth(road, shape: shape)
        let arrivals = arrivals(roster)
        lazy var dropped = droppedFixes(timeline)
        for event in timeline.events {
            switch event.what {
            case .road(.fixArrived(let f, let age, true)) where dropped[f.raw] == nil:
                lastUsedTaken = max(lastUsedTaken ?? .zero, event.t - SimTime(ms: age))
                lastUsedError = truth?.error(f) ?? 0
            case .guidanceStarted(let l):
                knownAt[l.int] = (lastUsedTaken ?? event.t, lastUsedError)
                if lastUsedError > truth?.noiseReach ?? .infinity { unknown.insert(l.int) }
            case .guidanceEnded(let l), .guidanceDropped(let l, _):
                let line = l.int
                guard let maneuver = roster.lines[line].maneuver else { continue }
                let isNow = roster.stage(of: l) == .now
                if event.kind == .guidanceDropped {
                    if isNow { nowDropped.insert(maneuver) }
                    continue
                }
                // The driver hears a line `outputLatency` after it plays; "You
                // have arrived" is meant to be heard there (`passed-truth` sees it is not early).
                let heard = event.t + road.guidance.outputLatency
                let arrival = isNow && arrivals.contains(maneuver)
                if let pass = passed[maneuver], heard > pass, !unknown.contains(line), !arrival,
                    !(truth.map {
                        spedUp(
                            since: knownAt[line]?.taken, heard: heard, maneuver: maneuver,
                            misplaced: knownAt[line]?.misplaced ?? 0, $0)
                    } ?? false)
                {
                    found.append(
                        .init(
                            check: .road(.lineAfterManeuver), t: event.t,
                            message:
                                "line \(roster.lines[line].id) was heard until \(heard), after \(maneuver) was passed at \(pass)"
                        ))
                }
                if isNow { nowEnded.insert(maneuver) }
            default: continue
            }
        }
        // An unannounced maneuver whose reason is `then` was announced if the
        // maneuver before's "now" line played; if that line was dropped, its
        // `guidance.dropped` says why neither was.
        for (m, t) in thenClaims {
            let before = m > 0 ? roster.road.maneuvers[m - 1].id : nil
            if let before, nowEnded.contains(before) || nowDropped.contains(before) { continue }
            found.append(
                .init(
                    check: .road(.nowLine), t: t,
                    message:
                        "maneuver \(roster.road.maneuvers[m].id) is said to be announced with the one before, whose \"now\" line neither played nor was dropped"
                ))
        }
        for (maneuver, pass) in passed.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            if nowEnded.contains(maneuver) || unannounced.contains(maneuver) || nowDropped.contains(maneuver) {
                continue
            }
            found.append(
                .init(
                    check: .road(.nowLine), t: pass,
                    message: "maneuver \(maneuver) was passed without a \"now\" line, and the timeline does not say why"
                ))
        }
        // R3: the link.
        var inFlight: String? = nil
        var arrivedAt: [Int32: SimTime] = [:]
        for event in timeline.events {
            switch event.what {
            case .road(.fixArrived(let fix, _, _)): arrivedAt[fix.raw] = arrivedAt[fix.raw] ?? event.t
            case .road(.reportSent(let fix, let age, _, let next)):
                // Beside a fix the follower did not use, a distance would be an earlier fix's.
                if next != nil, let reason = dropped[fix.raw] {
                    found.append(
                        .init(
                            check: .road(.link), t: event.t,
                            message:
                                "f\(fix.raw) was dropped (\(reason.rawValue)), but its report carries a distance to the next maneuver, an earlier fix's"
                        ))
                }
                // Dropped, never queued: a report is sent in the instant its fix arrives, or not at all.
                if let arrived = arrivedAt[fix.raw], arrived != event.t {
                    found.append(
                        .init(
                            check: .road(.link), t: event.t,
                            message: "f\(fix.raw) arrived at \(arrived) but was reported at \(event.t): it was queued"))
                }
                if age > road.link.freshness.ms {
                    found.append(
                        .init(
                            check: .road(.link), t: event.t,
                            message: "a report was sent \(age) ms old, over its freshness"))
                }
                if let other = inFlight {
                    found.append(
                        .init(
                            check: .road(.link), t: event.t, message: "a report was sent while \(other) was in flight"))
                }
                inFlight = "f\(fix.raw)"
            case .road(.reportDelivered): inFlight = nil
            case .road(.reportDropped(let fix, .interrupted)), .road(.reportDropped(let fix, .timeout)):
                if inFlight == "f\(fix.raw)" { inFlight = nil }  // it failed in flight
            default: continue
            }
        }
        return found + checkLineIDs(scenario, run) + checkWords(scenario, run) + checkWhenInUse(scenario, run)
            + checkRoadTruth(scenario, run, truth) + checkLateClaims(scenario, run, truth)
            + checkThenClaims(scenario, run, truth)
            + checkRouteSwitches(scenario, run, ids: truth?.ids) + checkSwitchLines(scenario, run)
            + checkHandoffs(scenario, run)
    }

    /// R8 `when-in-use`: a generated line starts and ends inside one guidance
    /// segment (when the scenario has segments); no `road.fix.arrived` and no
    /// `road.report.sent` while measuring is paused (in the background,
    /// outside every segment).
    static func checkWhenInUse(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        guard let road = scenario.road else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        let segments = road.segments
        let measuring = road.measuringTimes
        var found: [Violation] = []
        var started = [SimTime?](repeating: nil, count: roster.lines.count)
        for event in timeline.events {
            switch event.what {
            case .guidanceStarted(let l) where l.int >= scenario.guidance.count: started[l.int] = event.t
            case .guidanceEnded(let l) where l.int >= scenario.guidance.count:
                guard let segments, let start = started[l.int] else { continue }
                if !segments.contains(where: { $0.start <= start && event.t <= $0.end }) {
                    found.append(
                        .init(
                            check: .road(.whenInUse), t: start,
                            message:
                                "line \(roster.lines[l.int].id) played from \(start) to \(event.t), outside a guidance segment"
                        ))
                }
            case .road(.fixArrived(let f, _, _)) where !measuring.contains(event.t):
                found.append(
                    .init(check: .road(.whenInUse), t: event.t, message: "f\(f.raw) arrived while measuring was paused")
                )
            case .road(.reportSent(let f, _, _, _)) where !measuring.contains(event.t):
                found.append(
                    .init(
                        check: .road(.whenInUse), t: event.t,
                        message: "f\(f.raw) was reported while measuring was paused"))
            default: continue
            }
        }
        return found
    }

    /// `line-id`: the ids the scenario holds, then each generated line's, must all differ.
    /// - Complexity: O(ids), expected (one set).
    static func checkLineIDs(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        var taken = Set(scenario.guidance.map(\.id))
        for reply in scenario.replies {
            taken.insert(reply.id)
            for stretch in reply.stretches { taken.insert(stretch.id) }
        }
        for u in scenario.dad {
            taken.insert(u.id)
            guard let reply = u.reply else { continue }
            taken.insert(reply.id)
            for stretch in reply.stretches { taken.insert(stretch.id) }
        }
        for m in scenario.road?.everyManeuver ?? [] { taken.insert(m.id) }
        for c in scenario.road?.changes ?? [] { taken.insert(c.id) }
        var found: [Violation] = []
        for line in run.timeline.roster.road.lines where !taken.insert(line.id).inserted {
            found.append(
                .init(
                    check: .road(.lineID), t: line.at,
                    message: "generated line \(line.id) takes an id the scenario or an earlier line has"))
        }
        return found
    }
}
