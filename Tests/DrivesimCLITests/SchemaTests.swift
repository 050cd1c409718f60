import DrivesimCLI
import Foundation
import ScenarioFormat
import SimRunner
import TestSupport
import Testing

/// The subset of JSON Schema (draft 2020-12) that `drivesim schema` uses:
/// type, properties, required, additionalProperties, items, enum, const,
/// minimum, maximum, exclusiveMinimum, minItems, maxItems, minLength,
/// maxLength, oneOf, anyOf, $ref into $defs. Any other keyword is refused,
/// so the schema cannot quietly rely on one this validator skips.
struct SchemaValidator {
    let root: JSONValue

    static let annotations: Set<String> = ["$schema", "title", "description", "$defs"]
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minimum", "maximum",
        "exclusiveMinimum", "minItems", "maxItems", "minLength", "maxLength", "oneOf", "anyOf", "$ref",
    ]

    /// Every problem of `value` against `schema`, as `path: reason`.
    func errors(_ value: JSONValue, _ schema: JSONValue, _ path: String = "") -> [String] {
        guard case .object(let members) = schema.kind else { return ["\(path): schema is not an object"] }
        var out: [String] = []
        for (key, rule) in members {
            if Self.annotations.contains(key) { continue }
            guard Self.keywords.contains(key) else { out.append("\(path): unsupported keyword \(key)"); continue }
            out += check(key, rule, schema, value, path)
        }
        return out
    }

    func check(_ key: String, _ rule: JSONValue, _ schema: JSONValue, _ value: JSONValue, _ path: String) -> [String] {
        switch key {
        case "$ref":
            guard case .string(let ref) = rule.kind, ref.hasPrefix("#/$defs/"), let target = root["$defs"]?[String(ref.dropFirst(8))] else {
                return ["\(path): bad $ref \(rule)"]
            }
            return errors(value, target, path)
        case "type":
            guard case .string(let name) = rule.kind else { return ["\(path): bad type"] }
            return Self.has(value, type: name) ? [] : ["\(path): not of type \(name)"]
        case "properties":
            guard case .object(let members) = value.kind, case .object(let properties) = rule.kind else { return [] }
            return members.flatMap { member in
                properties.first { $0.key == member.key }.map { errors(member.value, $0.value, path + "." + member.key) } ?? []
            }
        case "additionalProperties":
            guard case .object(let members) = value.kind, case .bool(false) = rule.kind else { return [] }
            let known = schema["properties"].flatMap { v -> [String]? in
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
        case "minimum", "maximum", "exclusiveMinimum":
            guard case .number(let literal) = value.kind, let x = Double(literal), case .number(let bound) = rule.kind, let b = Double(bound)
            else { return [] }
            let ok = key == "minimum" ? x >= b : key == "maximum" ? x <= b : x > b
            return ok ? [] : ["\(path): \(literal) breaks \(key) \(bound)"]
        case "minItems", "maxItems":
            guard case .array(let items) = value.kind, case .number(let bound) = rule.kind, let n = Int(bound) else { return [] }
            return (key == "minItems" ? items.count >= n : items.count <= n) ? [] : ["\(path): \(items.count) items breaks \(key) \(n)"]
        case "minLength", "maxLength":
            guard case .string(let s) = value.kind, case .number(let bound) = rule.kind, let n = Int(bound) else { return [] }
            let length = s.unicodeScalars.count
            return (key == "minLength" ? length >= n : length <= n) ? [] : ["\(path): length \(length) breaks \(key) \(n)"]
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
        case (.object, "object"), (.array, "array"), (.string, "string"), (.bool, "boolean"), (.null, "null"), (.number, "number"):
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
            return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && equal($0.value, m.value) } }
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
                if value["type"] == .string("object"), value["additionalProperties"] != .bool(false) { out.append(path) }
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

    @Test func theSchemaTakesNoArguments() {
        #expect(Fixtures.drivesim("schema", "extra").code == 2)
    }
}
