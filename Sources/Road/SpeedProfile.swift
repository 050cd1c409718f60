import SimClock

/// How fast the driver wants to go along the route: target speeds by
/// distance, and the car's limits on speeding up and slowing down.
public struct SpeedProfile: Sendable, Equatable {
    /// From `from` meters along the route on, the driver aims for `speed` m/s.
    public struct Step: Sendable, Equatable {
        public var from: Double
        public var speed: Double
        public init(from: Double, speed: Double) { self.from = from; self.speed = speed }
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
        public var at: Double
        public var dwell: SimTime
        public init(at: Double, dwell: SimTime) { self.at = at; self.dwell = dwell }
    }

    public init(steps: [Step], accel: Double = 2.0, decel: Double = 3.0, stops: [Stop] = []) {
        self.steps = steps; self.accel = accel; self.decel = decel; self.stops = stops
    }

    /// The target speed at distance `d`.
    public func target(at d: Double) -> Double {
        var speed = steps[0].speed
        for step in steps where step.from <= d { speed = step.speed }
        return speed
    }
}
