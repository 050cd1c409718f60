/// A `matches` pattern (SPEC 6): a regular expression in Swift's `Regex`
/// syntax, searched for anywhere in the field (anchored only by its own `^`
/// and `$`), compared by `Character` as strings are.
///
/// `Regex` backtracks, so a pattern can take exponential time on a short
/// text. What makes it do so is refused before the run (`problem(in:)`):
/// backreferences and recursion, and a repeated group that itself holds a
/// quantifier or an alternation (`(a+)+`, `(a|aa)*`, `(a?){30}`). What is
/// left runs in time polynomial in the text, its degree the number of
/// quantifiers in a row; the pattern is at most `maxLength` characters, and
/// the checker tests each distinct text once per pattern.
public struct TextPattern: Sendable {
    /// The longest pattern accepted, in characters.
    public static let maxLength = 1000

    /// Why a pattern is refused.
    public enum Problem: Error, Sendable, Equatable {
        /// Not a regular expression; the payload is `Regex`'s reason (`expected ')'`).
        case invalid(String)
        /// Longer than `maxLength` characters.
        case tooLong(maxCharacters: Int)
        /// A backreference or a recursion (`\1`, `\k<name>`, `(?R)`): it can take exponential time.
        case backreference
        /// A repeated group that holds a quantifier or an alternation: it can take exponential time.
        case nestedRepetition
        /// This platform's standard library has no `Regex` (macOS before 13).
        case unavailable
    }

    private let search: @Sendable (String) -> Bool

    /// The pattern compiled, or the reason it is refused.
    public static func compile(_ pattern: String) -> Result<TextPattern, Problem> {
        if pattern.count > maxLength { return .failure(.tooLong(maxCharacters: maxLength)) }
        guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *) else { return .failure(.unavailable) }
        let regex: Regex<AnyRegexOutput>
        do { regex = try Regex(pattern) } catch { return .failure(.invalid(String(describing: error))) }
        if let problem = TextPattern.runaway(in: pattern) { return .failure(problem) }
        // `Regex` is not declared `Sendable`; this one is never changed after it is made.
        nonisolated(unsafe) let compiled = regex
        return .success(TextPattern { text in text.contains(compiled) })
    }

    private init(search: @escaping @Sendable (String) -> Bool) { self.search = search }

    /// Why `pattern` is refused, or nil when it is accepted.
    public static func problem(in pattern: String) -> Problem? {
        if case .failure(let problem) = compile(pattern) { return problem }
        return nil
    }

    /// Whether the pattern finds a match in `text`.
    public func matches(_ text: String) -> Bool { search(text) }

    /// What in a pattern that `Regex` accepted could make it run away: a
    /// scan of its groups, classes, escapes and quantifiers (coarse, but
    /// never fooled by a quantifier character inside a class or an escape).
    ///
    /// - Complexity: O(m) in the pattern's length.
    static func runaway(in pattern: String) -> Problem? {
        let s = Array(pattern.unicodeScalars)
        // One frame per open group: whether it holds a quantifier or an alternation.
        var frames: [Bool] = [false]
        // Whether the last atom is a group that holds one (a repeat of it would nest).
        var lastHolds = false
        var i = 0
        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }
        while i < s.count {
            let c = s[i]
            switch c {
            case "\\":
                let e = at(i + 1)
                if let e, ("1"..."9").contains(e) || e == "k" || e == "g" { return .backreference }
                if e == "Q" {
                    // Quoted text runs to `\E` (or the end).
                    i += 2
                    while i < s.count, !(s[i] == "\\" && at(i + 1) == "E") { i += 1 }
                    i += 2
                } else {
                    i += 2
                    // `\p{L}`, `\x{41}`, `\N{…}`: the braces belong to the escape.
                    if at(i) == "{" { while i < s.count, s[i] != "}" { i += 1 }; i += 1 }
                }
                lastHolds = false
            case "[":
                // A class, nested classes included; `]` first in a class is literal.
                var depth = 0
                repeat {
                    if s[i] == "\\" { i += 2; continue }
                    if s[i] == "[" {
                        depth += 1
                        i += 1
                        if at(i) == "^" { i += 1 }
                        if at(i) == "]" { i += 1 }
                        continue
                    }
                    if s[i] == "]" { depth -= 1 }
                    i += 1
                } while i < s.count && depth > 0
                lastHolds = false
            case "(":
                i += 1
                if at(i) == "?" || at(i) == "*" {
                    let k = at(i + 1)
                    if k == "#" {
                        while i < s.count, s[i] != ")" { i += 1 }
                        i += 1
                        continue
                    }
                    if k == "R" || k == "&" || k == "+" || isDigit(k) || (k == "-" && isDigit(at(i + 2)))
                        || (k == "P" && (at(i + 2) == "=" || at(i + 2) == ">")) {
                        return .backreference
                    }
                }
                frames.append(false)
                lastHolds = false
            case ")":
                let holds = frames.removeLast()
                if frames.isEmpty { frames = [false] }
                frames[frames.count - 1] = frames[frames.count - 1] || holds
                lastHolds = holds
                i += 1
            case "|":
                frames[frames.count - 1] = true
                lastHolds = false
                i += 1
            case "*", "+", "?", "{":
                var repeats = c != "?"
                if c == "{" {
                    // `{n}`, `{n,}`, `{n,m}`, `{,m}`; anything else is a literal brace.
                    var k = i + 1
                    while let d = at(k), isDigit(d) || d == "," || d == " " { k += 1 }
                    guard at(k) == "}" else { lastHolds = false; i += 1; continue }
                    let body = String(String.UnicodeScalarView(s[(i + 1)..<k])).filter { $0 != " " }
                    let upper = body.contains(",") ? body.split(separator: ",", omittingEmptySubsequences: false).last.flatMap { Int($0) } : Int(body)
                    repeats = upper.map { $0 > 1 } ?? true
                    i = k + 1
                } else {
                    i += 1
                }
                if repeats && lastHolds { return .nestedRepetition }
                frames[frames.count - 1] = true
                // A lazy `?` or possessive `+` after a quantifier modifies it.
                if at(i) == "?" || at(i) == "+" { i += 1 }
                lastHolds = false
            default:
                lastHolds = false
                i += 1
            }
        }
        return nil
    }
}
