import CLITestSupport
import Foundation
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import RouteImport
@testable import ScenarioFormat
@testable import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct FolderTests {
    @Test func aSymlinkedFolderOnTheCommandLineIsSearched() throws {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: false)
        Fixtures.write(CommandLineTests.passing, "a.json", in: folder + "/real")
        symlink(folder + "/real", folder + "/link")
        let result = Fixtures.drivesim("check", folder + "/link")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "PASS  \(folder)/link/a.json\n1 passed, 0 failed\n")
    }

    @Test func aSymlinkedSubfolderIsSearched() throws {
        let folder = try Fixtures.temporaryFolder()
        let other = try Fixtures.temporaryFolder()
        Fixtures.write(CommandLineTests.passing, "a.json", in: folder)
        Fixtures.write(CommandLineTests.failing, "b.json", in: other)
        symlink(other, folder + "/sub")
        #expect(ScenarioFiles.scan([folder]) == [.file(folder + "/a.json"), .file(folder + "/sub/b.json")])
        #expect(Fixtures.drivesim("check", folder).stdout.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func aSymlinkLoopIsReportedAndCountedAsFailed() throws {
        let folder = try Fixtures.temporaryFolder()
        Fixtures.write(CommandLineTests.passing, "a.json", in: folder)
        symlink(".", folder + "/again")  // the folder inside itself
        symlink("self.json", folder + "/self.json")  // a link to itself
        #expect(
            ScenarioFiles.scan([folder]) == [
                .file(folder + "/a.json"),
                .problem(.unreadable(file: folder + "/again", .symlinkLoop)),
                .problem(.unreadable(file: folder + "/self.json", .symlinkLoop)),
            ])
        let result = Fixtures.drivesim("check", folder)
        #expect(result.code == 2)
        #expect(
            result.stdout
                == "PASS  \(folder)/a.json\nERROR \(folder)/again\nERROR \(folder)/self.json\n1 passed, 2 failed\n")
    }

    @Test func anUnreadableSubfolderIsReportedNotSkipped() throws {
        let folder = try Fixtures.temporaryFolder()
        Fixtures.write(CommandLineTests.passing, "a.json", in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: false)
        Fixtures.write(CommandLineTests.passing, "b.json", in: folder + "/locked")
        // Root lists any folder whatever its mode, so the refusal is injected
        // into the walk; as another user the real one is tested below too.
        let refusing: (String) -> Result<[String], FileProblem> = {
            $0.hasSuffix("/locked") ? .failure(.permissionDenied) : FileSystem.names(in: $0)
        }
        #expect(
            ScenarioFiles.scan([folder], list: refusing) == [
                .file(folder + "/a.json"), .problem(.unreadable(file: folder + "/locked", .permissionDenied)),
            ])
        guard geteuid() != 0 else { return }
        chmod(folder + "/locked", 0)
        defer { chmod(folder + "/locked", 0o755) }
        let result = Fixtures.drivesim("check", folder)
        #expect(result.code == 2)
        #expect(result.stdout.contains("ERROR \(folder)/locked\n") && result.stdout.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func theCorpusIsFoundInByteOrderOfPaths() throws {
        let found = ScenarioFiles.discover([Fixtures.path("Scenarios")])
        #expect(found.count >= 59)
        #expect(found == found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(!found.contains { $0.hasSuffix(".timeline.json") })
    }
}

@Suite struct GoldenPathTests {
    /// A scenario naming `golden` in a fresh folder; its path.
    static func scenario(golden: String, in folder: String) -> String {
        var text = CommandLineTests.passing
        text.insert(contentsOf: #""golden": "\#(golden)", "#, at: text.index(after: text.firstIndex(of: "{")!))
        return Fixtures.write(text, "scenario.json", in: folder)
    }

    @Test func aGoldenBelowItsScenarioIsRecordedAndChecked() throws {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: false)
        let file = Self.scenario(golden: "goldens/s.timeline.json", in: folder)
        #expect(Fixtures.drivesim("check", "--record", file).stdout.hasPrefix("RECORD"))
        #expect(FileManager.default.fileExists(atPath: folder + "/goldens/s.timeline.json"))
        #expect(Fixtures.drivesim("check", file).code == 0)
    }

    @Test func recordingAFailingScenarioReportsTheFailureNotAMissingGolden() throws {
        let folder = try Fixtures.temporaryFolder()
        var text = CommandLineTests.failing
        text.insert(contentsOf: #""golden": "s.timeline.json", "#, at: text.index(after: text.firstIndex(of: "{")!))
        let file = Fixtures.write(text, "scenario.json", in: folder)
        let result = Fixtures.drivesim("check", "--record", file)
        #expect(result.code == 1 && result.stdout.hasPrefix("FAIL"))
        #expect(
            result.stderr.contains("expect[0]")
                && result.stderr.contains("its golden timeline is not recorded: the run fails"))
        #expect(!result.stderr.contains("is missing"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["scenario.json"])
    }

    @Test func recordNeverOverwritesTheScenarioItself() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Self.scenario(golden: "scenario.json", in: folder)
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let result = Fixtures.drivesim("check", "--record", file)
        #expect(result.code == 2 && result.stdout.hasPrefix("ERROR"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
    }

    @Test func recordNeverOverwritesAnotherScenarioNamedLikeATimeline() throws {
        let folder = try Fixtures.temporaryFolder()
        let other = Fixtures.write(CommandLineTests.passing, "other.timeline.json", in: folder)
        let file = Self.scenario(golden: "other.timeline.json", in: folder)
        var console = Console.captured
        #expect(Drivesim.main(["check", "--record", file], console: &console) == 2)
        #expect(console.stderr == MessageInfo(DrivesimError.golden(file: file, .isAScenario(path: other))).message)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == CommandLineTests.passing)
    }

    @Test(arguments: ["/etc/x.timeline.json", "../x.timeline.json", "a/../../x.timeline.json", "x.json"])
    func recordRefusesAGoldenOutsideItsRules(golden: String) throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Self.scenario(golden: golden, in: folder)
        let result = Fixtures.drivesim("check", "--record", file)
        #expect(result.code == 2 && result.stdout.hasPrefix("ERROR"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["scenario.json"])
        #expect(!FileManager.default.fileExists(atPath: "/etc/x.timeline.json"))
    }

    @Test func theCorpusGoldensFollowTheRules() throws {
        for file in Fixtures.scenarioFiles {
            let scenario = try ScenarioFiles.load(file.path).get()
            #expect(throws: Never.self) { _ = try GoldenFiles.path(of: scenario, file: file.path) }
        }
    }
}

@Suite struct GPXTests {
    static let track = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test">
          <trk><trkseg>
            <trkpt lat="37.4979" lon="127.0276"><time>2024-05-01T09:00:00Z</time></trkpt>
            <trkpt lat="37.4980" lon="127.0280"><time>2024-05-01T09:00:01Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """

    @Test func invalidUTF8InAnElementNameIsRefusedBeforeParsing() {
        let bytes: [UInt8] = [0x3C, 0x61, 0xFF, 0x2F, 0x3E]  // <a\xFF/>: 5 bytes
        #expect(throws: GPXTrack.Problem.notUTF8(offset: 2)) { try GPXTrack.points(bytes) }
    }

    @Test func anImpossibleDateIsRefused() {
        #expect(GPXTrack.epochMs("2024-02-31T00:00:00Z") == nil)
        #expect(GPXTrack.epochMs("2023-02-29T00:00:00Z") == nil)
        #expect(GPXTrack.epochMs("2024-04-31T00:00:00Z") == nil)
        #expect(GPXTrack.epochMs("2024-02-29T00:00:00Z") != nil, "a leap day")
        #expect(GPXTrack.epochMs("2000-02-29T00:00:00Z") != nil, "a leap day")
        #expect(GPXTrack.epochMs("1900-02-29T00:00:00Z") == nil)
        let text = Self.track.replacingOccurrences(of: "2024-05-01T09:00:01Z", with: "2024-02-31T09:00:01Z")
        #expect(throws: GPXTrack.Problem.impossibleDate(index: 1, time: "2024-02-31T09:00:01Z")) {
            try GPXTrack.points(Array(text.utf8))
        }
    }

    @Test(arguments: [1, 6, 7, 22, 30, 40, 100])
    func aTruncatedDocumentIsRefused(cut: Int) throws {
        // The document cut `cut` characters before its end: none may pass as a track.
        let text = String(Self.track.dropLast(cut))
        #expect(throws: GPXTrack.Problem.self) { try GPXTrack.points(Array(text.utf8)) }
    }

    @Test func aDocumentEndingBeforeItsRootClosesIsTruncated() {
        // FoundationXML reports success for these: the check is ours.
        for cut in [6, 7, 30] {
            #expect(throws: GPXTrack.Problem.truncated) { try GPXTrack.points(Array(Self.track.dropLast(cut).utf8)) }
        }
    }

    @Test func aCompleteTrackIsRead() throws {
        #expect(try GPXTrack.points(Array(Self.track.utf8)).count == 2)
    }

    @Test func aGPXErrorNamesTheFile() throws {
        let file = Fixtures.write("<gpx></gpx>", "empty.gpx", in: try Fixtures.temporaryFolder())
        #expect(thrown(["import-gpx", file]) == .gpx(file: file, .noTrackPoints))
    }
}
