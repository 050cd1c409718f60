import Guidance
import Road
import SimClock

/// What Pippa knows at an instant (issue 48): the last report her location
/// layer got, how old it is, and her answer to "am I on the right road?".
///
/// **At `t`** means after every event at `t`: a report delivered at `t` is
/// known at `t` (as a matcher's `at` finds the events at `t`); of reports
/// delivered in one millisecond the last in the timeline counts. A report's
/// **age** at `t` is `t` minus the instant its fix was taken (its
/// `road.report.sent`'s `t` − `ageMs`). She keeps a report for `keptFor`
/// (120 s): exactly 120 s old it still answers, 1 ms older it does not.
public struct PippaView: Sendable, Equatable {
    /// How long Pippa keeps a report: older than this, she does not know.
    package static let keptFor = SimTime(ms: 120_000)

    /// Her last report, if she got one.
    public var report: Report?
    /// Its age at the instant, in ms; nil without a report.
    public var ageMs: Int64?
    /// Her answer to "am I on the right road?".
    public var answer: Answer

    /// Her answer. Raw values are the words of the summary, the lanes and matchers.
    public enum Answer: String, Sendable, Equatable, CaseIterable {
        /// Her last report, `keptFor` old or younger, says the car is on the route.
        case yes
        /// It says the car is off the route.
        case no
        /// No report yet, or the last is older than `keptFor`.
        case notKnown = "not-known"
    }

    /// One report delivered to Pippa (`road.report.delivered`), with what its `road.report.sent` said.
    public struct Report: Sendable, Equatable {
        /// The fix it reports.
        public var fix: FixIndex
        /// When that fix was taken.
        public var taken: SimTime
        /// When it was delivered.
        public var delivered: SimTime
        /// Whether it says the car is on the route.
        public var onRoute: Bool
        /// The next maneuver and its distance, when it carries them.
        public var next: RoadEvent.Ahead?
        /// The index of its `road.report.delivered` in the timeline.
        public var event: Int
    }

    /// What Pippa knows at `t` with `report` her last (delivered at or before `t`).
    package init(at t: SimTime, last report: Report?) {
        self.report = report
        ageMs = report.map { (t - $0.taken).ms }
        answer =
            switch (report, ageMs) {
            case (let r?, let age?) where age <= PippaView.keptFor.ms: r.onRoute ? .yes : .no
            default: .notKnown
            }
    }

    /// Pippa's view over a whole timeline: her reports in delivery order,
    /// so that what she knows at any instant is a binary search away.
    package struct History: Sendable {
        /// Every report delivered, in timeline order.
        package let reports: [Report]

        /// The reports of `timeline`: each `road.report.delivered` with its
        /// `road.report.sent` (one delivered but never sent is no report).
        ///
        /// - Complexity: O(n) in the events.
        package init(_ timeline: Timeline) {
            var sent = Invariants.ByFix<(taken: SimTime, onRoute: Bool, next: RoadEvent.Ahead?)>(
                timeline.roster.road.fixCount)
            var reports: [Report] = []
            for (i, event) in timeline.events.enumerated() {
                switch event.what {
                case .road(.reportSent(let f, let age, let onRoute, let next)):
                    sent[f.raw] = (event.t - SimTime(ms: age), onRoute, next)
                case .road(.reportDelivered(let f)):
                    guard let s = sent[f.raw] else { continue }
                    reports.append(
                        Report(fix: f, taken: s.taken, delivered: event.t, onRoute: s.onRoute, next: s.next, event: i))
                default: continue
                }
            }
            self.reports = reports
        }

        /// What Pippa knows at `t` (after the events at `t`).
        ///
        /// - Complexity: O(log r), r the reports.
        package func view(at t: SimTime) -> PippaView {
            let after = reports.partitioningIndex { $0.delivered > t }
            return PippaView(at: t, last: after > 0 ? reports[after - 1] : nil)
        }

        /// Her answer from 0 to `end`, as consecutive half-open spans, each
        /// as long as one answer lasts (reports that say the same are one
        /// span); none is empty.
        ///
        /// - Complexity: O(r).
        package func spans(to end: SimTime) -> [Span] {
            var spans: [Span] = []
            /// Report `k`'s age at the last instant before `stop`.
            func age(_ k: Int, _ stop: SimTime) -> Int64 { (stop - reports[k].taken).ms - 1 }
            func add(_ start: SimTime, _ stop: SimTime, _ answer: Answer, _ report: Int?) {
                let stop = min(stop, end)
                guard start < stop else { return }
                if let last = spans.last, last.answer == answer, last.end == start {
                    spans[spans.count - 1].end = stop
                    if let report {
                        spans[spans.count - 1].reports = spans[spans.count - 1].reports.lowerBound..<(report + 1)
                        if answer != .notKnown {
                            spans[spans.count - 1].oldestMs = max(last.oldestMs ?? 0, age(report, stop))
                        }
                    }
                    return
                }
                let oldest = report.flatMap { answer == .notKnown ? nil : age($0, stop) }
                spans.append(
                    Span(
                        start: start, end: stop, answer: answer, reports: report.map { $0..<($0 + 1) } ?? 0..<0,
                        oldestMs: oldest))
            }
            add(.zero, reports.first?.delivered ?? end, .notKnown, nil)
            for (k, r) in reports.enumerated() {
                let next = k + 1 < reports.count ? reports[k + 1].delivered : end
                let expires = r.taken + PippaView.keptFor + SimTime(ms: 1)
                add(r.delivered, min(next, expires), r.onRoute ? .yes : .no, k)
                add(max(r.delivered, expires), next, .notKnown, k)
            }
            return spans
        }
    }

    /// A stretch of time in which Pippa gives one answer: `[start, end)`.
    package struct Span: Sendable, Equatable {
        /// Its first instant.
        package var start: SimTime
        /// The instant after its last.
        package var end: SimTime
        /// What she answers throughout.
        package var answer: Answer
        /// The reports (indices into `History.reports`) she holds within it,
        /// in force at its start included; empty before her first report.
        package var reports: Range<Int>
        /// For `yes` and `no`: the oldest any of its reports grows within it (at its last instant), in ms.
        package var oldestMs: Int64?
    }
}

extension Timeline {
    /// What Pippa knows at `t` (`PippaView`).
    ///
    /// - Complexity: O(n); for many instants, make a `PippaView.History` once.
    package func pippa(at t: SimTime) -> PippaView { PippaView.History(self).view(at: t) }
}
