import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// The `drivesim` command line (SPEC 8): a thin layer over the simulator.
/// Returns the exit code: 0 all held, 1 something failed, 2 unusable input.
public enum Drivesim {
    /// Every command, for help and suggestions.
    static let commands: [Command.Type] = [RunCommand.self, CheckCommand.self, FuzzCommand.self, BenchCommand.self, ImportGPXCommand.self, GenerateCommand.self]

    /// Runs the command line `arguments` (without the program name). The one
    /// place where an error becomes its message and exit code (`MessageInfo`),
    /// and where a failed write to standard output becomes exit code 2.
    public static func main(_ arguments: [String], console: inout Console) -> Int32 {
        var command: String?
        var code: Int32
        do {
            code = try dispatch(arguments, command: &command, console: &console)
            try console.finish()
        } catch {
            let info = MessageInfo(error, command: command)
            console.err(info.message)
            code = info.exitCode
        }
        return code
    }

    /// Finds the command and runs it; `command` is set once it is known.
    static func dispatch(_ arguments: [String], command name: inout String?, console: inout Console) throws -> Int32 {
        guard let first = arguments.first else { return try DemoCommand.run(console: &console) }
        if first == "--version" {
            console.out("drivesim \(DrivesimVersion.current)\n")
            return 0
        }
        if ["--help", "-h", "help"].contains(first) {
            if first == "help", arguments.count > 1 {
                let topic = arguments[1]
                guard let command = commands.first(where: { $0.name == topic }) else {
                    throw DrivesimError.usage(.unknownHelpTopic(topic, suggestion: suggestion(for: topic, among: commands.map { $0.name })))
                }
                console.out(command.help)
            } else {
                console.out(help)
            }
            return 0
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            throw DrivesimError.usage(.unknownCommand(first, suggestion: suggestion(for: first, among: commands.map { $0.name })))
        }
        name = command.name
        let rest = Array(arguments.dropFirst())
        // After `--` everything is an argument, `--help` included.
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            console.out(command.help)
            return 0
        }
        return try command.run(rest, console: &console)
    }

    static let usage = "USAGE: drivesim [<command>] [<arguments>]"

    static var help: String {
        var text = """
            OVERVIEW: A discrete-event simulator of a navigation app's voice guidance and \
            its conversation with Pippa, refereed on one audio bus.

            \(usage)

            With no command, drivesim runs a built-in demo drive and prints its timeline.
            'drivesim --version' prints the version.

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
