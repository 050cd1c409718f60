import SimClock

/// An expectation the timeline did not meet.
public struct ExpectationFailure: Sendable {
    public var expectation: Expectation
    /// How many events matched.
    public var found: Int
    /// The events that came closest, best first.
    public var nearest: [TimelineEvent]
}

extension Timeline {
    /// Checks every expectation (SPEC 6); returns those that failed.
    public func failures(of expectations: [Expectation]) -> [ExpectationFailure] {
        expectations.compactMap { expectation in
            let found = events.reduce(0) { $0 + (matches(expectation, $1) ? 1 : 0) }
            let met = expectation.count.map { found == $0 } ?? (found > 0)
            return met ? nil : ExpectationFailure(expectation: expectation, found: found, nearest: nearest(to: expectation))
        }
    }

    /// Whether `event` matches the expectation: name, time and every field.
    public func matches(_ expectation: Expectation, _ event: TimelineEvent) -> Bool {
        event.kind.rawValue == expectation.event && expectation.when.contains(event.t)
            && expectation.fields.allSatisfy { value(of: $0.name, in: event) == $0.value }
    }

    /// Up to three events that came close: of the same kind, fewest fields
    /// wrong, then nearest in time; other events by time if none is of that kind.
    func nearest(to expectation: Expectation) -> [TimelineEvent] {
        let target = expectation.when
        let sameKind = events.filter { $0.kind.rawValue == expectation.event }
        let pool = sameKind.isEmpty ? events : sameKind
        func score(_ event: TimelineEvent) -> (Int, Int64, Int64) {
            let wrong = expectation.fields.filter { value(of: $0.name, in: event) != $0.value }.count
            return (wrong, target.distance(to: event.t), event.t.ms)
        }
        return pool.map { (score($0), $0) }.sorted { $0.0 < $1.0 }.prefix(3).map(\.1)
    }
}

extension Expectation.When {
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
