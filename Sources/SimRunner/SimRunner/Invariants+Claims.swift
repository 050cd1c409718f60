import Guidance
import Road
import SimClock

/// The road's checks on why a guidance was silent (docs/timeline.md, "road
/// late-claim" and "road then-claim"): a reason in the timeline is a claim,
/// judged against the truth and the fixes the app had, the same way for
/// drivesim's own guidance and for an app's (`road.stage.skipped` entries
/// and `road.turn.unannounced` answers alike).
extension Invariants {
    /// How much time to spare a `late` claim may leave, beyond the "now"
    /// line (`nowLength`), the scenario's `outputLatency` and `margin`, and
    /// what the fixes' accuracy and noise explain at the car's speed: 2 s.
    package static let lateSlack = SimTime(ms: 2_000)
    /// How far beyond a fix's own error the app's belief may lie, for a
    /// maneuver passed `late`: its match onto the route, meters.
    package static let beliefSlack = 5.0
    /// A car whose true pass comes later than a fix predicted by more than
    /// the prediction's error and 1/`slowedBy` of the time it left slowed
    /// down since: that fix does not judge a `late` claim.
    package static let slowedBy: Int64 = 5

    /// How long maneuver `m`'s "now" line lasts as drivesim's phrasebook
    /// says it at the scenario's speech rates, at a speed in `speeds`: the
    /// shortest and the longest, its words alone or joined with the next
    /// maneuver of its route ("…, then turn left") where that one comes
    /// within `thenWithin`, or `thenSeconds` at such a speed.
    static func nowLengths(
        _ m: Int, at speeds: ClosedRange<Double>, _ maneuvers: [Maneuver], _ ids: ManeuverIDs,
        _ settings: GuidanceSettings
    ) -> (shortest: SimTime, longest: SimTime) {
        let own = maneuvers[m]
        func length(then next: Maneuver?) -> SimTime {
            let words = Phrasebook.line(
                .now, own, distance: nil, then: next, language: settings.language, units: settings.spokenUnits)
            return SpeechDuration.estimate(words, settings.language, rates: settings.rates)
        }
        guard m + 1 < maneuvers.count, own.turn != .waypoint,
            ids.route(of: maneuvers[m + 1].id) == ids.route(of: own.id)
        else {
            let alone = length(then: nil)
            return (alone, alone)
        }
        let gap = maneuvers[m + 1].distance - own.distance
        let surely = gap <= max(settings.thenWithin, speeds.lowerBound * settings.thenSeconds)
        let maybe = gap <= max(settings.thenWithin, speeds.upperBound * settings.thenSeconds)
        let alone = length(then: nil)
        let joined = maybe ? length(then: maneuvers[m + 1]) : alone
        return surely ? (joined, joined) : (min(alone, joined), max(alone, joined))
    }

    /// What the app knew from the fixes it used: each such fix (honest: no
    /// jump) and the route it followed, on or off it, from each instant.
    struct Knowledge {
        /// A fix used: when it arrived and was taken, and how far it lay from the truth, meters.
        struct Used {
            let arrived: SimTime
            let taken: SimTime
            let error: Double
        }
        /// The fixes the follower used and did not drop, honest ones only, in arrival order.
        var used: [Used] = []
        /// From each instant, the route followed (0 the scenario's, k change k − 1's) and whether the car was off it.
        var states: [(t: SimTime, route: Int, off: Bool)] = [(.zero, 0, false)]

        init(_ timeline: Timeline, _ truth: RoadTruth) {
            let dropped = droppedFixes(timeline)
            for event in timeline.events {
                let last = states[states.count - 1]
                switch event.what {
                case .road(.fixArrived(let f, let age, true)) where dropped[f.raw] == nil && truth.honest(f):
                    used.append(.init(arrived: event.t, taken: event.t - SimTime(ms: age), error: truth.error(f)))
                case .road(.routeSwitched(let c, _)): states.append((event.t, c + 1, false))
                case .road(.offRoute): states.append((event.t, last.route, true))
                case .road(.onRoute): states.append((event.t, last.route, false))
                default: continue
                }
            }
        }

        /// Whether the app followed route `route`, on it, all through `[from, to]`.
        func followed(_ route: Int, from: SimTime, to: SimTime) -> Bool {
            let i = (states.lastIndex { $0.t <= from })!
            return states[i].route == route && !states[i].off && (i + 1 == states.count || states[i + 1].t > to)
        }

        /// The used fixes that arrived in `[from, to)`.
        func arrivals(from: SimTime, to: SimTime) -> ArraySlice<Used> {
            let low = used.partitioningIndex { $0.arrived >= from }
            let high = used.partitioningIndex { $0.arrived >= to }
            return used[low..<max(low, high)]
        }
    }

    /// `late-claim`: a "now" stage said to be `late` truly could no longer be
    /// heard in time. What the app knew: the last fix it used (at most
    /// `positionFresh` old, honest) and the speed the car truly had when it
    /// was taken (moving); from them, the pass it could predict.
    /// - A stage skipped `late` at `c`: the prediction leaves no more than
    ///   the longest "now" line, `outputLatency`, `margin`, the fixes'
    ///   slack at that speed and `lateSlack` after `c` (the line could not be heard to its end in time).
    /// - A maneuver passed `late` (`road.turn.unannounced`): there was no
    ///   instant, with the app following the maneuver's route (on it, no
    ///   switch since) and the maneuver before it passed, at which the "now"
    ///   stage was due (the prediction within its lead, the output latency and
    ///   the shorter line) and the longer could still be heard in time, by
    ///   any belief the fix allows (docs/timeline.md gives every term). A
    ///   gap, a first fix inside the lead that came too late, or a switch too
    ///   close leaves none; a stage skipped `late` is judged up to its skip.
    static func checkLateClaims(_ scenario: Scenario, _ run: Simulation, _ truth: RoadTruth?) -> [Violation] {
        guard let road = scenario.road, let truth, let trajectory = truth.trajectory else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        guard
            timeline.events.contains(where: {
                switch $0.what {
                case .road(.stageSkipped(_, stage: .now, reason: .late)), .road(.turnUnannounced(_, reason: .late)):
                    true
                default: false
                }
            })
        else { return [] }
        let knowledge = Knowledge(timeline, truth)
        let points = truth.distances.values.sorted()
        let guidance = road.guidance
        let maneuvers = roster.road.maneuvers
        let speedNoise = Double(FixGenerator.speedNoiseMms) / 1000
        /// Maneuver `m`'s "now" line at speed `v`, as the app may have measured it.
        func lengths(_ m: Int, _ v: Double) -> (shortest: SimTime, longest: SimTime) {
            nowLengths(m, at: max(0, v - speedNoise)...(v + speedNoise), maneuvers, truth.ids, guidance)
        }
        /// The time maneuver `m`'s "now" line needs at speed `v`: to be heard to its end, `margin` before the turn, with the slack.
        func needed(_ m: Int, _ v: Double) -> SimTime {
            let slack = SimTime(ms: Int64(((truth.ahead ?? truth.tolerance) / v * 1000).rounded(.up)))
            return lengths(m, v).longest + guidance.outputLatency + guidance.margin + slack + lateSlack
        }
        /// The pass predicted from a fix taken at `taken` for a maneuver at `point`, and the car's speed then (nil: standing).
        func predicted(_ point: Double, from taken: SimTime) -> (pass: SimTime, speed: Double)? {
            let known = trajectory.state(at: taken)
            guard known.speed >= Announcer.standing else { return nil }
            return (
                taken + SimTime(ms: Int64((max(0, point - known.distance) / known.speed * 1000).rounded(.down))),
                known.speed
            )
        }
        var found: [Violation] = []
        var lastUsed: Knowledge.Used? = nil
        /// When each maneuver's "now" stage was first skipped `late`, by roster index.
        var skippedLate: [Int: SimTime] = [:]
        var next = 0
        for event in timeline.events {
            while next < knowledge.used.count, knowledge.used[next].arrived <= event.t {
                lastUsed = knowledge.used[next]
                next += 1
            }
            switch event.what {
            case .road(.stageSkipped(let m, stage: .now, reason: .late)):
                let id = maneuvers[m.int].id
                if skippedLate[m.int] == nil { skippedLate[m.int] = event.t }
                guard let fix = lastUsed, event.t - fix.taken <= positionFresh, let point = truth.distance(of: id),
                    let (pass, v) = predicted(point, from: fix.taken), pass - event.t > needed(m.int, v)
                else { continue }
                found.append(
                    .init(
                        check: .road(.lateClaim), t: event.t,
                        message:
                            "\(id)'s \"now\" stage is skipped as late with \(seconds(pass - event.t)) s to the turn at the speed the app knew (a \"now\" line needs at most \(seconds(needed(m.int, v))) s)"
                    ))
            case .road(.turnUnannounced(let m, reason: .late)):
                let id = maneuvers[m.int].id
                // An arrival's or a waypoint's "now" line is said on reaching it, not ahead: `now-line` judges it.
                guard !maneuvers[m.int].turn.saidOnReaching, let point = truth.distance(of: id),
                    let route = truth.ids.route(of: id)
                else { continue }
                // The maneuver before it on the true path: the app turns to this one
                // once a fix shows that one behind, beyond what noise explains.
                let previous = points[..<points.partitioningIndex { $0 >= point }].last
                let before = previous.map { $0 + (truth.ahead ?? truth.tolerance) }
                let since = previous.flatMap { trajectory.time(reaching: $0) } ?? .zero
                // A stage skipped `late` was claimed with what the app knew then (judged above): the
                // instants up to that claim judge the pass, not fixes that came after it.
                let claimed = min(event.t, skippedLate[m.int] ?? event.t)
                let fixes = knowledge.arrivals(from: since, to: claimed + SimTime(ms: 1))
                let truePass = truth.pass(of: id) ?? event.t
                for (i, fix) in zip(fixes.indices, fixes) {
                    // What this fix told the app holds until the next one arrives.
                    let superseded = min(
                        claimed, i + 1 < knowledge.used.count ? knowledge.used[i + 1].arrived : event.t)
                    guard let (pass, v) = predicted(point, from: fix.taken),
                        before.map({ trajectory.state(at: fix.taken).distance >= $0 }) ?? true
                    else { continue }
                    // How far the app's prediction may be off: the fix's own error and
                    // `beliefSlack`, and its speed's noise over the time to the pass.
                    let off = (fix.error + beliefSlack) / v + Double((pass - fix.taken).ms) / 1000 * speedNoise / v
                    let unsure = SimTime(ms: Int64((off * 1000).rounded(.up)))
                    // A car that changed its speed since is not judged: no app foresees it. One that passed
                    // sooner than predicted, by more than that, sped up; one that passed later by more than
                    // that and a fifth of the time the fix left slowed down (a stop, a queue) and met its
                    // "now" stage at another speed than the app knew.
                    guard (pass - truePass).ms <= unsure.ms,
                        (truePass - pass).ms <= unsure.ms + (pass - fix.taken).ms / slowedBy
                    else { continue }
                    let lead = SimTime(ms: Int64((guidance.now.distance(at: v) / v * 1000).rounded(.up)))
                    let (shortest, longest) = lengths(m.int, v)
                    // Due by any belief the fix allows, and still heard `margin` before the turn by any.
                    let from = max(fix.arrived, pass + unsure - lead - guidance.outputLatency - shortest)
                    let to = min(
                        fix.taken + positionFresh, superseded,
                        pass - unsure - guidance.outputLatency - longest - guidance.margin)
                    guard from <= to, knowledge.followed(route, from: fix.arrived, to: to),
                        road.segments.map({ $0.contains { $0.start <= from && pass <= $0.end } }) ?? true
                    else { continue }
                    found.append(
                        .init(
                            check: .road(.lateClaim), t: event.t,
                            message:
                                "\(id) was passed without a \"now\" line as late, but at \(from) the app knew where the car was (a fix taken at \(fix.taken)) and its \"now\" stage was due, \(seconds(pass - from)) s before the turn (a \"now\" line needs \(seconds(guidance.outputLatency + longest + guidance.margin + unsure)) s)"
                        ))
                    break
                }
            default: continue
            }
        }
        return found
    }

    /// `then-claim`: a maneuver said to be announced with the one before
    /// (a stage skipped `then`, a maneuver passed `then`) truly was. A line
    /// of the maneuver before it on the same route, made by then, names it
    /// after its own maneuver (`namingWords`, in that order), and along the
    /// true path it lies within `thenWithin` of that one, or within
    /// `thenSeconds` at the speed the app knew (the fastest of the car's
    /// when the last fix used before that line was taken, when the line was
    /// made and `positionFresh` before), plus what a fix's speed may be off.
    static func checkThenClaims(_ scenario: Scenario, _ run: Simulation, _ truth: RoadTruth?) -> [Violation] {
        guard let road = scenario.road, let truth, let trajectory = truth.trajectory else { return [] }
        let timeline = run.timeline
        let roster = timeline.roster
        let maneuvers = roster.road.maneuvers
        var found: [Violation] = []
        var linesOf: [String: [Int]]? = nil
        var knowledge: Knowledge? = nil
        for event in timeline.events {
            let m: Int
            switch event.what {
            case .road(.stageSkipped(let n, _, reason: .then)), .road(.turnUnannounced(let n, reason: .then)): m = n.int
            default: continue
            }
            let id = maneuvers[m].id
            func fail(_ why: String) {
                found.append(
                    .init(
                        check: .road(.thenClaim), t: event.t,
                        message: "\(id) is said to be announced with the maneuver before it, but \(why)"))
            }
            guard m > 0, truth.ids.route(of: maneuvers[m - 1].id) == truth.ids.route(of: id) else {
                fail("no maneuver comes before it on its route")
                continue
            }
            let before = maneuvers[m - 1]
            if linesOf == nil {
                var lines: [String: [Int]] = [:]
                for (l, line) in roster.lines.enumerated() {
                    if let owner = line.maneuver { lines[owner, default: []].append(l) }
                }
                linesOf = lines
            }
            // A far line never joins the next maneuver; a maneuver passed `then` was joined by a "now" line.
            let stages: [Stage] = event.kind == .roadTurnUnannounced ? [.now] : [.near, .now]
            let line = (linesOf?[before.id] ?? []).last { l in
                let line = roster.lines[l]
                return line.at <= event.t && roster.stage(of: LineIndex(l)).map(stages.contains) == true
                    && line.text.map {
                        names($0, first: before, then: maneuvers[m], line.language ?? road.guidance.language)
                    } == true
            }.map { roster.lines[$0] }
            guard let line else {
                fail(
                    "no \(stages.map(\.rawValue).joined(separator: " or ")) line of \(before.id) made by \(event.t) names it after its own"
                )
                continue
            }
            guard let a = truth.distance(of: before.id), let b = truth.distance(of: id) else { continue }
            // The speed the app knew then: the car's when the last fix it used was taken (or
            // when the line was made, or `positionFresh` before), the fastest, and its noise.
            if knowledge == nil { knowledge = Knowledge(timeline, truth) }
            let known = knowledge?.used.last { $0.arrived <= line.at }.map { trajectory.state(at: $0.taken).speed } ?? 0
            let fastest =
                max(
                    known, trajectory.state(at: line.at).speed,
                    trajectory.state(at: max(.zero, line.at - positionFresh)).speed)
                + Double(FixGenerator.speedNoiseMms) / 1000
            let within = max(road.guidance.thenWithin, fastest * road.guidance.thenSeconds)
            if b - a > within {
                fail(
                    "it lies \(MeasuredValue.text(b - a, beyond: within)) m beyond \(before.id), more than the \(MeasuredValue.plain(within.rounded())) m a \"then\" may join"
                )
            }
        }
        return found
    }

    /// Whether `text` names `first` and, after those words, `next`
    /// (`namingWords`; a maneuver with none is named anywhere).
    static func names(_ text: String, first: Maneuver, then next: Maneuver, _ language: Language) -> Bool {
        let lower = text.lowercased()
        let own = namingWords(first, language).first ?? []
        let start = own.compactMap { lower.firstRange(of: $0.lowercased())?.upperBound }.min() ?? lower.startIndex
        let rest = String(lower[start...])
        return namingWords(next, language).allSatisfy { choice in choice.contains { says(rest, $0.lowercased()) } }
    }

    /// `t` in seconds, for a message.
    private static func seconds(_ t: SimTime) -> Double { Double(t.ms) / 1000 }
}
