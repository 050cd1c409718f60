import CLITestSupport
import Foundation
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import ExternalProcess

/// `--guidance "COMMAND"`: a guidance engine in another process (docs/test-your-guidance.md).
/// Serialized: the command's process is one per command line.
@Suite(.serialized) struct ExternalGuidanceTests {
    static let python = "python3 \(Fixtures.path("Examples/python-guidance/guidance.py"))"
    static let broken = python + " --break fixed-distance"
    static func road(_ name: String) -> String { Fixtures.path("Scenarios/road/\(name).json") }

    /// A shell script in a fresh folder that says the hello, reads the route and then answers each span with `answer`.
    static func script(_ answer: String, hello: String = "{\"type\":\"hello\",\"guidance\":1}") throws -> String {
        let folder = try Fixtures.temporaryFolder()
        return "sh "
            + Fixtures.write(
                "read line; echo '\(hello)'; read route; while read span; do echo '\(answer)'; done\n", "guidance.sh",
                in: folder)
    }

    @Test func thePythonExamplePassesRoadScenariosAndItsLinesAreOnTheTimeline() {
        let result = Fixtures.drivesim(
            "check", Self.road("highway-120"), Self.road("gps-gap"), Self.road("seoul-city-ko"), "--guidance",
            Self.python)
        #expect(result.code == 0 && result.stdout.contains("3 passed, 0 failed"), "\(result.stdout)\(result.stderr)")
        let run = Fixtures.drivesim("run", Self.road("highway-120"), "--guidance", Self.python)
        #expect(run.code == 0 && run.stdout.contains("exit.now urgent (now) \"Now keep right onto"), "\(run.stdout)")
    }

    /// A process's line that would end after 24 h if it waited, here behind the file's 100 s
    /// line g0 (until 24:00:10), is dropped stale in time (issue 49; DrivesEndTests for a Swift guidance).
    @Test func aProcesssLineIsNeverSaidAfter24h() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(
            #"""
            { "drivesim": 1, "name": "a line waiting at midnight",
              "guidance": [ { "id": "g0", "at": 86310, "duration": 100 } ],
              "road": { "language": "en",
                "route": { "points": [ { "lat": 37.5, "lon": 127.0 }, { "lat": 37.5, "lon": 127.017 } ],
                           "maneuvers": [ { "id": "end", "lat": 37.5, "lon": 127.017, "turn": "arrive" } ] },
                "drive": { "start": 86280, "speeds": [ { "from": 0, "kmh": 50 } ] } } }
            """#, "midnight.json", in: folder)
        // Version 1: one 2 s line, expiring never, in the first span from 23:59:40 on.
        let guidance =
            "python3 "
            + Fixtures.write(
                """
                import json, sys
                said = False
                for raw in sys.stdin:
                    msg = json.loads(raw)
                    if msg["type"] == "hello":
                        print(json.dumps({"type": "hello", "guidance": 1}), flush=True)
                    elif msg["type"] == "route":
                        said = False
                    elif msg["type"] == "span":
                        lines = []
                        if not said and msg["from"] >= 86380000:
                            said = True
                            lines.append({"id": "careful", "maneuver": 0, "stage": "far", "at": msg["from"], "text": "Drive carefully.",
                                          "duration": 2000, "urgent": False, "expires": None})
                        print(json.dumps({"type": "lines", "lines": lines, "skipped": []}), flush=True)

                """, "careful.py", in: folder)
        let run = Fixtures.drivesim("run", file, "--guidance", guidance)
        // Its checks fail for what it never says ("now" lines, distances), never for a rule or an invariant.
        #expect(run.code == 1 && !run.stderr.contains("rule ") && !run.stderr.contains("invariant "), "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(
            lines.contains {
                $0.hasPrefix("23:59:58.001") && $0.contains("dropped") && $0.contains("careful")
                    && $0.contains("[stale]")
            }, "\(run.stdout)")
        #expect(!lines.contains { $0.hasPrefix("24:") && $0.contains("started") }, "\(run.stdout)")
    }

    @Test func theFixedDistanceBreakIsCaughtAtMotorwaySpeedAndInATunnel() {
        let motorway = Fixtures.drivesim("check", Self.road("highway-120"), "--guidance", Self.broken)
        #expect(motorway.code == 1 && motorway.stderr.contains("road line-after-maneuver"), "\(motorway.stderr)")
        let tunnel = Fixtures.drivesim("check", Self.road("gps-gap"), "--guidance", Self.broken)
        #expect(
            tunnel.code == 1 && tunnel.stderr.contains("road now-line") && tunnel.stderr.contains("does not say why"),
            "\(tunnel.stderr)")
    }

    @Test func aRoadFuzzCampaignShrinksTheBreakToReproducersThatReplayFromTheirLine() throws {
        let out = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim(
            "fuzz", "--road", "--runs", String(TestScale.size(40, quick: 15)), "--out", out, "--guidance", Self.broken)
        #expect(result.code == 1, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            #expect(
                result.stderr.contains("drivesim run \(out)/\(file) --guidance '\(Self.broken)'"), "\(result.stderr)")
            #expect(Fixtures.drivesim("run", out + "/" + file, "--guidance", Self.broken).code == 1)
            #expect(Fixtures.drivesim("run", out + "/" + file, "--guidance", Self.python).code == 0, "\(file)")
        }
    }

    @Test func anotherVersionOrNoGuidanceHelloExitsTwoNamingIt() throws {
        let other = Fixtures.drivesim(
            "check", Self.road("highway-120"), "--guidance",
            try Self.script("{}", hello: "{\"type\":\"hello\",\"guidance\":4}"))
        #expect(
            other.code == 2
                && other.stderr.contains("it speaks guidance protocol version 4; this drivesim speaks 1 to 3"),
            "\(other.stderr)")
        // An arbiter given as a guidance says the arbiter's hello.
        let arbiter = Fixtures.drivesim(
            "check", Self.road("highway-120"), "--guidance",
            try Self.script("{}", hello: "{\"type\":\"hello\",\"protocol\":4}"))
        #expect(
            arbiter.code == 2 && arbiter.stderr.contains("something else than a hello with 'guidance'"),
            "\(arbiter.stderr)")
        let missing = Fixtures.drivesim("run", Self.road("highway-120"), "--guidance", "no-such-guidance-command-xyz")
        #expect(
            missing.code == 2 && missing.stderr.contains("the guidance 'no-such-guidance-command-xyz' cannot be used"))
    }

    @Test func anAnswerThatCannotBeSpokenFailsTheRunNamingItsPath() throws {
        let outside = try Self.script(
            "{\"type\":\"lines\",\"lines\":[{\"id\":\"x\",\"maneuver\":0,\"stage\":\"far\",\"at\":0,\"text\":\"hi\"}]}")
        let result = Fixtures.drivesim("check", Self.road("highway-120"), "--guidance", outside)
        #expect(
            result.code == 1
                && result.stderr.contains(
                    "guidance process broken at 00:00.200: the guidance process failed: it answered the span from 200 ms"
                ), "\(result.stderr)")
        #expect(result.stderr.contains("lines[0].at: expected a time in the span"), "\(result.stderr)")
        let maneuver = try Self.script(
            "{\"type\":\"lines\",\"lines\":[{\"id\":\"x\",\"maneuver\":99,\"stage\":\"far\",\"at\":0,\"text\":\"hi\"}]}"
        )
        #expect(
            Fixtures.drivesim("check", Self.road("highway-120"), "--guidance", maneuver).stderr.contains(
                "lines[0].maneuver: expected a maneuver's index, 0 to 1"))
        let garbage = try Self.script("not json")
        #expect(
            Fixtures.drivesim("check", Self.road("highway-120"), "--guidance", garbage).stderr.contains(
                "not a JSON object: 'not json'"))
    }

    /// A guidance in Python that answers the spans ending after 23:59:59 with a line of `duration` ms at the span's last millisecond.
    static func lateTalker(duration: Int) throws -> String {
        let folder = try Fixtures.temporaryFolder()
        let source = """
            import json, sys
            print(json.dumps({"type": "hello", "guidance": 1}), flush=True)
            n = 0
            for raw in sys.stdin:
                m = json.loads(raw)
                if m["type"] == "hello" or m["type"] == "route": continue
                lines = []
                if m["until"] > 86399000:
                    n += 1
                    lines = [{"id": "late%d" % n, "maneuver": 0, "stage": "far", "at": m["until"] - 1, "text": "Late.", "duration": \(duration)}]
                print(json.dumps({"type": "lines", "lines": lines}), flush=True)
            """
        return "python3 " + Fixtures.write(source, "late.py", in: folder)
    }

    @Test func aDriveEndingAtMidnightAsksNoSpanAfter24HoursAndALineEndingAfterItFailsTheRun() throws {
        let midnight = Self.road("drive-ends-at-midnight")
        // Spans end by 24 h: a line at a span's end is at 23:59:59.999 at the latest (one after 24 h trapped).
        let short = Fixtures.drivesim("run", midnight, "--guidance", try Self.lateTalker(duration: 1))
        #expect(short.code == 1 && !short.stderr.contains("guidance process"), "\(short.stderr)")
        #expect(
            short.stdout.contains("late1") && short.stdout.contains("24:00:00.000  guidance  ended              late1"),
            "\(short.stdout)")
        // Only the ears' tail after the last line (the arbiter's, as after any scenario line) follows 24 h.
        let after = short.stdout.split(separator: "\n").filter { $0.hasPrefix("24:") && !$0.hasPrefix("24:00:00.000") }
        #expect(after.map { $0.contains("ears      opened") } == [true], "\(after)")
        let hour = Fixtures.drivesim("run", midnight, "--guidance", try Self.lateTalker(duration: 3_600_000))
        #expect(
            hour.code == 1 && hour.stderr.contains("lines[0].duration: the line would end at")
                && hour.stderr.contains("after the drive's end at 24 h"), "\(hour.stderr)")
        #expect(!hour.stdout.contains("24:"), "\(hour.stdout)")
    }

    @Test func aProcessGivenUpMidDriveFailsEveryFileAfterItNeverPassesThemUntested() throws {
        let folder = try Fixtures.temporaryFolder()
        let hangs =
            "python3 "
            + Fixtures.write(
                """
                import json, sys, time
                print(json.dumps({"type": "hello", "guidance": 1}), flush=True)
                for raw in sys.stdin:
                    m = json.loads(raw)
                    if m["type"] != "span": continue
                    if m["from"] > 30000: time.sleep(600)
                    print(json.dumps({"type": "lines"}), flush=True)
                """, "hangs.py", in: folder)
        let result = Fixtures.drivesim(
            "check", Self.road("highway-120"), Self.road("gps-gap"), Self.road("seoul-city-ko"),
            "--guidance", hangs, "--guidance-timeout", "1")
        #expect(result.code == 1 && result.stdout.contains("0 passed, 3 failed"), "\(result.stdout)")
        #expect(
            result.stderr.components(
                separatedBy: "not asked: the process was given up when it did not answer within 1 s"
            ).count == 3, "\(result.stderr)")
    }

    @Test func aLineTakingTheScenariosIDFailsLineID() throws {
        let folder = try Fixtures.temporaryFolder()
        let named =
            "python3 "
            + Fixtures.write(
                """
                import json, sys
                print(json.dumps({"type": "hello", "guidance": 1}), flush=True)
                said = False
                for raw in sys.stdin:
                    m = json.loads(raw)
                    if m["type"] != "span": continue
                    lines = [] if said else [{"id": "exit", "maneuver": 0, "stage": "far", "at": m["from"], "text": "In 2 kilometers, exit."}]
                    said = True
                    print(json.dumps({"type": "lines", "lines": lines}), flush=True)
                """, "named.py", in: folder)
        let result = Fixtures.drivesim("run", Self.road("highway-120"), "--guidance", named)
        #expect(
            result.code == 1
                && result.stderr.contains(
                    "road line-id broken at 00:00.200: generated line exit takes an id the scenario or an earlier line has"
                ), "\(result.stderr)")
    }

    @Test func aProcessFailureInFuzzIsFiledWithItsReasonRunAndAReproducerThatReplays() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = try Fixtures.temporaryFolder()
        // Correct but for one answer: from 20 s on, a line before its span.
        let command =
            "python3 "
            + Fixtures.write(
                """
                import json, sys
                print(json.dumps({"type": "hello", "guidance": 1}), flush=True)
                for raw in sys.stdin:
                    m = json.loads(raw)
                    if m["type"] != "span": continue
                    late = m["from"] > 20000
                    print(json.dumps({"type": "lines", "lines": [{"id": "x", "maneuver": 0, "stage": "far", "at": -5, "text": "x"}] if late else []}), flush=True)
                """, "wrong.py", in: folder)
        let result = Fixtures.drivesim("fuzz", "--road", "--runs", "30", "--out", out, "--guidance", command)
        #expect(result.code == 1)
        let filed = try #require(
            result.stderr.split(separator: "\n").first { $0.hasPrefix("FAIL run") && $0.contains("guidance process") },
            "\(result.stderr)")
        #expect(filed.contains("lines[0].at: expected a time in the span"), "\(filed)")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasPrefix("guidance-process-") })
        #expect(result.stderr.contains("drivesim run \(out)/\(file) --guidance '\(command)'"), "\(result.stderr)")
        let replay = Fixtures.drivesim("run", out + "/" + file, "--guidance", command)
        #expect(replay.code == 1 && replay.stderr.contains("guidance process"), "\(replay.stderr)")
    }

    @Test
    func protocol2SendsEveryManeuverDetailAndTheSettingsAndAsksWhyATurnWentUnannouncedProtocol1NeitherButStillRuns()
        throws
    {
        let folder = try Fixtures.temporaryFolder()
        let two = folder + "/two.log"
        let one = folder + "/one.log"
        let drive = Self.road("waypoint-u-turn")
        let asked = Fixtures.drivesim(
            "run", drive, "--guidance", try Fixtures.silentGuidance(version: 2, log: two, unannounced: "\"late\""))
        let said = try String(contentsOfFile: two, encoding: .utf8)
        #expect(
            said.contains("\"uTurn\":true") && said.contains("\"thenWithin\":") && said.contains("\"horizon\":120000"),
            "\(said.prefix(2000))")
        #expect(said.contains("{\"maneuver\":0,\"type\":\"unannounced\"}"), "\(said.suffix(500))")
        // Silent, and it says why at each pass: late. The waypoint's claim is not judged (said on reaching
        // it); m2's is false: a fix showed its "now" stage due with the time to say it.
        #expect(asked.stdout.contains("turn unannounced") && asked.stdout.contains("[late]"), "\(asked.stdout)")
        #expect(
            asked.code == 1 && asked.stderr.contains("road late-claim broken at 05:53.886: m2 was passed"),
            "\(asked.stderr)")
        let old = Fixtures.drivesim("run", drive, "--guidance", try Fixtures.silentGuidance(version: 1, log: one))
        let oldSaid = try String(contentsOfFile: one, encoding: .utf8)
        #expect(
            !oldSaid.contains("\"uTurn\"") && !oldSaid.contains("unannounced") && !oldSaid.contains("thenWithin"),
            "\(oldSaid.prefix(2000))")
        #expect(old.code == 1 && old.stderr.contains("road now-line"), "\(old.stderr)")
        let wrong = Fixtures.drivesim(
            "run", drive, "--guidance", try Fixtures.silentGuidance(version: 2, log: two, unannounced: "\"no-fix\""))
        #expect(
            wrong.code == 1 && wrong.stderr.contains("reason: expected \"late\", \"then\" or null"), "\(wrong.stderr)")
    }

    /// A version 3 silent guidance that says `late` for a turn unannounced and `line` (JSON) for the switch.
    static func switcher(line: String, log: String) throws -> String {
        try Fixtures.silentGuidance(
            version: 3, log: log, unannounced: "\"late\"", switching: #"{"type": "switching", "line": "# + line + "}")
    }

    @Test func protocol3SaysTheChangeAndAVersion3SwitchLineIsOnTheTimelineInBothLanguages() throws {
        let log = try Fixtures.temporaryFolder() + "/three.log"
        let handoff = Self.road("handoff-through-an-outage")
        let run = Fixtures.drivesim(
            "run", handoff, "--guidance",
            try Self.switcher(line: "{\"id\": \"mine\", \"text\": \"Off to the station.\"}", log: log))
        #expect(run.stdout.contains("mine urgent \"Off to the station.\""), "\(run.stdout)")
        let said = try String(contentsOfFile: log, encoding: .utf8)
        #expect(
            said.contains("\"change\":null")
                && said.contains(
                    "\"change\":{\"at\":31300,\"destination\":\"the petrol station on Teheran-ro\",\"handoff\":true,\"id\":\"h1\"}"
                ), "\(said.prefix(3000))")
        #expect(said.contains("{\"at\":31300,\"change\":\"h1\",\"type\":\"switching\"}"), "\(said.suffix(3000))")
        // The Python example says the switch lines itself, in English and Korean.
        let en = Fixtures.drivesim("run", handoff, "--guidance", Self.python)
        #expect(
            en.stdout.contains("h1.switched urgent \"Guiding you to the petrol station on Teheran-ro.\""),
            "\(en.stdout)")
        let ko = Fixtures.drivesim("run", Self.road("handoff-unknown-place-ko"), "--guidance", Self.python)
        #expect(ko.stdout.contains("h1.switched urgent \"새로운 경로로 안내합니다.\""), "\(ko.stdout)")
        // Version 2 is not asked and hears no change.
        let two = try Fixtures.temporaryFolder() + "/two.log"
        _ = Fixtures.drivesim("run", handoff, "--guidance", try Fixtures.silentGuidance(version: 2, log: two))
        let twoSaid = try String(contentsOfFile: two, encoding: .utf8)
        #expect(!twoSaid.contains("\"change\"") && !twoSaid.contains("switching"), "\(twoSaid.suffix(2000))")
    }

    @Test
    func aProcessGetsWhatDrivesimsOwnGetsAtASwitchItsWaitingLineDroppedSwitchedItsSwitchLineSkippedOutsideGuidance() {
        let waits = Fixtures.drivesim("run", Self.road("handoff-while-a-line-waits"), "--guidance", Self.python)
        let drop = waits.stdout.split(separator: "\n").first {
            $0.contains("guidance  dropped") && $0.contains("m1.far")
        }
        #expect(
            waits.code == 0 && drop?.hasPrefix("01:12.500") == true && drop?.hasSuffix("[stale: switched]") == true,
            "\(waits.stdout)")
        let outside = Fixtures.drivesim("run", Self.road("handoff-outside-guidance"), "--guidance", Self.python)
        #expect(
            outside.code == 0
                && outside.stdout.contains(
                    "01:12.500  road      switch skipped     h1                                   [not-guiding]"),
            "\(outside.stdout)")
    }

    @Test func aMalformedSwitchAnswerIsRefusedWithItsPath() throws {
        let log = try Fixtures.temporaryFolder() + "/bad.log"
        let handoff = Self.road("handoff-through-an-outage")
        let noText = Fixtures.drivesim(
            "run", handoff, "--guidance", try Self.switcher(line: "{\"id\": \"mine\"}", log: log))
        #expect(
            noText.code == 1 && noText.stderr.contains("guidance process")
                && noText.stderr.contains(
                    "it answered the switching question at 31300 ms: line.text: expected the words"),
            "\(noText.stderr)")
        let expiry = Fixtures.drivesim(
            "run", handoff, "--guidance",
            try Self.switcher(line: "{\"id\": \"mine\", \"text\": \"hi\", \"expires\": 5}", log: log))
        #expect(
            expiry.code == 1
                && expiry.stderr.contains("line.expires: expected null or a time later than the switch (31300 ms)"),
            "\(expiry.stderr)")
        let notALine = Fixtures.drivesim("run", handoff, "--guidance", try Self.switcher(line: "7", log: log))
        #expect(
            notALine.code == 1 && notALine.stderr.contains("line: expected null or an object"), "\(notALine.stderr)")
    }

    /// Each bug class an app team may ship, as the Python example's `--break` mode, caught by its check.
    @Test(arguments: [
        ("next-words", "seoul-city-ko", "road line-words"), ("late-lies", "seoul-city-ko", "road late-claim"),
        ("silent-late", "highway-120", "road late-claim"),
        ("miles", "highway-120", "road line-words"),
        ("no-revisions", "near-line-rephrased-after-a-tunnel", "road spoken-distance"),
        ("old-distances", "reroute-onto-another-road", "road spoken-distance"),
        ("switch-elsewhere", "handoff-through-an-outage", "road switch-line"),
    ])
    func eachBrokenGuidanceIsCaughtByItsCheck(mode: String, scenario: String, check: String) {
        let result = Fixtures.drivesim("check", Self.road(scenario), "--guidance", Self.python + " --break " + mode)
        #expect(result.code == 1 && result.stderr.contains("\(check) broken"), "\(result.stderr)")
        #expect(Fixtures.drivesim("check", Self.road(scenario), "--guidance", Self.python).code == 0)
    }

    @Test func aReplayLineRunsACommandWithRelativePathsFromTheFolderItWasFoundIn() throws {
        let cwd = FileManager.default.currentDirectoryPath
        // `swift test` runs in the package's root, where the example is at a relative path.
        let relative = "python3 Examples/python-guidance/guidance.py --break next-words"
        try #require(FileManager.default.fileExists(atPath: "Examples/python-guidance/guidance.py"))
        #expect(replayable(relative) == "cd \(shellQuoted(cwd)) && \(relative)")
        #expect(replayable(Self.python) == Self.python)
        #expect(replayable("sh -c 'exit 1'") == "sh -c 'exit 1'")
        let out = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim("fuzz", "--road", "--runs", "30", "--out", out, "--guidance", relative)
        #expect(result.code == 1 && result.stderr.contains("--guidance '\(replayable(relative))'"), "\(result.stderr)")
    }

    @Test func aGuidanceThatSaysNothingFailsNowLineNotSilently() throws {
        let silent = try Self.script("{\"type\":\"lines\",\"lines\":[]}")
        let result = Fixtures.drivesim("check", Self.road("highway-120"), "--guidance", silent)
        #expect(
            result.code == 1 && result.stderr.contains("road now-line") && !result.stderr.contains("guidance process"),
            "\(result.stderr)")
    }

    @Test func aMutantIsRefusedWithAGuidance() {
        let result = Fixtures.drivesim(
            "run", Self.road("highway-120"), "--guidance", Self.python, "--mutant", "expiry-ignored")
        #expect(
            result.code == 2 && result.stderr.contains("'--mutant' and '--guidance' cannot be given together"),
            "\(result.stderr)")
    }
}
