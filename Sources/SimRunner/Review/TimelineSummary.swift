import Guidance
import Road
import SimClock
import SimRunner
import TalkArbiter

/// What a drive did, counted from its timeline: the summary at the top of
/// every picture and page (`lanes`, `svg`, `html`), one definition for all.
///
///     rules: urgent-cut 2 · short-wait 3 · held 12
///     road: off-route 1 · back-on-route 1 · stage-late 4
///     moments: off route 1 · back on route 1 · route switched 1 · handoff taken 1
///     pippa: yes 52.3 s · no 4.1 s · not-known 3.5 s · longest not-known 3.5 s from 00:10.000
///     stages: far 40 spoken, 2 skipped · near 38 spoken · now 40 spoken
///     dropped: lines superseded 2 · fixes inaccurate 5 · reports offline 3
///
/// `rules` are the arbiter's decisions and `road` the road's, counted as rule
/// coverage counts them (`RuleCoverage`), but for the drops, which `dropped`
/// counts by what was dropped and why. `moments` counts the road's moments
/// a reviewer looks for, by their labels in the pictures and the page's
/// Collisions menu (`Lanes.Moment`). `pippa` (a drive with a road) says how
/// long Pippa answered each of yes, no and not-known to "am I on the right
/// road?" (`PippaView`) and her longest not-known span. `stages` counts the generated lines
/// that started and the stages skipped. A part with nothing to count is left out.
package struct TimelineSummary: Sendable, Equatable {
    /// The arbiter's rules that fired, with how often, in `Rule.allCases` order.
    package var rules: [(name: String, count: Int)] = []
    /// The road's decisions but drops, with how often, in `RoadRule.allCases` order.
    package var road: [(name: String, count: Int)] = []
    /// Per stage, far first: lines started and stages skipped.
    package var stages: [(stage: Stage, spoken: Int, skipped: Int)] = []
    /// What was dropped, per what and why: `lines superseded`, `lines switched`
    /// (`stale` at their route's switch, counted apart), `fixes inaccurate`, `reports offline`.
    package var dropped: [(name: String, count: Int)] = []
    /// The road's moments (`Lanes.Moment`: `off route`, `route switched`,
    /// `handoff taken`, `turn unannounced`…), with how often, by the labels
    /// the pictures show them with.
    package var moments: [(name: String, count: Int)] = []
    /// How long Pippa gave each answer, in `PippaView.Answer.allCases` order,
    /// those she gave; empty without a road or with `--only` leaving out the link.
    package var pippa: [(answer: PippaView.Answer, ms: Int64)] = []
    /// Her longest not-known span, if any.
    package var longestNotKnown: PippaView.Span?

    /// The counts of the events `window` shows of `timeline`; Pippa's view
    /// from the whole timeline (her reports before the window included), within the window.
    package init(_ timeline: Timeline, window: ReviewWindow = ReviewWindow()) {
        self.init(window.selecting(timeline))
        guard window.only.contains(.roadReportDelivered), timeline.events.contains(where: { $0.kind.isRoad }) else {
            return
        }
        let range = window.range(end: timeline.events.last?.t ?? .zero)
        var total = [Int64](repeating: 0, count: PippaView.Answer.allCases.count)
        for var span in PippaView.History(timeline).spans(to: range.end) where span.end > range.start {
            span.start = max(span.start, range.start)
            total[PippaView.Answer.allCases.firstIndex(of: span.answer)!] += (span.end - span.start).ms
            if span.answer == .notKnown, span.end - span.start > longestNotKnown.map({ $0.end - $0.start }) ?? .zero {
                longestNotKnown = span
            }
        }
        pippa = PippaView.Answer.allCases.enumerated().compactMap { k, a in total[k] > 0 ? (a, total[k]) : nil }
    }

    /// The counts of `timeline`'s events.
    private init(_ timeline: Timeline) {
        let coverage = RuleCoverage(timeline)
        rules = Rule.allCases.compactMap { coverage[$0] > 0 ? ($0.rawValue, coverage[$0]) : nil }
        var spoken = [Int](repeating: 0, count: Stage.allCases.count)
        var skipped = spoken
        var lines = [Int](repeating: 0, count: Rule.allCases.count)
        var switched = 0
        var fixes = [Int](repeating: 0, count: RoadEvent.FixDropReason.allCases.count)
        var reports = [Int](repeating: 0, count: LocationLink.DropReason.allCases.count)
        var moments = [Int](repeating: 0, count: Lanes.Moment.allCases.count)
        for event in timeline.events {
            if event.kind.isRoad, let moment = Lanes.Moment(event.kind) {
                moments[Lanes.Moment.allCases.firstIndex(of: moment)!] += 1
            }
            switch event.what {
            case .guidanceStarted(let l):
                if let stage = timeline.roster.stage(of: l) { spoken[stage.index] += 1 }
            case .guidanceDropped(let l, let rule):
                if timeline.roster.dropReason(of: l, rule: rule, at: event.t) != nil {
                    switched += 1
                } else {
                    lines[rule.index] += 1
                }
            case .road(.stageSkipped(_, let stage, _)): skipped[stage.index] += 1
            case .road(.fixDropped(_, let reason)): fixes[RoadEvent.FixDropReason.allCases.firstIndex(of: reason)!] += 1
            case .road(.reportDropped(_, let reason)):
                reports[LocationLink.DropReason.allCases.firstIndex(of: reason)!] += 1
            default: break
            }
        }
        let drops: Set<RoadRule> = [
            .fixOutOfOrder, .fixInaccurate, .fixImplausible, .reportOffline, .reportStale, .reportBusy,
            .reportOutOfOrder,
            .reportInterrupted, .reportTimeout,
        ]
        road = RoadRule.allCases.compactMap {
            !drops.contains($0) && coverage[road: $0] > 0 ? ($0.rawValue, coverage[road: $0]) : nil
        }
        stages = Stage.allCases.compactMap { s in
            spoken[s.index] + skipped[s.index] > 0 ? (s, spoken[s.index], skipped[s.index]) : nil
        }
        self.moments = Lanes.Moment.allCases.enumerated().compactMap { k, m in
            moments[k] > 0 ? (m.rawValue, moments[k]) : nil
        }
        dropped =
            Rule.allCases.compactMap { lines[$0.index] > 0 ? ("lines " + $0.rawValue, lines[$0.index]) : nil }
            + (switched > 0 ? [("lines " + LineDropReason.switched.rawValue, switched)] : [])
            + RoadEvent.FixDropReason.allCases.enumerated().compactMap { k, r in
                fixes[k] > 0 ? ("fixes " + r.rawValue, fixes[k]) : nil
            }
            + LocationLink.DropReason.allCases.enumerated().compactMap { k, r in
                reports[k] > 0 ? ("reports " + r.rawValue, reports[k]) : nil
            }
    }

    /// The summary's parts, each a heading and its items (`rules`, `held 12`), only those with anything.
    var parts: [(heading: String, items: [String])] {
        func items(_ counts: [(name: String, count: Int)]) -> [String] { counts.map { "\($0.name) \($0.count)" } }
        let staged = stages.map { s in
            "\(s.stage.rawValue) \(s.spoken) spoken" + (s.skipped > 0 ? ", \(s.skipped) skipped" : "")
        }
        var answers = pippa.map { "\($0.answer.rawValue) \(Matcher.seconds(SimTime(ms: $0.ms)))" }
        if let span = longestNotKnown {
            answers.append("longest not-known \(Matcher.seconds(span.end - span.start)) from \(span.start)")
        }
        return [
            ("rules", items(rules)), ("road", items(road)), ("moments", items(moments)), ("pippa", answers),
            ("stages", staged),
            ("dropped", items(dropped)),
        ]
        .filter { !$0.items.isEmpty }
    }

    /// The summary as lines of text (`rules: urgent-cut 2 · held 12`), one per
    /// part that has anything, or `no decisions` when none has.
    package var lines: [String] { lines(width: .max) }

    /// `lines` wrapped between items to `width` columns, continued lines indented by two spaces.
    package func lines(width: Int) -> [String] {
        var out: [String] = []
        for part in parts {
            var current = part.heading + ":"
            for (k, item) in part.items.enumerated() {
                let separator = k == 0 ? " " : " · "
                if k > 0, displayWidth(current) + separator.count + displayWidth(item) + 2 > width {
                    out.append(current + " ·")
                    current = "  " + item
                } else {
                    current += separator + item
                }
            }
            out.append(current)
        }
        return out.isEmpty ? ["no decisions"] : out
    }

    /// Two summaries are equal when they say the same.
    package static func == (a: TimelineSummary, b: TimelineSummary) -> Bool { a.lines == b.lines }
}

extension Stage {
    /// Its place in `Stage.allCases`.
    var index: Int { Stage.allCases.firstIndex(of: self)! }
}
