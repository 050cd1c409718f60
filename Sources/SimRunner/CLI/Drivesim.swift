import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// The `drivesim` command line (SPEC 8): a thin layer over the simulator.
/// Returns the exit code: 0 all held, 1 something failed, 2 unusable input.
public enum Drivesim {
    /// Every command, for help and suggestions.
    static let commands: [Command.Type] = [RunCommand.self, CheckCommand.self, FuzzCommand.self, BenchCommand.self, ImportGPXCommand.self, GenerateCommand.self]

    /// Runs the command line `arguments` (without the program name).
    public static func main(_ arguments: [String], console: inout Console) -> Int32 {
        guard let first = arguments.first else { return DemoCommand.run(console: &console) }
        if ["--help", "-h", "help"].contains(first) {
            if first == "help", arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.out(command.help)
            } else {
                console.out(help)
            }
            return 0
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let hint = suggestion(for: first, among: commands.map { $0.name }).map { " Did you mean '\($0)'?" } ?? ""
            console.err("Error: unknown command '\(first)'.\(hint)\n\(usage)\nSee 'drivesim --help'.\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return 0
        }
        do {
            return try command.run(rest, console: &console)
        } catch let error as UsageError {
            console.err("Error: \(error.message)\n\(command.usage)\nSee 'drivesim \(command.name) --help'.\n")
            return 2
        } catch {
            console.err("Error: \(error)\n")
            return 2
        }
    }

    static let usage = "USAGE: drivesim [<command>] [<arguments>]"

    static var help: String {
        var text = """
            OVERVIEW: A discrete-event simulator of a navigation app's voice guidance and \
            its conversation with Pippa, refereed on one audio bus.

            \(usage)

            With no command, drivesim runs a built-in demo drive and prints its timeline.

            COMMANDS:

            """
        for command in commands { text += "  \(pad(command.name, 8))\(command.abstract)\n" }
        text += "\nSee 'drivesim <command> --help' for a command's options.\n"
        return text
    }
}

/// One subcommand.
protocol Command: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    static var usage: String { get }
    /// The `--help` text: OVERVIEW, USAGE, OPTIONS.
    static var help: String { get }
    static func run(_ arguments: [String], console: inout Console) throws -> Int32
}
