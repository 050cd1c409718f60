import SimClock

/// Where the car really is: the speed profile integrated along the route in
/// steps of `step`, braking ahead of every lower target and of the route's
/// end so that it never exceeds its deceleration limit; it brakes to a
/// standstill at each stop and waits its dwell there. Before `start` the
/// car waits at the route's start; after arriving it stays at the end.
public struct Trajectory: Sendable {
    /// The integration step.
    public static let step = SimTime(ms: 250)
    /// The car creeps at least this fast until it arrives (m/s), so it never stalls short of the end.
    static let creep = 1.0

    /// When the car sets off: `distances[0]` holds at this instant.
    public let start: SimTime
    /// Distance along the route at `start + i × step`.
    public let distances: [Double]
    /// Speed (m/s) at `start + i × step`.
    public let speeds: [Double]
    /// When the car reaches the end of the route.
    public let arrival: SimTime

    /// Drives `profile` along a route of `length` meters from time `start`.
    /// - Complexity: O(duration / step × k), k the profile steps within braking distance.
    public init(profile: SpeedProfile, length: Double, start: SimTime) {
        self.start = start
        var distances = [0.0], speeds = [0.0]
        _ = Trajectory.integrate(profile, length: length, maxSteps: .max) { x, v in
            distances.append(x)
            speeds.append(v)
        }
        self.distances = distances
        self.speeds = speeds
        arrival = start + SimTime(ms: Int64(distances.count - 1) * Trajectory.step.ms)
    }

    /// When a car starting at `start` arrives, or nil if it would not have
    /// arrived by `limit`: the same integration, stopped at the limit, so a
    /// drive that would last days is refused in bounded time and memory.
    /// - Complexity: O((limit − start) / step × k) at most.
    public static func arrival(profile: SpeedProfile, length: Double, start: SimTime, limit: SimTime) -> SimTime? {
        guard start <= limit else { return nil }
        let maxSteps = (limit - start).ms / Trajectory.step.ms
        guard let count = integrate(profile, length: length, maxSteps: maxSteps, { _, _ in }) else { return nil }
        return start + SimTime(ms: count * Trajectory.step.ms)
    }

    /// Integrates the profile step by step, handing each step's distance and
    /// speed to `record`; returns the number of steps, or nil if the car has
    /// not arrived after `maxSteps`.
    static func integrate(
        _ profile: SpeedProfile, length: Double, maxSteps: Int64, _ record: (Double, Double) -> Void
    ) -> Int64? {
        let dt = Double(Trajectory.step.ms) / 1000
        var x = 0.0, v = 0.0
        var count: Int64 = 0
        var index = 0  // the profile step in force
        var stop = 0  // the next stop
        let steps = profile.steps
        while x < length {
            if count == maxSteps { return nil }
            if stop < profile.stops.count, x >= profile.stops[stop].at {
                // Standing at the stop: whole steps of dwell, then on.
                let dwellSteps = (profile.stops[stop].dwell.ms + Trajectory.step.ms - 1) / Trajectory.step.ms
                stop += 1
                for _ in 0..<dwellSteps {
                    if count == maxSteps { return nil }
                    count += 1
                    record(x, 0)
                }
                v = 0
                continue
            }
            count += 1
            while index + 1 < steps.count, steps[index + 1].from <= x { index += 1 }
            var target = steps[index].speed
            // Brake ahead for lower targets and for the end.
            // (At 250 km/h and 3 m/s² the braking distance is 800 m: 1 km ahead is enough.)
            var j = index + 1
            while j < steps.count, steps[j].from < length, steps[j].from - x < 1_000 {
                // Measured from where this step ends, so the discrete braking never lags.
                let gap = max(0, steps[j].from - x - v * dt)
                if steps[j].speed < v {
                    target = min(target, (steps[j].speed * steps[j].speed + 2 * profile.decel * gap).squareRoot())
                }
                j += 1
            }
            target = min(target, (2 * profile.decel * max(0, length - x - v * dt)).squareRoot())
            let end = stop < profile.stops.count ? min(length, profile.stops[stop].at) : length
            if end < length { target = min(target, (2 * profile.decel * max(0, end - x - v * dt)).squareRoot()) }
            target = max(target, Trajectory.creep)
            let next = v < target ? min(target, v + profile.accel * dt) : max(target, v - profile.decel * dt)
            x = min(end, x + (v + next) / 2 * dt)
            v = x >= end ? 0 : next
            record(x, v)
        }
        return count
    }

    /// Distance along the route and speed at `t`, interpolated between steps.
    public func state(at t: SimTime) -> (distance: Double, speed: Double) {
        if t <= start { return (0, 0) }
        let offset = (t - start).ms
        let i = Int(offset / Trajectory.step.ms)
        if i >= distances.count - 1 { return (distances[distances.count - 1], 0) }
        let u = Double(offset % Trajectory.step.ms) / Double(Trajectory.step.ms)
        return (distances[i] + (distances[i + 1] - distances[i]) * u, speeds[i] + (speeds[i + 1] - speeds[i]) * u)
    }

    /// The first millisecond at which the car has reached distance `d`, or nil if it never does.
    public func time(reaching d: Double) -> SimTime? {
        guard let last = distances.last, last >= d else { return nil }
        var low = 0, high = distances.count - 1
        while low < high {
            let mid = (low + high) / 2
            if distances[mid] >= d { high = mid } else { low = mid + 1 }
        }
        if low == 0 { return start }
        let a = distances[low - 1], b = distances[low]
        let u = b > a ? (d - a) / (b - a) : 1
        let ms = Int64(low - 1) * Trajectory.step.ms + Int64((u * Double(Trajectory.step.ms)).rounded(.up))
        return start + SimTime(ms: ms)
    }
}
