import CLITestSupport
import Foundation
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import RouteImport
@testable import ScenarioFormat
@testable import SimRunner

/// A GPX document around `body` (the inside of `<gpx>`).
private func gpx(_ body: String) -> [UInt8] {
    Array(
        ("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
        """ + body + "</gpx>").utf8)
}

/// A `<trkpt>` at a fixed position with `inner` inside.
private func pt(_ inner: String, lat: String = "37.4979", lon: String = "127.0276") -> String {
    "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">\(inner)</trkpt>"
}

/// One `<trk>` of one `<trkseg>` of `points`.
private func track(_ points: String...) -> [UInt8] { gpx("<trk><trkseg>" + points.joined() + "</trkseg></trk>") }

private func time(_ t: String) -> String { "<time>\(t)</time>" }

/// The fixes of an import-gpx output, decoded as a road section's `fixes`.
private func decodedFixes(_ json: String, route: String? = nil) throws -> [Scenario.RecordedFix] {
    let points = #"{"points": [{"lat": 37.4979, "lon": 127.0276}, {"lat": 37.4981, "lon": 127.0284}]}"#
    let road =
        route.map { r in String(r.dropLast()) + #", "language": "en"}"# } ?? #"{"language": "en", "route": "# + points
        + #", "fixes": "# + json + "}"
    let scenario = try ScenarioDecoder.decode(
        Array(#"{"drivesim": 1, "name": "t", "road": \#(road)}"#.utf8), file: "gpx")
    guard case .recorded(let fixes)? = scenario.road?.fixes else {
        Issue.record("not recorded")
        return []
    }
    return fixes
}

@Suite struct GPXSkippedPointTests {
    @Test func pointsWithoutAUsableTimeOrPositionAreSkippedWithTheirIndexAndReason() throws {
        let t = try GPXTrack.read(
            track(
                pt(time("2024-05-01T09:00:00Z")),
                pt(""),
                pt(time("yesterday")),
                pt(time("2024-05-01T09:00:02Z"), lat: "91"),
                pt(time("2024-05-01T09:00:03Z")),
                pt(time("2024-05-01T09:00:01Z"))))
        #expect(t.points.map(\.index) == [0, 4])
        #expect(
            t.skipped == [
                GPXTrack.Skip(index: 1, reason: .noTime),
                GPXTrack.Skip(index: 2, reason: .unreadableTime("yesterday")),
                GPXTrack.Skip(index: 3, reason: .badPosition),
                GPXTrack.Skip(index: 5, reason: .timeBackwards),
            ])
    }

    @Test func theImportListsEverySkippedPointOnStandardErrorWithACountAndExitsZero() throws {
        let file = Fixtures.write(
            String(decoding: track(pt(time("2024-05-01T09:00:00Z")), pt(""), pt(time("bad"))), as: UTF8.self),
            "skip.gpx", in: try Fixtures.temporaryFolder())
        let result = Fixtures.drivesim("import-gpx", file)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(file): skipped track point 1: no <time>"), "\(result.stderr)")
        #expect(result.stderr.contains("\(file): skipped track point 2: unreadable <time> \"bad\""), "\(result.stderr)")
        #expect(result.stderr.contains("1 fix written, 2 track points skipped"), "\(result.stderr)")
        #expect(try decodedFixes(result.stdout).count == 1)
    }

    @Test func aTrackWithNothingUsableExitsTwo() throws {
        let file = Fixtures.write(
            String(decoding: track(pt(""), pt(time("x"))), as: UTF8.self), "none.gpx",
            in: try Fixtures.temporaryFolder())
        #expect(
            thrown(["import-gpx", file])
                == .gpx(
                    file: file,
                    .nothingUsable(skipped: [
                        GPXTrack.Skip(index: 0, reason: .noTime), GPXTrack.Skip(index: 1, reason: .unreadableTime("x")),
                    ])))
    }
}

@Suite struct GPXStrictTimeTests {
    @Test func anImpossibleDateStillRefusesTheFile() {
        #expect(throws: GPXTrack.Problem.impossibleDate(index: 1, time: "2024-02-31T09:00:01Z")) {
            try GPXTrack.read(
                track(
                    pt(time("2024-02-31T09:00:00Z").replacingOccurrences(of: "02-31", with: "02-28")),
                    pt(time("2024-02-31T09:00:01Z"))))
        }
    }

    @Test func aMonthOrHourThatDoesNotExistRefusesTheFileToo() {
        #expect(throws: GPXTrack.Problem.impossibleDate(index: 0, time: "2024-13-01T09:00:00Z")) {
            try GPXTrack.read(track(pt(time("2024-13-01T09:00:00Z"))))
        }
        #expect(throws: GPXTrack.Problem.impossibleDate(index: 0, time: "2024-05-01T25:00:00Z")) {
            try GPXTrack.read(track(pt(time("2024-05-01T25:00:00Z"))))
        }
    }

    @Test func aTimeWithoutAZoneIsRefusedUnlessUTCIsAssumed() throws {
        let bytes = track(pt(time("2024-05-01T09:00:00Z")), pt(time("2024-05-01T09:00:01.5")))
        #expect(throws: GPXTrack.Problem.noZone(index: 1, time: "2024-05-01T09:00:01.5")) { try GPXTrack.read(bytes) }
        var options = GPXTrack.Options()
        options.assumeUTC = true
        #expect(try GPXTrack.read(bytes, options: options).points.map(\.epochMs).map { $0 % 10_000 } == [0, 1_500])
        let file = Fixtures.write(String(decoding: bytes, as: UTF8.self), "utc.gpx", in: try Fixtures.temporaryFolder())
        #expect(Fixtures.drivesim("import-gpx", file).code == 2)
        let result = Fixtures.drivesim("import-gpx", file, "--assume-utc")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try decodedFixes(result.stdout).map(\.taken) == [SimTime(ms: 0), SimTime(ms: 1_500)])
    }

    @Test func subMillisecondDigitsAreRefusedNeverCutAndRoundedOnRequest() throws {
        #expect(GPXTrack.epochMs("2024-05-01T09:00:00.2506Z") == nil, "not silently truncated to .250")
        #expect(GPXTrack.epochMs("2024-05-01T09:00:00.2500000Z") != nil, "zeros below the millisecond lose nothing")
        #expect(GPXTrack.epochMs("2024-05-01T09:00:00.Z") == nil)
        let base = GPXTrack.epochMs("2024-05-01T09:00:00Z")!
        #expect(try GPXTrack.time("2024-05-01T09:00:00.2506Z", assumeUTC: false, round: true).get() == base + 251)
        #expect(try GPXTrack.time("2024-05-01T09:00:00.2504Z", assumeUTC: false, round: true).get() == base + 250)
        #expect(try GPXTrack.time("2024-05-01T09:00:00.9996Z", assumeUTC: false, round: true).get() == base + 1_000)
        let bytes = track(pt(time("2024-05-01T09:00:00Z")), pt(time("2024-05-01T09:00:01.0005Z")))
        #expect(throws: GPXTrack.Problem.subMillisecond(index: 1, time: "2024-05-01T09:00:01.0005Z")) {
            try GPXTrack.read(bytes)
        }
        let file = Fixtures.write(String(decoding: bytes, as: UTF8.self), "ms.gpx", in: try Fixtures.temporaryFolder())
        let result = Fixtures.drivesim("import-gpx", file, "--round")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try decodedFixes(result.stdout).map(\.taken) == [SimTime(ms: 0), SimTime(ms: 1_001)])
    }

    @Test func aTrackLongerThanADayIsRefusedWithAHintAndCutWithFromAndTo() throws {
        let bytes = track(
            pt(time("2024-05-01T09:00:00Z")), pt(time("2024-05-01T12:00:00Z")), pt(time("2024-05-02T09:00:00.001Z")))
        #expect(throws: GPXTrack.Problem.tooLong(milliseconds: 86_400_001)) { try GPXTrack.read(bytes) }
        #expect(GPXTrack.Problem.tooLong(milliseconds: 86_400_001).description.contains("--from and --to"))
        let file = Fixtures.write(
            String(decoding: bytes, as: UTF8.self), "long.gpx", in: try Fixtures.temporaryFolder())
        #expect(Fixtures.drivesim("import-gpx", file).code == 2)
        let bySeconds = Fixtures.drivesim("import-gpx", file, "--to", "86400")
        #expect(bySeconds.code == 0, "\(bySeconds.stderr)")
        #expect(try decodedFixes(bySeconds.stdout).map(\.taken) == [SimTime(ms: 0), SimTime(ms: 10_800_000)])
        let byTime = Fixtures.drivesim("import-gpx", file, "--from", "2024-05-01T10:00:00Z")
        #expect(byTime.code == 0, "\(byTime.stderr)")
        #expect(
            try decodedFixes(byTime.stdout).map(\.taken) == [SimTime(ms: 0), SimTime(ms: 75_600_001)],
            "times from the first kept point")
        #expect(
            thrown(["import-gpx", file, "--from", "2024-05-01T10:00:00"])
                == .gpx(file: file, .unreadableCut(option: "--from", value: "2024-05-01T10:00:00")))
        #expect(thrown(["import-gpx", file, "--from", "20", "--to", "10"]) == .gpx(file: file, .nothingInCut))
        #expect(thrown(["import-gpx", file, "--from", "soon"]) == .usage(.notSeconds(option: "--from", value: "soon")))
    }
}

@Suite struct GPXCarriedValueTests {
    @Test func speedCourseAndHdopBecomeTheFixSpeedCourseAndAccuracy() throws {
        let bytes = track(
            pt(time("2024-05-01T09:00:00Z") + "<course>359.5</course><hdop>1.2</hdop><speed>13.9</speed>"),
            pt(
                time("2024-05-01T09:00:01Z")
                    + "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>12.5</gpxtpx:speed><gpxtpx:course>360</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>"
            ),
            pt(time("2024-05-01T09:00:02Z") + "<speed>-1</speed><course>400</course><hdop>nan</hdop>"))
        let t = try GPXTrack.read(bytes)
        #expect(t.points.map(\.speed) == [13.9, 12.5, nil])
        #expect(t.points.map(\.course) == [359.5, 0, nil])
        #expect(t.points.map(\.hdop) == [1.2, nil, nil])
        #expect(
            t.leftOut == [
                GPXTrack.Skip(index: 2, reason: .valueLeftOut(element: "speed", text: "-1")),
                GPXTrack.Skip(index: 2, reason: .valueLeftOut(element: "course", text: "400")),
                GPXTrack.Skip(index: 2, reason: .valueLeftOut(element: "hdop", text: "nan")),
            ])
        let json = String(decoding: JSONWriter.bytes(GPXTrack.recordedFixes(t.points)), as: UTF8.self)
        let fixes = try decodedFixes(json)
        #expect(fixes.map(\.speed) == [13.9, 12.5, nil])
        #expect(fixes.map(\.course) == [359.5, 0, nil])
        #expect(fixes[0].accuracy == 6, "hdop 1.2 × 5 m")
    }

    @Test func accuracyIsHdopTimesFiveClampedToTheFormatsRange() {
        #expect(GPXTrack.accuracy(hdop: 0.7) == 3.5)
        #expect(GPXTrack.accuracy(hdop: 1.1) == 5.5)
        #expect(GPXTrack.accuracy(hdop: 1e9) == 100_000)
    }

    @Test func twoSegmentsKeepTheirGap() throws {
        let bytes = gpx(
            "<trk><trkseg>" + pt(time("2024-05-01T09:00:00Z")) + pt(time("2024-05-01T09:00:01Z"))
                + "</trkseg><trkseg>" + pt(time("2024-05-01T09:05:00Z")) + "</trkseg></trk>")
        let t = try GPXTrack.read(bytes)
        #expect(t.points.map(\.segment) == [0, 0, 1])
        let json = String(decoding: JSONWriter.bytes(GPXTrack.recordedFixes(t.points)), as: UTF8.self)
        #expect(try decodedFixes(json).map(\.taken) == [SimTime(ms: 0), SimTime(ms: 1_000), SimTime(ms: 300_000)])
    }

    @Test func aRouteIsWrittenAsTheRoadsRouteWithRoad() throws {
        let body =
            "<rte><rtept lat=\"37.4979\" lon=\"127.0276\"/><rtept lat=\"37.4985\" lon=\"127.0290\"/></rte>"
            + "<trk><trkseg>" + pt(time("2024-05-01T09:00:00Z")) + pt(time("2024-05-01T09:00:01Z")) + "</trkseg></trk>"
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(String(decoding: gpx(body), as: UTF8.self), "rte.gpx", in: folder)
        let plain = Fixtures.drivesim("import-gpx", file)
        #expect(plain.code == 0)
        #expect(plain.stderr.contains("--road"), "the route is mentioned: \(plain.stderr)")
        #expect(try decodedFixes(plain.stdout).count == 2)
        let road = Fixtures.drivesim("import-gpx", file, "--road")
        #expect(road.code == 0, "\(road.stderr)")
        let scenario = try ScenarioDecoder.decode(
            Array(
                #"{"drivesim": 1, "name": "t", "road": \#(String(road.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) + #", "language": "en"}"#)}"#
                    .utf8), file: "rte")
        #expect(scenario.road?.points.map(\.latitude) == [37.4979, 37.4985])
        let noRoute = Fixtures.write(
            String(decoding: track(pt(time("2024-05-01T09:00:00Z"))), as: UTF8.self), "plain.gpx", in: folder)
        #expect(thrown(["import-gpx", noRoute, "--road"]) == .gpx(file: noRoute, .noRoute))
    }
}

/// A document GPX cannot read and the words that explain it, shown by its
/// words: the test's log shows an argument whole, and one is 12 MB.
struct UnreadableGPX: Sendable, CustomTestStringConvertible {
    var text: String
    var words: String
    var testDescription: String { "\(text.utf8.count) bytes: \(words)" }
}

@Suite struct GPXUnreadableFileTests {
    @Test(arguments: [
        UnreadableGPX(text: "<gpx><trk><a></b></trk></gpx>", words: "an end tag does not match its start tag"),
        UnreadableGPX(text: "<gpx>&foo;</gpx>", words: "an entity"),
        UnreadableGPX(text: "<gpx></gpx><b/>", words: "content after the root element"),
        UnreadableGPX(text: "", words: "empty"),
        UnreadableGPX(
            text: "<gpx><name>" + String(repeating: "x", count: 12_000_000) + "</name></gpx>",
            words: "beyond the XML parser's limits"),
    ])
    func anUnreadableDocumentIsExplainedInWords(_ document: UnreadableGPX) throws {
        let words = document.words
        do {
            _ = try GPXTrack.read(Array(document.text.utf8))
            Issue.record("read")
        } catch {
            #expect(error.description.contains(words), "\(error)")
            #expect(!error.description.contains("error "), "no parser error number: \(error)")
        }
    }
}

@Suite struct GPXSampleTests {
    @Test func theHonestDriveSampleImportsWithItsRouteGapAndSkippedPoint() throws {
        let file = Fixtures.path("Scenarios/gpx/honest-drive.gpx")
        let result = Fixtures.drivesim("import-gpx", file, "--road")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped track point 3: no <time>"), "\(result.stderr)")
        #expect(result.stderr.contains("13 fixes written, 1 track point skipped"), "\(result.stderr)")
        let body =
            String(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) + #", "language": "en"}"#
        let scenario = try ScenarioDecoder.decode(
            Array(#"{"drivesim": 1, "name": "t", "road": \#(body)}"#.utf8), file: "sample")
        #expect(scenario.road?.points.count == 3)
        guard case .recorded(let fixes)? = scenario.road?.fixes else {
            Issue.record("not recorded")
            return
        }
        #expect(fixes.count == 13)
        #expect(
            fixes[6].taken == SimTime(ms: 7_000) && fixes[7].taken == SimTime(ms: 20_250), "the tunnel's gap is kept")
        #expect(fixes.allSatisfy { $0.speed == 10 && $0.course != nil })
        #expect(fixes[0].accuracy == 4 && fixes[7].accuracy == 12.5, "hdop 0.8 and 2.5, × 5 m")
    }
}

/// Found by the libFuzzer target: FoundationXML on Linux crashes on a
/// processing instruction without data; GPX has none, so one is refused
/// before the parser sees it.
@Suite struct GPXProcessingInstructionTests {
    static let crash: [UInt8] = [
        60, 63, 120, 109, 108, 32, 118, 101, 114, 115, 105, 111, 110, 61, 34, 49, 63, 62, 10, 60, 103, 112, 120, 32,
        118, 101, 114, 115, 105, 111, 110, 61, 34, 49, 46, 49, 34, 32, 99, 114, 101, 97, 116, 111, 114, 61, 34, 100,
        114, 34, 101, 110, 34, 105, 109, 34, 32, 120, 109, 56, 34, 63, 62, 10, 60, 103, 112, 120, 32, 118, 101, 114,
        115, 103, 114, 97, 102, 105, 120, 46, 99, 111, 109, 47, 71, 80, 88, 47, 49, 47, 49, 34, 62, 10, 32, 32, 60, 116,
        114, 107, 62, 60, 110, 97, 109, 101, 62, 71, 97, 110, 103, 110, 100, 105, 60, 47, 110, 97, 109, 101, 62, 60,
        116, 114, 107, 115, 101, 103, 58, 62, 10, 32, 32, 32, 32, 60, 116, 114, 107, 53, 48, 90, 60, 47, 116, 105, 42,
        109, 101, 62, 60, 47, 116, 114, 107, 112, 116, 62, 4, 32, 32, 32, 32, 60, 116, 114, 107, 112, 116, 32, 108, 97,
        60, 63, 120, 109, 108, 32, 118, 101, 114, 115, 105, 111, 110, 61, 34, 49, 63, 62, 10, 60, 103, 112, 120, 32,
        118, 101, 114, 115, 105, 111, 110, 61, 34, 49, 46, 49, 34, 32, 99, 114, 101, 97, 116, 111, 48, 114, 92, 92, 92,
        92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 61, 34, 100, 114, 105, 118,
        101, 115, 105, 109, 34, 32, 120, 109, 108, 110, 60, 116, 114, 107, 62, 60, 110, 105, 60, 47, 110, 97, 109, 101,
        62, 60, 116, 114, 107, 115, 101, 103, 58, 62, 10, 32, 32, 32, 32, 60, 116, 114, 107, 112, 116, 32, 108, 97, 116,
        61, 34, 51, 55, 46, 60, 63, 120, 63, 62, 10, 60, 103, 112, 120, 32, 118, 101, 114, 115, 105, 111, 110, 61, 34,
        49, 46, 49, 34, 32, 99, 114, 101, 97, 116, 111, 48, 114, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92,
        92, 92, 92, 92, 10, 62, 60, 47, 116, 114, 107, 62, 10, 60, 47, 103, 112, 120, 62, 10,
    ]

    @Test func theFuzzersCrashingInputIsRefusedWithItsLine() {
        // Its first `<?` after the declaration is on line 5 (`<trkpt la<?xml`).
        #expect(throws: GPXTrack.Problem.processingInstruction(line: 5)) { try GPXTrack.read(Self.crash) }
    }

    @Test func aBareProcessingInstructionIsRefusedAndTheDeclarationIsNot() throws {
        let track =
            "<trk><trkseg><trkpt lat=\"37.5\" lon=\"127\"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"
        let ok = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">" + track
        #expect(throws: Never.self) { try GPXTrack.read(Array(ok.utf8)) }
        #expect(throws: GPXTrack.Problem.processingInstruction(line: 1)) {
            try GPXTrack.read(Array(("<gpx><?x?>" + track).utf8))
        }
        #expect(GPXTrack.processingInstructionLine(Array("\u{FEFF}<?xml version=\"1.0\"?>\n<gpx/>".utf8)) == nil)
    }

    @Test func aDeclarationWithoutAVersionIsRefusedBeforeTheParser() {
        // The libFuzzer target's second crashing input: FoundationXML reads
        // address zero on `<?xml?>`.
        let crash = "<?xml?>\n<gpx; ve?>\n<gpx;ing=\"creau00Z</time></trkerg/trk>\n</gpx>\n"
        #expect(throws: GPXTrack.Problem.processingInstruction(line: 1)) { try GPXTrack.read(Array(crash.utf8)) }
        #expect(GPXTrack.processingInstructionLine(Array("<?xml-stylesheet href=\"a\"?><gpx/>".utf8)) == 1)
        #expect(GPXTrack.processingInstructionLine(Array("<?xml\tversion='1.0'?><gpx/>".utf8)) == nil)
    }

    @Test func aDeclarationWhoseCloseIsPastMarkupIsRefused() {
        // The third: a declaration broken before its `?>` (`?$>`), so the first
        // `?>` is a bare `<?xml?>` on the next line, which was taken for its end.
        let crash = "<?xml version=\"1.0\" encoding=\"UTF-8\"?$>\n<gpx versioq=\"1.<?xml?>\n<gpx; v^?>\n</gpx>\n"
        #expect(throws: GPXTrack.Problem.processingInstruction(line: 1)) { try GPXTrack.read(Array(crash.utf8)) }
    }
}
