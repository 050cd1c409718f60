/// A `matches` pattern (SPEC 6): a regular expression, searched for
/// anywhere in a string field (anchored only by its own `^` and `$`),
/// compared by `Character` as strings are.
///
/// drivesim runs its own small engine rather than `Regex` or
/// `NSRegularExpression`: both backtrack and offer no step limit, so a
/// pattern like `(a|aa)*b` takes exponential time and `.*.*.*x` cubic time
/// (4 s on a 200-character text here); a wall-clock timeout would make a
/// check depend on the machine, and `Regex` needs macOS 13. This engine
/// compiles the pattern to an automaton and runs every thread of it in
/// lock step (Thompson's construction, a Pike VM), so a search takes
/// O(n × m) steps, n the text's characters and m the program's size, which
/// is bounded (`maxProgram`), whatever the pattern or the text.
///
/// The syntax is the common core of POSIX extended and Perl expressions:
/// - literals, and `\` before any punctuation for the character itself; `\t`, `\n`, `\r`;
/// - `.` (any character but a line feed), `^` (the start), `$` (the end), `\b`, `\B` (word boundaries);
/// - classes `[abc]`, `[^a-z]`, and `\d`, `\w`, `\s`, `\D`, `\W`, `\S` (Unicode digits, word characters, white space);
/// - groups `(…)`, `(?:…)`, `(?<name>…)`; alternation `|`;
/// - quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each optionally lazy (`*?`: the same for a search).
///
/// Anything else (backreferences, lookaround, inline options, possessive
/// quantifiers, nested classes) is refused with its position, never read
/// as something else.
public struct TextPattern: Sendable {
    /// The longest pattern accepted, in characters.
    package static let maxLength = 1000
    /// The most instructions a compiled pattern may have (`a{1000}` has a thousand).
    package static let maxProgram = 10_000

    /// Why a pattern is refused.
    public enum Problem: Error, Sendable, Equatable {
        /// Not a pattern of the syntax above: the reason and the 1-based character where it was found.
        case invalid(String, at: Int)
        /// Longer than `maxLength` characters.
        case tooLong(maxCharacters: Int)
        /// It compiles to more than `maxProgram` instructions (large counted repeats).
        case tooComplex(maxInstructions: Int)
    }

    private let program: [Instruction]

    /// The pattern compiled, or the reason it is refused.
    ///
    /// - Complexity: O(m) in the pattern's length and its program's size.
    package static func compile(_ pattern: String) -> Result<TextPattern, Problem> {
        let characters = Array(pattern)
        if characters.count > maxLength { return .failure(.tooLong(maxCharacters: maxLength)) }
        var parser = Parser(characters)
        do {
            let node = try parser.parse()
            var compiler = Compiler()
            try compiler.emit(node)
            compiler.program.append(.match)
            return .success(TextPattern(program: compiler.program))
        } catch {
            return .failure(error)
        }
    }

    /// Why `pattern` is refused, or nil when it is accepted.
    package static func problem(in pattern: String) -> Problem? {
        if case .failure(let problem) = compile(pattern) { return problem }
        return nil
    }

    /// Whether the pattern finds a match anywhere in `text`.
    ///
    /// - Complexity: O(n × m), n the text's characters and m the program's size.
    package func matches(_ text: String) -> Bool {
        let t = Array(text)
        var current = Threads(count: program.count)
        var next = Threads(count: program.count)
        for i in 0...t.count {
            // A thread starts at every position: the search is unanchored.
            if add(0, at: i, in: t, to: &current) { return true }
            guard i < t.count else { break }
            next.clear()
            for pc in current.list {
                let step: Bool
                switch program[pc] {
                case .character(let c): step = t[i] == c
                case .any: step = t[i] != "\n"
                case .set(let set): step = set.contains(t[i])
                default: step = false
                }
                if step, add(pc + 1, at: i + 1, in: t, to: &next) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds the thread at `pc` and every thread it reaches without reading a
    /// character; whether one of them is the match.
    private func add(_ pc: Int, at i: Int, in t: [Character], to threads: inout Threads) -> Bool {
        var stack = [pc]
        while let pc = stack.popLast() {
            guard threads.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let to): stack.append(to)
            case .split(let a, let b):
                stack.append(b)
                stack.append(a)
            case .start: if i == 0 { stack.append(pc + 1) }
            case .end: if i == t.count { stack.append(pc + 1) }
            case .boundary(let wanted):
                let before = i > 0 && CharacterSet.word.contains(t[i - 1])
                let after = i < t.count && CharacterSet.word.contains(t[i])
                if (before != after) == wanted { stack.append(pc + 1) }
            case .character, .any, .set: threads.list.append(pc)
            }
        }
        return false
    }

    /// The threads at one position: a sparse set of program counters, in the order they were added.
    private struct Threads {
        var list: [Int] = []
        var seen: [Bool]
        var touched: [Int] = []

        init(count: Int) { seen = Array(repeating: false, count: count) }

        /// Marks `pc`; false if it was already there.
        mutating func insert(_ pc: Int) -> Bool {
            if seen[pc] { return false }
            seen[pc] = true
            touched.append(pc)
            return true
        }

        mutating func clear() {
            for pc in touched { seen[pc] = false }
            touched.removeAll(keepingCapacity: true)
            list.removeAll(keepingCapacity: true)
        }
    }

    /// One instruction of the automaton.
    enum Instruction: Sendable {
        case character(Character)
        case any
        case set(CharacterSet)
        case split(Int, Int)
        case jump(Int)
        case start, end
        case boundary(Bool)
        case match
    }
}

/// A class of characters: `[a-z_]`, `\d`, or their negation.
struct CharacterSet: Sendable {
    enum Item: Sendable {
        case character(Character)
        case range(Character, Character)
        case digit, word, space
        case not(Class)
    }
    /// `\d`, `\w`, `\s`.
    enum Class: Sendable { case digit, word, space }

    var items: [Item]
    var negated = false

    static let word = CharacterSet(items: [.word])

    func contains(_ c: Character) -> Bool {
        func has(_ item: Item) -> Bool {
            switch item {
            case .character(let x): return c == x
            case .range(let lo, let hi): return lo <= c && c <= hi
            case .digit: return CharacterSet.isDigit(c)
            case .word: return c.isLetter || c.isNumber || c == "_"
            case .space: return c.isWhitespace
            case .not(let k): return !has(k == .digit ? .digit : k == .word ? .word : .space)
            }
        }
        return items.contains(where: has) != negated
    }

    /// A decimal digit of any script (Unicode `Nd`).
    static func isDigit(_ c: Character) -> Bool {
        c.unicodeScalars.count == 1 && c.unicodeScalars.first?.properties.numericType == .decimal
    }
}

extension TextPattern {
    /// A pattern as a tree.
    indirect enum Node {
        case empty
        case character(Character)
        case any
        case set(CharacterSet)
        case start, end
        case boundary(Bool)
        case sequence([Node])
        case either([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    /// Reads the syntax above, refusing anything else with its position.
    struct Parser {
        let s: [Character]
        var i = 0

        init(_ s: [Character]) { self.s = s }

        func fail(_ reason: String, at k: Int? = nil) -> Problem { .invalid(reason, at: (k ?? i) + 1) }
        var peek: Character? { i < s.count ? s[i] : nil }

        mutating func parse() throws(Problem) -> Node {
            let node = try alternation()
            if i < s.count { throw fail(s[i] == ")" ? "unmatched )" : "unexpected \(s[i])") }
            return node
        }

        mutating func alternation() throws(Problem) -> Node {
            var branches = [try sequence()]
            while peek == "|" {
                i += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .either(branches)
        }

        mutating func sequence() throws(Problem) -> Node {
            var items: [Node] = []
            while let c = peek, c != "|", c != ")" {
                let start = i
                var atom = try self.atom()
                while let q = try quantifier() {
                    if case .start = atom { throw fail("nothing to repeat", at: start) }
                    if case .end = atom { throw fail("nothing to repeat", at: start) }
                    if case .boundary = atom { throw fail("nothing to repeat", at: start) }
                    atom = .repeated(atom, min: q.min, max: q.max)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .sequence(items))
        }

        /// A quantifier after an atom, if there is one; a lazy `?` after it is read with it.
        mutating func quantifier() throws(Problem) -> (min: Int, max: Int?)? {
            guard let c = peek else { return nil }
            var q: (min: Int, max: Int?)
            switch c {
            case "*":
                q = (0, nil)
                i += 1
            case "+":
                q = (1, nil)
                i += 1
            case "?":
                q = (0, 1)
                i += 1
            case "{":
                guard let counted = try counted() else { return nil }
                q = counted
            default: return nil
            }
            if peek == "?" { i += 1 } else if peek == "+" { throw fail("possessive quantifiers are not supported") }
            if let c = peek, c == "*" || c == "+" || (c == "{" && looksCounted) { throw fail("nothing to repeat") }
            return q
        }

        /// Whether `{` here starts `{n}`, `{n,}` or `{n,m}`.
        var looksCounted: Bool {
            var k = i + 1
            var digits = 0
            while k < s.count, s[k].isASCII, s[k].isNumber {
                k += 1
                digits += 1
            }
            guard digits > 0, k < s.count else { return false }
            if s[k] == "}" { return true }
            guard s[k] == "," else { return false }
            k += 1
            while k < s.count, s[k].isASCII, s[k].isNumber { k += 1 }
            return k < s.count && s[k] == "}"
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (a literal brace) for anything else.
        mutating func counted() throws(Problem) -> (min: Int, max: Int?)? {
            guard looksCounted else { return nil }
            let start = i
            i += 1
            func number(_ p: inout Parser) -> Int {
                var n = 0
                while let c = p.peek, c.isASCII, let d = c.wholeNumberValue {
                    n = min(n * 10 + d, 100_000)
                    p.i += 1
                }
                return n
            }
            let low = number(&self)
            var high: Int? = low
            if peek == "," {
                i += 1
                high = peek == "}" ? nil : number(&self)
            }
            i += 1  // the `}`
            if let high, high < low { throw fail("{\(low),\(high)}: the upper bound is below the lower", at: start) }
            if low > TextPattern.maxProgram || (high ?? 0) > TextPattern.maxProgram {
                throw Problem.tooComplex(maxInstructions: TextPattern.maxProgram)
            }
            return (low, high)
        }

        mutating func atom() throws(Problem) -> Node {
            let c = s[i]
            switch c {
            case "(":
                i += 1
                if peek == "?" {
                    if i + 1 < s.count, s[i + 1] == ":" {
                        i += 2
                    } else if i + 2 < s.count, s[i + 1] == "<", s[i + 2] != "=", s[i + 2] != "!" {
                        i += 2
                        while let n = peek, n != ">" {
                            guard n.isLetter || n.isNumber || n == "_" else {
                                throw fail("a group's name takes letters, digits and _")
                            }
                            i += 1
                        }
                        guard peek == ">" else { throw fail("unterminated group name") }
                        i += 1
                    } else {
                        throw fail("(? groups other than (?: and (?<name> (lookaround, options) are not supported")
                    }
                }
                let open = i - 1
                let inner = try alternation()
                guard peek == ")" else { throw fail("missing ) for the group", at: open) }
                i += 1
                return inner
            case "[": return .set(try characterClass())
            case ".":
                i += 1
                return .any
            case "^":
                i += 1
                return .start
            case "$":
                i += 1
                return .end
            case "*", "+", "?": throw fail("nothing to repeat")
            case "{" where looksCounted: throw fail("nothing to repeat")
            case "\\": return try escape(inClass: false).node
            default:
                i += 1
                return .character(c)
            }
        }

        /// An escape: a class, an anchor, a control character or a literal.
        mutating func escape(inClass: Bool) throws(Problem) -> (node: Node, item: CharacterSet.Item?) {
            let at = i
            i += 1
            guard let e = peek else { throw fail("\\ at the end of the pattern", at: at) }
            i += 1
            switch e {
            case "d": return (.set(CharacterSet(items: [.digit])), .digit)
            case "w": return (.set(CharacterSet(items: [.word])), .word)
            case "s": return (.set(CharacterSet(items: [.space])), .space)
            case "D": return (.set(CharacterSet(items: [.not(.digit)])), .not(.digit))
            case "W": return (.set(CharacterSet(items: [.not(.word)])), .not(.word))
            case "S": return (.set(CharacterSet(items: [.not(.space)])), .not(.space))
            case "t": return (.character("\t"), .character("\t"))
            case "n": return (.character("\n"), .character("\n"))
            case "r": return (.character("\r"), .character("\r"))
            case "b" where !inClass: return (.boundary(true), nil)
            case "B" where !inClass: return (.boundary(false), nil)
            default:
                guard e.isASCII, e.isPunctuation || e.isSymbol || e == " " else {
                    if e.isNumber { throw fail("backreferences (\\\(e)) are not supported", at: at) }
                    throw fail(
                        "\\\(e) is not supported; write \\ only before punctuation or one of d w s D W S b B t n r",
                        at: at)
                }
                return (.character(e), .character(e))
            }
        }

        /// `[…]` or `[^…]`: characters, ranges and `\d`-style classes; `]` first is literal.
        mutating func characterClass() throws(Problem) -> CharacterSet {
            let open = i
            i += 1
            var set = CharacterSet(items: [])
            if peek == "^" {
                set.negated = true
                i += 1
            }
            var first = true
            while true {
                guard let c = peek else { throw fail("missing ] for the class", at: open) }
                if c == "]" && !first {
                    i += 1
                    break
                }
                first = false
                let item: CharacterSet.Item
                if c == "\\" {
                    guard let escaped = try escape(inClass: true).item else {
                        throw fail("\\b and \\B do not go in a class")
                    }
                    item = escaped
                } else if c == "[" {
                    throw fail("nested classes and [:name:] are not supported; write \\[ for a bracket")
                } else {
                    i += 1
                    item = .character(c)
                }
                // A range `a-z`; `-` first or last is itself.
                if case .character(let lo) = item, peek == "-", i + 1 < s.count, s[i + 1] != "]" {
                    let dash = i
                    i += 1
                    let hiItem: CharacterSet.Item
                    if peek == "\\" {
                        hiItem = try escape(inClass: true).item ?? .character("\\")
                    } else {
                        hiItem = .character(s[i])
                        i += 1
                    }
                    guard case .character(let hi) = hiItem else {
                        throw fail("a range ends in one character", at: dash)
                    }
                    if hi < lo { throw fail("the range \(lo)-\(hi) is out of order", at: dash) }
                    set.items.append(.range(lo, hi))
                } else {
                    set.items.append(item)
                }
            }
            return set
        }
    }

    /// Turns the tree into the automaton's program.
    struct Compiler {
        var program: [Instruction] = []

        mutating func append(_ instruction: Instruction) throws(Problem) {
            if program.count >= TextPattern.maxProgram {
                throw Problem.tooComplex(maxInstructions: TextPattern.maxProgram)
            }
            program.append(instruction)
        }

        mutating func emit(_ node: Node) throws(Problem) {
            switch node {
            case .empty: return
            case .character(let c): try append(.character(c))
            case .any: try append(.any)
            case .set(let set): try append(.set(set))
            case .start: try append(.start)
            case .end: try append(.end)
            case .boundary(let b): try append(.boundary(b))
            case .sequence(let items): for item in items { try emit(item) }
            case .either(let branches):
                // split L1, next; L1: branch; jump end; next: split …
                var jumps: [Int] = []
                for (k, branch) in branches.enumerated() {
                    if k < branches.count - 1 {
                        let split = program.count
                        try append(.split(split + 1, 0))
                        try emit(branch)
                        jumps.append(program.count)
                        try append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for j in jumps { program[j] = .jump(program.count) }
            case .repeated(let inner, let low, let high):
                for _ in 0..<low { try emit(inner) }
                if let high {
                    // Each optional copy: split into it or past the rest.
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(program.count)
                        try append(.split(0, 0))
                        try emit(inner)
                    }
                    for s in splits { program[s] = .split(s + 1, program.count) }
                } else {
                    // L: split body, out; body; jump L. An inner that can match
                    // nothing cannot loop: a thread visits each instruction once per position.
                    let loop = program.count
                    try append(.split(loop + 1, 0))
                    try emit(inner)
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
