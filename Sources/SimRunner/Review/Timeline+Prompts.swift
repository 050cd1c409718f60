import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// Where drivesim spoke each maneuver's lines against where the routing
/// service would have (the road's `servicePrompts`, kept by
/// `drivesim import-route`): per maneuver, drivesim's lines in the order
/// they started beside the service's prompts from the farthest, paired in
/// that order. Distances are meters before the maneuver, along the route.
public struct PromptComparison: Sendable, Equatable {
    /// One pair: a line drivesim started, a prompt the service planned, or both.
    public struct Row: Sendable, Equatable {
        /// The maneuver's id.
        public var maneuver: String
        /// drivesim's line, its stage, when it started and how far before the maneuver the car then was.
        public var line: String?
        /// drivesim's line's stage (nil without a line or for a reroute line).
        public var stage: Stage?
        /// When drivesim's line started.
        public var spokeAt: SimTime?
        /// How far before the maneuver the car was then, meters.
        public var spokeBefore: Int?
        /// The service's prompt: how far before the maneuver, and its words.
        public var serviceBefore: Int?
        /// The service's words for the prompt.
        public var serviceText: String?

        /// drivesim's distance minus the service's, meters (positive: drivesim spoke earlier).
        public var difference: Int? {
            guard let a = spokeBefore, let b = serviceBefore else { return nil }
            return a - b
        }
    }

    /// The rows, maneuver by maneuver in route order.
    public var rows: [Row] = []

    /// The comparison for a run of `scenario`; nil when it keeps no service prompts.
    public init?(_ timeline: Timeline, _ scenario: Scenario) {
        guard !scenario.servicePrompts.isEmpty, let g = RoadGeometry(scenario.road) else { return nil }
        for m in g.route.maneuvers {
            var spoken: [(line: String, stage: Stage?, t: SimTime, before: Int?)] = []
            for event in timeline.events {
                guard case .guidanceStarted(let l) = event.what, timeline.roster.lines[l.int].maneuver == m.id else { continue }
                let before = g.distance(at: event.t).map { Int((m.distance - $0).rounded()) }
                spoken.append((timeline.roster.lines[l.int].id, timeline.roster.stage(of: l), event.t, before))
            }
            let service = scenario.servicePrompts.filter { $0.maneuver == m.id }.sorted { $0.before > $1.before }
            for i in 0..<max(spoken.count, service.count) {
                var row = Row(maneuver: m.id)
                if i < spoken.count {
                    row.line = spoken[i].line; row.stage = spoken[i].stage
                    row.spokeAt = spoken[i].t; row.spokeBefore = spoken[i].before
                }
                if i < service.count {
                    row.serviceBefore = Int(service[i].before.rounded()); row.serviceText = service[i].text
                }
                rows.append(row)
            }
        }
    }

    /// A table: maneuver, stage, when and where drivesim spoke, where the service would have, the difference, the service's words.
    public var text: String {
        var out = "prompts: drivesim against the routing service (meters before each maneuver)\n"
        let header = ["maneuver", "stage", "drivesim at", "drivesim m", "service m", "diff m", "service says"]
        var table = [header]
        for r in rows {
            table.append([
                r.maneuver, r.stage?.rawValue ?? "-", r.spokeAt.map { Seconds.literal(milliseconds: $0.ms) + " s" } ?? "-",
                r.spokeBefore.map(String.init) ?? "-", r.serviceBefore.map(String.init) ?? "-",
                r.difference.map { $0 > 0 ? "+\($0)" : String($0) } ?? "-", r.serviceText ?? "-",
            ])
        }
        let widths = (0..<header.count - 1).map { c in table.map { $0[c].count }.max() ?? 0 }
        for row in table {
            var line = ""
            for c in 0..<header.count - 1 { line += row[c] + String(repeating: " ", count: widths[c] - row[c].count + 2) }
            out += line + row[header.count - 1] + "\n"
        }
        return out
    }

    /// The rows as JSON: `{"prompts": [{"maneuver", "line", "stage", "spokeAt", "spokeBefore", "serviceBefore", "serviceText", "difference"}]}`, absent values left out.
    public var json: String {
        let items = rows.map { r -> JSONValue in
            var m: [(key: String, value: JSONValue)] = [("maneuver", .string(r.maneuver))]
            if let v = r.line { m.append(("line", .string(v))) }
            if let v = r.stage { m.append(("stage", .string(v.rawValue))) }
            if let v = r.spokeAt { m.append(("spokeAt", .number(Seconds.literal(milliseconds: v.ms)))) }
            if let v = r.spokeBefore { m.append(("spokeBefore", .integer(v))) }
            if let v = r.serviceBefore { m.append(("serviceBefore", .integer(v))) }
            if let v = r.serviceText { m.append(("serviceText", .string(v))) }
            if let v = r.difference { m.append(("difference", .integer(v))) }
            return .object(m)
        }
        return String(decoding: JSONWriter.bytes(.object([("prompts", .array(items))])), as: UTF8.self) + "\n"
    }
}
