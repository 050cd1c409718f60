import Foundation
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import ExternalProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The arbiter's process, however broken, ends in bounded time with one
/// clear line and leaves nothing behind (issue 21). In `ExternalArbiterTests`,
/// which is serialized: one arbiter process per command line.
extension ExternalArbiterTests {
    static let hello = #"read line; echo '{"type":"hello","protocol":4}'"#

    /// Runs the command line, and how long it took in seconds.
    static func timed(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = ExternalArbiterTests.drivesim(arguments)
        let took = clock.now - start
        return (
            result.code, result.stdout, result.stderr,
            Double(took.components.seconds) + Double(took.components.attoseconds) * 1e-18
        )
    }

    /// Whether the process `pid` is gone (or a zombie that is no child of ours: killed, waiting for init).
    static func gone(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        #if os(Linux)
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            guard let close = stat.lastIndex(of: ")") else { return true }
            return stat[stat.index(close, offsetBy: 2)] == "Z"
        #else
            return false
        #endif
    }

    /// Waits up to a second for `pid` to be gone.
    static func goneSoon(_ pid: pid_t) -> Bool {
        for _ in 0..<100 {
            if gone(pid) { return true }
            usleep(10_000)
        }
        return gone(pid)
    }

    /// The pid written to `file` by the arbiter.
    static func pid(in file: String) throws -> pid_t {
        let text = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(pid_t(text), "a pid in \(file)")
    }

    #if os(Linux)
        /// Our children that are zombies (exited, not reaped).
        static func zombieChildren() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            var zombies = 0
            for task in tasks {
                let children = (try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ pid_t($0) }) {
                    let stat = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
                    if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { zombies += 1 }
                }
            }
            return zombies
        }
    #endif

    @Test func aHangingArbitersWholeGroupIsKilledItsGrandchildIncluded() throws {
        let folder = try Fixtures.temporaryFolder()
        // The shell does not exec: the arbiter's work is a grandchild of drivesim.
        let command = try ExternalArbiterTests.script(
            "\(Self.hello)\nsleep 300 &\necho $! > \(folder)/grandchild\nwait\n")
        let result = Self.timed(["check", Self.scenario, "--arbiter", command, "--arbiter-timeout", "1"])
        #expect(result.code == 1 && result.stderr.contains("did not answer within 1 s"), "\(result.stderr)")
        #expect(Self.goneSoon(try Self.pid(in: folder + "/grandchild")), "the grandchild does not outlive drivesim")
    }

    @Test func anArbiterThatIgnoresTheEndOfItsInputDoesNotOutliveANormalEnd() throws {
        let folder = try Fixtures.temporaryFolder()
        let command = "echo $$ > \(folder)/shell; \(ExternalArbiterTests.python); sleep 300"
        let result = Self.timed(["check", Self.scenario, "--arbiter", command])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.seconds < 10)
        #expect(Self.goneSoon(try Self.pid(in: folder + "/shell")))
    }

    @Test func aByteEveryHalfSecondDoesNotPutTheDeadlineOff() throws {
        let command = try ExternalArbiterTests.script("\(Self.hello)\nwhile true; do printf x; sleep 0.5; done\n")
        let result = Self.timed(["check", Self.scenario, "--arbiter", command, "--arbiter-timeout", "1"])
        #expect(result.code == 1 && result.stderr.contains("did not answer within 1 s"), "\(result.stderr)")
        #expect(result.seconds < 8, "one deadline for the answer: \(result.seconds) s")
    }

    @Test func anAnswerLineOverTheLimitIsRefusedNamingIt() throws {
        let command = try ExternalArbiterTests.script(
            "\(Self.hello)\nread tables\nhead -c 20000000 /dev/zero | tr '\\0' x\nsleep 300\n")
        let result = Self.timed(["check", Self.scenario, "--arbiter", command])
        #expect(
            result.code == 1 && result.stderr.contains("an answer line longer than 16 MiB, the limit"),
            "\(result.stderr)")
    }

    @Test func anArbiterThatExitsIsReportedAtOnceThoughAGrandchildHoldsItsPipe() throws {
        let command = try ExternalArbiterTests.script("\(Self.hello)\nread tables\nsleep 30 &\nexit 3\n")
        let result = Self.timed(["check", Self.scenario, "--arbiter", command])
        #expect(
            result.code == 1 && result.stderr.contains("it exited before answering (exit status 3)"), "\(result.stderr)"
        )
        #expect(result.seconds < 4, "not after the 5 s timeout: \(result.seconds) s")
    }

    @Test func aMissingCommandIsReportedOneWayInOneLine() {
        var messages: Set<String> = []
        for _ in 0..<6 {
            messages.insert(
                ExternalArbiterTests.drivesim(["run", Self.scenario, "--arbiter", "no-such-arbiter-xyz"]).stderr)
        }
        #expect(messages.count == 1, "\(messages)")
        #expect(
            messages.first.map { $0.hasSuffix("\n") && $0.dropLast().split(separator: "\n").count == 1 } == true,
            "\(messages)")
    }

    #if os(Linux)
        @Test func crashedArbitersAreReapedAtOnce() throws {
            let command = try ExternalArbiterTests.script("\(Self.hello)\nread tables\nexit 7\n")
            let files = ["after-cut-drop", "after-cut-repeat", "barge-in", "held"].map {
                Fixtures.path("Scenarios/\($0).json")
            }
            var console = Console.captured
            let process = try #require(
                try ArbiterProcess.launch(Arguments(["--arbiter", command], options: RunCommand.options)))
            defer { process.stop() }
            for file in files {
                _ = process.verdict(try ScenarioFiles.load(file).get())
                #expect(Self.zombieChildren() == 0, "no zombie after \(file)")
            }
            _ = console
            console = .captured
        }
    #endif

    @Test func anEmptyArbiterIsAUsageError() {
        #expect(thrown(["run", Self.scenario, "--arbiter", ""]) == .usage(.emptyValue(option: "--arbiter")))
        #expect(thrown(["check", Self.scenario, "--arbiter", "  "]) == .usage(.emptyValue(option: "--arbiter")))
    }

    @Test func aHungArbiterCostsAFuzzCampaignOneTimeoutReportedOnce() throws {
        let folder = try Fixtures.temporaryFolder()
        let command = try ExternalArbiterTests.script("\(Self.hello)\nsleep 300\n")
        let result = Self.timed([
            "fuzz", "--runs", "60", "--arbiter", command, "--arbiter-timeout", "1", "--out", folder,
        ])
        #expect(result.code == 1)
        #expect(result.seconds < 15, "not one timeout a run: \(result.seconds) s")
        // Said twice: the failure filed (its run and reproducer, as found) and the process given up.
        #expect(result.stderr.components(separatedBy: "did not answer within 1 s").count - 1 == 2, "\(result.stderr)")
        #expect(result.stderr.contains("FAIL run 0 (seed 1): arbiter process"), "\(result.stderr)")
        #expect(
            result.stderr.contains("was given up: it did not answer within 1 s; no later run asked it"),
            "\(result.stderr)")
    }

    @Test func anArbitersStandardErrorIsEscapedInTheOneLineItIsReportedIn() throws {
        let command = try ExternalArbiterTests.script("read line; printf 'boom\\033[2J\\r\\nagain\\n' >&2; exit 3\n")
        let result = Self.drivesim(["run", Self.scenario, "--arbiter", command])
        #expect(result.code == 2)
        #expect(result.stderr.dropLast().split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(#"boom\u{1B}[2J\r\nagain"#), "\(result.stderr)")
    }

    @Test func anAnswerWithADuplicateKeyIsNamedForIt() throws {
        let answer = #"{"type":"actions","each":[[],[],[]],"each":[[],[],[]],"end":[],"idle":true}"#
        let result = Self.drivesim([
            "check", Self.scenario, "--arbiter", try Self.answering(run: Self.partedRun, instant: answer),
        ])
        #expect(result.code == 1 && result.stderr.contains("an object with the key 'each' twice"), "\(result.stderr)")
    }

    @Test func anIndexBeyondInt64IsNamedForIt() throws {
        let answer =
            #"{"type":"actions","each":[[{"do":"lineEnded","line":99999999999999999999}],[],[]],"end":[],"idle":true}"#
        let result = Self.drivesim([
            "check", Self.scenario, "--arbiter", try Self.answering(run: Self.partedRun, instant: answer),
        ])
        #expect(
            result.code == 1 && result.stderr.contains("an action whose 'line' is beyond a 64-bit integer"),
            "\(result.stderr)")
    }
}
