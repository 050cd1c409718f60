import SimClock

/// How fast the driver wants to go along the route: target speeds by
/// distance, and the car's limits on speeding up and slowing down.
public struct SpeedProfile: Sendable, Equatable {
    /// From `from` meters along the route on, the driver aims for `speed` m/s.
    public struct Step: Sendable, Equatable {
        /// Where the step begins, meters along the route (the first at 0).
        public var from: Double
        /// The target speed from there on, m/s (1...69.4, that is 3.6...250 km/h).
        public var speed: Double
        /// A step aiming for `speed` m/s from `from` meters on.
        public init(from: Double, speed: Double) {
            self.from = from
            self.speed = speed
        }
    }

    /// Sorted by `from`, the first at 0; every speed above zero.
    public var steps: [Step]
    /// Largest acceleration, m/s².
    public var accel: Double
    /// Largest deceleration, m/s² (positive).
    public var decel: Double
    /// Where the car stops and for how long (red lights, traffic), sorted by distance.
    public var stops: [Stop] = []

    /// The car brakes to a standstill `at` meters along the route and waits `dwell` there.
    public struct Stop: Sendable, Equatable {
        /// Where the car stands, meters along the route.
        public var at: Double
        /// How long it stands there (0...1 h).
        public var dwell: SimTime
        /// A stop of `dwell` at `at` meters.
        public init(at: Double, dwell: SimTime) {
            self.at = at
            self.dwell = dwell
        }
    }

    /// A profile of `steps` (sorted, the first at 0) with the car's limits in m/s²
    /// (0.1...20; 2 and 3 by default) and its `stops`.
    public init(steps: [Step], accel: Double = 2.0, decel: Double = 3.0, stops: [Stop] = []) {
        self.steps = steps
        self.accel = accel
        self.decel = decel
        self.stops = stops
    }

    /// The target speed at distance `d`.
    public func target(at d: Double) -> Double {
        var speed = steps[0].speed
        for step in steps where step.from <= d { speed = step.speed }
        return speed
    }
}
