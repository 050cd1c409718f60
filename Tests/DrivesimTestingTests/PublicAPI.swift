/// The public declarations of a module's sources and the list docs/library.md
/// gives of them ("Public API"), for `PublicAPITests`.
///
/// A declaration is named as library.md lists it: a type, protocol or
/// typealias by its qualified name (`Verdict.Failure`), a top-level function or
/// constant by its name, and a member that an extension adds to another
/// module's type as `Type.member` (`Timeline.svg`, `Timeline.init`). Members
/// of the module's own public types are not named. The sources are read line
/// by line, as swift format lays them out: one declaration a line, braces
/// counted outside comments and string literals.
enum PublicAPI {
    /// The names `sources` (a module's files' texts) make public.
    static func declarations(in sources: [String]) -> Set<String> {
        let files = sources.map(codeLines)
        // The module's own top-level types: an extension of any other is named member by member.
        var own = Set<String>()
        for lines in files {
            for line in lines where !line.hasPrefix(" ") {
                if let d = Declaration(line), d.keyword != "extension", Declaration.types.contains(d.keyword) {
                    own.insert(d.name)
                }
            }
        }
        var names = Set<String>()
        for lines in files { scan(lines, own: own, into: &names) }
        return names
    }

    /// The names listed under "## Public API", by module (`### Module`), each
    /// a list item that starts with the name in backticks.
    static func listed(in markdown: String) -> [String: Set<String>] {
        var modules: [String: Set<String>] = [:]
        var inSection = false
        var module: String?
        for line in markdown.split(separator: "\n").map(String.init) {
            if line.hasPrefix("## ") {
                inSection = line == "## Public API"
                module = nil
            } else if inSection, line.hasPrefix("### ") {
                let name = String(line.dropFirst(4))
                module = name
                modules[name] = []
            } else if inSection, let module, line.hasPrefix("- `"),
                let end = line.dropFirst(3).firstIndex(of: "`")
            {
                modules[module, default: []].insert(String(line[line.index(line.startIndex, offsetBy: 3)..<end]))
            }
        }
        return modules
    }

    /// What differs between the names a module declares and those the docs list, one line each side; empty when equal.
    static func differences(module: String, declared: Set<String>, listed: Set<String>) -> [String] {
        var lines: [String] = []
        let missing = declared.subtracting(listed).sorted()
        let extra = listed.subtracting(declared).sorted()
        if !missing.isEmpty {
            lines.append("\(module): public but not listed in docs/library.md: \(missing.joined(separator: ", "))")
        }
        if !extra.isEmpty {
            lines.append("\(module): listed in docs/library.md but not public: \(extra.joined(separator: ", "))")
        }
        return lines
    }

    /// One scope a type's or an extension's body opens.
    private struct Scope {
        /// The qualified name of the type it declares or extends.
        var path: [String]
        /// Whether its public members are public API: the type and those around it are public.
        var isPublic: Bool
        /// An extension of another module's type: its public members are named.
        var isForeign: Bool
        /// A `public extension`: its members without an access keyword are public.
        var isPublicExtension: Bool
        /// The brace depth inside its body.
        var depth: Int
    }

    private static func scan(_ lines: [String], own: Set<String>, into names: inout Set<String>) {
        var scopes: [Scope] = []
        var depth = 0
        // A type or extension whose `{` is still to come (its header wraps).
        var pending: Scope?
        for line in lines {
            let scope = scopes.last
            // Only declarations directly in a type's body or at the top level, not in a function's.
            if depth == (scope?.depth ?? 0), let d = Declaration(line) {
                let enclosing = scope?.path ?? []
                let isPublic =
                    d.access == "public" || d.access == "open" || (d.access == nil && scope?.isPublicExtension == true)
                let visible = isPublic && (scope?.isPublic ?? true)
                if d.keyword == "extension" {
                    let path = d.name.split(separator: ".").map(String.init)
                    pending = Scope(
                        path: path, isPublic: true, isForeign: !own.contains(path[0]), isPublicExtension: isPublic,
                        depth: 0)
                } else if Declaration.types.contains(d.keyword) {
                    if visible { names.insert((enclosing + [d.name]).joined(separator: ".")) }
                    pending = Scope(
                        path: enclosing + [d.name], isPublic: visible, isForeign: false, isPublicExtension: false,
                        depth: 0)
                } else if visible, d.keyword != "case", d.keyword == "typealias" || scope?.isForeign ?? true {
                    names.insert((enclosing + [d.name]).joined(separator: "."))
                }
            }
            for c in line {
                if c == "{" {
                    depth += 1
                    if var opened = pending {
                        opened.depth = depth
                        scopes.append(opened)
                        pending = nil
                    }
                } else if c == "}" {
                    if scopes.last?.depth == depth { scopes.removeLast() }
                    depth -= 1
                }
            }
        }
    }

    /// The file's lines without comments and without the contents of string
    /// literals (a line inside a multi-line literal or a block comment is left empty).
    private static func codeLines(_ text: String) -> [String] {
        enum State { case code, lineComment, blockComment, string, multiLineString }
        let slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*")
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let newline = UInt8(ascii: "\n")
        let bytes = Array(text.utf8)
        var state = State.code
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        func at(_ a: UInt8, _ b: UInt8, _ c: UInt8? = nil) -> Bool {
            i + 1 < bytes.count && bytes[i] == a && bytes[i + 1] == b
                && (c == nil || (i + 2 < bytes.count && bytes[i + 2] == c))
        }
        while i < bytes.count {
            let c = bytes[i]
            if c == newline {
                out.append(c)
                if state == .lineComment { state = .code }
                i += 1
                continue
            }
            switch state {
            case .code:
                if at(slash, slash) {
                    state = .lineComment
                } else if at(slash, star) {
                    state = .blockComment
                } else if at(quote, quote, quote) {
                    state = .multiLineString
                    i += 2
                } else {
                    if c == quote { state = .string }
                    out.append(c)
                }
            case .lineComment: break
            case .blockComment:
                if at(star, slash) {
                    state = .code
                    i += 1
                }
            case .string:
                if c == backslash {
                    i += 1
                } else if c == quote {
                    state = .code
                    out.append(c)
                }
            case .multiLineString:
                if c == backslash {
                    i += 1
                } else if at(quote, quote, quote) {
                    state = .code
                    i += 2
                }
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// The declaration a line starts, if any: its access keyword, keyword and name.
    private struct Declaration {
        static let types: Set<String> = ["struct", "enum", "class", "actor", "protocol", "extension"]
        static let keywords: Set<String> = types.union([
            "typealias", "func", "let", "var", "init", "subscript", "case", "associatedtype",
        ])
        static let accessWords: Set<String> = ["public", "open", "package", "internal", "fileprivate", "private"]

        var access: String?
        var keyword: String
        var name: String

        init?(_ line: String) {
            var words = line.split(separator: " ").map(String.init)[...]
            var access: String?
            // Attributes (`@inlinable`) and modifiers stand before the keyword; anything else is no declaration.
            while let word = words.first, !Self.keywords.contains(Self.bare(word)) || Self.isClassModifier(word, words)
            {
                if word.hasPrefix("@") || Self.modifiers.contains(word) || word.hasSuffix("(set)") {
                    if Self.accessWords.contains(word) { access = word }
                    words.removeFirst()
                } else {
                    return nil
                }
            }
            guard let keyword = words.popFirst().map(Self.bare) else { return nil }
            self.access = access
            self.keyword = keyword
            // The name ends where its generic parameters, parameters, type or body begin.
            let name = words.first.map(Self.bare) ?? ""
            self.name = keyword == "init" || keyword == "subscript" || name.isEmpty ? keyword : name
        }

        static let modifiers: Set<String> = accessWords.union([
            "static", "final", "class", "override", "mutating", "nonmutating", "nonisolated", "convenience",
            "required", "indirect", "lazy", "weak", "unowned", "dynamic", "prefix", "postfix", "infix",
        ])

        /// A word without what may follow a keyword or name directly (`init?(`, `f(x:`, `T<U>:`).
        private static func bare(_ word: String) -> String { String(word.prefix { !"(<?!:{,".contains($0) }) }

        /// `class` before `func` or `var` is a modifier, not a class.
        private static func isClassModifier(_ word: String, _ words: ArraySlice<String>) -> Bool {
            word == "class" && words.dropFirst().first.map { ["func", "var", "let", "subscript"].contains($0) } == true
        }
    }
}
