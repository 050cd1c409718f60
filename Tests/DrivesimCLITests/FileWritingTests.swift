import CLITestSupport
import Foundation
import ScenarioFormat
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file type bits of `path` (`lstat`: a link is a link).
private func type(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return info.st_mode & S_IFMT
}

/// The timeline `run pass.json` prints.
private var passingTimeline: String {
    get throws {
        let file = Fixtures.write(CommandLineTests.passing, "pass.json", in: try Fixtures.temporaryFolder())
        return Fixtures.drivesim("run", file).stdout
    }
}

@Suite struct FileWritingTests {
    @Test func outWritesThroughASymlinkAndKeepsTheLink() throws {
        let folder = try Fixtures.temporaryFolder()
        Fixtures.write("old", "real.txt", in: folder)
        symlink("real.txt", folder + "/link.txt")
        let scenario = Fixtures.write(CommandLineTests.passing, "pass.json", in: folder)
        #expect(Fixtures.drivesim("run", scenario, "--out", folder + "/link.txt").code == 0)
        #expect(type(folder + "/link.txt") == S_IFLNK, "the link is not replaced")
        #expect(try String(contentsOfFile: folder + "/real.txt", encoding: .utf8) == (try passingTimeline))
    }

    @Test func outThroughADanglingSymlinkCreatesItsTarget() throws {
        let folder = try Fixtures.temporaryFolder()
        symlink("made.txt", folder + "/link.txt")
        try FileSystem.write(Array("x".utf8), to: folder + "/link.txt")
        #expect(type(folder + "/link.txt") == S_IFLNK)
        #expect(try String(contentsOfFile: folder + "/made.txt", encoding: .utf8) == "x")
    }

    @Test func outWritesIntoAFIFOWithoutReplacingIt() throws {
        let folder = try Fixtures.temporaryFolder()
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader first, so the writer's open does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try FileSystem.write(Array("through the pipe".utf8), to: fifo)
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = read(reader, &buffer, buffer.count)
        #expect(got == 16 && String(decoding: buffer.prefix(max(got, 0)), as: UTF8.self) == "through the pipe")
        #expect(type(fifo) == S_IFIFO, "still a FIFO")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pipe"])
    }

    @Test func outWritesIntoADeviceWithoutReplacingIt() throws {
        // A device node of our own (the null device's numbers), so no test ever
        // risks the machine's /dev/null. Making one needs root; elsewhere /dev/null itself is safe.
        let folder = try Fixtures.temporaryFolder()
        var device = folder + "/null"
        #if os(Linux)
            if mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) != 0 { device = "/dev/null" }  // makedev(1, 3)
        #else
            device = "/dev/null"
        #endif
        let scenario = Fixtures.write(CommandLineTests.passing, "pass.json", in: folder)
        #expect(Fixtures.drivesim("run", scenario, "--out", device).code == 0)
        #expect(type(device) == S_IFCHR, "the device is not replaced by a regular file")
    }

    @Test func aPlantedSymlinkAtAPredictableTemporaryNameIsNotFollowed() throws {
        let folder = try Fixtures.temporaryFolder()
        let victim = Fixtures.write("keep me", "victim.txt", in: folder)
        symlink(victim, folder + "/.out.txt.tmp")  // the old predictable name
        try FileSystem.write(Array("new".utf8), to: folder + "/out.txt")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "new")
    }

    @Test func aFailedWriteRemovesItsTemporaryFileAndNamesTheCause() throws {
        let folder = try Fixtures.temporaryFolder()
        let target = Fixtures.write("before", "out.txt", in: folder)
        let full: (Int32, UnsafeRawPointer, Int) -> Int = { _, _, _ in
            errno = ENOSPC
            return -1
        }
        #expect(throws: DrivesimError.cannotWrite(path: target, .noSpace)) {
            try FileSystem.write(Array("after".utf8), to: target, using: full)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"], "no temporary file left")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "before", "the old file is untouched")
    }

    @Test func writingThroughDevFullFailsWithNoSpace() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"), "Linux has /dev/full")
        #expect(throws: DrivesimError.cannotWrite(path: "/dev/full", .noSpace)) {
            try FileSystem.write(Array("x".utf8), to: "/dev/full")
        }
    }

    @Test func aReplacedFileKeepsItsPermissions() throws {
        let folder = try Fixtures.temporaryFolder()
        let target = Fixtures.write("before", "out.txt", in: folder)
        chmod(target, 0o640)
        try FileSystem.write(Array("after".utf8), to: target)
        var info = stat()
        stat(target, &info)
        #expect(info.st_mode & 0o7777 == 0o640)
    }

    @Test func twoWritersToOneFileNeverLoseTheOneThatSucceeded() async throws {
        let folder = try Fixtures.temporaryFolder()
        let target = folder + "/out.txt"
        let texts = (0..<2).map { String(repeating: "\($0)", count: 100_000) }
        let failures = await withTaskGroup(of: Int.self) { group in
            for text in texts {
                group.addTask {
                    var failed = 0
                    for _ in 0..<40 {
                        do { try FileSystem.write(Array(text.utf8), to: target) } catch { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0, "every write succeeded")
        #expect(
            texts.contains(try String(contentsOfFile: target, encoding: .utf8)), "the file is one writer's whole text")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"])
    }
}

@Suite struct StandardOutputTests {
    @Test func runToAFullDiskExitsTwoWithTheReason() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0, "Linux has /dev/full")
        defer { close(fd) }
        let file = Fixtures.write(CommandLineTests.passing, "pass.json", in: try Fixtures.temporaryFolder())
        #expect(
            thrown(["run", file], console: .writingOutput(to: fd))
                == .cannotWrite(path: Console.standardOutputName, .noSpace))
        var console = Console.writingOutput(to: fd)
        #expect(Drivesim.main(["run", file], console: &console) == 2)
        #expect(
            console.stderr == MessageInfo(DrivesimError.cannotWrite(path: Console.standardOutputName, .noSpace)).message
        )
    }

    @Test func aClosedStandardOutputExitsTwo() throws {
        let file = Fixtures.write(CommandLineTests.passing, "pass.json", in: try Fixtures.temporaryFolder())
        // -1 is never open, as a closed descriptor is.
        #expect(
            thrown(["run", file], console: .writingOutput(to: -1))
                == .cannotWrite(path: Console.standardOutputName, .closed))
        #expect(
            thrown(["check", file], console: .writingOutput(to: -1))
                == .cannotWrite(path: Console.standardOutputName, .closed))
    }

    @Test func importGPXToAFullDiskExitsTwo() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0, "Linux has /dev/full")
        defer { close(fd) }
        let file = Fixtures.write(GPXTests.track, "drive.gpx", in: try Fixtures.temporaryFolder())
        #expect(
            thrown(["import-gpx", file], console: .writingOutput(to: fd))
                == .cannotWrite(path: Console.standardOutputName, .noSpace))
    }

    @Test func aGoodRunThroughADescriptorWritesTheTimeline() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(CommandLineTests.passing, "pass.json", in: folder)
        let fd = open(folder + "/out", O_WRONLY | O_CREAT, 0o644)
        var console = Console.writingOutput(to: fd)
        #expect(Drivesim.main(["run", file], console: &console) == 0)
        close(fd)
        #expect(try String(contentsOfFile: folder + "/out", encoding: .utf8) == (try passingTimeline))
    }
}

/// `--out` never replaces what the user gave (issue 21): compared by identity, before anything runs.
@Suite struct OverwritingInputTests {
    /// The bytes of `path`.
    private func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func runRefusesAnOutThatIsItsScenario() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(CommandLineTests.passing, "s.json", in: folder)
        #expect(thrown(["run", file, "--out", file]) == .cannotWrite(path: file, .isAnInput(file)))
        #expect(try contents(file) == CommandLineTests.passing)
    }

    @Test func runRefusesAnOutThatLinksToItsScenarioOrSpellsItAnotherWay() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(CommandLineTests.passing, "s.json", in: folder)
        symlink("s.json", folder + "/link.json")
        #expect(
            thrown(["run", file, "--out", folder + "/link.json"])
                == .cannotWrite(path: folder + "/link.json", .isAnInput(file)))
        #expect(
            thrown(["run", file, "--out", folder + "/./s.json"])
                == .cannotWrite(path: folder + "/./s.json", .isAnInput(file)))
        var console = Console.captured
        #expect(Drivesim.main(["run", file, "--out", folder + "/link.json"], console: &console) == 2)
        #expect(console.stderr.split(separator: "\n").count == 1, "one line: \(console.stderr)")
        #expect(try contents(file) == CommandLineTests.passing)
    }

    @Test func importRouteRefusesAnOutThatIsItsResponse() throws {
        let folder = try Fixtures.temporaryFolder()
        let text = try contents(Fixtures.path("Scenarios/routes/responses/roundabout.osrm"))
        let file = Fixtures.write(text, "r.osrm", in: folder)
        #expect(
            thrown(["import-route", file, "--language", "en", "--out", file])
                == .cannotWrite(path: file, .isAnInput(file)))
        #expect(try contents(file) == text)
    }

    @Test func importGPXRefusesAnOutThatIsItsTrack() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(GPXTests.track, "t.gpx", in: folder)
        #expect(thrown(["import-gpx", file, "--out", file]) == .cannotWrite(path: file, .isAnInput(file)))
        #expect(try contents(file) == GPXTests.track)
    }

    @Test func recordRefusesAGoldenThatIsAnotherInput() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = GoldenPathTests.scenario(golden: "s.timeline.json", in: folder)
        // The golden name links to a file `check` was given (not a scenario, so not caught by decoding).
        let other = Fixtures.write("not a scenario", "other.json", in: folder)
        symlink("other.json", folder + "/s.timeline.json")
        let result = Fixtures.drivesim("check", "--record", file, other)
        #expect(result.code == 2)
        #expect(result.stderr.contains("is the input '\(other)'"))
        #expect(try contents(other) == "not a scenario")
    }

    @Test func outRefusesAReadOnlyFileAsTheShellDoes() throws {
        let folder = try Fixtures.temporaryFolder()
        let target = Fixtures.write("keep", "ro.txt", in: folder)
        chmod(target, 0o444)
        #expect(throws: DrivesimError.cannotWrite(path: target, .readOnlyFile(mode: 0o444, for: .owner))) {
            try FileSystem.write(Array("x".utf8), to: target)
        }
        #expect(try contents(target) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["ro.txt"], "no temporary file left")
    }

    /// `/dev/stdout` on a pipe is `/proc/self/fd/1`, a link to `pipe:[N]`, which names no file.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "Linux's /proc"))
    func outToAProcLinkToAPipeWritesIntoThePipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        try FileSystem.write(Array("through".utf8), to: "/proc/self/fd/\(ends[1])")
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, got)), as: UTF8.self) == "through")
    }

    /// With `mode`, writing `target` is refused by the bits of `role`.
    func expectRefused(
        _ target: String, mode: UInt32, for role: WriteProblem.Writer, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        chmod(target, mode_t(mode))
        #expect(
            throws: DrivesimError.cannotWrite(path: target, .readOnlyFile(mode: mode, for: role)),
            sourceLocation: sourceLocation
        ) {
            try FileSystem.write(Array("x".utf8), to: target)
        }
    }

    /// With `mode`, writing `target` replaces it.
    func expectWritten(_ target: String, mode: UInt32) throws {
        chmod(target, mode_t(mode))
        try FileSystem.write(Array("new".utf8), to: target)
        #expect(try contents(target) == "new")
    }

    @Test func outReadsTheOwnersBitsOfItsOwnFileEvenWhenOthersMayWrite() throws {
        let folder = try Fixtures.temporaryFolder()
        let target = Fixtures.write("keep", "mine.txt", in: folder)
        expectRefused(target, mode: 0o466, for: .owner)
        try expectWritten(target, mode: 0o600)
    }

    /// A file of another uid: only root can make one (chown), and root is judged by the bits too.
    @Test(.enabled(if: geteuid() == 0, "chown to another uid needs root"))
    func outReadsTheGroupsOrTheOthersBitsOfAFileSomeoneElseOwns() throws {
        let folder = try Fixtures.temporaryFolder()
        let target = Fixtures.write("keep", "theirs.txt", in: folder)
        // Another owner, another group: the others' bits decide.
        try #require(chown(target, 4242, 4242) == 0)
        expectRefused(target, mode: 0o664, for: .others)
        // Another owner, our group: the group's bits decide, the owner's do not matter.
        try #require(chown(target, 4242, getegid()) == 0)
        expectRefused(target, mode: 0o646, for: .group)
        try expectWritten(target, mode: 0o464)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["theirs.txt"], "no temporary file left")
    }

    @Test func anEmptyOutAndAProcFileAreNamedForWhatTheyAre() throws {
        let file = Fixtures.write(CommandLineTests.passing, "s.json", in: try Fixtures.temporaryFolder())
        #expect(thrown(["run", file, "--out", ""]) == .cannotWrite(path: "", .emptyPath))
        if FileManager.default.fileExists(atPath: "/proc/version") {
            #expect(
                thrown(["run", file, "--out", "/proc/version"])
                    == .cannotWrite(
                        path: "/proc/version", .readOnlyFile(mode: 0o444, for: geteuid() == 0 ? .owner : .others)))
        }
    }
}

/// Writes past a file-size limit (`ulimit -f`), through the built `drivesim` itself: the limit is the process's.
@Suite struct FileSizeLimitTests {
    /// The `drivesim` executable beside the test bundle; nil if it is not built there.
    static var executable: String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("drivesim").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        let built = Fixtures.path(".build/debug/drivesim")
        return FileManager.default.isExecutableFile(atPath: built) ? built : nil
    }

    /// Runs `drivesim arguments` under `ulimit -f 0` (no byte may be written to a file); exit status and standard error.
    static func underLimit(_ arguments: [String]) throws -> (code: Int32, stderr: String) {
        let binary = try #require(executable, "drivesim is built beside the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 0 && exec \"$@\"", "sh", binary] + arguments
        // As on a developer's machine: under CI=true `check --record` is refused before it writes anything.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "CI" }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus, text
        )
    }

    @Test func aWritePastTheLimitIsAnErrorWithItsReasonAndNoTemporaryFile() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(CommandLineTests.passing, "s.json", in: folder)
        let result = try Self.underLimit(["run", file, "--format", "svg", "--out", folder + "/big.svg"])
        #expect(result.code == 2, "not killed by SIGXFSZ: \(result)")
        #expect(result.stderr == MessageInfo(DrivesimError.cannotWrite(path: folder + "/big.svg", .tooLarge)).message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["s.json"], "no temporary file left")
    }

    @Test func recordPastTheLimitFinishesEveryFileAndSumsUpTheFailures() throws {
        let folder = try Fixtures.temporaryFolder()
        let files = (1...3).map { k in
            var text = CommandLineTests.passing
            text.insert(
                contentsOf: #""golden": "s\#(k).timeline.json", "#, at: text.index(after: text.firstIndex(of: "{")!))
            return Fixtures.write(text, "s\(k).json", in: folder)
        }
        let result = try Self.underLimit(["check", "--record"] + files)
        #expect(result.code == 2)
        for k in 1...3 {
            #expect(result.stderr.contains("s\(k).timeline.json"), "file \(k) reported: \(result.stderr)")
        }
        #expect(
            result.stderr.hasSuffix(
                "3 golden timelines could not be written (each named above); the rest were checked or recorded\n"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["s1.json", "s2.json", "s3.json"])
    }
}

@Suite struct UnwritableReproducerTests {
    @Test func aReproducerThatCannotBeWrittenGoesToStandardErrorInFullAndFuzzExitsTwo() throws {
        let folder = try Fixtures.temporaryFolder()
        // A folder where the reproducer's file would go: the write fails ("it is a folder").
        let name = "invariant-2-ears-early-seed-1-run-2.json"
        try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false)
        let result = Fixtures.drivesim(
            "fuzz", "--seed", "1", "--runs", "300", "--mutant", "ears-early", "--out", folder)
        #expect(result.code == 2)
        let marker =
            "could not write the reproducer: cannot write '\(folder)/\(name)': it is a folder; here it is in full:\n"
        let after = try #require(
            result.stderr.components(separatedBy: marker).dropFirst().first, Comment(rawValue: result.stderr))
        // The scenario runs up to the next check's FAIL line, or to the end of standard error.
        let json = after.components(separatedBy: "\nFAIL ").first ?? after
        let scenario = try ScenarioDecoder.decode(Array(json.utf8), file: "stderr")
        #expect(!scenario.guidance.isEmpty || !scenario.replies.isEmpty, "the whole shrunk scenario")
    }
}
