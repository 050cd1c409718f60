import DrivesimTesting
import Testing

/// MyArbiter against SPEC's corpus, decision by decision: one test case per file.
@Test(arguments: Conformance.scenarios)
func myArbiterConformsToTheCorpus(_ scenario: ConformanceScenario) throws {
    try scenario.check(MyArbiter.self)
}

/// MyArbiter against a seeded fuzz campaign; a failure prints each shrunk
/// reproducer, ready to save as a scenario file.
@Test func myArbiterSurvivesAFuzzCampaign() throws {
    try Conformance.fuzz(MyArbiter.self, seed: 1, runs: 2_000)
}
