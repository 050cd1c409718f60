import SimClock

/// Makes fixes from the true trajectory: one every `every`, each displaced
/// by seeded noise, delivered after `delay` plus seeded jitter (so fixes can
/// arrive out of order), some never delivered, none in a gap or while the
/// app does not measure.
public struct FixGenerator: Sendable, Equatable {
    public var every = SimTime(ms: 1000)
    /// The accuracy every generated fix reports, meters.
    public var accuracy = 5.0
    /// The largest displacement along each axis, meters (uniform).
    public var noise = 3.0
    public var seed: UInt64 = 1
    /// The usual delivery delay.
    public var delay = SimTime(ms: 200)
    /// Up to this much more delay, uniform.
    public var jitter = SimTime.zero
    /// The chance in 100 that a fix is never delivered.
    public var dropPercent = 0
    /// Windows in which the receiver has no fix at all (tunnels).
    public var gaps: [TimeWindow] = []
    /// Windows in which fixes arrive late, with the extra delay.
    public var late: [(window: TimeWindow, delay: SimTime)] = []

    public init() {}

    public static func == (a: FixGenerator, b: FixGenerator) -> Bool {
        a.every == b.every && a.accuracy == b.accuracy && a.noise == b.noise && a.seed == b.seed && a.delay == b.delay
            && a.jitter == b.jitter && a.dropPercent == b.dropPercent && a.gaps == b.gaps
            && a.late.map(\.window) == b.late.map(\.window) && a.late.map(\.delay) == b.late.map(\.delay)
    }

    /// The fixes of a drive, in the order they were taken, from the car's
    /// start until a few seconds after it arrives.
    /// - Parameters:
    ///   - measuring: whether the app measures at a time (When In Use).
    ///   - detour: the car's sideways offset at a time, meters (right of the route is positive).
    public func fixes(
        along route: Route, trajectory: Trajectory, measuring: (SimTime) -> Bool, detour: (SimTime) -> Double
    ) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var out: [Fix] = []
        let end = trajectory.arrival + SimTime(ms: 3000)
        out.reserveCapacity(Int((end - trajectory.start).ms / max(every.ms, 1)) + 1)
        var t = trajectory.start
        var index = 0
        while t <= end {
            defer { t = t + every }
            // Draw the same numbers for every instant, so a gap does not shift the noise of later fixes.
            let dx = Double(random.int(in: -1000...1000)) / 1000 * noise
            let dy = Double(random.int(in: -1000...1000)) / 1000 * noise
            let dv = Double(random.int(in: -300...300)) / 1000
            let extra = jitter.ms > 0 ? random.int(in: 0...jitter.ms) : 0
            let lost = random.chance(dropPercent)
            guard measuring(t), !gaps.holds(t) else { continue }
            let truth = trajectory.state(at: t)
            var (point, direction) = route.location(at: truth.distance)
            let side = detour(t)
            if side != 0 { point = point + Vector(x: direction.y, y: -direction.x) * side }
            var arrives = t + delay + SimTime(ms: extra)
            for window in late where window.window.contains(t) { arrives = arrives + window.delay }
            let fix = Fix(
                index: index, taken: t, arrives: arrives, position: point + Vector(x: dx, y: dy), accuracy: accuracy,
                speed: max(0, truth.speed + dv))
            index += 1
            if !lost { out.append(fix) }
        }
        return out
    }
}
