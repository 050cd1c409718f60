import ScenarioFormat
import SimClock
import SimRunner
import Testing

/// The fast paths of decoding a long drive (ASCII runs checked eight bytes
/// at a time, duplicate keys found by a scan or a set, paths rendered only
/// for an error) report exactly what the plain paths did.
@Suite struct LongInputTests {
    func failure(_ bytes: [UInt8]) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(bytes, file: "s.json")
            return nil
        } catch { return error }
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 40])
    func invalidUTF8AfterAnyRunOfASCIIIsReportedWhereItIs(run: Int) throws {
        // Korean (3 bytes a scalar) first, so columns count scalars, not bytes.
        var bytes = Array("{\n\n  \"name\": \"한국".utf8) + Array(repeating: UInt8(ascii: "a"), count: run)
        bytes += [0xE2, 0x82, 0x20]  // a three-byte sequence cut short
        bytes += Array(String(repeating: "b", count: 20).utf8) + Array("\"}".utf8)
        let error = try #require(failure(bytes))
        #expect(error.reason == .invalidUTF8)
        #expect(error.line == 3)
        #expect(error.column == 14 + run)
    }

    @Test func validUTF8OfEveryLengthIsAccepted() throws {
        let name = String(repeating: "é한😀a", count: 9)
        let scenario = try ScenarioDecoder.decode(Array(#"{"drivesim": 1, "name": "\#(name)"}"#.utf8), file: "s.json")
        #expect(scenario.name == name)
    }

    @Test(arguments: [3, 15, 16, 17, 40])
    func aDuplicateKeyIsFoundAmongManyKeys(keys: Int) throws {
        let members = (0..<keys).map { "\"k\($0)\": \($0)" } + ["\"k1\": 0"]
        do {
            _ = try JSONParser.parse(Array(("{" + members.joined(separator: ", ") + "}").utf8))
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.reason == .duplicateKey("k1"))
            #expect(error.path == "k1")
        }
    }

    @Test func aDuplicateIDNamesWhereItWasFirstUsedDeepInTheFile() throws {
        let json = #"""
            {"drivesim": 1, "name": "d", "replies": [
              {"id": "r0", "at": 0, "stretches": [{"id": "s0", "duration": 1}, {"id": "s1", "duration": 1}]},
              {"id": "r1", "at": 5, "stretches": [{"id": "s2", "duration": 1}, {"id": "s3", "duration": 1}, {"id": "s1", "duration": 1}]}
            ]}
            """#
        let error = try #require(failure(Array(json.utf8)))
        #expect(error.reason == .duplicateID("s1", firstAt: "replies[0].stretches[1].id"))
        #expect(error.path == "replies[1].stretches[2].id")
        #expect(error.line == 3)
    }

    @Test func aFieldErrorDeepInALongListNamesItsPath() throws {
        let lines = (0..<30).map { #"{"id": "g\#($0)", "at": \#($0), "duration": \#($0 == 27 ? "0.0005" : "1")}"# }
        let error = try #require(
            failure(Array(#"{"drivesim": 1, "name": "d", "guidance": [\#(lines.joined(separator: ", "))]}"#.utf8)))
        #expect(error.reason == .notWholeMilliseconds)
        #expect(error.path == "guidance[27].duration")
    }

    @Test(arguments: [
        ("1.2300e1", "12300 ms"), ("120.5e-2", "1205 ms"), ("-0.000", "0 ms"), ("0.001", "1 ms"), ("10e-4", "1 ms"),
        ("86400", "86400000 ms"), ("0.0004", "notWholeMilliseconds"), ("10e-5", "notWholeMilliseconds"),
        ("-1", "negative"), ("1e400", "tooLarge"), ("86400.001", "tooLarge"),
    ])
    func secondsAreReadExactlyFromTheLiteralsBytes(literal: String, expected: String) {
        let outcome: String
        switch Seconds.milliseconds(fromLiteral: literal, limitMs: 86_400_000) {
        case .success(let ms): outcome = "\(ms) ms"
        case .failure(let problem): outcome = "\(problem)"
        }
        #expect(outcome == expected)
    }
}
