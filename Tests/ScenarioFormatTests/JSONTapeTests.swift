import SimClock
import Testing

@testable import Fuzzing
@testable import ScenarioFormat
@testable import SimRunner

/// A talk scenario with every key of its parts.
private let everyKey = #"""
    {
      "$schema": "https://example.com/drivesim.schema.json",
      "drivesim": 1,
      "name": "every key",
      "description": "all of them",
      "settings": { "earsTail": 0.5, "waitLimit": 3.25, "afterCut": "skip" },
      "guidance": [
        { "id": "g1", "at": 1, "duration": 2.5, "urgent": true, "text": "Turn left", "language": "en",
          "maneuver": "m1", "expires": 4.001 },
        { "id": "g2", "at": 0.25, "duration": 1e0, "urgent": false, "language": "ko", "text": "좌회전" }
      ],
      "replies": [
        { "id": "r1", "at": 0, "stretches": [
          { "id": "s1", "duration": 2, "text": "Hello", "language": "en" },
          { "id": "s2", "duration": 1.5, "ready": 0.75 } ] }
      ],
      "dad": [
        { "id": "u1", "at": 10, "duration": 2, "language": "ko", "text": "네",
          "reply": { "id": "a1", "after": 0.5, "stretches": [ { "id": "a1s1", "duration": 1 } ] } },
        { "id": "u2", "at": 20, "duration": 1, "language": "en" }
      ],
      "golden": "every-key.timeline.json"
    }
    """#

@Suite("The JSON tape the decoder walks")
struct JSONTapeTests {
    @Test("A talk scenario with every key reads to its values")
    func everyKeyReads() throws {
        let scenario = try ScenarioDecoder.decode(Array(everyKey.utf8), file: "t.json")
        #expect(scenario.settings.waitLimit == SimTime(ms: 3250))
        #expect(scenario.guidance[0].expires == SimTime(ms: 4001))
        #expect(scenario.guidance[1].duration == SimTime(ms: 1000))
        #expect(scenario.guidance[1].text == "좌회전")
        #expect(scenario.replies[0].stretches[1].ready == SimTime(ms: 750))
        #expect(scenario.dad[0].reply?.stretches.map(\.id) == ["a1s1"])
        #expect(scenario.golden == "every-key.timeline.json")
    }

    @Test("Escaped strings and keys read as the strings they stand for")
    func escapes() throws {
        let text =
            #"{"drivesim": 1, "n\u0061me": "t\u00e9\ud83d\ude97\n", "guidance": [{"id": "g\/1", "at": 1, "duration": 1}]}"#
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "t.json")
        #expect(scenario.name == "té🚗\n")
        #expect(scenario.guidance[0].id == "g/1")
    }

    @Test("Generated drives, the road's too, read back to what was written", arguments: [1, 2] as [UInt64])
    func generatedDrives(seed: UInt64) throws {
        for drive in [GeneratedDrive.scenario(hours: 1, seed: seed), GeneratedDrive.roadScenario(hours: 1, seed: seed)]
        {
            let bytes = ScenarioEncoder.encode(drive)
            let once = try ScenarioDecoder.decode(bytes, file: "t.json")
            #expect(ScenarioEncoder.encode(once) == bytes)
        }
    }

    @Test("A key within 16 bytes of the document's end is found (it is not read as two whole words)")
    func keyNearTheEnd() throws {
        for (text, name) in [(#"{"drivesim":1,"name":"x"}"#, "x"), (#"{"name":"n","drivesim":1}"#, "n")] {
            #expect(try ScenarioDecoder.decode(Array(text.utf8), file: "t.json").name == name)
        }
    }

    @Test("Integers are written as their decimal digits, two at a time")
    func integers() {
        let values: [Int64] = [
            0, 7, 9, 10, 42, 99, 100, 101, 999, 1_000, 12_345, 86_400_000, -1, -10, -100_001, .max, .min,
        ]
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)
        defer { buffer.deallocate() }
        for v in values {
            var raw = RawBytes(base: buffer, capacity: 32)
            raw.put(int: v)
            #expect(String(decoding: UnsafeBufferPointer(start: buffer, count: raw.count), as: UTF8.self) == String(v))
        }
    }

    @Test("The tree built from the tape keeps members in order, literals as written and positions")
    func tree() throws {
        let value = try JSONParser.parse(Array("{\"b\": [1.50, true, null],\n  \"a\": {\"x\": \"y\"}}".utf8))
        guard case .object(let members) = value.kind else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[0].value == .array([.number("1.50"), .bool(true), .null]))
        #expect((members[1].value.line, members[1].value.column) == (2, 8))
        #expect(members[1].value["x"] == .string("y"))
    }

    /// Every one-byte deletion and a few substitutions at every offset of
    /// `everyKey`: the decoder reads each one or refuses it with an error,
    /// never trapping, and refuses it with the error the JSON tree's parse gives.
    @Test("Mutated files decode or fail, with the JSON parse's error when they are not JSON")
    func mutations() {
        let original = Array(everyKey.utf8)
        var decoded = 0
        var checked = 0
        for offset in original.indices {
            var variants: [[UInt8]] = []
            var deleted = original
            deleted.remove(at: offset)
            variants.append(deleted)
            for replacement in Array(#"0 ",}]:-.e\"#.utf8) where replacement != original[offset] {
                var replaced = original
                replaced[offset] = replacement
                variants.append(replaced)
            }
            for bytes in variants {
                checked += 1
                do {
                    _ = try ScenarioDecoder.decode(bytes, file: "t.json")
                    decoded += 1
                } catch {
                    do {
                        _ = try JSONParser.parse(bytes)
                    } catch let parse {
                        #expect(
                            (error.line, error.column, error.path) == (parse.line, parse.column, parse.path),
                            "mutation at \(offset)")
                    }
                }
            }
        }
        // Some mutations keep the file valid (a digit changed, a space for a space).
        #expect(decoded > 0 && decoded < checked)
    }
}
