@testable import DrivesimCLI
import Foundation
import SimRunner
import TestSupport
import Testing

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
        // The shell exits at once: drivesim finds that out writing the hello or
        // reading the answer, whichever comes first; both name the command.
        #expect(result.stderr.contains("no-such-arbiter-command-xyz"))
        #expect(result.stderr.contains("closed its output") || result.stderr.contains("stopped reading its input"), "\(result.stderr)")
        #expect(thrown(["run", Self.scenario, "--arbiter", "exit 3"]).map {
            if case .arbiterProcess(command: "exit 3", _) = $0 { true } else { false }
        } == true)
    }

    @Test func anUnknownProtocolVersionExitsTwo() throws {
        let command = try Self.script("read line; echo '{\"type\":\"hello\",\"protocol\":99}'; cat > /dev/null\n")
        let result = Fixtures.drivesim("check", Self.scenario, "--arbiter", command)
        #expect(result.code == 2 && result.stderr.contains("protocol version 99"))
    }

    @Test func anArbiterThatPrintsGarbageFailsTheRunWithAReason() throws {
        let command = try Self.script(
            "read line; echo '{\"type\":\"hello\",\"protocol\":2}'; echo oops >&2; while read line; do echo 'not json'; done\n")
        let result = Fixtures.drivesim("check", Self.scenario, Fixtures.path("Scenarios/after-cut-repeat.json"), "--arbiter", command)
        #expect(result.code == 1)
        #expect(result.stdout.contains("0 passed, 2 failed"))
        #expect(result.stderr.contains("arbiter process") && result.stderr.contains("not a JSON object: 'not json'"))
        #expect(result.stderr.contains("oops"))
    }

    @Test func anArbiterThatCrashesMidRunFailsTheRunAndTheNextRunRestartsIt() throws {
        // Says hello, then dies on its first input; restarted for the second scenario.
        let command = try Self.script(
            "read line; echo '{\"type\":\"hello\",\"protocol\":2}'; read a; read b; read c; echo dying >&2; exit 7\n")
        let result = Fixtures.drivesim("check", Self.scenario, Fixtures.path("Scenarios/after-cut-repeat.json"), "--arbiter", command)
        #expect(result.code == 1 && result.stdout.contains("0 passed, 2 failed"))
        #expect(result.stderr.contains("exit status 7") && result.stderr.contains("dying"))
    }

    @Test func anArbiterThatHangsFailsTheRunAfterItsTimeout() throws {
        let command = try Self.script("read line; echo '{\"type\":\"hello\",\"protocol\":2}'; sleep 5\n")
        let result = Self.drivesim(["check", Self.scenario, "--arbiter", command, "--arbiter-timeout", "1"])
        #expect(result.code == 1 && result.stderr.contains("did not answer within 1000 ms"))
    }

    @Test func thePythonExamplePassesScenarios() {
        let files = ["after-cut-drop", "after-cut-repeat", "after-cut-skip"].map { Fixtures.path("Scenarios/\($0).json") }
        let result = Self.drivesim(["check"] + files + ["--arbiter", Self.python])
        #expect(result.code == 0 && result.stdout.contains("3 passed, 0 failed"))
    }

    @Test func thePythonExampleBrokenFailsAFuzzCampaign() throws {
        let folder = try Fixtures.temporaryFolder()
        let result = Self.drivesim(["fuzz", "--runs", "200", "--out", folder, "--arbiter", Self.python + " --break short-wait"])
        #expect(result.code == 1 && (result.stdout + result.stderr).contains("--arbiter '\(Self.python) --break short-wait'"))
    }
}
