import SimClock
import TestSupport
import Testing

@testable import Review
@testable import SimRunner

/// Pippa's view in review (issue 48): the summary's `pippa` line, the view
/// lane in the chart, the SVG and the page, on
/// `Scenarios/road/pippa-view-off-route-and-past-120-s.json` (she answers no
/// from 38.6 s to 50.6 s, and does not know from 189.001 s, when f69's report
/// is over 120 s old, until f220's lands at 220.6 s).
@Suite struct PippaViewLaneTests {
    static let timeline = try! Simulation(try! Fixtures.scenario("road/pippa-view-off-route-and-past-120-s")).timeline

    @Test func theSummarySaysHowLongSheGaveEachAnswerAndHerLongestNotKnown() {
        let lines = TimelineSummary(Self.timeline).lines
        #expect(
            lines.contains(
                "pippa: yes 247.401 s · no 12 s · not-known 32.199 s · longest not-known 31.599 s from 03:09.001"),
            "\(lines)")
        // A window counts her view within it, from reports delivered before it.
        let window = ReviewWindow(from: SimTime(ms: 40_000), to: SimTime(ms: 60_000))
        #expect(TimelineSummary(Self.timeline, window: window).lines.contains("pippa: yes 9.4 s · no 10.6 s"))
        // Without the link's events, or without a road, no line.
        #expect(
            !TimelineSummary(Self.timeline, window: ReviewWindow(only: .talk)).lines.contains { $0.hasPrefix("pippa:") }
        )
        let talk = try! Simulation(try! Fixtures.scenario("urgent-cut")).timeline
        #expect(!TimelineSummary(talk).lines.contains { $0.hasPrefix("pippa:") })
    }

    @Test func theChartsViewRowShowsEachAnswerWhereSheGaveIt() throws {
        // One column = 1 s from 30 s: no from 38.6 s (column 8) to 50.6 s (column 20, which holds
        // both answers and shows the worse), yes after.
        let chart = Self.timeline.lanesChart(
            width: 50, window: ReviewWindow(from: SimTime(ms: 30_000), to: SimTime(ms: 70_000)))
        let row = try #require(chart.split(separator: "\n").first { $0.hasPrefix("view ") })
        #expect(row == "view      yyyyyyyynnnnnnnnnnnnnyyyyyyyyyyyyyyyyyyy", "\(chart)")
        #expect(chart.contains("? not-known (no report yet, or her last is over 120 s old)"))
        let late = Self.timeline.lanesChart(
            width: 50, window: ReviewWindow(from: SimTime(ms: 180_000), to: SimTime(ms: 230_000)))
        let lateRow = try #require(late.split(separator: "\n").first { $0.hasPrefix("view ") })
        // One column = 2 s from 180 s: not-known from 189.001 s (column 4) to 220.6 s (column 20).
        #expect(lateRow == "view      yyyy?????????????????yyyy", "\(late)")
        // A drive without a road has no view row; --only names the lane as the link's family.
        #expect(
            !(try Simulation(try Fixtures.scenario("urgent-cut")).timeline.lanesChart(width: 80)).contains("\nview "))
        #expect(EventFamily(named: "view") == .link)
        #expect(!Self.timeline.lanesChart(width: 80, window: ReviewWindow(only: .talk)).contains("\nview "))
        #expect(Self.timeline.lanesChart(width: 80, window: ReviewWindow(only: .link)).contains("\nview "))
    }

    @Test func theViewLanesBarsSayTheAnswerAndTheReportsAgeAndNameTheirReports() throws {
        let lanes = Lanes(Self.timeline)
        let view = lanes.bars.filter { $0.lane == .view }
        #expect(view.map(\.kind) == [.pippaNotKnown, .pippaYes, .pippaNo, .pippaYes, .pippaNotKnown, .pippaYes])
        #expect(view[0].label == "not-known: no report yet")
        #expect(view[2].label == "no, reports at most 1.599 s old")
        #expect(view[3].label == "yes, reports at most 120 s old")
        #expect(view[4].label == "not-known: f69's report over 120 s old")
        // Each bar names deliveries: the first and last report it holds.
        for bar in view {
            #expect(
                !bar.events.isEmpty && bar.events.allSatisfy { Self.timeline.events[$0].kind == .roadReportDelivered })
        }
        let svg = Self.timeline.svg()
        #expect(svg.contains("id=\"lane-view\"") && svg.contains("class=\"pippa-not-known\""))
        #expect(svg.contains("Pippa: not-known: f69&apos;s report over 120 s old, 03:09.001 – 03:40.600"))
        let page = Self.timeline.html()
        #expect(page.contains(#""lanes": ["guidance", "Pippa", "ears", "Dad", "road", "view"]"#))
        #expect(page.contains(#"if (L.lanes.includes("view")) legendLine(VIEW_LEGEND"#))
    }
}
