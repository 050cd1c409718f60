/// Drives an `EventQueue` one instant at a time, like NIO's
/// `EmbeddedEventLoop`: it sets `now`, hands over every event due at that
/// instant in queue order, then lets the caller finish the instant (settle and
/// observe). Time never moves backwards.
public struct SimLoop<Event> {
    /// The events still to come.
    public var queue = EventQueue<Event>()
    @usableFromInline var current = SimTime.zero
    /// The instant being handled, or the last one handled.
    @inlinable public var now: SimTime { current }

    /// An empty loop at time zero.
    public init() {}

    /// Schedules `event` at `time`; never earlier than `now`.
    @inlinable public mutating func schedule(_ event: Event, at time: SimTime, phase: UInt8 = 0) {
        precondition(time >= now, "scheduled into the past: \(time) < \(now)")
        queue.schedule(event, at: time, phase: phase)
    }

    /// Runs until the queue is empty or `until` is passed. `handle` gets each
    /// event of an instant in order (and may schedule more, also at `now`);
    /// `endOfInstant` runs once after the last event of each instant.
    /// Returns the time of the last instant handled.
    @discardableResult @inlinable
    public mutating func run(
        until limit: SimTime? = nil,
        handle: (inout SimLoop<Event>, Event) -> Void,
        endOfInstant: (inout SimLoop<Event>) -> Void
    ) -> SimTime {
        while let next = queue.first?.time {
            if let limit, next > limit { break }
            current = next
            while let entry = queue.first, entry.time == next {
                _ = queue.popFirst()
                handle(&self, entry.event)
            }
            endOfInstant(&self)
        }
        return now
    }
}
