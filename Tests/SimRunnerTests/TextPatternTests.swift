import SimClock
import Testing

@testable import SimRunner

/// The `matches` engine (SPEC 6): its syntax, its refusals with their
/// positions, and a search that stays linear in the text whatever the pattern.
@Suite struct TextPatternTests {
    static func found(_ pattern: String, _ text: String) throws -> Bool {
        let compiled = try TextPattern.compile(pattern).get()
        return compiled.matches(text)
    }

    @Test(
        arguments: [
            ("then", "In 300 m, then turn left", true),
            ("^In \\d+ m", "In 300 m, then turn left", true),
            ("^then", "In 300 m, then turn left", false),
            ("left$", "In 300 m, then turn left", true),
            ("then$", "In 300 m, then turn left", false),
            ("^$", "", true),
            ("^$", "x", false),
            ("", "anything", true),
            ("colou?r", "color", true),
            ("colou?r", "colouur", false),
            ("a{2,3}b", "aab", true),
            ("^a{2,3}b", "ab", false),
            ("^a{2}$", "aaa", false),
            ("^a{2,}$", "aaaaa", true),
            ("(?:ab)+c", "xababc", true),
            ("(?<turn>left|right)", "turn right", true),
            ("left|right", "straight on", false),
            ("[0-9]+ m", "In 300 m", true),
            ("[^a-z ]", "only lower", false),
            ("[]x]", "a]", true),
            ("[a-]", "-", true),
            ("\\bm\\b", "In 300 m", true),
            ("\\bm\\b", "In 300m", false),
            ("\\Bm", "In 300m", true),
            ("\\.", "3.5", true),
            ("\\.", "35", false),
            ("\\s\\S\\s", "a b c", true),
            ("\\W", "word_1", false),
            ("\\D+", "123", false),
            ("^.$", "\n", false),
            ("300 미터", "300 미터 앞에서 좌회전", true),
            ("[가-힣]+", "좌회전", true),
            ("^[A-Za-z ,0-9]+$", "In 300 m, then turn left", true),
            ("^[A-Za-z ,0-9]+$", "300 m 앞", false),
            ("a+?b", "aaab", true),
            ("{", "a{b", true),
            ("a{x}", "a{x}", true),
        ] as [(String, String, Bool)])
    func aPatternIsSearchedForAnywhereAndAnchoredOnlyByItsCaretAndDollar(pattern: String, text: String, found: Bool)
        throws
    {
        #expect(try Self.found(pattern, text) == found)
    }

    @Test(
        arguments: [
            ("(abc", TextPattern.Problem.invalid("missing ) for the group", at: 1)),
            ("abc)", .invalid("unmatched )", at: 4)),
            ("[abc", .invalid("missing ] for the class", at: 1)),
            ("*a", .invalid("nothing to repeat", at: 1)),
            ("a**", .invalid("nothing to repeat", at: 3)),
            ("a{3,1}", .invalid("{3,1}: the upper bound is below the lower", at: 2)),
            ("[z-a]", .invalid("the range z-a is out of order", at: 3)),
            ("(a)\\1", .invalid("backreferences (\\1) are not supported", at: 4)),
            ("(?=a)", .invalid("(? groups other than (?: and (?<name> (lookaround, options) are not supported", at: 2)),
            (
                "(?i)then",
                .invalid("(? groups other than (?: and (?<name> (lookaround, options) are not supported", at: 2)
            ),
            ("a++", .invalid("possessive quantifiers are not supported", at: 3)),
            ("[[:alpha:]]", .invalid("nested classes and [:name:] are not supported; write \\[ for a bracket", at: 2)),
            (
                "\\q",
                .invalid(
                    "\\q is not supported; write \\ only before punctuation or one of d w s D W S b B t n r", at: 1)
            ),
            ("a\\", .invalid("\\ at the end of the pattern", at: 2)),
            ("^*", .invalid("nothing to repeat", at: 1)),
            ("a{5000}b{5001}", .tooComplex(maxInstructions: 10_000)),
            (String(repeating: "a", count: 1001), .tooLong(maxCharacters: 1000)),
        ] as [(String, TextPattern.Problem)])
    func aPatternOutsideTheSyntaxIsRefusedWithItsPosition(pattern: String, problem: TextPattern.Problem) {
        #expect(TextPattern.problem(in: pattern) == problem)
    }

    // A hang guard, not a speed check: a backtracker would not finish these at all.
    @Test(.timeLimit(.minutes(1))) func patternsThatMakeABacktrackerRunAwayAreSearchedInLinearTime() throws {
        // Exponential or cubic for `Regex`: `(a|aa)*b` on 25 characters takes
        // 0.3 s there, `.*.*.*x` on 200 takes 4 s; here each is one pass.
        let long = String(repeating: "a", count: 20_000)
        for pattern in ["(a|aa)*b", "(a+)+b", "(a?){30}a{30}b", ".*.*.*x", "a*a*a*a*b", "(\\w+\\s?)*$!"] {
            #expect(try !Self.found(pattern, long), "\(pattern)")
        }
        #expect(try Self.found("(a|aa)*$", long))
    }

    @Test func theEngineAgreesWithSwiftRegexOnRandomPatterns() throws {
        // A differential check on the syntax both read, over texts without line feeds.
        guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { return }
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", "(a|b)", "(?:ab)", "(a|)", "1", " "]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?"]
        var rng = SplitMix64(seed: 22)
        var compared = 0
        for round in 0..<3000 {
            var pattern = rng.chance(20) ? "^" : ""
            for _ in 0..<Int(rng.below(5)) + 1 { pattern += rng.pick(atoms) + rng.pick(quantifiers) }
            if rng.chance(20) { pattern += "$" }
            let text = String((0..<Int(rng.below(8))).map { _ in rng.pick(Array("ab1 _")) })
            let regex = try Regex(pattern)
            #expect(try Self.found(pattern, text) == text.contains(regex), "round \(round): \(pattern) on \"\(text)\"")
            compared += 1
        }
        #expect(compared == 3000)
    }

    @Test func containsComparesByCharacterInLinearTime() {
        #expect(TextSearch.contains("then", in: "In 300 m, then turn left"))
        #expect(!TextSearch.contains("than", in: "In 300 m, then turn left"))
        #expect(TextSearch.contains("aab", in: "aaab"), "a partial match falls back")
        #expect(TextSearch.contains("abab", in: "abaabab"))
        #expect(!TextSearch.contains("e", in: "caf\u{E9}"), "é is one character")
        #expect(TextSearch.contains("caf\u{E9}", in: "cafe\u{301}"), "canonically equivalent, as == compares")
        #expect(!TextSearch.contains("longer than the text", in: "short"))
        let long = String(repeating: "a", count: 200_000)
        #expect(!TextSearch.contains(String(repeating: "a", count: 1000) + "b", in: long))
    }
}
