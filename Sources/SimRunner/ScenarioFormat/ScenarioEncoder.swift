import Guidance
import SimClock
import SimRunner

/// Writes a scenario as canonical JSON: sorted keys, two-space indent, times
/// as exact decimal seconds (2500 ms → `2.5`). Optional fields equal to their
/// defaults are left out; `drivesim` and `name` are always written.
///
/// `ScenarioDecoder.decode(ScenarioEncoder.encode(s))` gives back `s` when
/// `s` could have been decoded: each expectation's `path` is `expect[i]` and
/// its fields are sorted by name, as the decoder leaves them.
public enum ScenarioEncoder {
    /// The scenario's bytes.
    public static func encode(_ scenario: Scenario) -> [UInt8] {
        JSONWriter.bytes(value(scenario))
    }

    /// The scenario as a JSON value (keys in the writer's sorted order).
    package static func value(_ s: Scenario) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("drivesim", .integer(Scenario.formatVersion)),
            ("name", .string(s.name)),
        ]
        if let d = s.description { members.append(("description", .string(d))) }
        let settings = settings(s.settings)
        if case .object(let m) = settings.kind, !m.isEmpty { members.append(("settings", settings)) }
        if !s.guidance.isEmpty { members.append(("guidance", .array(s.guidance.map(line)))) }
        if !s.replies.isEmpty { members.append(("replies", .array(s.replies.map(reply)))) }
        if !s.dad.isEmpty { members.append(("dad", .array(s.dad.map(utterance)))) }
        if let r = s.road { members.append(("road", road(r, servicePrompts: s.servicePrompts))) }
        if !s.expect.isEmpty || !s.expectPippa.isEmpty { members.append(("expect", .array(expectations(s)))) }
        if let g = s.golden { members.append(("golden", .string(g))) }
        return .object(members)
    }

    static func seconds(_ t: SimTime) -> JSONValue { .number(Seconds.literal(milliseconds: t.ms)) }

    static func settings(_ s: Scenario.Settings) -> JSONValue {
        let defaults = Scenario.Settings()
        var members: [(key: String, value: JSONValue)] = []
        if s.earsTail != defaults.earsTail { members.append(("earsTail", seconds(s.earsTail))) }
        if s.waitLimit != defaults.waitLimit { members.append(("waitLimit", seconds(s.waitLimit))) }
        if s.afterCut != defaults.afterCut { members.append(("afterCut", .string(s.afterCut.rawValue))) }
        return .object(members)
    }

    static func line(_ l: GuidanceLine) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(l.id)), ("at", seconds(l.at)), ("duration", seconds(l.duration)),
        ]
        if l.urgent { members.append(("urgent", .bool(true))) }
        if let t = l.text { members.append(("text", .string(t))) }
        if let language = l.language { members.append(("language", .string(language.rawValue))) }
        if let m = l.maneuver { members.append(("maneuver", .string(m))) }
        if let e = l.expires { members.append(("expires", seconds(e))) }
        return .object(members)
    }

    static func stretch(_ s: Scenario.Stretch) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(s.id)), ("duration", seconds(s.duration))]
        if s.ready != .zero { members.append(("ready", seconds(s.ready))) }
        if let t = s.text { members.append(("text", .string(t))) }
        if let language = s.language { members.append(("language", .string(language.rawValue))) }
        return .object(members)
    }

    static func reply(_ r: Scenario.Reply) -> JSONValue {
        .object([("id", .string(r.id)), ("at", seconds(r.at)), ("stretches", .array(r.stretches.map(stretch)))])
    }

    static func utterance(_ u: Scenario.Utterance) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(u.id)), ("at", seconds(u.at)), ("duration", seconds(u.duration)),
            ("language", .string(u.language.rawValue)),
        ]
        if let t = u.text { members.append(("text", .string(t))) }
        if let r = u.reply {
            var reply: [(key: String, value: JSONValue)] = [
                ("id", .string(r.id)), ("stretches", .array(r.stretches.map(stretch))),
            ]
            if r.after != .zero { reply.append(("after", seconds(r.after))) }
            members.append(("reply", .object(reply)))
        }
        return .object(members)
    }

    /// The `expect` list: the event matchers in order, each of Pippa's at its place (`PippaMatcher.index`).
    static func expectations(_ s: Scenario) -> [JSONValue] {
        var out = s.expect.map(expectation)
        for p in s.expectPippa.sorted(by: { $0.index < $1.index }) {
            out.insert(pippa(p), at: min(max(0, p.index), out.count))
        }
        return out
    }

    static func pippa(_ p: PippaMatcher) -> JSONValue {
        let members: [(key: String, value: JSONValue)] = [("pippa", .string(p.answer.rawValue)), ("at", seconds(p.at))]
        return .object(members + fields(p.fields, p.tests))
    }

    /// A matcher's fields, each equal to a value or tested.
    static func fields(_ fields: [(field: Field, value: FieldValue)], _ tests: [(field: Field, test: FieldTest)]) -> [(
        key: String, value: JSONValue
    )] {
        var members: [(key: String, value: JSONValue)] = []
        for field in fields {
            switch field.value {
            case .string(let s): members.append((field.field.rawValue, .string(s)))
            case .int(let i): members.append((field.field.rawValue, .integer(i)))
            case .bool(let b): members.append((field.field.rawValue, .bool(b)))
            }
        }
        for (field, test) in tests {
            switch test {
            case .contains(let s): members.append((field.rawValue, .object([("contains", .string(s))])))
            case .matches(let r): members.append((field.rawValue, .object([("matches", .string(r))])))
            case .range(let b): members.append((field.rawValue, bounds(b)))
            }
        }
        return members
    }

    static func expectation(_ e: Matcher) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("event", .string(e.event.rawValue))]
        switch e.when {
        case .anywhere: break
        case .at(let t): members.append(("at", seconds(t)))
        case .between(let a, let b): members.append(("between", .array([seconds(a), seconds(b)])))
        }
        if let c = e.count { members.append(("count", .integer(c))) }
        if let r = e.countRange { members.append(("count", bounds(r))) }
        members += fields(e.fields, e.tests)
        if let since = e.since { members.append(("since", expectation(since))) }
        if let until = e.until { members.append(("until", expectation(until))) }
        if let within = e.within { members.append(("within", seconds(within))) }
        return .object(members)
    }

    /// `{"min": a, "max": b}`, leaving out a bound that is not there.
    static func bounds(_ b: Bounds) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let a = b.min { members.append(("min", .integer(a))) }
        if let z = b.max { members.append(("max", .integer(z))) }
        return .object(members)
    }
}
