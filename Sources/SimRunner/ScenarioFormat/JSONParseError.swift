import SimRunner

/// Why a byte sequence is not one strict JSON value (RFC 8259), and where.
package struct JSONParseError: Error, Sendable, Equatable {
    /// What is wrong.
    package var reason: Reason
    /// 1-based line of the offending character (or of the end of input).
    package var line: Int
    /// 1-based column, counted in Unicode scalars.
    package var column: Int
    /// Where in the document: `replies[0].stretches` (empty at the top level).
    package var path: String

    /// What is wrong, as a case; prose is made by `ScenarioError`.
    package enum Reason: Sendable, Equatable {
        /// Nothing but whitespace.
        case empty
        /// A byte sequence that is not UTF-8.
        case invalidUTF8
        /// Objects and arrays nested deeper than `JSONParser.maxDepth`.
        case tooDeep
        /// An object with the same key twice.
        case duplicateKey(String)
        /// Any other violation of the grammar.
        case syntax(JSONSyntax)
    }

    /// Creates an error.
    package init(reason: Reason, line: Int, column: Int, path: String) {
        self.reason = reason
        self.line = line
        self.column = column
        self.path = path
    }
}

/// A violation of the JSON grammar.
public enum JSONSyntax: Sendable, Equatable, CustomStringConvertible {
    /// A character that cannot appear here (shown as written, or as `U+XXXX`
    /// when invisible), and what could.
    case unexpectedCharacter(String, expected: Wanted)
    /// The input ends where `expected` was needed.
    case unexpectedEnd(expected: Wanted)
    /// More than whitespace after the top-level value.
    case trailingContent
    /// A raw control character (below U+0020) inside a string.
    case controlCharacterInString
    /// A backslash not followed by one of `"\/bfnrtu`.
    case invalidEscape
    /// `\u` not followed by four hex digits, or a lone surrogate.
    case invalidUnicodeEscape
    /// A number that breaks the grammar: a leading zero, a missing digit.
    case invalidNumber

    /// What the parser was looking for.
    public enum Wanted: Sendable, Equatable, CustomStringConvertible {
        case value
        case key
        case colon
        case commaOrCloseBracket
        case commaOrCloseBrace
        case closingQuote

        /// What was wanted, as a phrase (`a value`, `',' or '}'`).
        public var description: String {
            switch self {
            case .value: return "a value"
            case .key: return "a key in double quotes"
            case .colon: return "':'"
            case .commaOrCloseBracket: return "',' or ']'"
            case .commaOrCloseBrace: return "',' or '}'"
            case .closingQuote: return "a closing '\"'"
            }
        }
    }

    /// The error as the message's phrase.
    public var description: String {
        switch self {
        case .unexpectedCharacter(let c, let expected): return "expected \(expected), found \(c)"
        case .unexpectedEnd(let expected): return "expected \(expected), found the end of the file"
        case .trailingContent: return "unexpected content after the top-level value"
        case .controlCharacterInString: return "control character in a string (write it as an escape, like \\n)"
        case .invalidEscape: return "invalid escape in a string"
        case .invalidUnicodeEscape: return "invalid \\u escape (four hex digits; surrogates must come in pairs)"
        case .invalidNumber: return "invalid number"
        }
    }
}
