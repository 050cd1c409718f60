import Guidance
import SimClock
import SimRunner

/// Reads a scenario file (SPEC 3 and 6) strictly: the format version first,
/// then every key checked against the format, every time converted exactly to
/// milliseconds, every id checked unique. Errors are typed (`ScenarioError`)
/// and name the file, the path inside it, its line and column, and a reason case.
public enum ScenarioDecoder {
    /// The longest drive, in seconds: bounds every absolute time (`at`, `expires`).
    package static let maxTimeSeconds = Int(Scenario.Limits.maxTime.ms / 1000)
    /// The longest single span, in seconds: bounds `duration`, `ready`,
    /// `after`, `earsTail`, `waitLimit`.
    package static let maxDurationSeconds = Int(Scenario.Limits.maxDuration.ms / 1000)

    /// Decodes one scenario from the bytes of `file` (named only for errors):
    /// first its shape and values as JSON, read from the file's `JSONTape`
    /// (no tree, no copy of a key or a number), then `Scenario.validate()`
    /// (the one definition of validity), whose problem is placed in the
    /// file by its path. One path for every scenario, the road's included.
    ///
    /// - Throws: `ScenarioError` (typed), the first problem found.
    /// - Complexity: O(n) in the file's size, plus sorting Dad's utterances.
    public static func decode(_ bytes: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes)
        } catch {
            throw ScenarioError(
                file: file, path: error.path, line: error.line, column: error.column,
                reason: error.reason.scenarioReason)
        }
        return try tape.withRoot { (root) throws(ScenarioError) -> Scenario in
            var decoding = Decoding(file: file)
            let scenario = try decoding.scenario(root)
            do throws(ScenarioProblem) {
                try scenario.validate()
            } catch {
                throw decoding.error(for: error, in: root)
            }
            return scenario
        }
    }
}

extension ScenarioDecoder {
    /// A guidance line or a stretch longer than this, in seconds (10
    /// minutes), is warned about: the format allows an hour, but a
    /// duration this long is more likely milliseconds written as seconds.
    package static let unitSlipSeconds = 600

    /// What in `scenario`, decoded from the bytes of `file`, is used as
    /// written but looks like a slip: each `duration` of a line or a
    /// stretch (Dad's replies' included) over `unitSlipSeconds`, in file
    /// order, with its path and, when the file is at hand, line and column.
    /// Warnings, not errors: the CLI prints them and goes on.
    ///
    /// - Complexity: O(items) when there is none; the file is parsed again
    ///   only to place the ones there are.
    package static func warnings(for scenario: Scenario, bytes: [UInt8], file: String) -> [ScenarioError] {
        let limit = Int64(unitSlipSeconds) * 1000
        var slips: [(path: [JSONPath.Step], ms: Int64)] = []
        for (i, line) in scenario.guidance.enumerated() where line.duration.ms > limit {
            slips.append(([.key("guidance"), .index(i), .key("duration")], line.duration.ms))
        }
        // The item's path is made only for a slip.
        func stretches(_ list: [Scenario.Stretch], at base: @autoclosure () -> [JSONPath.Step]) {
            for (j, stretch) in list.enumerated() where stretch.duration.ms > limit {
                slips.append((base() + [.key("stretches"), .index(j), .key("duration")], stretch.duration.ms))
            }
        }
        for (i, reply) in scenario.replies.enumerated() {
            stretches(reply.stretches, at: [.key("replies"), .index(i)])
        }
        for (i, utterance) in scenario.dad.enumerated() {
            if let reply = utterance.reply { stretches(reply.stretches, at: [.key("dad"), .index(i), .key("reply")]) }
        }
        guard !slips.isEmpty else { return [] }
        let tape = try? JSONTape(bytes)
        let decoding = Decoding(file: file)
        return slips.map { slip in
            let reason = ScenarioError.Reason.looksLikeMilliseconds(seconds: Seconds.literal(milliseconds: slip.ms))
            let rendered = JSONPath.render(slip.path)
            guard let tape else { return ScenarioError(file: file, path: rendered, reason: reason) }
            return tape.withRoot { root in decoding.fail(reason, rendered, Decoding.value(at: slip.path, in: root)) }
        }
    }
}

extension JSONParseError.Reason {
    var scenarioReason: ScenarioError.Reason {
        switch self {
        case .empty: return .emptyFile
        case .invalidUTF8: return .invalidUTF8
        case .tooDeep: return .tooDeep
        case .duplicateKey(let k): return .duplicateKey(k)
        case .syntax(let s): return .syntax(s)
        }
    }
}

/// One decoding pass: the file name for errors.
///
/// Paths inside the file are built only for an error: the helpers take them
/// as autoclosures, so a long drive's decoding allocates no path per field.
struct Decoding {
    let file: String

    init(file: String) { self.file = file }

    // MARK: Errors and paths

    func fail(_ reason: ScenarioError.Reason, _ path: @autoclosure () -> String, _ value: JSONNode) -> ScenarioError {
        ScenarioError(file: file, path: path(), line: value.line, column: value.column, reason: reason)
    }

    // MARK: Shapes

    /// Where an object is: at `base`, or item `index` of the array at `base`
    /// (rendered only when an error needs it).
    struct Location {
        let base: String
        let index: Int?
        /// Then a key path inside that item, and an index in what it names:
        /// `replies[3]`, then `stretches`, `[0]`.
        var then: String? = nil
        var inner: Int? = nil

        var path: String {
            var path = index.map { JSONPath.join(base, $0) } ?? base
            if let then { path = JSONPath.join(path, then) }
            if let inner { path = JSONPath.join(path, inner) }
            return path
        }

        /// The location of `key` inside this one (which names no key inside
        /// an item yet, or a key path `then` continues), and of item
        /// `index` of what it names.
        func then(_ key: String, _ index: Int? = nil) -> Location {
            Location(base: base, index: self.index, then: then.map { JSONPath.join($0, key) } ?? key, inner: index)
        }
    }

    /// An object whose keys have all been checked against `allowed`.
    struct Fields {
        let value: JSONNode
        let members: JSONNode.Members
        let location: Location
        /// The keys checked, and where each one's value is on the tape (-1
        /// when absent), found in the one pass that checked them; empty
        /// when not checked, and then `optional` looks through the members.
        let allowed: KeyList
        let slots: InlineArray<16, Int32>

        init(value: JSONNode, members: JSONNode.Members, path: String) {
            self.init(value: value, members: members, location: Location(base: path, index: nil))
        }

        init(
            value: JSONNode, members: JSONNode.Members, location: Location, allowed: KeyList = [],
            slots: InlineArray<16, Int32> = .init(repeating: -1)
        ) {
            self.value = value
            self.members = members
            self.location = location
            self.allowed = allowed
            self.slots = slots
        }

        var path: String { location.path }

        /// The value of `key` (a literal: the keys are the format's own), if the object has it.
        func optional(_ key: StaticString) -> JSONNode? {
            // Every key the decoder reads is spelled in the object's `ScenarioKeys` list (checked in debug builds).
            assert(allowed.isEmpty || allowed.index(of: key) != nil, "\(key) is not in the object's ScenarioKeys list")
            guard let n = allowed.index(of: key) else { return members.first(key.description) }
            let index = slots[n]
            return index < 0 ? nil : JSONNode(tape: value.tape, index: Int(index))
        }

        func path(_ key: String) -> String { JSONPath.join(path, key) }
    }

    func object(_ value: JSONNode, _ path: String, allowed: KeyList) throws(ScenarioError) -> Fields {
        try object(value, Location(base: path, index: nil), allowed: allowed)
    }

    func object(_ value: JSONNode, _ location: Location, allowed: KeyList) throws(ScenarioError) -> Fields {
        guard let members = value.members else { throw fail(.wrongType(expected: .object), location.path, value) }
        var slots = InlineArray<16, Int32>(repeating: -1)
        for member in members {
            guard let n = allowed.index(of: member) else {
                let key = member.key
                throw fail(
                    .unknownKey(key, suggestion: suggestion(for: key, among: allowed.names)),
                    JSONPath.join(location.path, key), member.value)
            }
            slots[n] = Int32(truncatingIfNeeded: member.value.index)
        }
        return Fields(value: value, members: members, location: location, allowed: allowed, slots: slots)
    }

    @inline(__always)
    func required(_ fields: Fields, _ key: StaticString) throws(ScenarioError) -> JSONNode {
        guard let value = fields.optional(key) else {
            throw fail(.missingField(key.description), fields.path, fields.value)
        }
        return value
    }

    func array(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> JSONNode.Items {
        guard let items = value.items else { throw fail(.wrongType(expected: .array), path(), value) }
        return items
    }

    @inline(__always)
    func string(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> String {
        guard let s = value.string else { throw fail(.wrongType(expected: .string), path(), value) }
        return s
    }

    func nonEmptyString(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> String {
        let s = try string(value, path())
        if s.isEmpty { throw fail(.invalid(.emptyString), path(), value) }
        return s
    }

    func bool(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> Bool {
        guard let b = value.bool else { throw fail(.wrongType(expected: .boolean), path(), value) }
        return b
    }

    /// An integer literal (no fraction, no exponent: `1.0` is not an integer here).
    func integer(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> Int64 {
        guard let literal = value.number,
            !literal.utf8.contains(where: {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            })
        else { throw fail(.wrongType(expected: .integer), path(), value) }
        guard let n = Int64(literal) else { throw fail(.integerOutOfRange, path(), value) }
        return n
    }

    enum Span { case time, duration }

    /// Seconds as exact milliseconds: times up to 24 h, durations up to 1 h.
    @inline(__always)
    func seconds(_ value: JSONNode, _ path: @autoclosure () -> String, _ span: Span, positive: Bool = false)
        throws(ScenarioError) -> SimTime
    {
        let limit = span == .time ? ScenarioDecoder.maxTimeSeconds : ScenarioDecoder.maxDurationSeconds
        guard let result = value.withNumber({ Seconds.milliseconds(fromLiteral: $0, limitMs: Int64(limit) * 1000) })
        else {
            throw fail(.wrongType(expected: .seconds), path(), value)
        }
        switch result {
        case .success(let ms):
            if positive && ms == 0 { throw fail(.invalid(.notPositive), path(), value) }
            return SimTime(ms: ms)
        case .failure(.negative): throw fail(.invalid(.negative), path(), value)
        case .failure(.notWholeMilliseconds): throw fail(.notWholeMilliseconds, path(), value)
        case .failure(.tooLarge): throw fail(.invalid(.tooLarge(limitSeconds: limit)), path(), value)
        }
    }

    func oneOf(_ value: JSONNode, _ path: @autoclosure () -> String, _ allowed: [String]) throws(ScenarioError)
        -> String
    {
        allowed[try position(value, path(), allowed)]
    }

    /// Where the string `value` is in `allowed`, refused as `oneOf` refuses
    /// it: for a caller that takes the case at that place, the name matched once.
    func position(_ value: JSONNode, _ path: @autoclosure () -> String, _ allowed: [String]) throws(ScenarioError)
        -> Int
    {
        let s = try string(value, path())
        guard let n = allowed.firstIndex(of: s) else {
            throw fail(
                .unknownValue(s, allowed: allowed, suggestion: suggestion(for: s, among: allowed)), path(), value)
        }
        return n
    }

    func language(_ value: JSONNode, _ path: @autoclosure () -> String) throws(ScenarioError) -> Language {
        // `oneOf` guarantees the raw value exists.
        return Language(rawValue: try oneOf(value, path(), Decoding.languages)) ?? .ko
    }

    /// Every language's raw value, for `language`.
    static let languages = Language.allCases.map(\.rawValue)

    mutating func id(_ fields: Fields) throws(ScenarioError) -> String {
        let value = try required(fields, "id")
        // Empty and duplicate ids are `Scenario.validate()`'s to refuse.
        return try string(value, fields.path("id"))
    }

    // MARK: The scenario

    mutating func scenario(_ root: JSONNode) throws(ScenarioError) -> Scenario {
        guard let members = root.members else { throw fail(.wrongType(expected: .object), "", root) }
        // The format version comes first: a newer file may have any shape.
        guard let version = members.first("drivesim") else {
            throw fail(.missingField("drivesim"), "", root)
        }
        // Any number above this format is a newer file, however it is
        // written (`2`, `2.0`, `1e23`); only then must it be an integer.
        if let literal = version.number, let x = Double(literal), x > Double(Scenario.formatVersion) {
            throw fail(.newerFormat(literal), "drivesim", version)
        }
        let n = try integer(version, "drivesim")
        if n < Int64(Scenario.formatVersion) { throw fail(.unsupportedFormat(Int(clamping: n)), "drivesim", version) }

        let fields = try object(root, "", allowed: ScenarioKeys.root)
        // `$schema` names the JSON Schema an editor checks the file with (`drivesim schema`); otherwise ignored.
        if let v = fields.optional("$schema") { _ = try string(v, "$schema") }
        let name = try string(try required(fields, "name"), "name")
        var scenario = Scenario(name: name)
        if let v = fields.optional("description") { scenario.description = try string(v, "description") }
        if let v = fields.optional("settings") { scenario.settings = try settings(v, "settings") }
        /// The list under `key`, each item read by `item` with its location.
        func list<T>(_ staticKey: StaticString, _ item: (JSONNode, Location) throws(ScenarioError) -> T)
            throws(ScenarioError) -> [T]
        {
            guard let v = fields.optional(staticKey) else { return [] }
            let key = staticKey.description
            let items = try array(v, key)
            var out: [T] = []
            out.reserveCapacity(items.count)
            for (i, value) in items.enumerated() { out.append(try item(value, Location(base: key, index: i))) }
            return out
        }
        scenario.guidance = try list("guidance") { (v, at) throws(ScenarioError) in try line(v, at) }
        scenario.replies = try list("replies") { (v, at) throws(ScenarioError) in try reply(v, at) }
        scenario.dad = try list("dad") { (v, at) throws(ScenarioError) in try utterance(v, at) }
        if let v = fields.optional("road") {
            scenario.road = try road(v, "road")
            scenario.servicePrompts = try servicePrompts(v, "road")
        }
        if let v = fields.optional("expect") {
            for (i, item) in try array(v, "expect").enumerated() {
                if item.members?.first("pippa") != nil {
                    scenario.expectPippa.append(try pippaExpectation(item, i))
                } else {
                    scenario.expect.append(try expectation(item, JSONPath.join("expect", i)))
                }
            }
        }
        if let v = fields.optional("golden") { scenario.golden = try nonEmptyString(v, "golden") }
        return scenario
    }

    func settings(_ value: JSONNode, _ path: String) throws(ScenarioError) -> Scenario.Settings {
        let fields = try object(value, path, allowed: ScenarioKeys.settings)
        var settings = Scenario.Settings()
        if let v = fields.optional("earsTail") {
            settings.earsTail = try seconds(v, fields.path("earsTail"), .duration)
        }
        if let v = fields.optional("waitLimit") {
            settings.waitLimit = try seconds(v, fields.path("waitLimit"), .duration)
        }
        if let v = fields.optional("afterCut") {
            let allowed = Scenario.AfterCut.allCases.map(\.rawValue)
            settings.afterCut = Scenario.AfterCut(rawValue: try oneOf(v, fields.path("afterCut"), allowed)) ?? .repeat
        }
        return settings
    }

    mutating func line(_ value: JSONNode, _ location: Location) throws(ScenarioError) -> GuidanceLine {
        let fields = try object(value, location, allowed: ScenarioKeys.line)
        let id = try id(fields)
        let at = try seconds(try required(fields, "at"), fields.path("at"), .time)
        let duration = try seconds(try required(fields, "duration"), fields.path("duration"), .duration)
        var line = GuidanceLine(id: id, at: at, duration: duration)
        if let v = fields.optional("urgent") { line.urgent = try bool(v, fields.path("urgent")) }
        if let v = fields.optional("text") { line.text = try string(v, fields.path("text")) }
        if let v = fields.optional("language") { line.language = try language(v, fields.path("language")) }
        if let v = fields.optional("maneuver") { line.maneuver = try string(v, fields.path("maneuver")) }
        if let v = fields.optional("expires") { line.expires = try seconds(v, fields.path("expires"), .time) }
        return line
    }

    mutating func stretches(_ fields: Fields) throws(ScenarioError) -> [Scenario.Stretch] {
        let items = try array(try required(fields, "stretches"), fields.path("stretches"))
        var result: [Scenario.Stretch] = []
        result.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            result.append(try stretch(item, fields.location.then("stretches", i)))
        }
        return result
    }

    mutating func stretch(_ value: JSONNode, _ location: Location) throws(ScenarioError) -> Scenario.Stretch {
        let fields = try object(value, location, allowed: ScenarioKeys.stretch)
        let id = try id(fields)
        let duration = try seconds(try required(fields, "duration"), fields.path("duration"), .duration)
        var stretch = Scenario.Stretch(id: id, duration: duration)
        if let v = fields.optional("ready") { stretch.ready = try seconds(v, fields.path("ready"), .duration) }
        if let v = fields.optional("text") { stretch.text = try string(v, fields.path("text")) }
        if let v = fields.optional("language") { stretch.language = try language(v, fields.path("language")) }
        return stretch
    }

    mutating func reply(_ value: JSONNode, _ location: Location) throws(ScenarioError) -> Scenario.Reply {
        let fields = try object(value, location, allowed: ScenarioKeys.reply)
        let id = try id(fields)
        let at = try seconds(try required(fields, "at"), fields.path("at"), .time)
        return Scenario.Reply(id: id, at: at, stretches: try stretches(fields))
    }

    mutating func utterance(_ value: JSONNode, _ location: Location) throws(ScenarioError) -> Scenario.Utterance {
        let fields = try object(value, location, allowed: ScenarioKeys.utterance)
        let id = try id(fields)
        let at = try seconds(try required(fields, "at"), fields.path("at"), .time)
        let duration = try seconds(try required(fields, "duration"), fields.path("duration"), .duration)
        let language = try language(try required(fields, "language"), fields.path("language"))
        var utterance = Scenario.Utterance(id: id, at: at, duration: duration, language: language)
        if let v = fields.optional("text") { utterance.text = try string(v, fields.path("text")) }
        if let v = fields.optional("reply") { utterance.reply = try dadReply(v, fields.location.then("reply")) }
        return utterance
    }

    mutating func dadReply(_ value: JSONNode, _ location: Location) throws(ScenarioError) -> Scenario.DadReply {
        let fields = try object(value, location, allowed: ScenarioKeys.dadReply)
        let id = try id(fields)
        var reply = Scenario.DadReply(id: id, stretches: [])
        if let v = fields.optional("after") { reply.after = try seconds(v, fields.path("after"), .duration) }
        reply.stretches = try stretches(fields)
        return reply
    }

    // MARK: Expectations

    func expectation(_ value: JSONNode, _ path: String) throws(ScenarioError) -> Matcher {
        guard let members = value.members else { throw fail(.wrongType(expected: .object), path, value) }
        let fields = Fields(value: value, members: members, path: path)
        let eventValue = try required(fields, "event")
        let event = try string(eventValue, fields.path("event"))
        guard let kind = EventKind(rawValue: event) else {
            let unknown = ScenarioError.Reason.unknownEvent(
                event, family: TimelineSuggestion.family(of: event)?.family,
                suggestion: TimelineSuggestion.event(for: event))
            throw fail(unknown, fields.path("event"), eventValue)
        }

        var expectation = Matcher(event: kind, path: path)
        expectation.line = value.line
        expectation.column = value.column
        var at: (SimTime, JSONNode)? = nil
        var between: (SimTime, SimTime)? = nil
        for member in members {
            let key = member.key
            let memberPath = fields.path(key)
            switch key {
            case "event": continue
            case "at": at = (try seconds(member.value, memberPath, .time), member.value)
            case "between": between = try window(member.value, memberPath)
            case "count":
                if member.value.isObject {
                    expectation.countRange = try bounds(member.value, memberPath)
                    continue
                }
                let n = try integer(member.value, memberPath)
                if n < 0 { throw fail(.invalid(.negative), memberPath, member.value) }
                guard let count = Int(exactly: n) else { throw fail(.integerOutOfRange, memberPath, member.value) }
                expectation.count = count
            case "since": expectation.since = try self.expectation(member.value, memberPath)
            case "until": expectation.until = try self.expectation(member.value, memberPath)
            case "within": expectation.within = try seconds(member.value, memberPath, .duration)
            default:
                if let field = kind.fields.first(where: { $0.rawValue == key }) {
                    if member.value.isObject, field.type != .bool {
                        expectation.tests.append((field: field, test: try fieldTest(member.value, memberPath, field)))
                    } else {
                        expectation.fields.append(
                            (field: field, value: try fieldValue(member.value, memberPath, field)))
                    }
                    continue
                }
                let hint = TimelineSuggestion.field(for: key, event: kind, matcherKeys: ScenarioKeys.matcher.names)
                throw fail(.unknownField(key, event: event, suggestion: hint), memberPath, member.value)
            }
        }
        switch (at, between) {
        case (let at?, _?): throw fail(.atAndBetween, path, at.1)
        case (let at?, nil): expectation.when = .at(at.0)
        case (nil, let window?): expectation.when = .between(window.0, window.1)
        case (nil, nil): expectation.when = .anywhere
        }
        // Canonical order, so key order in the file does not matter.
        expectation.fields.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
        expectation.tests.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
        return expectation
    }

    /// A matcher of Pippa's view, item `index` of `expect`: her answer
    /// (`pippa`), the instant (`at`, required) and her last report's fields
    /// (`PippaMatcher.fields`), each equal or tested as an event matcher's.
    func pippaExpectation(_ value: JSONNode, _ index: Int) throws(ScenarioError) -> PippaMatcher {
        let fields = try object(value, JSONPath.join("expect", index), allowed: ScenarioKeys.pippa)
        let answers = PippaView.Answer.allCases.map(\.rawValue)
        let answer =
            PippaView.Answer(rawValue: try oneOf(try required(fields, "pippa"), fields.path("pippa"), answers))
            ?? .notKnown
        let at = try seconds(try required(fields, "at"), fields.path("at"), .time)
        var matcher = PippaMatcher(at: at, answer: answer, index: index)
        matcher.line = value.line
        matcher.column = value.column
        for member in fields.members {
            guard let field = PippaMatcher.fields.first(where: { $0.rawValue == member.key }) else { continue }
            let memberPath = fields.path(member.key)
            if member.value.isObject, field.type != .bool {
                matcher.tests.append((field: field, test: try fieldTest(member.value, memberPath, field)))
            } else {
                matcher.fields.append((field: field, value: try fieldValue(member.value, memberPath, field)))
            }
        }
        // Canonical order, so key order in the file does not matter.
        matcher.fields.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
        matcher.tests.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
        return matcher
    }

    func window(_ value: JSONNode, _ path: String) throws(ScenarioError) -> (SimTime, SimTime) {
        guard let items = value.items else { throw fail(.wrongType(expected: .window), path, value) }
        guard items.count == 2, let first = items.item(0), let second = items.item(1) else {
            throw fail(.windowNotAPair, path, value)
        }
        let from = try seconds(first, JSONPath.join(path, 0), .time)
        let to = try seconds(second, JSONPath.join(path, 1), .time)
        if from > to { throw fail(.invalid(.reversedWindow), path, value) }
        return (from, to)
    }

    /// A field tested beyond equality (SPEC 6): `{"contains": S}` or
    /// `{"matches": R}` for a string field, `{"min": a, "max": b}` for an
    /// integer one. The pattern, an empty range and `min > max` are
    /// `Scenario.validate()`'s to refuse.
    func fieldTest(_ value: JSONNode, _ path: String, _ field: Field) throws(ScenarioError) -> FieldTest {
        switch field.type {
        case .int: return .range(try bounds(value, path))
        case .bool: throw fail(.wrongType(expected: .boolean), path, value)
        case .string:
            let fields = try object(value, path, allowed: ScenarioKeys.textTest)
            guard fields.members.count == 1, let member = fields.members.firstMember else {
                throw fail(.oneTextTest, path, value)
            }
            let text = try string(member.value, fields.path(member.key))
            return member.key == "contains" ? .contains(text) : .matches(text)
        }
    }

    /// `{"min": a, "max": b}`, integers, either left out.
    func bounds(_ value: JSONNode, _ path: String) throws(ScenarioError) -> Bounds {
        let fields = try object(value, path, allowed: ScenarioKeys.range)
        var bounds = Bounds()
        if let v = fields.optional("min") { bounds.min = try integer(v, fields.path("min")) }
        if let v = fields.optional("max") { bounds.max = try integer(v, fields.path("max")) }
        return bounds
    }

    /// Strictly typed: integers for millisecond fields, a boolean for
    /// `urgent`, strings for the rest.
    func fieldValue(_ value: JSONNode, _ path: String, _ field: Field) throws(ScenarioError) -> FieldValue {
        switch field.type {
        case .int: return .int(try integer(value, path))
        case .bool: return .bool(try bool(value, path))
        case .string: return .string(try string(value, path))
        }
    }
}

/// The keys each object of the format takes: the lists the decoder checks
/// every object against (`allowed:`), and the one source of the property
/// names of `drivesim schema`, so the two cannot drift apart.
package enum ScenarioKeys {
    /// The scenario's top level.
    package static let root: KeyList = [
        "$schema", "drivesim", "name", "description", "settings", "guidance", "replies", "dad", "road", "expect",
        "golden",
    ]
    /// `settings`.
    package static let settings: KeyList = ["earsTail", "waitLimit", "afterCut"]
    /// One guidance line, `guidance[]`.
    package static let line: KeyList = ["id", "at", "duration", "urgent", "text", "language", "maneuver", "expires"]
    /// One stretch of a reply, `replies[].stretches[]` and `dad[].reply.stretches[]`.
    package static let stretch: KeyList = ["id", "duration", "ready", "text", "language"]
    /// One reply, `replies[]`.
    package static let reply: KeyList = ["id", "at", "stretches"]
    /// One utterance of Dad's, `dad[]`.
    package static let utterance: KeyList = ["id", "at", "duration", "language", "text", "reply"]
    /// Pippa's answer to an utterance, `dad[].reply`.
    package static let dadReply: KeyList = ["id", "after", "stretches"]
    /// The keys every matcher takes besides its event kind's fields, `expect[]`.
    package static let matcher: KeyList = ["event", "at", "between", "count", "since", "until", "within"]
    /// The keys a matcher inside `since` or `until` takes besides its event kind's fields (`drivesim schema`;
    /// the decoder reads it as a matcher and `Scenario.validate()` refuses the rest by name).
    package static let anchor: KeyList = ["event", "at", "between"]
    /// A matcher of Pippa's view at an instant, `expect[]` with `pippa` (`PippaMatcher`): her answer, the instant, her last report's fields.
    package static let pippa: KeyList = ["pippa", "at", "fix", "ageMs", "onRoute", "maneuver", "distanceM"]
    /// A string field's test, `expect[].<field>`: exactly one of these.
    package static let textTest: KeyList = ["contains", "matches"]
    /// An integer field's or the count's range, `expect[].<field>` and `expect[].count`.
    package static let range: KeyList = ["min", "max"]
    /// A time window, `{ from, to }` (outages, background, segments, gaps).
    package static let window: KeyList = ["from", "to"]
    /// `road`.
    package static let road: KeyList = [
        "language", "route", "drive", "fixes", "link", "app", "follow", "guidance", "servicePrompts", "maps", "places",
        "changes",
    ]
    /// `road.route`.
    package static let route: KeyList = ["points", "maneuvers"]
    /// A point, `road.route.points[]` and `road.fixes.recorded[].true`.
    package static let point: KeyList = ["lat", "lon"]
    /// One maneuver, `road.route.maneuvers[]`.
    package static let maneuver: KeyList = [
        "id", "lat", "lon", "turn", "street", "toward", "exit", "ref", "name", "side", "uTurn",
    ]
    /// `road.drive`.
    package static let drive: KeyList = ["start", "speeds", "accel", "decel", "detours", "stops"]
    /// One speed step, `road.drive.speeds[]`.
    package static let speed: KeyList = ["from", "kmh"]
    /// One detour, `road.drive.detours[]`.
    package static let detour: KeyList = ["from", "to", "offset"]
    /// One stop, `road.drive.stops[]`.
    package static let stop: KeyList = ["at", "dwell"]
    /// Generated fixes, `road.fixes` without `recorded`.
    package static let generatedFixes: KeyList = [
        "every", "accuracy", "noise", "seed", "delay", "jitter", "dropPercent", "gaps", "late", "correlation",
        "stretches",
        "accuracySpread", "jumps", "jumpPercent", "jumpMeters",
    ]
    /// Recorded fixes, `road.fixes` with `recorded`.
    package static let recordedFixes: KeyList = ["recorded"]
    /// One late window of generated fixes, `road.fixes.late[]`.
    package static let late: KeyList = ["from", "to", "delay"]
    /// One stretch of other accuracy, `road.fixes.stretches[]`.
    package static let fixStretch: KeyList = ["from", "to", "accuracy", "noise"]
    /// One jump, `road.fixes.jumps[]`.
    package static let jump: KeyList = ["at", "along", "across"]
    /// One recorded fix, `road.fixes.recorded[]`.
    package static let recordedFix: KeyList = ["at", "arrives", "lat", "lon", "accuracy", "speed", "course", "true"]
    /// `road.link`.
    package static let link: KeyList = ["latency", "freshness", "outages"]
    /// `road.app`.
    package static let app: KeyList = ["background", "segments"]
    /// `road.follow`.
    package static let follow: KeyList = [
        "accuracyLimit", "offRouteEnter", "offRouteExit", "offRouteCount", "plausibleSpeed", "plausibleAccel",
        "implausibleCount", "stoppedSpeed",
    ]
    /// `road.guidance`.
    package static let guidance: KeyList = [
        "far", "near", "now", "thenWithin", "thenSeconds", "margin", "outputLatency", "horizon", "rates", "units",
    ]
    /// A stage's lead, `road.guidance.far`, `.near`, `.now`.
    package static let lead: KeyList = ["seconds", "growth", "minimum"]
    /// `road.guidance.rates`.
    package static let rates: KeyList = ["en", "ko"]
    /// `road.maps`.
    package static let maps: KeyList = ["latency", "timeout", "retry"]
    /// One saved place, `road.places[]`.
    package static let place: KeyList = ["name", "lat", "lon"]
    /// One route change, `road.changes[]`.
    package static let change: KeyList = ["id", "points", "maneuvers", "refusals", "handoff"]
    /// A change's handoff, `road.changes[].handoff`.
    package static let handoff: KeyList = ["sent", "place", "destination"]
    /// A handoff sent after a stretch (`handoff.sent[]`).
    package static let sending: KeyList = ["after"]
    /// One service prompt, `road.servicePrompts[]`.
    package static let servicePrompt: KeyList = ["maneuver", "before", "text"]

    /// Every list above by name, for tests that hold the schema to the decoder.
    package static let all: [(name: String, keys: KeyList)] = [
        ("root", root), ("settings", settings), ("line", line), ("stretch", stretch), ("reply", reply),
        ("utterance", utterance),
        ("dadReply", dadReply), ("matcher", matcher), ("anchor", anchor), ("pippa", pippa), ("textTest", textTest),
        ("range", range), ("window", window), ("road", road), ("route", route), ("point", point),
        ("maneuver", maneuver), ("drive", drive), ("speed", speed), ("detour", detour), ("stop", stop),
        ("generatedFixes", generatedFixes), ("recordedFixes", recordedFixes), ("late", late),
        ("fixStretch", fixStretch),
        ("jump", jump), ("recordedFix", recordedFix), ("link", link), ("app", app), ("follow", follow),
        ("guidance", guidance),
        ("lead", lead), ("rates", rates), ("servicePrompt", servicePrompt), ("maps", maps), ("place", place),
        ("change", change),
        ("handoff", handoff), ("sending", sending),
    ]
}

/// One object's keys (a list of `ScenarioKeys`), each also packed as its
/// length and its UTF-8 in two words, so that a key on the tape is found
/// among them with a few integer comparisons.
package struct KeyList: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    /// The most keys one object takes (the size of `Decoding.Fields.slots`).
    package static let most = 16
    /// The keys, in the format's order.
    package let names: [String]
    let packed: [JSONTape.PackedKey]

    package init(_ names: [String]) {
        precondition(names.count <= KeyList.most, "an object of the format takes at most \(KeyList.most) keys")
        self.names = names
        packed = names.map(JSONTape.PackedKey.init)
    }

    package init(arrayLiteral names: String...) { self.init(names) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { names.count }
    package subscript(position: Int) -> String { names[position] }

    /// Where `key` is in the list.
    @inline(__always) func index(of key: StaticString) -> Int? {
        let code = JSONTape.PackedKey(key)
        if code.count > JSONTape.PackedKey.width { return names.firstIndex(of: key.description) }
        return index(of: code)
    }

    /// Where the key of `member` is in the list.
    @inline(__always) func index(of member: JSONNode.Member) -> Int? {
        guard let code = member.packedKey else { return names.firstIndex { member.keyIs($0) } }
        return index(of: code)
    }

    /// Where the key packed as `code` (at most `PackedKey.width` bytes) is in the list.
    @inline(__always) private func index(of code: JSONTape.PackedKey) -> Int? {
        var n = 0
        for candidate in packed {
            if candidate == code { return n }
            n += 1
        }
        return nil
    }

    /// Both lists' keys.
    package static func + (a: KeyList, b: KeyList) -> KeyList { KeyList(a.names + b.names) }
}
