import SimClock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes fixes from the true trajectory: one every `every`, each displaced
/// by seeded noise, delivered after `delay` plus seeded jitter (so fixes can
/// arrive out of order), some never delivered, none in a gap or while the
/// app does not measure.
///
/// The noise is uniform and independent per fix by default. With
/// `correlation` (τ) it is a first-order Gauss–Markov process per axis, as
/// a phone's error is (multipath and the filter make it drift, not jump):
/// `e(k) = φ·e(k−1) + √(1−φ²)·σ·w(k)`, `φ = exp(−every/τ)`, `w` standard
/// normal, `σ = noise` the stationary deviation per axis. `stretches` give
/// another accuracy and noise on a part of the route (an urban canyon);
/// `accuracySpread` varies the reported accuracy per fix; `jumps` (given)
/// and `jumpPercent` (drawn) displace single fixes (multipath). Every fix
/// carries its speed, its course (none while standing) and the true
/// position. The numbers of the default model are drawn exactly as before
/// the other models existed; the others draw from a second stream, so a
/// scenario that uses none of them gets the same fixes.
public struct FixGenerator: Sendable, Equatable {
    /// The most a generated fix's reported speed is off the car's, mm/s
    /// (uniform within ±0.3 m/s, as a phone's Doppler speed).
    package static let speedNoiseMms: Int64 = 300

    /// The time between fixes taken (100 ms...1 h; 1 s by default).
    public var every = SimTime(ms: 1000)
    /// The accuracy every generated fix reports, meters.
    public var accuracy = 5.0
    /// The largest displacement along each axis, meters (uniform), or the
    /// stationary deviation per axis with `correlation`.
    public var noise = 3.0
    /// The seed of the noise, jitter and drops: the same seed gives the same fixes.
    public var seed: UInt64 = 1
    /// The usual delivery delay.
    public var delay = SimTime(ms: 200)
    /// Up to this much more delay, uniform.
    public var jitter = SimTime.zero
    /// The chance in 100 that a fix is never delivered.
    public var dropPercent = 0
    /// Windows in which the receiver has no fix at all (tunnels).
    public var gaps: [SimInterval] = []
    /// Windows in which fixes arrive late, with the extra delay.
    public var late: [(window: SimInterval, delay: SimTime)] = []
    /// The Gauss–Markov time constant τ; nil for independent uniform noise.
    public var correlation: SimTime? = nil
    /// Parts of the route with their own accuracy and noise.
    public var stretches: [Stretch] = []
    /// Each fix's reported accuracy is the stretch's times a factor drawn
    /// uniformly within ±`accuracySpread` percent (0...90).
    public var accuracySpread = 0
    /// Single fixes displaced on purpose.
    public var jumps: [Jump] = []
    /// The chance in 100 that a fix jumps `jumpMeters` in a drawn direction.
    public var jumpPercent = 0
    /// How far a drawn jump goes, meters.
    public var jumpMeters = 150.0

    /// A part of the route, `[from, to)` meters along it, with its own accuracy and noise.
    public struct Stretch: Sendable, Equatable {
        /// Where the stretch begins, meters along the route (0...10,000 km).
        public var from: Double
        /// Where it ends, meters along the route, after `from` (exclusive).
        public var to: Double
        /// The accuracy fixes on it report, meters (0...10,000).
        public var accuracy: Double
        /// Their noise, meters (0...10,000), as `FixGenerator.noise`.
        public var noise: Double
        /// A stretch `[from, to)` meters along the route with its own accuracy and noise.
        public init(from: Double, to: Double, accuracy: Double, noise: Double) {
            self.from = from
            self.to = to
            self.accuracy = accuracy
            self.noise = noise
        }
    }

    /// The first fix taken at or after `at` is displaced `along` meters in
    /// the route's direction and `across` meters to its right.
    public struct Jump: Sendable, Equatable {
        /// From when: the first fix taken at or after this instant jumps.
        public var at: SimTime
        /// Meters along the route's direction (-10,000...10,000).
        public var along: Double
        /// Meters to the route's right (-10,000...10,000; negative is left).
        public var across: Double
        /// A jump of the first fix taken at or after `at`.
        public init(at: SimTime, along: Double, across: Double) {
            self.at = at
            self.along = along
            self.across = across
        }
    }

    /// The default model: a fix a second, 5 m accuracy, 3 m uniform noise, 200 ms delay, nothing dropped.
    public init() {}

    /// Whether two generators make the same fixes: every setting equal.
    public static func == (a: FixGenerator, b: FixGenerator) -> Bool {
        a.every == b.every && a.accuracy == b.accuracy && a.noise == b.noise && a.seed == b.seed && a.delay == b.delay
            && a.jitter == b.jitter && a.dropPercent == b.dropPercent && a.gaps == b.gaps
            && a.late.map(\.window) == b.late.map(\.window) && a.late.map(\.delay) == b.late.map(\.delay)
            && a.correlation == b.correlation && a.stretches == b.stretches && a.accuracySpread == b.accuracySpread
            && a.jumps == b.jumps && a.jumpPercent == b.jumpPercent && a.jumpMeters == b.jumpMeters
    }

    /// A uniform draw in (0, 1].
    static func unit(_ random: inout SplitMix64) -> Double { Double(random.int(in: 1...1_000_000)) / 1_000_000 }

    /// A standard normal draw (Box–Muller).
    static func normal(_ random: inout SplitMix64) -> Double {
        (-2 * log(unit(&random))).squareRoot() * cos(2 * .pi * unit(&random))
    }

    /// The fixes of a drive, in the order they were taken, from the car's
    /// start until a few seconds after it arrives.
    /// - Parameters:
    ///   - measuring: when the app measures (When In Use).
    ///   - detour: the car's sideways offset at a time, meters (right of the route is positive).
    /// - Complexity: O(fixes × (stretches + jumps)).
    public func fixes(
        along route: Route, trajectory: Trajectory, measuring: IntervalSet = .always, detour: (SimTime) -> Double
    ) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var second = SplitMix64(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
        var out: [Fix] = []
        let blind = IntervalSet(gaps)
        let end = trajectory.arrival + SimTime(ms: 3000)
        out.reserveCapacity(Int((end - trajectory.start).ms / max(every.ms, 1)) + 1)
        let phi = correlation.map { exp(-Double(every.ms) / Double(max($0.ms, 1))) } ?? 0
        var error = Vector(x: 0, y: 0)
        var started = false
        var pending = jumps.sorted { $0.at < $1.at }[...]
        var t = trajectory.start
        var index = 0
        while t <= end {
            defer { t = t + every }
            // Draw the same numbers for every instant, so a gap does not shift the noise of later fixes.
            let ux = Double(random.int(in: -1000...1000)) / 1000
            let uy = Double(random.int(in: -1000...1000)) / 1000
            let dv = Double(random.int(in: -FixGenerator.speedNoiseMms...FixGenerator.speedNoiseMms)) / 1000
            let extra = jitter.ms > 0 ? random.int(in: 0...jitter.ms) : 0
            let lost = random.chance(dropPercent)
            let truth = trajectory.state(at: t)
            var sigma = noise
            var reported = accuracy
            for s in stretches where s.from <= truth.distance && truth.distance < s.to {
                sigma = s.noise
                reported = s.accuracy
            }
            var displacement = Vector(x: ux * sigma, y: uy * sigma)
            if correlation != nil {
                let wx = FixGenerator.normal(&second)
                let wy = FixGenerator.normal(&second)
                let k = started ? (1 - phi * phi).squareRoot() : 1
                error = Vector(
                    x: (started ? phi * error.x : 0) + k * sigma * wx, y: (started ? phi * error.y : 0) + k * sigma * wy
                )
                started = true
                displacement = error
            }
            if accuracySpread > 0 {
                reported *= 1 + Double(second.int(in: -1000...1000)) / 1000 * Double(accuracySpread) / 100
            }
            if jumpPercent > 0 {
                let jumped = second.chance(jumpPercent)
                let angle = 2 * Double.pi * FixGenerator.unit(&second)
                if jumped { displacement = displacement + Vector(x: cos(angle), y: sin(angle)) * jumpMeters }
            }
            var (point, direction) = route.location(at: truth.distance)
            while let jump = pending.first, jump.at <= t {
                pending.removeFirst()
                displacement =
                    displacement + direction * jump.along + Vector(x: direction.y, y: -direction.x) * jump.across
            }
            guard measuring.contains(t), !blind.contains(t) else { continue }
            let side = detour(t)
            if side != 0 {
                point = point + route.projection.plane(Vector(x: direction.y, y: -direction.x) * side, at: point)
            }
            var arrives = t + delay + SimTime(ms: extra)
            for window in late where window.window.contains(t) { arrives = arrives + window.delay }
            let speed = max(0, truth.speed + dv)
            var course: Double? = nil
            if speed >= 0.5 {
                let degrees = atan2(direction.x, direction.y) * 180 / .pi
                course = degrees < 0 ? degrees + 360 : degrees
            }
            let fix = Fix(
                index: index, taken: t, arrives: arrives,
                position: point + route.projection.plane(displacement, at: point), accuracy: reported,
                speed: speed, course: course, truth: point)
            index += 1
            if !lost { out.append(fix) }
        }
        return out
    }
}
