import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// A guidance engine in another process (`--guidance "COMMAND"`), spoken to
/// in line-delimited JSON (docs/test-your-guidance.md) through a
/// `LineChannel` (the child process, its framing, its timeout and its
/// failures), with a hello of its own (`guidance` 3, 2 or 1). One process
/// serves every plan: a `route` message starts each.
package final class GuidanceProcess: @unchecked Sendable {
    /// The newest guidance protocol version this drivesim speaks.
    package static let protocolVersion = 3
    /// The oldest it still speaks: version 1 (a route of four keys a
    /// maneuver, no `unannounced` question, no revisions).
    package static let oldestVersion = 1
    /// The version the process answered its hello with.
    package var version: Int { channel.version }
    /// The line channel.
    package let channel: LineChannel
    /// The command, run with `/bin/sh -c`.
    package var command: String { channel.command }
    /// Where the current check's first failure happened: the span (or route) it answered.
    package private(set) var failedAt: SimTime?
    /// How many `span` messages were answered (for rates).
    package private(set) var spans = 0

    package init(command: String, timeoutMs: Int) {
        channel = LineChannel(
            command: command, timeoutMs: timeoutMs, hello: ("guidance", Self.protocolVersion),
            oldest: Self.oldestVersion)
    }

    /// How runs plan their road with this process's guidance.
    package var planning: RoadPlanning {
        RoadPlanning.guidance { [self] route in ExternalGuidance(route, process: self) }
    }

    /// A new plan: the process again if an earlier failure ended it, then the
    /// route. One given up (it hung) is not asked again: the plan fails, saying so.
    package func begin(_ route: GuidanceRoute) -> Bool {
        (channel.restart() && channel.tell(Self.encode(route, version: version))) || fail(at: .zero, nil)
    }

    /// A question's message (`switching`, `unannounced`) and its answer;
    /// nil (the failure recorded) if the process failed. An answer that is
    /// no JSON object fails the plan but keeps the process: it answered in
    /// step, so the next plan is not paid a restart.
    package func ask(_ message: String, at t: SimTime) -> JSONValue? {
        guard channel.alive else { return nil }
        spans += 1
        guard let answer = channel.ask(message, keepingProcess: true) else {
            _ = fail(at: t, nil)
            return nil
        }
        return answer
    }

    /// Span messages at once, each with the time of its span, and their
    /// answers in order, as many as the process answered before it failed
    /// (the failure recorded at the first span left unanswered). A line that
    /// is not a JSON object fails there too, but the process is kept: it
    /// answered in step.
    package func askAll(_ spans: [(message: String, from: SimTime)]) -> [JSONValue] {
        guard channel.alive, !spans.isEmpty else { return [] }
        self.spans += spans.count
        let lines = channel.askAll(spans.map(\.message))
        var answers: [JSONValue] = []
        answers.reserveCapacity(lines.count)
        for line in lines {
            guard let answer = channel.parse(line, keepingProcess: true) else { break }
            answers.append(answer)
        }
        if answers.count < spans.count { _ = fail(at: spans[answers.count].from, nil) }
        return answers
    }

    /// Records a failure at `t` (the channel's own when `failure` is nil) and
    /// ends the process, unless `keepingProcess` (it answered in step: the
    /// next plan's `route` starts afresh, with no restart to pay); false.
    @discardableResult
    package func fail(at t: SimTime, _ failure: ProcessFailure?, keepingProcess: Bool = false) -> Bool {
        if let failure { channel.fail(failure, keepingProcess: keepingProcess) }
        if failedAt == nil { failedAt = t }
        return false
    }

    /// `verdict` with the process's failure, if a plan had one, in place of what
    /// the run found from then on (`Check.guidance(.process)`).
    package func adding(failureTo verdict: Verdict) -> Verdict {
        let at = failedAt
        failedAt = nil
        guard let failure = channel.takeFailure() else { return verdict }
        var verdict = verdict
        verdict.recordProcessFailure(
            at: at ?? .zero, "the guidance process failed: \(failure)", check: .guidance(.process))
        return verdict
    }

    /// The verdict of a run of `scenario` over this guidance: its process's
    /// failure added, and, when the scenario has a road, its expectations not
    /// judged: they pin drivesim's own guidance (its line ids, words and
    /// times); the checks judge any guidance. A scenario without a road asks
    /// the guidance nothing: its expectations are judged as without it.
    package func judging(_ verdict: Verdict, of scenario: Scenario) -> Verdict {
        var verdict = adding(failureTo: verdict)
        if scenario.road != nil {
            verdict.failures = []
            verdict.pippaFailures = []
        }
        return verdict
    }

    /// The options of `drivesim run` that use this guidance again, quoted for a POSIX shell.
    package var replayOptions: String {
        " --guidance \(shellQuoted(replayable(command)))"
            + (channel.timeoutMs == 5000 ? "" : " --guidance-timeout \(channel.timeoutMs / 1000)")
    }

    /// The `route` message: the maneuvers, the settings and the segments.
    /// Version 2 adds each maneuver's every detail (a key the scenario format
    /// has, null when not given) and the settings `thenWithin`,
    /// `thenSeconds` and `horizon`; version 1 gets its four keys a maneuver.
    package static func encode(_ route: GuidanceRoute, version: Int = protocolVersion) -> String {
        let s = route.settings
        func lead(_ l: StageLead) -> JSONValue {
            .object([("growth", number(l.growth)), ("minimum", number(l.minimum)), ("seconds", number(l.seconds))])
        }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let maneuvers = route.maneuvers.map { m -> JSONValue in
            var keys: [(String, JSONValue)] = [
                ("distance", number(m.distance)), ("id", .string(m.id)), ("street", text(m.street)),
                ("turn", .string(m.turn.rawValue)),
            ]
            if version >= 2 {
                let d = m.details
                keys += [
                    ("exit", d.exit.map { .integer(Int64($0)) } ?? .null), ("name", text(d.exitName)),
                    ("ref", text(d.exitNumber)),
                    ("side", text(d.side?.rawValue)), ("toward", text(d.toward)), ("uTurn", .bool(d.uTurn)),
                    ("waypoint", d.waypoint.map { .integer(Int64($0)) } ?? .null),
                ]
            }
            return .object(keys)
        }
        let segments =
            route.segments.map { .array($0.map { .array([.integer($0.start.ms), .integer($0.end.ms)]) }) }
            ?? JSONValue.null
        var keys: [(String, JSONValue)] = [
            ("type", .string("route")), ("language", .string(s.language.rawValue)),
            ("units", .string(s.spokenUnits.rawValue)),
            ("length", number(route.length)), ("outputLatency", .integer(s.outputLatency.ms)),
            ("margin", .integer(s.margin.ms)),
            (
                "rates",
                .object([
                    ("en", number(s.rates.englishWordsPerSecond)), ("ko", number(s.rates.koreanSyllablesPerSecond)),
                ])
            ),
            ("leads", .object([("far", lead(s.far)), ("near", lead(s.near)), ("now", lead(s.now))])),
            ("maneuvers", .array(maneuvers)), ("segments", segments),
        ]
        if version >= 2 {
            keys += [
                ("thenWithin", number(s.thenWithin)), ("thenSeconds", number(s.thenSeconds)),
                ("horizon", .integer(route.horizon.ms)),
            ]
        }
        if version >= 3 {
            // The change this route comes from: null at the plan's start.
            keys.append(
                (
                    "change",
                    route.change.map { c in
                        .object([
                            ("at", .integer(c.at.ms)), ("destination", text(c.destination)),
                            ("handoff", .bool(c.handoff)), ("id", .string(c.id)),
                        ])
                    } ?? .null
                ))
        }
        return line(.object(keys))
    }

    /// A finite double as JSON (the shortest text that reads back the same; never NaN or infinite here).
    package static func number(_ x: Double) -> JSONValue { .number(x.isFinite ? "\(x)" : "0") }

    /// A message as one line of JSON (`JSONWriter`'s, keys sorted).
    package static func line(_ message: JSONValue) -> String {
        String(decoding: JSONWriter.bytes(message, pretty: false), as: UTF8.self)
    }
}
