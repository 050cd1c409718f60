import CLITestSupport
import Foundation
import TestSupport
import Testing

/// A run with another process says, in one line on standard error, which of
/// the scenario's expectations it did not judge and why; `check` counts them
/// (issue 52). Serialized: each command line runs its own process.
@Suite(.serialized) struct UnjudgedTests {
    static let guidance = "python3 \(Fixtures.path("Examples/python-guidance/guidance.py"))"
    static let highway = Fixtures.path("Scenarios/road/highway-120.json")

    /// A road scenario whose expectation cannot hold (it wants a line id drivesim never says).
    static func failingRoad() throws -> String {
        let text = try String(contentsOfFile: highway, encoding: .utf8)
            .replacingOccurrences(of: "],\n  \"golden\": \"highway-120.timeline.json\"", with: "]")
            .replacingOccurrences(of: "\"line\": \"exit.far\"", with: "\"line\": \"exit.near\"")
        return Fixtures.write(text, "wrong.json", in: try Fixtures.temporaryFolder())
    }

    @Test func aRunWithAGuidanceSaysWhichExpectationsItDidNotJudgeAndWhy() throws {
        let wrong = try Self.failingRoad()
        #expect(Fixtures.drivesim("run", wrong).code == 1)
        let run = Fixtures.drivesim("run", wrong, "--guidance", Self.guidance)
        #expect(run.code == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        let said = try #require(lines.first { $0.contains("not judged") }, "\(run.stderr)")
        #expect(
            said.hasPrefix(
                "\(wrong): not judged: expect[0] to expect[4] (5 expectations): they pin drivesim's own guidance"),
            "\(said)")
        // The golden timeline is named too.
        let golden = Fixtures.drivesim("run", Self.highway, "--guidance", Self.guidance)
        #expect(
            golden.stderr.contains("(5 expectations) and the golden timeline: they pin drivesim's own guidance"),
            "\(golden.stderr)")
        // Without a guidance, nothing is said.
        #expect(!Fixtures.drivesim("run", Self.highway).stderr.contains("not judged"))
    }

    @Test func checkCountsWhatWasNotJudgedBeforeItsLastLine() throws {
        let wrong = try Self.failingRoad()
        let check = Fixtures.drivesim("check", wrong, Self.highway, "--guidance", Self.guidance)
        #expect(check.code == 0)
        #expect(
            check.stdout.hasSuffix(
                "not judged: 10 expectations and 1 golden timeline, in 2 scenarios (each named on standard error)\n2 passed, 0 failed\n"
            ), "\(check.stdout)")
        #expect(check.stderr.components(separatedBy: ": not judged: ").count == 3, "\(check.stderr)")
    }

    @Test func aTalkScenarioIsJudgedWholeWithAGuidanceItAsksNothing() throws {
        let talk = try String(contentsOfFile: Fixtures.path("Scenarios/short-wait.json"), encoding: .utf8)
            .replacingOccurrences(of: "],\n  \"golden\": \"short-wait.timeline.json\"", with: "]")
            .replacingOccurrences(of: "\"event\": \"guidance.started\"", with: "\"event\": \"guidance.dropped\"")
        let file = Fixtures.write(talk, "talk.json", in: try Fixtures.temporaryFolder())
        let run = Fixtures.drivesim("run", file, "--guidance", Self.guidance)
        #expect(
            run.code == 1 && run.stderr.contains("expected guidance.dropped") && !run.stderr.contains("not judged"),
            "\(run.stderr)")
    }

    @Test func anArbiterThatFailsSaysItsExpectationsAndGoldenWereNotJudgedAndWhere() throws {
        let folder = try Fixtures.temporaryFolder()
        let arbiter =
            "sh "
            + Fixtures.write(
                "read line; echo '{\"type\":\"hello\",\"protocol\":4}'; while read line; do echo 'not json'; done\n",
                "a.sh", in: folder)
        let scenario = Fixtures.path("Scenarios/after-cut-drop.json")
        let run = Fixtures.drivesim("run", scenario, "--arbiter", arbiter)
        #expect(run.code == 1)
        let said = try #require(run.stderr.split(separator: "\n").first { $0.contains("not judged") }, "\(run.stderr)")
        #expect(
            said.contains(
                ": not judged: expect[0] to expect[5] (6 expectations) and the golden timeline: the arbiter process failed at 00:00.000, where the timeline stops"
            ), "\(said)")
        let check = Fixtures.drivesim("check", scenario, "--arbiter", arbiter)
        #expect(
            check.stdout.contains("not judged: 6 expectations and 1 golden timeline, in 1 scenario"), "\(check.stdout)")
        // The Python example answers in step: everything is judged, nothing said.
        let python = Fixtures.drivesim(
            "check", scenario, "--arbiter", "python3 \(Fixtures.path("Examples/python-arbiter/arbiter.py"))")
        #expect(
            python.code == 0 && !python.stdout.contains("not judged") && !python.stderr.contains("not judged"),
            "\(python.stdout)\(python.stderr)")
    }
}
