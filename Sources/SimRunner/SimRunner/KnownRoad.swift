import Guidance

/// What a fuzz run's generator knows of its scenario's road already, so
/// that checking the run need not find it again.
package struct KnownRoad: Sendable {
    /// The road's shape (`RoadShape`), which the road checks' truth starts from.
    package var shape: RoadShape?
    /// The road as drivesim's own guidance plans it with the road fault of
    /// the mutant under test (the generator's last dry run): only a run over
    /// that same guidance may use it.
    package var plan: RoadPlan

    /// What is known: `shape` and `plan`.
    package init(shape: RoadShape?, plan: RoadPlan) {
        self.shape = shape
        self.plan = plan
    }
}
