import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// The `Guidance` conformer that asks a `GuidanceProcess` span by span,
/// validating every answer: a line it cannot speak is the process's failure.
package struct ExternalGuidance: Guidance {
    package let process: GuidanceProcess
    /// Sends a message (for the span from the time given) and returns its
    /// answer, nil if the process failed: the process's own exchange, or
    /// (the libFuzzer target) answers read from elsewhere.
    package let ask: @Sendable (String, SimTime) -> JSONValue?
    /// Sends span messages at once and returns their answers, in order, as
    /// far as there are any (`GuidanceProcess.askAll`).
    package let askAll: @Sendable ([(message: String, from: SimTime)]) -> [JSONValue]
    /// The spans asked about and not yet answered: their messages are sent
    /// in one batch (at `batchLimit` of them, or when the planner settles),
    /// as their words depend on the fixes alone, never on an answer.
    package var pending: [(message: String, from: SimTime, until: SimTime)] = []
    /// The most spans held back before they are sent.
    package static let batchLimit = 1024
    package let route: GuidanceRoute
    package var segmentEnd: SimTime? = nil
    package var nowSpoken: [Bool]
    package var thenSpoken: [Bool]
    /// Per maneuver, why the guidance skipped its "now" stage, if it did
    /// (`late`, or `not-guiding`: it could not end within the segment).
    package var nowSkipped: [RoadEvent.UnannouncedReason?]
    /// The fixes that arrived since the last span, as the next span's `fixes`.
    package var fixes: [JSONValue] = []
    /// Every line asked for in this plan, by id: when, and in which language.
    package var asked: [String: (at: SimTime, language: Language)] = [:]
    /// The first maneuver not yet believed passed.
    package var next = 0
    /// Whether the process failed (or the route could not be sent): the rest of the road is silent.
    package var failed: Bool

    package init(_ route: GuidanceRoute, process: GuidanceProcess) {
        self.init(route, process: process, answers: process.ask, all: process.askAll)
        failed = !process.begin(route)
    }

    /// A guidance whose answers come from `answers`, not from a process
    /// (which is not started: it only records failures): the libFuzzer
    /// target's, Fuzz/libfuzzer/FuzzGuidance.swift.
    package init(
        _ route: GuidanceRoute, process: GuidanceProcess, answers: @escaping @Sendable (String, SimTime) -> JSONValue?,
        all: (@Sendable ([(message: String, from: SimTime)]) -> [JSONValue])? = nil
    ) {
        self.process = process
        self.route = route
        ask = answers
        askAll =
            all ?? { spans in
                var out: [JSONValue] = []
                for (message, from) in spans {
                    guard let answer = answers(message, from) else { break }
                    out.append(answer)
                }
                return out
            }
        nowSpoken = Array(repeating: false, count: route.maneuvers.count)
        thenSpoken = nowSpoken
        nowSkipped = Array(repeating: nil, count: route.maneuvers.count)
        failed = false
    }

    package mutating func fixArrived(_ fix: Fix, state: RoadState?, onRoute: Bool) {
        fixes.append(
            .object([
                ("accuracy", GuidanceProcess.number(fix.accuracy)), ("arrived", .integer(fix.arrives.ms)),
                ("index", .integer(fix.index)),
                ("moved", .bool(state != nil)), ("onRoute", .bool(onRoute)),
                ("speed", fix.speed.map(GuidanceProcess.number) ?? .null),
                ("taken", .integer(fix.taken.ms)),
            ]))
    }

    package func rerouteLine(at t: SimTime, back: Bool) -> GuidanceLine? { nil }

    /// The switch line (version 3), asked as drivesim's own guidance is:
    /// `{"type": "switching", "change": id, "at": t}` right after the new
    /// route's `route` message, answered `{"type": "switching", "line": null
    /// | {"id", "text", "duration", "urgent", "expires", "language"}}`.
    package mutating func lineSwitching(to change: String, handoff: Bool, destination: String?, at t: SimTime)
        -> GuidanceLine?
    {
        guard !failed, process.version >= 3 else { return nil }
        let message = GuidanceProcess.line(
            .object([("at", .integer(t.ms)), ("change", .string(change)), ("type", .string("switching"))]))
        guard let answer = ask(message, t) else {
            failed = true
            return nil
        }
        switch switchLine(answer, at: t) {
        case .success(let line): return line
        case .failure(let problem):
            failed = true
            process.fail(at: t, .switching(at: t, problem), keepingProcess: true)
            return nil
        }
    }

    /// A `switching` answer's line, validated as a span's lines are (its `at` is the switch's).
    package mutating func switchLine(_ answer: JSONValue, at t: SimTime) -> Result<GuidanceLine?, Problem> {
        guard answer["type"]?.text == "switching" else {
            return .failure(Problem(path: "type", why: "expected \"switching\""))
        }
        guard let o = answer["line"], o.kind != .null else { return .success(nil) }
        guard case .object = o.kind else { return .failure(Problem(path: "line", why: "expected null or an object")) }
        switch lineFields(o, "line", at: t, urgent: true, after: "the switch") {
        case .failure(let problem): return .failure(problem)
        case .success(let f):
            asked[f.id] = (t, f.language)
            return .success(
                GuidanceLine(
                    id: f.id, at: t, duration: f.duration, urgent: f.urgent, text: f.text, language: f.language,
                    maneuver: "reroute", expires: f.expires))
        }
    }

    /// Why maneuver `m` got no "now" line: what the answers said (a `then`
    /// line, a `late` skip), else (version 2) what the process answers when
    /// asked, as drivesim's own guidance is: `{"type": "unannounced",
    /// "maneuver": m}`, answered `{"type": "unannounced", "reason": "late" |
    /// "then" | null}`.
    package func unannounced(_ m: Int) -> RoadEvent.UnannouncedReason? {
        if thenSpoken[m] { return .then }
        if let reason = nowSkipped[m] { return reason }
        guard !failed, process.version >= 2 else { return nil }
        let message = GuidanceProcess.line(
            .object([("type", .string("unannounced")), ("maneuver", .integer(Int64(m)))]))
        guard let answer = ask(message, .zero) else { return nil }
        guard answer["type"]?.text == "unannounced" else {
            process.fail(at: .zero, .unannouncedOther(maneuver: m), keepingProcess: true)
            return nil
        }
        guard let value = answer["reason"], value.kind != .null else { return nil }
        guard let name = value.text, let reason = RoadEvent.UnannouncedReason(rawValue: name),
            reason == .late || reason == .then
        else {
            process.fail(at: .zero, .unannouncedReason(maneuver: m), keepingProcess: true)
            return nil
        }
        return reason
    }

    package mutating func announce(_ state: RoadState, from: SimTime, until: SimTime, into out: inout [Announcement]) {
        // Maneuvers believed passed in the span, at the instant the prediction crosses them.
        let maneuvers = route.maneuvers
        while next < maneuvers.count, maneuvers[next].distance <= state.progress(at: until - SimTime(ms: 1)) {
            let left = maneuvers[next].distance - state.progress(at: from)
            let after = left > 0 && state.speed > 0 ? Int64((left / state.speed * 1000).rounded(.up)) : 0
            out.append(.passed(maneuver: next, at: from + SimTime(ms: min(after, (until - from).ms - 1))))
            next += 1
        }
        guard !failed else { return }
        let message = GuidanceProcess.line(
            .object([
                ("type", .string("span")), ("from", .integer(from.ms)), ("until", .integer(until.ms)),
                (
                    "state",
                    .object([
                        ("progress", GuidanceProcess.number(state.progress)),
                        ("speed", GuidanceProcess.number(state.speed)),
                        ("taken", .integer(state.taken.ms)),
                    ])
                ),
                ("segmentEnd", segmentEnd.map { .integer($0.ms) } ?? .null), ("fixes", .array(fixes)),
            ]))
        fixes.removeAll(keepingCapacity: true)
        pending.append((message, from, until))
        if pending.count >= Self.batchLimit { settle(into: &out) }
    }

    /// Sends the spans held back and reads their answers, in order: each
    /// validated as if it had been asked alone. From the first that fails
    /// (unanswered, or what cannot be spoken) the rest of the road is silent.
    package mutating func settle(into out: inout [Announcement]) {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        let answers = askAll(pending.map { ($0.message, $0.from) })
        for (k, span) in pending.enumerated() {
            guard k < answers.count else {
                failed = true
                return
            }
            switch read(answers[k], from: span.from, until: span.until) {
            case .success(let said): out.append(contentsOf: said)
            case .failure(let problem):
                failed = true
                process.fail(at: span.from, .span(from: span.from, problem), keepingProcess: true)
                return
            }
        }
    }

    /// Key `key` of `o`, nil when absent or null, else a whole number in `range` (its path under `path`).
    static func integer(_ o: JSONValue, _ key: String, _ path: String, in range: ClosedRange<Int64>) -> Result<
        Int64?, Problem
    > {
        guard let value = o[key], value.kind != .null else { return .success(nil) }
        guard case .number(let literal) = value.kind, let n = Int64(literal), range.contains(n) else {
            return .failure(
                Problem(
                    path: "\(path).\(key)",
                    why: "expected a whole number from \(range.lowerBound) to \(range.upperBound)"))
        }
        return .success(n)
    }

    /// What every answered line says, validated.
    typealias LineFields = (
        id: String, text: String, language: Language, urgent: Bool, duration: SimTime, expires: SimTime?
    )

    /// The fields of line `o` (at `path` in the answer) requested at `t`:
    /// a new id, the words, the language (default: the route's), `urgent`
    /// (default: `byDefault`), the duration (default: estimated from the
    /// words; ending by 24 h) and the expiry (later than `t`, which `after`
    /// names in a refusal).
    func lineFields(_ o: JSONValue, _ path: String, at t: SimTime, urgent byDefault: Bool, after: String) -> Result<
        LineFields, Problem
    > {
        guard let id = o["id"]?.text, !id.isEmpty, id.count <= 200 else {
            return .failure(Problem(path: "\(path).id", why: "expected a line id of 1 to 200 characters"))
        }
        guard asked[id] == nil else {
            return .failure(Problem(path: "\(path).id", why: "'\(id)' was asked for before: ids are unique"))
        }
        guard let text = o["text"]?.text, !text.isEmpty, text.count <= 1000 else {
            return .failure(Problem(path: "\(path).text", why: "expected the words, 1 to 1000 characters"))
        }
        var language = route.settings.language
        if let value = o["language"], value.kind != .null {
            guard let name = value.text, let l = Language(rawValue: name) else {
                return .failure(Problem(path: "\(path).language", why: "expected \"en\" or \"ko\""))
            }
            language = l
        }
        var urgent = byDefault
        if let value = o["urgent"], value.kind != .null {
            guard let b = value.boolean else {
                return .failure(Problem(path: "\(path).urgent", why: "expected true or false"))
            }
            urgent = b
        }
        let duration: SimTime
        switch Self.integer(o, "duration", path, in: 1...3_600_000) {
        case .failure(let p): return .failure(p)
        case .success(let ms):
            duration =
                ms.map { SimTime(ms: $0) } ?? SpeechDuration.estimate(text, language, rates: route.settings.rates)
        }
        guard t + duration <= RoadPlan.end else {
            return .failure(
                Problem(
                    path: "\(path).duration",
                    why:
                        "the line would end at \((t + duration).ms) ms, after the drive's end at 24 h (\(RoadPlan.end.ms) ms)"
                ))
        }
        // `t` is in a span or at a switch, both by 24 h: the range is never empty.
        switch Self.integer(o, "expires", path, in: (t.ms + 1)...max(t.ms + 1, RoadPlan.end.ms)) {
        case .failure:
            return .failure(
                Problem(
                    path: "\(path).expires",
                    why: "expected null or a time later than \(after) (\(t.ms) ms), within 24 h"))
        case .success(let ms): return .success((id, text, language, urgent, duration, ms.map { SimTime(ms: $0) }))
        }
    }

    /// Why an answer cannot be spoken: the path inside it and the reason.
    package struct Problem: Error, Equatable {
        var path: String
        var why: String
        var reason: String { "\(path): \(why)" }
    }

    /// The lines and skips of a `lines` answer, validated (SPEC 3's rules for a line, and the span's).
    package mutating func read(_ answer: JSONValue, from: SimTime, until: SimTime) -> Result<[Announcement], Problem> {
        guard answer["type"]?.text == "lines" else { return .failure(Problem(path: "type", why: "expected \"lines\"")) }
        var out: [Announcement] = []
        let count = route.maneuvers.count
        func list(_ key: String) -> Result<[JSONValue], Problem> {
            guard let value = answer[key] else { return .success([]) }
            guard case .array(let items) = value.kind else {
                return .failure(Problem(path: key, why: "expected a list"))
            }
            return .success(items)
        }
        func common(_ o: JSONValue, _ path: String) -> Result<(m: Int, stage: Stage, at: SimTime), Problem> {
            guard case .object = o.kind else { return .failure(Problem(path: path, why: "expected an object")) }
            guard case .success(let m?) = Self.integer(o, "maneuver", path, in: 0...Int64(max(0, count - 1))), count > 0
            else {
                return .failure(
                    Problem(path: "\(path).maneuver", why: "expected a maneuver's index, 0 to \(count - 1)"))
            }
            guard let name = o["stage"]?.text, let stage = Stage(rawValue: name) else {
                return .failure(Problem(path: "\(path).stage", why: "expected \"far\", \"near\" or \"now\""))
            }
            guard case .success(let at?) = Self.integer(o, "at", path, in: from.ms...(until.ms - 1)) else {
                return .failure(
                    Problem(path: "\(path).at", why: "expected a time in the span, \(from.ms) to \(until.ms - 1) ms"))
            }
            return .success((Int(m), stage, SimTime(ms: at)))
        }
        /// The list under `key`, each item with its path and its maneuver, stage and time checked.
        func entries(_ key: String) -> Result<
            [(o: JSONValue, path: String, base: (m: Int, stage: Stage, at: SimTime))], Problem
        > {
            list(key).flatMap { items in
                var out: [(o: JSONValue, path: String, base: (m: Int, stage: Stage, at: SimTime))] = []
                for (i, o) in items.enumerated() {
                    switch common(o, "\(key)[\(i)]") {
                    case .failure(let problem): return .failure(problem)
                    case .success(let base): out.append((o, "\(key)[\(i)]", base))
                    }
                }
                return .success(out)
            }
        }
        switch entries("skipped") {
        case .failure(let problem): return .failure(problem)
        case .success(let items):
            for (o, path, base) in items {
                guard let name = o["reason"]?.text, let reason = SkipReason(rawValue: name) else {
                    return .failure(
                        Problem(
                            path: "\(path).reason",
                            why:
                                "expected one of \(SkipReason.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
                        ))
                }
                if base.stage == .now && reason == .late { nowSkipped[base.m] = .late }
                if base.stage == .now && reason == .notGuiding { nowSkipped[base.m] = .notGuiding }
                out.append(.skipped(maneuver: base.m, stage: base.stage, reason: reason, at: base.at))
            }
        }
        switch entries("lines") {
        case .failure(let problem): return .failure(problem)
        case .success(let items):
            for (o, path, base) in items {
                let f: LineFields
                switch lineFields(o, path, at: base.at, urgent: base.stage == .now, after: "'at'") {
                case .failure(let problem): return .failure(problem)
                case .success(let fields): f = fields
                }
                switch Self.integer(o, "then", path, in: Int64(base.m + 1)...Int64(base.m + 1)) {
                case .failure where base.m + 1 >= count:
                    return .failure(
                        Problem(
                            path: "\(path).then",
                            why: "maneuver \(base.m) is the last: there is no next maneuver to announce"))
                case .failure:
                    return .failure(
                        Problem(path: "\(path).then", why: "expected null or the next maneuver's index, \(base.m + 1)"))
                case .success(nil): break
                case .success(let then?):
                    guard Int(then) < count else {
                        return .failure(
                            Problem(
                                path: "\(path).then",
                                why: "maneuver \(base.m) is the last: there is no next maneuver to announce"))
                    }
                    guard base.stage == .now else {
                        return .failure(
                            Problem(
                                path: "\(path).then", why: "only a \"now\" line announces the next maneuver with it"))
                    }
                    thenSpoken[Int(then)] = true
                }
                asked[f.id] = (base.at, f.language)
                if base.stage == .now { nowSpoken[base.m] = true }
                let line = GuidanceLine(
                    id: f.id, at: base.at, duration: f.duration, urgent: f.urgent, text: f.text, language: f.language,
                    maneuver: route.maneuvers[base.m].id, expires: f.expires)
                out.append(.line(line, maneuver: base.m, stage: base.stage))
            }
        }
        guard process.version >= 2 else { return .success(out) }
        switch list("revised") {
        case .failure(let problem): return .failure(problem)
        case .success(let items):
            for (i, o) in items.enumerated() {
                switch revision(o, "revised[\(i)]", from: from) {
                case .failure(let problem): return .failure(problem)
                case .success(let revised): out.append(revised)
                }
            }
        }
        return .success(out)
    }

    /// A `revised` entry (version 2): a line asked for in an earlier span,
    /// from `from` on (if it still waits) withdrawn, or saying new words,
    /// or expiring earlier.
    package func revision(_ o: JSONValue, _ path: String, from: SimTime) -> Result<Announcement, Problem> {
        guard case .object = o.kind else { return .failure(Problem(path: path, why: "expected an object")) }
        guard let id = o["id"]?.text, let line = asked[id], line.at < from else {
            return .failure(Problem(path: "\(path).id", why: "expected the id of a line asked for in an earlier span"))
        }
        if let value = o["withdrawn"], value.kind != .null {
            guard let withdrawn = value.boolean else {
                return .failure(Problem(path: "\(path).withdrawn", why: "expected true or false"))
            }
            if withdrawn {
                guard o["text"] == nil, o["expires"] == nil else {
                    return .failure(
                        Problem(path: "\(path).withdrawn", why: "a line withdrawn takes no new 'text' or 'expires'"))
                }
                return .success(.revised(line: id, at: from, revision: nil, expires: from))
            }
        }
        var words: LineRevision? = nil
        if let value = o["text"], value.kind != .null {
            guard let text = value.text, !text.isEmpty, text.count <= 1000 else {
                return .failure(Problem(path: "\(path).text", why: "expected the words, 1 to 1000 characters"))
            }
            var duration = SpeechDuration.estimate(text, line.language, rates: route.settings.rates)
            if let value = o["duration"], value.kind != .null {
                guard case .number(let literal) = value.kind, let ms = Int64(literal), (1...3_600_000).contains(ms)
                else {
                    return .failure(Problem(path: "\(path).duration", why: "expected a whole number from 1 to 3600000"))
                }
                duration = SimTime(ms: ms)
            }
            guard from + duration <= RoadPlan.end else {
                return .failure(
                    Problem(
                        path: "\(path).duration",
                        why:
                            "the line would end at \((from + duration).ms) ms, after the drive's end at 24 h (\(RoadPlan.end.ms) ms)"
                    ))
            }
            words = LineRevision(t: from, text: text, duration: duration)
        }
        var expires: SimTime? = nil
        if let value = o["expires"], value.kind != .null {
            guard case .number(let literal) = value.kind, let ms = Int64(literal),
                (from.ms...RoadPlan.end.ms).contains(ms)
            else {
                return .failure(
                    Problem(
                        path: "\(path).expires",
                        why: "expected null or a time from the span's start (\(from.ms) ms) to 24 h"))
            }
            expires = SimTime(ms: ms)
        }
        return .success(.revised(line: id, at: from, revision: words, expires: expires))
    }
}
