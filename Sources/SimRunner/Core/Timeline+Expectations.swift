import SimClock

/// A matcher the timeline did not meet.
public struct ExpectationFailure: Sendable {
    /// The matcher that failed.
    public var matcher: Matcher
    /// How many events matched.
    public var found: Int
    /// The events that came closest, best first.
    public var nearest: [TimelineEvent]
    /// How the nearest event differs from the matcher: each field whose
    /// value differs, in the matcher's order. Empty when it matches (a
    /// `count` that was not met) or when there is no event of the kind.
    public var differences: [FieldDifference]
    /// The nearest event's time, when it lies outside the matcher's window.
    public var timeOutside: SimTime?
}

/// One field of a matcher that an event did not have.
public struct FieldDifference: Sendable, Equatable {
    /// The field, one the matcher names.
    public var field: Field
    /// What the matcher wants.
    public var expected: FieldValue
    /// What the event carries; nil when it does not carry the field.
    public var actual: FieldValue?
}

extension Timeline {
    /// Checks every matcher (SPEC 6); returns those that failed, in order.
    ///
    /// - Complexity: O(n) to index the timeline once by kind (and by kind,
    ///   field and value, for the fields the matchers name), then per
    ///   matcher O(log n + k), k the events of its kind with its rarest
    ///   field's value within its window; the nearest events of a failed
    ///   one are found by binary search too.
    public func failures(of matchers: [Matcher]) -> [ExpectationFailure] {
        guard !matchers.isEmpty else { return [] }
        let index = MatcherIndex(self, for: matchers)
        return matchers.compactMap { matcher in
            let found = index.count(matcher)
            let met = matcher.count.map { found == $0 } ?? (found > 0)
            if met { return nil }
            let nearest = index.nearest(to: matcher).map { events[$0] }
            var failure = ExpectationFailure(matcher: matcher, found: found, nearest: nearest, differences: [], timeOutside: nil)
            if let best = nearest.first, best.kind == matcher.event {
                failure.differences = matcher.fields.compactMap { field, value in
                    let actual = self.value(of: field, in: best)
                    return actual == value ? nil : FieldDifference(field: field, expected: value, actual: actual)
                }
                if !matcher.when.contains(best.t) { failure.timeOutside = best.t }
            }
            return failure
        }
    }

    /// Whether `event` matches the matcher: name, time and every field.
    public func matches(_ matcher: Matcher, _ event: TimelineEvent) -> Bool {
        event.kind == matcher.event && matcher.when.contains(event.t)
            && matcher.fields.allSatisfy { value(of: $0.field, in: event) == $0.value }
    }
}

/// The timeline's events by kind (positions in time order) and, for the
/// (kind, field) pairs the matchers name, by value: built once for a list
/// of matchers, so each is checked by binary search over its candidates.
struct MatcherIndex {
    let timeline: Timeline
    /// The positions of each kind's events, by `EventKind.ordinal`, in time order.
    let byKind: [[Int]]
    /// For a kind (its ordinal) and a field: the positions of its events by the field's value.
    var postings: [Pair: [FieldValue: [Int]]] = [:]

    struct Pair: Hashable {
        let kind: Int
        let field: Field
    }

    /// How many events on each side of a window the nearest events are chosen from, per candidate list.
    static let reach = 4

    init(_ timeline: Timeline, for matchers: [Matcher]) {
        self.timeline = timeline
        var byKind = Array(repeating: [Int](), count: EventKind.allCases.count)
        for (i, event) in timeline.events.enumerated() { byKind[event.kind.ordinal].append(i) }
        self.byKind = byKind
        for matcher in matchers {
            for (field, _) in matcher.fields {
                let pair = Pair(kind: matcher.event.ordinal, field: field)
                guard postings[pair] == nil else { continue }
                var lists: [FieldValue: [Int]] = [:]
                for i in byKind[pair.kind] {
                    if let value = timeline.value(of: field, in: timeline.events[i]) { lists[value, default: []].append(i) }
                }
                postings[pair] = lists
            }
        }
    }

    /// The positions a matching event must be among: the shortest posting
    /// list of the matcher's fields, or every event of its kind.
    func candidates(_ matcher: Matcher) -> [Int] {
        var best = byKind[matcher.event.ordinal]
        for (field, value) in matcher.fields {
            let list = postings[Pair(kind: matcher.event.ordinal, field: field)]?[value] ?? []
            if list.count < best.count { best = list }
        }
        return best
    }

    /// The indices into `list` (positions in time order) whose events lie in the window.
    func window<C: RandomAccessCollection>(_ list: C, _ when: Matcher.When) -> Range<Int> where C.Element == Int, C.Index == Int {
        let events = timeline.events
        func first(_ before: (SimTime) -> Bool) -> Int {
            var lo = list.startIndex, hi = list.endIndex
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if before(events[list[mid]].t) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        switch when {
        case .anywhere: return list.startIndex..<list.endIndex
        case .at(let t):
            let lo = first { $0 < t }
            return lo..<first { $0 <= t }
        case .between(let a, let b):
            let lo = first { $0 < a }
            return lo..<max(lo, first { $0 <= b })
        }
    }

    /// How many events match.
    func count(_ matcher: Matcher) -> Int {
        let list = candidates(matcher)
        let events = timeline.events
        var found = 0
        for i in list[window(list, matcher.when)] where matcher.fields.allSatisfy({ timeline.value(of: $0.field, in: events[i]) == $0.value }) {
            found += 1
        }
        return found
    }

    /// Up to three events that came close: of the same kind, fewest fields
    /// wrong, then nearest in time, then first; other events by time if
    /// none is of that kind. Chosen among the events of the kind nearest the
    /// window and those nearest it that share one of the matcher's values.
    func nearest(to matcher: Matcher) -> [Int] {
        let events = timeline.events
        var pool: [Int] = []
        func around<C: RandomAccessCollection>(_ list: C) where C.Element == Int, C.Index == Int {
            let r = window(list, matcher.when)
            let k = MatcherIndex.reach
            pool += list[max(list.startIndex, r.lowerBound - k)..<r.lowerBound]
            pool += list[r.lowerBound..<min(r.upperBound, r.lowerBound + k)]
            pool += list[r.upperBound..<min(list.endIndex, r.upperBound + k)]
        }
        let sameKind = byKind[matcher.event.ordinal]
        if sameKind.isEmpty {
            around(events.indices)
        } else {
            around(sameKind)
            for (field, value) in matcher.fields {
                if let list = postings[Pair(kind: matcher.event.ordinal, field: field)]?[value] { around(list) }
            }
        }
        func score(_ i: Int) -> (Int, Int64, Int64, Int) {
            let event = events[i]
            let wrong = matcher.fields.count(where: { timeline.value(of: $0.field, in: event) != $0.value })
            return (wrong, matcher.when.distance(to: event.t), event.t.ms, i)
        }
        var seen = Set<Int>()
        let unique = pool.filter { seen.insert($0).inserted }
        return unique.map { (score($0), $0) }.sorted { $0.0 < $1.0 }.prefix(3).map(\.1)
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
