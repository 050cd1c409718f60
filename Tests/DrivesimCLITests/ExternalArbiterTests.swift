import CLITestSupport
import Foundation
import Fuzzing
import ScenarioFormat
import SimRunner
import TalkArbiter
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import ExternalProcess

/// `--arbiter "COMMAND"`: an arbiter in another process (docs/arbiter-protocol.md).
/// Serialized: the command's process is one per command line.
@Suite(.serialized) struct ExternalArbiterTests {
    static let python = "python3 \(Fixtures.path("Examples/python-arbiter/arbiter.py"))"
    static let scenario = Fixtures.path("Scenarios/after-cut-drop.json")

    /// Runs the command line on `arguments`.
    static func drivesim(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        var console = Console.captured
        let code = Drivesim.main(arguments, console: &console)
        return (code, console.stdout, console.stderr)
    }

    /// A shell script in a fresh folder, to run as the arbiter.
    static func script(_ body: String) throws -> String {
        let folder = try Fixtures.temporaryFolder()
        return "sh " + Fixtures.write(body, "arbiter.sh", in: folder)
    }

    @Test func aCommandThatDoesNotExistExitsTwoNamingIt() {
        let result = Fixtures.drivesim("check", Self.scenario, "--arbiter", "no-such-arbiter-command-xyz")
        #expect(result.code == 2)
        // The shell exits at once: whether drivesim finds that out writing the hello or
        // reading the answer, it is told by the exit.
        #expect(result.stderr.contains("no-such-arbiter-command-xyz"))
        #expect(result.stderr.contains("it exited before answering (exit status 127)"), "\(result.stderr)")
        #expect(
            thrown(["run", Self.scenario, "--arbiter", "exit 3"]).map {
                if case .arbiterProcess(command: "exit 3", _) = $0 { true } else { false }
            } == true)
    }

    @Test func anUnknownProtocolVersionExitsTwo() throws {
        let command = try Self.script("read line; echo '{\"type\":\"hello\",\"protocol\":99}'; cat > /dev/null\n")
        let result = Fixtures.drivesim("check", Self.scenario, "--arbiter", command)
        #expect(result.code == 2 && result.stderr.contains("protocol version 99"))
    }

    @Test func anArbiterOfProtocolThreeIsRefusedNamingBothVersions() throws {
        let command = try Self.script("read line; echo '{\"type\":\"hello\",\"protocol\":3}'; cat > /dev/null\n")
        let result = Fixtures.drivesim("check", Self.scenario, "--arbiter", command)
        #expect(
            result.code == 2 && result.stderr.contains("it speaks protocol version 3; this drivesim speaks 4"),
            "\(result.stderr)")
    }

    @Test func anArbiterThatPrintsGarbageFailsTheRunWithAReason() throws {
        let command = try Self.script(
            "read line; echo '{\"type\":\"hello\",\"protocol\":4}'; echo oops >&2; while read line; do echo 'not json'; done\n"
        )
        let result = Fixtures.drivesim(
            "check", Self.scenario, Fixtures.path("Scenarios/after-cut-repeat.json"), "--arbiter", command)
        #expect(result.code == 1)
        #expect(result.stdout.contains("0 passed, 2 failed"))
        #expect(result.stderr.contains("arbiter process") && result.stderr.contains("not a JSON object: 'not json'"))
        #expect(result.stderr.contains("oops"))
    }

    @Test func anArbiterThatCrashesMidRunFailsTheRunAndTheNextRunRestartsIt() throws {
        // Says hello, then dies on its first instant; restarted for the second scenario.
        let command = try Self.script(
            "read line; echo '{\"type\":\"hello\",\"protocol\":4}'; read tables; read instant; echo dying >&2; exit 7\n"
        )
        let result = Fixtures.drivesim(
            "check", Self.scenario, Fixtures.path("Scenarios/after-cut-repeat.json"), "--arbiter", command)
        #expect(result.code == 1 && result.stdout.contains("0 passed, 2 failed"))
        #expect(result.stderr.contains("exit status 7") && result.stderr.contains("dying"))
        // Only the failure: not what the checks found in the run cut short (items that never
        // end, the scenario's expectations, a golden timeline that differs), which are said not judged.
        let findings = result.stderr.split(separator: "\n").filter { !$0.contains(": not judged: ") }.joined(
            separator: "\n")
        #expect(
            !findings.contains("invariant 6") && !findings.contains("expect[") && !findings.contains("golden"),
            "\(result.stderr)")
        #expect(result.stderr.contains("and the golden timeline: the arbiter process failed at"), "\(result.stderr)")
    }

    @Test func anArbiterThatHangsFailsTheRunAfterItsTimeout() throws {
        let command = try Self.script("read line; echo '{\"type\":\"hello\",\"protocol\":4}'; sleep 5\n")
        let result = Self.drivesim(["check", Self.scenario, "--arbiter", command, "--arbiter-timeout", "1"])
        #expect(result.code == 1 && result.stderr.contains("did not answer within 1 s"))
    }

    /// A process that says hello, then answers every `run` message with `run` and every `instant` with `instant`.
    static func answering(run: String, instant: String) throws -> String {
        try script(
            """
            read line; echo '{"type":"hello","protocol":4}'
            while read line; do case "$line" in *'"type":"run"'*) echo '\(run)';; *'"type":"instant"'*) echo '\(instant)';; esac; done

            """)
    }

    /// A well formed answer to after-cut-drop's run (five instants, the first of three inputs) that is not the reference's: the run is then asked instant by instant.
    static let partedRun =
        #"{"type":"actions","instants":[{"each":[[],[],[]],"end":[],"idle":true}"#
        + String(repeating: #",{"each":[[]],"end":[],"idle":true}"#, count: 4) + "]}"

    @Test(arguments: [
        (#"{"type":"actions","each":[]}"#, "with 0 action lists for 3 inputs"),
        (#"{"type":"actions","each":[[],[],[]]}"#, "without the end of the instant"),
        (#"{"type":"hello","protocol":3}"#, "out of turn"),
        (
            #"{"type":"actions","each":[[{"do":"sing"}],[],[]],"end":[],"idle":true}"#,
            "an action drivesim does not know"
        ),
        (
            #"{"type":"actions","each":[[{"do":"lineDropped","line":0,"rule":"short-wait"}],[],[]],"end":[],"idle":true}"#,
            "with a lineDropped whose rule 'short-wait' is not one it can carry (superseded or stale)"
        ),
        (
            #"{"type":"actions","each":[[{"do":"stretchCut","reply":0,"stretch":0,"rule":"stale","by":{"line":0},"played":0,"then":null}],[],[]],"end":[],"idle":true}"#,
            "with a stretchCut whose rule 'stale' is not one it can carry (urgent-cut or long-cut or barge-in)"
        ),
        (#"{"type":"actions","each":[[],[],[]],"end":{},"idle":true}"#, "an action list that is not an array"),
    ])
    func anAnswerOfTheWrongShapeFailsTheRunNamingIt(answer: String, reason: String) throws {
        // after-cut-drop's first instant has three inputs (the reply and its two chunks) and ends.
        // Its run, answered well but not as foretold, is asked instant by instant.
        let result = Self.drivesim([
            "check", Self.scenario, "--arbiter", try Self.answering(run: Self.partedRun, instant: answer),
        ])
        #expect(result.code == 1 && result.stderr.contains("arbiter process"), "\(result.stderr)")
        #expect(result.stderr.contains("the instant at 0 ms") && result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test(arguments: [
        ("not json", "not a JSON object: 'not json'"),
        (#"{"type":"actions","each":[[],[],[]],"end":[],"idle":true}"#, "the run of 5 instants from 0 ms out of turn"),
        (#"{"type":"hello","protocol":4}"#, "the run of 5 instants from 0 ms out of turn"),
        (#"{"type":"actions","instants":[]}"#, "the run of 5 instants from 0 ms with 0 answers for 5 instants"),
        (#"{"type":"actions","instants":[{"each":[[],[],[]],"end":[],"idle":true}]}"#, "with 1 answer for 5 instants"),
        (
            #"{"type":"actions","instants":[{"each":[]},{},{},{},{}]}"#,
            "the instant at 0 ms of the run with 0 action lists for 3 inputs"
        ),
        (
            #"{"type":"actions","instants":[[],[],[],[],[]]}"#,
            "the instant at 0 ms of the run with something else than an object with 'each'"
        ),
        (
            #"{"type":"actions","instants":[{"each":[[],[],[]]},{},{},{},{}]}"#,
            "the instant at 0 ms of the run without the end of the instant"
        ),
    ])
    func anAnswerToARunOfTheWrongShapeFailsTheRunNamingIt(answer: String, reason: String) throws {
        let result = Self.drivesim([
            "check", Self.scenario, "--arbiter", try Self.answering(run: answer, instant: "{}"),
        ])
        #expect(result.code == 1 && result.stderr.contains("arbiter process"), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test func aMalformedAnswerToOneRunFailsThatRunAloneAndTheNextRunRestartsTheProcess() throws {
        // Answer lines: 1 the hello, 2 and 3 the first scenario's two runs, 4 and 5 the second's; the first of the second is cut short.
        // The third scenario's process is a new one, counting from 1 again.
        let short = #"{"type":"actions","instants":[]}"#
        let command = Self.python + " | sed -u '4s/.*/\(short)/'"
        let second = Fixtures.path("Scenarios/after-cut-repeat.json")
        let third = Fixtures.path("Scenarios/after-cut-skip.json")
        let result = Self.drivesim(["check", Self.scenario, second, third, "--arbiter", command])
        #expect(result.code == 1 && result.stdout.contains("2 passed, 1 failed"), "\(result.stdout)")
        #expect(
            result.stdout.contains("PASS  \(Self.scenario)") && result.stdout.contains("FAIL  \(second)")
                && result.stdout.contains("PASS  \(third)"), "\(result.stdout)")
        #expect(
            result.stderr.contains("the arbiter process failed: it answered the run of")
                && result.stderr.contains("with 0 answers for"),
            "\(result.stderr)")
    }

    @Test func aForetoldRunGoesOutAsOneRunMessageAndIsAnsweredInOneLine() throws {
        let folder = try Fixtures.temporaryFolder()
        let sent = folder + "/sent.txt"
        let answered = folder + "/answered.txt"
        let command = "tee \(sent) | \(Self.python) | tee \(answered)"
        let result = Self.drivesim(["check", Self.scenario, "--arbiter", command])
        #expect(result.code == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: sent, encoding: .utf8).split(separator: "\n").map(String.init)
        let run =
            #"{"type":"run","instants":[{"t":0,"inputs":[["replyBegan",0],["chunkReady",0],["chunkReady",1]]},"#
            + #"{"t":1000,"inputs":[["lineRequested",0]]},{"t":2000,"inputs":[["lineEnded",0]]},"#
            + #"{"t":2500,"inputs":[["earsTimer",null]]},{"t":6000,"inputs":[["stretchEnded",0]]}]}"#
        #expect(lines.count == 5 && lines[0] == #"{"type":"hello","protocol":4}"#)
        #expect(
            lines.count == 5 && lines[2] == run && lines[4] == run && lines[1] == lines[3]
                && lines[1].hasPrefix(#"{"type":"tables","#))
        let answers = try String(contentsOfFile: answered, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            answers.count == 3 && answers[1] == answers[2]
                && answers[1].hasPrefix(
                    #"{"type":"actions","instants":[{"each":[[{"do":"replyBegan","reply":0}],[],[]],"end":["#)
        )
    }

    @Test func anInputTheBatchDidNotAnnounceFailsTheRunRatherThanTakeAnotherAnswer() throws {
        let process = ArbiterProcess(command: Self.python, timeoutMs: 5000)
        try process.start()
        defer { process.stop() }
        let tables = try ArbiterTables(
            settings: .init(), lines: [.init(duration: .init(ms: 1000)), .init(duration: .init(ms: 1000))], replies: [],
            stretchDurations: [], utterances: 0)
        process.beginRun(tables)
        process.announce([.lineRequested(0)], ends: true, at: .zero)
        var actions: [TalkArbiter.Action] = []
        process.deliver(.lineRequested(1), at: .zero, into: &actions)
        #expect(actions.isEmpty)
        #expect(
            process.takeFailure()?.description.contains(
                "drivesim delivered [\"lineRequested\",1] at 0 ms where its batch announced [\"lineRequested\",0]")
                == true)
        // Restarted for the next run: an input after the message that ended the instant is caught too.
        process.beginRun(tables)
        process.announce([.lineRequested(0)], ends: true, at: .zero)
        process.deliver(.lineRequested(0), at: .zero, into: &actions)
        #expect(actions.isEmpty, "no action: the line starts at the end of the instant")
        process.deliver(.lineRequested(1), at: .zero, into: &actions)
        #expect(process.takeFailure()?.description.contains("after the message that ended the instant") == true)
    }

    @Test func thePythonExamplePassesScenarios() {
        let files = ["after-cut-drop", "after-cut-repeat", "after-cut-skip"].map {
            Fixtures.path("Scenarios/\($0).json")
        }
        let result = Self.drivesim(["check"] + files + ["--arbiter", Self.python])
        #expect(result.code == 0 && result.stdout.contains("3 passed, 0 failed"))
    }

    @Test func anArbiterProcessFailureInFuzzIsFiledWithAReproducerThatReplays() throws {
        let folder = try Fixtures.temporaryFolder()
        // Says its hello, then exits on the first run's first instant.
        let command = try Self.script(
            #"read line; echo '{"type":"hello","protocol":4}'"# + "\nread tables; read instant; exit 3\n")
        let result = Self.drivesim(["fuzz", "--runs", "20", "--out", folder, "--arbiter", command])
        #expect(result.code == 1)
        let filed = try #require(
            result.stderr.split(separator: "\n").first { $0.hasPrefix("FAIL run") && $0.contains("arbiter process") },
            "\(result.stderr)")
        #expect(filed.contains("exit"), "\(filed)")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("arbiter-process-") })
        #expect(result.stderr.contains("drivesim run \(folder)/\(file) --arbiter '\(command)'"), "\(result.stderr)")
        let replay = Self.drivesim(["run", folder + "/" + file, "--arbiter", command])
        #expect(replay.code == 1, "\(file) does not replay: \(replay.stdout)\(replay.stderr)")
    }

    @Test func thePythonExampleBrokenFailsAFuzzCampaign() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Self.drivesim([
            "fuzz", "--runs", "200", "--out", folder, "--arbiter", Self.python + " --break short-wait",
        ])
        #expect(
            result.code == 1
                && (result.stdout + result.stderr).contains("--arbiter '\(Self.python) --break short-wait'"))
    }
    /// Every reproducer replays as printed: its description's `Replay:` line
    /// names the arbiter, and `run` with it fails again, decision by decision
    /// for a divergence that the timeline alone does not show.
    @Test(arguments: ["short-wait", "eager-stretch"])
    func everyReproducerOfABrokenArbiterFailsAgainWhenItsReplayLineIsRun(breaking rule: String) throws {
        let folder = try Fixtures.temporaryFolder()
        let command = Self.python + " --break " + rule
        let result = Self.drivesim(["fuzz", "--runs", "300", "--out", folder, "--arbiter", command])
        #expect(result.code == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            .sorted()
        try #require(!files.isEmpty)
        var divergenceOnly = 0
        for name in files {
            let scenario = try ScenarioFiles.load(folder + "/" + name).get()
            let description = try #require(scenario.description)
            #expect(description.contains("Replay: drivesim run \(name) --arbiter '\(command)'."), "\(description)")
            #expect(result.stderr.contains("drivesim run \(folder)/\(name) --arbiter '\(command)'"))
            let replay = Self.drivesim(["run", folder + "/" + name, "--arbiter", command])
            #expect(replay.code == 1, "\(name) does not replay")
            if Self.drivesim(["run", folder + "/" + name, "--arbiter", command, "--timeline-only"]).code == 0 {
                divergenceOnly += 1
            }
            #expect(
                Self.drivesim(["run", folder + "/" + name, "--arbiter", Self.python]).code == 0,
                "the correct arbiter passes \(name)")
        }
        if rule == "eager-stretch" { #expect(divergenceOnly > 0, "a divergence the timeline does not show") }
    }

    @Test func timelineOnlyNeedsAnArbiter() {
        let result = Self.drivesim(["run", Self.scenario, "--timeline-only"])
        #expect(
            result.code == 2 && result.stderr.contains("'--timeline-only' applies only with '--arbiter'"),
            "\(result.stderr)")
    }

    @Test func aReplayLineQuotesAnArbiterCommandForAPOSIXShell() {
        #expect(shellQuoted("python3") == "python3")
        #expect(shellQuoted("python3 a.py") == "'python3 a.py'")
        #expect(shellQuoted("echo 'hi'") == #"'echo '\''hi'\'''"#)
        #expect(shellQuoted("") == "''")
    }
}

/// The canonical answer (docs/arbiter-protocol.md): an answer line equal to
/// the canonical form of the answer foretold is taken without parsing; any
/// other well formed answer is parsed and checked as before.
extension ExternalArbiterTests {
    static let canonicalNames = ["after-cut-drop", "barge-in", "held", "reply-queue", "dad-reply-heard", "stale"]

    /// The verdicts of `files` with the arbiter `command`, and how many answer lines it had to parse.
    static func verdicts(_ command: String) throws -> (passed: Bool, parsed: Int) {
        let process = ArbiterProcess(command: command, timeoutMs: 5000)
        try process.start()
        defer { process.stop() }
        var passed = true
        for name in canonicalNames {
            let verdict = process.verdict(try Fixtures.scenario(name), differential: true)
            passed = passed && verdict.passed
        }
        return (passed, process.parsedAnswers)
    }

    @Test func thePythonExampleAnswersInTheCanonicalFormSoNoAnswerIsParsed() throws {
        let result = try Self.verdicts(Self.python)
        #expect(result.passed && result.parsed == 0)
    }

    @Test func answersSpacedOutAreParsedAndStillPass() throws {
        // The same answers with a space after every colon: not canonical, just as good.
        let result = try Self.verdicts(Self.python + " | sed -u 's/\":/\": /g'")
        #expect(result.passed && result.parsed > 0)
    }

    @Test func theCanonicalFormOfEveryAnswerAndEveryRunsAnswerOfTheCorpusAndOfFuzzScenariosReadsBackAsThatAnswer()
        throws
    {
        let process = ArbiterProcess(command: "true", timeoutMs: 1000)
        var scenarios = try Fixtures.scenarioFiles.map { try ScenarioFiles.load($0.path).get() }
        scenarios += (0..<TestScale.size(500, quick: 150)).map {
            Fuzzer.scenario(campaign: 1, run: $0, mutant: nil, road: $0 % 5 == 0)
        }
        var count = 0
        for scenario in scenarios {
            let log = BatchedArbiter<TalkArbiter>.Log()
            _ = Simulation(scenario, roster: nil, recordingDecisions: false) {
                BatchedArbiter(TalkArbiter($0), log: log)
            }
            var run: [UInt8] = []
            ArbiterProcess.encodeRunAnswer(log.messages, into: &run)
            let answers = process.runAnswer(run[...], log.messages)
            #expect(
                answers.map { $0.map(\.each) } == log.messages.map(\.each)
                    && answers.map { $0.map(\.end) } == log.messages.map(\.end)
                    && answers.map { $0.map(\.idle) } == log.messages.map(\.idle),
                "\(String(decoding: run, as: UTF8.self))")
            for message in log.messages {
                var bytes: [UInt8] = []
                ArbiterProcess.encodeAnswer(message, into: &bytes)
                let answer = process.answer(bytes[...], inputs: message.inputs.count, ends: message.ends, for: "a test")
                #expect(
                    answer?.each == message.each && answer?.end == message.end && answer?.idle == message.idle,
                    "\(String(decoding: bytes, as: UTF8.self))")
                count += 1
            }
        }
        #expect(count > 5000)
    }
}

extension ExternalArbiterTests {
    /// A campaign of `runs` with `command`, its process told the runs ahead or not.
    static func campaign(_ command: String, runs: Int, road: Bool = false, toldAhead: Bool) -> Fuzzer {
        let process = ArbiterProcess(command: command, timeoutMs: 5000)
        #expect(throws: Never.self) { try process.start() }
        defer { process.stop() }
        var settings = Fuzzer.Settings()
        settings.runs = runs
        settings.road = road
        let tell: @Sendable ([Scenario]) -> Void = { process.foretell($0, differential: true) }
        let check: @Sendable (Scenario) -> Verdict = { process.verdict($0, differential: true) }
        settings.arbiter = .custom(name: command, foretell: toldAhead ? tell : nil, verdict: check)
        return Campaign.run(settings, jobs: 1) { _ in true }.fuzzer
    }

    @Test(arguments: [(" --break short-wait", false), (" --break short-wait", true), ("", true)])
    func runsToldAheadGetTheVerdictsTheyGetAskedOneByOne(arguments: String, road: Bool) {
        let command = Self.python + arguments
        let runs = TestScale.size(300, quick: 60)
        let ahead = Self.campaign(command, runs: runs, road: road, toldAhead: true)
        let alone = Self.campaign(command, runs: runs, road: road, toldAhead: false)
        #expect(ahead.runsDone == runs && ahead.failedRuns == alone.failedRuns)
        #expect(ahead.failuresPerCheck == alone.failuresPerCheck)
        #expect(ahead.failures.map(\.run) == alone.failures.map(\.run))
        #expect(ahead.failures.map(\.violation.message) == alone.failures.map(\.violation.message))
        if !arguments.isEmpty { #expect(ahead.failedRuns > 0) }
    }

    @Test func anArbiterThatCrashesWhileToldAheadFailsEachRunAsAlone() throws {
        let command = try Self.script(
            "read line; echo '{\"type\":\"hello\",\"protocol\":4}'; read tables; read instant; echo dying >&2; exit 7\n"
        )
        let ahead = Self.campaign(command, runs: 30, toldAhead: true)
        let alone = Self.campaign(command, runs: 30, toldAhead: false)
        #expect(ahead.failedRuns == 30 && alone.failedRuns == 30)
        #expect(ahead.failures.map(\.violation.message) == alone.failures.map(\.violation.message))
    }
}

extension ExternalArbiterTests {
    @Test func rightAnswersNotInTheCanonicalFormGetOneNoticeNamingTheFirstDifferentByte() {
        let spaced = Self.drivesim(["fuzz", "--runs", "200", "--arbiter", Self.python + " | sed -u 's/\":/\": /g'"])
        #expect(spaced.code == 0)
        let notices =
            spaced.stderr.components(separatedBy: "note: the arbiter's answers are right but not in the canonical form")
            .count - 1
        #expect(notices == 1, "\(spaced.stderr)")
        #expect(spaced.stderr.contains("the first differs at byte 8: '{\"type\": \"actions\""), "\(spaced.stderr)")
        let canonical = Self.drivesim(["fuzz", "--runs", "200", "--arbiter", Self.python])
        #expect(canonical.code == 0 && !canonical.stderr.contains("note:"), "\(canonical.stderr)")
    }
}
