import CLITestSupport
import ScenarioFormat
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI

@Suite struct GenerateTests {
    @Test func theSameOptionsWriteTheSameBytes() {
        let a = Fixtures.drivesim("generate", "--hours", "1", "--seed", "7")
        let b = Fixtures.drivesim("generate", "--hours", "1", "--seed", "7")
        #expect(a.code == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout != Fixtures.drivesim("generate", "--hours", "1", "--seed", "8").stdout)
    }

    @Test(arguments: [false, true])
    func aGeneratedDriveDecodesAndPasses(road: Bool) throws {
        let out =
            road
            ? Fixtures.drivesim("generate", "--hours", "1", "--road") : Fixtures.drivesim("generate", "--hours", "1")
        let scenario = try ScenarioDecoder.decode(Array(out.stdout.utf8), file: "generated.json")
        #expect(road == (scenario.road != nil))
        #expect(scenario.replies.count == (road ? 300 : 1_000))
        #expect(try Verdict(scenario).passed)
    }

    @Test(.fullRunOnly) func theLongestDriveStaysWithinTheSPECsDay() throws {
        let out = Fixtures.drivesim("generate", "--hours", "24")
        #expect(out.code == 0)
        #expect(throws: Never.self) { try ScenarioDecoder.decode(Array(out.stdout.utf8), file: "day.json") }
    }

    @Test(arguments: [["--hours", "0"], ["--hours", "25"], ["--hours", "1.5"], ["--seed", "-1"], ["extra"]])
    func badOptionsAreUsageErrors(arguments: [String]) {
        guard case .usage? = thrown(["generate"] + arguments) else {
            Issue.record("generate \(arguments) was not refused as a usage error")
            return
        }
    }
}
