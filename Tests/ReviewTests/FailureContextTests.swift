import CLITestSupport
import Foundation
import ScenarioFormat
import SimClock
import SimRunner
import TestSupport
import Testing

@testable import Review

/// A broken check's context shows the events that break it, and a failure
/// line says the settings the run drew (issue 52).
@Suite struct FailureContextTests {
    /// Pippa's s1 (5 s) from 0, cut by an urgent line at 4 s and repeated from 5 s: its second start is 5 s after its first.
    static let repeated = """
        {"drivesim": 1, "name": "repeat", "settings": {"afterCut": "repeat"},
         "guidance": [{"id": "g1", "at": 4, "duration": 1, "urgent": true}],
         "replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 5}]}]}
        """

    @Test func theContextOfARepeatedEventShowsTheFirstOneHoweverFarBack() throws {
        let scenario = try ScenarioDecoder.decode(Array(Self.repeated.utf8), file: "r.json")
        let timeline = try Simulation(scenario).timeline
        let starts = timeline.events.filter { $0.kind == .stretchStarted }
        try #require(starts.count == 2 && starts[1].t.ms - starts[0].t.ms > 1000, "\(timeline.text)")
        let context = timeline.context(at: starts[1].t)
        #expect(context.first == starts[0], "\(timeline.lines(for: context))")
        #expect(context.contains(starts[1]))
        // Nothing else from before the window is pulled in.
        #expect(context.filter { $0.t.ms < starts[1].t.ms - 1000 } == [starts[0]])
    }

    @Test func theEventsAtTheBrokenInstantAreShownEvenWhenTheSecondBeforeIsCrowded() throws {
        // Ten lines requested in the 900 ms before a stretch starts at 2 s (each queued, each playing 10 ms).
        let lines = (0..<10).map { #"{"id": "g\#($0)", "at": 1.\#(100 + $0 * 50), "duration": 0.01}"# }.joined(
            separator: ", ")
        let text =
            #"{"drivesim": 1, "name": "crowd", "guidance": [\#(lines)], "replies": [{"id": "r1", "at": 2, "stretches": [{"id": "s1", "duration": 1}]}]}"#
        let timeline = try Simulation(try ScenarioDecoder.decode(Array(text.utf8), file: "c.json")).timeline
        let start = try #require(timeline.events.first { $0.kind == .stretchStarted })
        try #require(
            timeline.events.filter { $0.t < start.t && start.t.ms - $0.t.ms <= 1000 }.count > Timeline.contextEvents)
        #expect(timeline.context(at: start.t).contains(start), "\(timeline.lines(for: timeline.context(at: start.t)))")
    }

    @Test func contextLinesKeepOneColumnForEveryVerb() throws {
        let timeline = try Simulation(try Fixtures.scenario("road/gps-gap")).timeline
        let shown = Array(timeline.events.prefix(8))
        try #require(
            shown.contains { $0.kind == .roadReportDelivered } && shown.contains { $0.kind == .roadFixArrived })
        let text = "#\n" + timeline.lines(for: shown).joined(separator: "\n")
        #expect(TextColumnsTests.detailOffsets(text).count == 1, "\(text)")
        #expect(text.contains("report delivered   f0") && text.contains("fix arrived        f0"), "\(text)")
    }
}
