import ScenarioFormat

/// A command's arguments, parsed by its table of options (`Command.options`)
/// in the manner of swift-argument-parser: `--name value` or `--name=value`,
/// flags, and positional arguments; a misspelt option gets a suggestion.
/// Every option's value, and which options need or exclude which, is
/// checked here, before the command reads a file.
struct Arguments {
    /// The positional arguments, in order.
    var positional: [String] = []
    private let table: [Option]
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []
    /// The whole numbers given, by option.
    private var integers: [String: UInt64] = [:]

    /// Parses `tokens` by `table`, and checks them (`check()`).
    init(_ tokens: [String], options table: [Option]) throws(DrivesimError) {
        self.table = table
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
            guard let option = table.first(where: { $0.name == name }) else {
                throw .usage(.unknownOption(name, suggestion: suggestion(for: name, among: table.map(\.name))))
            }
            if option.value == .none {
                if parts.count > 1 { throw .usage(.flagTakesNoValue(flag: name)) }
                flags.append(name)
            } else if parts.count > 1 {
                values.append((name, parts[1]))
            } else if i < tokens.count {
                values.append((name, tokens[i]))
                i += 1
            } else {
                throw .usage(.missingValue(option: name))
            }
        }
        try check()
    }

    /// Checks each option given, in the table's order: the options it
    /// excludes, those it needs, then its value (each value of one that
    /// repeats, the last of another); then that each required one is given.
    private mutating func check() throws(DrivesimError) {
        for option in table where given(option.name) {
            for other in option.excludes where given(other) { throw .usage(.excludes(option.name, other)) }
            for need in option.needs {
                let parts = need.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count > 1 ? value(parts[0]) != parts[1] : !given(parts[0]) else { continue }
                if parts.count == 1, let needed = table.first(where: { $0.name == need }),
                    case .oneOf(let allowed) = needed.value
                {
                    throw .usage(.missingOption(option: need, allowed: allowed))
                }
                throw .usage(.needsOption(flag: option.name, option: need))
            }
            let given = values.filter { $0.name == option.name }.map(\.value)
            for text in option.repeats ? given : Array(given.suffix(1)) {
                try check(text, of: option)
            }
        }
        for option in table where option.required && !given(option.name) {
            guard case .oneOf(let allowed) = option.value else { continue }
            throw .usage(.missingOption(option: option.name, allowed: allowed))
        }
    }

    /// Checks one value of `option` by its kind and its `check`.
    private mutating func check(_ text: String, of option: Option) throws(DrivesimError) {
        switch option.value {
        case .integer(let range):
            guard let n = UInt64(text), range.contains(n) else {
                throw .usage(
                    .notAWholeNumber(
                        option: option.name, value: text, from: "\(range.lowerBound)", to: "\(range.upperBound)"))
            }
            integers[option.name] = n
        case .oneOf(let allowed):
            guard allowed.contains(text) else {
                throw .usage(
                    .unknownValue(
                        option: option.name, value: text, allowed: allowed,
                        suggestion: suggestion(for: text, among: allowed)))
            }
        case .none, .text, .file: break
        }
        try option.check?(option.name, text)
    }

    /// Whether an option or flag of the table was given.
    private func given(_ name: String) -> Bool { flags.contains(name) || values.contains { $0.name == name } }

    /// Asserts that `name` is in the table: asking for another is a mistake that would always answer nil.
    private func known(_ name: String) -> String {
        assert(table.contains { $0.name == name }, "\(name) is not an option of this command")
        return name
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(known(flag)) }

    /// The last value given for an option, if any.
    func value(_ name: String) -> String? { values.last { $0.name == known(name) }?.value }

    /// The values given for any of `names`, each an option that repeats, in
    /// the order given (options that apply to the one before them).
    func ordered(_ names: [String]) -> [(name: String, value: String)] {
        assert(names.allSatisfy { name in table.contains { $0.name == name && $0.repeats } })
        return values.filter { names.contains($0.name) }
    }

    /// An option's whole number (checked against its range), if given.
    func integer<T: FixedWidthInteger>(_ name: String) -> T? { integers[known(name)].map { T($0) } }
}
