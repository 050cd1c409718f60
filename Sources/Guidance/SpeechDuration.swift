import SimClock

/// How long a line takes to say, estimated from its text: numbers and units
/// are spelled out first ("300 m" is "three hundred meters", "삼백 미터"),
/// then English is counted in words and Korean in syllables.
public enum SpeechDuration {
    /// The shortest line.
    public static let minimum = SimTime(ms: 500)

    /// The longest line: one hour, the longest duration a scenario may give.
    public static let maximum = SimTime(ms: 3_600_000)

    /// The estimated duration of `text` spoken in `language`, rounded up to
    /// the millisecond, within `minimum...maximum`. Bounded before it becomes
    /// an integer, so no rate (`1e-300`, zero, NaN) can make it trap; the
    /// decoder's ranges keep every accepted line far inside the bounds.
    public static func estimate(_ text: String, _ language: Language, rates: SpeechRates = SpeechRates()) -> SimTime {
        let spoken = spelledOut(text, language)
        let seconds: Double
        switch language {
        case .en: seconds = Double(words(spoken)) / rates.englishWordsPerSecond
        case .ko: seconds = Double(syllables(spoken)) / rates.koreanSyllablesPerSecond
        }
        let ms = (seconds * 1000).rounded(.up)
        guard ms < Double(maximum.ms) else { return maximum }  // NaN and infinity included
        guard ms > Double(minimum.ms) else { return minimum }  // negative infinity included
        return SimTime(ms: Int64(ms))
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
           let digit = token.firstIndex(where: { $0.isASCII && $0.isNumber }) {
            return String(token[..<digit]) + spell(String(token[digit...]), language)
        }
        // A number glued to a word ("500미터", "1.5킬로미터", "12번", "12A"): the number is spelled, the rest kept.
        let numberEnd = token.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? token.endIndex
        if numberEnd != token.startIndex && numberEnd != token.endIndex {
            return spell(String(token[..<numberEnd]), language) + (language == .en ? " " : "") + token[numberEnd...]
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
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

    static let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                       "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
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
        var place = 4, rest = n, divisor = 10_000
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
