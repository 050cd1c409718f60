import Guidance
import Road
import ScenarioFormat
import SimRunner
import TalkArbiter

/// `drivesim schema`: the scenario format as a JSON Schema (draft 2020-12),
/// for editors that complete and check scenario files.
enum SchemaCommand: Command {
    static let name = "schema"
    static let abstract = "Print the scenario format as a JSON Schema (draft 2020-12), for editors."
    static let usage = "USAGE: drivesim schema"
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
          -h, --help              Show help information.

        EXIT CODES: 0 printed, 2 bad arguments.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: [], flags: [])
        guard args.positional.isEmpty else { throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no arguments")) }
        console.out(String(decoding: JSONWriter.bytes(ScenarioSchema.document), as: UTF8.self))
        return 0
    }
}

/// The JSON Schema of the scenario format (docs/scenario-format.md), built
/// from the same tables the decoder and the timeline use where there is one
/// (event kinds and their fields, rules, turns, languages).
enum ScenarioSchema {
    /// The schema's own dialect.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The whole schema.
    static var document: JSONValue {
        var root = object(
            [
                ("$schema", .object([("type", .string("string")), description("the JSON Schema that checks this file; ignored by drivesim")])),
                ("drivesim", .object([("const", .integer(Scenario.formatVersion)), description("the format version")])),
                ("name", nonEmpty),
                ("description", string),
                ("golden", .object([("type", .string("string")), ("minLength", .integer(1)),
                                    description("the golden timeline, relative to this file, ending in .timeline.json")])),
                ("settings", ref("settings")),
                ("guidance", list(ref("line"))),
                ("replies", list(ref("reply"))),
                ("dad", list(ref("utterance"))),
                ("road", ref("road")),
                ("expect", list(ref("matcher"))),
            ], required: ["drivesim", "name"])
        guard case .object(var members) = root.kind else { return root }
        members.insert(("$schema", .string(dialect)), at: 0)
        members.insert(("title", .string("drivesim scenario, format \(Scenario.formatVersion)")), at: 1)
        members.append(("$defs", .object(definitions)))
        root = .object(members)
        return root
    }

    // MARK: Building blocks

    static func description(_ text: String) -> (key: String, value: JSONValue) { ("description", .string(text)) }
    static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/\(name)"))]) }
    static func type(_ name: String) -> JSONValue { .object([("type", .string(name))]) }
    static let string = type("string")
    static let boolean = type("boolean")
    static let nonEmpty = JSONValue.object([("type", .string("string")), ("minLength", .integer(1))])
    static func enumeration(_ values: [String]) -> JSONValue { .object([("enum", .array(values.map(JSONValue.string)))]) }
    static func list(_ items: JSONValue, minItems: Int = 0) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .string("array")), ("items", items)]
        if minItems > 0 { members.append(("minItems", .integer(minItems))) }
        return .object(members)
    }
    /// A number in `range`; above the lower bound only with `exclusiveLow`.
    static func number(_ range: ClosedRange<Double>, exclusiveLow: Bool = false, integer: Bool = false) -> JSONValue {
        func literal(_ x: Double) -> JSONValue { x == x.rounded() ? .integer(Int64(x)) : .number(String(x)) }
        return .object([
            ("type", .string(integer ? "integer" : "number")),
            (exclusiveLow ? "exclusiveMinimum" : "minimum", literal(range.lowerBound)), ("maximum", literal(range.upperBound)),
        ])
    }
    /// An object that takes exactly `properties`.
    static func object(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object(properties.map { (key: $0.0, value: $0.1) })),
        ]
        if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
        return .object(members)
    }

    static let maxTime = Double(ScenarioDecoder.maxTimeSeconds)
    static let maxDuration = Double(ScenarioDecoder.maxDurationSeconds)

    // MARK: Definitions

    static var definitions: [(key: String, value: JSONValue)] {
        let language = enumeration(Language.allCases.map(\.rawValue))
        let stretchesList = list(ref("stretch"), minItems: 1)
        var defs: [(key: String, value: JSONValue)] = [
            ("time", .object([("type", .string("number")), ("minimum", .integer(0)), ("maximum", .integer(Int64(maxTime))),
                              description("seconds since the drive began, a whole number of milliseconds")])),
            ("duration", .object([("type", .string("number")), ("minimum", .integer(0)), ("maximum", .integer(Int64(maxDuration))),
                                  description("seconds, a whole number of milliseconds")])),
            ("positiveDuration", .object([("type", .string("number")), ("exclusiveMinimum", .integer(0)),
                                          ("maximum", .integer(Int64(maxDuration))), description("seconds above zero, whole milliseconds")])),
            ("id", .object([("type", .string("string")), ("minLength", .integer(1)), description("unique across the whole scenario")])),
            ("language", language),
            ("settings", object([
                ("earsTail", ref("duration")), ("waitLimit", ref("duration")),
                ("afterCut", enumeration(Scenario.AfterCut.allCases.map(\.rawValue))),
            ])),
            ("line", object([
                ("id", ref("id")), ("at", ref("time")), ("duration", ref("positiveDuration")), ("urgent", boolean),
                ("text", string), ("language", ref("language")), ("maneuver", nonEmpty), ("expires", ref("time")),
            ], required: ["id", "at", "duration"])),
            ("stretch", object([
                ("id", ref("id")), ("duration", ref("positiveDuration")), ("ready", ref("duration")),
                ("text", string), ("language", ref("language")),
            ], required: ["id", "duration"])),
            ("reply", object([("id", ref("id")), ("at", ref("time")), ("stretches", stretchesList)], required: ["id", "at", "stretches"])),
            ("utterance", object([
                ("id", ref("id")), ("at", ref("time")), ("duration", ref("positiveDuration")), ("language", ref("language")),
                ("text", string),
                ("reply", object([("id", ref("id")), ("after", ref("duration")), ("stretches", stretchesList)], required: ["id", "stretches"])),
            ], required: ["id", "at", "duration", "language"])),
            ("matcher", .object([("oneOf", .array(EventKind.allCases.map(matcher)))])),
            ("window", object([("from", ref("time")), ("to", ref("time"))], required: ["from", "to"])),
            ("windows", list(ref("window"))),
        ]
        defs += roadDefinitions
        return defs
    }

    /// The matcher of one event kind: its name, when, how many, and its fields, typed.
    static func matcher(_ kind: EventKind) -> JSONValue {
        let rules = enumeration(Rule.allCases.map(\.rawValue))
        var properties: [(String, JSONValue)] = [
            ("event", .object([("const", .string(kind.rawValue))])),
            ("at", ref("time")),
            ("between", .object([("type", .string("array")), ("items", ref("time")), ("minItems", .integer(2)), ("maxItems", .integer(2))])),
            ("count", .object([("type", .string("integer")), ("minimum", .integer(0))])),
        ]
        for field in kind.fields {
            let schema: JSONValue
            switch (field, field.type) {
            case (.language, _): schema = ref("language")
            case (.rule, _) where !kind.isRoad: schema = rules
            case (_, .int): schema = type("integer")
            case (_, .bool): schema = boolean
            case (_, .string): schema = string
            }
            properties.append((field.rawValue, schema))
        }
        return object(properties, required: ["event"])
    }

    static var roadDefinitions: [(key: String, value: JSONValue)] {
        let point: [(String, JSONValue)] = [("lat", number(-90...90)), ("lon", number(-180...180))]
        let lead = object([("seconds", number(0...600)), ("minimum", number(0...100_000))])
        return [
            ("road", object([
                ("language", ref("language")), ("route", ref("route")), ("drive", ref("drive")), ("fixes", ref("fixes")),
                ("link", object([("latency", ref("duration")), ("freshness", ref("duration")), ("outages", ref("windows"))])),
                ("app", object([("background", ref("windows")), ("segments", ref("windows"))])),
                ("follow", object([
                    ("accuracyLimit", number(0...100_000, exclusiveLow: true)), ("offRouteEnter", number(0...10_000, exclusiveLow: true)),
                    ("offRouteExit", number(0...10_000, exclusiveLow: true)), ("offRouteCount", number(1...100, integer: true)),
                ])),
                ("guidance", object([
                    ("far", lead), ("near", lead), ("now", lead), ("thenWithin", number(0...10_000)),
                    ("margin", ref("duration")), ("horizon", ref("duration")),
                    ("rates", object([("en", number(0.5...50)), ("ko", number(0.5...50))])),
                ])),
                ("servicePrompts", list(object([
                    ("maneuver", ref("id")), ("before", number(0...10_000_000)),
                    ("text", .object([("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(1000))])),
                ], required: ["maneuver", "before", "text"]))),
            ], required: ["language", "route"])),
            ("route", object([
                ("points", list(object(point, required: ["lat", "lon"]), minItems: 2)),
                ("maneuvers", list(ref("maneuver"))),
            ], required: ["points"])),
            ("maneuver", object(
                [("id", ref("id"))] + point + [
                    ("turn", enumeration(Turn.allCases.map(\.rawValue))),
                    ("street", .object([("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(200))])),
                    ("toward", nonEmpty), ("exit", number(1...12, integer: true)),
                    ("ref", .object([("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(8))])),
                    ("name", nonEmpty), ("side", enumeration(ArrivalSide.allCases.map(\.rawValue))),
                ], required: ["id", "lat", "lon", "turn"])),
            ("drive", object([
                ("start", ref("time")),
                ("speeds", list(object([("from", number(0...100_000_000)), ("kmh", number(3.6...250))], required: ["from", "kmh"]), minItems: 1)),
                ("accel", number(0.1...20)), ("decel", number(0.1...20)),
                ("detours", list(object([("from", ref("time")), ("to", ref("time")), ("offset", number(-10_000...10_000))],
                                        required: ["from", "to", "offset"]))),
            ], required: ["speeds"])),
            ("fixes", .object([("oneOf", .array([
                object([
                    ("every", .object([("type", .string("number")), ("minimum", .number("0.1")), ("maximum", .integer(Int64(maxDuration)))])),
                    ("accuracy", number(0...10_000)), ("noise", number(0...10_000)),
                    ("seed", .object([("type", .string("integer")), ("minimum", .integer(0))])),
                    ("delay", ref("duration")), ("jitter", ref("duration")), ("dropPercent", number(0...100, integer: true)),
                    ("gaps", ref("windows")),
                    ("late", list(object([("from", ref("time")), ("to", ref("time")), ("delay", ref("duration"))], required: ["from", "to", "delay"]))),
                ]),
                object([("recorded", list(object(
                    [("at", ref("time")), ("arrives", ref("time"))] + point
                        + [("accuracy", number(0...100_000)), ("speed", number(0...150))],
                    required: ["at", "lat", "lon"])))], required: ["recorded"]),
            ]))])),
        ]
    }
}
