import CLITestSupport
import Foundation
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--format html`, `--only`, `--from`/`--to` on every format, and `run -`.
@Suite struct HTMLAndSelectionTests {
    /// The text of the page's `<script type="application/json" id="NAME">` element.
    static func embedded(_ page: String, _ name: String) throws -> String {
        let open = "<script type=\"application/json\" id=\"\(name)\">"
        let start = try #require(page.range(of: open)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        return String(page[start..<end])
    }

    static func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    static func member(_ value: JSONValue, _ key: String) -> JSONValue? {
        guard case .object(let members) = value.kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    static func array(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value?.kind { return items }
        return []
    }

    static func int(_ value: JSONValue) -> Int? {
        if case .number(let literal) = value.kind { return Int(literal) }
        return nil
    }

    /// Checks that the page holds every event of `timeline`, as `--format json`
    /// writes it, and that its layout names only events it holds.
    static func expectEveryEvent(of timeline: Timeline, in page: String) throws {
        let shown = try parse(try embedded(page, "timeline"))
        let expected = try parse(timeline.json)
        let events = array(member(shown, "events"))
        #expect(events.count == timeline.events.count)
        #expect(events.map(\.kind) == array(member(expected, "events")).map(\.kind))
        let layout = try parse(try embedded(page, "layout"))
        #expect(array(member(layout, "ids")).compactMap(int) == Array(timeline.events.indices))
        // Every event is drawn by a bar or a mark of the page.
        var drawn = [Bool](repeating: false, count: events.count)
        for bar in array(member(layout, "bars")) {
            for e in array(array(bar).last) { if let n = int(e) { drawn[n] = true } }
        }
        for mark in array(member(layout, "marks")) { if let n = array(mark).last.flatMap(int) { drawn[n] = true } }
        #expect(drawn.allSatisfy { $0 })
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func theHTMLPageHoldsEveryEventOfTheTimeline(_ file: ScenarioFile) throws {
        let timeline = try Simulation(try Fixtures.load(file.path)).timeline
        try Self.expectEveryEvent(of: timeline, in: timeline.html())
    }

    @Test func theHTMLPageOfATwoHourDriveHoldsEveryEvent() throws {
        let timeline = try Simulation(GeneratedDrive.scenario(seed: 1)).timeline
        #expect(timeline.events.count > 10_000)
        try Self.expectEveryEvent(of: timeline, in: timeline.html())
    }

    @Test func theHTMLPageFetchesNothing() throws {
        let page = try Self.timelineOf("urgent-cut").html()
        for forbidden in ["http://", "https://", "src=", "href=", "@import", "url("] {
            #expect(!page.contains(forbidden), "the page must not load \(forbidden)")
        }
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
    }

    @Test func textFromTheInputCannotCloseTheScriptOrTheTitle() throws {
        let scenario = try ScenarioDecoder.decode(
            Array(
                """
                { "drivesim": 1, "name": "</title><script>alert(1)</script> & co",
                  "guidance": [ { "id": "</script><b>", "at": 1.0, "duration": 2.0, "text": "</SCRIPT> <!-- & \\u2028" } ] }
                """.utf8), file: "x.json")
        let timeline = try Simulation(scenario).timeline
        let page = timeline.html()
        // The page's own three scripts, and no other element from the input.
        #expect(page.components(separatedBy: "</script>").count - 1 == 3)
        #expect(page.lowercased().components(separatedBy: "<script").count - 1 == 3)
        #expect(!page.contains("<b>") && !page.contains("<!--"))
        #expect(page.contains("<title>drivesim: &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; co</title>"))
        // The embedded JSON still says exactly what the input said.
        try Self.expectEveryEvent(of: timeline, in: page)
        #expect(try Self.embedded(page, "timeline").contains(#""line": "\u003c/script\u003e\u003cb\u003e""#))
    }

    /// `bytes` escaped for the page in one piece.
    static func scriptSafe(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        bytes.withUnsafeBufferPointer { [UInt8].appendScriptSafe($0, to: &out) }
        return out
    }

    /// The page's escaping of its JSON, sixteen bytes at a time, against one byte at a time:
    /// every special byte at every place of texts from 0 to 40 bytes, and bytes that differ
    /// from them in one bit (`=` and `.` beside `<` and `&`), which must stay as they are.
    @Test func scriptSafeEscapesEverySpecialByteWhereverItIs() {
        func slow(_ bytes: [UInt8]) -> [UInt8] {
            bytes.flatMap { byte -> [UInt8] in
                switch byte {
                case UInt8(ascii: "<"): return Array(#"\u003c"#.utf8)
                case UInt8(ascii: ">"): return Array(#"\u003e"#.utf8)
                case UInt8(ascii: "&"): return Array(#"\u0026"#.utf8)
                default: return [byte]
                }
            }
        }
        for length in 0...40 {
            let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            #expect(Self.scriptSafe(plain) == plain)
            for at in 0..<length {
                for special in Array("<>&=?.'\"".utf8) {
                    var bytes = plain
                    bytes[at] = special
                    #expect(Self.scriptSafe(bytes) == slow(bytes), "\(special) at \(at) of \(length)")
                }
            }
        }
    }

    /// The page escapes its JSON as it streams in: cut into two chunks anywhere, a text
    /// is escaped to the same bytes as whole.
    @Test func scriptSafeChunksCutAnywhereEscapeAsTheWhole() {
        let text = Array(#"{"line": "</script><b>&amp;", "t": 1200}"#.utf8)
        for cut in 0...text.count {
            var out: [UInt8] = []
            text.withUnsafeBufferPointer { all in
                [UInt8].appendScriptSafe(UnsafeBufferPointer(rebasing: all[..<cut]), to: &out)
                [UInt8].appendScriptSafe(UnsafeBufferPointer(rebasing: all[cut...]), to: &out)
            }
            #expect(out == Self.scriptSafe(text), "cut at \(cut)")
        }
    }

    /// A long drive's json, svg, trace and page are handed over in chunks as they are
    /// made, none of them near the whole (docs/cli.md, "Streamed").
    @Test func aLongDrivesStreamedFormatsComeInChunksNoneNearTheWhole() throws {
        let scenario = GeneratedDrive.scenario(hours: 1, seed: 1)
        let timeline = try Simulation(scenario).timeline
        for format in [TimelineFormat.json, .svg, .trace, .html] {
            var joined: [UInt8] = []
            var largest = 0
            var chunks = 0
            format.write(timeline, of: scenario) {
                joined.append(contentsOf: $0)
                largest = max(largest, $0.count)
                chunks += 1
            }
            #expect(
                chunks >= 3 && largest <= 512 * 1024 && joined.count > 3 * largest,
                "\(format): \(chunks) chunks, largest \(largest) of \(joined.count)")
        }
    }

    @Test func theHTMLPageOfAWindowHoldsItsEventsAndWhatItsShapesName() throws {
        let timeline = try Self.timelineOf("urgent-cut")
        let window = ReviewWindow(from: SimTime(ms: 3_000), to: SimTime(ms: 4_000))
        let layout = try Self.parse(try Self.embedded(timeline.html(window: window), "layout"))
        let ids = Self.array(Self.member(layout, "ids")).compactMap(Self.int)
        let inWindow = timeline.events.indices.filter { window.keeps(timeline.events[$0]) }
        #expect(Set(inWindow).isSubset(of: Set(ids)) && ids.count < timeline.events.count)
        #expect(
            Self.member(layout, "from").flatMap(Self.int) == 3_000
                && Self.member(layout, "to").flatMap(Self.int) == 4_000)
    }

    static func timelineOf(_ name: String) throws -> Timeline { try Simulation(try Fixtures.scenario(name)).timeline }

    // MARK: --only

    @Test func everyEventIsInExactlyTheFamilyItsNameSays() {
        for kind in EventKind.allCases {
            let family = EventFamily(kind)
            let name = kind.rawValue
            switch family {
            case .link: #expect(name.hasPrefix("road.report."))
            case .road: #expect(name.hasPrefix("road.") && !name.hasPrefix("road.report."))
            default: #expect(name.hasPrefix(family.rawValue + "."))
            }
            #expect(EventFamilies.all.contains(kind))
            #expect(EventFamily.allCases.filter { EventFamilies($0).contains(kind) } == [family])
        }
    }

    @Test func onlyListsParseAndUnknownNamesAreUsageErrorsWithASuggestion() throws {
        #expect(EventFamilies.parse("guidance,talk") == .success([.guidance, .talk]))
        #expect(EventFamilies.parse("road,link,dad,ears") == .success([.road, .link, .dad, .ears]))
        #expect(EventFamilies.parse("guidance,") == .failure(.init(name: "")))
        let error = try #require(
            Self.usageError("run", Fixtures.path("Scenarios/urgent-cut.json"), "--only", "talk,gudance"))
        #expect(
            error
                == .usage(
                    .unknownValue(
                        option: "--only", value: "gudance", allowed: EventFamily.names, suggestion: "guidance")))
        let result = Fixtures.drivesim("run", Fixtures.path("Scenarios/urgent-cut.json"), "--only", "pipa")
        #expect(result.code == 2 && result.stdout.isEmpty)
    }

    static func usageError(_ arguments: String...) -> DrivesimError? {
        var console = Console.captured
        do {
            _ = try RunCommand.run(Array(arguments.dropFirst()), console: &console)
            return nil
        } catch let error as DrivesimError {
            return error
        } catch {
            return nil
        }
    }

    @Test func onlyKeepsTheNamedFamiliesInTheTextAndTheJSON() throws {
        let timeline = try Self.timelineOf("dad-partly-heard")
        let window = ReviewWindow(only: [.dad, .ears])
        let kept = window.selecting(timeline)
        #expect(!kept.events.isEmpty && kept.events.count < timeline.events.count)
        #expect(kept.events.allSatisfy { $0.kind.rawValue.hasPrefix("dad.") || $0.kind.rawValue.hasPrefix("ears.") })
        #expect(kept.events == timeline.events.filter { [.dad, .ears].contains(EventFamily($0.kind)) })
        let scenario = try Fixtures.scenario("dad-partly-heard")
        let text = TimelineFormat.text.render(timeline, of: scenario, window: window)
        #expect(text.split(separator: "\n").count == kept.events.count + 1)
        let json = TimelineFormat.json.render(timeline, of: scenario, window: window)
        #expect(Self.array(Self.member(try Self.parse(json), "events")).count == kept.events.count)
    }

    @Test func everyFormatRendersItselfNoneFallsBackToAnother() throws {
        let scenario = try Fixtures.scenario("road/gps-gap")
        let timeline = Simulation(scenario, fault: nil).timeline
        let outputs = TimelineFormat.allCases.map { $0.render(timeline, of: scenario) }
        #expect(Set(outputs).count == TimelineFormat.allCases.count, "each format its own output")
        #expect(TimelineFormat.geojson.render(timeline, of: scenario).contains("\"FeatureCollection\""))
        #expect(RunCommand.formats == ["text", "json", "lanes", "svg", "trace", "html", "geojson", "wav"])
    }

    @Test func onlyDadStillShowsWhatTheClosedEarsLost() throws {
        let timeline = try Self.timelineOf("dad-partly-heard")
        let lanes = Lanes(timeline, only: .dad)
        #expect(lanes.shown == [.dad])
        #expect(lanes.bars.contains { $0.kind == .lost }, "the layout is made from the whole timeline, ears included")
        #expect(lanes.bars.allSatisfy { $0.lane == .dad } && lanes.marks.isEmpty && lanes.flows.isEmpty)
        #expect(lanes.bars.filter { $0.kind == .lost } == Lanes(timeline).bars.filter { $0.kind == .lost })
        let chart = timeline.lanesChart(width: 80, window: ReviewWindow(only: .dad))
        #expect(
            !chart.contains("\nguidance") && !chart.contains("\nPippa") && chart.contains("\nDad ")
                && chart.contains("!"))
    }

    @Test func onlyKeepsAnArrowWhenBothItsEndsAreShown() throws {
        let timeline = try Self.timelineOf("urgent-cut")
        #expect(!Lanes(timeline).flows.isEmpty)
        #expect(Lanes(timeline, only: [.guidance, .talk]).flows == Lanes(timeline).flows)
        #expect(Lanes(timeline, only: .talk).flows.isEmpty)
        let trace = timeline.trace(window: ReviewWindow(only: .talk))
        #expect(!trace.contains("\"ph\": \"s\"") && !trace.contains("\"name\": \"guidance\""))
        let svg = timeline.svg(window: ReviewWindow(only: .talk))
        #expect(svg.contains("data-lane=\"Pippa\"") && !svg.contains("data-lane=\"guidance\""))
    }

    @Test func onlyRoadAndLinkSplitTheRoadLane() throws {
        let timeline = try Simulation(
            GeneratedDrive.roadScenario(
                seed: 1, maneuvers: 10, replies: 30, utterances: 10, length: SimTime(ms: 600_000))
        ).timeline
        let link = Lanes(timeline, only: .link)
        // The link's reports are drawn in the road lane, and Pippa's view made of them in the view lane.
        #expect(link.shown == [.road, .view] && !link.marks.isEmpty)
        #expect(link.marks.allSatisfy { timeline.events[$0.event].kind.rawValue.hasPrefix("road.report.") })
        let road = Lanes(timeline, only: .road)
        #expect(road.marks.allSatisfy { !timeline.events[$0.event].kind.rawValue.hasPrefix("road.report.") })
        #expect(road.marks.count + link.marks.count == Lanes(timeline).marks.filter { $0.lane == .road }.count)
    }

    // MARK: --from and --to on the text and the JSON

    @Test func fromAndToKeepTheEventsInTheClosedWindow() throws {
        let timeline = try Self.timelineOf("urgent-cut")
        let window = ReviewWindow(from: SimTime(ms: 2_000), to: SimTime(ms: 3_500))
        let kept = window.selecting(timeline).events
        #expect(kept == timeline.events.filter { $0.t.ms >= 2_000 && $0.t.ms <= 3_500 })
        #expect(kept.first?.t.ms == 2_000 && kept.last?.t.ms == 3_500, "both ends are in the window")
        let result = Fixtures.drivesim(
            "run", Fixtures.path("Scenarios/urgent-cut.json"), "--from", "2", "--to", "3.5", "--format", "json")
        #expect(result.code == 0)
        #expect(result.stdout == window.selecting(timeline).json)
        let text = Fixtures.drivesim("run", Fixtures.path("Scenarios/urgent-cut.json"), "--from", "3")
        #expect(
            text.stdout.split(separator: "\n").dropFirst().allSatisfy {
                !$0.hasPrefix("00:00.") && !$0.hasPrefix("00:02.")
            })
    }

    @Test func aWindowDoesNotChangeWhatIsChecked() throws {
        // The expectations and the golden timeline are checked on the whole run.
        let whole = Fixtures.drivesim("run", Fixtures.path("Scenarios/urgent-cut.json"))
        let part = Fixtures.drivesim("run", Fixtures.path("Scenarios/urgent-cut.json"), "--from", "5", "--only", "dad")
        #expect(whole.code == 0 && part.code == 0 && part.stderr.isEmpty)
        #expect(part.stdout == "# urgent line cuts a nearly finished stretch\n")
    }

    // MARK: run -

    @Test func aDashReadsTheScenarioFromStandardInput() throws {
        let bytes = Array(try String(contentsOfFile: Fixtures.path("Scenarios/urgent-cut.json"), encoding: .utf8).utf8)
        let scenario = try RunCommand.load("-", standardInput: { () throws(DrivesimError) in bytes })
        #expect(try Simulation(scenario).timeline.events == (try Self.timelineOf("urgent-cut")).events)
    }

    @Test func errorsInAScenarioFromStandardInputNameIt() throws {
        let bad = Array(#"{ "drivesim": 1, "name": "x", "guidance": [ { "id": "g1", "at": -1 } ] }"#.utf8)
        #expect(throws: DrivesimError.self) {
            try RunCommand.load("-", standardInput: { () throws(DrivesimError) in bad })
        }
        do {
            _ = try RunCommand.load("-", standardInput: { () throws(DrivesimError) in bad })
        } catch {
            guard case .invalidScenario(let problem) = error else {
                Issue.record("not a scenario error: \(error)")
                return
            }
            #expect(problem.file == "<stdin>")
        }
    }

    @Test func standardInputIsReadToItsEndFromAPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let text = Array(String(repeating: "x", count: 200_000).utf8)
        // Written by another thread, so a pipe's buffer (64 KiB) never blocks the test.
        let writer = Thread {
            _ = FileSystem.writeAll(text, to: writeEnd, using: posixWrite)
            close(writeEnd)
        }
        writer.start()
        let read = try FileSystem.readStandardInput(readEnd)
        close(readEnd)
        #expect(read == text)
        var small: [Int32] = [0, 0]
        #expect(pipe(&small) == 0)
        _ = FileSystem.writeAll(Array("12345".utf8), to: small[1], using: posixWrite)
        close(small[1])
        #expect(throws: DrivesimError.unreadable(file: "<stdin>", .tooLarge(limit: 4))) {
            try FileSystem.readStandardInput(small[0], limit: 4)
        }
        close(small[0])
    }
}
