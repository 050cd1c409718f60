import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// Where drivesim spoke each maneuver's lines against where the routing
/// service would have (the road's `servicePrompts`, kept by
/// `drivesim import-route`): per maneuver, each of the service's prompts
/// beside the nearest of drivesim's lines (by the distance each is said
/// at, nearest pairs first, within `pairable`), lines and prompts left over
/// on rows of their own, farthest first; and a summary per stage. Distances are meters
/// before the maneuver, along the route.
package struct PromptComparison: Sendable, Equatable {
    /// One pair: a line drivesim started, a prompt the service planned, or both.
    package struct Row: Sendable, Equatable {
        /// The maneuver's id.
        package var maneuver: String
        /// drivesim's line, its stage, when it started and how far before the maneuver the car then was.
        package var line: String?
        /// drivesim's line's stage (nil without a line or for a reroute line).
        package var stage: Stage?
        /// When drivesim's line started.
        package var spokeAt: SimTime?
        /// How far before the maneuver the car was then, meters.
        package var spokeBefore: Int?
        /// The service's prompt: how far before the maneuver, and its words.
        package var serviceBefore: Int?
        /// The service's words for the prompt.
        package var serviceText: String?
        /// The service's words are a display text, shown with no announcement
        /// distance (Kakao's `guidance`, Google's and Apple's instructions): no difference.
        package var display = false

        /// drivesim's distance minus the service's, meters (positive: drivesim spoke earlier).
        package var difference: Int? {
            guard !display, let a = spokeBefore, let b = serviceBefore else { return nil }
            return a - b
        }
    }

    /// The rows, maneuver by maneuver in route order.
    package var rows: [Row] = []

    /// The comparison for a run of `scenario`; nil when it keeps no service prompts.
    package init?(_ timeline: Timeline, _ scenario: Scenario) {
        guard !scenario.servicePrompts.isEmpty, let g = RoadGeometry(scenario.road) else { return nil }
        for m in g.first.maneuvers {
            var spoken: [(line: String, stage: Stage?, t: SimTime, before: Int?)] = []
            var distances = g.distances()
            for event in timeline.events {
                guard case .guidanceStarted(let l) = event.what, timeline.roster.lines[l.int].maneuver == m.id else {
                    continue
                }
                let before = distances.at(event.t).map { Int((m.distance - $0).rounded()) }
                spoken.append((timeline.roster.lines[l.int].id, timeline.roster.stage(of: l), event.t, before))
            }
            // Prompts with a distance, farthest first; display texts (no distance) apart.
            let prompts = scenario.servicePrompts.filter { $0.maneuver == m.id }
            let service = prompts.compactMap { p in p.before.map { (before: $0, text: p.text) } }.sorted {
                $0.before > $1.before
            }
            let displays = prompts.filter { $0.before == nil }.map(\.text)
            // Each prompt with the nearest line of its maneuver, nearest pairs first (ties: the
            // service's order, then drivesim's); each line and prompt in one pair at most, and
            // only within `pairable` of each other (a "continue for 1 mile" said after the turn
            // before is no counterpart of a line said 500 m before this one).
            var candidates: [(gap: Double, s: Int, l: Int)] = []
            for (si, prompt) in service.enumerated() {
                for (li, line) in spoken.enumerated() {
                    guard let before = line.before else { continue }
                    let gap = abs(Double(before) - prompt.before)
                    if gap <= Self.pairable(Double(before), prompt.before) { candidates.append((gap, si, li)) }
                }
            }
            candidates.sort { ($0.gap, $0.s, $0.l) < ($1.gap, $1.s, $1.l) }
            var lineOf = [Int?](repeating: nil, count: service.count)
            var paired = [Bool](repeating: false, count: spoken.count)
            for c in candidates where lineOf[c.s] == nil && !paired[c.l] {
                lineOf[c.s] = c.l
                paired[c.l] = true
            }
            var maneuverRows: [Row] = []
            func line(_ li: Int, into row: inout Row) {
                row.line = spoken[li].line
                row.stage = spoken[li].stage
                row.spokeAt = spoken[li].t
                row.spokeBefore = spoken[li].before
            }
            for (si, prompt) in service.enumerated() {
                var row = Row(maneuver: m.id)
                row.serviceBefore = Int(prompt.before.rounded())
                row.serviceText = prompt.text
                if let li = lineOf[si] { line(li, into: &row) }
                maneuverRows.append(row)
            }
            // A display text is said at no distance: beside the first line left over
            // (drivesim's first words for the maneuver), the wording side by side.
            var left = spoken.indices.filter { !paired[$0] }
            for text in displays {
                var row = Row(maneuver: m.id)
                row.serviceText = text
                row.display = true
                if !left.isEmpty { line(left.removeFirst(), into: &row) }
                maneuverRows.append(row)
            }
            for li in left {
                var row = Row(maneuver: m.id)
                line(li, into: &row)
                maneuverRows.append(row)
            }
            // Farthest first: by the service's distance, else drivesim's (a line whose distance is unknown last).
            // A display row sorts by drivesim's distance.
            let order = maneuverRows.indices.sorted {
                let a = maneuverRows[$0].serviceBefore ?? maneuverRows[$0].spokeBefore ?? Int.min
                let b = maneuverRows[$1].serviceBefore ?? maneuverRows[$1].spokeBefore ?? Int.min
                return a != b ? a > b : $0 < $1
            }
            rows += order.map { maneuverRows[$0] }
        }
    }

    /// How far apart a line and a prompt said `a` and `b` meters before
    /// their maneuver may be to be paired: 100 m, or half the farther.
    static func pairable(_ a: Double, _ b: Double) -> Double { max(100, max(a, b) / 2) }

    /// The differences of the pairs of one stage: how many, their median
    /// (signed, meters; positive: drivesim spoke earlier) and the 90th
    /// percentile of their size (nearest rank), over the whole drive.
    package struct StageSummary: Sendable, Equatable {
        /// The stage of drivesim's lines.
        package var stage: Stage
        /// How many pairs.
        package var pairs: Int
        /// The median difference (the lower middle one of an even count).
        package var median: Int
        /// The 90th percentile of the differences' sizes, nearest rank.
        package var p90: Int
    }

    /// One summary per stage with a pair, in the stages' order (far, near, now).
    package var summary: [StageSummary] {
        Stage.allCases.compactMap { stage in
            let d = rows.filter { $0.stage == stage }.compactMap(\.difference).sorted()
            guard !d.isEmpty else { return nil }
            let sizes = d.map(abs).sorted()
            let rank = max(1, Int((0.9 * Double(sizes.count)).rounded(.up)))
            return StageSummary(stage: stage, pairs: d.count, median: d[(d.count - 1) / 2], p90: sizes[rank - 1])
        }
    }

    /// A table: maneuver, stage, when and where drivesim spoke, where the service would have, the difference, the service's words.
    package var text: String {
        var out = "prompts: drivesim against the routing service (meters before each maneuver)\n"
        let header = ["maneuver", "stage", "drivesim at", "drivesim m", "service m", "diff m", "service says"]
        var table = [header]
        for r in rows {
            table.append([
                r.maneuver, r.stage?.rawValue ?? "-",
                r.spokeAt.map { Seconds.literal(milliseconds: $0.ms) + " s" } ?? "-",
                r.spokeBefore.map(String.init) ?? "-", r.display ? "shown" : r.serviceBefore.map(String.init) ?? "-",
                r.difference.map { $0 > 0 ? "+\($0)" : String($0) } ?? "-", r.serviceText ?? "-",
            ])
        }
        let widths = (0..<header.count - 1).map { c in table.map { $0[c].count }.max() ?? 0 }
        for row in table {
            var line = ""
            for c in 0..<header.count - 1 {
                line += row[c] + String(repeating: " ", count: widths[c] - row[c].count + 2)
            }
            out += line + row[header.count - 1] + "\n"
        }
        for s in summary {
            out +=
                "\(s.stage.rawValue): \(counted(s.pairs, "pair")), median \(s.median > 0 ? "+" : "")\(s.median) m, 90% within \(s.p90) m\n"
        }
        return out
    }

    /// The rows as JSON: `{"prompts": [{"maneuver", "line", "stage", "spokeAt", "spokeBefore", "serviceBefore", "serviceText", "display", "difference"}],
    /// "summary": [{"stage", "pairs", "median", "p90"}]}`, absent values left out.
    package var json: String {
        let items = rows.map { r -> JSONValue in
            var m: [(key: String, value: JSONValue)] = [("maneuver", .string(r.maneuver))]
            if let v = r.line { m.append(("line", .string(v))) }
            if let v = r.stage { m.append(("stage", .string(v.rawValue))) }
            if let v = r.spokeAt { m.append(("spokeAt", .number(Seconds.literal(milliseconds: v.ms)))) }
            if let v = r.spokeBefore { m.append(("spokeBefore", .integer(v))) }
            if let v = r.serviceBefore { m.append(("serviceBefore", .integer(v))) }
            if let v = r.serviceText { m.append(("serviceText", .string(v))) }
            if r.display { m.append(("display", .bool(true))) }
            if let v = r.difference { m.append(("difference", .integer(v))) }
            return .object(m)
        }
        let stages = summary.map { s -> JSONValue in
            .object([
                ("stage", .string(s.stage.rawValue)), ("pairs", .integer(s.pairs)), ("median", .integer(s.median)),
                ("p90", .integer(s.p90)),
            ])
        }
        return String(
            decoding: JSONWriter.bytes(.object([("prompts", .array(items)), ("summary", .array(stages))])),
            as: UTF8.self) + "\n"
    }
}
