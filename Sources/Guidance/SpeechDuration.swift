import SimClock

/// How long a line takes to say, estimated from its text: numbers and units
/// are spelled out first ("300 m" is "three hundred meters", "삼백 미터"),
/// then English is counted in words and Korean in syllables.
package enum SpeechDuration {
    /// The shortest line.
    package static let minimum = SimTime(ms: 500)

    /// The longest line: one hour, the longest duration a scenario may give.
    package static let maximum = SimTime(ms: 3_600_000)

    /// The estimated duration of `text` spoken in `language`, rounded up to
    /// the millisecond, within `minimum...maximum`. Bounded before it becomes
    /// an integer, so no rate (`1e-300`, zero, NaN) can make it trap; the
    /// decoder's ranges keep every accepted line far inside the bounds.
    package static func estimate(_ text: String, _ language: Language, rates: SpeechRates = SpeechRates()) -> SimTime {
        let rate = language == .en ? rates.englishWordsPerSecond : rates.koreanSyllablesPerSecond
        let seconds = Double(spokenUnits(text, language)) / rate
        let ms = (seconds * 1000).rounded(.up)
        guard ms < Double(maximum.ms) else { return maximum }  // NaN and infinity included
        guard ms > Double(minimum.ms) else { return minimum }  // negative infinity included
        return SimTime(ms: Int64(ms))
    }

    /// What `estimate` counts: the words (English) or syllables (Korean) of
    /// `text` spelled out, `words(spelledOut(text, language))` or
    /// `syllables(…)`, without building the spelled text.
    ///
    /// Tokens are separated by single spaces in the spelled text, and both
    /// counts restart at a space, so the count is the sum of each token's.
    /// A token with no ASCII digit, no "." and not "m" or "km" (its
    /// trailing punctuation aside) is spelled as it is written, so it is counted in
    /// place, byte by byte; only the others are spelled. Counting bytes is
    /// counting characters while the text holds only ASCII and precomposed
    /// Hangul syllables (U+AC00–U+D7A3): no character of those spans two
    /// scalars but "\r\n", which neither count sees. Any other text is
    /// spelled and counted as a whole, as before.
    /// - Complexity: O(n) in the text's UTF-8 length, allocating only for tokens spelled.
    package static func spokenUnits(_ text: String, _ language: Language) -> Int {
        var text = text
        let counted = text.withUTF8 { bytes -> Int? in
            var total = 0
            var start = 0
            while start < bytes.count {
                if bytes[start] == 0x20 {
                    start += 1
                    continue
                }
                var end = start
                while end < bytes.count, bytes[end] != 0x20 {
                    let byte = bytes[end]
                    if byte < 0x80 {
                        end += 1
                    } else if byte & 0xF0 == 0xE0, end + 2 < bytes.count {
                        let scalar =
                            UInt32(byte & 0x0F) << 12 | UInt32(bytes[end + 1] & 0x3F) << 6
                            | UInt32(bytes[end + 2] & 0x3F)
                        guard (0xAC00...0xD7A3).contains(scalar) else { return nil }
                        end += 3
                    } else {
                        return nil
                    }
                }
                let token = UnsafeBufferPointer(rebasing: bytes[start..<end])
                start = end
                // Its trailing punctuation aside, a token with a digit or a "." is spelled, and "m" and "km" ("meters").
                var core = token.count
                while core > 0, [0x2C, 0x2E, 0x21, 0x3F].contains(token[core - 1]) { core -= 1 }
                let spelled =
                    token[0..<core].contains { $0 == 0x2E || (0x30...0x39).contains($0) }
                    || (core == 1 || core == 2) && token[core - 1] == 0x6D && (core == 1 || token[0] == 0x6B)
                if spelled {
                    if let count = spelledUnits(token, core: core, language) {
                        total += count
                    } else {
                        total += units(spelledOut(String(decoding: token, as: UTF8.self), language), language)
                    }
                } else {
                    total += units(token, language)
                }
            }
            return total
        }
        return counted ?? units(spelledOut(text, language), language)
    }

    /// `units` of one token spelled out, counted without spelling it, for
    /// the tokens a line is made of: "m" and "km", and a number (as `spell`
    /// reads one) alone or glued to a word ("300", "1.5", "300미터", "12A");
    /// nil for any other (a Korean name with a number inside, a number
    /// `spell` keeps as written), which the caller spells. `core` is the
    /// token's length without its trailing ",", ".", "!" and "?", which
    /// count for nothing. Bytes as `units(_:_:)` takes them.
    static func spelledUnits(_ token: UnsafeBufferPointer<UInt8>, core: Int, _ language: Language) -> Int? {
        if core == 1, token[0] == 0x6D { return language == .en ? 1 : 2 }  // "meters", "미터"
        if core == 2, token[0] == 0x6B, token[1] == 0x6D { return language == .en ? 1 : 4 }  // "kilometers", "킬로미터"
        // A number first: digits, then at most one "." and the digits after it.
        guard core > 0, (0x30...0x39).contains(token[0]) else { return nil }
        var end = 0
        while end < core, token[end] == 0x2E || (0x30...0x39).contains(token[end]) { end += 1 }
        var whole = 0
        var digitsAfter = 0
        var point = false
        for byte in token[0..<end] {
            if byte == 0x2E {
                guard !point else { return nil }  // "1.2.3" is kept as written
                point = true
            } else if point {
                digitsAfter += 1
            } else {
                whole = whole * 10 + Int(byte - 0x30)
                guard whole < 100_000 else { return nil }  // kept as written
            }
        }
        guard !point || digitsAfter > 0 else { return nil }  // "5." inside a word ("5.A") is kept as written
        let number = language == .en ? englishWords(whole) : koreanSyllables(whole)
        // "point five", "점오": the point, then one word or syllable a digit.
        let fraction = point ? 1 + digitsAfter : 0
        // The word it is glued to is kept, after a space in English: counted apart.
        let rest = end < core ? units(UnsafeBufferPointer(rebasing: token[end..<core]), language) : 0
        return number + fraction + rest
    }

    /// How many words `english(n)` has.
    static func englishWords(_ n: Int) -> Int {
        if n < 20 { return 1 }
        if n < 100 { return n % 10 == 0 ? 1 : 2 }
        if n < 1000 { return 2 + (n % 100 == 0 ? 0 : englishWords(n % 100)) }
        return englishWords(n / 1000) + 1 + (n % 1000 == 0 ? 0 : englishWords(n % 1000))
    }

    /// How many syllables `korean(n)` has: a digit and its unit each, but
    /// a 1 before a unit unsaid (백, not 일백).
    static func koreanSyllables(_ n: Int) -> Int {
        if n == 0 { return 1 }
        var count = 0
        var rest = n
        var place = 0
        while rest > 0 {
            let d = rest % 10
            if d > 0 { count += (d == 1 && place > 0 ? 0 : 1) + (place > 0 ? 1 : 0) }
            rest /= 10
            place += 1
        }
        return count
    }

    /// `words` or `syllables` of `text`, by `language`.
    static func units(_ text: String, _ language: Language) -> Int {
        switch language {
        case .en: return words(text)
        case .ko: return syllables(text)
        }
    }

    /// `units` of one token's UTF-8 bytes, which hold no space and only
    /// ASCII and precomposed Hangul syllables (each a letter, three bytes).
    static func units(_ token: UnsafeBufferPointer<UInt8>, _ language: Language) -> Int {
        var count = 0
        switch language {
        case .en:
            // Runs between hyphens that hold a letter or a digit.
            var holds = false
            for byte in token {
                if byte == 0x2D {
                    if holds { count += 1 }
                    holds = false
                } else if byte >= 0x80 || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || (0x30...0x39).contains(byte)
                {
                    holds = true
                }
            }
            if holds { count += 1 }
        case .ko:
            var inVowels = false
            var i = 0
            while i < token.count {
                let byte = token[i]
                if byte >= 0x80 {
                    count += 1
                    inVowels = false
                    i += 3
                    continue
                }
                if isVowel(byte) {
                    if !inVowels { count += 1 }
                    inVowels = true
                } else {
                    inVowels = false
                }
                i += 1
            }
        }
        return count
    }

    /// Whether an ASCII byte is one of "aeiouyAEIOUY".
    static func isVowel(_ byte: UInt8) -> Bool {
        switch byte | 0x20 {
        case 0x61, 0x65, 0x69, 0x6F, 0x75, 0x79: return true
        default: return false
        }
    }

    /// The text with numbers and units written as words.
    package static func spelledOut(_ text: String, _ language: Language) -> String {
        var out: [String] = []
        for token in text.split(separator: " ") {
            var core = Substring(token)
            var trailing = ""
            while let last = core.last, last == "," || last == "." || last == "!" || last == "?" {
                trailing = String(last) + trailing
                core = core.dropLast()
            }
            out.append(spell(String(core), language) + trailing)
        }
        return out.joined(separator: " ")
    }

    static func spell(_ token: String, _ language: Language) -> String {
        switch (token, language) {
        case ("m", .en): return "meters"
        case ("km", .en): return "kilometers"
        case ("m", .ko): return "미터"
        case ("km", .ko): return "킬로미터"
        default: break
        }
        // A Korean name with a number inside ("판교역로192번길", "남산1호터널"): each number read as a
        // navigator reads it ("판교역로백구십이번길"), so the line's length counts its syllables.
        if language == .ko, let first = token.first, !(first.isASCII && first.isNumber),
            let digit = token.firstIndex(where: { $0.isASCII && $0.isNumber })
        {
            return String(token[..<digit]) + spell(String(token[digit...]), language)
        }
        // A number glued to a word ("500미터", "1.5킬로미터", "12번", "12A"): the number is spelled, the rest kept.
        let numberEnd = token.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? token.endIndex
        if numberEnd != token.startIndex && numberEnd != token.endIndex {
            return spell(String(token[..<numberEnd]), language) + (language == .en ? " " : "") + token[numberEnd...]
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let whole = Int(parts[0]), whole < 100_000
        else { return token }
        let digitsAfter = parts.count == 2 ? parts[1].map { Int(String($0))! } : []
        switch language {
        case .en:
            var words = english(whole)
            if !digitsAfter.isEmpty { words += " point " + digitsAfter.map { english($0) }.joined(separator: " ") }
            return words
        case .ko:
            var words = korean(whole)
            if !digitsAfter.isEmpty { words += "점" + digitsAfter.map { korean($0) }.joined() }
            return words
        }
    }

    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// 0 to 99,999 in English words.
    static func english(_ n: Int) -> String {
        if n < 20 { return ones[n] }
        if n < 100 { return tens[n / 10] + (n % 10 == 0 ? "" : " " + ones[n % 10]) }
        if n < 1000 { return ones[n / 100] + " hundred" + (n % 100 == 0 ? "" : " " + english(n % 100)) }
        return english(n / 1000) + " thousand" + (n % 1000 == 0 ? "" : " " + english(n % 1000))
    }

    /// 0 to 99,999 in Sino-Korean numerals (백, not 일백).
    static func korean(_ n: Int) -> String {
        if n == 0 { return "영" }
        let digits = ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]
        let units = ["", "십", "백", "천", "만"]
        var out = ""
        var place = 4
        var rest = n
        var divisor = 10_000
        while place >= 0 {
            let d = rest / divisor
            rest %= divisor
            if d > 0 { out += (d == 1 && place > 0 ? "" : digits[d]) + units[place] }
            place -= 1
            divisor /= 10
        }
        return out
    }

    /// English words: runs of letters or digits.
    package static func words(_ text: String) -> Int {
        text.split { $0 == " " || $0 == "-" }.filter { $0.contains { $0.isLetter || $0.isNumber } }.count
    }

    /// Korean syllables: each Hangul syllable block, and each vowel group of a Latin word.
    package static func syllables(_ text: String) -> Int {
        var count = 0
        var inVowels = false
        for scalar in text.unicodeScalars {
            if (0xAC00...0xD7A3).contains(scalar.value) {
                count += 1
                inVowels = false
            } else if "aeiouyAEIOUY".unicodeScalars.contains(scalar) {
                if !inVowels { count += 1 }
                inVowels = true
            } else {
                inVowels = false
            }
        }
        return count
    }
}
