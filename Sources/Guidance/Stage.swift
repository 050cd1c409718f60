/// The stages in which a maneuver is announced, farthest first. Raw values
/// are the timeline's words.
public enum Stage: String, Sendable, Equatable, CaseIterable, Comparable {
    case far
    case near
    case now

    /// Its bit in a maneuver's set of stages done.
    var bit: UInt8 { 1 << UInt8(Stage.allCases.firstIndex(of: self)!) }

    /// Whether `a` is announced before `b`: far, then near, then now.
    public static func < (a: Stage, b: Stage) -> Bool {
        Stage.allCases.firstIndex(of: a)! < Stage.allCases.firstIndex(of: b)!
    }
}

/// How far ahead of its point a stage's line must have been heard to its
/// end: a time at the current speed that grows with the speed (a driver at
/// 120 km/h needs more time to change lanes and brake than one at 30), but
/// never less than a distance.
public struct StageLead: Sendable, Equatable {
    /// Seconds of driving at the current speed, at a standstill.
    public var seconds: Double
    /// Seconds added per m/s of speed: the lead time at `v` m/s is `seconds + growth × v`.
    public var growth: Double
    /// The least lead distance, meters.
    public var minimum: Double

    /// A lead of `seconds + growth × v` seconds at `v` m/s, but at least `minimum` meters.
    public init(seconds: Double, growth: Double = 0, minimum: Double) {
        self.seconds = seconds
        self.growth = growth
        self.minimum = minimum
    }

    /// The lead time at `speed` m/s, seconds.
    @inlinable public func time(at speed: Double) -> Double { seconds + growth * speed }

    /// The lead distance at `speed` m/s.
    @inlinable public func distance(at speed: Double) -> Double { max(minimum, speed * time(at: speed)) }
}
