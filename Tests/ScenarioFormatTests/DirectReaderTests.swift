@testable import Fuzzing
@testable import ScenarioFormat
import SimClock
@testable import SimRunner
import Testing

/// A talk scenario with every key the direct reader reads.
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

@Suite("Reading a scenario straight from the bytes")
struct DirectReaderTests {
    @Test("A talk scenario with every key reads directly to what the JSON tree reads")
    func everyKeyMatchesTheTree() throws {
        let bytes = Array(everyKey.utf8)
        let direct = try #require(DirectReader.scenario(bytes))
        #expect(direct == (try ScenarioDecoder.decodeThroughTree(bytes, file: "t.json")))
        #expect(direct.guidance[1].duration == SimTime(ms: 1000))
        #expect(direct.dad[0].reply?.stretches.map(\.id) == ["a1s1"])
    }

    @Test("Generated drives read directly to what the JSON tree reads", arguments: [1, 2, 3] as [UInt64])
    func generatedDrives(seed: UInt64) throws {
        let bytes = ScenarioEncoder.encode(GeneratedDrive.scenario(hours: 1, seed: seed))
        let direct = try #require(DirectReader.scenario(bytes))
        #expect(direct == (try ScenarioDecoder.decodeThroughTree(bytes, file: "t.json")))
    }

    @Test("Road, matchers and escaped strings are left to the JSON tree")
    func unhandledShapes() {
        for text in [
            #"{"drivesim": 1, "name": "t", "expect": []}"#,
            #"{"drivesim": 1, "name": "t", "road": {}}"#,
            #"{"drivesim": 1, "name": "t\u0041"}"#,
            #"{"drivesim": 1, "name": "t", "guidance": [{"id": "g", "at": 1, "duration": 1, "text": null}]}"#,
        ] {
            #expect(DirectReader.scenario(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("No bad scenario of the decoder's table reads directly as a valid one")
    func badScenariosAreLeftToTheTree() {
        for bad in badScenarios {
            #expect(DirectReader.scenario(Array(bad.text.utf8))?.isValid != true, "\(bad.label)")
        }
    }

    /// Every one-byte deletion and a few substitutions at every offset of
    /// `everyKey`: whenever the direct reader accepts the result, the JSON
    /// tree reads the same scenario from it.
    @Test("A mutated file the direct reader accepts reads the same through the JSON tree")
    func mutationsAgree() {
        let original = Array(everyKey.utf8)
        var accepted = 0, checked = 0
        for offset in original.indices {
            var variants: [[UInt8]] = []
            var deleted = original
            deleted.remove(at: offset)
            variants.append(deleted)
            for replacement in Array(#"0 ",}]:-.e"#.utf8) where replacement != original[offset] {
                var replaced = original
                replaced[offset] = replacement
                variants.append(replaced)
            }
            for bytes in variants {
                checked += 1
                guard let direct = DirectReader.scenario(bytes), direct.isValid else { continue }
                accepted += 1
                #expect(direct == (try? ScenarioDecoder.decodeThroughTree(bytes, file: "t.json")), "mutation at \(offset)")
            }
        }
        // Some mutations keep the file valid (a digit changed, a space for a space).
        #expect(accepted > 0 && accepted < checked)
    }
}
