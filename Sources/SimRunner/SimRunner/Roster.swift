import Guidance
import SimClock
import TalkArbiter

/// A scenario's items numbered once, in file order, for the arbiter, the bus
/// and the timeline: lines, replies (Pippa's, then Dad's), stretches and
/// utterances. Names are looked up here only when a timeline is rendered.
package struct Roster: Sendable {
    package let lines: [GuidanceLine]
    package let replyIDs: [String]
    /// Each reply's stretches, as indices into `stretches`.
    package let replyStretches: [Range<Int>]
    package let stretches: [Scenario.Stretch]
    /// The reply each stretch belongs to.
    package let stretchReply: [Int]
    package let utterances: [Scenario.Utterance]
    /// The reply that answers each utterance, if any.
    package let answer: [Int?]
    /// How many replies come from the file's `replies` list; the rest answer Dad.
    package let fileReplyCount: Int
    /// Maneuver names numbered for the arbiter.
    let maneuverIndex: [Int?]
    /// The planned road: its events, maneuvers and generated lines (which
    /// follow the file's lines in `lines`).
    package let road: RoadPlan
    /// Each line's stage, for generated lines.
    package let lineStages: [Stage?]

    init(_ scenario: Scenario, road: RoadPlan = .empty) {
        self.road = road
        lines = road.lines.isEmpty ? scenario.guidance : scenario.guidance + Self.endingByTheDrivesEnd(road)
        lineStages = road.lines.isEmpty ? [] : Array(repeating: nil, count: scenario.guidance.count) + road.stages
        var replyIDs: [String] = []
        var ranges: [Range<Int>] = []
        var stretches: [Scenario.Stretch] = []
        var owner: [Int] = []
        let count =
            scenario.replies.reduce(0) { $0 + $1.stretches.count }
            + scenario.dad.reduce(0) { $0 + ($1.reply?.stretches.count ?? 0) }
        stretches.reserveCapacity(count)
        owner.reserveCapacity(count)
        func add(_ id: String, _ items: [Scenario.Stretch]) {
            ranges.append(stretches.count..<stretches.count + items.count)
            owner.append(contentsOf: repeatElement(replyIDs.count, count: items.count))
            stretches.append(contentsOf: items)
            replyIDs.append(id)
        }
        for reply in scenario.replies { add(reply.id, reply.stretches) }
        fileReplyCount = replyIDs.count
        var answer: [Int?] = []
        for utterance in scenario.dad {
            if let reply = utterance.reply {
                answer.append(replyIDs.count)
                add(reply.id, reply.stretches)
            } else {
                answer.append(nil)
            }
        }
        self.replyIDs = replyIDs
        self.replyStretches = ranges
        self.stretches = stretches
        self.stretchReply = owner
        self.utterances = scenario.dad
        self.answer = answer
        // Numbered in order of first use: a scan while there are few names, a table beyond.
        var names: [String] = []
        var numbers: [String: Int] = [:]
        maneuverIndex = lines.map { line in
            line.maneuver.map { name in
                if numbers.isEmpty {
                    if let n = names.firstIndex(of: name) { return n }
                    names.append(name)
                    if names.count > 16 { for (n, known) in names.enumerated() { numbers[known] = n } }
                    return names.count - 1
                }
                if let n = numbers[name] { return n }
                numbers[name] = numbers.count
                return numbers.count - 1
            }
        }
    }

    /// The road's lines (a guidance made them: drivesim's own, or an app's in
    /// Swift or in a process), each expiring in time to end by the drive's end
    /// at 24 h however long it waits and whichever arbiter plays it (SPEC 2):
    /// at the latest 24 h less its longest duration (its revisions' included),
    /// plus 1 ms, as a line starting 1 ms before that ends at 24 h and `stale`
    /// drops a line in its `expires` instant. A guidance's line is requested
    /// in time to end by 24 h if it played at once (the plan and the protocol
    /// refuse any other), so the bound always lies after its `at`.
    /// - Complexity: O(lines + revisions).
    static func endingByTheDrivesEnd(_ road: RoadPlan) -> [GuidanceLine] {
        road.lines.enumerated().map { i, line in
            let longest =
                i < road.revisions.count
                ? road.revisions[i].reduce(line.duration) { max($0, $1.duration) } : line.duration
            let latest = RoadPlan.end - longest + SimTime(ms: 1)
            guard latest > line.at, line.expires.map({ $0 > latest }) ?? true else { return line }
            var bounded = line
            bounded.expires = latest
            return bounded
        }
    }

    /// The arbiter's view of the lines.
    var arbiterLines: [TalkArbiter.Line] {
        lines.indices.map { i in
            TalkArbiter.Line(
                duration: lines[i].duration, urgent: lines[i].urgent, maneuver: maneuverIndex[i],
                expires: lines[i].expires)
        }
    }
}
