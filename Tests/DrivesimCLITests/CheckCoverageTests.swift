import CLITestSupport
import TestSupport
import Testing

@Suite struct CheckCoverageTests {
    @Test func checkCoverageListsRulesNeverExercised() {
        let result = Fixtures.drivesim("check", "--coverage", Fixtures.path("Scenarios/short-wait.json"))
        #expect(result.code == 0)
        #expect(result.stdout.contains("short-wait.json: ears-closed 1, short-wait 1"))
        #expect(
            result.stdout.contains(
                "never exercised: urgent-cut, long-cut, guidance-queue, superseded, stale, held, after-cut, barge-in, reply-queue, fix-out-of-order,"
            ))
        #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"))
    }
}
