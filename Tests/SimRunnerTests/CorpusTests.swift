import Fuzzing
import Review
import ScenarioFormat
import SimRunner
import TestSupport
import Testing

@Suite struct CorpusTests {
    @Test func theCorpusIsLargeEnough() {
        #expect(Fixtures.scenarioFiles.count >= 25)
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func everyScenarioPasses(file: ScenarioFile) throws {
        let scenario = try Fixtures.load(file.path)
        let verdict = try Verdict(scenario)
        #expect(verdict.passed, "\(verdict.report)")
        #expect(!scenario.expect.isEmpty, "a corpus scenario asserts something")
    }
}
