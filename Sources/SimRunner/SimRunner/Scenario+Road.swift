import Guidance

/// The road section's types live beside the planner, in `Guidance`
/// (`RoadSetup`); the scenario names them as its own.
extension Scenario {
    /// The road section (see `RoadSetup`).
    public typealias Road = RoadSetup
    /// A maneuver as written.
    public typealias ManeuverSpec = RoadSetup.ManeuverSpec
    /// The drive along the route.
    public typealias Drive = RoadSetup.Drive
    /// The car beside its route for a while.
    public typealias Detour = RoadSetup.Detour
    /// Where the fixes come from.
    public typealias Fixes = RoadSetup.Fixes
    /// One recorded fix.
    public typealias RecordedFix = RoadSetup.RecordedFix
}
