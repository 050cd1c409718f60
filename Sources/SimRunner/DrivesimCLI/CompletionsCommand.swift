import Fuzzing
import Guidance
import Review
import RouteImport
import ScenarioFormat
import SimClock
import TalkArbiter

/// `drivesim completions SHELL`: a completion script for bash, zsh or fish,
/// generated from the command table (each command's options are read from
/// its help), the formats and the mutants' names.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a shell completion script for bash, zsh or fish."
    static let usage = "USAGE: drivesim completions <shell>"
    static let shells = ["bash", "zsh", "fish"]
    static let options: [String] = []
    static let flags: [String] = []
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <shell>                 bash, zsh or fish.

        Install, for example (each folder made first: a fresh machine has none of them):
          d=~/.local/share/bash-completion/completions; mkdir -p $d
          drivesim completions bash > $d/drivesim
          mkdir -p ~/.zfunc
          drivesim completions zsh > ~/.zfunc/_drivesim
          mkdir -p ~/.config/fish/completions
          drivesim completions fish > ~/.config/fish/completions/drivesim.fish
        For zsh, ~/.zshrc needs fpath=(~/.zfunc $fpath) before compinit.

        OPTIONS:
          -h, --help              Show help information.

        EXIT CODES: 0 printed, 2 bad arguments.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options, flags: flags)
        guard let shell = args.positional.first else { throw DrivesimError.usage(.missingArgument("shell")) }
        guard args.positional.count == 1 else {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "one shell"))
        }
        switch shell {
        case "bash": console.out(bash)
        case "zsh": console.out(zsh)
        case "fish": console.out(fish)
        default:
            throw DrivesimError.usage(
                .unknownValue(
                    option: "<shell>", value: shell, allowed: shells, suggestion: suggestion(for: shell, among: shells))
            )
        }
        return 0
    }

    // MARK: The table

    /// One option of a command: its spellings, what it takes, and its description.
    struct Option {
        var names: [String]
        /// The value's placeholder (`file`, `seconds`), nil for a flag.
        var value: String?
        var summary: String

        /// Whether the value is a file or folder name.
        var takesPath: Bool { ["file", "dir", "path"].contains(value ?? "") }
    }

    /// Every option `command` accepts (`Command.options` and `flags`, the
    /// list its parsing uses), then `-h, --help`; each with the placeholder
    /// and the description its help gives it.
    static func options(of command: Command.Type) -> [Option] {
        let described = helpOptions(of: command)
        var out: [Option] = []
        for name in command.options + command.flags {
            let help = described.first { $0.names.contains(name) }
            let value = command.options.contains(name) ? help?.value ?? "value" : nil
            out.append(Option(names: [name], value: value, summary: help?.summary ?? ""))
        }
        out.append(Option(names: ["-h", "--help"], value: nil, summary: "Show help information."))
        return out
    }

    /// The options the OPTIONS section of `command`'s help describes: each
    /// line `  --name <value>   Description` or `  -h, --help   …` (indented
    /// two spaces), and the lines indented deeper under it continue it.
    static func helpOptions(of command: Command.Type) -> [Option] {
        var out: [Option] = []
        var inOptions = false
        for line in command.help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("OPTIONS:") {
                inOptions = true
                continue
            }
            guard inOptions else { continue }
            if !line.isEmpty && !line.hasPrefix(" ") { break }
            let text = line.drop { $0 == " " }
            // Only a line indented two spaces starts an option; a continuation may begin with one (`--list-mutants);`).
            guard line.hasPrefix("  -") else {
                if !text.isEmpty, !out.isEmpty { out[out.count - 1].summary += " " + text }
                continue
            }
            // The spellings end at two spaces; the description follows.
            let parts = text.split(separator: "  ", maxSplits: 1, omittingEmptySubsequences: true)
            let head = parts[0]
            let summary = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
            let names = head.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
            let value = head.split(separator: "<", maxSplits: 1).dropFirst().first.map {
                String($0.prefix { $0 != ">" })
            }
            out.append(Option(names: names, value: value, summary: summary))
        }
        return out
    }

    /// The values an option of `command` takes, when there is a fixed list.
    static func values(of option: String, in command: Command.Type) -> [String]? {
        switch option {
        case "--format": return RunCommand.formats
        case "--mutant": return Mutant.allCases.map(\.name)
        case "--only": return command.name == BenchCommand.name ? BenchCommand.parts : EventFamily.names
        case "--prompts": return RunCommand.promptFormats
        case "--language": return Language.allCases.map(\.rawValue)
        case "--precision": return ["5", "6"]
        case "--service": return RouteFormat.allCases.map(\.rawValue)
        case "--units": return Units.allCases.map(\.rawValue)
        default: return nil
        }
    }

    static var commands: [Command.Type] { Drivesim.commands }

    // MARK: bash

    static var bash: String {
        let names = commands.map { $0.name }.joined(separator: " ")
        var cases = ""
        for command in commands {
            let opts = options(of: command)
            let words = opts.flatMap(\.names).joined(separator: " ")
            let valued = opts.filter { $0.value != nil }
            cases += "    \(command.name))\n"
            if !valued.isEmpty {
                cases += "      case \"$prev\" in\n"
                for option in valued {
                    let pattern = option.names.joined(separator: "|")
                    if let list = values(of: option.names[0], in: command) {
                        cases +=
                            "        \(pattern)) COMPREPLY=($(compgen -W \"\(list.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                    } else if option.takesPath {
                        cases += "        \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                    } else {
                        cases += "        \(pattern)) COMPREPLY=(); return ;;\n"
                    }
                }
                cases += "      esac\n"
            }
            let positional =
                command.name == name
                ? "compgen -W \"\(shells.joined(separator: " "))\" -- \"$cur\"" : "compgen -f -- \"$cur\""
            cases += "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")); "
            cases += "else COMPREPLY=($(\(positional))); fi\n      ;;\n"
        }
        return """
            # bash completion for drivesim (generated by 'drivesim completions bash')
            _drivesim() {
              local cur prev command
              cur="${COMP_WORDS[COMP_CWORD]}"
              prev="${COMP_WORDS[COMP_CWORD-1]}"
              if [[ $COMP_CWORD -eq 1 ]]; then
                COMPREPLY=($(compgen -W "\(names) help --help" -- "$cur"))
                return
              fi
              command="${COMP_WORDS[1]}"
              case "$command" in
            \(cases)    help)
                  COMPREPLY=($(compgen -W "\(names)" -- "$cur"))
                  ;;
              esac
            }
            complete -o filenames -F _drivesim drivesim

            """
    }

    // MARK: zsh

    /// Text inside a zsh single-quoted string, with `[`, `]` and `:` escaped for `_arguments`.
    static func zshQuoted(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "'": out += "'\\''"
            case "[", "]", ":": out += "\\\(c)"
            default: out.append(c)
            }
        }
        return out
    }

    static var zsh: String {
        var described = ""
        for command in commands { described += "    '\(command.name):\(zshQuoted(command.abstract))'\n" }
        var cases = ""
        for command in commands {
            var specs: [String] = []
            for option in options(of: command) {
                let action: String
                if let value = option.value {
                    let list = values(of: option.names[0], in: command)
                    action =
                        ":\(zshQuoted(value)):"
                        + (list.map { "(\($0.joined(separator: " ")))" } ?? (option.takesPath ? "_files" : " "))
                } else {
                    action = ""
                }
                for name in option.names {
                    specs.append("'\(name)[\(zshQuoted(option.summary))]\(action)'")
                }
            }
            let positional = command.name == name ? "'1:shell:(\(shells.joined(separator: " ")))'" : "'*:file:_files'"
            specs.append(positional)
            cases +=
                "    \(command.name))\n      _arguments \\\n        " + specs.joined(separator: " \\\n        ")
                + "\n      ;;\n"
        }
        return """
            #compdef drivesim
            # zsh completion for drivesim (generated by 'drivesim completions zsh')

            _drivesim() {
              local -a commands
              commands=(
            \(described)  )
              if (( CURRENT == 2 )); then
                _describe 'command' commands
                return
              fi
              local command=${words[2]}
              shift words
              (( CURRENT-- ))
              case $command in
            \(cases)    help)
                  _describe 'command' commands
                  ;;
              esac
            }

            _drivesim "$@"

            """
    }

    // MARK: fish

    /// Text inside a fish single-quoted string.
    static func fishQuoted(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }

    static var fish: String {
        var out = "# fish completion for drivesim (generated by 'drivesim completions fish')\n"
        let names = commands.map { $0.name }.joined(separator: " ")
        out += "complete -c drivesim -f\n"
        for command in commands {
            out +=
                "complete -c drivesim -n 'not __fish_seen_subcommand_from \(names) help' -a \(command.name) -d '\(fishQuoted(command.abstract))'\n"
        }
        out +=
            "complete -c drivesim -n 'not __fish_seen_subcommand_from \(names) help' -a help -d 'Show help for a command'\n"
        out += "complete -c drivesim -n '__fish_seen_subcommand_from help' -a '\(names)'\n"
        for command in commands {
            let when = "-n '__fish_seen_subcommand_from \(command.name)'"
            if command.name == name {
                out += "complete -c drivesim \(when) -a '\(shells.joined(separator: " "))'\n"
            } else {
                out += "complete -c drivesim \(when) -F\n"
            }
            for option in options(of: command) {
                var spec = "complete -c drivesim \(when)"
                for spelling in option.names {
                    spec += spelling.hasPrefix("--") ? " -l \(spelling.dropFirst(2))" : " -s \(spelling.dropFirst())"
                }
                if option.value != nil {
                    let list = values(of: option.names[0], in: command)
                    spec +=
                        list.map { " -x -a '\($0.joined(separator: " "))'" } ?? (option.takesPath ? " -r -F" : " -x")
                }
                out += spec + " -d '\(fishQuoted(option.summary))'\n"
            }
        }
        return out
    }
}
