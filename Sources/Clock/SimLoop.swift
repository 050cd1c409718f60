/// Drives an `EventQueue` one instant at a time, like NIO's
/// `EmbeddedEventLoop`: `advance()` moves `now` to the next instant that has
/// events, `nextEvent()` hands them over in queue order (including any the
/// caller schedules at `now` meanwhile), and the caller finishes the instant
/// (the arbiter's `endInstant`) before advancing again. Time never moves backwards.
///
///     while let now = loop.advance() {
///         while let event = loop.nextEvent() { handle(event, at: now) }
///         endInstant(at: now)
///     }
public struct SimLoop<Event> {
    /// The events still to come.
    public var queue = EventQueue<Event>()
    @usableFromInline var current = SimTime.zero

    /// An empty loop at time zero.
    public init() {}

    /// The instant being handled, or the last one handled.
    @inlinable public var now: SimTime { current }

    /// Schedules `event` at `time` in `phase`; never earlier than `now`.
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime, phase: UInt8 = 0) {
        precondition(time >= current, "scheduled into the past: \(time) < \(current)")
        queue.schedule(event, at: time, phase: phase)
    }

    /// Moves to the next instant that has events and returns it, or nil when
    /// nothing is left. Call only once the current instant has no events left.
    @inlinable public mutating func advance() -> SimTime? {
        guard let next = queue.first()?.time else { return nil }
        current = next
        return next
    }

    /// The next event due at `now`, or nil when the instant has no more.
    @inlinable public mutating func nextEvent() -> Event? {
        guard let entry = queue.first(), entry.time == current else { return nil }
        return queue.popFirst()?.event
    }
}
