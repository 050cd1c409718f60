import CLITestSupport
import DrivesimCLI
import Foundation
import ScenarioFormat
import SimRunner
import TestSupport
import Testing

/// The subset of JSON Schema (draft 2020-12) that `drivesim schema` uses:
/// type, properties, required, additionalProperties, items, enum, const,
/// minimum, maximum, exclusiveMinimum, exclusiveMaximum, minItems, maxItems, minLength,
/// maxLength, minProperties, maxProperties, dependentRequired, oneOf, anyOf, $ref into $defs. Any other keyword is refused,
/// so the schema cannot quietly rely on one this validator skips.
struct SchemaValidator {
    let root: JSONValue

    static let annotations: Set<String> = ["$schema", "title", "description", "$defs"]
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "minLength", "maxLength", "oneOf", "anyOf",
        "$ref",
        "minProperties", "maxProperties", "dependentRequired",
    ]

    /// Every problem of `value` against `schema`, as `path: reason`.
    func errors(_ value: JSONValue, _ schema: JSONValue, _ path: String = "") -> [String] {
        guard case .object(let members) = schema.kind else { return ["\(path): schema is not an object"] }
        var out: [String] = []
        for (key, rule) in members {
            if Self.annotations.contains(key) { continue }
            guard Self.keywords.contains(key) else {
                out.append("\(path): unsupported keyword \(key)")
                continue
            }
            out += check(key, rule, schema, value, path)
        }
        return out
    }

    func check(_ key: String, _ rule: JSONValue, _ schema: JSONValue, _ value: JSONValue, _ path: String) -> [String] {
        switch key {
        case "$ref":
            guard case .string(let ref) = rule.kind, ref.hasPrefix("#/$defs/"),
                let target = root["$defs"]?[String(ref.dropFirst(8))]
            else {
                return ["\(path): bad $ref \(rule)"]
            }
            return errors(value, target, path)
        case "type":
            guard case .string(let name) = rule.kind else { return ["\(path): bad type"] }
            return Self.has(value, type: name) ? [] : ["\(path): not of type \(name)"]
        case "properties":
            guard case .object(let members) = value.kind, case .object(let properties) = rule.kind else { return [] }
            return members.flatMap { member in
                properties.first { $0.key == member.key }.map {
                    errors(member.value, $0.value, path + "." + member.key)
                } ?? []
            }
        case "additionalProperties":
            guard case .object(let members) = value.kind, case .bool(false) = rule.kind else { return [] }
            let known =
                schema["properties"].flatMap { v -> [String]? in
                    guard case .object(let p) = v.kind else { return nil }
                    return p.map(\.key)
                } ?? []
            return members.filter { !known.contains($0.key) }.map { "\(path).\($0.key): unknown key" }
        case "required":
            guard case .object(let members) = value.kind, case .array(let names) = rule.kind else { return [] }
            return names.compactMap { name in
                guard case .string(let n) = name.kind else { return "\(path): bad required" }
                return members.contains { $0.key == n } ? nil : "\(path): missing \(n)"
            }
        case "items":
            guard case .array(let items) = value.kind else { return [] }
            return items.enumerated().flatMap { errors($0.element, rule, path + "[\($0.offset)]") }
        case "enum":
            guard case .array(let allowed) = rule.kind else { return ["\(path): bad enum"] }
            return allowed.contains { Self.equal($0, value) } ? [] : ["\(path): not one of the enum"]
        case "const":
            return Self.equal(rule, value) ? [] : ["\(path): not \(rule)"]
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
            guard case .number(let literal) = value.kind, let x = Double(literal), case .number(let bound) = rule.kind,
                let b = Double(bound)
            else { return [] }
            let ok = key == "minimum" ? x >= b : key == "maximum" ? x <= b : key == "exclusiveMinimum" ? x > b : x < b
            return ok ? [] : ["\(path): \(literal) breaks \(key) \(bound)"]
        case "minItems", "maxItems":
            guard case .array(let items) = value.kind, case .number(let bound) = rule.kind, let n = Int(bound) else {
                return []
            }
            return (key == "minItems" ? items.count >= n : items.count <= n)
                ? [] : ["\(path): \(items.count) items breaks \(key) \(n)"]
        case "minLength", "maxLength":
            guard case .string(let s) = value.kind, case .number(let bound) = rule.kind, let n = Int(bound) else {
                return []
            }
            let length = s.unicodeScalars.count
            return (key == "minLength" ? length >= n : length <= n)
                ? [] : ["\(path): length \(length) breaks \(key) \(n)"]
        case "minProperties", "maxProperties":
            guard case .object(let members) = value.kind, case .number(let bound) = rule.kind, let n = Int(bound) else {
                return []
            }
            let ok = key == "minProperties" ? members.count >= n : members.count <= n
            return ok ? [] : ["\(path): \(members.count) properties breaks \(key) \(n)"]
        case "dependentRequired":
            guard case .object(let members) = value.kind, case .object(let dependencies) = rule.kind else { return [] }
            return dependencies.flatMap { dependency -> [String] in
                guard members.contains(where: { $0.key == dependency.key }),
                    case .array(let names) = dependency.value.kind
                else { return [] }
                return names.compactMap { name in
                    guard case .string(let n) = name.kind else { return "\(path): bad dependentRequired" }
                    return members.contains { $0.key == n } ? nil : "\(path): \(dependency.key) without \(n)"
                }
            }
        case "oneOf", "anyOf":
            guard case .array(let options) = rule.kind else { return ["\(path): bad \(key)"] }
            let passing = options.filter { errors(value, $0, path).isEmpty }.count
            if key == "oneOf" { return passing == 1 ? [] : ["\(path): matches \(passing) of oneOf, not exactly one"] }
            return passing > 0 ? [] : ["\(path): matches none of anyOf"]
        default:
            return ["\(path): unsupported keyword \(key)"]
        }
    }

    /// JSON Schema's types: an integer is a number with no fraction (`1.0` included).
    static func has(_ value: JSONValue, type: String) -> Bool {
        switch (value.kind, type) {
        case (.object, "object"), (.array, "array"), (.string, "string"), (.bool, "boolean"), (.null, "null"),
            (.number, "number"):
            return true
        case (.number(let literal), "integer"):
            return Double(literal).map { $0 == $0.rounded() } ?? false
        default:
            return false
        }
    }

    /// JSON equality: numbers by value, objects regardless of key order.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a.kind, b.kind) {
        case (.number(let x), .number(let y)): return Double(x) == Double(y)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { m in y.contains { $0.key == m.key && equal($0.value, m.value) } }
        default: return a.kind == b.kind
        }
    }
}

@Suite struct SchemaTests {
    static func schema() throws -> JSONValue {
        let result = Fixtures.drivesim("schema")
        #expect(result.code == 0)
        return try JSONParser.parse(Array(result.stdout.utf8))
    }

    static func validate(_ text: String) throws -> [String] {
        let schema = try schema()
        return SchemaValidator(root: schema).errors(try JSONParser.parse(Array(text.utf8)), schema)
    }

    /// Every scenario of the corpus, the fuzz seeds and the benchmarks'.
    static var corpus: [String] {
        ScenarioFiles.discover([Fixtures.path("Scenarios")])
    }

    @Test func theSchemaIsDraft202012AndUsesOnlyTheKeywordsTheValidatorKnows() throws {
        let schema = try Self.schema()
        #expect(schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        // Validating an empty object walks the root; every $def is reached through the corpus below.
        let errors = SchemaValidator(root: schema).errors(.object([]), schema)
        #expect(errors.allSatisfy { !$0.contains("unsupported keyword") })
        #expect(errors.contains(": missing drivesim"))
    }

    @Test func everyScenarioOfTheCorpusValidatesAgainstTheSchema() throws {
        let schema = try Self.schema()
        let validator = SchemaValidator(root: schema)
        #expect(Self.corpus.count > 40)
        for file in Self.corpus {
            let value = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            let errors = validator.errors(value, schema)
            #expect(errors.isEmpty, "\(file): \(errors.prefix(5))")
        }
    }

    @Test func everyObjectOfTheSchemaRefusesUnknownKeys() throws {
        func objects(_ value: JSONValue, _ path: String, into out: inout [String]) {
            switch value.kind {
            case .object(let members):
                if value["type"] == .string("object"), value["additionalProperties"] != .bool(false) {
                    out.append(path)
                }
                for m in members { objects(m.value, path + "/" + m.key, into: &out) }
            case .array(let items):
                for (i, item) in items.enumerated() { objects(item, path + "/\(i)", into: &out) }
            default: break
            }
        }
        var open: [String] = []
        objects(try Self.schema(), "#", into: &open)
        #expect(open.isEmpty)
    }

    @Test func aScenarioWithAnUnknownKeyFailsTheSchema() throws {
        let misspelt = """
            { "drivesim": 1, "name": "typo", "replies": [ { "id": "r1", "at": 0,
              "stretches": [ { "id": "s1", "durration": 2 } ] } ] }
            """
        let errors = try Self.validate(misspelt)
        #expect(errors.contains(".replies[0].stretches[0].durration: unknown key"))
        #expect(errors.contains(".replies[0].stretches[0]: missing duration"))
        let matcher = """
            { "drivesim": 1, "name": "x", "expect": [ { "event": "guidance.started", "stretch": "s1" } ] }
            """
        #expect(try !Self.validate(matcher).isEmpty)
        let road = """
            { "drivesim": 1, "name": "x", "road": { "language": "ko", "route": { "points": [ { "lat": 0, "lonn": 0 } ] } } }
            """
        #expect(try Self.validate(road).contains(".road.route.points[0].lonn: unknown key"))
    }

    @Test func aScenarioNamingTheSchemaIsAcceptedByTheDecoderAndTheSchema() throws {
        let text = """
            { "$schema": "./drivesim.schema.json", "drivesim": 1, "name": "named",
              "guidance": [ { "id": "g1", "at": 1, "duration": 2 } ] }
            """
        #expect(try Self.validate(text).isEmpty)
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "named.json")
        #expect(scenario.name == "named")
        #expect(scenario.guidance.count == 1)
        let notString = #"{ "$schema": 1, "drivesim": 1, "name": "x" }"#
        do {
            _ = try ScenarioDecoder.decode(Array(notString.utf8), file: "x.json")
            Issue.record("a $schema that is not a string was accepted")
        } catch {
            #expect(error.path == "$schema")
            #expect(error.reason == .wrongType(expected: .string))
        }
    }

    /// The property names of an object schema, sorted (as the JSON is written).
    static func propertyNames(_ schema: JSONValue?) -> [String]? {
        guard case .object(let properties)? = schema?["properties"]?.kind else { return nil }
        return properties.map(\.key).sorted()
    }

    @Test func everyObjectTheDecoderChecksHasExactlyTheDecodersKeysInTheSchema() throws {
        let schema = try Self.schema()
        #expect(ScenarioKeys.all.count > 25)
        for (name, keys) in ScenarioKeys.all {
            switch name {
            case "root":
                #expect(Self.propertyNames(schema) == keys.sorted())
            case "matcher", "anchor":
                guard case .array(let options)? = schema["$defs"]?[name]?["oneOf"]?.kind else {
                    Issue.record("the \(name) is not a oneOf")
                    continue
                }
                #expect(options.count == EventKind.allCases.count)
                for (option, kind) in zip(options, EventKind.allCases) {
                    #expect(
                        Self.propertyNames(option) == (keys + kind.fields.map(\.rawValue)).sorted(), "\(kind.rawValue)")
                }
            default:
                #expect(Self.propertyNames(schema["$defs"]?[name]) == keys.sorted(), "$defs/\(name)")
            }
        }
    }

    @Test func everyObjectOfTheSchemaIsOneTheKeysTestAbovePins() throws {
        let schema = try Self.schema()
        let named = Set(ScenarioKeys.all.map(\.name))
        var unpinned: [String] = []
        var untyped: [String] = []
        func walk(_ value: JSONValue, _ path: String, pinned: Bool) {
            switch value.kind {
            case .object(let members):
                if value["type"] == .string("object"), !pinned { unpinned.append(path) }
                if case .object(let properties)? = value["properties"]?.kind {
                    for p in properties where p.value == .object([]) { untyped.append(path + "/properties/" + p.key) }
                }
                for m in members {
                    let child = path + "/" + m.key
                    let isDef = path == "#/$defs" && named.contains(m.key)
                    let isMatcher = (path == "#/$defs/matcher" || path == "#/$defs/anchor") && m.key == "oneOf"
                    if isMatcher, case .array(let options) = m.value.kind {
                        for (i, o) in options.enumerated() { walk(o, child + "/\(i)", pinned: true) }
                    } else {
                        walk(m.value, child, pinned: isDef)
                    }
                }
            case .array(let items):
                for (i, item) in items.enumerated() { walk(item, path + "/\(i)", pinned: false) }
            default: break
            }
        }
        walk(schema, "#", pinned: true)
        #expect(unpinned.isEmpty, "objects outside ScenarioKeys: \(unpinned)")
        #expect(untyped.isEmpty, "keys the schema does not type: \(untyped)")
    }

    @Test func theDecoderChecksEveryObjectAgainstAScenarioKeysListAndTheListIsComplete() throws {
        let folder = Fixtures.path("Sources/SimRunner/ScenarioFormat")
        var literals: [String] = []
        var declared: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".swift")
        {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                if line.contains("allowed: [\""), line.contains("object(") { literals.append("\(file): \(line)") }
                if let r = line.range(of: "package static let "), line.contains(": KeyList = [") {
                    declared.append(String(line[r.upperBound...].prefix { $0 != " " && $0 != ":" }))
                }
            }
        }
        #expect(literals.isEmpty, "allowed keys written inline: \(literals)")
        declared.removeAll { $0 == "all" }
        #expect(declared.sorted() == ScenarioKeys.all.map(\.name).sorted())
    }

    @Test func whatTheDecoderRefusesForARangeOrAKeyTheSchemaRefusesToo() throws {
        let base =
            #"{ "drivesim": 1, "name": "x", "road": { "language": "en", "route": { "points": [ { "lat": 0, "lon": 0 }, { "lat": 0, "lon": 0.01 } ], "maneuvers": [ { "id": "m1", "lat": 0, "lon": 0.01, "turn": "arrive" } ] }, "#
        let good = [
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ], "stops": [ { "at": 100, "dwell": 5 } ] } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "fixes": { "correlation": 10, "accuracySpread": 20, "jumps": [ { "at": 5, "along": 10 } ], "jumpPercent": 5, "jumpMeters": 100, "stretches": [ { "from": 0, "to": 500, "accuracy": 20, "noise": 10 } ] } } }"#,
            #""fixes": { "recorded": [ { "at": 0, "lat": 0, "lon": 0, "course": 359.5, "true": { "lat": 0, "lon": 0 } } ] } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "follow": { "plausibleSpeed": 50, "plausibleAccel": 20, "implausibleCount": 0, "stoppedSpeed": 5 }, "guidance": { "horizon": 600 }, "servicePrompts": [ { "maneuver": "m1", "before": 50, "text": "Arrive" } ] } }"#,
        ]
        let bad = [
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ], "stops": [ { "at": 100 } ] } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "fixes": { "accuracySpread": 91 } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "fixes": { "jumpPercent": 101 } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "fixes": { "correlation": 0 } } }"#,
            #""fixes": { "recorded": [ { "at": 0, "lat": 0, "lon": 0, "course": 360 } ] } } }"#,
            #""fixes": { "recorded": [ { "at": 0, "lat": 0, "lon": 0, "true": { "lat": 0 } } ] } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "follow": { "plausibleSpeed": 0.5 } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "follow": { "stoppedSpeed": 6 } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "follow": { "plausibleAccel": 0.4 } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "guidance": { "horizon": 601 } } }"#,
            #""drive": { "speeds": [ { "from": 0, "kmh": 36 } ] }, "servicePrompts": [ { "maneuver": "m1", "before": 50, "text": "" } ] } }"#,
        ]
        for tail in good {
            #expect(try Self.validate(base + tail).isEmpty, "\(tail)")
            #expect(throws: Never.self, "\(tail)") {
                try ScenarioDecoder.decode(Array((base + tail).utf8), file: "x.json")
            }
        }
        for tail in bad {
            #expect(try !Self.validate(base + tail).isEmpty, "\(tail)")
            #expect(throws: ScenarioError.self, "\(tail)") {
                try ScenarioDecoder.decode(Array((base + tail).utf8), file: "x.json")
            }
        }
    }

    @Test func theSchemaDescribesEveryMatcherFormBeyondEqualityAndRefusesTheMalformed() throws {
        let base =
            #"{ "drivesim": 1, "name": "x", "guidance": [ { "id": "g1", "at": 1, "duration": 1, "text": "then" } ], "replies": [ { "id": "r1", "at": 0, "stretches": [ { "id": "s1", "duration": 1 } ] } ], "dad": [ { "id": "u1", "at": 5, "duration": 1, "language": "ko" } ], "expect": [ "#
        let good = [
            #"{ "event": "guidance.started", "text": { "contains": "then" } }"#,
            #"{ "event": "guidance.started", "text": { "matches": "^th" }, "line": { "matches": "g" } }"#,
            #"{ "event": "dad.ended", "lostMs": { "min": 500, "max": 1000 }, "heardMs": { "max": 0 } }"#,
            #"{ "event": "guidance.started", "count": { "min": 1 } }"#,
            #"{ "event": "guidance.started", "since": { "event": "talk.stretch.ended", "stretch": "s1", "at": 1 }, "within": 2 }"#,
            #"{ "event": "guidance.started", "until": { "event": "dad.started", "language": { "contains": "k" } } }"#,
        ]
        let bad = [
            #"{ "event": "guidance.started", "text": { "contains": "a", "matches": "b" } }"#,
            #"{ "event": "guidance.started", "text": { } }"#,
            #"{ "event": "guidance.started", "text": { "contians": "a" } }"#,
            #"{ "event": "dad.ended", "lostMs": { } }"#,
            #"{ "event": "dad.ended", "lostMs": { "min": 1.5 } }"#,
            #"{ "event": "dad.ended", "lostMs": { "contains": "1" } }"#,
            #"{ "event": "guidance.started", "within": 2 }"#,
            #"{ "event": "guidance.started", "since": { "event": "guidance.ended", "count": 1 } }"#,
            #"{ "event": "guidance.started", "since": { "event": "guidance.ended", "since": { "event": "guidance.ended" } } }"#,
            #"{ "event": "guidance.requested", "urgent": { "min": 1 } }"#,
        ]
        for matcher in good {
            #expect(try Self.validate(base + matcher + " ] }").isEmpty, "\(matcher)")
            #expect(throws: Never.self, "\(matcher)") {
                try ScenarioDecoder.decode(Array((base + matcher + " ] }").utf8), file: "x.json")
            }
        }
        for matcher in bad {
            #expect(try !Self.validate(base + matcher + " ] }").isEmpty, "\(matcher)")
            #expect(throws: ScenarioError.self, "\(matcher)") {
                try ScenarioDecoder.decode(Array((base + matcher + " ] }").utf8), file: "x.json")
            }
        }
    }

    @Test func theSchemaTakesNoArguments() {
        #expect(Fixtures.drivesim("schema", "extra").code == 2)
    }
}
