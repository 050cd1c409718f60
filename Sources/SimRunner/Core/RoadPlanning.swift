import Guidance
import Road

/// How a run plans its road: with drivesim's own guidance (`Announcer`,
/// maybe a road mutant), or with another guidance (an app's, in Swift or
/// in another process). A value, so it travels to every worker.
package struct RoadPlanning: Sendable {
    /// Plans a road that `RoadSetup.validate()` has passed.
    package let plan: @Sendable (RoadSetup?) -> RoadPlan

    /// Plans with `plan`.
    package init(_ plan: @escaping @Sendable (RoadSetup?) -> RoadPlan) { self.plan = plan }

    /// Plans with drivesim's own guidance, deliberately broken by `fault`
    /// (a road mutant, for mutation testing; nil: as it is).
    package static func builtIn(_ fault: RoadFault?) -> RoadPlanning {
        RoadPlanning { RoadPlan(validated: $0, fault: fault) }
    }

    /// Plans with a guidance that `make` builds for each road's route.
    package static func guidance<G: Guidance>(_ make: @escaping @Sendable (GuidanceRoute) -> G) -> RoadPlanning {
        RoadPlanning { RoadPlan(validated: $0, guidance: make) }
    }
}
