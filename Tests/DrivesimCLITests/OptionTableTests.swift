import CLITestSupport
import TestSupport
import Testing

@testable import DrivesimCLI

/// Each command's table of options is enforced by `Arguments` before the
/// command reads a file: every command line here names a file that does
/// not exist (where the command takes one), so a usage error raised only
/// after reading would come out as that file's error instead.
@Suite struct OptionTableTests {
    /// `command`'s name, a missing file where it takes one, then `options`.
    static func line(_ command: Command.Type, _ options: [String]) -> [String] {
        let file = [RunCommand.name, ImportGPXCommand.name, ImportRouteCommand.name].contains(command.name)
        return [command.name] + (file ? [Bench.path("missing.json")] : []) + options
    }

    /// `option` with a value its table accepts.
    static func valid(_ option: Option) -> [String] {
        switch option.value {
        case .none: return [option.name]
        case .integer(let range): return [option.name, "\(range.lowerBound)"]
        case .oneOf(let words): return [option.name, words[0]]
        case .text, .file: return [option.name, ["--shard": "1/1", "--only": "talk"][option.name] ?? "1"]
        }
    }

    /// `option`, given with a valid value and everything it needs.
    static func given(_ option: Option, in command: Command.Type) -> [String] {
        var out = valid(option)
        for need in option.needs {
            let parts = need.split(separator: " ").map(String.init)
            let needed = command.options.first { $0.name == parts[0] }!
            out += parts.count > 1 ? parts : valid(needed)
        }
        return out
    }

    @Test func aWholeNumberOutOfItsRangeIsRefused() {
        var seen = 0
        for command in Drivesim.commands {
            for option in command.options {
                guard case .integer(let range) = option.value else { continue }
                seen += 1
                let tooBig = "\(range.upperBound)0"
                let line = Self.line(
                    command, Array(Self.given(option, in: command).dropFirst(2)) + [option.name, tooBig])
                let bound = (from: "\(range.lowerBound)", to: "\(range.upperBound)")
                #expect(
                    thrown(line)
                        == .usage(.notAWholeNumber(option: option.name, value: tooBig, from: bound.from, to: bound.to)),
                    "\(line)")
            }
        }
        #expect(seen >= 10)
    }

    @Test func aWordNotInItsSetIsRefused() {
        var seen = 0
        for command in Drivesim.commands {
            for option in command.options {
                guard case .oneOf(let words) = option.value else { continue }
                seen += 1
                let line = Self.line(
                    command, Array(Self.given(option, in: command).dropFirst(2)) + [option.name, "qxqx"])
                #expect(
                    thrown(line)
                        == .usage(.unknownValue(option: option.name, value: "qxqx", allowed: words, suggestion: nil)),
                    "\(line)")
            }
        }
        #expect(seen >= 10)
    }

    @Test func anOptionWithoutWhatItNeedsIsRefused() {
        var seen = 0
        for command in Drivesim.commands {
            for option in command.options {
                guard let need = option.needs.first else { continue }
                seen += 1
                let needed = command.options.first { $0.name == need }
                let expected: DrivesimError
                if case .oneOf(let allowed) = needed?.value {
                    expected = .usage(.missingOption(option: need, allowed: allowed))
                } else {
                    expected = .usage(.needsOption(flag: option.name, option: need))
                }
                let line = Self.line(command, Self.valid(option))
                #expect(thrown(line) == expected, "\(line)")
            }
        }
        #expect(seen >= 8)
    }

    @Test func optionsThatExcludeEachOtherAreRefused() {
        var seen = 0
        for command in Drivesim.commands {
            for option in command.options {
                for other in option.excludes {
                    seen += 1
                    let excluded = command.options.first { $0.name == other }!
                    let line = Self.line(
                        command, Self.given(option, in: command) + Self.given(excluded, in: command))
                    #expect(thrown(line) == .usage(.excludes(option.name, other)), "\(line)")
                }
            }
        }
        #expect(seen >= 9)
    }

    @Test func aRequiredOptionMissingIsRefused() {
        let line = Self.line(ImportRouteCommand.self, ["--kmh", "50"])
        #expect(thrown(line) == .usage(.missingOption(option: "--language", allowed: ["ko", "en"])))
    }

    @Test func aBlankProcessCommandIsRefusedBeforeTheScenarioIsRead() {
        for option in ["--arbiter", "--guidance"] {
            #expect(thrown(Self.line(RunCommand.self, [option, " "])) == .usage(.emptyValue(option: option)))
        }
    }

    /// The options a usage line names: each `--name` in it.
    static func named(in usage: String) -> [String] {
        usage.split(whereSeparator: { " []|<>".contains($0) }).map(String.init).filter { $0.hasPrefix("--") }
    }

    @Test func eachUsageLineNamesOnlyOptionsOfItsTableAndEveryRequiredOne() {
        var named = 0
        for command in Drivesim.commands {
            let table = command.options.map(\.name)
            let inUsage = Self.named(in: command.usage)
            named += inUsage.count
            #expect(inUsage.filter { !table.contains($0) } == [], "\(command.name): \(command.usage)")
            let required = command.options.filter(\.required).map(\.name)
            #expect(required.filter { !inUsage.contains($0) } == [], "\(command.name): \(command.usage)")
        }
        #expect(named >= 40)
    }

    @Test func aUsageLineNamingAnOptionOfNoTableIsCaught() {
        #expect(
            Self.named(in: "USAGE: drivesim run <file> [--fromat <f>] [--a | --b <x>]") == ["--fromat", "--a", "--b"])
    }
}
