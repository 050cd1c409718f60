import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// A route change made of a second service response (`import-route
/// --reroute FILE`, `--handoff FILE`): the road the car truly takes from
/// a branch on the road before it (docs/import.md, "Route changes").
extension RouteImporter {
    /// How far from the road before a change's route may start, meters: where
    /// the car was when it asked. Farther, the two routes never meet and the
    /// change is refused (`routesApart`). A car off its route asks after
    /// three fixes beyond 40 m (docs/road.md); 500 m is ten times that.
    package static let branchReach = 500.0

    /// A second response, imported on its own, to be added as a change.
    package struct Change: Sendable, Equatable {
        /// The change's id (`r1`, `h1`): `road.route.switched`'s `route`, and its maneuvers' prefix.
        package var id: String
        /// The response imported alone (its road, maneuvers and drive).
        package var imported: Imported
        /// Pippa's handoff of its destination; nil for a reroute.
        package var handoff: Scenario.Road.Handoff?

        /// A change `id` onto `imported`'s road, a handoff when `handoff` is given.
        package init(id: String, imported: Imported, handoff: Scenario.Road.Handoff? = nil) {
            self.id = id
            self.imported = imported
            self.handoff = handoff
        }
    }

    /// `imported` with `change` added as its road's next change: the
    /// change's road from the **branch**, the point of the true path so far
    /// (after the previous change's branch) nearest to where the change's
    /// route starts. A start within 15 m of it is the road's first point;
    /// a start farther, up to `branchReach`, is joined to it by a straight
    /// line (the car's way there, which no service answered). Its maneuvers
    /// are named `<id>-<its id>`; the drive keeps the road before's speeds
    /// up to the branch, then the change's own (the join at its first
    /// speed), so the car leaves the route at the branch. The handoff's
    /// `place`, when given and not yet saved, becomes a saved place at the
    /// change's last point. Refused at the change's start (its response's
    /// path): `routesApart` beyond `branchReach`. The warnings stay the first
    /// response's: the change's are its own `imported.warnings`, about its own file.
    /// - Complexity: O(points of the route and of every change).
    package static func adding(_ change: Change, to imported: Imported) throws(ImportProblem) -> Imported {
        let other = change.imported
        // Every import has a road and a drive; a hand-made `Imported` without is refused as pointless.
        guard var road = imported.scenario.road, let drive = road.drive, let otherRoad = other.scenario.road else {
            throw ImportProblem(.tooFewPoints, at: other.start)
        }
        let path = try truePath(road)
        let previous = path.starts.last ?? 0
        let start = path.first.projection.project(otherRoad.points[0])
        let nearest = path.route.nearest(to: start, from: previous, to: path.route.length)
        if !(nearest.offset <= branchReach) {
            throw ImportProblem(
                .routesApart(meters: MeasuredValue.rounded(nearest.offset, beyond: branchReach), reach: branchReach),
                at: other.start)
        }
        var points = otherRoad.points
        var join = 0.0
        if nearest.offset > Route.maneuverTolerance {
            let branch = path.first.projection.unproject(path.route.location(at: nearest.distance).point)
            points.insert(branch, at: 0)
            join = greatCircleDistance(branch, points[1])
        }
        let maneuvers = otherRoad.maneuvers.map { m in
            var m = m
            m.id = "\(change.id)-\(m.id)"
            return m
        }
        road.changes.append(
            Scenario.Road.RouteChange(id: change.id, points: points, maneuvers: maneuvers, handoff: change.handoff))
        if let place = change.handoff?.place, !road.places.contains(where: { $0.name == place }), let end = points.last
        {
            road.places.append(Scenario.Road.Place(name: place, point: end))
        }
        // Where the change's road begins on the path, as the planner finds it.
        let branch = try truePath(road).starts.last ?? 0
        road.drive = Scenario.Drive(
            start: drive.start, profile: joined(drive.profile, at: branch, then: otherRoad.drive?.profile, after: join))
        var out = imported
        out.scenario.road = road
        let kind = change.handoff == nil ? "a reroute" : "a handoff"
        out.scenario.description =
            (out.scenario.description ?? "") + " Then \(kind), \(change.id): \(other.scenario.name)."
        out.length = branch + join + other.length
        return out
    }

    /// Where each of the scenario's changes branches off, meters along the
    /// drive's true path, and when the car reaches it (nil: never, within
    /// the drive): what a handoff's `sent` times are chosen against.
    package static func branches(_ scenario: Scenario) -> [(meters: Double, reached: SimTime?)] {
        guard let road = scenario.road, let path = try? road.truePath() else { return [] }
        let trajectory = road.drive.map { Trajectory(profile: $0.profile, length: path.route.length, start: $0.start) }
        return path.starts.map { ($0, trajectory?.time(reaching: $0)) }
    }

    /// The road's true path, its problem (none for what the import built) as the decoder would word it.
    static func truePath(_ road: Scenario.Road) throws(ImportProblem) -> TruePath {
        do { return try road.truePath() } catch {
            let at = JSONPath.render(error.path, from: "road")
            throw ImportProblem(.scenarioRefused(path: at, reason: error.reason.message), at: "")
        }
    }

    /// `before`'s speeds and stops up to `branch` (meters along the path),
    /// then `after`'s moved to begin there: its first speed from the branch,
    /// the rest `join` meters later still (the change's own road begins
    /// after the join). Steps closer than `RoadSetup.Limits.stepSpacing` to
    /// the one before give it their speed instead.
    static func joined(_ before: SpeedProfile, at branch: Double, then after: SpeedProfile?, after join: Double)
        -> SpeedProfile
    {
        var profile = before
        profile.steps = before.steps.filter { $0.from < branch }
        profile.stops = before.stops.filter { $0.at < branch }
        guard let after else { return profile }
        func moved(_ d: Double) -> Double { ((branch + join + d) * 10).rounded() / 10 }
        for (i, step) in after.steps.enumerated() {
            let from = i == 0 ? (branch * 10).rounded() / 10 : moved(step.from)
            if let last = profile.steps.last, from < last.from + RoadSetup.Limits.stepSpacing {
                profile.steps[profile.steps.count - 1].speed = step.speed
            } else {
                profile.steps.append(SpeedProfile.Step(from: from, speed: step.speed))
            }
        }
        for stop in after.stops {
            let at = moved(stop.at)
            if let last = profile.stops.last, at < last.at + RoadSetup.Limits.stepSpacing { continue }
            profile.stops.append(SpeedProfile.Stop(at: at, dwell: stop.dwell))
        }
        return profile
    }
}
