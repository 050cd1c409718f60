/// `text` safe to print on one terminal line: a newline, carriage return or
/// tab becomes `\n`, `\r`, `\t`, any other control character (C0, DEL,
/// C1: the escape that starts a terminal's control sequence among them)
/// `\u{1B}`, and a backslash `\\`, so what an arbiter, a routing service or
/// a file says can neither span lines nor drive the terminal.
/// - Complexity: O(n) in the text's length.
package func escapedForTerminal(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\\" })
    else {
        return text
    }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// `word` as one word for a POSIX shell: as it is when it holds only
/// characters no shell treats specially (letters, digits, `-_./:=@%+,`),
/// else in single quotes, each `'` inside written `'\''`. Replay lines
/// (`drivesim run FILE --arbiter '…'`) are built with it, so a command
/// holding a quote pastes back as it was given.
/// - Complexity: O(n) in the word's length.
package func shellQuoted(_ word: String) -> String {
    let plain =
        !word.isEmpty
        && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_./:=@%+,".unicodeScalars.contains($0)
        }
    if plain { return word }
    return "'" + word.replacingAll("'", with: "'\\''") + "'"
}

extension String {
    /// Every `target` replaced by `replacement` (no Foundation in the core).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
