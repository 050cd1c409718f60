import SimRunner

/// A JSON value as it was written, with where it was written.
///
/// Unlike `JSONSerialization`, it keeps what a strict scenario reader needs:
/// an object's members in file order (so the reader can refuse unknown keys
/// one by one and report them in order), a number's literal text (so seconds
/// can become milliseconds exactly, never through `Double`), and the 1-based
/// line and column of every value (so an error can point at it).
package struct JSONValue: Sendable, Equatable, CustomStringConvertible {
    /// What the value is.
    package var kind: Kind
    /// The position, stored in 32 bits each (files are at most 64 MiB), so
    /// that a long drive's tree is a fifth smaller.
    private var storedLine: Int32, storedColumn: Int32
    /// The 1-based line of its first character; 0 for a value built in code.
    package var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }
    /// The 1-based column (in Unicode scalars) of its first character; 0 for a value built in code.
    package var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// The shape of a JSON value.
    package enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number's literal text, exactly as written (`2.50`, `1e-3`).
        case number(String)
        case string(String)
        case array([JSONValue])
        /// Members in file order. The parser never produces duplicate keys.
        case object([(key: String, value: JSONValue)])

        /// Same kind, same number literal (`1.0` is not `1`), same members
        /// in the same order.
        package static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case (.bool(let x), .bool(let y)): return x == y
            case (.number(let x), .number(let y)): return x == y
            case (.string(let x), .string(let y)): return x == y
            case (.array(let x), .array(let y)): return x == y
            case (.object(let x), .object(let y)):
                return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: return false
            }
        }
    }

    /// A value of the given kind at the given position (0 when built in code).
    package init(_ kind: Kind, line: Int = 0, column: Int = 0) {
        self.kind = kind
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// Two values are equal when their contents are; positions are ignored.
    package static func == (a: JSONValue, b: JSONValue) -> Bool { a.kind == b.kind }

    /// The value as compact JSON with sorted keys.
    package var description: String {
        String(decoding: JSONWriter.bytes(self, pretty: false), as: UTF8.self)
    }

    /// The member with this key, if the value is an object that has it.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }
}

extension JSONValue {
    /// `null`.
    package static let null = JSONValue(.null)
    /// A string value.
    package static func string(_ s: String) -> JSONValue { JSONValue(.string(s)) }
    /// A boolean value.
    package static func bool(_ b: Bool) -> JSONValue { JSONValue(.bool(b)) }
    /// A number from its literal text; the caller makes sure it is valid JSON.
    package static func number(_ literal: String) -> JSONValue { JSONValue(.number(literal)) }
    /// An integer number.
    package static func integer<I: BinaryInteger>(_ i: I) -> JSONValue { JSONValue(.number(String(i))) }
    /// An array value.
    package static func array(_ items: [JSONValue]) -> JSONValue { JSONValue(.array(items)) }
    /// An object value with members in the given order.
    package static func object(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
        JSONValue(.object(members))
    }
}
