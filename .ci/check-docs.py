#!/usr/bin/env python3
"""Fails when a `public` or `open` declaration in Sources/ has no `///` doc comment
directly above it (attributes such as `@inlinable` may stand between). Members of a
`public extension` are public without the keyword, so they count too; the extension
itself is not a symbol and needs none.

`check-docs.py --self-test` runs the checker on small sources with known answers,
so a checker that cannot fail is caught."""
import pathlib
import re
import sys
import tempfile

# A declaration keyword, after any attributes and modifiers.
DECL = r"(?:func|init|init\?|init!|subscript|var|let|struct|class|enum|protocol|typealias|actor|case|associatedtype|extension|macro)\b"
MODIFIER = r"(?:public|open|package|internal|fileprivate|private|static|final|class|override|mutating|nonmutating|nonisolated|convenience|required|indirect|lazy|weak|unowned|dynamic|consuming|borrowing|prefix|postfix|infix|(?:public|open|package|internal|fileprivate|private)\(set\))"
ATTRIBUTE = r"@\w+(?:\([^)]*\))?"
DECLARATION = re.compile(rf"^\s*((?:{ATTRIBUTE}\s+)*)((?:{MODIFIER}\s+)*){DECL}")
ATTRIBUTE_LINE = re.compile(rf"^\s*(?:{ATTRIBUTE}\s*)+$")
ACCESS = re.compile(r"\b(public|open|package|internal|fileprivate|private)\b(?!\(set\))")


def code_of(line):
    """The line without a trailing `//` comment and without string literals' contents."""
    out, i, quote = [], 0, False
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                quote = False
            i += 1
            continue
        if c == '"':
            quote = True
        elif line.startswith("//", i):
            break
        else:
            out.append(c)
        i += 1
    return "".join(out)


def problems(path, text):
    lines = text.splitlines()
    depth = 0
    # Brace depths at which the body of a `public extension` is open.
    public_extensions = []
    # A pending `public extension` whose `{` has not been seen yet.
    pending_extension = False
    in_multiline_string = False
    in_block_comment = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if in_multiline_string:
            if '"""' in stripped:
                in_multiline_string = False
            continue
        if in_block_comment:
            if "*/" in stripped:
                in_block_comment = False
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_block_comment = True
            continue
        if stripped.startswith("//") or stripped.startswith("#"):
            continue
        if stripped.count('"""') % 2 == 1:
            in_multiline_string = True
        code = code_of(line)
        match = DECLARATION.match(code)
        if match:
            modifiers = match.group(2)
            access = ACCESS.findall(modifiers)
            keyword = re.match(r"\s*(?:" + ATTRIBUTE + r"\s+)*(?:" + MODIFIER + r"\s+)*(\w+)", code).group(1)
            in_public_extension = bool(public_extensions) and public_extensions[-1] == depth
            if keyword == "extension":
                if "public" in access or "open" in access:
                    pending_extension = True
            elif ("public" in access or "open" in access) or (in_public_extension and not access):
                if not documented(lines, number - 1):
                    yield f"{path}:{number}: public declaration without a /// doc comment: {stripped}"
        for c in code:
            if c == "{":
                depth += 1
                if pending_extension:
                    public_extensions.append(depth)
                    pending_extension = False
            elif c == "}":
                if public_extensions and public_extensions[-1] == depth:
                    public_extensions.pop()
                depth -= 1


def documented(lines, index):
    """Whether the declaration at `lines[index]` has a `///` comment directly above,
    attribute lines allowed in between."""
    i = index - 1
    while i >= 0 and ATTRIBUTE_LINE.match(lines[i]):
        i -= 1
    return i >= 0 and lines[i].strip().startswith("///")


def main(roots, quiet=False):
    found = []
    for root in roots:
        for f in sorted(pathlib.Path(root).rglob("*.swift")):
            if ".build" in f.parts:
                continue
            found.extend(problems(f, f.read_text(encoding="utf-8")))
    if not quiet:
        for p in found:
            print(p)
        print(f"docs: {len(found)} public declaration(s) without a doc comment")
    return 1 if found else 0


# Each case: a source and the line numbers the checker must name.
SELF_TEST = [
    ("public func f() {}\n", [1]),
    ("/// Documented.\npublic func f() {}\n", []),
    ("/// Documented.\n@inlinable\npublic func f() {}\n", []),
    ("/// Documented.\n@inlinable @discardableResult\npublic static func f() -> Int { 1 }\n", []),
    ("/// A type.\npublic struct S {\n    public init() {}\n    public var x: Int\n    var y: Int\n}\n", [3, 4]),
    ("/// A type.\npublic struct S {\n\n    /// The x.\n    public private(set) var x: Int\n}\n", []),
    ("public extension S {\n    func f() {}\n    private func g() {}\n    /// Documented.\n    var h: Int { 1 }\n}\nextension S {\n    func i() {}\n}\n", [2]),
    ("extension S {\n    public func f() {}\n}\n", [2]),
    ("/// A type.\npublic enum E {\n    case a\n}\n", []),
    ('let s = """\npublic func f() {}\n"""\n', []),
    ("// public func f() {}\n/* public func g() {}\n*/\n", []),
    ("package func f() {}\n/// Not the next line.\n\npublic func g() {}\n", [4]),
    ("/// An open class.\nopen class C {\n    open func f() {}\n}\n", [3]),
]


def self_test():
    failures = 0
    with tempfile.TemporaryDirectory() as directory:
        for index, (source, expected) in enumerate(SELF_TEST):
            path = pathlib.Path(directory) / f"case{index}.swift"
            path.write_text(source, encoding="utf-8")
            got = [int(p.split(":")[1]) for p in problems(path, source)]
            if got != expected:
                failures += 1
                print(f"self-test case {index}: expected lines {expected}, got {got}\n{source}")
        # The whole command must exit 1 on an undocumented declaration and 0 on a documented one.
        bad = pathlib.Path(directory) / "bad"
        bad.mkdir()
        (bad / "Bad.swift").write_text("public struct Undocumented {}\n", encoding="utf-8")
        good = pathlib.Path(directory) / "good"
        good.mkdir()
        (good / "Good.swift").write_text("/// Documented.\npublic struct Documented {}\n", encoding="utf-8")
        if main([str(bad)], quiet=True) != 1:
            failures += 1
            print("self-test: an undocumented declaration did not fail the check")
        if main([str(good)], quiet=True) != 0:
            failures += 1
            print("self-test: a documented declaration failed the check")
    print(f"docs self-test: {len(SELF_TEST) + 2 - failures} of {len(SELF_TEST) + 2} passed")
    return 1 if failures else 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(arguments or ["Sources"]))
