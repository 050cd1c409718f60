import Guidance
import SimClock
import Testing

@testable import DrivesimCLI
@testable import Fuzzing
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

private func decode(_ bytes: [UInt8]) throws -> Scenario {
    try ScenarioDecoder.decode(bytes, file: "encoded.json")
}

/// A random scenario the decoder would accept, from `rng`.
private func randomScenario(_ rng: inout SplitMix64) -> Scenario {
    var nextID = 0
    func id() -> String {
        nextID += 1
        return "id\(nextID)"
    }
    func ms(_ range: ClosedRange<Int64>) -> SimTime { SimTime(ms: rng.int(in: range)) }
    func stretches() -> [Scenario.Stretch] {
        (0...rng.below(3)).map { _ in
            Scenario.Stretch(
                id: id(), duration: ms(1...3_600_000), ready: rng.chance(50) ? .zero : ms(0...3_600_000),
                text: rng.chance(50) ? nil : "s \"\(rng.below(100))\"\n",
                language: rng.chance(30) ? nil : rng.pick(Language.allCases))
        }
    }
    var s = Scenario(name: "random \(rng.next())", description: rng.chance(50) ? nil : "é ☃ \u{1}")
    s.settings = Scenario.Settings(
        earsTail: ms(0...3_600_000), waitLimit: ms(0...3000), afterCut: rng.pick(Scenario.AfterCut.allCases))
    for _ in 0..<rng.below(4) {
        let at = ms(0...86_399_999)
        s.guidance.append(
            GuidanceLine(
                id: id(), at: at, duration: ms(1...10_000), urgent: rng.chance(50),
                text: rng.chance(50) ? nil : "turn", language: rng.chance(50) ? nil : rng.pick(Language.allCases),
                maneuver: rng.chance(50) ? nil : "m\(rng.below(3))",
                expires: rng.chance(50) ? nil : SimTime(ms: rng.int(in: (at.ms + 1)...86_400_000))))
    }
    for _ in 0..<rng.below(3) {
        s.replies.append(Scenario.Reply(id: id(), at: ms(0...86_400_000), stretches: stretches()))
    }
    var t: Int64 = 0
    for _ in 0..<rng.below(3) {
        t += rng.int(in: 0...5000)
        let duration = rng.int(in: 1...5000)
        s.dad.append(
            Scenario.Utterance(
                id: id(), at: SimTime(ms: t), duration: SimTime(ms: duration), language: rng.pick(Language.allCases),
                text: rng.chance(50) ? nil : "말",
                reply: rng.chance(50) ? nil : Scenario.DadReply(id: id(), after: ms(0...5000), stretches: stretches())))
        t += duration
    }
    // Ids of the scenario and words of the timeline's enums; a field whose
    // value its event cannot carry (SPEC 6) is left out below.
    let words =
        (0...nextID).map { "id\($0)" } + [
            "m0", "m1", "m2", "long-cut", "barge-in", "held", "near", "ko", "skip", "late",
        ]
    for i in 0..<Int(rng.below(4)) {
        let kind = rng.pick(EventKind.allCases)
        var fields: [(field: Field, value: FieldValue)] = []
        for field in kind.fields.sorted(by: { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) })
        where rng.chance(50) {
            let value: FieldValue =
                switch field.type {
                case .int: .int(rng.int(in: 0...100_000))
                case .bool: .bool(rng.chance(50))
                case .string: .string(rng.pick(words))
                }
            fields.append((field: field, value: value))
        }
        let a = ms(0...86_400_000)
        let b = ms(a.ms...86_400_000)
        let when: Matcher.When = rng.pick([.anywhere, .at(a), .between(a, b)])
        var matcher = Matcher(
            event: kind, fields: fields, when: when, count: rng.chance(50) ? nil : Int(rng.below(5)),
            path: "expect[\(i)]")
        let base = s
        matcher.fields = fields.filter { field in
            var one = matcher
            one.fields = [field]
            var t = base
            t.expect.append(one)
            return t.isValid
        }
        // Beyond equality: some fields tested, a count range, since/until (SPEC 6).
        for (k, field) in matcher.fields.enumerated().reversed() where rng.chance(40) {
            switch field.value {
            case .string(let text):
                matcher.tests.append(
                    (field: field.field, test: rng.chance(50) ? .contains(text) : .matches("^" + text + "$")))
            case .int(let x):
                let low: Int64? = rng.chance(70) ? x : nil
                matcher.tests.append(
                    (
                        field: field.field,
                        test: .range(Bounds(min: low, max: low == nil || rng.chance(50) ? x + 1 : nil))
                    ))
            case .bool: continue
            }
            matcher.fields.remove(at: k)
        }
        matcher.tests.sort { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
        if matcher.count == nil, rng.chance(30) { matcher.countRange = Bounds(min: rng.chance(50) ? 1 : nil, max: 4) }
        if rng.chance(30) {
            matcher.since = Matcher(event: rng.pick(EventKind.allCases), when: rng.chance(50) ? .anywhere : .at(a))
        }
        if matcher.since != nil, rng.chance(50) { matcher.within = ms(0...3_600_000) }
        if rng.chance(30) {
            matcher.until = Matcher(
                event: rng.pick(EventKind.allCases), when: rng.chance(50) ? .anywhere : .between(a, b))
        }
        s.expect.append(matcher)
    }
    return s
}

@Suite struct ScenarioEncodingTests {
    @Test(
        arguments: [
            (2500, "2.5"), (1, "0.001"), (3000, "3"), (0, "0"), (10, "0.01"), (1010, "1.01"), (86_400_000, "86400"),
            (1_800, "1.8"),
        ] as [(Int64, String)])
    func millisecondsAreWrittenAsExactSeconds(ms: Int64, literal: String) {
        #expect(Seconds.literal(milliseconds: ms) == literal)
        #expect(Seconds.milliseconds(fromLiteral: literal, limitMs: .max) == .success(ms))
    }

    @Test func specExampleRoundTrips() throws {
        let s = try decode(Array(specExample.utf8))
        let encoded = ScenarioEncoder.encode(s)
        #expect(try decode(encoded) == s)
        #expect(ScenarioEncoder.encode(try decode(encoded)) == encoded, "encoding is a fixed point")
    }

    @Test func minimalScenarioWritesFormatAndNameOnly() {
        let text = String(decoding: ScenarioEncoder.encode(Scenario(name: "n")), as: UTF8.self)
        #expect(text == "{\n  \"drivesim\": 1,\n  \"name\": \"n\"\n}\n")
    }

    @Test func keysAreSortedAndDefaultsLeftOut() throws {
        let s = Scenario(
            name: "n", settings: Scenario.Settings(afterCut: .skip),
            guidance: [GuidanceLine(id: "g1", at: SimTime(ms: 2500), duration: SimTime(ms: 1), maneuver: "m1")],
            replies: [
                Scenario.Reply(
                    id: "r1", at: .zero, stretches: [Scenario.Stretch(id: "s1", duration: SimTime(ms: 3000))])
            ])
        let text = String(decoding: ScenarioEncoder.encode(s), as: UTF8.self)
        #expect(
            text == """
                {
                  "drivesim": 1,
                  "guidance": [
                    {
                      "at": 2.5,
                      "duration": 0.001,
                      "id": "g1",
                      "maneuver": "m1"
                    }
                  ],
                  "name": "n",
                  "replies": [
                    {
                      "at": 0,
                      "id": "r1",
                      "stretches": [
                        {
                          "duration": 3,
                          "id": "s1"
                        }
                      ]
                    }
                  ],
                  "settings": {
                    "afterCut": "skip"
                  }
                }

                """)
        #expect(try decode(Array(text.utf8)) == s)
    }

    @Test func everyOptionalFieldRoundTrips() throws {
        let s = Scenario(
            name: "all \"fields\"", description: "line\nbreak",
            settings: Scenario.Settings(earsTail: .zero, waitLimit: SimTime(ms: 1234), afterCut: .drop),
            guidance: [
                GuidanceLine(
                    id: "g1", at: SimTime(ms: 1), duration: SimTime(ms: 3_600_000), urgent: true,
                    text: "In 300 m", language: .en, maneuver: "m", expires: SimTime(ms: 86_400_000))
            ],
            replies: [
                Scenario.Reply(
                    id: "r1", at: SimTime(ms: 86_400_000),
                    stretches: [
                        Scenario.Stretch(
                            id: "s1", duration: SimTime(ms: 1), ready: SimTime(ms: 3_600_000), text: "", language: .ko)
                    ])
            ],
            dad: [
                Scenario.Utterance(
                    id: "u1", at: .zero, duration: SimTime(ms: 1200), language: .en, text: "hi",
                    reply: Scenario.DadReply(
                        id: "r2", after: SimTime(ms: 800),
                        stretches: [Scenario.Stretch(id: "s2", duration: SimTime(ms: 2))]))
            ],
            expect: [
                Matcher(
                    event: .dadEnded,
                    fields: [(field: .heardMs, value: .int(1200)), (field: .utterance, value: .string("u1"))],
                    when: .between(.zero, SimTime(ms: 5)), count: 1, path: "expect[0]"),
                Matcher(
                    event: .guidanceRequested, fields: [(field: .urgent, value: .bool(true))],
                    when: .at(SimTime(ms: 1)), path: "expect[1]"),
                Matcher(event: .stretchCut, count: 0, path: "expect[2]"),
            ])
        #expect(try decode(ScenarioEncoder.encode(s)) == s)
    }

    @Test func everyMatcherFormBeyondEqualityRoundTrips() throws {
        var near = Matcher(event: .guidanceStarted, fields: [(field: .line, value: .string("g1"))], path: "expect[0]")
        near.tests = [
            (field: .language, test: .matches("^(en|ko)$")), (field: .text, test: .contains("then \"left\"")),
        ]
        near.since = Matcher(
            event: .stretchEnded, fields: [(field: .stretch, value: .string("s1"))], when: .at(SimTime(ms: 3000)))
        near.within = SimTime(ms: 2000)
        var lost = Matcher(event: .dadEnded, path: "expect[1]")
        lost.tests = [
            (field: .heardMs, test: .range(Bounds(max: 0))),
            (field: .lostMs, test: .range(Bounds(min: 500, max: 1000))),
        ]
        lost.until = Matcher(event: .replyAbandoned, when: .between(.zero, SimTime(ms: 9000)))
        var some = Matcher(event: .stretchStarted, path: "expect[2]")
        some.countRange = Bounds(min: 1)
        var few = Matcher(event: .stretchCut, path: "expect[3]")
        few.countRange = Bounds(min: 0, max: 2)
        let s = Scenario(
            name: "beyond",
            guidance: [
                GuidanceLine(
                    id: "g1", at: SimTime(ms: 2000), duration: SimTime(ms: 2000), text: "then \"left\"", language: .en)
            ],
            replies: [
                Scenario.Reply(
                    id: "r1", at: .zero, stretches: [Scenario.Stretch(id: "s1", duration: SimTime(ms: 3000))])
            ],
            expect: [near, lost, some, few])
        try s.validate()
        let encoded = ScenarioEncoder.encode(s)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""text": {\#n        "contains": "then \"left\""\#n      }"#), "\(text)")
        #expect(text.contains(#""within": 2"#) && text.contains(#""min": 500"#) && text.contains(#""until": {"#))
        let decoded = try decode(encoded)
        #expect(decoded == s)
        #expect(decoded.expect[0].since == near.since && decoded.expect[1].until == lost.until)
        #expect(decoded.expect[0] != s.expect[1], "matchers that differ are not equal")
        var other = near
        other.within = SimTime(ms: 2001)
        #expect(other != near, "within is compared")
        other = near
        other.since?.when = .anywhere
        #expect(other != near, "since is compared")
        #expect(ScenarioEncoder.encode(decoded) == encoded, "encoding is a fixed point")
    }

    @Test func randomScenariosRoundTrip() throws {
        var beyond = 0
        for seed: UInt64 in 0..<300 {
            var rng = SplitMix64(seed: seed)
            let s = randomScenario(&rng)
            #expect(s.isValid, "seed \(seed)")
            beyond += s.expect.count { !$0.tests.isEmpty || $0.since != nil || $0.until != nil || $0.countRange != nil }
            let encoded = ScenarioEncoder.encode(s)
            let decoded = try #require(
                try? decode(encoded), "seed \(seed): \(String(decoding: encoded, as: UTF8.self))")
            #expect(decoded == s, "seed \(seed)")
            #expect(ScenarioEncoder.encode(decoded) == encoded, "seed \(seed)")
        }
        #expect(beyond > 50, "the random matchers go beyond equality")
    }
}
