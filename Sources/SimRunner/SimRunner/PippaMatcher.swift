import Guidance
import Road
import SimClock

/// A matcher of Pippa's view at an instant: an `expect` item that names
/// `pippa` instead of an `event` (`{"pippa": "no", "at": 65, "fix": "f31"}`,
/// docs/scenario-format.md). At `at` (after the events at `at`, `PippaView`)
/// her answer is `answer`, and her last report's fields are as `fields` and
/// `tests` want: those of its `road.report.sent` (`fix`, `onRoute`,
/// `maneuver`, `distanceM`) and `ageMs`, its age at `at`.
public struct PippaMatcher: Sendable, Equatable {
    /// The fields a Pippa matcher may name besides `pippa` and `at`.
    package static let fields: [Field] = [.fix, .ageMs, .onRoute, .maneuver, .distanceM]

    /// The instant.
    public var at: SimTime
    /// Her answer at `at`.
    public var answer: PippaView.Answer
    /// Fields of her last report that must be equal, sorted by name; each one of `PippaMatcher.fields`.
    public var fields: [(field: Field, value: FieldValue)] = []
    /// Fields tested beyond equality (a range, a text test), sorted by name.
    public var tests: [(field: Field, test: FieldTest)] = []
    /// Its place in the scenario's `expect` list, among the event matchers (`Scenario.expect`).
    public var index: Int
    /// The 1-based line and column of its `{` in the file; 0 when built in code. Not part of equality.
    public var line = 0, column = 0

    /// A matcher of `answer` at `at`, item `index` of `expect`.
    public init(at: SimTime, answer: PippaView.Answer, index: Int) {
        self.at = at
        self.answer = answer
        self.index = index
    }

    /// Its position in the file, for messages: `expect[3]`.
    public var path: String { "expect[\(index)]" }

    /// Whether two matchers want the same: `index`, `line` and `column` are not compared.
    public static func == (a: PippaMatcher, b: PippaMatcher) -> Bool {
        a.at == b.at && a.answer == b.answer
            && a.fields.map(\.field) == b.fields.map(\.field) && a.fields.map(\.value) == b.fields.map(\.value)
            && a.tests.map(\.field) == b.tests.map(\.field) && a.tests.map(\.test) == b.tests.map(\.test)
    }

    /// A Pippa matcher that did not hold: what she knew at its instant.
    public struct Failure: Sendable {
        /// The matcher.
        public var matcher: PippaMatcher
        /// What Pippa knew at `matcher.at`.
        public var view: PippaView
        /// The timeline's last instant, when `matcher.at` lies after it (the drive was over).
        public var afterEnd: SimTime?
        /// Each field her report did not have as wanted, in the matcher's order.
        public var differences: [FieldDifference]
    }
}

extension Timeline {
    /// Checks every Pippa matcher; returns those that failed, in order. One
    /// whose `at` lies after the timeline's last event fails: the drive was over.
    ///
    /// - Complexity: O(n) for Pippa's reports, then O(log n) per matcher.
    package func failures(of matchers: [PippaMatcher]) -> [PippaMatcher.Failure] {
        guard !matchers.isEmpty else { return [] }
        let history = PippaView.History(self)
        let end = events.last?.t ?? .zero
        return matchers.compactMap { matcher in
            let view = history.view(at: matcher.at)
            let values = view.report.map { r in
                RoadEvent.What.reportSent(r.fix, ageMs: view.ageMs ?? 0, onRoute: r.onRoute, next: r.next)
            }
            func actual(_ field: Field) -> FieldValue? { values.flatMap { value(of: field, in: $0) } }
            var differences: [FieldDifference] = []
            for (field, wanted) in matcher.fields where actual(field) != wanted {
                differences.append(FieldDifference(field: field, expected: wanted, actual: actual(field)))
            }
            for (field, test) in matcher.tests where !passes(test, actual(field)) {
                differences.append(FieldDifference(field: field, expected: nil, actual: actual(field), test: test))
            }
            differences.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
            let afterEnd = matcher.at > end ? end : nil
            guard afterEnd != nil || view.answer != matcher.answer || !differences.isEmpty else { return nil }
            return PippaMatcher.Failure(matcher: matcher, view: view, afterEnd: afterEnd, differences: differences)
        }
    }
}

extension PippaMatcher {
    /// What it wants, in one line: `pippa "no" at 01:05.000 fix="f31" ageMs ≤ 5000`.
    package var what: String {
        var parts = fields.map { (name: $0.field.rawValue, text: "\($0.field.rawValue)=\($0.value)") }
        parts += tests.map { (name: $0.field.rawValue, text: "\($0.field.rawValue) \($0.test)") }
        parts.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return (["pippa \(FieldValue.string(answer.rawValue)) at \(at)"] + parts.map(\.text)).joined(separator: " ")
    }
}

extension PippaMatcher.Failure {
    /// `expect[2] (line 40, column 5): expected pippa "no" at 01:05.000; she answers yes, from f64's report 800 ms old;
    /// differs in fix: "f64", expected "f31"`; or, past the drive, `…; the drive ended at 00:58.300`.
    package var summary: String {
        let m = matcher
        let position = m.line > 0 ? " (line \(m.line), column \(m.column))" : ""
        var out = "\(m.path)\(position): expected \(m.what); "
        if let end = afterEnd { return out + "the drive ended at \(end)" }
        out += "she answers \(view.answer.rawValue)"
        if let r = view.report, let age = view.ageMs {
            out += ", from f\(r.fix.raw)'s report \(age) ms old"
        } else {
            out += ", with no report"
        }
        if !differences.isEmpty {
            out +=
                "; differs in "
                + differences.map { d in
                    "\(d.field.rawValue): \(d.actual.map(\.description) ?? "absent"), expected \(d.test.map(\.description) ?? d.expected.map(\.description) ?? "absent")"
                }.joined(separator: "; ")
        }
        return out
    }
}
