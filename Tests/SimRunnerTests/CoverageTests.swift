import Fuzzing
import Review
import ScenarioFormat
import SimRunner
import TalkArbiter
import TestSupport
import Testing

@Suite struct CoverageTests {
    static func coverage(_ name: String) throws -> RuleCoverage {
        RuleCoverage(try Simulation(try Fixtures.scenario(name)).timeline)
    }

    @Test func theScenariosExerciseEveryRuleOfTheArbiter() throws {
        var total = RuleCoverage()
        for file in Fixtures.scenarioFiles {
            total.add(RuleCoverage(try Simulation(try Fixtures.load(file.path)).timeline))
        }
        #expect(total.neverFired == [], "add a scenario for each rule listed")
        #expect(total.roadNeverFired == [], "add a road scenario for each road rule listed")
        #expect(Rule.allCases.count == 11)
    }

    @Test func aBargeInCountsOnceThoughItCutsAndAbandons() throws {
        let c = try Self.coverage("barge-in")
        #expect(c[.bargeIn] == 1)
        #expect(c[.afterCut] == 0)
    }

    @Test func aCutByGuidanceCountsItsRuleAndOneAfterCut() throws {
        let drop = try Self.coverage("after-cut-drop")  // the cut, then the reply abandoned under after-cut
        #expect(drop[.urgentCut] == 1 && drop[.afterCut] == 1 && drop[.earsClosed] == 1)
        let long = try Self.coverage("long-cut")
        #expect(long[.longCut] == 1 && long[.afterCut] == 1 && long[.held] == 1 && long[.earsClosed] == 1)
        #expect(long.counts.reduce(0, +) == 4)
    }

    @Test func roadEventsCountForTheRoadRuleTheyShow() throws {
        let outage = try Self.coverage("road/link-outage")
        #expect(outage[road: .reportOffline] > 0)
        #expect(outage.counts.allSatisfy { $0 >= 0 } && outage[road: .offRoute] == 0)
        #expect(try Self.coverage("road/late-stage-skipped")[road: .stageLate] == 1)
    }
}
