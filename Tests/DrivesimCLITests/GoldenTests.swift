import Foundation
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

@Suite struct GoldenTests {
    /// A scenario file and its golden file in a fresh folder.
    static func folder(golden: String?) throws -> (folder: String, scenario: String) {
        let folder = try Fixtures.temporaryFolder()
        var text = try String(contentsOfFile: Fixtures.path("Scenarios/short-wait.json"), encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"golden\": \"short-wait.timeline.json\"", with: "\"golden\": \"mine.timeline.json\"")
        try text.write(toFile: folder + "/scenario.json", atomically: true, encoding: .utf8)
        if let golden { try golden.write(toFile: folder + "/mine.timeline.json", atomically: true, encoding: .utf8) }
        return (folder, folder + "/scenario.json")
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func aTimelineEqualsItsOwnJSONAsGolden(_ file: ScenarioFile) throws {
        let timeline = try Simulation(try ScenarioFiles.load(file.path).get()).timeline
        let golden = try Golden.lines(ofGolden: Array(timeline.json.utf8))
        #expect(golden == Golden.lines(of: timeline))
        #expect(Golden.diff(golden: golden, actual: Golden.lines(of: timeline)) == nil)
    }

    @Test func goldensCompareTheSpokenWordsAndTheirLanguage() throws {
        let timeline = try Simulation(try Fixtures.scenario("short-wait")).timeline
        // A changed phrase, or a phrase gone, is changed behaviour.
        let changed = timeline.json.replacingOccurrences(
            of: #""text": "In 300 m, turn right""#, with: #""text": "In 300 m, turn left""#)
        let stripped = timeline.json.replacingOccurrences(of: #", "text": "In 300 m, turn right""#, with: "")
        let english = timeline.json.replacingOccurrences(of: #""language": "en""#, with: #""language": "ko""#)
        for golden in [changed, stripped, english] {
            #expect(golden != timeline.json)
            #expect(try Golden.lines(ofGolden: Array(golden.utf8)) != Golden.lines(of: timeline))
        }
        // Other extras (how long a stretch was held) still do not count.
        #expect(Golden.comparedFields(of: .stretchStarted) == [.reply, .stretch, .text, .language])
    }

    @Test func theDiffShowsTheFirstDifferenceWithContext() throws {
        let a = ["0", "1", "2", "3", "4", "5"]
        let b = ["0", "1", "2", "x", "4", "5"]
        let diff = try #require(Golden.diff(golden: a, actual: b))
        #expect(diff.contains("first difference at event 3"))
        #expect(diff.contains("    0\n    1\n    2\n  - 3\n  + x\n    4\n    5\n"))
        #expect(Golden.diff(golden: a, actual: a) == nil)
        #expect(try #require(Golden.diff(golden: a, actual: Array(a.prefix(4)))).contains("  - 4\n  - 5\n"))
    }

    @Test func theDiffIsAlignedSoOneMovedEventIsTwoLines() throws {
        // One event moved later among 200: the aligned diff shows it removed and added, nothing else changed.
        let a = (0..<200).map { "e\($0)" }
        var b = a
        b.remove(at: 50)
        b.insert("e50", at: 120)
        let diff = try #require(Golden.diff(golden: a, actual: b))
        let changed = diff.split(separator: "\n").filter { $0.hasPrefix("  - ") || $0.hasPrefix("  + ") }
        #expect(changed == ["  - e50", "  + e50"])
        #expect(diff.contains("    …\n"))
        #expect(diff.contains("1 removed, 1 added"))
    }

    @Test func theDiffOfTwoUnrelatedLongTimelinesIsBounded() throws {
        // Past `maxEdits` changes the diff is one block, at most `limit` lines: no quadratic time or memory.
        let a = (0..<50_000).map { "a\($0)" }
        let b = (0..<50_000).map { "b\($0)" }
        let diff = try #require(Golden.diff(golden: a, actual: b))
        #expect(diff.contains("more than \(Golden.maxEdits) changes"))
        #expect(diff.split(separator: "\n").count < 60)
        #expect(diff.contains("99960 more changed events"))
    }

    @Test func theGoldenKeyIsDecodedAndEncoded() throws {
        let scenario = try Fixtures.scenario("short-wait")
        #expect(scenario.golden == "short-wait.timeline.json")
        let again = try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "x")
        #expect(again == scenario)
        #expect(throws: ScenarioError.self) {
            try ScenarioDecoder.decode(Array(#"{"drivesim": 1, "name": "n", "golden": ""}"#.utf8), file: "x")
        }
    }

    @Test func aMatchingGoldenPassesAndAChangedOneFailsWithADiff() throws {
        let timeline = try Simulation(try Fixtures.scenario("short-wait")).timeline
        let (_, scenario) = try Self.folder(golden: timeline.json)
        var console = Console.captured
        #expect(Drivesim.main(["check", scenario], console: &console) == 0)
        let changed = timeline.json.replacingOccurrences(of: #""t": 5500"#, with: #""t": 5501"#)
        let (_, other) = try Self.folder(golden: changed)
        console = .captured
        #expect(Drivesim.main(["check", other], console: &console) == 1)
        #expect(console.stdout.hasPrefix("FAIL"))
        #expect(console.stderr.contains("  - 00:05.501  ears.opened\n  + 00:05.500  ears.opened\n"))
        #expect(console.stderr.contains("record it with 'drivesim check --record \(other)'"))
        console = .captured
        #expect(Drivesim.main(["run", other], console: &console) == 1)
        #expect(console.stderr.contains("differs from the golden timeline"))
    }

    @Test func aMissingGoldenIsUnusableAndSaysToRecord() throws {
        let (_, scenario) = try Self.folder(golden: nil)
        var console = Console.captured
        #expect(Drivesim.main(["check", scenario], console: &console) == 2)
        #expect(console.stderr.contains("is missing; run 'drivesim check --record"))
        console = .captured
        #expect(Drivesim.main(["run", scenario], console: &console) == 2)
    }

    @Test func aMalformedGoldenIsUnusable() throws {
        for bad in [
            "{", #"{"events": 3}"#, #"{"events": [{"t": 1.5, "event": "ears.opened"}]}"#,
            #"{"events": [{"t": 1, "event": "ears.shut"}]}"#,
        ] {
            let (_, scenario) = try Self.folder(golden: bad)
            var console = Console.captured
            #expect(Drivesim.main(["check", scenario], console: &console) == 2, "\(bad)")
            #expect(console.stderr.contains("golden"))
        }
    }

    @Test func recordWritesTheGoldenAndCIRefuses() throws {
        let (folder, scenario) = try Self.folder(golden: nil)
        var console = Console.captured
        console.environment["CI"] = "true"
        #expect(Drivesim.main(["check", "--record", scenario], console: &console) == 2)
        #expect(console.stderr.contains("CI=true"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/mine.timeline.json"))
        console = .captured
        #expect(Drivesim.main(["check", "--record", scenario], console: &console) == 0)
        #expect(console.stdout.hasPrefix("RECORD"))
        let written = try String(contentsOfFile: folder + "/mine.timeline.json", encoding: .utf8)
        #expect(try written == Simulation(Fixtures.scenario("short-wait")).timeline.json)
        console = .captured
        #expect(Drivesim.main(["check", scenario], console: &console) == 0)
    }
}
