import DrivesimTesting
import Guidance
import Testing

/// The template's tests: the road corpus, then a road fuzz campaign, judged by every road check.
@Test func myGuidanceOnTheRoad() throws {
    try Conformance.road(MyGuidance.init, seed: 1, runs: 300)
}
