import DrivesimTesting
import Testing

/// The app's referee against SPEC's corpus: each scenario its own test case.
@Test(arguments: Conformance.scenarios)
func appRefereeConformsToTheCorpus(_ scenario: ConformanceScenario) throws {
    try scenario.check(AppArbiter.self)
}

/// The app's referee against a seeded fuzz campaign; a failure prints the
/// shrunk reproducer's JSON.
@Test func appRefereeSurvivesAFuzzCampaign() throws {
    try Conformance.fuzz(AppArbiter.self, seed: 1, runs: 2_000)
}
