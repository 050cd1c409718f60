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
        var distances = [0.0]
        var speeds = [0.0]
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
        var x = 0.0
        var v = 0.0
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
            while index + 1 < steps.count, steps[index + 1].from <= x { index += 1 }
            let cruise =
                v == steps[index].speed
                ? cruiseEnd(profile, from: x, speed: v, index: index, stop: stop, length: length, dt: dt) : x
            if x < cruise {
                // Every step before `cruise` is the step below with nothing to brake for: the same advance, bit for bit.
                let advance = (v + v) / 2 * dt
                while x < cruise {
                    if count == maxSteps { return nil }
                    let run = Trajectory.run(from: x, adding: advance, before: cruise, atMost: maxSteps - count)
                    if run.steps == 0 {
                        count += 1
                        x += advance
                        record(x, v)
                        continue
                    }
                    for k in 1...run.steps { record(x + Double(k) * run.delta, v) }
                    count += run.steps
                    x += Double(run.steps) * run.delta
                }
                continue
            }
            count += 1
            var target = steps[index].speed
            // Brake ahead for lower targets and for the end.
            // (At 250 km/h and 3 m/s² the braking distance is 800 m: 1 km ahead is enough.)
            var j = index + 1
            while j < steps.count, steps[j].from < length, steps[j].from - x < 1_000 {
                // Measured from where this step ends, so the discrete braking never lags.
                let gap = max(0, steps[j].from - x - v * dt)
                if steps[j].speed < v {
                    target = capped(target, byRootOf: steps[j].speed * steps[j].speed + 2 * profile.decel * gap)
                }
                j += 1
            }
            target = capped(target, byRootOf: 2 * profile.decel * max(0, length - x - v * dt))
            let end = stop < profile.stops.count ? min(length, profile.stops[stop].at) : length
            if end < length { target = capped(target, byRootOf: 2 * profile.decel * max(0, end - x - v * dt)) }
            target = max(target, Trajectory.creep)
            let next = v < target ? min(target, v + profile.accel * dt) : max(target, v - profile.decel * dt)
            x = min(end, x + (v + next) / 2 * dt)
            v = x >= end ? 0 : next
            record(x, v)
        }
        return count
    }

    /// How far a car at `v`, its profile step's own speed, cruises from `x`:
    /// up to where a step taken from there on could change anything (the
    /// next speed step, the next stop), stopping `reach` short of every
    /// point it may have to brake for (a lower speed ahead, the stop, the
    /// end), `reach` being a step's advance and the braking distance from
    /// `v` with 1 % and a meter to spare. Before it, every step keeps `v`
    /// and adds `v × dt`. `x` itself when the car is below its creep speed.
    /// - Complexity: O(1): at most `cruiseLookahead` speed steps are read
    ///   (past them the cruise ends, as if the next were lower).
    static func cruiseEnd(
        _ profile: SpeedProfile, from x: Double, speed v: Double, index: Int, stop: Int, length: Double, dt: Double
    ) -> Double {
        guard v >= creep else { return x }
        let steps = profile.steps
        let reach = v * dt + v * v / (2 * profile.decel) * 1.01 + 1
        var end = length - reach
        if stop < profile.stops.count { end = min(end, profile.stops[stop].at - reach) }
        if index + 1 < steps.count { end = min(end, steps[index + 1].from) }
        // The first lower speed ahead: a lower one further on brakes later.
        var j = index + 1
        while j < steps.count, steps[j].from - reach < end {
            if steps[j].speed < v || j - index > cruiseLookahead {
                end = steps[j].from - reach
                break
            }
            j += 1
        }
        return end
    }

    /// Cruising steps from `x` that each add `c` with the same rounding,
    /// known without taking them one after another: while `x + c` stays
    /// below the next power of two, the sum is rounded to a multiple of
    /// `x`'s spacing, so (unless `c` lies exactly halfway between two
    /// multiples, where the rounding goes to even) each step adds `delta`,
    /// `c` rounded to that spacing, exactly. `steps` is how many of them
    /// start before `end`, end below the power of two, and number at most
    /// `most`; 0 when none may be taken this way (take one step as usual).
    static func run(from x: Double, adding c: Double, before end: Double, atMost most: Int64) -> (
        steps: Int64, delta: Double
    ) {
        guard x >= 1, x.isFinite, c > 0, most > 0 else { return (0, 0) }
        let spacing = x.ulp
        let top = 2 * x.binade
        let multiples = c / spacing  // exact: the spacing is a power of two
        guard multiples - multiples.rounded(.down) != 0.5 else { return (0, 0) }
        let delta = multiples.rounded() * spacing
        guard delta > 0 else { return (0, 0) }
        // A first guess, then back to steps that all start before `end` and end below `top`.
        let guess = min((end - x) / delta, (top - x) / delta, Double(min(most, 1 << 32))).rounded(.up)
        var steps = guess >= 1 ? Int64(guess) : 0
        while steps > 0, x + Double(steps) * delta >= top || x + Double(steps - 1) * delta >= end || steps > most {
            steps -= 1
        }
        return (steps, delta)
    }

    /// How many speed steps ahead `cruiseEnd` reads at most.
    static let cruiseLookahead = 64

    /// `min(target, a.squareRoot())`, without the root when it cannot be the
    /// smaller: the integration brakes for a lower speed ahead only near it,
    /// and cruising (most steps) leaves every braking curve above the target.
    /// When target² × (1 + 2⁻⁵⁰), rounded twice, is at most `a`, the exact
    /// target² is below `a` (each rounding loses at most 2⁻⁵³, and target ≥
    /// 10⁻¹⁰⁰ keeps the square a normal number), so the root, correctly
    /// rounded, is at least `target`: the result is the same bits as the
    /// root's `min`, without the root's latency in every step.
    @inline(__always) static func capped(_ target: Double, byRootOf a: Double) -> Double {
        if target >= 1e-100, target * target * (1 + 0x1p-50) <= a { return target }
        return Swift.min(target, a.squareRoot())
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
        var low = 0
        var high = distances.count - 1
        while low < high {
            let mid = (low + high) / 2
            if distances[mid] >= d { high = mid } else { low = mid + 1 }
        }
        if low == 0 { return start }
        let a = distances[low - 1]
        let b = distances[low]
        let u = b > a ? (d - a) / (b - a) : 1
        let ms = Int64(low - 1) * Trajectory.step.ms + Int64((u * Double(Trajectory.step.ms)).rounded(.up))
        return start + SimTime(ms: ms)
    }
}
