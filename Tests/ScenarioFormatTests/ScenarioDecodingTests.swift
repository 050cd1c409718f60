import Guidance
import Road
import SimClock
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

/// Decodes `text`, returning the error it raises (nil if it decodes).
private func failure(_ text: String, file: String = "test.json") -> ScenarioError? {
    failure(Array(text.utf8), file: file)
}

private func failure(_ bytes: [UInt8], file: String = "test.json") -> ScenarioError? {
    do {
        _ = try ScenarioDecoder.decode(bytes, file: file)
        return nil
    } catch {
        return error
    }
}

private func decode(_ text: String) throws -> Scenario {
    try ScenarioDecoder.decode(Array(text.utf8), file: "test.json")
}

/// A scenario file with the required root keys and `body` after them.
private func scenario(_ body: String) -> String {
    body.isEmpty ? #"{"drivesim": 1, "name": "t"}"# : #"{"drivesim": 1, "name": "t", "# + body + "}"
}

/// The SPEC's example, verbatim.
let specExample = #"""
    {
      "drivesim": 1,
      "name": "ordinary line waits for a short stretch",
      "settings": { "earsTail": 0.5, "waitLimit": 3.0, "afterCut": "repeat" },
      "guidance": [
        { "id": "g1", "at": 2.0, "duration": 1.8, "urgent": false,
          "text": "In 300 m, turn right", "language": "en", "maneuver": "m1" }
      ],
      "replies": [
        { "id": "r1", "at": 0.0, "stretches": [
          { "id": "s1", "duration": 4.0, "ready": 0.0, "text": "...", "language": "ko" },
          { "id": "s2", "duration": 2.0, "ready": 1.0 } ] }
      ],
      "dad": [
        { "id": "u1", "at": 9.0, "duration": 1.2, "language": "ko",
          "reply": { "id": "r2", "after": 0.8, "stretches": [ { "id": "s3", "duration": 2.0 } ] } }
      ],
      "expect": [
        { "at": 4.0, "event": "guidance.started", "line": "g1" },
        { "event": "talk.stretch.cut", "count": 0 }
      ]
    }
    """#

/// One file that must be refused, with the reason case and path it must give.
struct BadScenario: Sendable, CustomTestStringConvertible {
    let label: String
    let text: String
    let path: String
    let reason: ScenarioError.Reason
    var testDescription: String { label }

    init(_ label: String, _ text: String, _ path: String, _ reason: ScenarioError.Reason) {
        self.label = label
        self.text = text
        self.path = path
        self.reason = reason
    }
}

private let line = #""guidance": [{"id": "g1", "at": 2, "duration": 1}]"#
private let reply = #""replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 1}]}]"#
private func line(_ extra: String) -> String { #""guidance": [{"id": "g1", "at": 2, "duration": 1, "# + extra + "}]" }
private func matcher(_ body: String) -> String { #""expect": [{"# + body + "}]" }

let badScenarios: [BadScenario] =
    [
        // Not JSON.
        BadScenario("empty file", "", "", .emptyFile),
        BadScenario("only whitespace", " \n\t ", "", .emptyFile),
        BadScenario("trailing comma", #"{"drivesim": 1,}"#, "", .syntax(.unexpectedCharacter("'}'", expected: .key))),
        BadScenario("comment", "{// hi\n}", "", .syntax(.unexpectedCharacter("'/'", expected: .key))),
        BadScenario("NaN", #"{"drivesim": NaN}"#, "drivesim", .syntax(.unexpectedCharacter("'N'", expected: .value))),
        BadScenario("leading zero", #"{"drivesim": 01}"#, "drivesim", .syntax(.invalidNumber)),
        BadScenario("bare decimal point", #"{"drivesim": 1.}"#, "drivesim", .syntax(.invalidNumber)),
        BadScenario("trailing content", scenario("") + " {}", "", .syntax(.trailingContent)),
        BadScenario("unterminated string", #"{"name": "abc"#, "name", .syntax(.unexpectedEnd(expected: .closingQuote))),
        BadScenario("raw tab in string", "{\"name\": \"a\tb\"}", "name", .syntax(.controlCharacterInString)),
        BadScenario("lone surrogate", #"{"name": "\ud800x"}"#, "name", .syntax(.invalidUnicodeEscape)),
        BadScenario("bad escape", #"{"name": "\x"}"#, "name", .syntax(.invalidEscape)),
        BadScenario("single quotes", "{'name': 1}", "", .syntax(.unexpectedCharacter("'''", expected: .key))),
        BadScenario("duplicate key", #"{"drivesim": 1, "name": "a", "name": "b"}"#, "name", .duplicateKey("name")),
        BadScenario(
            "nested duplicate key", scenario(#""settings": {"earsTail": 1, "earsTail": 2}"#), "settings.earsTail",
            .duplicateKey("earsTail")),

        // The format version, checked first.
        BadScenario("top level not an object", "[1, 2]", "", .wrongType(expected: .object)),
        BadScenario("drivesim missing", #"{"name": "t"}"#, "", .missingField("drivesim")),
        BadScenario(
            "drivesim a string", #"{"drivesim": "1", "name": "t"}"#, "drivesim", .wrongType(expected: .integer)),
        BadScenario(
            "drivesim fractional", #"{"drivesim": 0.5, "name": "t"}"#, "drivesim", .wrongType(expected: .integer)),
        BadScenario("drivesim 1.0", #"{"drivesim": 1.0, "name": "t"}"#, "drivesim", .wrongType(expected: .integer)),
        BadScenario("newer format", #"{"drivesim": 2, "name": "t"}"#, "drivesim", .newerFormat("2")),
        BadScenario(
            "newer format before unknown keys", #"{"bogus": true, "drivesim": 3}"#, "drivesim", .newerFormat("3")),
        BadScenario("newer format written 2.0", #"{"drivesim": 2.0, "name": "t"}"#, "drivesim", .newerFormat("2.0")),
        BadScenario("newer format written 1e23", #"{"drivesim": 1e23, "name": "t"}"#, "drivesim", .newerFormat("1e23")),
        BadScenario("newer format written 1.5", #"{"drivesim": 1.5, "name": "t"}"#, "drivesim", .newerFormat("1.5")),
        BadScenario("format zero", #"{"drivesim": 0, "name": "t"}"#, "drivesim", .unsupportedFormat(0)),
        BadScenario(
            "huge format", #"{"drivesim": 99999999999999999999999, "name": "t"}"#, "drivesim",
            .newerFormat("99999999999999999999999")),
        BadScenario(
            "huge negative format", #"{"drivesim": -99999999999999999999999, "name": "t"}"#, "drivesim",
            .integerOutOfRange),

        // Keys.
        BadScenario(
            "unknown stretch key",
            scenario(
                #""replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 1}, {"id": "s2", "durration": 2}]}]"#
            ),
            "replies[0].stretches[1].durration", .unknownKey("durration", suggestion: "duration")),
        BadScenario(
            "unknown root key", scenario(#""guidence": []"#), "guidence",
            .unknownKey("guidence", suggestion: "guidance")),
        BadScenario(
            "key in wrong case", #"{"drivesim": 1, "Name": "t"}"#, "Name", .unknownKey("Name", suggestion: "name")),
        BadScenario(
            "unknown key, nothing close", scenario(#""colour": "red""#), "colour",
            .unknownKey("colour", suggestion: nil)),
        BadScenario(
            "unknown settings key", scenario(#""settings": {"earTail": 1}"#), "settings.earTail",
            .unknownKey("earTail", suggestion: "earsTail")),
        BadScenario("name missing", #"{"drivesim": 1}"#, "", .missingField("name")),
        BadScenario(
            "line without duration", scenario(#""guidance": [{"id": "g1", "at": 2}]"#), "guidance[0]",
            .missingField("duration")),
        BadScenario(
            "stretch without id", scenario(#""replies": [{"id": "r1", "at": 0, "stretches": [{"duration": 1}]}]"#),
            "replies[0].stretches[0]", .missingField("id")),
        BadScenario(
            "reply without stretches", scenario(#""replies": [{"id": "r1", "at": 0}]"#), "replies[0]",
            .missingField("stretches")),
        BadScenario(
            "utterance without language", scenario(#""dad": [{"id": "u1", "at": 1, "duration": 1}]"#), "dad[0]",
            .missingField("language")),
        BadScenario(
            "reply to Dad without id",
            scenario(
                #""dad": [{"id": "u1", "at": 1, "duration": 1, "language": "ko", "reply": {"stretches": [{"id": "s1", "duration": 1}]}}]"#
            ),
            "dad[0].reply", .missingField("id")),

        // Types.
        BadScenario("name a number", #"{"drivesim": 1, "name": 5}"#, "name", .wrongType(expected: .string)),
        BadScenario("name empty", #"{"drivesim": 1, "name": ""}"#, "name", .invalid(.emptyString)),
        BadScenario("guidance an object", scenario(#""guidance": {}"#), "guidance", .wrongType(expected: .array)),
        BadScenario("line a string", scenario(#""guidance": ["g1"]"#), "guidance[0]", .wrongType(expected: .object)),
        BadScenario(
            "time as a string", scenario(#""guidance": [{"id": "g1", "at": "2", "duration": 1}]"#), "guidance[0].at",
            .wrongType(expected: .seconds)),
        BadScenario(
            "urgent as a string", scenario(line(#""urgent": "yes""#)), "guidance[0].urgent",
            .wrongType(expected: .boolean)),
        BadScenario(
            "description a number", scenario(#""description": 1"#), "description", .wrongType(expected: .string)),
        BadScenario(
            "maneuver empty", scenario(line(#""maneuver": """#)), "guidance[0].maneuver", .invalid(.emptyString)),

        // Times.
        BadScenario(
            "not whole milliseconds", scenario(#""guidance": [{"id": "g1", "at": 0.0004, "duration": 1}]"#),
            "guidance[0].at", .notWholeMilliseconds),
        BadScenario(
            "negative time", scenario(#""guidance": [{"id": "g1", "at": -1, "duration": 1}]"#), "guidance[0].at",
            .invalid(.negative)),
        BadScenario(
            "negative beats fraction", scenario(#""guidance": [{"id": "g1", "at": -0.0004, "duration": 1}]"#),
            "guidance[0].at", .invalid(.negative)),
        BadScenario(
            "time beyond a day", scenario(#""guidance": [{"id": "g1", "at": 86400.001, "duration": 1}]"#),
            "guidance[0].at", .invalid(.tooLarge(limitSeconds: 86400))),
        BadScenario(
            "1e400", scenario(#""guidance": [{"id": "g1", "at": 1e400, "duration": 1}]"#), "guidance[0].at",
            .invalid(.tooLarge(limitSeconds: 86400))),
        BadScenario(
            "400 digits",
            scenario(#""guidance": [{"id": "g1", "at": 2, "duration": "# + String(repeating: "9", count: 400) + "}]"),
            "guidance[0].duration", .invalid(.tooLarge(limitSeconds: 3600))),
        BadScenario(
            "duration beyond an hour", scenario(#""guidance": [{"id": "g1", "at": 2, "duration": 3600.5}]"#),
            "guidance[0].duration", .invalid(.tooLarge(limitSeconds: 3600))),
        BadScenario(
            "ready beyond an hour",
            scenario(#""replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 1, "ready": 4000}]}]"#),
            "replies[0].stretches[0].ready", .invalid(.tooLarge(limitSeconds: 3600))),
        BadScenario(
            "zero duration", scenario(#""guidance": [{"id": "g1", "at": 2, "duration": 0}]"#), "guidance[0].duration",
            .invalid(.notPositive)),
        BadScenario(
            "zero stretch duration",
            scenario(#""replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 0.0}]}]"#),
            "replies[0].stretches[0].duration", .invalid(.notPositive)),
        BadScenario(
            "negative earsTail", scenario(#""settings": {"earsTail": -0.5}"#), "settings.earsTail", .invalid(.negative)),
        BadScenario(
            "expires equal to at", scenario(line(#""expires": 2.000"#)), "guidance[0].expires",
            .invalid(.expiresNotAfterAt)),
        BadScenario(
            "expires before at", scenario(line(#""expires": 1"#)), "guidance[0].expires", .invalid(.expiresNotAfterAt)),

        // Values.
        BadScenario(
            "unknown language", scenario(#""dad": [{"id": "u1", "at": 1, "duration": 1, "language": "fr"}]"#),
            "dad[0].language",
            .unknownValue("fr", allowed: ["ko", "en"], suggestion: nil)),
        BadScenario(
            "language in capitals", scenario(line(#""language": "EN""#)), "guidance[0].language",
            .unknownValue("EN", allowed: ["ko", "en"], suggestion: "en")),
        BadScenario(
            "afterCut typo", scenario(#""settings": {"afterCut": "repaet"}"#), "settings.afterCut",
            .unknownValue("repaet", allowed: ["repeat", "skip", "drop"], suggestion: "repeat")),
        BadScenario(
            "empty id", scenario(#""guidance": [{"id": "", "at": 2, "duration": 1}]"#), "guidance[0].id",
            .invalid(.emptyID)),
        BadScenario(
            "id a number", scenario(#""guidance": [{"id": 1, "at": 2, "duration": 1}]"#), "guidance[0].id",
            .wrongType(expected: .string)),
        BadScenario(
            "duplicate id across lists",
            scenario(line + ", " + #""replies": [{"id": "r1", "at": 0, "stretches": [{"id": "g1", "duration": 1}]}]"#),
            "replies[0].stretches[0].id", .duplicateID("g1", firstAt: "guidance[0].id")),
        BadScenario(
            "duplicate id in a reply to Dad",
            scenario(
                reply + ", "
                    + #""dad": [{"id": "u1", "at": 1, "duration": 1, "language": "ko", "reply": {"id": "r1", "stretches": [{"id": "s9", "duration": 1}]}}]"#
            ),
            "dad[0].reply.id", .duplicateID("r1", firstAt: "replies[0].id")),
        BadScenario(
            "empty stretches", scenario(#""replies": [{"id": "r1", "at": 0, "stretches": []}]"#),
            "replies[0].stretches", .invalid(.emptyStretches)),
        BadScenario(
            "reply to Dad with empty stretches",
            scenario(
                #""dad": [{"id": "u1", "at": 1, "duration": 1, "language": "ko", "reply": {"id": "r2", "stretches": []}}]"#
            ),
            "dad[0].reply.stretches", .invalid(.emptyStretches)),
        BadScenario(
            "overlapping utterances",
            scenario(
                #""dad": [{"id": "u1", "at": 1, "duration": 2, "language": "ko"}, {"id": "u2", "at": 2.999, "duration": 1, "language": "en"}]"#
            ),
            "dad[1]", .invalid(.overlappingUtterance(with: "u1"))),
        BadScenario(
            "utterance inside a long one listed first later",
            scenario(
                #""dad": [{"id": "u1", "at": 5, "duration": 1, "language": "ko"}, {"id": "u2", "at": 0, "duration": 10, "language": "en"}, {"id": "u3", "at": 20, "duration": 1, "language": "en"}]"#
            ),
            "dad[0]", .invalid(.overlappingUtterance(with: "u2"))),

        // Expectations.
        BadScenario("matcher without event", scenario(matcher(#""at": 1"#)), "expect[0]", .missingField("event")),
        BadScenario(
            "unknown event", scenario(matcher(#""event": "guidance.start""#)), "expect[0].event",
            .unknownEvent("guidance.start", family: "guidance", suggestion: "guidance.started")),
        BadScenario(
            "unknown matcher field", scenario(matcher(#""event": "guidance.started", "lin": "g1""#)), "expect[0].lin",
            .unknownField("lin", event: "guidance.started", suggestion: "line")),
        BadScenario(
            "field of another event", scenario(matcher(#""event": "guidance.ended", "stretch": "s1""#)),
            "expect[0].stretch",
            .unknownField("stretch", event: "guidance.ended", suggestion: nil)),
        BadScenario(
            "matcher key typo", scenario(matcher(#""event": "guidance.ended", "cuont": 1"#)), "expect[0].cuont",
            .unknownField("cuont", event: "guidance.ended", suggestion: "count")),
        BadScenario(
            "fractional heardMs", scenario(matcher(#""event": "dad.ended", "heardMs": 1.5"#)), "expect[0].heardMs",
            .wrongType(expected: .integer)),
        BadScenario(
            "heardMs as a string", scenario(matcher(#""event": "dad.ended", "heardMs": "1500""#)), "expect[0].heardMs",
            .wrongType(expected: .integer)),
        BadScenario(
            "urgent as a number", scenario(matcher(#""event": "guidance.requested", "urgent": 1"#)), "expect[0].urgent",
            .wrongType(expected: .boolean)),
        BadScenario(
            "line as a number", scenario(matcher(#""event": "guidance.ended", "line": 1"#)), "expect[0].line",
            .wrongType(expected: .string)),
        BadScenario(
            "between reversed", scenario(matcher(#""event": "guidance.ended", "between": [5, 4.999]"#)),
            "expect[0].between", .invalid(.reversedWindow)),
        BadScenario(
            "between with one time", scenario(matcher(#""event": "guidance.ended", "between": [5]"#)),
            "expect[0].between", .windowNotAPair),
        BadScenario(
            "between a number", scenario(matcher(#""event": "guidance.ended", "between": 5"#)), "expect[0].between",
            .wrongType(expected: .window)),
        BadScenario(
            "between with a bad time", scenario(matcher(#""event": "guidance.ended", "between": [1, 0.0001]"#)),
            "expect[0].between[1]", .notWholeMilliseconds),
        BadScenario(
            "at and between together", scenario(matcher(#""event": "guidance.ended", "at": 1, "between": [0, 2]"#)),
            "expect[0]", .atAndBetween),
        BadScenario(
            "negative count", scenario(matcher(#""event": "guidance.ended", "count": -1"#)), "expect[0].count",
            .invalid(.negative)),
        BadScenario(
            "fractional count", scenario(matcher(#""event": "guidance.ended", "count": 1.5"#)), "expect[0].count",
            .wrongType(expected: .integer)),
        BadScenario(
            "matcher not an object", scenario(#""expect": ["guidance.ended"]"#), "expect[0]",
            .wrongType(expected: .object)),
    ] + badMatchers + badMatchersBeyondEquality + badRoads

/// A road with one maneuver, `m1`, and a drive, as a root member.
private let roadM1 =
    #""road": {"language": "en", "route": {"points": [{"lat": 37.5, "lon": 127.0}, {"lat": 37.5, "lon": 127.01}], "maneuvers": [{"id": "m1", "lat": 37.5, "lon": 127.01, "turn": "left"}]}, "drive": {"speeds": [{"from": 0, "kmh": 50}]}}"#
private let dad = #""dad": [{"id": "u1", "at": 5, "duration": 1, "language": "ko"}]"#

/// Matchers that name what the scenario does not have (SPEC 6), and ids a
/// generated line takes: refused before anything runs.
let badMatchers: [BadScenario] = [
    BadScenario(
        "stretch id in the wrong case",
        scenario(line + ", " + reply + ", " + matcher(#""event": "talk.stretch.cut", "stretch": "S1", "count": 0"#)),
        "expect[0].stretch", .unknownID("S1", kind: "stretch", suggestion: "s1")),
    BadScenario(
        "rule in snake case",
        scenario(line + ", " + reply + ", " + matcher(#""event": "talk.stretch.cut", "rule": "long_cut""#)),
        "expect[0].rule",
        .unknownValue("long_cut", allowed: ["urgent-cut", "long-cut", "barge-in"], suggestion: "long-cut")),
    BadScenario(
        "rule another event carries", scenario(matcher(#""event": "guidance.waiting", "rule": "long-cut""#)),
        "expect[0].rule", .unknownValue("long-cut", allowed: ["short-wait", "guidance-queue"], suggestion: nil)),
    BadScenario(
        "rule on an event of one rule", scenario(matcher(#""event": "ears.closed", "rule": "held""#)),
        "expect[0].rule", .unknownValue("held", allowed: ["ears-closed"], suggestion: nil)),
    BadScenario(
        "rule on an event without rules", scenario(matcher(#""event": "guidance.started", "rule": "held""#)),
        "expect[0].rule", .unknownField("rule", event: "guidance.started", suggestion: nil)),
    BadScenario(
        "line that does not exist", scenario(line + ", " + matcher(#""event": "guidance.started", "line": "g2""#)),
        "expect[0].line", .unknownID("g2", kind: "line", suggestion: "g1")),
    BadScenario(
        "line in a scenario without lines", scenario(matcher(#""event": "guidance.ended", "line": "g1", "count": 0"#)),
        "expect[0].line", .unknownID("g1", kind: "line", suggestion: nil)),
    BadScenario(
        "reply that does not exist", scenario(reply + ", " + matcher(#""event": "talk.reply.began", "reply": "r2""#)),
        "expect[0].reply", .unknownID("r2", kind: "reply", suggestion: "r1")),
    BadScenario(
        "a stretch's id as a reply", scenario(reply + ", " + matcher(#""event": "talk.reply.ended", "reply": "s1""#)),
        "expect[0].reply", .unknownID("s1", kind: "reply", suggestion: "r1")),
    BadScenario(
        "utterance that does not exist",
        scenario(dad + ", " + matcher(#""event": "dad.ended", "utterance": "u2", "heardMs": 1000"#)),
        "expect[0].utterance", .unknownID("u2", kind: "utterance", suggestion: "u1")),
    BadScenario(
        "by names a reply", scenario(reply + ", " + matcher(#""event": "talk.stretch.cut", "by": "r1""#)),
        "expect[0].by", .unknownID("r1", kind: "line or utterance", suggestion: nil)),
    BadScenario(
        "maneuver no line announces",
        scenario(line(#""maneuver": "m1""#) + ", " + matcher(#""event": "guidance.requested", "maneuver": "m2""#)),
        "expect[0].maneuver", .unknownID("m2", kind: "maneuver", suggestion: "m1")),
    BadScenario(
        "stage that does not exist", scenario(matcher(#""event": "guidance.requested", "stage": "nearr""#)),
        "expect[0].stage", .unknownValue("nearr", allowed: ["far", "near", "now"], suggestion: "near")),
    BadScenario(
        "reason another event carries",
        scenario(roadM1 + ", " + matcher(#""event": "road.fix.dropped", "reason": "stale""#)),
        "expect[0].reason",
        .unknownValue("stale", allowed: ["out-of-order", "inaccurate", "implausible"], suggestion: nil)),
    BadScenario(
        "skip reason typo", scenario(roadM1 + ", " + matcher(#""event": "road.stage.skipped", "reason": "than""#)),
        "expect[0].reason",
        .unknownValue("than", allowed: ["late", "then", "repeated", "not-guiding"], suggestion: "then")),
    BadScenario(
        "language of a matcher", scenario(dad + ", " + matcher(#""event": "dad.started", "language": "kr""#)),
        "expect[0].language", .unknownValue("kr", allowed: ["ko", "en"], suggestion: "ko")),
    BadScenario(
        "road maneuver that does not exist",
        scenario(roadM1 + ", " + matcher(#""event": "road.turn.passed", "maneuver": "m2""#)),
        "expect[0].maneuver", .unknownID("m2", kind: "maneuver", suggestion: "m1")),
    BadScenario(
        "a line's maneuver on a road event",
        scenario(
            line(#""maneuver": "x1""#) + ", " + roadM1 + ", "
                + matcher(#""event": "road.turn.passed", "maneuver": "x1""#)),
        "expect[0].maneuver", .unknownID("x1", kind: "maneuver", suggestion: "m1")),
    BadScenario(
        "generated line of no stage",
        scenario(roadM1 + ", " + matcher(#""event": "guidance.started", "line": "m1.nwo""#)),
        "expect[0].line", .unknownID("m1.nwo", kind: "line", suggestion: "m1.now")),
    BadScenario(
        "generated line of no maneuver",
        scenario(roadM1 + ", " + matcher(#""event": "guidance.started", "line": "m2.near""#)),
        "expect[0].line", .unknownID("m2.near", kind: "line", suggestion: "m1.near")),
    BadScenario(
        "reroute line without a road", scenario(matcher(#""event": "guidance.started", "line": "reroute1.off""#)),
        "expect[0].line", .unknownID("reroute1.off", kind: "line", suggestion: nil)),
    BadScenario(
        "reroute zero", scenario(roadM1 + ", " + matcher(#""event": "guidance.started", "line": "reroute0.off""#)),
        "expect[0].line", .unknownID("reroute0.off", kind: "line", suggestion: nil)),
    BadScenario(
        "fix without a road", scenario(matcher(#""event": "road.fix.arrived", "fix": "f1""#)),
        "expect[0].fix", .unknownID("f1", kind: "fix", suggestion: nil)),
    BadScenario(
        "fix with a leading zero", scenario(roadM1 + ", " + matcher(#""event": "road.fix.arrived", "fix": "f01""#)),
        "expect[0].fix", .unknownID("f01", kind: "fix", suggestion: nil)),
    BadScenario(
        "reporter that does not exist",
        scenario(roadM1 + ", " + matcher(#""event": "road.report.sent", "reporter": "pathfindr""#)),
        "expect[0].reporter", .unknownValue("pathfindr", allowed: ["pathfinder"], suggestion: "pathfinder")),
    BadScenario(
        "turn that does not exist", scenario(roadM1 + ", " + matcher(#""event": "road.turn.upcoming", "turn": "lef""#)),
        "expect[0].turn", .unknownValue("lef", allowed: Turn.allCases.map(\.rawValue), suggestion: "left")),
    BadScenario(
        "true is not 1 for a road flag",
        scenario(roadM1 + ", " + matcher(#""event": "road.fix.arrived", "trusted": 1"#)),
        "expect[0].trusted", .wrongType(expected: .boolean)),
    BadScenario(
        "1 is not true for milliseconds", scenario(matcher(#""event": "talk.stretch.cut", "playedMs": true"#)),
        "expect[0].playedMs", .wrongType(expected: .integer)),
    BadScenario(
        "matcher after a day", scenario(matcher(#""event": "guidance.ended", "at": 86400.001"#)),
        "expect[0].at", .invalid(.tooLarge(limitSeconds: 86400))),

    // Generated line ids against the file's ids.
    BadScenario(
        "hand-written line with a generated id",
        scenario(#""guidance": [{"id": "m1.near", "at": 2, "duration": 1}], "# + roadM1),
        "guidance[0].id", .invalid(.generatedLineID("m1.near"))),
    BadScenario(
        "stretch with a reroute line's id",
        scenario(
            #""replies": [{"id": "r1", "at": 0, "stretches": [{"id": "reroute2.back", "duration": 1}]}], "# + roadM1),
        "replies[0].stretches[0].id", .invalid(.generatedLineID("reroute2.back"))),
    BadScenario(
        "hand-written line with an arrival said again's id",
        scenario(
            #""guidance": [{"id": "m1.now-again", "at": 2, "duration": 1}], "#
                + roadM1.replacingOccurrences(of: #""turn": "left""#, with: #""turn": "arrive""#)),
        "guidance[0].id", .invalid(.generatedLineID("m1.now-again"))),
    BadScenario(
        "maneuver with a line's id", scenario(#""guidance": [{"id": "m1", "at": 2, "duration": 1}], "# + roadM1),
        "road.route.maneuvers[0].id", .duplicateID("m1", firstAt: "guidance[0].id")),
]

/// Matchers beyond equality (SPEC 6) that are malformed: each refused
/// before the run with its path (down to the key inside the test) and reason.
let badMatchersBeyondEquality: [BadScenario] = {
    let items = line + ", " + reply + ", " + dad + ", "
    func bad(_ label: String, _ body: String, _ path: String, _ reason: ScenarioError.Reason) -> BadScenario {
        // The bad matcher is the third, after two good ones.
        let good = #"{"event": "guidance.ended"}, {"event": "guidance.started", "line": "g1"}, "#
        return BadScenario(label, scenario(items + #""expect": ["# + good + "{" + body + "}]"), path, reason)
    }
    return [
        bad(
            "pattern that does not close its group", #""event": "guidance.started", "text": {"matches": "(then"}"#,
            "expect[2].text.matches", .invalid(.invalidPattern(.invalid("missing ) for the group", at: 1)))),
        bad(
            "pattern with a backreference", #""event": "guidance.started", "text": {"matches": "(a)\\1"}"#,
            "expect[2].text.matches",
            .invalid(.invalidPattern(.invalid("backreferences (\\1) are not supported", at: 4)))),
        bad(
            "pattern with lookahead", #""event": "guidance.started", "text": {"matches": "then(?= turn)"}"#,
            "expect[2].text.matches",
            .invalid(
                .invalidPattern(
                    .invalid("(? groups other than (?: and (?<name> (lookaround, options) are not supported", at: 6)))),
        bad(
            "pattern too large", #""event": "guidance.started", "text": {"matches": "a{9999}b{9999}"}"#,
            "expect[2].text.matches", .invalid(.invalidPattern(.tooComplex(maxInstructions: 10_000)))),
        bad(
            "empty pattern", #""event": "guidance.started", "text": {"matches": ""}"#, "expect[2].text.matches",
            .invalid(.emptyString)),
        bad(
            "empty contains", #""event": "guidance.started", "text": {"contains": ""}"#, "expect[2].text.contains",
            .invalid(.emptyString)),
        bad(
            "pattern a number", #""event": "guidance.started", "text": {"matches": 1}"#, "expect[2].text.matches",
            .wrongType(expected: .string)),
        bad(
            "contains misspelt", #""event": "guidance.started", "text": {"contians": "then"}"#,
            "expect[2].text.contians", .unknownKey("contians", suggestion: "contains")),
        bad(
            "contains and matches together", #""event": "guidance.started", "text": {"contains": "a", "matches": "b"}"#,
            "expect[2].text", .oneTextTest),
        bad("empty text test", #""event": "guidance.started", "text": {}"#, "expect[2].text", .oneTextTest),
        bad(
            "range on a string field", #""event": "guidance.started", "line": {"min": 1}"#, "expect[2].line.min",
            .unknownKey("min", suggestion: nil)),
        bad(
            "text test on an integer field", #""event": "dad.ended", "lostMs": {"contains": "5"}"#,
            "expect[2].lostMs.contains", .unknownKey("contains", suggestion: nil)),
        bad(
            "range on a flag", #""event": "guidance.requested", "urgent": {"min": 1}"#, "expect[2].urgent",
            .wrongType(expected: .boolean)),
        bad(
            "range bound a fraction", #""event": "dad.ended", "lostMs": {"min": 0.5}"#, "expect[2].lostMs.min",
            .wrongType(expected: .integer)),
        bad(
            "range bound a string", #""event": "dad.ended", "lostMs": {"max": "1000"}"#, "expect[2].lostMs.max",
            .wrongType(expected: .integer)),
        bad(
            "range misspelt", #""event": "dad.ended", "lostMs": {"mn": 500}"#, "expect[2].lostMs.mn",
            .unknownKey("mn", suggestion: "min")),
        bad("empty range", #""event": "dad.ended", "lostMs": {}"#, "expect[2].lostMs", .invalid(.emptyRange)),
        bad(
            "reversed range", #""event": "dad.ended", "lostMs": {"min": 1000, "max": 500}"#, "expect[2].lostMs",
            .invalid(.reversedRange)),
        bad(
            "range on a field of another event", #""event": "guidance.ended", "lostMs": {"min": 1}"#,
            "expect[2].lostMs", .unknownField("lostMs", event: "guidance.ended", suggestion: nil)),
        bad(
            "count range reversed", #""event": "guidance.ended", "count": {"min": 2, "max": 1}"#, "expect[2].count",
            .invalid(.reversedRange)),
        bad(
            "count range below zero", #""event": "guidance.ended", "count": {"min": -1}"#, "expect[2].count.min",
            .invalid(.negative)),
        bad("count range empty", #""event": "guidance.ended", "count": {}"#, "expect[2].count", .invalid(.emptyRange)),
        bad(
            "count range a fraction", #""event": "guidance.ended", "count": {"max": 1.5}"#, "expect[2].count.max",
            .wrongType(expected: .integer)),
        bad(
            "count range misspelt", #""event": "guidance.ended", "count": {"maxx": 1}"#, "expect[2].count.maxx",
            .unknownKey("maxx", suggestion: "max")),
        bad(
            "within without since", #""event": "guidance.ended", "within": 2"#, "expect[2].within",
            .invalid(.withinWithoutSince)),
        bad(
            "within with only until",
            #""event": "guidance.ended", "until": {"event": "guidance.started"}, "within": 2"#,
            "expect[2].within", .invalid(.withinWithoutSince)),
        bad(
            "within not whole milliseconds",
            #""event": "guidance.ended", "since": {"event": "guidance.started"}, "within": 0.0005"#,
            "expect[2].within", .notWholeMilliseconds),
        bad(
            "within above an hour",
            #""event": "guidance.ended", "since": {"event": "guidance.started"}, "within": 3600.001"#,
            "expect[2].within", .invalid(.tooLarge(limitSeconds: 3600))),
        bad(
            "within negative", #""event": "guidance.ended", "since": {"event": "guidance.started"}, "within": -1"#,
            "expect[2].within", .invalid(.negative)),
        bad(
            "within misspelt", #""event": "guidance.ended", "since": {"event": "guidance.started"}, "withn": 2"#,
            "expect[2].withn", .unknownField("withn", event: "guidance.ended", suggestion: "within")),
        bad(
            "since misspelt", #""event": "guidance.ended", "snice": {"event": "guidance.started"}"#,
            "expect[2].snice", .unknownField("snice", event: "guidance.ended", suggestion: "since")),
        bad(
            "since not an object", #""event": "guidance.ended", "since": "guidance.started""#, "expect[2].since",
            .wrongType(expected: .object)),
        bad(
            "since without an event", #""event": "guidance.ended", "since": {"line": "g1"}"#, "expect[2].since",
            .missingField("event")),
        bad(
            "since of an unknown event", #""event": "guidance.ended", "since": {"event": "talk.stretch.endd"}"#,
            "expect[2].since.event",
            .unknownEvent("talk.stretch.endd", family: "talk", suggestion: "talk.stretch.ended")),
        bad(
            "since naming a stretch that does not exist",
            #""event": "guidance.ended", "since": {"event": "talk.stretch.ended", "stretch": "s2"}"#,
            "expect[2].since.stretch", .unknownID("s2", kind: "stretch", suggestion: "s1")),
        bad(
            "since with a bad pattern",
            #""event": "guidance.ended", "since": {"event": "guidance.started", "text": {"matches": "a{2,1}"}}"#,
            "expect[2].since.text.matches",
            .invalid(.invalidPattern(.invalid("{2,1}: the upper bound is below the lower", at: 2)))),
        bad(
            "since with a reversed range",
            #""event": "guidance.ended", "since": {"event": "dad.ended", "lostMs": {"min": 2, "max": 1}}"#,
            "expect[2].since.lostMs", .invalid(.reversedRange)),
        bad(
            "since inside since",
            #""event": "guidance.ended", "since": {"event": "guidance.started", "since": {"event": "guidance.requested"}}"#,
            "expect[2].since.since", .invalid(.notInAnchor("since"))),
        bad(
            "until inside since",
            #""event": "guidance.ended", "since": {"event": "guidance.started", "until": {"event": "guidance.requested"}}"#,
            "expect[2].since.until", .invalid(.notInAnchor("until"))),
        bad(
            "within inside until", #""event": "guidance.ended", "until": {"event": "guidance.started", "within": 1}"#,
            "expect[2].until.within", .invalid(.notInAnchor("within"))),
        bad(
            "count inside until", #""event": "guidance.ended", "until": {"event": "guidance.started", "count": 1}"#,
            "expect[2].until.count", .invalid(.notInAnchor("count"))),
        bad(
            "count range inside since",
            #""event": "guidance.ended", "since": {"event": "guidance.started", "count": {"min": 1}}"#,
            "expect[2].since.count", .invalid(.notInAnchor("count"))),
        bad(
            "until with at and between",
            #""event": "guidance.ended", "until": {"event": "guidance.started", "at": 1, "between": [0, 2]}"#,
            "expect[2].until", .atAndBetween),
    ]
}()

/// A scenario whose road section is `body` after a language and `points`.
private func road(_ body: String, points: String = roadPoints) -> String {
    scenario(
        #""road": {"language": "en", "route": {"points": "# + points + "}" + (body.isEmpty ? "" : ", " + body) + "}")
}
private let roadPoints = #"[{"lat": 37.5, "lon": 127.0}, {"lat": 37.5, "lon": 127.01}]"#
private let roadDrive = #""drive": {"speeds": [{"from": 0, "kmh": 50}]}"#
private func roadDrive(_ extra: String) -> String { #""drive": {"speeds": [{"from": 0, "kmh": 50}], "# + extra + "}" }
private func roadSpeed(_ kmh: String) -> String { #""drive": {"speeds": [{"from": 0, "kmh": "# + kmh + "}]}" }
/// A change branching off the road 500 m along, three points, then `last`.
private func change(_ last: String) -> String {
    #""changes": [{"id": "r1", "points": [{"lat": 37.5, "lon": 127.005}, {"lat": 37.51, "lon": 127.005}, {"lat": 37.51, "lon": 127.01}, "#
        + last + "]}]"
}
/// A reply with stretch s1, and a road whose handoff h1 (branching off 500 m along) is sent at `sent`.
private func handoff(_ sent: String) -> String {
    scenario(
        reply + ", " + #""road": {"language": "en", "route": {"points": "# + roadPoints + "}, " + roadDrive
            + #", "changes": [{"id": "h1", "points": [{"lat": 37.5, "lon": 127.005}, {"lat": 37.51, "lon": 127.005}], "handoff": {"sent": "#
            + sent + "}}]}")
}
private func roadPoint(_ lat: String, _ lon: String) -> String {
    #"[{"lat": 37.5, "lon": 127.0}, {"lat": "# + lat + #", "lon": "# + lon + "}]"
}

/// Road values the decoder refuses: every number the format accepts runs in
/// bounded time and memory (issue 13), and none is changed silently.
let badRoads: [BadScenario] = [
    // Bounded time and memory.
    BadScenario(
        "tiny accel", road(roadDrive(#""accel": 1e-300"#)), "road.drive.accel", .invalid(.road(.outOfRange(0.1...20)))),
    BadScenario("accel that underflows", road(roadDrive(#""accel": 1e-400"#)), "road.drive.accel", .underflow),
    BadScenario(
        "tiny decel", road(roadDrive(#""decel": 0.01"#)), "road.drive.decel", .invalid(.road(.outOfRange(0.1...20)))),
    BadScenario(
        "tiny English rate", road(roadDrive + #", "guidance": {"rates": {"en": 1e-300}}"#),
        "road.guidance.rates.en", .invalid(.road(.outOfRange(0.5...50)))),
    BadScenario(
        "tiny Korean rate", road(roadDrive + #", "guidance": {"rates": {"ko": 0.1}}"#), "road.guidance.rates.ko",
        .invalid(.road(.outOfRange(0.5...50)))),
    BadScenario(
        "huge rate", road(roadDrive + #", "guidance": {"rates": {"en": 1e300}}"#), "road.guidance.rates.en",
        .invalid(.road(.outOfRange(0.5...50)))),
    BadScenario(
        "output latency over 10 s", road(roadDrive + #", "guidance": {"outputLatency": 10.001}"#),
        "road.guidance.outputLatency", .invalid(.road(.timeOutOfRange(.zero...SimTime(ms: 10_000))))),
    BadScenario(
        "lead growth over 60", road(roadDrive + #", "guidance": {"now": {"growth": 61}}"#),
        "road.guidance.now.growth", .invalid(.road(.outOfRange(0...60)))),
    BadScenario(
        "then seconds over 600", road(roadDrive + #", "guidance": {"thenSeconds": 601}"#),
        "road.guidance.thenSeconds", .invalid(.road(.outOfRange(0...600)))),
    BadScenario(
        "fixes every millisecond", road(roadDrive + #", "fixes": {"every": 0.001}"#), "road.fixes.every",
        .invalid(.road(.timeOutOfRange(SimTime(ms: 100)...SimTime(ms: 3_600_000))))),
    BadScenario(
        "speed steps closer than a meter",
        road(#""drive": {"speeds": [{"from": 0, "kmh": 50}, {"from": 0.5, "kmh": 40}]}"#),
        "road.drive.speeds[1].from", .invalid(.road(.stepsOutOfOrder))),
    BadScenario(
        "units misspelt", road(roadDrive + #", "guidance": {"units": "imperal"}"#), "road.guidance.units",
        .unknownValue("imperal", allowed: ["metric", "imperial"], suggestion: "imperial")),
    BadScenario(
        "Korean in imperial units",
        scenario(
            #""road": {"language": "ko", "route": {"points": "# + roadPoints + "}, " + roadDrive
                + #", "guidance": {"units": "imperial"}}"#),
        "road.guidance.units", .unknownValue("imperial", allowed: ["metric"], suggestion: nil)),
    BadScenario(
        "drive past 24 h", road(roadSpeed("3.6"), points: roadPoint("37.5", "128.2")), "road.drive",
        .invalid(.road(.driveTooLong))),
    BadScenario(
        "drive starting late past 24 h", road(#""drive": {"start": 86399, "speeds": [{"from": 0, "kmh": 50}]}"#),
        "road.drive", .invalid(.road(.driveTooLong))),
    BadScenario(
        "street too long",
        road(
            roadDrive,
            points: roadPoints
                + #", "maneuvers": [{"id": "m1", "lat": 37.5, "lon": 127.01, "turn": "left", "street": ""#
                + String(repeating: "x", count: 201) + #""}]"#),
        "road.route.maneuvers[0].street", .invalid(.road(.textTooLong(maxCharacters: 200)))),
    // Characters, not bytes: 201 Korean syllables (603 bytes) are too long, 200 are not (`aStreetOfTwoHundredKoreanSyllablesIsNotTooLong`).
    BadScenario(
        "Korean street too long",
        road(
            roadDrive,
            points: roadPoints
                + #", "maneuvers": [{"id": "m1", "lat": 37.5, "lon": 127.01, "turn": "left", "street": ""#
                + String(repeating: "가", count: 201) + #""}]"#),
        "road.route.maneuvers[0].street", .invalid(.road(.textTooLong(maxCharacters: 200)))),

    // Never changed silently.
    // Too close to zero for a normal Double: refused as written, like every road number.
    BadScenario("speed below the creep speed", road(roadSpeed("1e-320")), "road.drive.speeds[0].kmh", .underflow),
    BadScenario("speed that reads as zero", road(roadSpeed("1e-400")), "road.drive.speeds[0].kmh", .underflow),
    BadScenario(
        "tiny speed", road(roadSpeed("1e-300")), "road.drive.speeds[0].kmh", .invalid(.road(.outOfRange(3.6...250)))),
    BadScenario("speed of zero", road(roadSpeed("0")), "road.drive.speeds[0].kmh", .invalid(.road(.notPositive))),
    BadScenario(
        "walking speed", road(roadSpeed("2")), "road.drive.speeds[0].kmh", .invalid(.road(.outOfRange(3.6...250)))),
    BadScenario(
        "latitude that underflows", road(roadDrive, points: roadPoint("1e-400", "127.0")), "road.route.points[1].lat",
        .underflow),
    BadScenario(
        "subnormal longitude", road(roadDrive, points: roadPoint("37.5", "1e-310")), "road.route.points[1].lon",
        .underflow),
    BadScenario(
        "noise that underflows", road(roadDrive + #", "fixes": {"noise": 5e-324}"#), "road.fixes.noise", .underflow),

    // Messages that do not mislead.
    BadScenario(
        "latitude 1e400 is out of range", road(roadDrive, points: roadPoint("1e400", "127.0")),
        "road.route.points[1].lat", .invalid(.road(.coordinateOutOfRange))),
    BadScenario(
        "longitude -1e400 is out of range", road(roadDrive, points: roadPoint("37.5", "-1e400")),
        "road.route.points[1].lon", .invalid(.road(.coordinateOutOfRange))),
    BadScenario(
        "accuracy 1e400 is out of range", road(roadDrive + #", "fixes": {"accuracy": 1e400}"#), "road.fixes.accuracy",
        .invalid(.road(.outOfRange(0...10000)))),
    // A change's point off the earth is refused at its own path, not as a drive that never arrives (issue 49).
    BadScenario(
        "change point at latitude 91", road(roadDrive + ", " + change(#"{"lat": 91, "lon": 127.02}"#)),
        "road.changes[0].points[3].lat", .invalid(.road(.coordinateOutOfRange))),
    BadScenario(
        "change point at longitude 200", road(roadDrive + ", " + change(#"{"lat": 37.51, "lon": 200}"#)),
        "road.changes[0].points[3].lon", .invalid(.road(.coordinateOutOfRange))),
    // A handoff sent after a stretch names one of the scenario's (issue 49).
    BadScenario(
        "handoff after a stretch that does not exist", handoff(#"[{"after": "s2"}]"#),
        "road.changes[0].handoff.sent[0].after", .unknownID("s2", kind: "stretch", suggestion: "s1")),
    BadScenario(
        "handoff after a reply, not a stretch", handoff(#"[3, {"after": "r1"}]"#),
        "road.changes[0].handoff.sent[1].after", .unknownID("r1", kind: "stretch", suggestion: "s1")),
    BadScenario(
        "handoff after a stretch misspelt as a key", handoff(#"[{"afer": "s1"}]"#),
        "road.changes[0].handoff.sent[0].afer", .unknownKey("afer", suggestion: "after")),
    BadScenario(
        "handoff after nothing", handoff(#"[{"after": ""}]"#), "road.changes[0].handoff.sent[0].after",
        .invalid(.emptyString)),
    BadScenario(
        "handoff sent at a word", handoff(#"["soon"]"#), "road.changes[0].handoff.sent[0]",
        .wrongType(expected: .sending)),
    BadScenario(
        "handoff times out of order around a stretch", handoff(#"[20, {"after": "s1"}, 10]"#),
        "road.changes[0].handoff.sent[2]", .invalid(.road(.sentOutOfOrder))),
    BadScenario(
        "maneuvers in reverse route order",
        road(
            roadDrive,
            points:
                #"[{"lat": 37.5, "lon": 127.0}, {"lat": 37.5, "lon": 127.01}], "maneuvers": [{"id": "m2", "lat": 37.5, "lon": 127.008, "turn": "left"}, {"id": "m1", "lat": 37.5, "lon": 127.002, "turn": "right"}]"#
        ),
        "road.route.maneuvers[1]", .invalid(.road(.route(.maneuverOutOfOrder(index: 1))))),
]

@Suite struct ScenarioDecodingTests {
    @Test(arguments: badScenarios)
    func badScenarioIsRefusedWithReasonAndPath(_ bad: BadScenario) throws {
        let error = try #require(failure(bad.text), "decoded, but should have been refused")
        #expect(error.reason == bad.reason)
        #expect(error.path == bad.path)
        #expect(error.file == "test.json")
        #expect(error.line != nil && error.column != nil, "every refusal points at a line and column")
    }

    /// The length is measured on the earth, so the test reads it in whole kilometers, as the message does.
    @Test func aRouteLongerThanTenThousandKilometersSaysHowLongItIs() throws {
        let text = road(roadDrive, points: #"[{"lat": -60, "lon": 0}, {"lat": 60, "lon": 0}]"#)
        let error = try #require(failure(text), "decoded, but should have been refused")
        guard case .invalid(.road(.routeTooLong(let meters))) = error.reason else {
            Issue.record("\(error.reason)")
            return
        }
        #expect(Int(meters / 1000) == 13343)
        #expect(error.path == "road.route.points")
        #expect(error.reason.message == "the route is 13343 km long; a route is at most 10000 km")
    }

    /// A measured value is never rounded onto the limit it broke (issue 49): 10,000.4 km is no "10000 km".
    @Test func aMeasuredValueIsPrintedBeyondTheLimitItBroke() {
        typealias Reason = RoadSetup.Problem.Reason
        #expect(
            Reason.route(.maneuverOffRoute(index: 0, meters: 15.6)).message
                == "the maneuver lies 16 m from the route; it must be within 15 m, after the previous maneuver")
        #expect(
            Reason.route(.maneuverOffRoute(index: 0, meters: 15.04)).message.hasPrefix(
                "the maneuver lies 15.04 m from the route"))
        #expect(
            Reason.route(.maneuverOffRoute(index: 0, meters: 15.000_01)).message.hasPrefix(
                "the maneuver lies 15.00001 m"))
        #expect(
            Reason.branchOffRoad(meters: 15.4).message.hasPrefix(
                "the change's first point lies 15.4 m from the road before it; it must be within 15 m"))
        #expect(
            Reason.routeTooLong(meters: 10_000_400).message
                == "the route is 10000.4 km long; a route is at most 10000 km")
        #expect(
            Reason.routeTooLong(meters: 13_343_200).message == "the route is 13343 km long; a route is at most 10000 km"
        )
        #expect(MeasuredValue.rounded(3.58, beyond: 3.6) == 3.58)
        #expect(MeasuredValue.rounded(250.04, beyond: 250) == 250.04)
        #expect(MeasuredValue.rounded(27.78, beyond: 24) == 28)
    }

    /// A maneuver 15.6 m off the route, as the decoder measures it: the message shows it beyond 15 m.
    @Test func aManeuverJustBeyondItsToleranceSaysSo() throws {
        // 15.6 m north of the road (a degree of latitude is some 111 km).
        let text = road(
            roadDrive,
            points: roadPoints + #", "maneuvers": [{"id": "m1", "lat": 37.500140, "lon": 127.005, "turn": "left"}]"#)
        let error = try #require(failure(text), "decoded, but should have been refused")
        guard case .invalid(.road(.route(.maneuverOffRoute(index: 0, let meters)))) = error.reason else {
            Issue.record("\(error.reason)")
            return
        }
        #expect(meters > 15 && meters < 16)
        let said = try #require(Double(error.reason.message.split(separator: " ")[3]), "\(error.reason.message)")
        #expect(said > 15 && abs(said - meters) < 0.5, "\(error.reason.message)")
    }

    // MARK: Good scenarios

    /// A street's limit counts characters: 200 Korean syllables are 600 bytes and within it.
    @Test func aStreetOfTwoHundredKoreanSyllablesIsNotTooLong() throws {
        let text = road(
            roadDrive,
            points: roadPoints
                + #", "maneuvers": [{"id": "m1", "lat": 37.5, "lon": 127.01, "turn": "left", "street": ""#
                + String(repeating: "가", count: 200) + #""}]"#)
        #expect(failure(text) == nil)
    }

    @Test func specExampleDecodesToTheRightValues() throws {
        let s = try decode(specExample)
        #expect(s.name == "ordinary line waits for a short stretch")
        #expect(s.description == nil)
        #expect(
            s.settings == Scenario.Settings(earsTail: SimTime(ms: 500), waitLimit: SimTime(ms: 3000), afterCut: .repeat)
        )
        #expect(
            s.guidance == [
                GuidanceLine(
                    id: "g1", at: SimTime(ms: 2000), duration: SimTime(ms: 1800), urgent: false,
                    text: "In 300 m, turn right", language: .en, maneuver: "m1")
            ])
        #expect(
            s.replies == [
                Scenario.Reply(
                    id: "r1", at: .zero,
                    stretches: [
                        Scenario.Stretch(
                            id: "s1", duration: SimTime(ms: 4000), ready: .zero, text: "...", language: .ko),
                        Scenario.Stretch(id: "s2", duration: SimTime(ms: 2000), ready: SimTime(ms: 1000)),
                    ])
            ])
        #expect(
            s.dad == [
                Scenario.Utterance(
                    id: "u1", at: SimTime(ms: 9000), duration: SimTime(ms: 1200), language: .ko,
                    reply: Scenario.DadReply(
                        id: "r2", after: SimTime(ms: 800),
                        stretches: [
                            Scenario.Stretch(id: "s3", duration: SimTime(ms: 2000))
                        ]))
            ])
        #expect(
            s.expect == [
                Matcher(
                    event: .guidanceStarted, fields: [(field: .line, value: .string("g1"))],
                    when: .at(SimTime(ms: 4000)), path: "expect[0]"),
                Matcher(event: .stretchCut, count: 0, path: "expect[1]"),
            ])
    }

    @Test func missingOptionalFieldsTakeTheirDefaults() throws {
        let s = try decode(
            scenario(
                line + ", " + reply + ", "
                    + #""dad": [{"id": "u1", "at": 1, "duration": 1, "language": "en", "reply": {"id": "r2", "stretches": [{"id": "s2", "duration": 1}]}}]"#
            ))
        #expect(s.settings == Scenario.Settings())
        #expect(
            s.settings.earsTail == SimTime(ms: 500) && s.settings.waitLimit == SimTime(ms: 3000)
                && s.settings.afterCut == .repeat)
        #expect(s.guidance[0].urgent == false && s.guidance[0].text == nil && s.guidance[0].language == nil)
        #expect(s.guidance[0].maneuver == nil && s.guidance[0].expires == nil)
        #expect(s.replies[0].stretches[0].ready == .zero)
        #expect(s.dad[0].reply?.after == .zero)
        #expect(s.expect.isEmpty)
    }

    @Test func nonDefaultSettingsAndOptionalFieldsAreRead() throws {
        let s = try decode(
            scenario(
                #""description": "d", "settings": {"afterCut": "drop", "earsTail": 0, "waitLimit": 0}, "#
                    + line(#""urgent": true, "expires": 2.001, "maneuver": "m""#)))
        #expect(s.description == "d")
        #expect(s.settings == Scenario.Settings(earsTail: .zero, waitLimit: .zero, afterCut: .drop))
        #expect(s.guidance[0].urgent && s.guidance[0].expires == SimTime(ms: 2001) && s.guidance[0].maneuver == "m")
    }

    @Test(
        arguments: [
            ("2.5", 2500), ("1e-3", 1), ("1.0000", 1000), ("0.001", 1), ("0.0010", 1), ("0", 0), ("-0", 0), ("0.0", 0),
            ("2.5E+1", 25000), ("1e3", 1_000_000), ("3600", 3_600_000), ("12345e-3", 12345), ("0.000000e5", 0),
            ("3600.000", 3_600_000),
        ] as [(String, Int64)])
    func secondsBecomeExactMilliseconds(literal: String, ms: Int64) throws {
        if ms == 0 {
            // A zero duration is refused, so zero is checked as a time.
            let t = try decode(scenario(#""guidance": [{"id": "g1", "at": "# + literal + #", "duration": 1}]"#))
            #expect(t.guidance[0].at == .zero)
        } else {
            let s = try decode(scenario(#""guidance": [{"id": "g1", "at": 0, "duration": "# + literal + "}]"))
            #expect(s.guidance[0].duration == SimTime(ms: ms))
        }
    }

    @Test func limitsAreInclusive() throws {
        let s = try decode(scenario(#""guidance": [{"id": "g1", "at": 86400, "duration": 3600}]"#))
        #expect(s.guidance[0].at == SimTime(ms: 86_400_000))
        #expect(s.guidance[0].duration == SimTime(ms: 3_600_000))
    }

    @Test func touchingUtterancesDoNotOverlap() throws {
        let s = try decode(
            scenario(
                #""dad": [{"id": "u2", "at": 2, "duration": 1, "language": "en"}, {"id": "u1", "at": 1, "duration": 1, "language": "ko"}]"#
            ))
        #expect(s.dad.map(\.id) == ["u2", "u1"], "file order is kept")
    }

    @Test func keyOrderInTheFileDoesNotMatter() throws {
        let a = try decode(
            #"{"drivesim": 1, "name": "n", "guidance": [{"id": "g", "at": 1, "duration": 1}], "replies": [{"id": "r", "at": 0, "stretches": [{"id": "s", "duration": 9}]}], "expect": [{"event": "talk.stretch.cut", "stretch": "s", "rule": "long-cut", "by": "g", "between": [0, 1]}]}"#
        )
        let b = try decode(
            #"{"expect": [{"between": [0, 1], "by": "g", "rule": "long-cut", "event": "talk.stretch.cut", "stretch": "s"}], "replies": [{"stretches": [{"duration": 9, "id": "s"}], "at": 0, "id": "r"}], "guidance": [{"duration": 1, "at": 1, "id": "g"}], "name": "n", "drivesim": 1}"#
        )
        #expect(a == b)
        #expect(a.expect[0].fields.map(\.field) == [.by, .rule, .stretch], "fields are kept sorted by name")
        #expect(a.expect[0].when == .between(.zero, SimTime(ms: 1000)))
    }

    @Test func matcherFieldsKeepTheirJSONTypes() throws {
        let s = try decode(
            scenario(
                dad + ", "
                    + #""expect": [{"event": "dad.ended", "heardMs": 1500, "lostMs": 0, "utterance": "u1"}, {"event": "guidance.requested", "urgent": true, "count": 2, "at": 0.25}]"#
            ))
        #expect(s.expect[0].fields.map(\.value) == [.int(1500), .int(0), .string("u1")])
        #expect(s.expect[1].fields.map(\.value) == [.bool(true)])
        #expect(s.expect[1].count == 2 && s.expect[1].when == .at(SimTime(ms: 250)))
        #expect(s.expect.map(\.path) == ["expect[0]", "expect[1]"])
    }

    @Test func matchersMayNameGeneratedLinesRerouteLinesFixesAndRoadManeuvers() throws {
        let s = try decode(
            scenario(
                roadM1 + ", " + #""expect": [{"event": "guidance.started", "line": "m1.near", "count": 0}, "#
                    + #"{"event": "guidance.started", "line": "reroute12.back", "count": 0}, {"event": "road.fix.arrived", "fix": "f0"}, "#
                    + #"{"event": "guidance.requested", "maneuver": "reroute", "count": 0}, {"event": "road.turn.passed", "maneuver": "m1"}, "#
                    + #"{"event": "talk.stretch.cut", "by": "m1.now", "count": 0}]"#))
        #expect(s.expect.count == 6)
        #expect(s.generatedLineIDs.map(\.id) == ["m1.far", "m1.near", "m1.now", "m1.continue", "m1.depart"])
    }

    @Test func aMatcherKeepsItsLineAndColumn() throws {
        let s = try decode("{\"drivesim\": 1, \"name\": \"t\",\n  \"expect\": [\n    {\"event\": \"ears.opened\"}]}")
        #expect(s.expect[0].line == 3 && s.expect[0].column == 5)
    }

    @Test func aRefusedMatcherSaysWhatItNamesAndSuggests() throws {
        let error = try #require(
            failure(scenario(reply + ", " + matcher(#""event": "talk.stretch.cut", "stretch": "S1", "count": 0"#))))
        #expect(
            error.description.hasSuffix(
                #"expect[0].stretch: no stretch of this scenario has the id "S1"; did you mean "s1"?"#))
        let generated = try #require(
            failure(scenario(#""guidance": [{"id": "m1.near", "at": 2, "duration": 1}], "# + roadM1)))
        #expect(
            generated.description.hasSuffix(
                #"guidance[0].id: the road generates a guidance line with the id "m1.near"; choose another id"#))
    }

    @Test func escapedStringsDecode() throws {
        let s = try decode(
            scenario(
                #""description": "caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n\t", "guidance": [{"id": "안녕", "at": 1, "duration": 1, "text": "오른쪽"}]"#
            ))
        #expect(s.description == "café 😀 \"q\" \\ / \n\t")
        #expect(s.guidance[0].id == "안녕" && s.guidance[0].text == "오른쪽")
    }

    // MARK: Positions and messages

    @Test func syntaxErrorNamesLineAndColumn() throws {
        let text = "{\n  \"drivesim\": 1,\n  \"name\": \"é\",,\n}"
        let error = try #require(failure(text))
        #expect(error.reason == .syntax(.unexpectedCharacter("','", expected: .key)))
        #expect(error.line == 3)
        #expect(error.column == 15, "columns count characters, not bytes")
        #expect(error.description == "test.json:3:15: invalid JSON: expected a key in double quotes, found ','")
    }

    @Test func unexpectedEndIsReportedAtTheEnd() throws {
        let error = try #require(failure("{\n\"drivesim\": 1,\n  "))
        #expect(error.reason == .syntax(.unexpectedEnd(expected: .key)))
        #expect(error.line == 3 && error.column == 3)
    }

    @Test func valueErrorsPointAtTheValue() throws {
        let text = """
            {
              "drivesim": 1, "name": "t",
              "replies": [{"id": "r1", "at": 0, "stretches": [
                {"id": "s1", "duration": 1},
                {"id": "s2", "durration": 2}]}]
            }
            """
        let error = try #require(failure(text, file: "file.json"))
        #expect(error.line == 5 && error.column == 31)
        #expect(
            error.description
                == #"file.json:5:31: replies[0].stretches[1].durration: unknown key; did you mean "duration"?"#)
    }

    @Test func newerFormatMessageSaysTheFileIsNewer() throws {
        let error = try #require(failure(#"{"drivesim": 2}"#))
        #expect(error.reason == .newerFormat("2"))
        #expect(error.description.contains("newer drivesim (format 2)"))
        #expect(error.description.contains("reads format 1"))
    }

    @Test(arguments: [
        "a\nb", "a\u{1B}[31mred", "tab\there", "a\rb", "a\u{2028}b", "\u{202E}evil", "nul\u{0}",
    ])
    func everythingFromTheFileIsEscapedSoAMessageIsOneLine(key: String) throws {
        let escapedKey = JSONWriter.bytes(.string(key), pretty: false)
        let text =
            #"{"drivesim": 1, "name": "t", "settings": {"# + String(decoding: escapedKey, as: UTF8.self) + ": 1}}"
        let error = try #require(failure(text))
        #expect(error.reason == .unknownKey(key, suggestion: nil))
        let message = error.description
        #expect(
            !message.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x2028...0x202E).contains($0.value)
            },
            "\(message.debugDescription)")
        #expect(message.contains("settings." + ScenarioError.escaped(key)))
    }

    @Test func valuesAndIdsAreQuotedAndEscaped() throws {
        let id = try #require(
            failure(
                scenario(
                    #""guidance": [{"id": "a\n\"b", "at": 2, "duration": 1}, {"id": "a\n\"b", "at": 3, "duration": 1}]"#
                )))
        #expect(id.description.hasSuffix(#"guidance[1].id: duplicate id "a\n\"b"; first used at guidance[0].id"#))
        let value = try #require(failure(scenario(#""settings": {"afterCut": "x\u001b[2J"}"#)))
        #expect(value.description.contains(#"unknown value "x\u{1B}[2J""#))
        #expect(!value.description.contains("\u{1B}"))
    }

    @Test(
        arguments: [
            ("0.9999", nil), (".9999e3", 999_900), (".9999", nil), ("9999e-4", nil), ("99.99e-2", nil),
            ("0.0009999e3", nil),
            ("1.0005e3", 1_000_500), ("0.0001e1", 1), ("1e-3", 1), ("0.999", 999), ("999e-3", 999), ("1E+2", 100_000),
            ("5e-1000000000000", nil), ("0e99999999999", 0), ("1.5000", 1_500),
            // The plain form, read in one pass, and its edges.
            ("12.345", 12_345), ("0", 0), ("0.0", 0), ("7", 7_000), ("0.5", 500), ("86400", 86_400_000),
            ("86400.001", nil),
            ("123456789012", nil), ("1234567890123.5", nil), ("1.2345", nil), ("-1", nil), ("-0", 0), ("00.1", 100),
        ] as [(String, Int64?)])
    func secondsAreExactOrRefusedNeverTruncated(literal: String, ms: Int64?) {
        // ".9999e3" is not JSON; the conversion still never truncates it.
        switch Seconds.milliseconds(fromLiteral: literal, limitMs: 86_400_000) {
        case .success(let value): #expect(value == ms, "\(literal) became \(value) ms")
        case .failure(let problem): #expect(ms == nil, "\(literal): \(problem)")
        }
    }

    // A hang guard, not a speed check (the speed is `bench`'s): quadratic decoding would take minutes.
    @Test(.timeLimit(.minutes(1))) func stringsWithManyEscapesDecodeInLinearTime() throws {
        // Every other character escaped: each escape used to copy the whole
        // string decoded so far (quadratic time, and the file held twice).
        let body = String(repeating: "a\\n", count: 300_000)
        let s = try decode(scenario(#""description": ""# + body + #"""#))
        #expect(s.description == String(repeating: "a\n", count: 300_000))
    }

    @Test func escapesDecodeToTheirScalars() throws {
        let s = try decode(scenario(#""description": "\u00e9\u0000\ud83d\ude97\u20ac\"\\\/\b\f\n\r\t x""#))
        #expect(s.description == "é\u{0}🚗€\"\\/\u{8}\u{C}\n\r\t x")
    }

    @Test func roadBoundsAreInclusive() throws {
        let street = String(repeating: "x", count: 200)
        let text = road(
            #""drive": {"speeds": [{"from": 0, "kmh": 3.6}, {"from": 1, "kmh": 250}], "accel": 0.1, "decel": 20}, "fixes": {"every": 0.1}, "guidance": {"rates": {"en": 0.5, "ko": 50}}"#,
            points: roadPoints
                + #", "maneuvers": [{"id": "m1", "lat": 37.5, "lon": 127.01, "turn": "left", "street": ""# + street
                + #""}]"#)
        let s = try decode(text)
        #expect(s.road?.maneuvers.first?.street == street)
        let zeros = road(roadDrive, points: #"[{"lat": 0, "lon": 0.001}, {"lat": 0.0e-400, "lon": -0.0}]"#)
        #expect(try decode(zeros).road != nil, "zero written as zero is no underflow")
    }

    @Test func aRouteAcrossTheAntimeridianIsShortAndRuns() throws {
        let text = road(roadDrive, points: #"[{"lat": 0, "lon": 179.9999}, {"lat": 0, "lon": -179.9999}]"#)
        let s = try decode(text)
        let verdict = try Verdict(s)
        let arrived = verdict.simulation.timeline.events.filter { $0.kind == .roadFixArrived }.count
        #expect(arrived < 20, "a 22 m drive takes a few seconds: \(arrived) fixes")
    }

    @Test func anSVGOfYearsOfChainedStretchesAtTenMillionPixelsDoesNotOverflow() throws {
        // The reported case is 257,000 hour-long stretches at 10^6 px (the
        // CLI's widest); 26,000 at 10^7 px overflow the same product, faster.
        var scenario = Scenario(name: "long")
        let stretches = (0..<26_000).map { Scenario.Stretch(id: "s\($0)", duration: SimTime(ms: 3_600_000)) }
        scenario.replies = [Scenario.Reply(id: "r1", at: .zero, stretches: stretches)]
        let timeline = try Simulation(scenario).timeline
        let svg = timeline.svg(width: 10_000_000)
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func invalidUTF8IsReportedWithItsPosition() throws {
        var bytes = Array("{\n  \"name\": \"ab".utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by '('
        bytes += Array("\"}".utf8)
        let error = try #require(failure(bytes))
        #expect(error.reason == .invalidUTF8)
        #expect(error.line == 2 && error.column == 14)
    }

    @Test(
        arguments: [
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
        ] as [[UInt8]])
    func malformedUTF8IsRefusedAnywhere(_ bad: [UInt8]) throws {
        // After the value, where a lax reader might never look.
        let error = try #require(failure(Array(scenario("").utf8) + [0x20] + bad))
        #expect(error.reason == .invalidUTF8)
        #expect(error.line == 1 && error.column == 30)
    }

    @Test func nestingDeeperThan64IsRefused() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { _ = try JSONParser.parse(Array(ok.utf8)) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(failure(deep)?.reason == .tooDeep)
    }

    @Test func hundredThousandOpenBracketsDoNotCrash() throws {
        let error = try #require(failure([UInt8](repeating: UInt8(ascii: "["), count: 100_000)))
        #expect(error.reason == .tooDeep)
        #expect(error.column == 65)
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(failure(objects)?.reason == .tooDeep)
    }

    /// Open brackets take one byte a node, more than half a node a byte: found by CI's
    /// libFuzzer (a heap overflow of the tape's nodes). Every count of them up to the
    /// depth limit, bare, after spaces and before a string, is an error, never a write past the tape.
    @Test func openBracketsUpToTheDepthLimitStayInsideTheTape() throws {
        for n in 1...JSONParser.maxDepth {
            for text in [
                String(repeating: "[", count: n), "    " + String(repeating: "[", count: n) + #" ["eve: "    r"#,
            ] {
                #expect(failure(text) != nil, "\(n) brackets")
            }
        }
    }

    #if DEBUG
        /// A node kept past `withRoot` points into freed memory: a debug build
        /// stops the program when it is used, instead of reading that memory.
        @Test func aNodeUsedAfterItsTapeIsFreedStopsADebugBuild() async {
            await #expect(processExitsWith: .failure) {
                let kept = try JSONTape(Array(#"{"a": [1, 2]}"#.utf8)).withRoot { $0 }
                _ = kept.members?.count
            }
        }
    #endif

    @Test func aNodeUsedInsideWithRootReadsItsTape() throws {
        let count = try JSONTape(Array(#"{"a": [1, 2]}"#.utf8)).withRoot { $0["a"]?.items?.count }
        #expect(count == 2)
    }

    // MARK: Robustness

    @Test func megabyteFilesDecodeInLinearTime() throws {
        let text = String(repeating: "x", count: 2_000_000)
        let lines = (0..<20_000).map {
            #"{"id": "g\#($0)", "at": \#($0 % 80000).5, "duration": 1, "text": "line \#($0) \n"}"#
        }
        let file = scenario(#""description": ""# + text + #"", "guidance": ["# + lines.joined(separator: ",") + "]")
        let s = try decode(file)
        #expect(s.description?.utf8.count == 2_000_000)
        #expect(s.guidance.count == 20_000)
        #expect(s.guidance[19_999].at == SimTime(ms: 19_999_500))
    }

    @Test func noInputBytesTrap() throws {
        // Seed 7: mutations of the SPEC example, and random bytes.
        var rng = SplitMix64(seed: 7)
        let base = Array(specExample.utf8)
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0...rng.below(4) {
                let i = Int(rng.below(UInt64(bytes.count)))
                switch rng.below(3) {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: i)
                default: bytes.insert(rng.pick(Array("{}[]\",:0.-e\\u".utf8)), at: i)
                }
            }
            _ = failure(bytes)
        }
        for _ in 0..<2000 {
            let bytes = (0..<rng.below(40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = failure(bytes)
        }
    }

    @Test func suggestionsNeedSomethingInCommon() {
        #expect(suggestion(for: "durration", among: ["id", "duration"]) == "duration")
        #expect(suggestion(for: "fr", among: ["ko", "en"]) == nil)
        #expect(suggestion(for: "kr", among: ["ko", "en"]) == "ko")
        #expect(suggestion(for: "WAITLIMIT", among: ["earsTail", "waitLimit"]) == "waitLimit")
        #expect(suggestion(for: "zzzzzz", among: ["duration"]) == nil)
    }

    // MARK: The JSON layer

    @Test func parserKeepsKeyOrderNumberTextAndPositions() throws {
        let v = try JSONParser.parse(Array("{\"b\": 1.50,\n \"a\": [true, null, -0e+2]}".utf8))
        guard case .object(let members) = v.kind else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[0].value.kind == JSONValue.number("1.50").kind)
        #expect(members[1].value.line == 2 && members[1].value.column == 7)
        #expect(members[1].value == .array([.bool(true), .null, .number("-0e+2")]))
    }

    @Test func writerSortsKeysByBytesAndEscapes() throws {
        let v = JSONValue.object([
            ("é", .integer(1)), ("b", .string("q\"\\\n\u{1}é")), ("B", .array([])), ("a", .object([])),
        ])
        let compact = String(decoding: JSONWriter.bytes(v, pretty: false), as: UTF8.self)
        #expect(compact == #"{"B":[],"a":{},"b":"q\"\\\n\u0001é","é":1}"#)
        let pretty = JSONWriter.bytes(v)
        #expect(
            try JSONParser.parse(pretty)
                == JSONValue.object([
                    ("B", .array([])), ("a", .object([])), ("b", .string("q\"\\\n\u{1}é")), ("é", .integer(1)),
                ]))
        #expect(
            String(decoding: JSONWriter.bytes(.object([("k", .array([.integer(1)]))])), as: UTF8.self)
                == "{\n  \"k\": [\n    1\n  ]\n}\n")
    }
}
