@testable import DrivesimCLI
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
import SimClock
@testable import SimRunner
import TestSupport
import Testing

@Suite struct ReviewFormatTests {
    static func timeline(_ name: String) throws -> Timeline { Simulation(try Fixtures.scenario(name)).timeline }

    /// The chart's rows by lane title, without their labels.
    static func rows(_ chart: String) -> [String: String] {
        var rows: [String: String] = [:]
        for line in chart.split(separator: "\n", omittingEmptySubsequences: false) {
            // Rows are trimmed at the right: an empty lane is its title alone.
            for lane in Lanes.Lane.allCases where line == lane.title || line.hasPrefix(pad(lane.title, Timeline.laneLabelWidth)) {
                rows[lane.title] = String(line.dropFirst(Timeline.laneLabelWidth))
            }
        }
        return rows
    }

    static func column(_ row: String?, _ c: Int) -> Character? {
        guard let row else { return nil }
        guard c < row.count else { return " " }
        return row[row.index(row.startIndex, offsetBy: c)]
    }

    // MARK: lanes

    @Test func lanesRowsComeInLaneOrder() throws {
        let timeline = try Self.timeline("dad-partly-heard")
        let chart = timeline.lanesChart(width: 90)
        let titles = chart.split(separator: "\n").compactMap { line in
            Lanes.Lane.allCases.first { line == $0.title || line.hasPrefix(pad($0.title, Timeline.laneLabelWidth)) }
        }
        // A drive without a road has no road lane.
        #expect(titles == Lanes(timeline).shown && !titles.contains(.road))
    }

    @Test func lanesMarkTheUrgentCutAtItsColumns() throws {
        // urgent-cut: s1 plays 0–2 s and is cut by g1 (2.0–3.5 s); ears closed 2.0–4.0 s; s1 repeats 3.5–10 s.
        let chart = try Self.timeline("urgent-cut").lanesChart(width: 90)
        #expect(chart.contains("one column = 100 ms"))
        let rows = Self.rows(chart)
        #expect(Self.column(rows["Pippa"], 0) == "~")
        #expect(Self.column(rows["Pippa"], 19) == "X")
        #expect(Self.column(rows["Pippa"], 20) == ":")
        #expect(Self.column(rows["Pippa"], 35) == "~")
        #expect(Self.column(rows["guidance"], 19) == " ")
        #expect((20...34).allSatisfy { Self.column(rows["guidance"], $0) == "=" })
        #expect(Self.column(rows["guidance"], 35) == " ")
        #expect((20...39).allSatisfy { Self.column(rows["ears"], $0) == "#" })
        #expect(Self.column(rows["ears"], 40) == " ")
        #expect(chart.contains("[urgent-cut]"))
    }

    @Test func lanesShowDadsHeardAndLostParts() throws {
        // dad-partly-heard: Dad speaks 1–3 s, the ears close at 2 s.
        let rows = Self.rows(try Self.timeline("dad-partly-heard").lanesChart(width: 90))
        #expect((10...19).allSatisfy { Self.column(rows["Dad"], $0) == "+" })
        #expect((20...29).allSatisfy { Self.column(rows["Dad"], $0) == "!" })
    }

    @Test func lanesAxisLabelsSitOnTheirTicks() throws {
        let chart = try Self.timeline("long-cut")
            .lanesChart(width: 70, window: ReviewWindow(from: SimTime(ms: 3_000), to: SimTime(ms: 9_000)))
        let lines = chart.split(separator: "\n").map(String.init)
        let labels = Array(lines[1].dropFirst(Timeline.laneLabelWidth)), ticks = Array(lines[2].dropFirst(Timeline.laneLabelWidth))
        #expect(chart.contains("one column = 100 ms; from 00:03.000 to 00:09.000"))
        let tickColumns = ticks.indices.filter { ticks[$0] == "|" }
        #expect(tickColumns == [0, 10, 20, 30, 40, 50])
        for c in tickColumns {
            let text = LaneScale.tick(3_000 + Int64(c) * 100)
            #expect(String(labels[c..<min(labels.count, c + text.count)]) == text)
        }
        #expect(LaneScale.tick(4_000) == "4s" && LaneScale.tick(4_500) == "4.5s")
        #expect(LaneScale.tick(65_000) == "1:05" && LaneScale.tick(3_600_000) == "1:00:00")
    }

    @Test func lanesFitTheWidth() throws {
        for width in [40, 80, 120] {
            let chart = try Self.timeline("reply-queue").lanesChart(width: width)
            let rows = Self.rows(chart)
            #expect(rows.count == 4)
            #expect(rows.values.allSatisfy { $0.count + Timeline.laneLabelWidth <= width })
        }
    }

    // MARK: SVG

    /// Every element's attributes, in document order, from a real XML parser.
    final class Elements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append((name, attributes))
        }
    }

    /// The shapes that stand for events (the legend's swatches do not).
    static func shapes(_ elements: Elements, _ cls: String) -> [[String: String]] {
        elements.elements.filter { $0.attributes["class"] == cls && $0.attributes["data-events"] != nil }.map(\.attributes)
    }

    static func parse(_ svg: String) -> Elements? {
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        return parser.parse() ? elements : nil
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func svgIsWellFormedAndRepresentsEveryEvent(_ file: ScenarioFile) throws {
        let timeline = Simulation(try ScenarioFiles.load(file.path).get()).timeline
        let elements = try #require(Self.parse(timeline.svg()))
        var seen = Set<Int>()
        for element in elements.elements {
            for n in (element.attributes["data-events"] ?? "").split(separator: " ") { seen.insert(Int(n)!) }
        }
        #expect(seen == Set(timeline.events.indices))
    }

    @Test func svgLanesAreInOrderAndTicksAtTheirTimes() throws {
        let timeline = try Self.timeline("long-cut")  // 0–17 s
        let elements = try #require(Self.parse(timeline.svg(width: 1000)))
        let lanes = elements.elements.filter { $0.name == "g" && $0.attributes["class"] == "lane" }
        #expect(lanes.map { $0.attributes["data-lane"] ?? "" } == Lanes(timeline).shown.map(\.title))
        let bands = elements.elements.filter { $0.attributes["class"] == "band" }.compactMap { Int($0.attributes["y"] ?? "") }
        #expect(bands == bands.sorted() && Set(bands).count == 4)
        let ticks = elements.elements.filter { $0.attributes["data-ms"] != nil }
        #expect(ticks.count >= 8)
        for tick in ticks {
            let ms = Double(tick.attributes["data-ms"]!)!, x = Double(tick.attributes["x"]!)!
            #expect(abs(x - (90 + ms * 1000 / 17_000)) < 0.11)
        }
        // The cut stretch ends at 4 s, where the line starts.
        let cut = try #require(Self.shapes(elements, "stretch cut").first)
        let line = try #require(Self.shapes(elements, "line").first)
        let cutEnd = Double(cut["x"]!)! + Double(cut["width"]!)!
        #expect(abs(cutEnd - Double(line["x"]!)!) < 0.11)
        #expect(abs(cutEnd - (90 + 4_000.0 * 1000 / 17_000)) < 0.11)
    }

    @Test func svgZoomsToTheWindow() throws {
        let timeline = try Self.timeline("long-cut")
        let svg = timeline.svg(window: ReviewWindow(from: SimTime(ms: 15_000), to: SimTime(ms: 17_000)))
        let elements = try #require(Self.parse(svg))
        #expect(Self.shapes(elements, "line").isEmpty)
        #expect(!Self.shapes(elements, "stretch").isEmpty)
    }

    /// The look, pinned: regenerate with
    /// `drivesim run Scenarios/barge-in.json --format svg --out Tests/ReviewTests/Goldens/barge-in.svg`.
    @Test func svgLooksAsPinned() throws {
        let svg = try Self.timeline("barge-in").svg()
        let pinned = try String(contentsOfFile: Fixtures.path("Tests/ReviewTests/Goldens/barge-in.svg"), encoding: .utf8)
        #expect(svg == pinned)
    }

    // MARK: trace

    @Test func traceHasOneThreadPerLaneIntervalsInstantsAndFlows() throws {
        let timeline = try Self.timeline("barge-in-before-held-stretch-resumes")
        let data = Data(timeline.trace().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let threads = events.filter { $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(threads == ["guidance", "Pippa", "ears", "Dad"])
        let lanes = Lanes(timeline)
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == lanes.bars.filter { ![.wait, .queued, .held].contains($0.kind) }.count)
        for bar in lanes.bars where bar.kind == .line {
            #expect(complete.contains { $0["ts"] as? Int == Int(bar.start.ms * 1000) && $0["dur"] as? Int == Int((bar.end - bar.start).ms * 1000) })
        }
        #expect(events.filter { $0["ph"] as? String == "i" }.count == lanes.marks.count)
        let starts = events.filter { $0["ph"] as? String == "s" }, finishes = events.filter { $0["ph"] as? String == "f" }
        #expect(!starts.isEmpty && starts.count == lanes.flows.count && finishes.count == starts.count)
        #expect(Set(starts.compactMap { $0["id"] as? Int }) == Set(finishes.compactMap { $0["id"] as? Int }))
    }

    @Test func flowsPointFromTheCauseToTheCut() throws {
        let timeline = try Self.timeline("barge-in")
        let flows = Lanes(timeline).flows
        #expect(flows.count == 1)
        #expect(timeline.events[flows[0].cause].kind == .dadStarted)
        #expect(timeline.events[flows[0].effect].kind == .stretchCut)
        let urgent = try Self.timeline("urgent-cut")
        let cut = try #require(Lanes(urgent).flows.first)
        #expect(urgent.events[cut.cause].kind == .guidanceStarted && urgent.events[cut.effect].kind == .stretchCut)
    }

    // MARK: the command line

    @Test func unknownFormatAndReversedWindowAreUsageErrors() {
        var console = Console.captured
        #expect(Drivesim.main(["run", Fixtures.path("Scenarios/long-cut.json"), "--format", "png"], console: &console) == 2)
        #expect(console.stderr.contains("use one of: text, json, lanes, svg, trace"))
        console = .captured
        #expect(Drivesim.main(["run", Fixtures.path("Scenarios/long-cut.json"), "--from", "5", "--to", "2"], console: &console) == 2)
        #expect(console.stderr.contains("must be before '--to'"))
        console = .captured
        #expect(Drivesim.main(["run", Fixtures.path("Scenarios/long-cut.json"), "--from", "0.0001"], console: &console) == 2)
        #expect(console.stderr.contains("whole millisecond"))
    }

    @Test func outWritesTheFileAndNothingElse() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = folder + "/long-cut.svg"
        var console = Console.captured
        #expect(Drivesim.main(["run", Fixtures.path("Scenarios/long-cut.json"), "--format", "svg", "--out", out], console: &console) == 0)
        #expect(console.stdout.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Self.timeline("long-cut")).svg())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["long-cut.svg"])
    }
}
