import Foundation
import Review

/// One option of a command, declared once in its command's table
/// (`Command.options`): `Arguments` parses and checks by it, `--help` lists
/// it (`Option.help(_:)`) and the completions offer it.
struct Option: Sendable {
    /// What an option takes.
    enum Value: Sendable, Equatable {
        /// Nothing: a flag.
        case none
        /// A whole number in this range.
        case integer(ClosedRange<UInt64>)
        /// Any text (`check` may refuse some).
        case text
        /// A file or folder name.
        case file
        /// One of these words.
        case oneOf([String])
    }

    /// Checks a value beyond its kind; throws a usage error naming the option.
    typealias Check = @Sendable (_ option: String, _ value: String) throws(DrivesimError) -> Void

    var name: String
    var value: Value
    /// The value as help shows it (`<format>`, `<i>/<n>`); empty for a flag.
    var placeholder: String
    /// Its description in help, a line of the help's source a line; nil: described
    /// with the option before it (`--from <t>, --to <t>`).
    var help: String?
    /// Whether each value given counts (`Arguments.ordered`), not only the last.
    var repeats = false
    /// Options that cannot be given with it.
    var excludes: [String] = []
    /// Options it applies only with, each an option's name or a name and its value (`--format wav`).
    var needs: [String] = []
    /// Whether it must be given.
    var required = false
    /// The words the completions offer for a value of `.text`.
    var offers: [String] = []
    var check: Check?

    /// An option that takes a value.
    init(
        _ name: String, _ value: Value, _ placeholder: String, help: String?, repeats: Bool = false,
        excludes: [String] = [], needs: [String] = [], required: Bool = false, offers: [String] = [],
        check: Check? = nil
    ) {
        self.name = name
        self.value = value
        self.placeholder = placeholder
        self.help = help
        self.repeats = repeats
        self.excludes = excludes
        self.needs = needs
        self.required = required
        self.offers = offers
        self.check = check
    }

    /// A flag.
    static func flag(_ name: String, help: String, excludes: [String] = [], needs: [String] = []) -> Option {
        Option(name, .none, "", help: help, excludes: excludes, needs: needs)
    }

    /// The words a value may be, for the completions; nil when any text may be.
    var words: [String]? {
        if case .oneOf(let words) = value { return words }
        return offers.isEmpty ? nil : offers
    }

    /// How help shows it: `--format <format>`, `--all`.
    var head: String { placeholder.isEmpty ? name : "\(name) \(placeholder)" }

    /// The value's name, the first in its placeholder's angle brackets (`i` of `<i>/<n>`).
    var valueName: String { String(placeholder.drop { $0 != "<" }.dropFirst().prefix { $0 != ">" }) }

    /// The description of `-h, --help`, which every command takes.
    static let helpSummary = "Show help information."

    /// The lines of an OPTIONS section listing `options` and then `-h, --help`:
    /// each option's head, then its description from column 26, its further lines under it.
    static func help(_ options: [Option]) -> String {
        var rows: [(head: String, help: String)] = []
        for option in options {
            if let help = option.help {
                rows.append((option.head, help))
            } else if !rows.isEmpty {
                rows[rows.count - 1].head += ", " + option.head
            }
        }
        rows.append(("-h, --help", helpSummary))
        let indent = String(repeating: " ", count: 26)
        return rows.map { row in
            let lines = row.help.split(separator: "\n", omittingEmptySubsequences: false)
            // A head too long for its column stands on a line of its own.
            guard row.head.count < 24 else {
                return (["  " + row.head] + lines.map { indent + $0 }).joined(separator: "\n")
            }
            return (["  " + pad(row.head, 24) + lines[0]] + lines.dropFirst().map { indent + $0 }).joined(
                separator: "\n")
        }.joined(separator: "\n")
    }

    /// `--arbiter-timeout`, as every command with `--arbiter` takes it.
    static let arbiterTimeout = Option(
        "--arbiter-timeout", .integer(1...3600), "<s>", help: "How long it may take over one answer (default: 5).")
    /// `--guidance-timeout`, as every command with `--guidance` takes it.
    static let guidanceTimeout = Option(
        "--guidance-timeout", .integer(1...3600), "<s>", help: "How long it may take over one answer (default: 5).")

    /// `--jobs`, as `fuzz` and `explore` take it.
    static let jobs = Option(
        "--jobs", .integer(1...1024), "<n>",
        help: """
            Workers, 1 to 1024 (default: this machine's cores); the
            results, files and output are the same for every n.
            """)
    /// `--jobs` when it is not given: this machine's cores.
    static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Refuses a value that is empty or only spaces (a command to run).
    static let notBlank: Check = { option, value throws(DrivesimError) in
        guard value.contains(where: { !$0.isWhitespace }) else { throw .usage(.emptyValue(option: option)) }
    }
}
