import CLITestSupport
import Foundation
import SimClock
import SimRunner
import TestSupport
import Testing

@testable import Review

/// A reviewer finds every route change in every picture without reading the
/// legend (issue 52): the road's moments are counted in the summary, listed
/// in the lanes chart, labelled in the SVG and on the page, and listed
/// under the page's Collisions.
@Suite struct RoadMomentsTests {
    static func timeline(_ name: String) throws -> Timeline {
        try Simulation(try Fixtures.scenario("road/\(name)")).timeline
    }

    @Test func theSummarySaysEveryMomentByItsLabel() throws {
        let lines = TimelineSummary(try Self.timeline("handoff-through-an-outage")).lines
        #expect(
            lines.contains("moments: route requested 1 · route switched 1 · handoff taken 1 · handoff ignored 1"),
            "\(lines)")
        let reroute = TimelineSummary(try Self.timeline("reroute-through-an-outage-and-a-refusal")).lines
        #expect(
            reroute.contains {
                $0.hasPrefix("moments: off route") && $0.contains("back on route") && $0.contains("route failed")
            }, "\(reroute)")
    }

    @Test func theLanesChartMarksAndListsEachMoment() throws {
        let chart = try Self.timeline("handoff-through-an-outage").lanesChart(width: 120)
        #expect(chart.contains("\nroad moments:\n"), "\(chart)")
        for label in ["[route requested]", "[route switched]", "[handoff taken]", "[handoff ignored]"] {
            #expect(chart.contains(label), "\(label)")
        }
        #expect(chart.contains("R route requested   S switched   K kept   F failed"))
    }

    @Test func theSVGLabelsEveryRouteChangeAndNeverHidesOne() throws {
        for name in [
            "handoff-through-an-outage", "reroute-through-an-outage-and-a-refusal", "reroute-and-handoff-ask-at-once",
        ] {
            let timeline = try Self.timeline(name)
            let changes = timeline.events.filter { Lanes.Moment($0.kind)?.isRouteChange == true }.count
            let elements = try #require(ReviewFormatTests.parse(timeline.svg()))
            let labels = elements.elements.filter { $0.attributes["class"] == "moment" }.count
            #expect(changes > 0 && labels >= changes, "\(name): \(labels) labels for \(changes) route changes")
            // However narrow the picture.
            let narrow = try #require(ReviewFormatTests.parse(timeline.svg(width: 100)))
            #expect(narrow.elements.filter { $0.attributes["class"] == "moment" }.count >= changes, "\(name) at 100 px")
        }
        let svg = try Self.timeline("handoff-through-an-outage").svg()
        #expect(svg.contains(">route switched</text>") && svg.contains(">handoff taken</text>"))
    }

    @Test func aLineDroppedAtItsRoutesSwitchSaysSoInEveryFormat() throws {
        let timeline = try Self.timeline("handoff-while-a-line-waits")
        let drop = try #require(timeline.text.split(separator: "\n").first { $0.contains("guidance  dropped") })
        #expect(
            drop.hasPrefix("01:12.500") && drop.contains("m1.far") && drop.hasSuffix(" [stale: switched]"), "\(drop)")
        #expect(
            timeline.json.contains(
                "{\"event\": \"guidance.dropped\", \"line\": \"m1.far\", \"reason\": \"switched\", \"rule\": \"stale\", \"t\": 72500}"
            ))
        let summary = TimelineSummary(timeline).lines
        #expect(summary.contains { $0.hasPrefix("dropped: lines switched 1") }, "\(summary)")
        #expect(timeline.lanesChart(width: 120).contains("[stale: switched]  guidance  dropped"))
        let switching = ReviewWindow(from: SimTime(ms: 70_000), to: SimTime(ms: 75_000))
        #expect(timeline.svg(window: switching).contains(">stale: switched</text>"))
        #expect(timeline.html().contains("\"stale: switched\""))
        #expect(timeline.trace().contains("\"name\": \"stale: switched\""))
        // An ordinary expiry keeps its rule alone.
        let stale = try Simulation(try Fixtures.scenario("stale")).timeline
        #expect(stale.text.contains(" [stale]\n") && !stale.text.contains("switched"))
        #expect(TimelineSummary(stale).lines.contains { $0.contains("lines stale 1") })
    }

    @Test func aSwitchLineSkippedIsAMomentInEveryPicture() throws {
        let timeline = try Self.timeline("handoff-outside-guidance")
        #expect(
            timeline.text.contains(
                "01:12.500  road      switch skipped     h1                                   [not-guiding]\n"),
            "\(timeline.text)")
        #expect(
            TimelineSummary(timeline).lines.contains { $0.hasPrefix("moments: ") && $0.contains("switch skipped 1") })
        #expect(timeline.lanesChart(width: 120).contains("[switch skipped]"))
        #expect(
            timeline.svg(window: ReviewWindow(from: SimTime(ms: 70_000), to: SimTime(ms: 75_000))).contains(
                ">switch skipped</text>"))
        #expect(timeline.html().contains("\"switch skipped\""))
    }

    @Test func aLongDrivesFixesAndReportsAreFoldedIntoADensityStripThatNamesThem() throws {
        let timeline = try Self.timeline("handoff-through-an-outage")
        let svg = timeline.svg(width: 300)
        let elements = try #require(ReviewFormatTests.parse(svg))
        #expect(elements.elements.contains { $0.attributes["class"] == "density" })
        #expect(!svg.contains("roadmark road-report-sent") && !svg.contains("roadmark road-report-delivered"))
        // Zoomed in, each is a tick again.
        #expect(
            timeline.svg(width: 300, window: ReviewWindow(from: .zero, to: SimTime(ms: 5000))).contains(
                "roadmark road-report-sent"))
    }

    @Test func theHeldHatchStylesBarsOnlyNotTheHeldDecisionsLabel() {
        let style = Timeline.svgStyle
        #expect(style.contains("rect.held {") && style.contains("rect.queued {"))
        // No rule that a mark's group (`<g class="mark held">`) would match, filling its text with the hatch.
        #expect(
            !style.contains(" .held {") && !style.contains("\n.held {") && !style.contains(" .queued {"), "\(style)")
    }

    @Test func thePageLabelsEachMomentAndListsItUnderCollisions() throws {
        let html = try Self.timeline("handoff-through-an-outage").html()
        #expect(html.contains(",\"route switched\",") && html.contains(",\"handoff taken\","), "\(html.suffix(3000))")
        #expect(html.contains("every rule and road moment") && html.contains("ROUTE_CHANGE"))
    }
}
