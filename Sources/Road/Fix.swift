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
    /// The receiver's course, degrees clockwise from north (0..<360), if it
    /// reports one (a receiver standing still reports none).
    public var course: Double?
    /// Where the car really was when the fix was taken, when that is known
    /// (generated fixes; recorded ones that give `true`): for the checks, never for matching.
    public var truth: Vector?

    /// A fix with its number, times, position (local plane, meters) and what the receiver reports.
    public init(
        index: Int, taken: SimTime, arrives: SimTime, position: Vector, accuracy: Double, speed: Double? = nil,
        course: Double? = nil, truth: Vector? = nil
    ) {
        self.index = index
        self.taken = taken
        self.arrives = arrives
        self.position = position
        self.accuracy = accuracy
        self.speed = speed
        self.course = course
        self.truth = truth
    }
}

/// A fix, by its number in the receiver's order (`f3` in the timeline).
public typealias FixIndex = ItemIndex<Fix>
