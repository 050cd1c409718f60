import Guidance
import Road

/// How a run plans its road: with drivesim's own guidance (`Announcer`,
/// maybe a road mutant), or with another guidance (an app's, in Swift or
/// in another process). A value, so it travels to every worker.
package struct RoadPlanning: Sendable {
    /// Plans a road that `RoadSetup.validate()` has passed.
    package let plan: @Sendable (RoadSetup?) -> RoadPlan
    /// Whether this is drivesim's own guidance (`builtIn`): a pure function
    /// of the road (values only, no clock, no randomness, no hash order),
    /// so a second run of the same road may reuse its plan. Another
    /// guidance is asked again (invariant 7 then catches one that is not
    /// deterministic).
    package let isOwn: Bool

    /// Plans with `plan`, another guidance than drivesim's own.
    package init(_ plan: @escaping @Sendable (RoadSetup?) -> RoadPlan) { self.init(plan, isOwn: false) }

    private init(_ plan: @escaping @Sendable (RoadSetup?) -> RoadPlan, isOwn: Bool) {
        self.plan = plan
        self.isOwn = isOwn
    }

    /// Plans with drivesim's own guidance, deliberately broken by `fault`
    /// (a road mutant, for mutation testing; nil: as it is).
    package static func builtIn(_ fault: RoadFault?) -> RoadPlanning {
        RoadPlanning({ RoadPlan(validated: $0, fault: fault) }, isOwn: true)
    }

    /// Plans with a guidance that `make` builds for each road's route.
    package static func guidance<G: Guidance>(_ make: @escaping @Sendable (GuidanceRoute) -> G) -> RoadPlanning {
        RoadPlanning { RoadPlan(validated: $0, guidance: make) }
    }
}
