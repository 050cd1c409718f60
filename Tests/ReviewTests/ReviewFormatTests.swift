import Foundation
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct ReviewFormatTests {
    static func timeline(_ name: String) throws -> Timeline { try Simulation(try Fixtures.scenario(name)).timeline }

    /// The chart's rows by lane title, without their labels.
    static func rows(_ chart: String) -> [String: String] {
        var rows: [String: String] = [:]
        for line in chart.split(separator: "\n", omittingEmptySubsequences: false) {
            // Rows are trimmed at the right: an empty lane is its title alone.
            for lane in Lanes.Lane.allCases
            where line == lane.title || line.hasPrefix(pad(lane.title, Timeline.laneLabelWidth)) {
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
        #expect(Self.column(rows["Pippa"], 20) == ".")
        // The held stretch has its own row, under Pippa's.
        let held = try #require(chart.split(separator: "\n").first { $0.hasPrefix("  held") }).dropFirst(
            Timeline.laneLabelWidth)
        #expect((20...34).allSatisfy { Self.column(String(held), $0) == ":" })
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
        // The title, the summary, then the axis: its labels over its ticks.
        let axis = try #require(lines.firstIndex { $0.dropFirst(Timeline.laneLabelWidth).hasPrefix("|") })
        #expect(lines[1..<axis - 1] == ["rules: ears-closed 1 · long-cut 1 · held 1 · after-cut 1"])
        let labels = Array(lines[axis - 1].dropFirst(Timeline.laneLabelWidth))
        let ticks = Array(lines[axis].dropFirst(Timeline.laneLabelWidth))
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

    @Test func aWaitingLineHasItsOwnRowAndBackToBackLinesStayApart() throws {
        // guidance-queue: g1 plays 1–4 s, g2 waits 2–4 s and plays 4–5 s right after it.
        let chart = try Self.timeline("guidance-queue").lanesChart(width: 80)
        let lines = chart.split(separator: "\n").map(String.init)
        let waits = try #require(lines.first { $0.hasPrefix("  waits") }).dropFirst(Timeline.laneLabelWidth)
        #expect(Array(waits)[20...39].allSatisfy { $0 == "-" })
        let guidance = try #require(Self.rows(chart)["guidance"])
        #expect(
            Self.column(guidance, 39) == "=" && Self.column(guidance, 40) == "|" && Self.column(guidance, 41) == "=")
    }

    @Test func aWindowEndingInsideAStretchDrawsNoCut() throws {
        // long-cut: s1 plays 0–4 s and is cut at 4 s; a window to 3 s holds no cut.
        let timeline = try Self.timeline("long-cut")
        let chart = timeline.lanesChart(width: 80, window: ReviewWindow(from: .zero, to: SimTime(ms: 3_000)))
        #expect(!(Self.rows(chart)["Pippa"] ?? "").contains("X"))
        let svg = try #require(Self.parse(timeline.svg(window: ReviewWindow(from: .zero, to: SimTime(ms: 3_000)))))
        #expect(Self.shapes(svg, "stretch cut").isEmpty && !Self.shapes(svg, "stretch").isEmpty)
        // The whole drive does show it.
        #expect((Self.rows(timeline.lanesChart(width: 80))["Pippa"] ?? "").contains("X"))
    }

    @Test func theRoadRowShowsTurnsOffRouteSpansAndDrops() throws {
        let timeline = try Simulation(try Fixtures.load(Fixtures.path("Scenarios/road/gps-gap.json"))).timeline
        let lanes = Lanes(timeline)
        #expect(lanes.shown.suffix(2) == [.road, .view])
        let chart = timeline.lanesChart(width: 120)
        let road = try #require(Self.rows(chart)["road"])
        #expect(road.contains("T") || road.contains("t"))
        #expect(chart.contains("road      o off route"))
        // Every off-route stretch is a bar from road.off-route to road.on-route.
        let offRoute = timeline.events.filter { $0.kind == .roadOffRoute }.count
        #expect(lanes.bars.filter { $0.kind == .offRoute }.count <= offRoute)
    }

    @Test func svgWaitsSitBelowWhatPlaysAndHiddenLabelsAreCounted() throws {
        let timeline = try Self.timeline("guidance-queue")
        let elements = try #require(Self.parse(timeline.svg()))
        let line = try #require(Self.shapes(elements, "line").first)
        let wait = try #require(Self.shapes(elements, "wait").first)
        // The wait strip starts below the line's bar: never under it.
        #expect(Double(wait["y"]!)! >= Double(line["y"]!)! + Double(line["height"]!)!)
        // A narrow picture cannot hold every rule's name: the heading says how many are hidden.
        let narrow = try Self.timeline("barge-in-before-held-stretch-resumes").svg(width: 100)
        #expect(narrow.contains("labels hidden") || narrow.contains("label hidden"))
        let labels = try #require(Self.parse(narrow)).elements.filter { $0.attributes["class"] == "rule" }
        let xs = labels.compactMap { Double($0.attributes["x"] ?? "") }
        #expect(labels.isEmpty || xs.count == labels.count)
    }

    // MARK: escaping

    /// short-wait with control characters and markup in its name, a line's id and its text.
    static func hostile() throws -> Timeline {
        var text = try String(contentsOfFile: Fixtures.path("Scenarios/short-wait.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: #""id": "g1""#, with: #""id": "g\u001b[31m<1>\n&'""#)
        text = text.replacingOccurrences(of: #""In 300 m, turn right""#, with: #""In 300\u0085m,\r turn \u202eright""#)
        text = text.replacingOccurrences(
            of: #""name": "ordinary line waits for a short stretch""#, with: #""name": "a\nb\u0007""#)
        text = text.replacingOccurrences(of: #""line": "g1""#, with: #""line": "g\u001b[31m<1>\n&'""#)
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "hostile.json")
        return try Simulation(scenario).timeline
    }

    @Test func controlCharactersFromTheInputAreEscapedInEveryPicture() throws {
        let timeline = try Self.hostile()
        // Text: one line per event, no control character but the newlines between them.
        let text = timeline.text
        #expect(text.split(separator: "\n").count == timeline.events.count + 1)
        let unsafe: (Unicode.Scalar) -> Bool = {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
        }
        #expect(!text.unicodeScalars.contains(where: unsafe))
        #expect(text.contains(#"g\u{1B}[31m<1>\n&'"#))
        let chart = timeline.lanesChart()
        #expect(!chart.unicodeScalars.contains(where: unsafe))
        // SVG: well-formed XML, no raw control character at all.
        let svg = timeline.svg()
        #expect(Self.parse(svg) != nil)
        #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!svg.contains("<1>") && svg.contains("&lt;1&gt;") && svg.contains("&apos;"))
        // Trace: valid JSON.
        #expect(try JSONSerialization.jsonObject(with: Data(timeline.trace().utf8)) is [String: Any])
    }

    // MARK: columns

    @Test func textColumnsHoldPastAnHourAndWithKoreanText() throws {
        let timeline = try Simulation(GeneratedDrive.scenario(hours: 2, seed: 1)).timeline
        let lines = timeline.text.split(separator: "\n").dropFirst()
        // The time is right-aligned, so the lane column starts at one place before and after an hour.
        #expect(lines.contains { $0.hasPrefix("1:") } && lines.contains { $0.hasPrefix("  00:") })
        #expect(
            lines.allSatisfy { line in
                let bytes = Array(line.utf8)
                return bytes.count > 13 && (0x30...0x39).contains(bytes[10]) && bytes[11] == 0x20 && bytes[13] != 0x20
            })
        #expect(Timeline.timeWidth(SimTime(ms: 3_599_999)) == 9 && Timeline.timeWidth(SimTime(ms: 3_600_000)) == 11)
        // The rule column by display width: a Korean syllable takes two columns.
        #expect(displayWidth("세 번째") == 2 + 1 + 4 && displayWidth("abc") == 3 && displayWidth("e\u{301}") == 1)
        let held = try Self.timeline("held").text.split(separator: "\n").map(String.init)
        for line in held where line.hasSuffix("]") {
            let before = line[..<line.range(of: " [", options: .backwards)!.lowerBound]
            #expect(displayWidth(String(before)) >= 36 + 29)
        }
    }

    @Test func helpAndLanesFitEightyColumns() throws {
        for arguments in [
            ["--help"], ["help", "run"], ["help", "check"], ["help", "fuzz"], ["help", "bench"],
            ["help", "import-gpx"], ["help", "generate"],
            ["run", Fixtures.path("Scenarios/urgent-cut.json"), "--format", "lanes"],
        ] {
            var console = Console.captured
            _ = Drivesim.main(arguments, console: &console)
            for line in console.stdout.split(separator: "\n") {
                #expect(displayWidth(String(line)) <= 80, "\(arguments): \(line)")
            }
        }
        var console = Console.captured
        _ = Drivesim.main(["--help"], console: &console)
        #expect(
            console.stdout.split(separator: "\n").contains {
                $0.hasPrefix("  import-gpx ") && $0.contains(" Turn a GPX track")
            })
        var wide = Console.captured
        wide.environment["COLUMNS"] = "120"
        #expect(wide.columns == 120 && Console.captured.columns == 80)
    }

    // MARK: SVG

    /// Every element's attributes, in document order, from a real XML parser.
    final class Elements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append((name, attributes))
        }
    }

    /// The shapes that stand for events (the legend's swatches do not).
    static func shapes(_ elements: Elements, _ cls: String) -> [[String: String]] {
        elements.elements.filter { $0.attributes["class"] == cls && $0.attributes["data-events"] != nil }.map(
            \.attributes)
    }

    static func parse(_ svg: String) -> Elements? {
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        return parser.parse() ? elements : nil
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func svgIsWellFormedAndRepresentsEveryEvent(_ file: ScenarioFile) throws {
        let timeline = try Simulation(try Fixtures.load(file.path)).timeline
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
        let bands = elements.elements.filter { $0.attributes["class"] == "band" }.compactMap {
            Int($0.attributes["y"] ?? "")
        }
        #expect(bands == bands.sorted() && Set(bands).count == 4)
        let ticks = elements.elements.filter { $0.attributes["data-ms"] != nil }
        #expect(ticks.count >= 8)
        for tick in ticks {
            let ms = Double(tick.attributes["data-ms"]!)!
            let x = Double(tick.attributes["x"]!)!
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
        let pinned = try String(
            contentsOfFile: Fixtures.path("Tests/ReviewTests/Goldens/barge-in.svg"), encoding: .utf8)
        #expect(svg == pinned)
    }

    /// A barge-in's cut and its abandoned reply carry one rule at one instant: its name is
    /// drawn once and nothing is counted as hidden. Two rules there still count one hidden.
    @Test func aRuleNameSaidOnceAtAnInstantHidesNothing() throws {
        #expect(!(try Self.timeline("barge-in").svg()).contains("hidden"))
        #expect(try Self.timeline("after-cut-drop").svg().contains("1 label hidden where too dense"))
    }

    // MARK: colours

    /// The kinds of bar the legends name, in both pictures.
    static let legendKinds = [
        "line", "wait", "stretch", "reply", "held", "queued", "ears-closed", "heard", "lost", "off-route", "pippa-yes",
        "pippa-no", "pippa-not-known",
    ]

    /// WCAG's contrast ratio of `#rrggbb` against white.
    static func contrastOnWhite(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        func linear(_ c: Int) -> Double {
            let x = Double(c) / 255
            return x <= 0.03928 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        let l = 0.2126 * linear(v >> 16 & 255) + 0.7152 * linear(v >> 8 & 255) + 0.0722 * linear(v & 255)
        return 1.05 / (l + 0.05)
    }

    /// Each legend entry has a colour of its own (a line and its wait, a stretch and its reply, held and off route
    /// no longer share one), at least 3:1 on white, in the SVG's style and the page's script alike.
    @Test func everyKindOfBarHasItsOwnColourInBothLegends() throws {
        // The SVG: a bar's fill, or its stroke where the fill is the hatch.
        var svg: [String: String] = [:]
        for kind in Self.legendKinds {
            // Its own rule (`.lost { fill: … }`), not a rule it shares (`.line, …, .lost { stroke: #ffffff }`).
            let rules = Timeline.svgStyle.matches(of: try Regex("\\.\(kind) \\{([^}]*)\\}")).compactMap {
                $0.output[1].substring
            }
            let colour = rules.lazy.compactMap { rule -> Substring? in
                if let fill = rule.firstMatch(of: /fill: (#[0-9a-f]{6})/)?.output.1 { return fill }
                return rule.contains("url(#hatch)") ? rule.firstMatch(of: /stroke: (#[0-9a-f]{6})/)?.output.1 : nil
            }.first
            svg[kind] = String(try #require(colour, "\(kind): \(rules)"))
        }
        // The page: its COLOR table.
        let page = try Self.timeline("urgent-cut").html()
        let table = try #require(page.firstMatch(of: /const COLOR = \{([^}]*)\}/)?.output.1)
        var html: [String: String] = [:]
        for pair in table.matches(of: /"([a-z-]+)": "(#[0-9a-f]{6})"/) {
            html[String(pair.output.1)] = String(pair.output.2)
        }
        for colours in [svg, html] {
            let used = Self.legendKinds.compactMap { colours[$0] }
            #expect(used.count == Self.legendKinds.count, "\(colours)")
            #expect(Set(used).count == used.count, "shared colours: \(colours)")
            for (kind, colour) in colours { #expect(Self.contrastOnWhite(colour) >= 3, "\(kind) \(colour)") }
        }
        #expect(
            svg == html.filter { Self.legendKinds.contains($0.key) },
            "the SVG and the page draw each kind in one colour")
    }

    /// A route switch and a handoff taken are marked in the lanes' road row, and drawn in the SVG
    /// and the page in the colour of a route change, which their legends name.
    @Test func theSwitchAndTheHandoffAreMarkedInEveryPicture() throws {
        let timeline = try Simulation(try Fixtures.load(Fixtures.path("Scenarios/road/handoff-through-an-outage.json")))
            .timeline
        let lanes = timeline.lanesChart(
            width: 120, window: ReviewWindow(from: SimTime(ms: 29_000), to: SimTime(ms: 33_000)))
        let road = try #require(lanes.split(separator: "\n").first { $0.hasPrefix("road ") })
        #expect(road.contains("S") && road.contains("h"), "\(lanes)")
        #expect(lanes.contains("S switched") && lanes.contains("h handoff taken"))
        let svg = timeline.svg()
        #expect(svg.contains("roadmark road-route-switched") && svg.contains("roadmark road-handoff-taken"))
        #expect(svg.contains("route change, handoff"))
        #expect(timeline.html().contains(#"[ROAD.change, "route change, handoff"]"#))
    }

    /// The page's legend names the road's marks when the road lane is drawn.
    @Test func thePagesLegendNamesTheRoadsMarks() throws {
        let page = try Simulation(try Fixtures.load(Fixtures.path("Scenarios/road/waited-line-rephrased.json")))
            .timeline.html()
        #expect(
            page.contains("const ROAD_LEGEND")
                && page.contains(#"if (L.lanes.includes("road")) legendLine(ROAD_LEGEND"#))
        #expect(page.contains("fix or report dropped"))
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
            #expect(
                complete.contains {
                    $0["ts"] as? Int == Int(bar.start.ms * 1000)
                        && $0["dur"] as? Int == Int((bar.end - bar.start).ms * 1000)
                })
        }
        #expect(events.filter { $0["ph"] as? String == "i" }.count == lanes.marks.count)
        let starts = events.filter { $0["ph"] as? String == "s" }
        let finishes = events.filter { $0["ph"] as? String == "f" }
        #expect(!starts.isEmpty && starts.count == lanes.flows.count && finishes.count == starts.count)
        #expect(Set(starts.compactMap { $0["id"] as? Int }) == Set(finishes.compactMap { $0["id"] as? Int }))
    }

    /// Perfetto's JSON importer, as far as flows go: it reads events in
    /// timestamp order (file order within one), and binds a flow event to the
    /// topmost slice of its thread, the last begun there (`X` or a thread-scoped `i`).
    static func checkPerfettoFlowRules(_ trace: String) throws -> (flows: Int, asyncTracks: Int) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let timed = events.filter { $0["ts"] != nil }
        let stamps = timed.compactMap { $0["ts"] as? Int }
        #expect(stamps == stamps.sorted(), "events are written in timestamp order")
        var top: [Int: (ts: Int, end: Int, name: String)] = [:]
        var starts: [Int: Int] = [:]
        var ends: [Int: Int] = [:]
        var asyncTracks = Set<String>()
        for e in timed {
            let ph = e["ph"] as? String ?? ""
            let tid = e["tid"] as? Int ?? -1
            let ts = e["ts"] as? Int ?? -1
            switch ph {
            case "X": top[tid] = (ts, ts + (e["dur"] as? Int ?? 0), e["name"] as? String ?? "")
            case "i": top[tid] = (ts, ts, e["name"] as? String ?? "")
            case "b": asyncTracks.insert("\(e["cat"] ?? "")/\(e["id"] ?? "")")
            case "s", "f":
                let slice = try #require(top[tid], "a flow on thread \(tid) at \(ts) has no slice")
                #expect(slice.ts <= ts && ts <= slice.end, "a flow at \(ts) lies outside its slice \(slice)")
                let id = e["id"] as? Int ?? -1
                if ph == "s" {
                    starts[id] = ts
                } else {
                    ends[id] = ts
                    #expect(e["bp"] as? String == "e")
                    // The end binds to the decision's own instant.
                    #expect(slice.name == e["name"] as? String)
                }
            default: break
            }
        }
        #expect(Set(starts.keys) == Set(ends.keys))
        for (id, start) in starts { #expect((ends[id] ?? -1) >= start, "flow \(id) goes back in time") }
        return (starts.count, asyncTracks.count)
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func traceFlowsGoForwardAndBindToRealSlices(_ file: ScenarioFile) throws {
        let timeline = try Simulation(try Fixtures.load(file.path)).timeline
        let (flows, _) = try Self.checkPerfettoFlowRules(timeline.trace())
        #expect(flows == Lanes(timeline).flows.count)
    }

    /// At 80 columns a 2-hour road drive has turns coming up in every column: its dropped reports still show.
    @Test func droppedReportsOutrankTurnsInTheRoadRow() throws {
        let timeline = try Simulation(GeneratedDrive.roadScenario(hours: 2, seed: 7)).timeline
        let chart = timeline.lanesChart(width: 80)
        let road = try #require(chart.split(separator: "\n").first { $0.hasPrefix("road ") })
        let dropped = timeline.events.filter { $0.kind == .roadReportDropped || $0.kind == .roadFixDropped }.count
        #expect(dropped > 0)
        #expect(road.contains("x"), "\(road)")
    }

    @Test func aTwoHourDriveMakesAFewAsyncTracks() throws {
        let timeline = try Simulation(GeneratedDrive.roadScenario(hours: 2, seed: 7)).timeline
        let (flows, tracks) = try Self.checkPerfettoFlowRules(timeline.trace())
        #expect(flows > 100)
        #expect(tracks <= 12)
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
        #expect(
            Drivesim.main(["run", Fixtures.path("Scenarios/long-cut.json"), "--format", "png"], console: &console) == 2)
        #expect(console.stderr.contains("use one of: text, json, lanes, svg, trace"))
        console = .captured
        #expect(
            Drivesim.main(
                ["run", Fixtures.path("Scenarios/long-cut.json"), "--from", "5", "--to", "2"], console: &console) == 2)
        #expect(console.stderr.contains("must be before '--to'"))
        console = .captured
        #expect(
            Drivesim.main(["run", Fixtures.path("Scenarios/long-cut.json"), "--from", "0.0001"], console: &console) == 2
        )
        #expect(console.stderr.contains("whole millisecond"))
    }

    @Test func outWritesTheFileAndNothingElse() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = folder + "/long-cut.svg"
        var console = Console.captured
        #expect(
            Drivesim.main(
                ["run", Fixtures.path("Scenarios/long-cut.json"), "--format", "svg", "--out", out], console: &console)
                == 0)
        #expect(console.stdout.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Self.timeline("long-cut")).svg())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["long-cut.svg"])
    }
}
