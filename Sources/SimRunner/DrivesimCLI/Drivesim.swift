import Fuzzing
import Review
import ScenarioFormat
import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `drivesim` command line (SPEC 8): a thin layer over the simulator.
/// Returns the exit code: 0 all held, 1 something failed, 2 unusable input.
package enum Drivesim {
    /// Every command, for help and suggestions.
    static let commands: [Command.Type] = [
        RunCommand.self, CheckCommand.self, FuzzCommand.self, ExploreCommand.self, BenchCommand.self,
        ImportGPXCommand.self, ImportRouteCommand.self,
        GenerateCommand.self, SchemaCommand.self, DemoCommand.self, CompletionsCommand.self,
    ]

    /// The options of `drivesim` itself, before any command (`-h, --help` as
    /// every command's): what the top level's dispatch and completions take.
    static let options: [Option] = [.flag("--version", help: "Print the version.")]

    /// Runs the command line `arguments` (without the program name). The one
    /// place where an error becomes its message and exit code (`MessageInfo`),
    /// and where a failed write to standard output becomes exit code 2.
    package static func main(_ arguments: [String], console: inout Console) -> Int32 {
        // Past a file-size limit (`ulimit -f`) a write fails with EFBIG, reported
        // with its reason and the temporary file removed, instead of the signal killing the process.
        signal(SIGXFSZ, SIG_IGN)
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
        // No command, or the demo's options alone (`drivesim --format html`): the demo.
        if DemoCommand.takes(arguments) {
            name = DemoCommand.name
            return try DemoCommand.run(arguments, console: &console)
        }
        let first = arguments[0]
        if first == options[0].name {
            console.out("drivesim \(DrivesimVersion.current)\n")
            return 0
        }
        if ["--help", "-h", "help"].contains(first) {
            if first == "help", arguments.count > 1 {
                let topic = arguments[1]
                guard let command = commands.first(where: { $0.name == topic }) else {
                    throw DrivesimError.usage(
                        .unknownHelpTopic(topic, suggestion: suggestion(for: topic, among: commands.map { $0.name })))
                }
                console.out(fit(command.help, width: console.columns))
            } else {
                console.out(help(width: console.columns))
            }
            return 0
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            throw DrivesimError.usage(
                .unknownCommand(first, suggestion: suggestion(for: first, among: commands.map { $0.name })))
        }
        name = command.name
        let rest = Array(arguments.dropFirst())
        // After `--` everything is an argument, `--help` included.
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            console.out(fit(command.help, width: console.columns))
            return 0
        }
        return try command.run(rest, console: &console)
    }

    static let usage = "USAGE: drivesim [<command>] [<arguments>]"

    /// The top-level help, its paragraphs wrapped to `width` columns (at least 40)
    /// and each command's abstract in a column after the longest name.
    static func help(width: Int = Console.defaultColumns) -> String {
        let width = max(40, width)
        var text = wrap(
            "OVERVIEW: A discrete-event simulator of a navigation app's voice guidance and "
                + "its conversation with Pippa, refereed on one audio bus.", width: width, indent: 0)
        text += "\n\(usage)\n\n"
        text += wrap(
            "With no command, drivesim runs a built-in demo drive and prints its timeline "
                + "('drivesim demo --help': as html, or its scenario as a file to start from). "
                + "'drivesim --version' prints the version.", width: width, indent: 0)
        text += "\nCOMMANDS:\n"
        let column = 2 + (commands.map { $0.name.count }.max() ?? 8) + 2
        for command in commands {
            let lines = wrap(command.abstract, width: width, indent: column).dropFirst(column)
            text += "  " + pad(command.name, column - 2) + lines
        }
        text += "\nSee 'drivesim <command> --help' for a command's options.\n"
        return text
    }

    /// A help text fitted to `width` columns (at least 40): each line that is
    /// longer is broken at spaces, its continuation lines indented under where
    /// its text starts (an option's description, the text after `USAGE: `).
    static func fit(_ help: String, width: Int) -> String {
        let width = max(40, width)
        // Where a line's text starts: after `USAGE: `, at an option's description, or after its spaces.
        func indent(of line: [Character]) -> Int {
            let leading = line.prefix { $0 == " " }.count
            if let colon = (0..<max(0, line.count - 1)).first(where: { line[$0] == ":" && line[$0 + 1] == " " }),
                line[..<colon].allSatisfy({ $0.isUppercase || $0 == " " })
            {
                return colon + 2
            }
            guard leading > 0 else { return 0 }
            var i = leading
            while i + 1 < line.count, !(line[i] == " " && line[i + 1] == " ") { i += 1 }
            while i < line.count, line[i] == " " { i += 1 }
            return i < line.count && i < width / 2 ? i : leading
        }
        // Paragraphs: a line, then the lines indented exactly where its text starts.
        var groups: [(head: [Character], indent: Int, lines: [String])] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let chars = Array(line)
            let leading = chars.prefix { $0 == " " }.count
            // A line at the margin also continues `EXIT CODES: …` (text after a heading).
            let continuesHeading =
                groups.last.map { leading == 0 && $0.indent > 0 && $0.head.first?.isUppercase == true } ?? false
            if var last = groups.last, !chars.isEmpty, leading == last.indent || continuesHeading,
                leading < chars.count,
                !(last.lines.last ?? "").isEmpty, !isHeading(line), !(last.lines.last ?? "").hasSuffix(":"),
                !line.dropFirst(leading).hasPrefix("drivesim ")
            {
                last.lines.append(line)
                groups[groups.count - 1] = last
            } else {
                groups.append((chars, indent(of: chars), [line]))
            }
        }
        var out: [String] = []
        for group in groups {
            guard group.lines.contains(where: { displayWidth($0) > width }) else {
                out += group.lines
                continue
            }
            let head = String(group.head.prefix(group.indent))
            let text =
                ([String(group.head.dropFirst(group.indent))]
                + group.lines.dropFirst().map {
                    String($0.drop { $0 == " " })
                }).joined(separator: " ")
            let body = wrap(text, width: width, indent: group.indent)
            out.append(String((head + body.dropFirst(group.indent)).dropLast()))
        }
        return out.joined(separator: "\n")
    }

    /// Whether `line` is a section heading (`OPTIONS:`, `EXIT CODES:`): capitals
    /// and spaces then a colon, at the margin. A sentence that ends in a colon
    /// before an example (`…, which drivesim accepts and otherwise ignores:`)
    /// is not one: it stays in its paragraph, which the example then ends.
    static func isHeading(_ line: String) -> Bool {
        line.hasSuffix(":") && line.first?.isUppercase == true
            && line.dropLast().allSatisfy { $0.isUppercase || $0 == " " }
    }

    /// `paragraph` broken at spaces into lines of at most `width` columns, every
    /// line indented by `indent` spaces, each ending in a newline. A word longer
    /// than a line stands on its own line.
    static func wrap(_ paragraph: String, width: Int, indent: Int) -> String {
        var out = ""
        var line = String(repeating: " ", count: indent)
        var lineWidth = indent
        for word in paragraph.split(separator: " ") {
            let w = displayWidth(String(word))
            if lineWidth > indent, lineWidth + 1 + w > width {
                out += line + "\n"
                line = String(repeating: " ", count: indent)
                lineWidth = indent
            }
            if lineWidth > indent {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += w
        }
        return out + line + "\n"
    }
}

/// One subcommand.
protocol Command: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    static var usage: String { get }
    /// The `--help` text: OVERVIEW, USAGE, OPTIONS.
    static var help: String { get }
    /// Every option it takes, each declared once: `Arguments` parses by
    /// them, its help lists them and the completions offer them.
    static var options: [Option] { get }
    static func run(_ arguments: [String], console: inout Console) throws -> Int32
}
