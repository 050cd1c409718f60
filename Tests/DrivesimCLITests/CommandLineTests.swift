import CLITestSupport
import DrivesimCLI
import Fuzzing
import Review
import ScenarioFormat
import SimRunner
import TestSupport
import Testing

@Suite struct CommandLineTests {
    static let passing = """
        { "drivesim": 1, "name": "one line",
          "guidance": [ { "id": "g1", "at": 1.0, "duration": 2.0 } ],
          "expect": [ { "at": 1.0, "event": "guidance.started", "line": "g1" } ] }
        """
    static let failing = """
        { "drivesim": 1, "name": "wrong expectation",
          "guidance": [ { "id": "g1", "at": 1.0, "duration": 2.0 } ],
          "expect": [ { "at": 1.5, "event": "guidance.started", "line": "g1" } ] }
        """
    static let invalid = """
        { "drivesim": 1, "name": "typo", "guidance": [ { "id": "g1", "at": 1.0, "durration": 2.0 } ] }
        """

    @Test func theDemoRunsAndPrintsItsTimeline() throws {
        let result = Fixtures.drivesim()
        #expect(result.code == 0)
        #expect(result.stdout.contains("guidance  started"))
        #expect(result.stderr.isEmpty)
    }

    @Test func aMalformedMatcherBeyondEqualityIsRefusedBeforeTheRunWithFilePathAndReason() throws {
        let folder = try Fixtures.temporaryFolder()
        func scenario(_ third: String) -> String {
            """
            { "drivesim": 1, "name": "beyond", "guidance": [ { "id": "g1", "at": 1, "duration": 2, "text": "then left" } ],
              "expect": [ { "event": "guidance.started" }, { "event": "guidance.ended" },
                \(third) ] }
            """
        }
        let cases = [
            (
                #"{ "event": "guidance.started", "text": { "matches": "(then" } }"#,
                "pattern.json:3:57: expect[2].text.matches: not a valid pattern at character 1: missing ) for the group"
            ),
            (
                #"{ "event": "guidance.ended", "within": 2 }"#,
                "within.json:3:44: expect[2].within: within counts from since's event; give since too"
            ),
            (
                #"{ "event": "guidance.ended", "since": { "event": "guidance.started", "cuont": 1 } }"#,
                #"since.json:3:83: expect[2].since.cuont: unknown field "cuont" for event "guidance.started"; it carries line, text, language; did you mean "count"?"#
            ),
        ]
        for (matcher, message) in cases {
            let name = String(message.prefix { $0 != ":" })
            let result = Fixtures.drivesim("run", Fixtures.write(scenario(matcher), name, in: folder))
            #expect(result.code == 2, "\(name)")
            #expect(result.stdout.isEmpty, "nothing ran")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        let good = Fixtures.drivesim(
            "run",
            Fixtures.write(
                scenario(
                    #"{ "event": "guidance.ended", "since": { "event": "guidance.started", "text": { "contains": "then" } }, "within": 2 }"#
                ), "good.json", in: folder))
        #expect(good.code == 0, "\(good.stderr)")
    }

    @Test func runExitsZeroOneOrTwo() throws {
        let folder = try Fixtures.temporaryFolder()
        let pass = Fixtures.drivesim("run", Fixtures.write(Self.passing, "pass.json", in: folder))
        #expect(pass.code == 0 && pass.stderr.isEmpty)
        let fail = Fixtures.drivesim("run", Fixtures.write(Self.failing, "fail.json", in: folder))
        #expect(fail.code == 1)
        #expect(fail.stderr.contains("expect[0]"))
        // What failed names its file first, as check's report does.
        #expect(fail.stderr.hasPrefix(folder + "/fail.json: wrong expectation\n"), "\(fail.stderr)")
        #expect(fail.stdout.contains("guidance  started"), "the timeline still goes to standard output")
        let bad = Fixtures.drivesim("run", Fixtures.write(Self.invalid, "bad.json", in: folder))
        #expect(bad.code == 2)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.contains("bad.json") && bad.stderr.contains("guidance[0].durration"))
        #expect(Fixtures.drivesim("run", folder + "/missing.json").code == 2)
    }

    @Test func jsonFormatPrintsOnlyTheTimeline() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim("run", Fixtures.write(Self.passing, "pass.json", in: folder), "--format", "json")
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("{\n  \"events\": ["))
        #expect(result.stdout.contains(#"{"event": "guidance.started", "line": "g1", "t": 1000}"#))
    }

    @Test func checkKeepsGoingPastBadFilesAndCountsThem() throws {
        let folder = try Fixtures.temporaryFolder()
        Fixtures.write(Self.passing, "a.json", in: folder)
        Fixtures.write(Self.failing, "b.json", in: folder)
        Fixtures.write(Self.invalid, "c.json", in: folder)
        Fixtures.write("not json", "d.json", in: folder)
        let result = Fixtures.drivesim("check", folder)
        #expect(result.code == 2)
        #expect(result.stdout.hasSuffix("1 passed, 3 failed\n"))
        #expect(result.stdout.contains("PASS  \(folder)/a.json"))
        #expect(result.stdout.contains("FAIL  \(folder)/b.json"))
        #expect(result.stderr.contains("c.json") && result.stderr.contains("d.json"))
    }

    @Test func checkExitsOneWhenAScenarioFailsAndZeroWhenAllPass() throws {
        let folder = try Fixtures.temporaryFolder()
        let pass = Fixtures.write(Self.passing, "a.json", in: folder)
        #expect(Fixtures.drivesim("check", pass).code == 0)
        #expect(Fixtures.drivesim("check", pass, Fixtures.write(Self.failing, "b.json", in: folder)).code == 1)
        #expect(try Fixtures.drivesim("check", Fixtures.temporaryFolder()).code == 2, "an empty folder is a mistake")
    }

    @Test(arguments: [
        ["frobnicate"], ["run"], ["run", "a.json", "--fromat", "json"], ["run", "a.json", "--format", "yaml"],
        ["check"],
    ])
    func usageErrorsExitTwoWithAHint(arguments: [String]) throws {
        var console = Console.captured
        #expect(Drivesim.main(arguments, console: &console) == 2)
        #expect(console.stderr.hasPrefix("Error: "))
        #expect(console.stderr.contains("See 'drivesim"))
    }

    @Test func typosGetASuggestion() throws {
        #expect(Fixtures.drivesim("chek").stderr.contains("Did you mean 'check'?"))
        #expect(Fixtures.drivesim("run", "x.json", "--fromat", "json").stderr.contains("Did you mean '--format'?"))
    }

    @Test(arguments: ["run", "check", "bench"])
    func everyCommandHasHelp(command: String) throws {
        let result = Fixtures.drivesim(command, "--help")
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("USAGE: drivesim \(command)"))
    }
}

/// A unit slip is a warning on standard error: the run goes on, its exit code and timeline unchanged.
@Suite struct UnitSlipWarningCLITests {
    static let slip = """
        { "drivesim": 1, "name": "slip",
          "guidance": [ { "id": "g1", "at": 1.0, "duration": 3000 } ],
          "expect": [ { "at": 1.0, "event": "guidance.started", "line": "g1" } ] }
        """

    @Test func runAndCheckWarnAboutAFiftyMinuteLineAndStillPass() throws {
        let file = Fixtures.write(Self.slip, "slip.json", in: try Fixtures.temporaryFolder())
        let warning = "warning: \(file):2:54: guidance[0].duration: 3000 s is over 10 minutes"
        let run = Fixtures.drivesim("run", file)
        #expect(run.code == 0)
        #expect(run.stderr.hasPrefix(warning), "\(run.stderr)")
        #expect(!run.stdout.contains("warning"), "standard output carries the timeline alone")
        let check = Fixtures.drivesim("check", file)
        #expect(check.code == 0)
        #expect(check.stderr.hasPrefix(warning), "\(check.stderr)")
        #expect(check.stdout.hasSuffix("1 passed, 0 failed\n"))
    }
}

/// Counts in messages agree with their noun: `1 run`, `1 fix written`, never `1 runs`.
@Suite struct PluralTests {
    @Test func countedSaysOneThingAndManyThings() {
        #expect(counted(1, "run") == "1 run")
        #expect(counted(0, "run") == "0 runs")
        #expect(counted(2, "try", "tries") == "2 tries")
        #expect(counted(1, "fix", "fixes") == "1 fix")
    }

    @Test func aOneRunCampaignSaysOneRun() throws {
        let result = Fixtures.drivesim("fuzz", "--runs", "1", "--jobs", "1", "--out", try Fixtures.temporaryFolder())
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("1 run in "), "\(result.stderr)")
    }
}
