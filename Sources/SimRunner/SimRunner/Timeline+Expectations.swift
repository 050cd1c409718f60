import SimClock

/// A matcher the timeline did not meet.
public struct ExpectationFailure: Sendable {
    /// The matcher that failed.
    public var matcher: Matcher
    /// How many events matched (0 when `since` or `until` found nothing).
    public var found: Int
    /// The events that came closest, best first.
    public var nearest: [TimelineEvent]
    /// How the nearest event differs from the matcher: each field whose
    /// value differs, in the matcher's order. Empty when it matches (a
    /// `count` that was not met) or when there is no event of the kind.
    public var differences: [FieldDifference]
    /// The nearest event's time, when it lies outside the matcher's window
    /// (its `at` or `between`, narrowed by `since`, `within` and `until`).
    public var timeOutside: SimTime?
    /// What `since` and `until` found, in that order: only those the matcher has.
    public var anchors: [AnchorOutcome] = []
}

/// What a matcher's `since` or `until` found: the event the matcher was
/// measured from, or, when it found nothing, its own failure.
public struct AnchorOutcome: Sendable {
    /// Which of the two.
    public var relation: Relation
    /// The event, or how nothing was found.
    public var outcome: Outcome

    /// `since` or `until`.
    public enum Relation: String, Sendable, Equatable {
        case since, until
    }

    /// The first event the inner matcher found, or its failure (found none).
    public indirect enum Outcome: Sendable {
        case found(TimelineEvent)
        case foundNothing(ExpectationFailure)
    }

    /// The event found, if any.
    public var event: TimelineEvent? {
        if case .found(let event) = outcome { return event }
        return nil
    }
}

/// One field of a matcher that an event did not have.
public struct FieldDifference: Sendable, Equatable {
    /// The field, one the matcher names.
    public var field: Field
    /// What the matcher wants, when it wants the field equal; nil for a `test`.
    public var expected: FieldValue?
    /// What the event carries; nil when it does not carry the field.
    public var actual: FieldValue?
    /// The test the value failed, when the matcher tests the field beyond equality.
    public var test: FieldTest? = nil
}

extension Timeline {
    /// Checks every matcher (SPEC 6); returns those that failed, in order.
    ///
    /// - Complexity: O(n) to index the timeline once by kind (and by kind,
    ///   field and value, for the fields the matchers and their `since` and
    ///   `until` name), then per matcher O(log n + k), k the events of its
    ///   kind with its rarest field's value within its window (and so for
    ///   each of its `since` and `until`); the nearest events of a failed
    ///   one are found by binary search too. A `matches` pattern is run
    ///   once per distinct text.
    package func failures(of matchers: [Matcher]) -> [ExpectationFailure] {
        guard !matchers.isEmpty else { return [] }
        let index = MatcherIndex(self, for: matchers)
        return matchers.compactMap { matcher in
            let resolved = index.resolve(matcher)
            let found = resolved.complete ? index.count(matcher, in: resolved.span) : 0
            let met = resolved.complete && matcher.isMet(by: found)
            if met { return nil }
            var failure = index.failure(of: matcher, in: resolved.span, found: found)
            for (relation, anchor) in [(AnchorOutcome.Relation.since, matcher.since), (.until, matcher.until)] {
                guard let anchor else { continue }
                let first = relation == .since ? resolved.since : resolved.until
                let outcome: AnchorOutcome.Outcome =
                    if let first { .found(events[first]) } else {
                        .foundNothing(index.failure(of: anchor, in: index.span(anchor.when), found: 0))
                    }
                failure.anchors.append(AnchorOutcome(relation: relation, outcome: outcome))
            }
            return failure
        }
    }

    /// Whether `event` matches the matcher: name, time (`since` and `until`
    /// included) and every field.
    ///
    /// - Complexity: O(1) for a matcher without `since` or `until`; O(n)
    ///   with one, which scans for its first event (`failures(of:)` uses an index).
    package func matches(_ matcher: Matcher, _ event: TimelineEvent) -> Bool {
        guard event.kind == matcher.event, matcher.when.contains(event.t), fieldsMatch(matcher, event) else {
            return false
        }
        if let since = matcher.since {
            guard let anchor = events.first(where: { matches(since, $0) }), anchor.t <= event.t else { return false }
            if let within = matcher.within, event.t > anchor.t + within { return false }
        }
        if let until = matcher.until {
            guard let anchor = events.first(where: { matches(until, $0) }), event.t <= anchor.t else { return false }
        }
        return true
    }

    /// Whether `event` carries every field as the matcher wants it (equal, or passing its test).
    func fieldsMatch(_ matcher: Matcher, _ event: TimelineEvent, patterns: PatternMemo? = nil) -> Bool {
        matcher.fields.allSatisfy { value(of: $0.field, in: event) == $0.value }
            && matcher.tests.allSatisfy { passes($0.test, value(of: $0.field, in: event), patterns: patterns) }
    }

    /// Whether a field's value passes a test; a value of another type, or none, never does.
    func passes(_ test: FieldTest, _ value: FieldValue?, patterns: PatternMemo? = nil) -> Bool {
        switch (test, value) {
        case (.contains(let needle), .string(let text)?): return TextSearch.contains(needle, in: text)
        case (.matches(let pattern), .string(let text)?):
            if let patterns { return patterns.matches(pattern, text) }
            guard case .success(let compiled) = TextPattern.compile(pattern) else { return false }
            return compiled.matches(text)
        case (.range(let bounds), .int(let x)?): return bounds.contains(x)
        default: return false
        }
    }
}

extension Matcher {
    /// Whether `found` matching events satisfy the matcher's count: exactly
    /// `count`, within `countRange`, or at least one.
    func isMet(by found: Int) -> Bool {
        if let count { return found == count }
        if let range = countRange { return range.contains(Int64(found)) }
        return found > 0
    }
}

/// A `contains` test (SPEC 6): whether `text` contains `needle`, compared by
/// `Character` (as strings compare). Knuth–Morris–Pratt, so O(n + m) whatever the text.
enum TextSearch {
    static func contains(_ needle: String, in text: String) -> Bool {
        let p = Array(needle)
        let t = Array(text)
        guard !p.isEmpty else { return true }
        guard p.count <= t.count else { return false }
        var fail = [Int](repeating: 0, count: p.count)
        var k = 0
        for i in 1..<max(1, p.count) {
            while k > 0 && p[i] != p[k] { k = fail[k - 1] }
            if p[i] == p[k] { k += 1 }
            fail[i] = k
        }
        k = 0
        for c in t {
            while k > 0 && c != p[k] { k = fail[k - 1] }
            if c == p[k] { k += 1 }
            if k == p.count { return true }
        }
        return false
    }
}

/// Each `matches` pattern compiled once and each distinct text tested once
/// per pattern, for one check of a timeline.
final class PatternMemo {
    private var compiled: [String: TextPattern?] = [:]
    private var results: [String: [String: Bool]] = [:]

    /// Whether `pattern` finds a match in `text`; a pattern that does not compile matches nothing.
    func matches(_ pattern: String, _ text: String) -> Bool {
        if let known = results[pattern]?[text] { return known }
        let regex: TextPattern?
        if let cached = compiled[pattern] {
            regex = cached
        } else {
            if case .success(let r) = TextPattern.compile(pattern) { regex = r } else { regex = nil }
            compiled[pattern] = regex
        }
        let result = regex?.matches(text) ?? false
        results[pattern, default: [:]][text] = result
        return result
    }
}

/// A closed span of time in ms, `lo...hi`; empty when `lo > hi`.
struct Span {
    var lo: Int64
    var hi: Int64

    static let all = Span(lo: .min, hi: .max)

    func contains(_ t: SimTime) -> Bool { lo <= t.ms && t.ms <= hi }

    /// How far `t` lies outside, in ms.
    func distance(to t: SimTime) -> Int64 { t.ms < lo ? lo - t.ms : (t.ms > hi ? t.ms - hi : 0) }
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
    /// The matchers' `matches` patterns, each run once per distinct text.
    let patterns = PatternMemo()

    struct Pair: Hashable {
        let kind: Int
        let field: Field
    }

    /// What a matcher's `since` and `until` found (positions of their
    /// first events) and the span its events must lie in: its `at` or
    /// `between`, narrowed by them.
    struct Resolved {
        var span: Span
        var since: Int?
        var until: Int?
        /// Whether every `since` and `until` the matcher has found its event.
        var complete: Bool
    }

    /// How many events on each side of a window the nearest events are chosen from, per candidate list.
    static let reach = 4

    init(_ timeline: Timeline, for matchers: [Matcher]) {
        self.timeline = timeline
        var byKind = Array(repeating: [Int](), count: EventKind.allCases.count)
        for (i, event) in timeline.events.enumerated() { byKind[event.kind.ordinal].append(i) }
        self.byKind = byKind
        for matcher in matchers {
            for m in [matcher] + [matcher.since, matcher.until].compactMap({ $0 }) {
                for (field, _) in m.fields {
                    let pair = Pair(kind: m.event.ordinal, field: field)
                    guard postings[pair] == nil else { continue }
                    var lists: [FieldValue: [Int]] = [:]
                    for i in byKind[pair.kind] {
                        if let value = timeline.value(of: field, in: timeline.events[i]) {
                            lists[value, default: []].append(i)
                        }
                    }
                    postings[pair] = lists
                }
            }
        }
    }

    /// The positions a matching event must be among: the shortest posting
    /// list of the matcher's equal fields, or every event of its kind.
    func candidates(_ matcher: Matcher) -> [Int] {
        var best = byKind[matcher.event.ordinal]
        for (field, value) in matcher.fields {
            let list = postings[Pair(kind: matcher.event.ordinal, field: field)]?[value] ?? []
            if list.count < best.count { best = list }
        }
        return best
    }

    /// The span of a matcher's `at` or `between` alone.
    func span(_ when: Matcher.When) -> Span {
        switch when {
        case .anywhere: return .all
        case .at(let t): return Span(lo: t.ms, hi: t.ms)
        case .between(let a, let b): return Span(lo: a.ms, hi: b.ms)
        }
    }

    /// The first event `anchor` finds (its position), if any.
    ///
    /// - Complexity: O(log n + k), k its candidates within its window up to the first that matches.
    func first(_ anchor: Matcher) -> Int? {
        let list = candidates(anchor)
        let events = timeline.events
        return list[window(list, span(anchor.when))].first {
            timeline.fieldsMatch(anchor, events[$0], patterns: patterns)
        }
    }

    /// The matcher's `since` and `until` found, and its span narrowed by them:
    /// at or after `since`'s event (and, with `within`, no later than that
    /// plus `within`), at or before `until`'s; both constraints and `at` or `between` apply.
    func resolve(_ matcher: Matcher) -> Resolved {
        var resolved = Resolved(span: span(matcher.when), since: nil, until: nil, complete: true)
        let events = timeline.events
        if let since = matcher.since {
            if let i = first(since) {
                resolved.since = i
                let t = events[i].t.ms
                resolved.span.lo = max(resolved.span.lo, t)
                if let within = matcher.within { resolved.span.hi = min(resolved.span.hi, t + within.ms) }
            } else {
                resolved.complete = false
            }
        }
        if let until = matcher.until {
            if let i = first(until) {
                resolved.until = i
                resolved.span.hi = min(resolved.span.hi, events[i].t.ms)
            } else {
                resolved.complete = false
            }
        }
        return resolved
    }

    /// The indices into `list` (positions in time order) whose events lie in the span.
    func window<C: RandomAccessCollection>(_ list: C, _ span: Span) -> Range<Int>
    where C.Element == Int, C.Index == Int {
        let events = timeline.events
        func first(_ before: (Int64) -> Bool) -> Int {
            var lo = list.startIndex
            var hi = list.endIndex
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if before(events[list[mid]].t.ms) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        let lo = first { $0 < span.lo }
        return lo..<max(lo, first { $0 <= span.hi })
    }

    /// How many events match the matcher's kind and fields within `span`.
    func count(_ matcher: Matcher, in span: Span) -> Int {
        let list = candidates(matcher)
        let events = timeline.events
        var found = 0
        for i in list[window(list, span)] where timeline.fieldsMatch(matcher, events[i], patterns: patterns) {
            found += 1
        }
        return found
    }

    /// How many events match, `since` and `until` included (0 when either finds nothing).
    func count(_ matcher: Matcher) -> Int {
        let resolved = resolve(matcher)
        return resolved.complete ? count(matcher, in: resolved.span) : 0
    }

    /// The failure of `matcher` with `found` events in `span`: its nearest
    /// events, and how the best of them differs.
    func failure(of matcher: Matcher, in span: Span, found: Int) -> ExpectationFailure {
        let events = timeline.events
        let nearest = self.nearest(to: matcher, in: span).map { events[$0] }
        var failure = ExpectationFailure(
            matcher: matcher, found: found, nearest: nearest, differences: [], timeOutside: nil)
        if let best = nearest.first, best.kind == matcher.event {
            var differences: [FieldDifference] = []
            for (field, value) in matcher.fields {
                let actual = timeline.value(of: field, in: best)
                if actual != value {
                    differences.append(FieldDifference(field: field, expected: value, actual: actual))
                }
            }
            for (field, test) in matcher.tests {
                let actual = timeline.value(of: field, in: best)
                if !timeline.passes(test, actual, patterns: patterns) {
                    differences.append(FieldDifference(field: field, expected: nil, actual: actual, test: test))
                }
            }
            // Tested fields among the equal ones, by name, as the decoder sorts both.
            if !matcher.tests.isEmpty {
                differences.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
            }
            failure.differences = differences
            if !span.contains(best.t) { failure.timeOutside = best.t }
        }
        return failure
    }

    /// Up to three events that came close: of the same kind, fewest fields
    /// wrong, then nearest in time, then first; other events by time if
    /// none is of that kind. Chosen among the events of the kind nearest the
    /// span and those nearest it that share one of the matcher's values.
    func nearest(to matcher: Matcher, in span: Span) -> [Int] {
        let events = timeline.events
        var pool: [Int] = []
        func around<C: RandomAccessCollection>(_ list: C) where C.Element == Int, C.Index == Int {
            let r = window(list, span)
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
            let wrong =
                matcher.fields.count(where: { timeline.value(of: $0.field, in: event) != $0.value })
                + matcher.tests.count(where: {
                    !timeline.passes($0.test, timeline.value(of: $0.field, in: event), patterns: patterns)
                })
            return (wrong, span.distance(to: event.t), event.t.ms, i)
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
}
