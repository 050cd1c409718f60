import Guidance
import Road
import SimRunner

/// Why a scenario file cannot be used, and where. Tests compare `reason`
/// cases; `description` is the one place these become prose.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// Where inside it: `replies[0].stretches[1].duration`; empty for the root.
    public var path: String
    /// 1-based line of the offending value (or character), when known.
    public var line: Int?
    /// 1-based column, in Unicode scalars, when known.
    public var column: Int?
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    public init(file: String, path: String, line: Int? = nil, column: Int? = nil, reason: Reason) {
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// What is wrong with a scenario file.
    public enum Reason: Sendable, Equatable {
        // The bytes are not one JSON value.
        /// The file holds nothing but whitespace.
        case emptyFile
        /// The file is not UTF-8.
        case invalidUTF8
        /// The file breaks the JSON grammar.
        case syntax(JSONSyntax)
        /// Objects and arrays nested deeper than `JSONParser.maxDepth`.
        case tooDeep
        /// An object has the same key twice.
        case duplicateKey(String)

        // The JSON is not a scenario.
        /// A value of the wrong JSON type.
        case wrongType(expected: Expected)
        /// A key the format does not have (the path ends with it).
        case unknownKey(String, suggestion: String?)
        /// A required key is absent from the object at the path.
        case missingField(String)
        /// `drivesim` is above `Scenario.formatVersion` (any number: `2`, `2.0`,
        /// `1e23`); the payload is the literal as written.
        case newerFormat(String)
        /// `drivesim` is below 1.
        case unsupportedFormat(Int)
        /// An integer that does not fit.
        case integerOutOfRange

        // Times.
        /// Seconds that are not a whole number of milliseconds (`0.0004`).
        case notWholeMilliseconds

        // Values.
        /// An id already used elsewhere in the scenario, at `firstAt`.
        case duplicateID(String, firstAt: String)
        /// A string outside a fixed set (a language, an `afterCut`, an event name).
        case unknownValue(String, allowed: [String], suggestion: String?)

        // Expectations.
        /// A matcher field the event does not carry (the path ends with it);
        /// the message lists the fields it carries.
        case unknownField(String, event: String, suggestion: String?)
        /// A matcher's event name that is none; `family` when its first word
        /// is a family's (`talk`), whose events the message lists (else all of them).
        case unknownEvent(String, family: String?, suggestion: String?)
        /// A matcher with both `at` and `between`.
        case atAndBetween
        /// `between` that is not a list of exactly two times.
        case windowNotAPair
        /// A matcher id that names no item of its kind (`line`, `stretch`,
        /// `line or utterance`…) in the scenario, road maneuvers and
        /// generated lines included.
        case unknownID(String, kind: String, suggestion: String?)
        /// A string field's test that is not exactly one of `contains` and `matches`.
        case oneTextTest

        /// A value `Scenario.validate()` refuses (`ScenarioProblem.Reason`,
        /// the road's by `RoadSetup.validate()` as `.road`), or one the
        /// decoder refuses as it reads it: a negative or too large time, an
        /// empty string, a reversed window…; worded by its `message`.
        case invalid(ScenarioProblem.Reason)

        // Numbers and text the decoder judges as it reads them.
        /// A nonzero number too close to zero to be represented (`1e-400`):
        /// refused rather than read as 0 or with lost precision.
        case underflow
        /// A string longer than this many characters.
        case stringTooLong(maxCharacters: Int)
        /// A number outside the range the field allows.
        case outOfRange(String)
        /// A maneuver key that its kind does not take (`exit` on a `left`); `only` lists the kinds that do.
        case keyNotForTurn(String, turn: String, only: [String])

        // Warnings: the file is used as written (`ScenarioDecoder.warnings`).
        /// A line's or stretch's `duration` over `ScenarioDecoder.unitSlipSeconds`
        /// (`"duration": 3000`, a millisecond habit, is a 50-minute line); the seconds as written.
        case looksLikeMilliseconds(seconds: String)
    }

    /// What a value should have been.
    public enum Expected: Sendable, Equatable, CustomStringConvertible {
        case object
        case array
        case string
        case boolean
        case seconds
        case integer
        case window
        case number
        /// A handoff's sending: a time, or the stretch it follows.
        case sending

        /// The JSON type as a message names it (`an object`, `a string`).
        public var description: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .boolean: return "true or false"
            case .seconds: return "a number of seconds"
            case .integer: return "an integer"
            case .window: return "a list of two times in seconds, [from, to]"
            case .number: return "a number"
            case .sending: return "a number of seconds or {\"after\": a stretch's id}"
            }
        }
    }

    /// `FILE:LINE:COL: PATH: reason`, leaving out what is unknown. Always
    /// one line: the file name and the path are escaped (`escaped`), and so
    /// is everything from the file that the reason quotes.
    public var description: String {
        var location = ScenarioError.escaped(file)
        if let line, let column, line > 0 { location += ":\(line):\(column)" }
        let where_ = ScenarioError.escaped(path)
        return path.isEmpty ? "\(location): \(reason.message)" : "\(location): \(where_): \(reason.message)"
    }

    /// `text` safe to print on one line: a backslash becomes `\\`, and every
    /// control, line-separating or bidirectional-override scalar becomes an
    /// escape (`\n`, `\r`, `\t`, `\0`, else `\u{1B}`); with `quote`, a
    /// double quote becomes `\"`, so the text can sit between quotes.
    package static func escaped(_ text: String, quote: Bool = false) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00: out += "\\0"
            case 0x5C: out += "\\\\"
            case 0x22 where quote: out += "\\\""
            case _ where isUnsafeForDisplay(scalar):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension ScenarioError.Reason {
    /// The reason as a phrase.
    package var message: String {
        switch self {
        case .invalid(let reason): return reason.message
        case .emptyFile: return "the file is empty; a scenario is one JSON object"
        case .invalidUTF8: return "the file is not valid UTF-8"
        case .syntax(let s): return "invalid JSON: \(s)"
        case .tooDeep: return "nested deeper than \(JSONParser.maxDepth) levels"
        case .duplicateKey(let k): return "duplicate key \(quoted(k))"
        case .wrongType(let expected): return "expected \(expected)"
        case .unknownKey(_, let suggestion): return "unknown key" + didYouMean(suggestion)
        case .missingField(let k): return "missing required key \(quoted(k))"
        case .newerFormat(let n):
            return
                "this file is written for a newer drivesim (format \(n)); this drivesim reads format \(Scenario.formatVersion)"
        case .unsupportedFormat(let n):
            return "format \(n) is not supported; this drivesim reads format \(Scenario.formatVersion)"
        case .integerOutOfRange: return "integer out of range"
        case .notWholeMilliseconds: return "not a whole number of milliseconds (seconds take at most 3 decimals)"
        case .duplicateID(let id, let firstAt):
            return "duplicate id \(quoted(id)); first used at \(ScenarioError.escaped(firstAt))"
        case .unknownValue(let v, let allowed, let suggestion):
            return "unknown value \(quoted(v)); expected one of \(allowed.map(quoted).joined(separator: ", "))"
                + didYouMean(suggestion)
        case .unknownField(let f, let event, let suggestion):
            let fields = EventKind(rawValue: event)?.fields.map(\.rawValue) ?? []
            let carries = fields.isEmpty ? "it carries no field" : "it carries " + fields.joined(separator: ", ")
            return "unknown field \(quoted(f)) for event \(quoted(event)); \(carries)" + didYouMean(suggestion)
        case .unknownEvent(let name, let family, let suggestion):
            let names = family.flatMap { TimelineSuggestion.family(of: $0 + ".")?.names }
            let list =
                names.map { "the \(family ?? "") events are " + $0.map(quoted).joined(separator: ", ") }
                ?? "expected one of " + EventKind.allCases.map { quoted($0.rawValue) }.joined(separator: ", ")
            return "unknown event \(quoted(name)); \(list)" + didYouMean(suggestion)
        case .atAndBetween: return "give either at or between, not both"
        case .windowNotAPair: return "between must be a list of two times in seconds, [from, to]"
        case .unknownID(let id, let kind, let suggestion):
            return "no \(kind) of this scenario has the id \(quoted(id))" + didYouMean(suggestion)
        case .oneTextTest: return "a text test takes one key: {\"contains\": text} or {\"matches\": pattern}"
        case .underflow: return "a nonzero number too close to zero to be represented; write 0 or a larger value"
        case .stringTooLong(let n): return "longer than \(n) characters"
        case .outOfRange(let range): return "must be within \(range)"
        case .keyNotForTurn(let key, let turn, let only):
            return "a \(quoted(turn)) maneuver has no \(quoted(key)); it is only for "
                + only.map(quoted).joined(separator: ", ")
        case .looksLikeMilliseconds(let seconds):
            let minutes = ScenarioDecoder.unitSlipSeconds / 60
            return "\(seconds) s is over \(minutes) minutes, long for a line or stretch: durations are in seconds "
                + "(2.5, not 2500); used as written"
        }
    }
}

extension ScenarioProblem.Reason {
    /// The reason as a phrase: the one wording of what the decoder reports
    /// as `.invalid`; the rest in the decoder's words (`Decoding.reason`).
    package var message: String {
        switch self {
        case .negative: return "must not be negative"
        case .tooLarge(let limit):
            let hours = limit / 3600
            return "exceeds the limit of \(limit) s (\(hours) h)"
        case .notPositive: return "must be greater than zero"
        case .expiresNotAfterAt: return "expires must be later than the line's at"
        case .emptyID: return "an id must not be empty"
        case .emptyString: return "must not be empty"
        case .emptyStretches: return "a reply needs at least one stretch"
        case .overlappingUtterance(let other): return "overlaps Dad's utterance \(quoted(other)); he has one voice"
        case .reversedWindow: return "between's start is after its end"
        case .invalidPattern(let problem):
            switch problem {
            case .invalid(let why, let at):
                return "not a valid pattern at character \(at): \(ScenarioError.escaped(why))"
            case .tooLong(let n): return "a pattern is at most \(n) characters"
            case .tooComplex(let n): return "the pattern compiles to more than \(n) instructions; repeat fewer times"
            }
        case .emptyRange: return "a range needs \"min\", \"max\" or both"
        case .reversedRange: return "the range's min is above its max"
        case .withinWithoutSince: return "within counts from since's event; give since too"
        case .pippaWithoutRoad: return "Pippa's view is what the road's reports tell her; this scenario has no road"
        case .notInAnchor(let key):
            return "a matcher inside since or until finds one event to measure from; it takes no \(quoted(key))"
        case .testedTwice(let key): return "\(quoted(key)) is tested twice"
        case .generatedLineID(let id):
            return "the road generates a guidance line with the id \(quoted(id)); choose another id"
        case .road(let reason): return reason.message
        case .duplicateID, .fieldNotCarried, .wrongType, .unknownID, .unknownValue:
            return Decoding.reason(self).message
        }
    }
}

extension RoadSetup.Problem.Reason {
    /// The reason as a phrase: the one wording of what `RoadSetup.validate()`
    /// refuses, which the decoder reports as `.invalid(.road(reason))`.
    package var message: String {
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }
        func within(_ range: String) -> String { ScenarioError.Reason.outOfRange(range).message }
        switch self {
        case .route(.tooFewPoints): return "a route needs at least two points"
        case .route(.maneuverOffRoute(_, let meters)):
            return
                "the maneuver lies \(MeasuredValue.text(meters, beyond: Route.maneuverTolerance)) m from the route; it must be within \(Int(Route.maneuverTolerance)) m, after the previous maneuver"
        case .route(.maneuverOutOfOrder):
            return "the maneuver lies on the route only before the previous maneuver; list maneuvers in route order"
        case .routeTooLong(let meters):
            return
                "the route is \(MeasuredValue.text(meters / 1000, beyond: Route.maxLength / 1000)) km long; a route is at most \(Int(Route.maxLength / 1000)) km"
        case .coordinateOutOfRange: return "latitude must be within -90...90 and longitude within -180...180"
        case .outOfRange(let r): return within("\(number(r.lowerBound))...\(number(r.upperBound))")
        case .countOutOfRange(let r): return within("\(r.lowerBound)...\(r.upperBound)")
        case .timeOutOfRange(let r):
            return within(
                "\(Seconds.literal(milliseconds: r.lowerBound.ms))...\(Seconds.literal(milliseconds: r.upperBound.ms))")
        case .courseOutOfRange: return within("0...<360")
        case .exitBeyondEnter(let enter): return within("0...offRouteEnter (\(number(enter)))")
        case .emptyWindow: return "a window's to must be later than its from"
        case .negative: return ScenarioProblem.Reason.negative.message
        case .notPositive: return ScenarioProblem.Reason.notPositive.message
        case .textEmpty: return ScenarioProblem.Reason.emptyString.message
        case .textTooLong(let most): return ScenarioError.Reason.stringTooLong(maxCharacters: most).message
        case .arrivalNotLast: return "no maneuver may follow the arrival; the destination ends the route"
        case .exitMissing: return ScenarioError.Reason.missingField("exit").message
        case .driveMissing: return "generated fixes need a drive (speed profile)"
        case .driveWithRecordedFixes: return "recorded fixes carry their own positions; remove the drive"
        case .driveTooLong:
            return
                "the car would not arrive within \(ScenarioDecoder.maxTimeSeconds) s (24 h), the longest drive; shorten the route or raise the speeds"
        case .stepsOutOfOrder: return "speed steps start at 0 m and their distances increase"
        case .fixTimeBackwards: return "fix times go backwards: taken before the fix listed before it"
        case .arrivesBeforeTaken: return "a fix cannot arrive before it was taken"
        case .branchOffRoad(let meters):
            return
                "the change's first point lies \(MeasuredValue.text(meters, beyond: Route.maneuverTolerance)) m from the road before it; it must be within \(Int(Route.maneuverTolerance)) m, after the previous change's branch"
        case .timeoutNotAboveLatency: return "maps.timeout must be above maps.latency, or no answer could ever come"
        case .sentOutOfOrder: return "a handoff's sent times must not go backwards"
        case .duplicateName: return "a saved place of that name is listed already; names are unique"
        case .changesNeedADrive: return "route changes need a drive: the car's true path is driven, not recorded"
        }
    }
}

// Everything from the file is escaped, so a message is one line.
private func quoted(_ s: String) -> String { "\"" + ScenarioError.escaped(s, quote: true) + "\"" }
private func didYouMean(_ s: String?) -> String { s.map { "; did you mean \(quoted($0))?" } ?? "" }
