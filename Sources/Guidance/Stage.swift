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

/// How far ahead of its point a stage's line must have finished: a time at
/// the current speed, but never less than a distance.
public struct StageLead: Sendable, Equatable {
    /// Seconds of driving at the current speed.
    public var seconds: Double
    /// The least lead distance, meters.
    public var minimum: Double

    /// A lead of `seconds` of driving (0...600) but never under `minimum` meters (0...100,000).
    public init(seconds: Double, minimum: Double) { self.seconds = seconds; self.minimum = minimum }

    /// The lead distance at `speed` m/s.
    @inlinable public func distance(at speed: Double) -> Double { max(minimum, speed * seconds) }
}
