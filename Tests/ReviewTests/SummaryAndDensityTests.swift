import Guidance
import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import Fuzzing
@testable import Review
@testable import SimRunner

/// The summary on top of every picture and page, and what each does when a
/// long drive is too dense to draw everything: SVG arrows left out, lanes as
/// density, the HTML page's collisions.
@Suite struct SummaryAndDensityTests {
    static func timeline(_ name: String) throws -> Timeline { try Simulation(try Fixtures.scenario(name)).timeline }
    /// A generated 1-hour talk drive's timeline: thousands of decisions.
    static let hour = Simulation(GeneratedDrive.scenario(hours: 1, seed: 1), fault: nil).timeline

    @Test func theSummaryCountsRulesRoadStagesAndDrops() throws {
        let detour = TimelineSummary(try Self.timeline("road/dense-detour-3min"))
        #expect(
            detour.lines == [
                // The departure line ("Head east for 3 kilometers.") closes the ears once more.
                "rules: ears-closed 8",
                "road: off-route 1 · back-on-route 1 · stage-late 1 · route-kept 1",
                "moments: off route 1 · back on route 1 · route requested 1 · route kept 1",
                "pippa: yes 145 s · no 173 s · not-known 0.5 s · longest not-known 0.5 s from 00:00.000",
                "stages: far 1 spoken, 1 skipped · near 2 spoken · now 2 spoken",
            ])
        // The drops, against a count of the events themselves.
        let fixes = try Self.timeline("road/phone-like-fixes")
        func count(_ test: (TimelineEvent.What) -> Bool) -> Int { fixes.events.count { test($0.what) } }
        let expected: [(String, Int)] = [
            ("fixes out-of-order", count { if case .road(.fixDropped(_, .outOfOrder)) = $0 { true } else { false } }),
            ("fixes implausible", count { if case .road(.fixDropped(_, .implausible)) = $0 { true } else { false } }),
            ("reports busy", count { if case .road(.reportDropped(_, .busy)) = $0 { true } else { false } }),
            (
                "reports out-of-order",
                count { if case .road(.reportDropped(_, .outOfOrder)) = $0 { true } else { false } }
            ),
        ]
        let summary = TimelineSummary(fixes)
        #expect(summary.dropped.map(\.name) == expected.map(\.0))
        #expect(summary.dropped.map(\.count) == expected.map(\.1))
        #expect(expected.allSatisfy { $0.1 > 0 })
        // Lines dropped by the arbiter, by rule.
        let lines = TimelineSummary(Self.hour).dropped.filter { $0.name.hasPrefix("lines ") }
        #expect(lines.map(\.name) == ["lines superseded", "lines stale"])
        #expect(
            lines.map(\.count)
                == [Rule.superseded, .stale].map { rule in
                    Self.hour.events.count { if case .guidanceDropped(_, rule) = $0.what { true } else { false } }
                })
    }

    @Test func aTimelineWithNothingToCountSaysSo() throws {
        let empty = try Self.timeline("urgent-cut").keeping { _, _ in false }
        #expect(TimelineSummary(empty).lines == ["no decisions"])
        #expect(empty.lanesChart(width: 80).split(separator: "\n")[1] == "no decisions")
    }

    @Test func theSummaryTopsEveryPictureAndFollowsTheWindow() throws {
        let timeline = try Self.timeline("urgent-cut")
        let lines = TimelineSummary(timeline).lines
        #expect(lines == ["rules: ears-closed 1 · urgent-cut 1 · held 1 · after-cut 1"])
        #expect(Array(timeline.lanesChart(width: 80).split(separator: "\n")[1...1]) == [Substring(lines[0])])
        #expect(timeline.svg().contains("<g class=\"summary\"><text x=\"10\" y=\"36\">\(lines[0])</text></g>"))
        #expect(timeline.html().contains("<section id=\"summary\"><p>\(lines[0])</p></section>"))
        // Before the cut (at 2 s), nothing was decided.
        let before = ReviewWindow(from: .zero, to: SimTime(ms: 1_000))
        #expect(timeline.lanesChart(width: 80, window: before).split(separator: "\n")[1] == "no decisions")
        #expect(timeline.svg(window: before).contains(">no decisions</text>"))
    }

    @Test func summaryLinesWrapBetweenItemsToTheWidth() {
        let summary = TimelineSummary(Self.hour)
        let wrapped = summary.lines(width: 60)
        #expect(wrapped.count > summary.lines.count)
        #expect(wrapped.allSatisfy { displayWidth($0) <= 60 })
        // Unwrapped, they are the summary's lines again.
        var joined: [String] = []
        for line in wrapped {
            if line.hasPrefix("  "), let last = joined.popLast() {
                joined.append(last + " " + line.dropFirst(2))
            } else {
                joined.append(line)
            }
        }
        #expect(joined == summary.lines)
    }

    @Test func svgLeavesOutArrowsTooCloseToTellApartAndSaysHowToZoom() throws {
        let svg = Self.hour.svg(width: 1200)
        let xs = svg.split(separator: "\n").filter { $0.hasPrefix("<path class=\"flow\" d=\"M") }.map { line in
            Double(line.dropFirst("<path class=\"flow\" d=\"M".count).prefix { $0 != "," })!
        }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 >= 6 })
        let lanes = Lanes(Self.hour, only: .all)
        let all = lanes.visible(in: ReviewWindow().range(end: lanes.end)).flows.count
        #expect(svg.contains("; \(all - xs.count) arrows and "))
        #expect(svg.contains("hidden where too dense: zoom with --from and --to, or --format html</text>"))
        #expect(xs.count > 0 && xs.count < all)
        // A short drive keeps every arrow and says nothing hidden.
        let short = try Self.timeline("barge-in").svg()
        #expect(
            short.contains("class=\"flow\"")
                && !["1 arrow ", "arrows hidden", "arrows and"].contains { short.contains($0) })
    }

    @Test func lanesDrawALongDrivesRowsAsDensity() throws {
        let chart = Self.hour.lanesChart(width: 80)
        let rows = chart.split(separator: "\n").filter { $0.hasPrefix("guidance  ") || $0.hasPrefix("ears      ") }
        #expect(rows.count == 2)
        for row in rows {
            let parts = row.dropFirst(Timeline.laneLabelWidth).split(separator: " ", maxSplits: 1)
            #expect(parts[0].allSatisfy { ("1"..."9").contains($0) || $0 == " " })
            #expect(parts[0].contains("9"))
            #expect(parts.count == 2 && parts[1].hasPrefix(" 9 = "))
        }
        #expect(chart.contains(LaneScale.denseLegend))
        // A chart whose bars fit draws bars.
        let short = try Self.timeline("urgent-cut").lanesChart(width: 80)
        #expect(!short.contains(LaneScale.denseLegend) && !short.contains("9 = "))
    }

    @Test func thePageListsTheCollisionsAndReadsItsScriptFromTheBundle() throws {
        let page = try Self.timeline("urgent-cut").html()
        for id in ["collision-rule", "collision-prev", "collision-next", "collision-at", "collision-list"] {
            #expect(page.contains("id=\"\(id)\""))
        }
        #expect(Timeline.htmlScript.hasPrefix("\"use strict\";\n") && Timeline.htmlScript.hasSuffix("})();\n"))
        #expect(Timeline.htmlScript.contains("#collision=") && Timeline.htmlStyle.contains("#collision-list"))
        #expect(Timeline.htmlStyle.hasPrefix("<style>\n") && Timeline.htmlStyle.hasSuffix("</style>\n"))
        #expect(!page.contains("is missing from the drivesim_Review.resources"))
        #expect(page.contains("<script>\n" + Timeline.htmlScript + "</script>\n"))
    }
}
