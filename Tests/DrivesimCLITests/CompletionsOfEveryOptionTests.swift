import CLITestSupport
import Foundation
import TestSupport
import Testing

@testable import DrivesimCLI

/// Every option a command accepts (its table, `Command.options`) is
/// described in its help and offered by every shell's script.
@Suite struct CompletionsOfEveryOptionTests {
    /// The part of `script` (bash) that completes `command`.
    static func bashCase(_ script: String, _ command: String) -> String {
        guard let start = script.range(of: "\n    \(command))\n") else { return "" }
        let rest = script[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n      ;;\n")?.lowerBound ?? rest.endIndex)])
    }

    @Test func everyAcceptedOptionIsDescribedInItsCommandsHelp() {
        for command in Drivesim.commands {
            // Each line of OPTIONS that starts an option: its heads, before two spaces (`--from <t>, --to <t>`).
            let lines = (command.help.components(separatedBy: "\nOPTIONS:\n").last ?? "").split(separator: "\n")
            let heads = lines.filter { $0.hasPrefix("  -") }.flatMap {
                $0.dropFirst(2).components(separatedBy: "  ")[0].components(separatedBy: ", ")
            }
            #expect(heads == command.options.map(\.head) + ["-h", "--help"], "\(command.name)")
        }
    }

    @Test func bashOffersExactlyTheOptionsEachCommandAccepts() throws {
        let script = Fixtures.drivesim("completions", "bash").stdout
        for command in Drivesim.commands {
            let part = Self.bashCase(script, command.name)
            let after = part.components(separatedBy: "-* ]]; then COMPREPLY=($(compgen -W \"")
            try #require(after.count == 2, "\(command.name) completes no options")
            let offered = after[1].prefix { $0 != "\"" }.split(separator: " ").map(String.init)
            #expect(offered == command.options.map(\.name) + ["-h", "--help"], "\(command.name)")
        }
    }

    @Test func zshAndFishOfferEveryAcceptedOption() {
        let zsh = Fixtures.drivesim("completions", "zsh").stdout
        let fish = Fixtures.drivesim("completions", "fish").stdout.split(separator: "\n")
        for command in Drivesim.commands {
            for name in command.options.map(\.name) {
                #expect(zsh.contains("'\(name)["), "zsh lacks \(command.name) \(name)")
                #expect(
                    fish.contains {
                        $0.contains("__fish_seen_subcommand_from \(command.name)'")
                            && $0.contains(" -l \(name.dropFirst(2)) ")
                    },
                    "fish lacks \(command.name) \(name)")
            }
        }
    }

    @Test func onlyAndPromptsCompleteTheirValues() {
        let script = Fixtures.drivesim("completions", "bash").stdout
        let run = Self.bashCase(script, "run")
        let bench = Self.bashCase(script, "bench")
        #expect(run.contains("--only) COMPREPLY=($(compgen -W \"guidance talk ears dad road link\""))
        #expect(run.contains("--prompts) COMPREPLY=($(compgen -W \"text json\""))
        #expect(bench.contains("--only) COMPREPLY=($(compgen -W \"queue drive render growth fuzz road\""))
        #expect(Self.bashCase(script, "import-route").contains("--language) COMPREPLY=($(compgen -W \"ko en\""))
    }

    /// `drivesim completions SHELL > PATH` fails on a fresh machine unless PATH's folder is made first.
    @Test func everyInstallLineMakesItsFolderFirst() throws {
        let texts = [
            ("README.md", try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)),
            ("docs/cli.md", try String(contentsOfFile: Fixtures.path("docs/cli.md"), encoding: .utf8)),
            ("completions --help", CompletionsCommand.help),
        ]
        for (name, text) in texts {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var installs = 0
            for (i, line) in lines.enumerated() {
                guard let arrow = line.range(of: #"completions (bash|zsh|fish) > "#, options: .regularExpression) else {
                    continue
                }
                installs += 1
                let target = line[arrow.upperBound...].prefix { $0 != " " }
                let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
                let before = line[..<arrow.lowerBound] + (i > 0 ? " " + lines[i - 1] : "")
                #expect(before.contains("mkdir -p \(folder)"), "\(name): '\(line)' does not make \(folder) first")
            }
            #expect(installs > 0, "\(name) has no install line")
        }
    }
}
