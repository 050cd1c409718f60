import SimClock

/// One matcher of a scenario's `expect` list (SPEC 6).
public struct Matcher: Sendable, Equatable {
    /// The event it matches, e.g. `guidance.started`.
    public var event: EventKind
    /// Fields that must be equal, sorted by name; each is one of `event`'s (`EventKind.fields`).
    public var fields: [(field: Field, value: FieldValue)]
    /// Where it must happen: anywhere, at an instant, or within a window (inclusive).
    public var when: When
    /// Exactly this many matching events, instead of at least one.
    public var count: Int?
    /// Its position in the file, for messages: `expect[3]`. Not part of equality.
    public var path: String
    /// The 1-based line and column of its `{` in the file; 0 when built in
    /// code. Not part of equality.
    public var line = 0, column = 0

    /// Where a matcher must find its event (SPEC 6): anywhere, at one instant, or in a window.
    public enum When: Sendable, Equatable {
        case anywhere
        case at(SimTime)
        case between(SimTime, SimTime)
    }

    /// A matcher of `event` with `fields` (each one `event` carries), `when` and `count`. Checked by
    /// `Scenario.validate()`, which `Simulation` and `Verdict` call: a field the event does not
    /// carry, a value of the wrong type or a window that ends before it starts is a `ScenarioProblem`.
    public init(event: EventKind, fields: [(field: Field, value: FieldValue)] = [], when: When = .anywhere, count: Int? = nil, path: String = "expect") {
        self.event = event; self.fields = fields; self.when = when; self.count = count; self.path = path
    }

    /// Whether two matchers match the same events: `path`, `line` and `column` are not compared.
    public static func == (a: Matcher, b: Matcher) -> Bool {
        a.event == b.event && a.when == b.when && a.count == b.count
            && a.fields.map(\.field) == b.fields.map(\.field) && a.fields.map(\.value) == b.fields.map(\.value)
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
