import Guidance
import Road
import SimClock
import TalkArbiter

/// Why a scenario is not valid, and where: the one definition of validity
/// (SPEC 2, 3 and 6) that the decoder, the shrinker and the generator share.
/// The decoder maps `path` to the file's path, line and column.
public struct ScenarioProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where: the keys and indices of the file's JSON (`guidance`, 0, `duration`).
    public var path: [JSONPath.Step]
    /// What is wrong.
    public var reason: Reason

    /// A problem at `path`.
    public init(_ reason: Reason, at path: [JSONPath.Step]) {
        self.reason = reason
        self.path = path
    }

    /// What kind of item an id names, for messages.
    public enum IDKind: String, Sendable, Equatable {
        case line, reply, stretch, utterance, maneuver, fix
        /// `route`: a route change; `handoff`: a change with a handoff.
        case change = "route change"
        case handoff
        /// `by`: a line that cut a stretch, or an utterance that barged in.
        case lineOrUtterance = "line or utterance"
    }

    /// What is wrong with a scenario.
    public enum Reason: Sendable, Equatable {
        /// An empty `name` or line `maneuver`.
        case emptyString
        /// An empty `id`.
        case emptyID
        /// An id already used at `firstAt`; ids are unique across the scenario.
        case duplicateID(String, firstAt: [JSONPath.Step])
        /// An id that a line generated from the road will carry
        /// (`<maneuver>.<stage>`, `reroute<n>.off`, `reroute<n>.back`).
        case generatedLineID(String)
        /// A time, duration or count below zero.
        case negative
        /// A duration that is zero.
        case notPositive
        /// A time above 24 h or a duration above 1 h (`Scenario.Limits`).
        case tooLarge(limitSeconds: Int)
        /// A line's `expires` not later than its `at`.
        case expiresNotAfterAt
        /// A reply with no stretches.
        case emptyStretches
        /// Dad's utterance overlaps the one with this id.
        case overlappingUtterance(with: String)
        /// A matcher's window that ends before it starts.
        case reversedWindow
        /// A matcher field its event does not carry.
        case fieldNotCarried(Field, event: EventKind)
        /// A matcher value of the wrong type for its field.
        case wrongType(Field.ValueType)
        /// A matcher id that names nothing of its kind in the scenario;
        /// `known` lists the ids it could name, in file order (for a suggestion).
        case unknownID(String, kind: IDKind, known: [String])
        /// A matcher value outside its field's fixed set for the event (a rule, a reason, a stage…).
        case unknownValue(String, allowed: [String])
        /// A `matches` pattern that is refused (`TextPattern.Problem`: not of its syntax, too long or too large).
        case invalidPattern(TextPattern.Problem)
        /// A range (`{"min": a, "max": b}`) with neither bound.
        case emptyRange
        /// A range whose `min` is above its `max`.
        case reversedRange
        /// `within` on a matcher without `since`.
        case withinWithoutSince
        /// A key a matcher inside `since` or `until` does not take: `since`, `until`, `within` or `count`.
        case notInAnchor(String)
        /// A matcher of Pippa's view in a scenario without a road: nothing reports to her.
        case pippaWithoutRoad
        /// A field, or the count, given two tests (an equal value and a test, or `count` and a count range).
        case testedTwice(String)
        /// A road the planner cannot take (`RoadSetup.validate()`); the path
        /// is `road` and the road problem's own path below it.
        case road(RoadSetup.Problem.Reason)
    }

    /// `path: reason`, for debugging; the decoder words problems for users.
    public var description: String { "\(JSONPath.render(path)): \(reason)" }
}

extension Scenario {
    /// The limits of SPEC 2: every absolute time within a day, every single
    /// span (durations, `ready`, `after`, `earsTail`, `waitLimit`) within an hour.
    public enum Limits {
        /// The latest absolute time (`at`, `expires`, a matcher's window).
        public static let maxTime = RoadSetup.Limits.maxTime
        /// The longest single span.
        public static let maxDuration = RoadSetup.Limits.maxSpan
    }

    /// Checks every rule of validity, in file order, and throws the first
    /// problem: a non-empty name; ids non-empty and unique across the
    /// scenario (road maneuvers included) and none taken by a generated
    /// line; times within 0...24 h and spans within 0...1 h; durations above
    /// zero; `expires` after `at`; replies with stretches; Dad with one voice;
    /// the road (`RoadSetup.validate()`: its route, drive, fixes and
    /// settings); and every matcher against its event and the scenario
    /// (SPEC 6). `Simulation` and `Verdict` call it, so a scenario built in
    /// code is refused with a typed problem, never run into a trap.
    ///
    /// - Complexity: O(n log n) in the number of items and matchers, plus
    ///   the road's (see `RoadSetup.validate()`).
    public func validate() throws(ScenarioProblem) {
        var v = Validation(self)
        try v.run()
    }

    /// Whether `validate()` passes.
    public var isValid: Bool {
        do {
            try validate()
            return true
        } catch { return false }
    }

    /// Whether `validate()` passes, for a scenario whose road is known to
    /// have the shape of `valid`'s, a valid road (a fuzz run's snap moves
    /// times, never roads: `RoadSetup.validate(shapedLike:)`).
    package func isValid(roadShapedLike valid: RoadSetup) -> Bool {
        var v = Validation(self)
        v.road = .shapedLike(valid)
        do {
            try v.run()
            return true
        } catch { return false }
    }

    /// The road's shape (`RoadShape`, which validating it finds on the
    /// way) if the scenario is valid (`validate()` passes) and has a road;
    /// nil otherwise.
    package var validRoadShape: RoadShape? {
        var v = Validation(self)
        v.road = .shaping
        do {
            try v.run()
            return v.roadShape
        } catch { return nil }
    }

    /// Every id a line generated from the road may carry that is known from
    /// the route alone: `<maneuver>.<stage>` for each maneuver and stage,
    /// with the maneuver it belongs to, and `<maneuver>.now-again` for an
    /// arrival or a waypoint (`RoadPlan.retryLineID`), `<maneuver>.continue`
    /// (`RoadPlan.continueLineID`), and `<first maneuver>.depart`
    /// (`RoadPlan.departureLineID`). Reroute lines (`reroute<n>.off`,
    /// `reroute<n>.back`, n ≥ 1) are matched by `RoadPlan.isRerouteLineID`.
    package var generatedLineIDs: [(id: String, maneuver: String)] {
        guard let road else { return [] }
        // Appended to one list (a list per maneuver and stage cost more than the ids).
        var ids: [(id: String, maneuver: String)] = []
        ids.reserveCapacity(road.maneuvers.count * (Stage.allCases.count + 2) + 1)
        for m in road.everyManeuver {
            for stage in Stage.allCases { ids.append((RoadPlan.lineID(maneuver: m.id, stage: stage), m.id)) }
            if m.turn.saidOnReaching { ids.append((RoadPlan.retryLineID(maneuver: m.id), m.id)) }
            ids.append((RoadPlan.continueLineID(maneuver: m.id), m.id))
        }
        if let first = road.maneuvers.first { ids.append((RoadPlan.departureLineID(maneuver: first.id), first.id)) }
        for change in road.changes { ids.append((RoadPlan.switchLineID(change: change.id), "reroute")) }
        return ids
    }

    /// Whether `id` has the shape of a fix's id in the timeline: `f<n>`, n ≥ 0, no leading zeros.
    static func isFixID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        let digits = bytes.dropFirst()
        guard bytes.first == UInt8(ascii: "f"), let first = digits.first,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        return first != UInt8(ascii: "0") || digits.count == 1
    }
}

/// One validation pass: the ids seen so far and what the matchers may name.
///
/// Paths are built only for a problem: the checks take them as
/// autoclosures, and each id remembers where it was first used as a
/// `Place` (which list, which item), so a long drive validates without a
/// path or an id list per item.
private struct Validation {
    typealias Step = JSONPath.Step
    let s: Scenario
    /// A valid road this one is known to have the shape of, if any: the checks its shape decides are not made again.
    var road = RoadCheck.full
    /// The road's shape, kept when `road` is `.shaping`.
    var roadShape: RoadShape? = nil

    /// How the road is validated.
    enum RoadCheck {
        /// In full (`RoadSetup.validate()`).
        case full
        /// Known to have the shape of a valid road (`RoadSetup.validate(shapedLike:)`).
        case shapedLike(RoadSetup)
        /// In full, keeping its shape (`RoadSetup.validatedShape()`).
        case shaping
    }
    /// Every id, numbered in file order.
    var ids = IDTable()
    /// Where each id of `ids` was first used, by its number.
    var places: [Place] = []

    /// The object an id belongs to.
    enum Place {
        case line(Int)
        case reply(Int)
        case replyStretch(Int, Int)
        case utterance(Int)
        case dadReply(Int)
        case dadReplyStretch(Int, Int)
        case maneuver(Int)
        case change(Int)
        case changeManeuver(Int, Int)

        /// The path of the object's `id`.
        var path: [Step] {
            switch self {
            case .line(let i): return [.key("guidance"), .index(i), .key("id")]
            case .reply(let i): return [.key("replies"), .index(i), .key("id")]
            case .replyStretch(let i, let k):
                return [.key("replies"), .index(i), .key("stretches"), .index(k), .key("id")]
            case .utterance(let i): return [.key("dad"), .index(i), .key("id")]
            case .dadReply(let i): return [.key("dad"), .index(i), .key("reply"), .key("id")]
            case .dadReplyStretch(let i, let k):
                return [.key("dad"), .index(i), .key("reply"), .key("stretches"), .index(k), .key("id")]
            case .maneuver(let i): return [.key("road"), .key("route"), .key("maneuvers"), .index(i), .key("id")]
            case .change(let c): return [.key("road"), .key("changes"), .index(c), .key("id")]
            case .changeManeuver(let c, let i):
                return [.key("road"), .key("changes"), .index(c), .key("maneuvers"), .index(i), .key("id")]
            }
        }
    }

    init(_ s: Scenario) {
        self.s = s
        let stretches =
            s.replies.reduce(0) { $0 + $1.stretches.count }
            + s.dad.reduce(0) { $0 + 1 + ($1.reply.map { 1 + $0.stretches.count } ?? 0) }
        let count =
            s.guidance.count + s.replies.count + stretches + (s.road?.everyManeuver.count ?? 0)
            + (s.road?.changes.count ?? 0)
        ids = IDTable(capacity: count)
        places.reserveCapacity(count)
    }

    func fail(_ reason: ScenarioProblem.Reason, _ path: [Step]) -> ScenarioProblem { ScenarioProblem(reason, at: path) }

    mutating func id(_ id: String, _ place: Place) throws(ScenarioProblem) {
        if id.isEmpty { throw fail(.emptyID, place.path) }
        if let first = ids.insert(id) { throw fail(.duplicateID(id, firstAt: places[first].path), place.path) }
        places.append(place)
    }

    func time(_ t: SimTime, _ path: @autoclosure () -> [Step]) throws(ScenarioProblem) {
        if t < .zero { throw fail(.negative, path()) }
        if t > Scenario.Limits.maxTime {
            throw fail(.tooLarge(limitSeconds: Int(Scenario.Limits.maxTime.ms / 1000)), path())
        }
    }

    func span(_ t: SimTime, _ path: @autoclosure () -> [Step], positive: Bool = false) throws(ScenarioProblem) {
        if t < .zero { throw fail(.negative, path()) }
        if t > Scenario.Limits.maxDuration {
            throw fail(.tooLarge(limitSeconds: Int(Scenario.Limits.maxDuration.ms / 1000)), path())
        }
        if positive && t == .zero { throw fail(.notPositive, path()) }
    }

    mutating func run() throws(ScenarioProblem) {
        if s.name.isEmpty { throw fail(.emptyString, [.key("name")]) }
        try span(s.settings.earsTail, [.key("settings"), .key("earsTail")])
        try span(s.settings.waitLimit, [.key("settings"), .key("waitLimit")])
        for (i, line) in s.guidance.enumerated() {
            try id(line.id, .line(i))
            try time(line.at, [.key("guidance"), .index(i), .key("at")])
            try span(line.duration, [.key("guidance"), .index(i), .key("duration")], positive: true)
            if let m = line.maneuver, m.isEmpty {
                throw fail(.emptyString, [.key("guidance"), .index(i), .key("maneuver")])
            }
            if let e = line.expires {
                try time(e, [.key("guidance"), .index(i), .key("expires")])
                if e <= line.at { throw fail(.expiresNotAfterAt, [.key("guidance"), .index(i), .key("expires")]) }
            }
        }
        for (i, reply) in s.replies.enumerated() {
            try id(reply.id, .reply(i))
            try time(reply.at, [.key("replies"), .index(i), .key("at")])
            try stretches(reply.stretches, [.key("replies"), .index(i)]) { .replyStretch(i, $0) }
        }
        for (i, u) in s.dad.enumerated() {
            try id(u.id, .utterance(i))
            try time(u.at, [.key("dad"), .index(i), .key("at")])
            try span(u.duration, [.key("dad"), .index(i), .key("duration")], positive: true)
            if let reply = u.reply {
                try id(reply.id, .dadReply(i))
                try span(reply.after, [.key("dad"), .index(i), .key("reply"), .key("after")])
                try stretches(reply.stretches, [.key("dad"), .index(i), .key("reply")]) { .dadReplyStretch(i, $0) }
            }
        }
        try oneVoice()
        if let road = s.road {
            for (i, m) in road.maneuvers.enumerated() { try id(m.id, .maneuver(i)) }
            for (c, change) in road.changes.enumerated() {
                try id(change.id, .change(c))
                for (i, m) in change.maneuvers.enumerated() { try id(m.id, .changeManeuver(c, i)) }
            }
            try generatedIDs()
            do {
                switch self.road {
                case .full: try road.validate()
                case .shapedLike(let valid): try road.validate(shapedLike: valid)
                case .shaping: roadShape = try road.validatedShape()
                }
            } catch {
                throw fail(.road(error.reason), [.key("road")] + error.path)
            }
            try sendings(road)
        }
        try matchers()
    }

    /// Every handoff sent after a stretch names one of the scenario's (Pippa's replies' or her answers to Dad).
    func sendings(_ road: Scenario.Road) throws(ScenarioProblem) {
        for (c, change) in road.changes.enumerated() {
            for (i, sending) in (change.handoff?.sent ?? []).enumerated() {
                guard let stretch = sending.stretch else { continue }
                switch ids.number(of: stretch).map({ places[$0] }) {
                case .replyStretch?, .dadReplyStretch?: continue
                default:
                    let known =
                        s.replies.flatMap { $0.stretches.map(\.id) }
                        + s.dad.flatMap { $0.reply?.stretches.map(\.id) ?? [] }
                    throw fail(
                        .unknownID(stretch, kind: .stretch, known: known),
                        [
                            .key("road"), .key("changes"), .index(c), .key("handoff"), .key("sent"), .index(i),
                            .key("after"),
                        ])
                }
            }
        }
    }

    mutating func stretches(
        _ list: [Scenario.Stretch], _ path: @autoclosure () -> [Step], _ place: (Int) -> Place
    ) throws(ScenarioProblem) {
        if list.isEmpty { throw fail(.emptyStretches, path() + [.key("stretches")]) }
        for (k, stretch) in list.enumerated() {
            try id(stretch.id, place(k))
            try span(stretch.duration, path() + [.key("stretches"), .index(k), .key("duration")], positive: true)
            try span(stretch.ready, path() + [.key("stretches"), .index(k), .key("ready")])
        }
    }

    /// Dad has one voice: intervals [at, at + duration) must not intersect
    /// (touching is fine). Sweeps in order of start, against the utterance
    /// that ends last so far, and reports the later-starting one.
    func oneVoice() throws(ScenarioProblem) {
        let dad = s.dad
        let order = dad.indices.sorted { (dad[$0].at, $0) < (dad[$1].at, $1) }
        var latest: Int? = nil
        for i in order {
            guard let l = latest else {
                latest = i
                continue
            }
            let end = dad[l].at + dad[l].duration
            if dad[i].at < end { throw fail(.overlappingUtterance(with: dad[l].id), [.key("dad"), .index(i)]) }
            if dad[i].at + dad[i].duration > end { latest = i }
        }
    }

    /// No id of the file may be one a generated line will carry: two lines
    /// (or a line and another item) would share it. The first in file order is reported.
    /// Every generated id has a dot (`<maneuver>.<stage>`, `reroute<n>.off`),
    /// so a file whose ids have none (a long drive's, as a rule) needs no list of them.
    func generatedIDs() throws(ScenarioProblem) {
        /// Whether `id` has a dot, read in place (a generic search of its UTF-8 costs ten times more).
        func hasDot(_ id: String) -> Bool {
            id.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) }
                ?? id.utf8.contains(UInt8(ascii: "."))
        }
        assert(s.generatedLineIDs.allSatisfy { hasDot($0.id) }, "a generated line id without a dot")
        var clashes: [(order: Int, id: String)] = []
        // A new route's copies of the maneuvers before its branch are `<change>/<maneuver>` (`RoadPlan.copyID`).
        if let road = s.road, !road.changes.isEmpty {
            let copies = ManeuverIDs(road)
            for i in ids.keys.indices where ids.keys[i].contains("/") && copies.clashes(ids.keys[i]) {
                clashes.append((i, ids.keys[i]))
            }
        }
        let dotted = ids.keys.indices.filter { hasDot(ids.keys[$0]) }
        guard !dotted.isEmpty || !clashes.isEmpty else { return }
        for g in s.generatedLineIDs { if let first = ids.number(of: g.id) { clashes.append((first, g.id)) } }
        for first in dotted where RoadPlan.isRerouteLineID(ids.keys[first]) { clashes.append((first, ids.keys[first])) }
        guard let first = clashes.min(by: { $0.order < $1.order }) else { return }
        throw fail(.generatedLineID(first.id), places[first.order].path)
    }

    // MARK: Matchers (SPEC 6)

    mutating func matchers() throws(ScenarioProblem) {
        guard !s.expect.isEmpty || !s.expectPippa.isEmpty else { return }
        let domains = Domains(self)
        // Each event matcher at its place in the file's `expect`, where Pippa's matchers leave room.
        let pippas = Set(s.expectPippa.map(\.index))
        var place = 0
        for matcher in s.expect {
            while pippas.contains(place) { place += 1 }
            try check(matcher, [.key("expect"), .index(place)], domains)
            place += 1
        }
        for matcher in s.expectPippa {
            let path: [Step] = [.key("expect"), .index(matcher.index)]
            try time(matcher.at, path + [.key("at")])
            // Without a road nothing reports to her: the matcher would name nothing real.
            if s.road == nil { throw fail(.pippaWithoutRoad, path + [.key("pippa")]) }
            try check(fields: matcher.fields, tests: matcher.tests, of: .roadReportSent, path, domains)
        }
    }

    /// One matcher, and the matchers of its `since` and `until` (which take none of their own).
    func check(_ matcher: Matcher, _ path: [Step], _ domains: Domains, inner: Bool = false) throws(ScenarioProblem) {
        switch matcher.when {
        case .anywhere: break
        case .at(let t): try time(t, path + [.key("at")])
        case .between(let a, let b):
            try time(a, path + [.key("between"), .index(0)])
            try time(b, path + [.key("between"), .index(1)])
            if a > b { throw fail(.reversedWindow, path + [.key("between")]) }
        }
        if inner {
            // The first event it finds is all that counts: nothing nests, nothing is counted.
            for (key, present) in [
                ("since", matcher.since != nil), ("until", matcher.until != nil), ("within", matcher.within != nil),
                ("count", matcher.count != nil || matcher.countRange != nil),
            ] where present {
                throw fail(.notInAnchor(key), path + [.key(key)])
            }
        }
        if let n = matcher.count, n < 0 { throw fail(.negative, path + [.key("count")]) }
        if let range = matcher.countRange {
            if matcher.count != nil { throw fail(.testedTwice("count"), path + [.key("count")]) }
            try bounds(range, path + [.key("count")], nonNegative: true)
        }
        try check(fields: matcher.fields, tests: matcher.tests, of: matcher.event, path, domains)
        if let within = matcher.within {
            if matcher.since == nil && !inner { throw fail(.withinWithoutSince, path + [.key("within")]) }
            try span(within, path + [.key("within")])
        }
        if !inner {
            if let since = matcher.since { try check(since, path + [.key("since")], domains, inner: true) }
            if let until = matcher.until { try check(until, path + [.key("until")], domains, inner: true) }
        }
    }

    /// A matcher's fields, as `event` carries them: each named once, of its
    /// type, an id naming an item of the scenario, a test well formed.
    func check(
        fields: [(field: Field, value: FieldValue)], tests: [(field: Field, test: FieldTest)], of event: EventKind,
        _ path: [Step], _ domains: Domains
    ) throws(ScenarioProblem) {
        var named = Set<Field>()
        for (field, value) in fields {
            let fPath = path + [.key(field.rawValue)]
            guard event.fields.contains(field) else { throw fail(.fieldNotCarried(field, event: event), fPath) }
            if !named.insert(field).inserted { throw fail(.testedTwice(field.rawValue), fPath) }
            switch (field.type, value) {
            case (.string, .string(let text)): try domains.check(text, field, event, fPath)
            case (.int, .int), (.bool, .bool): break
            default: throw fail(.wrongType(field.type), fPath)
            }
        }
        for (field, test) in tests {
            let fPath = path + [.key(field.rawValue)]
            guard event.fields.contains(field) else { throw fail(.fieldNotCarried(field, event: event), fPath) }
            if !named.insert(field).inserted { throw fail(.testedTwice(field.rawValue), fPath) }
            switch (field.type, test) {
            case (.string, .contains(let text)):
                if text.isEmpty { throw fail(.emptyString, fPath + [.key("contains")]) }
            case (.string, .matches(let pattern)):
                if pattern.isEmpty { throw fail(.emptyString, fPath + [.key("matches")]) }
                if let problem = TextPattern.problem(in: pattern) {
                    throw fail(.invalidPattern(problem), fPath + [.key("matches")])
                }
            case (.int, .range(let range)): try bounds(range, fPath, nonNegative: false)
            default: throw fail(.wrongType(field.type), fPath)
            }
        }
    }

    /// A range: at least one bound, `min <= max`, and (for a count) neither below zero.
    func bounds(_ range: Bounds, _ path: [Step], nonNegative: Bool) throws(ScenarioProblem) {
        if range.min == nil && range.max == nil { throw fail(.emptyRange, path) }
        if nonNegative {
            if let a = range.min, a < 0 { throw fail(.negative, path + [.key("min")]) }
            if let b = range.max, b < 0 { throw fail(.negative, path + [.key("max")]) }
        }
        if let a = range.min, let b = range.max, a > b { throw fail(.reversedRange, path) }
    }
}

/// What each matcher field may name in one scenario.
private struct Domains {
    typealias Step = JSONPath.Step
    struct IDs {
        let list: [String]
        let set: Set<String>
        init(_ list: [String]) {
            self.list = list
            set = Set(list)
        }
    }
    let lines: IDs, replies: IDs, stretches: IDs, utterances: IDs, by: IDs
    /// A guidance line's maneuver: the file's, the route's, and `reroute` with a road.
    let lineManeuvers: IDs
    /// A road event's maneuver: the route's.
    let roadManeuvers: IDs
    /// The road's changes, and those with a handoff.
    let changes: IDs, handoffs: IDs
    let hasRoad: Bool
    /// The road's maneuvers and the copies a new route may make of them (`ManeuverIDs`), with changes.
    let copies: ManeuverIDs?

    init(_ v: Validation) {
        let s = v.s
        hasRoad = s.road != nil
        copies = s.road.flatMap { $0.changes.isEmpty ? nil : ManeuverIDs($0) }
        let generated = s.generatedLineIDs.map(\.id)
        // Each kind's ids in file order (Dad's replies and their stretches after Pippa's).
        let fileLines = s.guidance.map(\.id)
        let dadReplies = s.dad.compactMap(\.reply)
        let fileUtterances = s.dad.map(\.id)
        let roadManeuvers = s.road?.everyManeuver.map(\.id) ?? []
        changes = IDs(s.road?.changes.map(\.id) ?? [])
        handoffs = IDs(s.road?.changes.filter { $0.handoff != nil }.map(\.id) ?? [])
        lines = IDs(fileLines + generated)
        replies = IDs(s.replies.map(\.id) + dadReplies.map(\.id))
        stretches = IDs(s.replies.flatMap { $0.stretches.map(\.id) } + dadReplies.flatMap { $0.stretches.map(\.id) })
        utterances = IDs(fileUtterances)
        by = IDs(fileLines + generated + fileUtterances)
        var seen = Set<String>()
        let fileManeuvers = s.guidance.compactMap(\.maneuver)
        let maneuvers = (fileManeuvers + roadManeuvers + (hasRoad ? ["reroute"] : [])).filter {
            seen.insert($0).inserted
        }
        lineManeuvers = IDs(maneuvers)
        self.roadManeuvers = IDs(roadManeuvers)
    }

    func check(_ value: String, _ field: Field, _ event: EventKind, _ path: [Step]) throws(ScenarioProblem) {
        func id(_ ids: IDs, _ kind: ScenarioProblem.IDKind, reroute: Bool = false, copy: Bool = false)
            throws(ScenarioProblem)
        {
            if ids.set.contains(value) || (reroute && hasRoad && RoadPlan.isRerouteLineID(value)) { return }
            // A copy a new route makes of a maneuver before its branch, and its lines (`RoadPlan.copyID`).
            if copy, let copies, reroute ? copies.isCopyLine(value) : copies.isCopy(value) { return }
            throw ScenarioProblem(.unknownID(value, kind: kind, known: ids.list), at: path)
        }
        func oneOf(_ allowed: [String]) throws(ScenarioProblem) {
            if !allowed.contains(value) { throw ScenarioProblem(.unknownValue(value, allowed: allowed), at: path) }
        }
        switch field {
        case .line: try id(lines, .line, reroute: true, copy: true)
        case .reply: try id(replies, .reply)
        case .stretch: try id(stretches, .stretch)
        case .utterance: try id(utterances, .utterance)
        case .by: try id(by, .lineOrUtterance, reroute: true, copy: true)
        case .maneuver: try id(event == .guidanceRequested ? lineManeuvers : roadManeuvers, .maneuver, copy: true)
        case .after: try id(roadManeuvers, .maneuver, copy: true)
        case .fix:
            if !(hasRoad && Scenario.isFixID(value)) {
                throw ScenarioProblem(.unknownID(value, kind: .fix, known: []), at: path)
            }
        case .rule: try oneOf(Domains.rules(of: event).map(\.rawValue))
        case .reason: try oneOf(Domains.reasons(of: event))
        case .stage: try oneOf(Stage.allCases.map(\.rawValue))
        case .language: try oneOf(Language.allCases.map(\.rawValue))
        case .afterCut: try oneOf(TalkArbiter.AfterCut.allCases.map(\.rawValue))
        case .turn: try oneOf(Turn.allCases.map(\.rawValue))
        case .reporter: try oneOf([LocationLink.reporter])
        case .route: try id(changes, .change)
        case .request: try oneOf(RoadEvent.RouteReason.allCases.map(\.rawValue))
        case .handoff: try id(handoffs, .handoff)
        case .text: return
        case .urgent, .heldMs, .playedMs, .heardMs, .lostMs, .ageMs, .trusted, .onRoute, .distanceM, .offsetM,
            .progressM,
            .etaMs, .afterDistanceM:
            return  // not strings; the type was checked
        }
    }

    /// The rules an event of `kind` can carry (SPEC 5 and docs/timeline.md), in the SPEC's order.
    static func rules(of kind: EventKind) -> [Rule] {
        switch kind {
        case .guidanceWaiting: return TalkArbiter.WaitRule.allCases.map(\.rule)
        case .guidanceDropped: return TalkArbiter.DropRule.allCases.map(\.rule)
        case .replyQueued: return [.replyQueue]
        case .stretchStarted: return [.held]
        case .stretchCut: return TalkArbiter.CutRule.allCases.map(\.rule)
        case .replyAbandoned: return TalkArbiter.AbandonRule.allCases.map(\.rule)
        case .earsClosed: return [.earsClosed]
        default: return []
        }
    }

    /// The reasons an event of `kind` can carry (docs/timeline.md: the road part, and `guidance.dropped`'s extra).
    static func reasons(of kind: EventKind) -> [String] {
        switch kind {
        case .roadFixDropped: return RoadEvent.FixDropReason.allCases.map(\.rawValue)
        case .roadReportDropped: return LocationLink.DropReason.allCases.map(\.rawValue)
        case .roadTurnUnannounced: return RoadEvent.UnannouncedReason.allCases.map(\.rawValue)
        case .roadStageSkipped, .roadSwitchSkipped: return SkipReason.allCases.map(\.rawValue)
        case .guidanceDropped: return LineDropReason.allCases.map(\.rawValue)
        case .roadMeasuringPaused: return RoadEvent.PauseReason.allCases.map(\.rawValue)
        case .roadRouteRequested, .roadRouteSwitched: return RoadEvent.RouteReason.allCases.map(\.rawValue)
        case .roadRouteFailed: return RoadEvent.RouteFailure.allCases.map(\.rawValue)
        case .roadHandoffIgnored: return RoadEvent.HandoffIgnoredReason.allCases.map(\.rawValue)
        default: return []
        }
    }
}

/// The ids of one scenario, numbered in the order they were inserted: an
/// open-addressing table over a cheap hash of the id's bytes, sized once, so
/// a long drive's ids cost one probe each and nothing depends on hash order.
private struct IDTable {
    /// The ids, by number.
    private(set) var keys: [String] = []
    /// Each slot: an id's number + 1, or 0 for empty.
    private var slots: [Int32]
    private var mask: Int

    /// A table for about `capacity` ids (it grows past them).
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        mask = size - 1
        keys.reserveCapacity(capacity)
    }

    /// FNV-1a over the UTF-8 bytes (read in place: a native string's are
    /// contiguous), with a final mix for the low bits.
    private static func hash(_ s: String) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var s = s
        s.withUTF8 { for byte in $0 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 } }
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }

    /// The number of `id`, if it is in the table.
    func number(of id: String) -> Int? {
        var i = IDTable.hash(id) & mask
        while slots[i] != 0 {
            let n = Int(slots[i]) - 1
            if keys[n] == id { return n }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Adds `id` with the next number; if it is already there, leaves the
    /// table as it is and returns the number it has.
    mutating func insert(_ id: String) -> Int? {
        if keys.count * 2 >= slots.count { grow() }
        var i = IDTable.hash(id) & mask
        while slots[i] != 0 {
            let n = Int(slots[i]) - 1
            if keys[n] == id { return n }
            i = (i + 1) & mask
        }
        keys.append(id)
        slots[i] = Int32(truncatingIfNeeded: keys.count)
        return nil
    }

    private mutating func grow() {
        let old = keys
        self = IDTable(capacity: max(16, old.count * 2))
        for key in old { _ = insert(key) }
    }
}
