import SimClock

/// One matcher of a scenario's `expect` list (SPEC 6).
public struct Matcher: Sendable, Equatable {
    /// The event it matches, e.g. `guidance.started`.
    public var event: EventKind
    /// Fields that must be equal, sorted by name; each is one of `event`'s (`EventKind.fields`).
    public var fields: [(field: Field, value: FieldValue)]
    /// Fields tested beyond equality (a substring, a pattern, a range), sorted
    /// by name; each is one of `event`'s, and none is also in `fields`.
    public var tests: [(field: Field, test: FieldTest)] = []
    /// Where it must happen: anywhere, at an instant, or within a window (inclusive).
    public var when: When
    /// How many matching events it wants: exactly `count`, when there is
    /// one, else as many as `countRange` allows, else at least one.
    public var count: Int?
    /// `count: {"min": a, "max": b}`: between `min` and `max` matching
    /// events, inclusive (either bound may be left out). Not together with `count`.
    public var countRange: Bounds?
    /// `since`: the event happens at or after the first event this matcher
    /// finds (itself without `since`, `until`, `within` or a count).
    public var since: Matcher? {
        get { anchors.since?.matcher }
        set { anchors.since = newValue.map(Box.init) }
    }
    /// `within`, with `since`: the event happens no later than this long after `since`'s event.
    public var within: SimTime?
    /// `until`: the event happens at or before the first event this matcher finds.
    public var until: Matcher? {
        get { anchors.until?.matcher }
        set { anchors.until = newValue.map(Box.init) }
    }
    /// Its position in the file, for messages: `expect[3]`. Not part of equality.
    public var path: String
    /// The 1-based line and column of its `{` in the file; 0 when built in
    /// code. Not part of equality.
    public var line = 0, column = 0

    /// `since` and `until`, boxed: a matcher holds matchers.
    private var anchors = Anchors()

    private struct Anchors: Sendable {
        var since: Box?
        var until: Box?
    }

    /// A matcher held by another, immutable once made.
    private final class Box: Sendable {
        let matcher: Matcher
        init(_ matcher: Matcher) { self.matcher = matcher }
    }

    /// Where a matcher must find its event (SPEC 6): anywhere, at one instant, or in a window.
    public enum When: Sendable, Equatable {
        case anywhere
        case at(SimTime)
        case between(SimTime, SimTime)
    }

    /// A matcher of `event` with `fields` (each one `event` carries), `when` and `count`. Checked by
    /// `Scenario.validate()`, which `Simulation` and `Verdict` call: a field the event does not
    /// carry, a value of the wrong type or a window that ends before it starts is a `ScenarioProblem`.
    public init(
        event: EventKind, fields: [(field: Field, value: FieldValue)] = [], when: When = .anywhere, count: Int? = nil,
        path: String = "expect"
    ) {
        self.event = event
        self.fields = fields
        self.when = when
        self.count = count
        self.path = path
    }

    /// Whether two matchers match the same events: `path`, `line` and `column` are not compared.
    public static func == (a: Matcher, b: Matcher) -> Bool {
        a.event == b.event && a.when == b.when && a.count == b.count
            && a.fields.map(\.field) == b.fields.map(\.field) && a.fields.map(\.value) == b.fields.map(\.value)
            && a.tests.map(\.field) == b.tests.map(\.field) && a.tests.map(\.test) == b.tests.map(\.test)
            && a.countRange == b.countRange && a.within == b.within && a.since == b.since && a.until == b.until
    }
}

/// Inclusive bounds on an integer, either of which may be left out (SPEC 6:
/// `{"min": a, "max": b}`); `Scenario.validate()` wants at least one, and `min <= max`.
public struct Bounds: Sendable, Hashable, CustomStringConvertible {
    /// The least value allowed, if any.
    public var min: Int64?
    /// The greatest value allowed, if any.
    public var max: Int64?

    /// Bounds from `min` through `max`.
    public init(min: Int64? = nil, max: Int64? = nil) {
        self.min = min
        self.max = max
    }

    /// Whether `x` lies within the bounds.
    public func contains(_ x: Int64) -> Bool { (min.map { $0 <= x } ?? true) && (max.map { x <= $0 } ?? true) }

    /// `500...1000`, `≥ 500` or `≤ 1000`, for messages.
    public var description: String {
        switch (min, max) {
        case (let a?, let b?): return "\(a)...\(b)"
        case (let a?, nil): return "≥ \(a)"
        case (nil, let b?): return "≤ \(b)"
        case (nil, nil): return "any"
        }
    }
}

/// How a matcher tests a field beyond equality (SPEC 6, "Beyond equality").
public enum FieldTest: Sendable, Hashable, CustomStringConvertible {
    /// A string field that contains this text (compared by `Character`, as `==` compares strings).
    case contains(String)
    /// A string field in which this regular expression finds a match
    /// (anchored only by its own `^` and `$`); see `TextPattern`.
    case matches(String)
    /// An integer field within these bounds.
    case range(Bounds)

    /// `contains "then"`, `matches "^In \d+"`, `in 500...1000`, `≥ 500`, for messages.
    public var description: String {
        switch self {
        case .contains(let s): return "contains \(FieldValue.string(s))"
        case .matches(let r): return "matches \(FieldValue.string(r))"
        case .range(let b): return b.min != nil && b.max != nil ? "in \(b)" : b.description
        }
    }
}

/// A value of a timeline field. Comparison is strict by type: `true` is not `1`.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    case bool(Bool)

    /// The value as a matcher's JSON writes it: strings quoted, integers and booleans bare.
    public var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .int(let i): return String(i)
        case .bool(let b): return String(b)
        }
    }
}
