import SimClock

/// One position fix: where the receiver thought it was, when it measured,
/// and when the app got it.
public struct Fix: Sendable, Equatable {
    /// Its number, in the order the receiver took them.
    public var index: Int
    /// When it was measured.
    public var taken: SimTime
    /// When it reached the app (never before `taken`).
    public var arrives: SimTime
    /// The measured position, in the route's local plane.
    public var position: Vector
    /// The receiver's horizontal accuracy estimate, in meters.
    public var accuracy: Double
    /// The receiver's speed, in m/s, if it reports one.
    public var speed: Double?

    public init(index: Int, taken: SimTime, arrives: SimTime, position: Vector, accuracy: Double, speed: Double? = nil) {
        self.index = index; self.taken = taken; self.arrives = arrives; self.position = position
        self.accuracy = accuracy; self.speed = speed
    }
}
