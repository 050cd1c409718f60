import ScenarioFormat
import SimRunner
import Testing

/// A line or stretch over ten minutes is used as written, with a warning
/// naming the file and the path (`"duration": 3000` is a 50-minute line).
@Suite struct UnitSlipWarningTests {
    static let slips = """
        { "drivesim": 1, "name": "slips",
          "guidance": [ { "id": "g1", "at": 2.0, "duration": 3000 }, { "id": "g2", "at": 9000, "duration": 600 } ],
          "replies": [ { "id": "r1", "at": 0, "stretches": [
            { "id": "s1", "duration": 4 }, { "id": "s2", "duration": 600.001 } ] } ],
          "dad": [ { "id": "u1", "at": 9700, "duration": 1.2, "language": "ko",
            "reply": { "id": "r2", "stretches": [ { "id": "s3", "duration": 700 } ] } } ] }
        """

    func warnings(_ text: String) throws -> [ScenarioError] {
        let bytes = Array(text.utf8)
        return ScenarioDecoder.warnings(
            for: try ScenarioDecoder.decode(bytes, file: "s.json"), bytes: bytes, file: "s.json")
    }

    @Test func durationsOverTenMinutesAreWarnedAboutByPathInFileOrder() throws {
        let found = try warnings(Self.slips)
        #expect(
            found.map(\.path) == [
                "guidance[0].duration", "replies[0].stretches[1].duration", "dad[0].reply.stretches[0].duration",
            ])
        #expect(found.map(\.reason) == ["3000", "600.001", "700"].map { .looksLikeMilliseconds(seconds: $0) })
        #expect(found.allSatisfy { $0.file == "s.json" })
        #expect(found.first?.line == 2, "placed on the value in the file")
        #expect(found.first?.column == 54)
    }

    @Test func exactlyTenMinutesIsNoSlip() throws {
        let found = try warnings(Self.slips)
        #expect(!found.contains { $0.path == "guidance[1].duration" }, "600 s is at the limit, not over it")
    }

    @Test func aPlainScenarioHasNoWarnings() throws {
        #expect(
            try warnings(#"{ "drivesim": 1, "name": "n", "guidance": [ { "id": "g1", "at": 1, "duration": 2 } ] }"#)
                .isEmpty)
    }
}
