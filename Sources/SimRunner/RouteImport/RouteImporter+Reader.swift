import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// What every reader shares: reading values with their paths, and building
/// the scenario from the steps read (`build`), whichever service wrote them.
extension RouteImporter.Reader {
    // MARK: Values

    func member(_ v: JSONValue, _ key: String, _ path: String) throws(ImportProblem) -> JSONValue {
        guard let m = v[key] else { throw ImportProblem(.missingField(key), at: path) }
        return m
    }

    func array(_ v: JSONValue, _ path: String) throws(ImportProblem) -> [JSONValue] {
        guard case .array(let items) = v.kind else { throw ImportProblem(.wrongType(expected: "an array"), at: path) }
        return items
    }

    /// The route `--route N` picks from the list under `key` (OSRM's
    /// `routes`, GraphHopper's `paths`), an object, and its path.
    func chosen(_ key: String, of root: JSONValue, _ options: RouteImporter.Options) throws(ImportProblem) -> (
        route: JSONValue, path: String
    ) {
        let routes = try array(try member(root, key, ""), key)
        if routes.isEmpty { throw ImportProblem(.noRoutes, at: key) }
        guard options.route >= 0, options.route < routes.count else {
            throw ImportProblem(.routeOutOfRange(index: options.route, count: routes.count), at: key)
        }
        let path = "\(key)[\(options.route)]"
        let route = routes[options.route]
        guard case .object = route.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: path) }
        return (route, path)
    }

    func number(_ v: JSONValue, _ path: String) throws(ImportProblem) -> Double {
        guard case .number(let literal) = v.kind, let x = Double(literal) else {
            throw ImportProblem(.wrongType(expected: "a number"), at: path)
        }
        // A literal such as 1e400 is a number, beyond what a Double holds.
        guard x.isFinite else { throw ImportProblem(.numberOutOfRange(String(literal.prefix(40))), at: path) }
        return x
    }

    func distance(_ v: JSONValue, _ path: String) throws(ImportProblem) -> Double {
        let x = try number(v, path)
        if x < 0 { throw ImportProblem(.negative, at: path) }
        return x
    }

    /// An optional string member; empty strings count as absent.
    func string(_ v: JSONValue, _ key: String, _ path: String) throws(ImportProblem) -> String? {
        guard let m = v[key] else { return nil }
        switch m.kind {
        case .null: return nil
        case .string(let s): return s.isEmpty ? nil : s
        default: throw ImportProblem(.wrongType(expected: "a string"), at: JSONPath.join(path, key))
        }
    }

    /// `[lon, lat]`, checked.
    func position(_ v: JSONValue, _ path: String) throws(ImportProblem) -> GeoPoint {
        let items = try array(v, path)
        guard items.count >= 2 else { throw ImportProblem(.wrongType(expected: "[longitude, latitude]"), at: path) }
        let lon = try number(items[0], JSONPath.join(path, 0))
        let lat = try number(items[1], JSONPath.join(path, 1))
        guard abs(lat) <= 90 else { throw ImportProblem(.coordinateOutOfRange, at: JSONPath.join(path, 1)) }
        guard abs(lon) <= 180 else { throw ImportProblem(.coordinateOutOfRange, at: JSONPath.join(path, 0)) }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    /// A GeoJSON LineString's `coordinates`.
    func coordinates(_ line: JSONValue, _ path: String) throws(ImportProblem) -> [GeoPoint] {
        let items = try array(try member(line, "coordinates", String(path.dropLast(".coordinates".count))), path)
        var out: [GeoPoint] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { out.append(try position(item, JSONPath.join(path, i))) }
        return out
    }

    // MARK: The scenario

    func build(
        _ steps: [RouteImporter.Step], points: [GeoPoint], route: Route, total: Double, precision: Int?,
        options: RouteImporter.Options,
        warnings: inout [ImportWarning]
    ) throws(ImportProblem) -> RouteImporter.Imported {
        let legCount = (steps.last?.leg ?? -1) + 1
        var specs: [Scenario.ManeuverSpec] = []
        var specPaths: [String] = []
        var specStep: [Int] = []
        for (k, step) in steps.enumerated() {
            if step.speedOnly { continue }
            // The step where the route boards a ferry (`mode` turns to `ferry`), whatever its type says.
            if RouteImporter.boardsFerry(steps, k) {
                var spec = Scenario.ManeuverSpec(id: step.maneuverID, point: step.location, turn: .ferry)
                (spec.street, spec.details) = RouteImporter.signs(of: step, turn: .ferry, next: nil)
                specs.append(spec)
                specPaths.append(JSONPath.join(step.path, step.keys.location))
                specStep.append(k)
                continue
            }
            if RouteImporter.goesStraightOn(step) {
                let kind =
                    step.straightTerm.map { ImportWarning.Kind.straightOn(what: $0) } ?? .notAnnounced(type: step.type)
                warnings.append(ImportWarning(kind, at: JSONPath.join(step.path, step.keys.type)))
                continue
            }
            guard let m = RouteImporter.maneuver(for: step, finalLeg: step.leg == legCount - 1) else { continue }
            if let w = m.warning {
                warnings.append(ImportWarning(w, at: JSONPath.join(step.path, step.keys.type)))
            }
            if !RouteImporter.knownModifier(step.modifier), let modifier = step.modifier {
                warnings.append(
                    ImportWarning(
                        .unknownModifier(modifier, keptAs: m.turn.rawValue),
                        at: JSONPath.join(step.path, step.keys.modifier)))
            }
            var spec = Scenario.ManeuverSpec(id: step.maneuverID, point: step.location, turn: m.turn)
            spec.details = m.details
            // The step after it, past those that only set a speed (Kakao's roads).
            let next = steps[(k + 1)...].first { !$0.speedOnly }
            if m.turn == .waypoint {
                spec.details.uTurn = RouteImporter.reverses(step, next)
            } else if m.turn != .arrive {
                (spec.street, spec.details) = RouteImporter.signs(of: step, turn: m.turn, next: next)
                spec.details.exit = m.details.exit
                // A ramp the service names apart from its directions ("판교IC", toward "서울, 양재").
                if let name = step.exitName, m.turn == .offRamp || m.turn == .onRamp {
                    spec.details.exitName = name
                    spec.details.toward = RouteImporter.Signs(step.destinations).toward
                }
                // A long name by the banner's short text: the banner before the step is about its maneuver.
                if let street = spec.street, k > 0, let short = RouteImporter.bannerName(street, steps[k - 1].banner) {
                    spec.street = short
                }
                // "At Place de l'Étoile, take the third exit."
                if m.turn == .roundabout, let name = step.rotaryName { spec.details.exitName = name }
            }
            specs.append(spec)
            specPaths.append(JSONPath.join(step.path, step.keys.location))
            specStep.append(k)
        }
        // Speeds: each step from where it starts, at distance / duration.
        let stepStart = RouteImporter.starts(of: steps, on: route)
        var speedSteps: [SpeedProfile.Step] = []
        var stops: [SpeedProfile.Stop] = []
        for (step, start) in zip(steps, stepStart) {
            guard step.distance > 0, step.duration > 0 else { continue }
            var kmh = step.distance / step.duration * 3.6
            // A ferry: the car waits at the terminal, then sails (`ferry(distance:duration:)`).
            if step.mode == "ferry",
                let (wait, sail) = RouteImporter.ferry(distance: step.distance, duration: step.duration),
                start > (stops.last?.at ?? -1) + 1
            {
                stops.append(SpeedProfile.Stop(at: (start * 10).rounded() / 10, dwell: wait))
                kmh = sail
            }
            if !RouteImporter.kmhLimits.contains(kmh) {
                let limit =
                    kmh > RouteImporter.kmhLimits.upperBound
                    ? RouteImporter.kmhLimits.upperBound : RouteImporter.kmhLimits.lowerBound
                warnings.append(
                    ImportWarning(
                        .speedClamped(kmh: MeasuredValue.rounded(kmh, beyond: limit)),
                        at: JSONPath.join(step.path, step.keys.duration)))
                kmh = min(max(kmh, RouteImporter.kmhLimits.lowerBound), RouteImporter.kmhLimits.upperBound)
            }
            kmh = (kmh * 10).rounded() / 10
            let from = speedSteps.isEmpty ? 0 : (start * 10).rounded() / 10
            if let last = speedSteps.last {
                if abs(last.speed * 3.6 - kmh) < 1e-9 { continue }
                if from < last.from + 1 {
                    speedSteps[speedSteps.count - 1].speed = kmh / 3.6
                    continue
                }
            }
            speedSteps.append(SpeedProfile.Step(from: from, speed: kmh / 3.6))
        }
        if speedSteps.isEmpty { speedSteps = [SpeedProfile.Step(from: 0, speed: options.kmh / 3.6)] }
        let drive = Scenario.Drive(profile: SpeedProfile(steps: speedSteps, stops: stops))
        // Place the maneuvers, then drive the road once: a maneuver the
        // road cannot give its own "now" line at these speeds (it follows
        // the one before too closely) is left out and the rest placed again.
        var road = Scenario.Road(language: options.language, points: points, maneuvers: [])
        road.drive = drive
        if options.language == .en { road.guidance.units = options.units ?? RouteImporter.voiceUnits(steps) }
        try RouteImporter.checkDrive(road, length: route.length, meters: total)
        var placed = try RouteImporter.place(specs, on: route, paths: specPaths, warnings: &warnings)
        // A maneuver the road cannot announce after the one before is left
        // out, the first such each time, and the rest placed again. Whether
        // one is announced depends on the maneuvers just before it (the
        // drive and the fixes on none), so each question is asked of a
        // window of the road around it (`RouteImporter.window`), not of the
        // whole drive: linear in the route, however many are left out. A
        // drive of the whole road checks it (below).
        var leftOut: [(step: Int, warning: ImportWarning)] = []
        func leaveOut(_ i: Int) throws(ImportProblem) {
            // The first is measured from the start: a fork 4 m after it cannot be announced either.
            let kind: ImportWarning.Kind =
                i == 0
                ? .cannotAnnounceAfterStart(meters: RouteImporter.whole(placed[0].distance))
                : .cannotAnnounce(metersAfterPrevious: RouteImporter.whole(placed[i].distance - placed[i - 1].distance))
            let step = specStep[placed[i].index]
            leftOut.append((step, ImportWarning(kind, at: JSONPath.join(steps[step].path, steps[step].keys.type))))
            placed.remove(at: i)
            // Those after it are placed again, each after the one before, until one lands where
            // it was (the rest then do too). Leaving one out only lets the next lie earlier.
            var k = i
            while k < placed.count {
                let from = k == 0 ? 0 : placed[k - 1].distance + 1
                // It placed after a later point, so it places after an earlier one.
                guard let distance = try? route.distance(ofManeuverAt: placed[k].spec.point, from: from, index: k),
                    distance != placed[k].distance
                else { break }
                placed[k].distance = distance
                k += 1
            }
        }
        /// Whether the maneuver at `i` may be left out: any but a first that is the arrival or a waypoint.
        func leavable(_ i: Int) -> Bool { i > 0 || ![.arrive, .waypoint].contains(placed[0].spec.turn) }
        /// Asks windows from `settled` on until the maneuvers before `until` are
        /// settled (or the route ends); returns where it got to.
        func windows(from start: Int, until: Int) throws(ImportProblem) -> Int {
            var settled = start  // placed[..<settled] are announced
            while settled < min(until, placed.count) {
                let first = max(0, settled - 2)
                let last = min(placed.count - 1, settled + RouteImporter.windowManeuvers)
                let toEnd = last == placed.count - 1
                // The maneuvers a window answers for: from `settled` to the one before its last (all, at the route's end).
                let answered = settled..<(toEnd ? placed.count : last)
                let from = max(0, placed[first].distance - RouteImporter.windowLead)
                let to = toEnd ? route.length : placed[last].distance + RouteImporter.windowTail
                let window = RouteImporter.window(
                    road, route: route, from: from, to: to, maneuvers: placed[first...last].map(\.spec))
                let silent = Set(RouteImporter.unannounced(Scenario(name: "import", road: window)))
                if let i = answered.first(where: { silent.contains(placed[$0].spec.id) && leavable($0) }) {
                    try leaveOut(i)
                    settled = max(0, i - 1)  // the one before may have said it in its "now" line
                } else {
                    if toEnd { return placed.count }
                    settled = last
                }
            }
            return settled
        }
        _ = try windows(from: 0, until: .max)
        // The whole drive checks the windows: each maneuver it passes
        // unannounced is left out and the windows after it asked again,
        // all in one drive where they lie apart, then the whole drive again.
        for _ in 0..<placed.count {
            road.maneuvers = placed.map(\.spec)
            let silent = RouteImporter.unannounced(Scenario(name: "import", road: road))
            if silent.isEmpty { break }
            var reached = 0
            var changed = false
            for id in silent {
                guard let i = placed.firstIndex(where: { $0.spec.id == id }), leavable(i), i >= reached else {
                    continue
                }
                try leaveOut(i)
                changed = true
                reached = try windows(from: max(0, i - 1), until: i + 2 * RouteImporter.windowManeuvers)
            }
            if !changed { break }
        }
        warnings += leftOut.sorted { $0.step < $1.step }.map(\.warning)
        road.maneuvers = placed.map(\.spec)
        // The service's prompts: each step's voice instructions announce
        // the maneuver that ends the step, which is the next step's; when
        // that step has no maneuver kept, the next one kept after it, its
        // distance counted on from where the step ends.
        var prompts: [ServicePrompt] = []
        // Display texts: each for its own step's maneuver, when kept.
        for kept in placed {
            if let text = steps[specStep[kept.index]].display {
                prompts.append(ServicePrompt(maneuver: kept.spec.id, before: nil, text: text))
            }
        }
        for (k, step) in steps.enumerated() where !step.voice.isEmpty {
            guard let target = placed.first(where: { specStep[$0.index] > k }) else {
                for v in step.voice { warnings.append(ImportWarning(.promptWithoutManeuver, at: v.path)) }
                continue
            }
            let extra =
                specStep[target.index] == k + 1 || k + 1 >= stepStart.count
                ? 0 : max(0, target.distance - stepStart[k + 1])
            for v in step.voice {
                prompts.append(
                    ServicePrompt(
                        maneuver: target.spec.id, before: ((v.before + extra) * 10).rounded() / 10, text: v.text))
            }
        }
        let minutes = RouteImporter.whole(steps.reduce(0) { $0 + $1.duration } / 60)
        var scenario = Scenario(
            name: "route from \(options.source)",
            description:
                "Imported by drivesim import-route from \(options.source): route \(options.route), \(counted(legCount, "leg")), "
                + "\(counted(steps.count { !$0.speedOnly && !$0.added }, "step")), \(counted(placed.count, "maneuver")), "
                + "\(RouteImporter.whole(total)) m in about \(minutes) min at the response's own speeds.",
            road: road)
        scenario.servicePrompts = prompts
        return RouteImporter.Imported(
            scenario: scenario, warnings: warnings, length: route.length, responseDistance: total, precision: precision,
            start: steps.first.map { JSONPath.join($0.path, $0.keys.location) } ?? "")
    }
}
