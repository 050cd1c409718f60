import SimRunner

/// Suggests the allowed word closest to `word`: a case-insensitive match,
/// else the one with the smallest edit distance (a swap of neighbours is
/// one edit), if that is at most 2
/// and smaller than both lengths (so `fr` does not suggest `ko`), and no
/// other word is as close: a word as near to several (`tcsh` to `bash`,
/// `zsh` and `fish`) is no typo of one, so none is suggested.
package func suggestion(for word: String, among allowed: [String]) -> String? {
    if let same = allowed.first(where: { $0.lowercased() == word.lowercased() }) { return same }
    let w = Array(word.unicodeScalars)
    var best: (word: String, distance: Int)? = nil
    var tied = false
    for candidate in allowed {
        let c = Array(candidate.unicodeScalars)
        guard abs(c.count - w.count) <= 2 else { continue }
        let d = editDistance(w, c)
        guard d <= 2, d < min(w.count, c.count) else { continue }
        if let b = best, d == b.distance, candidate != b.word { tied = true }
        if best == nil || d < best!.distance {
            best = (candidate, d)
            tied = false
        }
    }
    return tied ? nil : best?.word
}

/// Edit distance counting a swap of two neighbours as one edit (optimal
/// string alignment), so `--fromat` is 1 from `--format` and 2 from `--from`.
/// - Complexity: O(a.count × b.count).
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
