import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// A command's arguments, parsed by hand in the manner of
/// swift-argument-parser: `--name value` or `--name=value`, flags, and
/// positional arguments; a misspelt option gets a suggestion.
struct Arguments {
    /// The positional arguments, in order.
    var positional: [String] = []
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []

    /// Parses `tokens` given the command's options that take a value and its flags.
    init(_ tokens: [String], options: [String], flags knownFlags: [String]) throws(DrivesimError) {
        var i = 0
        var onlyPositional = false
        while i < tokens.count {
            let token = tokens[i]
            i += 1
            if onlyPositional || !token.hasPrefix("-") || token == "-" {
                positional.append(token)
                continue
            }
            if token == "--" {
                onlyPositional = true
                continue
            }
            let parts = token.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            if knownFlags.contains(name) {
                if parts.count > 1 { throw .usage(.flagTakesNoValue(flag: name)) }
                flags.append(name)
            } else if options.contains(name) {
                if parts.count > 1 {
                    values.append((name, parts[1]))
                } else if i < tokens.count {
                    values.append((name, tokens[i]))
                    i += 1
                } else {
                    throw .usage(.missingValue(option: name))
                }
            } else {
                throw .usage(.unknownOption(name, suggestion: suggestion(for: name, among: options + knownFlags)))
            }
        }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for an option, if any.
    func value(_ name: String) -> String? { values.last { $0.name == name }?.value }

    /// The values given for any of `names`, in the order given (a repeated
    /// option, and options that apply to the one before them).
    func ordered(_ names: [String]) -> [(name: String, value: String)] { values.filter { names.contains($0.name) } }

    /// An option's value as a whole number in `range`.
    func integer<T: FixedWidthInteger>(_ name: String, in range: ClosedRange<T>) throws(DrivesimError) -> T? {
        guard let text = value(name) else { return nil }
        guard let n = T(text), range.contains(n) else {
            throw .usage(
                .notAWholeNumber(option: name, value: text, from: "\(range.lowerBound)", to: "\(range.upperBound)"))
        }
        return n
    }
}
