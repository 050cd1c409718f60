import CLITestSupport
import Foundation
import SimRunner
import TestSupport
import Testing

@testable import Review

/// The text timeline and the coverage table hold their columns: what follows
/// a column starts at one offset on every line.
@Suite struct TextColumnsTests {
    /// Where each line's details start: after the verb and the two spaces
    /// that follow the longest verb of the timeline (nil for a line without details).
    static func detailOffsets(_ text: String) -> Set<Int> {
        var offsets: Set<Int> = []
        for line in text.split(separator: "\n").dropFirst() {
            // The time, the lane and the verb: words separated by single spaces inside a column, two between columns.
            let chars = Array(line)
            var i = 0
            var gaps = 0
            while i + 1 < chars.count, gaps < 3 {
                if chars[i] == " ", chars[i + 1] == " " {
                    gaps += 1
                    while i < chars.count, chars[i] == " " { i += 1 }
                } else {
                    i += 1
                }
            }
            // A line whose only detail is its rule (`ears closed  [ears-closed]`) has none: the tag has its own column.
            if gaps == 3, chars[i] != "[" { offsets.insert(i) }
        }
        return offsets
    }

    @Test func aRoadTimelinesDetailsStartInOneColumnPastTheLongestVerb() {
        let demo = Fixtures.drivesim().stdout
        #expect(demo.contains("report delivered"))
        #expect(Self.detailOffsets(demo).count == 1, "\(Self.detailOffsets(demo))")
    }

    /// A line re-phrased while it waited says so where it starts, with the words it was requested with.
    @Test func aRephrasedLineSaysSoWhereItStarts() {
        let text = Fixtures.drivesim("run", Fixtures.path("Scenarios/road/waited-line-rephrased.json")).stdout
        let started = text.split(separator: "\n").filter { $0.contains("guidance  started") }
        #expect(
            started.contains {
                $0.hasSuffix(
                    #" m1.near "In 150 meters, turn right." re-phrased while it waited, was "In 200 meters, turn right.""#
                )
            },
            "\(started)")
        // A line that starts with the words it was requested with says nothing more.
        #expect(started.contains { $0.hasSuffix(#" m1.now "Now turn right.""#) })
    }

    /// Every rule is tagged beside its decision, `ears-closed` too, in the rule column.
    @Test func closingTheEarsIsTaggedWithItsRule() throws {
        let text = Fixtures.drivesim("run", Fixtures.path("Scenarios/short-wait.json")).stdout
        let closed = text.split(separator: "\n").filter { $0.contains("  ears      closed") }
        #expect(!closed.isEmpty && closed.allSatisfy { $0.hasSuffix("[ears-closed]") }, "\(closed)")
        let waiting = try #require(text.split(separator: "\n").first { $0.contains("[short-wait]") })
        func column(_ line: Substring) -> Int? {
            line.firstIndex(of: "[").map { line.distance(from: line.startIndex, to: $0) }
        }
        #expect(closed.allSatisfy { column($0) == column(waiting) }, "\(closed) \(waiting)")
    }

    @Test func aTalkTimelineKeepsItsColumns() {
        let text = Fixtures.drivesim("run", Fixtures.path("Scenarios/urgent-cut.json")).stdout
        #expect(text.contains("\n00:02.000  talk      stretch cut      r1/s1 by g1"), "talk timelines are as they were")
        #expect(Self.detailOffsets(text).count == 1)
    }

    @Test func theCoverageTotalsHoldTheirColumnsForTheLongestRoadRule() {
        let out = Fixtures.drivesim("check", "--coverage", Fixtures.path("Scenarios/road/busy-link.json")).stdout
        let rows = out.components(separatedBy: "totals over")[1].split(separator: "\n").map(Array.init)
            .filter { String($0).hasPrefix("  ") && String($0).split(separator: " ").count == 3 }
        #expect(rows.contains { String($0).contains("report-out-of-order") })
        #expect(rows.contains { String($0).contains("firings") })
        // Where the second column starts: past the first word and the spaces after it.
        let second = Set(
            rows.map { row in
                var i = 2
                while i < row.count, row[i] != " " { i += 1 }
                while i < row.count, row[i] == " " { i += 1 }
                return i
            })
        #expect(second.count == 1, "\(rows.map { String($0) })")
    }
}

/// The text timeline as a story (issue 24): routine road events folded, each fold counted.
@Suite struct StoryTests {
    @Test func runsOfRoutineRoadEventsAreFoldedAndCounted() throws {
        let scenario = try Fixtures.scenario("road/highway-120")
        let timeline = try Simulation(scenario).timeline
        let full = timeline.text.split(separator: "\n")
        let story = timeline.story.split(separator: "\n")
        #expect(story.count < full.count / 3, "\(story.count) of \(full.count) lines")
        // Every event that is not routine keeps its line; the folds count the rest, none lost.
        func words(_ s: String) -> [String] { s.split(separator: " " as Character).map(String.init) }
        let storyWords = Set(story.map { words(String($0)) })
        let kept = timeline.events.filter { !Timeline.routine($0) }.map { words(timeline.line(for: $0)) }
        #expect(kept.allSatisfy { storyWords.contains($0) })
        var folded = 0
        for line in story where line.contains("  folded  ") {
            for part in line.split(separator: ",").dropLast() {
                folded += Int(part.split(separator: " ").first { Int($0) != nil } ?? "0") ?? 0
            }
        }
        let shown = story.filter { !$0.contains("  folded  ") }.count - 1  // less the header
        #expect(folded + shown == timeline.events.count)
    }

    @Test func runAllShowsEveryEventAndTheDefaultFolds() throws {
        let file = Fixtures.path("Scenarios/road/highway-120.json")
        let (_, folded, _) = Fixtures.drivesim("run", file)
        let (_, all, _) = Fixtures.drivesim("run", file, "--all")
        #expect(all == (try Simulation(try Fixtures.scenario("road/highway-120")).timeline.text))
        #expect(folded.contains("  folded  ") && !all.contains("  folded  "))
        // A talk-only timeline has nothing routine: the story is the text.
        let talk = try Simulation(try Fixtures.scenario("barge-in")).timeline
        #expect(talk.story == talk.text)
    }
}
