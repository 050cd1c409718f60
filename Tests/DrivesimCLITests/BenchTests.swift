import CLITestSupport
import Fuzzing
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI

@Suite struct BenchTests {
    /// The numbers in `text` after `label` (e.g. "12.3" in "… label 12.3 ms").
    func figure(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." })
    }

    @Test func theRoadDrivesPlanningIsNeverReportedAsMoreThanTheWholeRun() throws {
        let out = Fixtures.drivesim("bench", "--quick", "--only", "road")
        #expect(out.code == 0)
        let whole = try #require(figure(after: "timeline entries per run\n ", in: out.stdout))
        let planning = try #require(figure(after: "of which planning the road", in: out.stdout))
        #expect(planning <= whole, "\(out.stdout)")
        #expect(out.stdout.contains("ms CPU per run, of which planning the road"))
    }

    @Test func geoJSONIsTimedOnARoadDriveWhereItHasSomethingToDraw() throws {
        var console = Console.captured
        BenchCommand.benchRender(
            scale: 10, console: &console,
            talk: GeneratedDrive.scenario(seed: 1, lines: 12, replies: 4, utterances: 3, length: SimTime(ms: 40_000)),
            road: GeneratedDrive.roadScenario(
                seed: 1, maneuvers: 6, replies: 4, utterances: 2, length: SimTime(ms: 600_000)))
        let row = try #require(
            console.stdout.split(separator: "\n").first { $0.hasPrefix("  geojson") }, "\(console.stdout)")
        #expect(row.contains("(the road drive's"), "\(row)")
        #expect((figure(after: "ms,", in: String(row)) ?? 0) > 0, "KiB written: \(row)")
    }

    @Test func aProcessIsTimedWhenItExitsWithZeroAndNotOtherwise() throws {
        let ran = try #require(
            BenchCommand.processCPUSeconds("/bin/sh", ["-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"]))
        #expect(ran > 0)
        #expect(BenchCommand.processCPUSeconds("/bin/sh", ["-c", "exit 3"]) == nil)
        #expect(BenchCommand.processCPUSeconds("/nonexistent/drivesim", []) == nil)
    }

    @Test func aTestRunnerIsNotMistakenForTheDrivesimCommand() {
        // The whole-process table runs the executable itself: here that would be the test runner.
        #expect(BenchCommand.drivesimExecutable() == nil)
        var console = Console.captured
        BenchCommand.benchProcesses(hours: [1], drives: [[]], repetitions: 1, console: &console)
        #expect(console.stdout.contains("not measured (this process is not the drivesim command)"), "\(console.stdout)")
    }
}
