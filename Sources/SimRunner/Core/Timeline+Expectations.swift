import SimClock

/// An matcher the timeline did not meet.
public struct ExpectationFailure: Sendable {
    public var matcher: Matcher
    /// How many events matched.
    public var found: Int
    /// The events that came closest, best first.
    public var nearest: [TimelineEvent]
}

extension Timeline {
    /// Checks every matcher (SPEC 6); returns those that failed.
    public func failures(of matchers: [Matcher]) -> [ExpectationFailure] {
        matchers.compactMap { matcher in
            let found = events.reduce(0) { $0 + (matches(matcher, $1) ? 1 : 0) }
            let met = matcher.count.map { found == $0 } ?? (found > 0)
            return met ? nil : ExpectationFailure(matcher: matcher, found: found, nearest: nearest(to: matcher))
        }
    }

    /// Whether `event` matches the matcher: name, time and every field.
    public func matches(_ matcher: Matcher, _ event: TimelineEvent) -> Bool {
        event.kind == matcher.event && matcher.when.contains(event.t)
            && matcher.fields.allSatisfy { value(of: $0.field, in: event) == $0.value }
    }

    /// Up to three events that came close: of the same kind, fewest fields
    /// wrong, then nearest in time; other events by time if none is of that kind.
    func nearest(to matcher: Matcher) -> [TimelineEvent] {
        let target = matcher.when
        let sameKind = events.filter { $0.kind == matcher.event }
        let pool = sameKind.isEmpty ? events : sameKind
        func score(_ event: TimelineEvent) -> (Int, Int64, Int64) {
            let wrong = matcher.fields.filter { value(of: $0.field, in: event) != $0.value }.count
            return (wrong, target.distance(to: event.t), event.t.ms)
        }
        return pool.map { (score($0), $0) }.sorted { $0.0 < $1.0 }.prefix(3).map(\.1)
    }
}

extension Matcher.When {
    /// Whether an event at `t` is within this window.
    func contains(_ t: SimTime) -> Bool {
        switch self {
        case .anywhere: return true
        case .at(let at): return t == at
        case .between(let a, let b): return a <= t && t <= b
        }
    }

    /// How far `t` lies outside the window, in ms.
    func distance(to t: SimTime) -> Int64 {
        switch self {
        case .anywhere: return 0
        case .at(let at): return abs(t.ms - at.ms)
        case .between(let a, let b): return t < a ? a.ms - t.ms : (t > b ? t.ms - b.ms : 0)
        }
    }
}
