import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// `drivesim schema`: the scenario format as a JSON Schema (draft 2020-12),
/// for editors that complete and check scenario files.
enum SchemaCommand: Command {
    static let name = "schema"
    static let abstract = "Print the scenario format as a JSON Schema (draft 2020-12), for editors."
    static let usage = "USAGE: drivesim schema"
    static let options: [Option] = []
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        The schema covers the whole format: the talk core, the road and the expectations.
        Every object refuses unknown keys (additionalProperties: false). A scenario may
        name it in a "$schema" key, which drivesim accepts and otherwise ignores:

          drivesim schema > drivesim.schema.json
          { "$schema": "./drivesim.schema.json", "drivesim": 1, ... }

        drivesim itself checks more than a schema can say (exact milliseconds, unique ids,
        Dad's one voice, ids named by matchers, which keys each kind of maneuver takes).

        OPTIONS:
        \(Option.help(options))

        EXIT CODES: 0 printed, 2 bad arguments.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.isEmpty else {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no arguments"))
        }
        console.out(String(decoding: JSONWriter.bytes(ScenarioSchema.document), as: UTF8.self))
        return 0
    }
}

/// The JSON Schema of the scenario format (docs/scenario-format.md), built
/// from the same tables the decoder and the timeline use where there is one:
/// every object's property names are the decoder's own `ScenarioKeys` list
/// (its `$defs` entry has the list's name), and event kinds, rules, turns and
/// languages come from their enums. The ranges are docs/scenario-format.md's.
enum ScenarioSchema {
    /// The schema's own dialect.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The whole schema.
    static var document: JSONValue {
        let root = object(
            ScenarioKeys.root,
            [
                (
                    "$schema",
                    .object([
                        ("type", .string("string")),
                        description("the JSON Schema that checks this file; ignored by drivesim"),
                    ])
                ),
                (
                    "drivesim",
                    .object([("const", .integer(Scenario.formatVersion)), description("the format version")])
                ),
                ("name", nonEmpty),
                ("description", string),
                (
                    "golden",
                    .object([
                        ("type", .string("string")), ("minLength", .integer(1)),
                        description("the golden timeline, relative to this file, ending in .timeline.json"),
                    ])
                ),
                ("settings", ref("settings")),
                ("guidance", list(ref("line"))),
                ("replies", list(ref("reply"))),
                ("dad", list(ref("utterance"))),
                ("road", ref("road")),
                ("expect", list(oneOf([ref("matcher"), ref("pippa")]))),
            ], required: ["drivesim", "name"])
        guard case .object(var members) = root.kind else { return root }
        members.insert(("$schema", .string(dialect)), at: 0)
        members.insert(("title", .string("drivesim scenario, format \(Scenario.formatVersion)")), at: 1)
        members.append(("$defs", .object(definitions)))
        return .object(members)
    }

    // MARK: Building blocks

    static func description(_ text: String) -> (key: String, value: JSONValue) { ("description", .string(text)) }
    static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/\(name)"))]) }
    static func type(_ name: String) -> JSONValue { .object([("type", .string(name))]) }
    static let string = type("string")
    static let boolean = type("boolean")
    static let nonEmpty = text(maxLength: nil)
    /// A string of 1 to `maxLength` characters (no upper bound when nil).
    static func text(maxLength: Int?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .string("string")), ("minLength", .integer(1))]
        if let maxLength { members.append(("maxLength", .integer(Int64(maxLength)))) }
        return .object(members)
    }
    static func enumeration(_ values: [String]) -> JSONValue {
        .object([("enum", .array(values.map(JSONValue.string)))])
    }
    static func list(_ items: JSONValue, minItems: Int = 0) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .string("array")), ("items", items)]
        if minItems > 0 { members.append(("minItems", .integer(Int64(minItems)))) }
        return .object(members)
    }
    /// A number in `range`; above the lower bound only with `exclusiveLow`,
    /// below the upper one only with `exclusiveHigh`.
    static func number(
        _ range: ClosedRange<Double>, exclusiveLow: Bool = false, exclusiveHigh: Bool = false, integer: Bool = false
    ) -> JSONValue {
        func literal(_ x: Double) -> JSONValue { x == x.rounded() ? .integer(Int64(x)) : .number(String(x)) }
        return .object([
            ("type", .string(integer ? "integer" : "number")),
            (exclusiveLow ? "exclusiveMinimum" : "minimum", literal(range.lowerBound)),
            (exclusiveHigh ? "exclusiveMaximum" : "maximum", literal(range.upperBound)),
        ])
    }
    /// A number of seconds (whole milliseconds) in `range`, above its lower bound only with `exclusiveLow`.
    static func seconds(_ range: ClosedRange<Double>, exclusiveLow: Bool = false, _ text: String) -> JSONValue {
        guard case .object(var members) = number(range, exclusiveLow: exclusiveLow).kind else { return number(range) }
        members.append(description(text))
        return .object(members)
    }

    /// An object that takes exactly the decoder's `keys`, in their order,
    /// each typed by its entry in `typed`. A key left untyped gets the empty
    /// schema and a typed name the decoder does not take is still listed:
    /// SchemaTests refuses both, so the names cannot drift from the decoder.
    static func object<Keys: Collection<String>>(_ keys: Keys, _ typed: [(String, JSONValue)], required: [String] = [])
        -> JSONValue
    {
        var properties: [(key: String, value: JSONValue)] = keys.map { key in
            (key: key, value: typed.first { $0.0 == key }?.1 ?? .object([]))
        }
        for (key, value) in typed where !keys.contains(key) { properties.append((key: key, value: value)) }
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("additionalProperties", .bool(false)), ("properties", .object(properties)),
        ]
        if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
        return .object(members)
    }

    static let maxTime = Double(ScenarioDecoder.maxTimeSeconds)
    static let maxDuration = Double(ScenarioDecoder.maxDurationSeconds)

    // MARK: Definitions

    static var definitions: [(key: String, value: JSONValue)] {
        let stretchesList = list(ref("stretch"), minItems: 1)
        var defs: [(key: String, value: JSONValue)] = [
            ("time", seconds(0...maxTime, "seconds since the drive began, a whole number of milliseconds")),
            ("duration", seconds(0...maxDuration, "seconds, a whole number of milliseconds")),
            (
                "positiveDuration",
                seconds(0...maxDuration, exclusiveLow: true, "seconds above zero, whole milliseconds")
            ),
            (
                "id",
                .object([
                    ("type", .string("string")), ("minLength", .integer(1)),
                    description("unique across the whole scenario"),
                ])
            ),
            ("language", enumeration(Language.allCases.map(\.rawValue))),
            (
                "settings",
                object(
                    ScenarioKeys.settings,
                    [
                        ("earsTail", ref("duration")), ("waitLimit", ref("duration")),
                        ("afterCut", enumeration(Scenario.AfterCut.allCases.map(\.rawValue))),
                    ])
            ),
            (
                "line",
                object(
                    ScenarioKeys.line,
                    [
                        ("id", ref("id")), ("at", ref("time")), ("duration", ref("positiveDuration")),
                        ("urgent", boolean),
                        ("text", string), ("language", ref("language")), ("maneuver", nonEmpty),
                        ("expires", ref("time")),
                    ], required: ["id", "at", "duration"])
            ),
            (
                "stretch",
                object(
                    ScenarioKeys.stretch,
                    [
                        ("id", ref("id")), ("duration", ref("positiveDuration")), ("ready", ref("duration")),
                        ("text", string), ("language", ref("language")),
                    ], required: ["id", "duration"])
            ),
            (
                "reply",
                object(
                    ScenarioKeys.reply, [("id", ref("id")), ("at", ref("time")), ("stretches", stretchesList)],
                    required: ["id", "at", "stretches"])
            ),
            (
                "utterance",
                object(
                    ScenarioKeys.utterance,
                    [
                        ("id", ref("id")), ("at", ref("time")), ("duration", ref("positiveDuration")),
                        ("language", ref("language")),
                        ("text", string), ("reply", ref("dadReply")),
                    ], required: ["id", "at", "duration", "language"])
            ),
            (
                "dadReply",
                object(
                    ScenarioKeys.dadReply,
                    [("id", ref("id")), ("after", ref("duration")), ("stretches", stretchesList)],
                    required: ["id", "stretches"])
            ),
            ("matcher", .object([("oneOf", .array(EventKind.allCases.map { matcher($0) }))])),
            ("anchor", .object([("oneOf", .array(EventKind.allCases.map { matcher($0, anchor: true) }))])),
            (
                "pippa",
                object(
                    ScenarioKeys.pippa,
                    [
                        ("pippa", enumeration(PippaView.Answer.allCases.map(\.rawValue))), ("at", ref("time")),
                        ("fix", oneOf([string, ref("textTest")])), ("ageMs", oneOf([type("integer"), ref("range")])),
                        ("onRoute", boolean),
                        ("maneuver", oneOf([string, ref("textTest")])),
                        ("distanceM", oneOf([type("integer"), ref("range")])),
                    ], required: ["pippa", "at"])
            ),
            (
                "textTest",
                adding(
                    object(ScenarioKeys.textTest, [("contains", nonEmpty), ("matches", nonEmpty)]),
                    [
                        ("minProperties", .integer(1)), ("maxProperties", .integer(1)),
                        description(
                            "contains: the text appears in the field; matches: a regular expression (Swift Regex syntax) finds a match in it"
                        ),
                    ])
            ),
            (
                "range",
                adding(
                    object(ScenarioKeys.range, [("min", type("integer")), ("max", type("integer"))]),
                    [
                        ("minProperties", .integer(1)), description("inclusive; min at most max"),
                    ])
            ),
            (
                "window",
                object(ScenarioKeys.window, [("from", ref("time")), ("to", ref("time"))], required: ["from", "to"])
            ),
            ("windows", list(ref("window"))),
        ]
        defs += roadDefinitions
        return defs
    }

    /// The matcher of one event kind: its name, when, how many, relative to
    /// what, and its fields, typed; a string field takes a text test and an
    /// integer one a range. The matcher of a `since` or `until` (`anchor`)
    /// takes only its name, when and fields.
    static func matcher(_ kind: EventKind, anchor: Bool = false) -> JSONValue {
        let rules = enumeration(Rule.allCases.map(\.rawValue))
        var typed: [(String, JSONValue)] = [
            ("event", .object([("const", .string(kind.rawValue))])),
            ("at", ref("time")),
            (
                "between",
                .object([
                    ("type", .string("array")), ("items", ref("time")), ("minItems", .integer(2)),
                    ("maxItems", .integer(2)),
                ])
            ),
        ]
        if !anchor {
            typed += [
                ("count", oneOf([.object([("type", .string("integer")), ("minimum", .integer(0))]), ref("range")])),
                ("since", ref("anchor")),
                ("until", ref("anchor")),
                ("within", seconds(0...maxDuration, "seconds after since's event, at most")),
            ]
        }
        for field in kind.fields {
            let schema: JSONValue
            switch (field, field.type) {
            case (.language, _): schema = oneOf([ref("language"), ref("textTest")])
            case (.rule, _) where !kind.isRoad: schema = oneOf([rules, ref("textTest")])
            case (_, .int): schema = oneOf([type("integer"), ref("range")])
            case (_, .bool): schema = boolean
            case (_, .string): schema = oneOf([string, ref("textTest")])
            }
            typed.append((field.rawValue, schema))
        }
        let keys = anchor ? ScenarioKeys.anchor : ScenarioKeys.matcher
        let object = object(keys + kind.fields.map(\.rawValue), typed, required: ["event"])
        return anchor
            ? object : adding(object, [("dependentRequired", .object([("within", .array([.string("since")]))]))])
    }

    static func oneOf(_ options: [JSONValue]) -> JSONValue { .object([("oneOf", .array(options))]) }

    /// `value`, an object, with `members` added at its end.
    static func adding(_ value: JSONValue, _ members: [(key: String, value: JSONValue)]) -> JSONValue {
        guard case .object(let own) = value.kind else { return value }
        return .object(own + members)
    }

    static var roadDefinitions: [(key: String, value: JSONValue)] {
        let lat = number(-90...90)
        let lon = number(-180...180)
        let along = number(0...Route.maxLength)
        let meters = number(0...10_000)
        let percent = number(0...100, integer: true)
        return [
            (
                "road",
                object(
                    ScenarioKeys.road,
                    [
                        ("language", ref("language")), ("route", ref("route")), ("drive", ref("drive")),
                        ("fixes", ref("fixes")),
                        ("link", ref("link")), ("app", ref("app")), ("follow", ref("follow")),
                        ("guidance", ref("guidance")),
                        ("servicePrompts", list(ref("servicePrompt"))), ("maps", ref("maps")),
                        ("places", list(ref("place"))),
                        ("changes", list(ref("change"))),
                    ], required: ["language", "route"])
            ),
            (
                "route",
                object(
                    ScenarioKeys.route,
                    [("points", list(ref("point"), minItems: 2)), ("maneuvers", list(ref("maneuver")))],
                    required: ["points"])
            ),
            ("point", object(ScenarioKeys.point, [("lat", lat), ("lon", lon)], required: ["lat", "lon"])),
            (
                "maneuver",
                object(
                    ScenarioKeys.maneuver,
                    [
                        ("id", ref("id")), ("lat", lat), ("lon", lon),
                        ("turn", enumeration(Turn.allCases.map(\.rawValue))),
                        ("street", text(maxLength: 200)), ("toward", nonEmpty),
                        ("exit", number(1...Double(ManeuverDetails.exits), integer: true)),
                        ("ref", text(maxLength: 8)), ("name", nonEmpty),
                        ("side", enumeration(ArrivalSide.allCases.map(\.rawValue))),
                        ("uTurn", boolean),
                    ], required: ["id", "lat", "lon", "turn"])
            ),
            (
                "drive",
                object(
                    ScenarioKeys.drive,
                    [
                        ("start", ref("time")), ("speeds", list(ref("speed"), minItems: 1)),
                        ("accel", number(0.1...20)), ("decel", number(0.1...20)),
                        ("detours", list(ref("detour"))), ("stops", list(ref("stop"))),
                    ], required: ["speeds"])
            ),
            (
                "speed",
                object(
                    ScenarioKeys.speed, [("from", number(0...100_000_000)), ("kmh", number(3.6...250))],
                    required: ["from", "kmh"])
            ),
            (
                "detour",
                object(
                    ScenarioKeys.detour,
                    [("from", ref("time")), ("to", ref("time")), ("offset", number(-10_000...10_000))],
                    required: ["from", "to", "offset"])
            ),
            (
                "stop",
                object(ScenarioKeys.stop, [("at", along), ("dwell", ref("duration"))], required: ["at", "dwell"])
            ),
            ("fixes", .object([("oneOf", .array([ref("generatedFixes"), ref("recordedFixes")]))])),
            (
                "generatedFixes",
                object(
                    ScenarioKeys.generatedFixes,
                    [
                        ("every", seconds(0.1...maxDuration, "seconds between fixes, at most ten a second")),
                        ("accuracy", meters), ("noise", meters),
                        ("seed", .object([("type", .string("integer")), ("minimum", .integer(0))])),
                        ("delay", ref("duration")), ("jitter", ref("duration")), ("dropPercent", percent),
                        ("gaps", ref("windows")), ("late", list(ref("late"))),
                        ("correlation", ref("positiveDuration")), ("stretches", list(ref("fixStretch"))),
                        ("accuracySpread", number(0...90, integer: true)), ("jumps", list(ref("jump"))),
                        ("jumpPercent", percent), ("jumpMeters", meters),
                    ])
            ),
            (
                "recordedFixes",
                object(ScenarioKeys.recordedFixes, [("recorded", list(ref("recordedFix")))], required: ["recorded"])
            ),
            (
                "late",
                object(
                    ScenarioKeys.late, [("from", ref("time")), ("to", ref("time")), ("delay", ref("duration"))],
                    required: ["from", "to", "delay"])
            ),
            (
                "fixStretch",
                object(
                    ScenarioKeys.fixStretch, [("from", along), ("to", along), ("accuracy", meters), ("noise", meters)],
                    required: ["from", "to", "accuracy", "noise"])
            ),
            (
                "jump",
                object(
                    ScenarioKeys.jump,
                    [("at", ref("time")), ("along", number(-10_000...10_000)), ("across", number(-10_000...10_000))],
                    required: ["at"])
            ),
            (
                "recordedFix",
                object(
                    ScenarioKeys.recordedFix,
                    [
                        ("at", ref("time")), ("arrives", ref("time")), ("lat", lat), ("lon", lon),
                        ("accuracy", number(0...100_000)), ("speed", number(0...150)),
                        ("course", number(0...360, exclusiveHigh: true)),
                        ("true", ref("point")),
                    ], required: ["at", "lat", "lon"])
            ),
            (
                "link",
                object(
                    ScenarioKeys.link,
                    [("latency", ref("duration")), ("freshness", ref("duration")), ("outages", ref("windows"))])
            ),
            ("app", object(ScenarioKeys.app, [("background", ref("windows")), ("segments", ref("windows"))])),
            (
                "follow",
                object(
                    ScenarioKeys.follow,
                    [
                        ("accuracyLimit", number(0...100_000, exclusiveLow: true)),
                        ("offRouteEnter", number(0...10_000, exclusiveLow: true)),
                        ("offRouteExit", number(0...10_000, exclusiveLow: true)),
                        ("offRouteCount", number(1...100, integer: true)),
                        ("plausibleSpeed", number(1...150)), ("plausibleAccel", number(0.5...20)),
                        ("implausibleCount", number(0...100, integer: true)), ("stoppedSpeed", number(0...5)),
                    ])
            ),
            (
                "guidance",
                object(
                    ScenarioKeys.guidance,
                    [
                        ("far", ref("lead")), ("near", ref("lead")), ("now", ref("lead")), ("thenWithin", meters),
                        ("thenSeconds", number(0...600)), ("margin", ref("duration")),
                        ("outputLatency", seconds(0...10, "seconds from a line's start until it is heard")),
                        ("horizon", seconds(0...600, "seconds of dead reckoning after the last trusted fix")),
                        ("rates", ref("rates")), ("units", enumeration(Units.allCases.map(\.rawValue))),
                    ])
            ),
            (
                "lead",
                object(
                    ScenarioKeys.lead,
                    [("seconds", number(0...600)), ("growth", number(0...60)), ("minimum", number(0...100_000))])
            ),
            ("rates", object(ScenarioKeys.rates, [("en", number(0.5...50)), ("ko", number(0.5...50))])),
            (
                "maps",
                object(
                    ScenarioKeys.maps,
                    [
                        ("latency", seconds(0.1...60, "seconds from a route request to its answer")),
                        ("timeout", seconds(0.1...120, "seconds the app waits for an answer, above latency")),
                        ("retry", seconds(1...600, "seconds after a failed request before it is sent again")),
                    ])
            ),
            (
                "place",
                object(
                    ScenarioKeys.place, [("name", text(maxLength: 200)), ("lat", lat), ("lon", lon)],
                    required: ["name", "lat", "lon"])
            ),
            (
                "change",
                object(
                    ScenarioKeys.change,
                    [
                        ("id", ref("id")), ("points", list(ref("point"), minItems: 2)),
                        ("maneuvers", list(ref("maneuver"))),
                        ("refusals", number(0...10, integer: true)), ("handoff", ref("handoff")),
                    ], required: ["id", "points"])
            ),
            (
                "handoff",
                object(
                    ScenarioKeys.handoff,
                    [
                        ("sent", list(oneOf([ref("time"), ref("sending")]), minItems: 1)),
                        ("place", text(maxLength: 200)),
                        ("destination", text(maxLength: 200)),
                    ], required: ["sent"])
            ),
            ("sending", object(ScenarioKeys.sending, [("after", nonEmpty)], required: ["after"])),
            (
                "servicePrompt",
                object(
                    ScenarioKeys.servicePrompt,
                    [
                        ("maneuver", nonEmpty), ("before", number(0...10_000_000)), ("text", text(maxLength: 1000)),
                    ], required: ["maneuver", "text"])
            ),
        ]
    }
}
