import CLITestSupport
import DrivesimCLI
import Foundation
import TestSupport
import Testing

@Suite struct CompletionsTests {
    static let commands = [
        "run", "check", "fuzz", "explore", "bench", "import-gpx", "import-route", "generate", "schema", "demo",
        "completions",
    ]

    /// The first word of each line of the top-level help's COMMANDS section.
    static func commandsInHelp() -> [String] {
        let help = Fixtures.drivesim("--help").stdout
        let section = help.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Runs `tool -n` on `script`; nil when the tool is not installed.
    static func syntaxCheck(_ tool: String, _ script: String) throws -> Int32? {
        let candidates = ["/bin/\(tool)", "/usr/bin/\(tool)", "/usr/local/bin/\(tool)"]
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let folder = try Fixtures.temporaryFolder()
        let file = Fixtures.write(script, "drivesim.\(tool)", in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-n", file]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func theHelpListsExactlyTheCommandsTheCompletionsName() {
        #expect(Self.commandsInHelp() == Self.commands)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func eachShellsScriptNamesEveryCommandItsOptionsFormatsAndMutants(shell: String) throws {
        let result = Fixtures.drivesim("completions", shell)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        let script = result.stdout
        for command in Self.commands { #expect(script.contains(command), "\(shell) lacks \(command)") }
        for word in [
            "format", "mutant", "record", "coverage", "time-limit", "jobs", "hours", "svg", "trace", "lanes",
            "urgent-waits", "reply-queue-lifo",
        ] {
            #expect(script.contains(word), "\(shell) lacks \(word)")
        }
    }

    @Test func theBashScriptIsValidBash() throws {
        let status = try Self.syntaxCheck("bash", Fixtures.drivesim("completions", "bash").stdout)
        #expect(status == 0)
        #expect(Fixtures.drivesim("completions", "bash").stdout.contains("complete -o filenames -F _drivesim drivesim"))
    }

    @Test func theZshAndFishScriptsAreValidWhereTheShellIsInstalled() throws {
        for shell in ["zsh", "fish"] {
            guard let status = try Self.syntaxCheck(shell, Fixtures.drivesim("completions", shell).stdout) else {
                continue
            }
            #expect(status == 0, "\(shell) -n failed")
        }
        #expect(Fixtures.drivesim("completions", "zsh").stdout.hasPrefix("#compdef drivesim\n"))
    }

    @Test func anUnknownOrMissingShellIsAUsageError() {
        let unknown = Fixtures.drivesim("completions", "bsh")
        #expect(unknown.code == 2)
        #expect(unknown.stderr.contains("bash"))
        #expect(Fixtures.drivesim("completions").code == 2)
        #expect(Fixtures.drivesim("completions", "bash", "zsh").code == 2)
    }
}

@Suite struct ColourTests {
    static func check(terminal: Bool, environment: [String: String]) throws -> String {
        let folder = try Fixtures.temporaryFolder()
        Fixtures.write(CommandLineTests.passing, "pass.json", in: folder)
        Fixtures.write(CommandLineTests.failing, "fail.json", in: folder)
        var console = Console.captured
        console.outIsTerminal = terminal
        console.environment = environment
        #expect(Drivesim.main(["check", folder], console: &console) == 1)
        return console.stdout
    }

    @Test func passAndFailAreColouredOnATerminal() throws {
        let out = try Self.check(terminal: true, environment: [:])
        #expect(out.contains("\u{1B}[32mPASS\u{1B}[0m  "))
        #expect(out.contains("\u{1B}[31mFAIL\u{1B}[0m  "))
    }

    @Test func noColourWhenOutputIsNotATerminal() throws {
        let out = try Self.check(terminal: false, environment: [:])
        #expect(!out.contains("\u{1B}"))
        #expect(out.contains("PASS  "))
    }

    @Test(arguments: ["1", "true", "0"])
    func noColourWhenNoColorIsSetToAnything(value: String) throws {
        let out = try Self.check(terminal: true, environment: ["NO_COLOR": value])
        #expect(!out.contains("\u{1B}"))
    }

    @Test func anEmptyNoColorStillColours() throws {
        // no-color.org: only a value that is present and not empty turns colour off.
        let out = try Self.check(terminal: true, environment: ["NO_COLOR": ""])
        #expect(out.contains("\u{1B}[32mPASS"))
    }
}
