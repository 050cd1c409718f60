import CLITestSupport
import Foundation
import RouteImport
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import ScenarioFormat
@testable import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the command line throws (nil if it throws nothing), before it is worded.
func thrown(_ arguments: [String], console: Console = .captured, environment: [String: String] = [:]) -> DrivesimError?
{
    var console = console
    console.environment = environment
    var command: String?
    do {
        _ = try Drivesim.dispatch(arguments, command: &command, console: &console)
        try console.finish()
        return nil
    } catch let error as DrivesimError {
        return error
    } catch {
        Issue.record("not a DrivesimError: \(error)")
        return nil
    }
}

/// The error decoding `text` as the scenario file `file` raises.
func decodingError(_ text: String, file: String) -> ScenarioError? {
    do {
        _ = try ScenarioDecoder.decode(Array(text.utf8), file: file)
        return nil
    } catch {
        return error
    }
}

/// One folder of files for the table below, made once.
enum Bench {
    static let folder: String = {
        let folder = try! Fixtures.temporaryFolder()
        Fixtures.write(CommandLineTests.passing, "pass.json", in: folder)
        Fixtures.write(CommandLineTests.invalid, "bad.json", in: folder)
        try! FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: false)
        symlink("loop.json", folder + "/loop.json")  // a link to itself: ELOOP
        for (name, golden) in [
            ("absolute", "/tmp/x.timeline.json"), ("escapes", "../x.timeline.json"),
            ("itself", "itself.json"), ("plain", "x.txt"),
        ] {
            Fixtures.write(#"{"drivesim": 1, "name": "g", "golden": "\#(golden)"}"#, name + ".json", in: folder)
        }
        return folder
    }()
    static func path(_ name: String) -> String { folder + "/" + name }
}

/// One command line that must fail, with the error case it must raise.
struct BadCommandLine: Sendable, CustomTestStringConvertible {
    let label: String
    let arguments: [String]
    let environment: [String: String]
    let error: DrivesimError
    var testDescription: String { label }

    init(_ label: String, _ arguments: [String], _ error: DrivesimError, environment: [String: String] = [:]) {
        self.label = label
        self.arguments = arguments
        self.error = error
        self.environment = environment
    }
}

let badCommandLines: [BadCommandLine] = [
    BadCommandLine("unknown command", ["frobnicate"], .usage(.unknownCommand("frobnicate", suggestion: nil))),
    BadCommandLine("misspelt command", ["chek"], .usage(.unknownCommand("chek", suggestion: "check"))),
    BadCommandLine("help for no command", ["help", "bogus"], .usage(.unknownHelpTopic("bogus", suggestion: nil))),
    BadCommandLine("help for a misspelt command", ["help", "rn"], .usage(.unknownHelpTopic("rn", suggestion: "run"))),
    BadCommandLine("run without a file", ["run"], .usage(.missingArgument("scenario file"))),
    BadCommandLine(
        "run with two files", ["run", "a", "b"], .usage(.tooManyArguments(command: "run", takes: "one scenario file"))),
    BadCommandLine(
        "misspelt option", ["run", "a.json", "--fromat", "json"],
        .usage(.unknownOption("--fromat", suggestion: "--format"))),
    BadCommandLine(
        "option without its value", ["run", "a.json", "--format"], .usage(.missingValue(option: "--format"))),
    BadCommandLine("flag with a value", ["check", "--record=yes", "x"], .usage(.flagTakesNoValue(flag: "--record"))),
    BadCommandLine(
        "unknown format", ["run", "a.json", "--format", "pdf"],
        .usage(.unknownValue(option: "--format", value: "pdf", allowed: RunCommand.formats, suggestion: nil))),
    BadCommandLine(
        "--from with a leading space", ["run", "a.json", "--from", " 5"],
        .usage(.notSeconds(option: "--from", value: " 5"))),
    BadCommandLine(
        "--to with a trailing space", ["run", "a.json", "--to", "5 "], .usage(.notSeconds(option: "--to", value: "5 "))),
    BadCommandLine(
        "--from not a number", ["run", "a.json", "--from", "soon"], .usage(.notSeconds(option: "--from", value: "soon"))
    ),
    BadCommandLine(
        "--from negative", ["run", "a.json", "--from", "-1"], .usage(.negativeSeconds(option: "--from", value: "-1"))),
    BadCommandLine(
        "--from finer than a millisecond", ["run", "a.json", "--from", "0.0001"],
        .usage(.notWholeMilliseconds(option: "--from", value: "0.0001"))),
    BadCommandLine(
        "reversed window", ["run", "a.json", "--from", "5", "--to", "2"], .usage(.reversedWindow(from: "5", to: "2"))),
    BadCommandLine(
        "width out of range", ["run", "a.json", "--width", "3"],
        .usage(.notAWholeNumber(option: "--width", value: "3", from: "20", to: "1000000"))),
    BadCommandLine(
        "--timeline-only without --arbiter, before the file is read",
        ["run", Bench.path("missing.json"), "--timeline-only"],
        .usage(.needsOption(flag: "--timeline-only", option: "--arbiter"))),
    BadCommandLine(
        "--mutant with --guidance, before the file is read",
        ["run", Bench.path("missing.json"), "--mutant", "urgent-waits", "--guidance", "x"],
        .usage(.excludes("--mutant", "--guidance"))),
    BadCommandLine(
        "--arbiter-timeout out of range, before the file is read",
        ["run", Bench.path("missing.json"), "--arbiter", "x", "--arbiter-timeout", "0"],
        .usage(.notAWholeNumber(option: "--arbiter-timeout", value: "0", from: "1", to: "3600"))),
    BadCommandLine("--help after -- is a file name", ["run", "--", "--help"], .unreadable(file: "--help", .missing)),
    BadCommandLine(
        "a missing file", ["run", Bench.path("missing.json")], .unreadable(file: Bench.path("missing.json"), .missing)),
    BadCommandLine("a folder", ["run", Bench.path("empty")], .unreadable(file: Bench.path("empty"), .isFolder)),
    BadCommandLine(
        "a symlink loop", ["run", Bench.path("loop.json")], .unreadable(file: Bench.path("loop.json"), .symlinkLoop)),
    BadCommandLine(
        "an invalid scenario", ["run", Bench.path("bad.json")],
        .invalidScenario(decodingError(CommandLineTests.invalid, file: Bench.path("bad.json"))!)),
    BadCommandLine(
        "an absolute golden", ["run", Bench.path("absolute.json")],
        .golden(file: Bench.path("absolute.json"), .absolute("/tmp/x.timeline.json"))),
    BadCommandLine(
        "a golden above the scenario", ["run", Bench.path("escapes.json")],
        .golden(file: Bench.path("escapes.json"), .leavesTheFolder("../x.timeline.json"))),
    BadCommandLine(
        "a golden naming the scenario itself", ["run", Bench.path("itself.json")],
        .golden(file: Bench.path("itself.json"), .notATimelineName("itself.json"))),
    BadCommandLine(
        "a golden not named .timeline.json", ["run", Bench.path("plain.json")],
        .golden(file: Bench.path("plain.json"), .notATimelineName("x.txt"))),
    BadCommandLine(
        "--out a full disk", ["run", Bench.path("pass.json"), "--out", "/dev/full"],
        .cannotWrite(path: "/dev/full", .noSpace)),
    BadCommandLine(
        "--out a folder", ["run", Bench.path("pass.json"), "--out", Bench.folder],
        .cannotWrite(path: Bench.folder, .isFolder)),
    BadCommandLine(
        "--out in no folder", ["run", Bench.path("pass.json"), "--out", Bench.path("no/such.txt")],
        .cannotWrite(path: Bench.path("no/such.txt"), .noSuchFolder)),
    BadCommandLine(
        "--out under a file", ["run", Bench.path("pass.json"), "--out", Bench.path("pass.json/x")],
        .cannotWrite(path: Bench.path("pass.json/x"), .notADirectory)),
    BadCommandLine("check without paths", ["check"], .usage(.missingArgument("path"))),
    BadCommandLine(
        "check of an empty folder", ["check", Bench.path("empty")], .usage(.noScenarioFiles([Bench.path("empty")]))),
    BadCommandLine(
        "record on CI", ["check", "--record", Bench.folder], .refusedOnCI(.recordGoldens), environment: ["CI": "true"]),
    BadCommandLine("import-gpx without a file", ["import-gpx"], .usage(.missingArgument("GPX file"))),
    BadCommandLine(
        "import-gpx of a missing file", ["import-gpx", Bench.path("x.gpx")],
        .unreadable(file: Bench.path("x.gpx"), .missing)),
    BadCommandLine(
        "import-route without --language", ["import-route", Bench.path("pass.json"), "--out", Bench.path("x.json")],
        .usage(.missingOption(option: "--language", allowed: ["ko", "en"]))),
    // tcsh is as near to bash, zsh and fish: no shell is suggested as its typo, the list says which there are.
    BadCommandLine(
        "completions for a shell it has none for", ["completions", "tcsh"],
        .usage(.unknownValue(option: "<shell>", value: "tcsh", allowed: ["bash", "zsh", "fish"], suggestion: nil))),
    BadCommandLine(
        "completions for a misspelt shell", ["completions", "bsah"],
        .usage(.unknownValue(option: "<shell>", value: "bsah", allowed: ["bash", "zsh", "fish"], suggestion: "bash"))),
    BadCommandLine("fuzz shard out of range", ["fuzz", "--shard", "3/2"], .usage(.badShard("3/2"))),
    BadCommandLine("fuzz time limit negative", ["fuzz", "--time-limit", "-5"], .usage(.badTimeLimit("-5"))),
    BadCommandLine(
        "fuzz misspelt mutant", ["fuzz", "--mutant", "ears-erly"],
        .usage(
            .unknownValue(
                option: "--mutant", value: "ears-erly", allowed: TalkArbiterFaultNames.all, suggestion: "ears-early"))),
    BadCommandLine(
        "fuzz --out under a file", ["fuzz", "--out", Bench.path("pass.json/x")],
        .cannotWrite(path: Bench.path("pass.json/x"), .notADirectory)),
    BadCommandLine(
        "bench part unknown", ["bench", "--only", "rode"],
        .usage(
            .unknownValue(
                option: "--only", value: "rode", allowed: ["queue", "drive", "render", "growth", "fuzz", "road"],
                suggestion: "road"))),
]

/// The mutants' names, as `--mutant` lists them.
enum TalkArbiterFaultNames {
    static var all: [String] {
        guard case .usage(.unknownValue(_, _, let allowed, _))? = thrown(["fuzz", "--mutant", "?"]) else { return [] }
        return allowed
    }
}

@Suite struct ErrorTests {
    @Test(arguments: badCommandLines)
    func everyUnusableCommandLineRaisesItsCase(_ bad: BadCommandLine) {
        #expect(thrown(bad.arguments, environment: bad.environment) == bad.error)
    }

    @Test(arguments: badCommandLines)
    func everyErrorIsWordedInOnePlaceAndExitsTwo(_ bad: BadCommandLine) {
        var console = Console.captured
        console.environment = bad.environment
        #expect(Drivesim.main(bad.arguments, console: &console) == 2)
        let command = bad.arguments.first.flatMap { name in Drivesim.commands.first { $0.name == name }?.name }
        #expect(console.stderr == MessageInfo(bad.error, command: command).message)
        #expect(console.stderr.hasPrefix("Error: "))
    }

    @Test func theMutantListIsTheArbitersFaults() {
        #expect(TalkArbiterFaultNames.all.contains("ears-early"))
    }

    @Test func errnoValuesMapToTheirCauses() {
        #expect(FileProblem(errno: ENOENT) == .missing)
        #expect(FileProblem(errno: EACCES) == .permissionDenied)
        #expect(FileProblem(errno: ELOOP) == .symlinkLoop)
        #expect(FileProblem(errno: EISDIR) == .isFolder)
        #expect(FileProblem(errno: EIO) == .other(errno: EIO))
        #expect(WriteProblem(errno: ENOSPC) == .noSpace)
        #expect(WriteProblem(errno: EACCES) == .permissionDenied)
        #expect(WriteProblem(errno: EBADF) == .closed)
    }

    @Test func permissionDeniedAndALoopAreNotCalledMissing() {
        for problem in [FileProblem.permissionDenied, .symlinkLoop, .other(errno: EIO)] {
            let message = MessageInfo(DrivesimError.unreadable(file: "a.json", problem)).message
            #expect(!message.contains("no such file"), "\(message)")
        }
    }

    @Test func aFileThePermissionsForbidIsPermissionDenied() throws {
        // Root reads any file whatever its mode, so the case cannot be made as root;
        // `errnoValuesMapToTheirCauses` covers the mapping then.
        guard geteuid() != 0 else { return }
        let file = Fixtures.write(CommandLineTests.passing, "locked.json", in: try Fixtures.temporaryFolder())
        chmod(file, 0)
        #expect(thrown(["run", file]) == .unreadable(file: file, .permissionDenied))
    }

    @Test func helpStillWorksBeforeTheDoubleDash() {
        let result = Fixtures.drivesim("run", "--help", "--", "x")
        #expect(result.code == 0 && result.stdout.hasPrefix("OVERVIEW: "))
    }

    @Test func anOversizedScenarioIsRefusedBeforeItIsRead() throws {
        let file = try Fixtures.temporaryFolder() + "/huge.json"
        let fd = open(file, O_WRONLY | O_CREAT, 0o644)
        #expect(ftruncate(fd, off_t(FileSystem.readLimit + 1)) == 0)  // sparse: no disk used
        close(fd)
        #expect(thrown(["run", file]) == .unreadable(file: file, .tooLarge(limit: 64 << 20)))
        #expect(thrown(["import-gpx", file]) == .unreadable(file: file, .tooLarge(limit: 64 << 20)))
    }

    @Test func aFileAtTheLimitIsReadWhole() throws {
        let folder = try Fixtures.temporaryFolder()
        let text = CommandLineTests.passing
        let file = Fixtures.write(text, "small.json", in: folder)
        #expect(try FileSystem.read(file, limit: text.utf8.count) == Array(text.utf8))
        #expect(throws: DrivesimError.unreadable(file: file, .tooLarge(limit: text.utf8.count - 1))) {
            try FileSystem.read(file, limit: text.utf8.count - 1)
        }
    }
}

/// Messages are one line, escaped, and say what is wrong (issue 21).
@Suite struct OneLineMessageTests {
    @Test func controlCharactersAreEscapedSoNoMessageSpansLinesOrDrivesTheTerminal() {
        #expect(escapedForTerminal("a\u{1B}[2Jb\r\nc\td\u{7F}") == "a\\u{1B}[2Jb\\r\\nc\\td\\u{7F}")
        #expect(escapedForTerminal("plain words, ünïcode") == "plain words, ünïcode")
    }

    @Test(arguments: ["python3 arbiter.py", "it's", "a'b'c", "", "plain-word_1.py", "$HOME `x` \"q\" \\ *"])
    func aShellQuotedWordReadsBackAsItself(word: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf %s " + shellQuoted(word)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text == word)
        #expect(shellQuoted("it's") == #"'it'\''s'"#)
    }

    @Test func aServicesErrorTextReachesTheTerminalEscapedInOneLine() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(
            #"{"code":"NoRoute\u001b[2J","message":"line1\nline2\r\u001b[31m","routes":[]}"#, "svc.json", in: folder)
        var console = Console.captured
        #expect(Drivesim.main(["import-route", file, "--language", "en"], console: &console) == 2)
        #expect(console.stderr.dropLast().split(separator: "\n").count == 1, "\(console.stderr)")
        #expect(!console.stderr.contains("\u{1B}") && !console.stderr.contains("\r"))
        #expect(console.stderr.contains(#"line1\nline2\r\u{1B}[31m"#))
    }

    @Test func anImportsOwnCheckNamesTheResponseNotTheScenario() {
        let error = DrivesimError.importProblem(
            file: "r.osrm", ImportProblem(.scenarioRefused(path: "road.route.maneuvers[3]", reason: "bad"), at: ""))
        #expect(
            MessageInfo(error).message
                == "Error: r.osrm: top level: the scenario it makes would be refused at road.route.maneuvers[3]: bad\n")
    }

    @Test func fuzzOutThatIsAFileSaysItIsNotAFolder() throws {
        let file = Fixtures.write("x", "afile", in: try Fixtures.temporaryFolder())
        #expect(thrown(["fuzz", "--runs", "1", "--out", file]) == .cannotWrite(path: file, .notAFolder))
    }
}

/// An import's measured value is never rounded onto the limit it broke (issue 49: "starts 500 m … beyond 500 m").
@Suite struct ImportMeasuredValueTests {
    @Test func eachMeasuredValueIsPrintedBeyondItsLimit() {
        func apart(_ meters: Double) -> String {
            ImportProblem.Reason.routesApart(
                meters: MeasuredValue.rounded(meters, beyond: RouteImporter.branchReach),
                reach: RouteImporter.branchReach
            ).words
        }
        #expect(
            apart(500.4).hasPrefix(
                "the route starts 500.4 m from the road before it (after the previous change's branch), beyond 500 m"))
        #expect(apart(600.2).hasPrefix("the route starts 600 m from the road before it"))
        #expect(
            ImportProblem.Reason.maneuverOffGeometry(meters: MeasuredValue.rounded(15.4, beyond: 15)).words
                == "the maneuver lies 15.4 m from the route's geometry (at most 15 m)")
        #expect(
            ImportProblem.Reason.driveTooLong(hours: MeasuredValue.rounded(24.3, beyond: 24)).words
                == "at the response's speeds the drive would last about 24.3 hours, beyond 24")
        #expect(
            ImportProblem.Reason.routeTooLong(kilometers: MeasuredValue.rounded(10_000.2, beyond: 10_000)).words
                == "the route is 10000.2 km long, beyond the format's 10000 km")
        #expect(
            ImportWarning(.speedClamped(kmh: MeasuredValue.rounded(250.04, beyond: 250)), at: "x").reason
                == "a speed of 250.04 km/h, outside 3.6...250; clamped")
        #expect(
            ImportWarning(.speedClamped(kmh: MeasuredValue.rounded(3.58, beyond: 3.6)), at: "x").reason
                == "a speed of 3.58 km/h, outside 3.6...250; clamped")
    }
}
