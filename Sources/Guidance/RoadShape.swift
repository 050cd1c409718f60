import Road

/// What a road's plan derives from its shape alone (`RoadSetup.hasShape(of:)`):
/// the path the car truly drives, and the drive along it. A fuzz run plans
/// roads of one shape over and over (its snaps move times, never roads), so
/// it derives them once and hands them to each plan and validation.
package struct RoadShape: Sendable {
    /// The road they were derived from.
    package let road: RoadSetup
    /// The road's true path (`RoadSetup.truePath()`).
    package let truePath: TruePath
    /// The drive along it, if the road has one.
    package let trajectory: Trajectory?

    /// `road`'s shape; throws where its roads do not make a true path.
    package init(_ road: RoadSetup) throws(RoadSetup.Problem) {
        self.init(road, truePath: try road.truePath())
    }

    /// `road`'s shape, its true path found already.
    init(_ road: RoadSetup, truePath: TruePath) {
        self.road = road
        self.truePath = truePath
        trajectory = road.drive.map { Trajectory(profile: $0.profile, length: truePath.route.length, start: $0.start) }
    }

    /// This shape if `road` has it, else nil.
    package func fitting(_ road: RoadSetup) -> RoadShape? { self.road.hasShape(of: road) ? self : nil }
}

extension RoadSetup {
    /// Whether `other` has this road's shape: the same route and maneuvers,
    /// drive, changes, saved places and maps door. Everything validation
    /// and a true path derive from these is then the same for both.
    package func hasShape(of other: RoadSetup) -> Bool {
        points == other.points && maneuvers == other.maneuvers && drive == other.drive && changes == other.changes
            && places == other.places && maps == other.maps
    }
}
