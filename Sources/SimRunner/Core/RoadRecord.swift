import Guidance
import SimClock

/// One road event of a plan, kept in a side table so `TimelineEvent` stays
/// small: a road entry of the timeline holds only this record's index.
/// Which fields mean something depends on `kind` (see `EventKind.fields`).
public struct RoadRecord: Sendable, Equatable {
    public var t: SimTime
    public var kind: EventKind
    /// The fix (index), or -1.
    public var fix: Int32 = -1
    /// The maneuver (index), or -1.
    public var maneuver: Int32 = -1
    /// The maneuver after it (index), or -1.
    public var after: Int32 = -1
    /// Why (a drop, a skip, an unannounced turn, a pause).
    public var reason: String? = nil
    /// `ageMs` or `etaMs`.
    public var ms: Int64 = 0
    /// `distanceM`, `offsetM` or `progressM`.
    public var meters: Int64 = 0
    /// `afterDistanceM`.
    public var meters2: Int64 = 0
    /// `trusted` or `onRoute`.
    public var flag = false
    public var stage: Stage? = nil

    public init(t: SimTime, kind: EventKind) { self.t = t; self.kind = kind }
}
