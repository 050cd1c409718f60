/// A point in simulated time, or a span of it: whole milliseconds since the
/// drive began. There is no floating point anywhere in the clock.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the start of the drive.
    public var ms: Int64

    /// Creates a time from whole milliseconds.
    @inlinable public init(ms: Int64) { self.ms = ms }

    /// The start of the drive.
    public static let zero = SimTime(ms: 0)

    /// Whether `a` is earlier than `b`.
    @inlinable public static func < (a: SimTime, b: SimTime) -> Bool { a.ms < b.ms }
    /// The sum in milliseconds; traps on `Int64` overflow, which scenario times (at most 24 h) never reach.
    @inlinable public static func + (a: SimTime, b: SimTime) -> SimTime { SimTime(ms: a.ms + b.ms) }
    /// The difference in milliseconds (negative when `b` is later); traps on `Int64` overflow, which scenario times never reach.
    @inlinable public static func - (a: SimTime, b: SimTime) -> SimTime { SimTime(ms: a.ms - b.ms) }

    /// `mm:ss.mmm`, or `h:mm:ss.mmm` from the first hour on.
    public var description: String {
        let total = ms < 0 ? -ms : ms
        let millis = total % 1000
        let seconds = (total / 1000) % 60
        let minutes = (total / 60_000) % 60
        let hours = total / 3_600_000
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let body = "\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
        return (ms < 0 ? "-" : "") + (hours > 0 ? "\(hours):\(body)" : body)
    }
}
