import ScenarioFormat
import SimClock
import Testing

@testable import Fuzzing
@testable import Review
@testable import SimRunner

/// A short-wait drive: g1 ("In 300 m, then turn left") waits for s1 and
/// starts when it ends at 3 s, the ears close; Dad speaks 4.5–6 s and
/// barges in on s2 when the ears reopen at 5.5 s (heard 500 ms, lost 1000 ms).
private func drive(_ matchers: String...) -> String {
    """
    {"drivesim": 1, "name": "beyond equality",
     "guidance": [{"id": "g1", "at": 2, "duration": 2, "text": "In 300 m, then turn left", "language": "en"}],
     "replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 3}, {"id": "s2", "duration": 2}]}],
     "dad": [{"id": "u1", "at": 4.5, "duration": 1.5, "language": "ko"}],
     "expect": [\(matchers.joined(separator: ",\n"))]}
    """
}

private func verdict(_ matchers: String...) throws -> Verdict {
    let text = drive(matchers.joined(separator: ",\n"))
    return try Verdict(try ScenarioDecoder.decode(Array(text.utf8), file: "test.json"))
}

/// The one failure of a single matcher, with its report.
private func failure(_ matcher: String) throws -> (failure: ExpectationFailure, report: String) {
    let v = try verdict(matcher)
    #expect(v.violations.isEmpty)
    let failure = try #require(v.failures.first)
    #expect(v.failures.count == 1)
    return (failure, v.report)
}

@Suite struct MatcherBeyondEqualityTests {
    @Test func theDoneWhenSentenceIsThreeMatchersThatPass() throws {
        // "The near line contains 'then', starts within 2 s after the stretch
        // ends, and Dad lost between 500 and 1000 ms."
        let v = try verdict(
            #"{"event": "guidance.started", "line": "g1", "text": {"contains": "then"}}"#,
            #"{"event": "guidance.started", "line": "g1", "since": {"event": "talk.stretch.ended", "stretch": "s1"}, "within": 2}"#,
            #"{"event": "dad.ended", "utterance": "u1", "lostMs": {"min": 500, "max": 1000}}"#)
        #expect(v.passed, "\(v.report)")
    }

    @Test func eachOfTheThreeFailsWithAMessageThatSaysWhy() throws {
        let contains = try failure(#"{"event": "guidance.started", "line": "g1", "text": {"contains": "than"}}"#)
        #expect(
            contains.failure.summary
                == #"expect[0] (line 5, column 13): expected guidance.started line="g1" text contains "than"; found none"#
        )
        #expect(
            contains.failure.differenceLine
                == #"nearest differs in text: "In 300 m, then turn left", expected contains "than""#)
        #expect(
            contains.failure.differences == [
                FieldDifference(
                    field: .text, expected: nil, actual: .string("In 300 m, then turn left"), test: .contains("than"))
            ])

        let within = try failure(#"{"event": "talk.stretch.cut", "since": {"event": "guidance.started"}, "within": 2}"#)
        #expect(
            within.failure.summary.hasSuffix(
                "expected talk.stretch.cut since (guidance.started) within 2 s; found none"))
        #expect(within.failure.timeOutside == SimTime(ms: 5500))
        #expect(
            within.failure.differenceLine
                == "nearest differs in t: 00:05.500, 2.5 s after since's event at 00:03.000, expected within 2 s")
        #expect(
            within.report.contains(
                "\n  since: 00:03.000  guidance  started          g1 \"In 300 m, then turn left\"; the nearest event 2.5 s after it\n"
            ))

        let lost = try failure(#"{"event": "dad.ended", "utterance": "u1", "lostMs": {"min": 1100, "max": 2000}}"#)
        #expect(lost.failure.summary.hasSuffix(#"expected dad.ended lostMs in 1100...2000 utterance="u1"; found none"#))
        #expect(lost.failure.differenceLine == "nearest differs in lostMs: 1000, expected in 1100...2000")
    }

    @Test(
        arguments: [
            (#"{"event": "guidance.started", "text": {"matches": "^In \\d+ m, then"}}"#, true),
            (#"{"event": "guidance.started", "text": {"matches": "turn (left|right)$"}}"#, true),
            (#"{"event": "guidance.started", "text": {"matches": "^then"}}"#, false),
            (#"{"event": "guidance.started", "text": {"matches": "then"}}"#, true),
            (#"{"event": "guidance.started", "language": {"contains": "e"}}"#, true),
            (#"{"event": "guidance.started", "line": {"contains": "g"}, "text": "In 300 m, then turn left"}"#, true),
            (#"{"event": "dad.ended", "lostMs": {"min": 1000, "max": 1000}}"#, true),
            (#"{"event": "dad.ended", "lostMs": {"min": 1001}}"#, false),
            (#"{"event": "dad.ended", "lostMs": {"max": 999}}"#, false),
            (#"{"event": "dad.ended", "heardMs": {"max": 500}, "lostMs": {"min": 1000}}"#, true),
            (#"{"event": "talk.stretch.started", "count": {"min": 2, "max": 2}}"#, true),
            (#"{"event": "talk.stretch.started", "count": {"min": 3}}"#, false),
            (#"{"event": "talk.stretch.started", "count": {"max": 1}}"#, false),
            (#"{"event": "talk.stretch.cut", "count": {"max": 1}}"#, true),
            (
                #"{"event": "guidance.started", "since": {"event": "talk.stretch.ended", "stretch": "s1"}, "within": 0}"#,
                true
            ),
            (#"{"event": "talk.stretch.cut", "since": {"event": "guidance.started"}, "within": 2.5}"#, true),
            (#"{"event": "talk.stretch.cut", "since": {"event": "guidance.started"}, "within": 2.499}"#, false),
            (#"{"event": "guidance.started", "since": {"event": "talk.stretch.cut"}}"#, false),
            (#"{"event": "dad.started", "until": {"event": "guidance.ended"}}"#, true),
            (#"{"event": "dad.ended", "until": {"event": "guidance.ended"}}"#, false),
            (#"{"event": "talk.stretch.cut", "until": {"event": "ears.opened"}}"#, true),
            (
                #"{"event": "dad.started", "since": {"event": "guidance.started"}, "until": {"event": "guidance.ended"}}"#,
                true
            ),
            (#"{"event": "talk.stretch.cut", "since": {"event": "guidance.ended"}, "between": [0, 5.5]}"#, true),
            (#"{"event": "talk.stretch.cut", "since": {"event": "guidance.ended"}, "between": [0, 5.499]}"#, false),
            (#"{"event": "talk.stretch.cut", "since": {"event": "dad.started"}, "at": 5.5}"#, true),
            (#"{"event": "talk.stretch.started", "since": {"event": "guidance.ended"}, "count": 1}"#, true),
            (#"{"event": "talk.stretch.started", "until": {"event": "guidance.ended"}, "count": 2}"#, true),
            (
                #"{"event": "talk.stretch.started", "since": {"event": "talk.stretch.started", "at": 5}, "count": 1}"#,
                true
            ),
            (
                #"{"event": "talk.stretch.started", "since": {"event": "talk.stretch.started", "heldMs": {"min": 1}}}"#,
                true
            ),
        ] as [(String, Bool)])
    func eachFormPassesOrFailsAsItSays(matcher: String, passes: Bool) throws {
        let v = try verdict(matcher)
        #expect(v.violations.isEmpty)
        #expect(v.failures.isEmpty == passes, "\(v.report)")
    }

    @Test func aCountRangeSaysHowManyItWanted() throws {
        let atLeast = try failure(#"{"event": "talk.stretch.started", "count": {"min": 3}}"#)
        #expect(atLeast.failure.found == 2)
        #expect(atLeast.failure.summary.hasSuffix("expected at least 3 × talk.stretch.started; found 2"))
        let atMost = try failure(#"{"event": "talk.stretch.started", "count": {"max": 1}}"#)
        #expect(atMost.failure.summary.hasSuffix("expected at most 1 × talk.stretch.started; found 2"))
        let between = try failure(#"{"event": "talk.stretch.started", "count": {"min": 3, "max": 4}}"#)
        #expect(between.failure.summary.hasSuffix("expected 3 to 4 × talk.stretch.started; found 2"))
    }

    @Test func aMatchesFailureNamesThePatternAndTheValue() throws {
        let f = try failure(#"{"event": "guidance.started", "text": {"matches": "^then"}}"#)
        #expect(f.failure.summary.hasSuffix(#"expected guidance.started text matches "^then"; found none"#))
        #expect(
            f.failure.differenceLine
                == #"nearest differs in text: "In 300 m, then turn left", expected matches "^then""#)
    }

    @Test func sinceAndUntilNameTheEventTheyMeasuredFromAndTheTimeBetween() throws {
        let since = try failure(#"{"event": "guidance.started", "since": {"event": "talk.stretch.cut"}}"#)
        #expect(
            since.failure.differenceLine == "nearest differs in t: 00:03.000, 2.5 s before since's event at 00:05.500")
        let anchor = try #require(since.failure.anchors.first)
        #expect(anchor.relation == .since && anchor.event?.t == SimTime(ms: 5500))
        #expect(
            since.report.contains(
                "\n  since: 00:05.500  talk      stretch cut      r1/s2 by u1 after 500 ms             [barge-in]; the nearest event 2.5 s before it\n"
            ))

        let until = try failure(#"{"event": "dad.ended", "until": {"event": "guidance.ended"}}"#)
        #expect(until.failure.differenceLine == "nearest differs in t: 00:06.000, 1 s after until's event at 00:05.000")
        #expect(
            until.report.contains(
                "\n  until: 00:05.000  guidance  ended            g1; the nearest event 1 s after it\n"))

        // Both constraints apply: the window's own message, then since's.
        let both = try failure(
            #"{"event": "talk.stretch.cut", "since": {"event": "guidance.ended"}, "between": [0, 5.499]}"#)
        #expect(
            both.failure.differenceLine == "nearest differs in t: 00:05.500, expected between 00:00.000 and 00:05.499")
        #expect(
            both.failure.summary.hasSuffix(
                "expected talk.stretch.cut between 00:00.000 and 00:05.499 since (guidance.ended); found none"))
    }

    @Test func aSinceOrUntilThatFindsNothingFailsAndSaysSo() throws {
        let since = try failure(
            #"{"event": "guidance.started", "since": {"event": "talk.stretch.ended", "stretch": "s2"}, "within": 2}"#)
        #expect(since.failure.found == 0)
        let anchor = try #require(since.failure.anchors.first)
        guard case .foundNothing(let inner) = anchor.outcome else {
            Issue.record("since found something")
            return
        }
        #expect(inner.matcher.path == "expect[0].since")
        #expect(inner.differences == [FieldDifference(field: .stretch, expected: .string("s2"), actual: .string("s1"))])
        #expect(
            since.report.contains(
                """
                  since found nothing: expected talk.stretch.ended stretch="s2"; found none
                    nearest differs in stretch: "s1", expected "s2"

                """))

        // Even a count of zero fails: there is nothing to count from.
        let zero = try failure(#"{"event": "talk.reply.ended", "count": 0, "until": {"event": "talk.reply.ended"}}"#)
        #expect(zero.report.contains("  until found nothing: expected talk.reply.ended; found none\n"))
        #expect(zero.failure.anchors.first?.event == nil)
    }

    @Test func theIndexFindsWhatAScanFindsWithTestsRangesAndAnchors() throws {
        let scenario = GeneratedDrive.scenario(
            seed: 4, lines: 12, replies: 12, utterances: 4, length: SimTime(ms: 90_000))
        let timeline = try Simulation(scenario).timeline
        var rng = SplitMix64(seed: 23)
        var matchers: [Matcher] = []
        let events = timeline.events
        for event in events.prefix(150) {
            var matcher = Matcher(event: event.kind)
            for (field, value) in timeline.fields(of: event) where rng.chance(50) {
                switch value {
                case .string(let s) where rng.chance(50):
                    let part = String(s.dropFirst(Int(rng.below(2))))
                    matcher.tests.append(
                        (
                            field: field,
                            test: rng.chance(50) ? .contains(part + (rng.chance(20) ? "x" : "")) : .matches("^" + part)
                        ))
                case .int(let x) where rng.chance(60):
                    matcher.tests.append(
                        (
                            field: field,
                            test: .range(
                                Bounds(
                                    min: rng.chance(50) ? x - rng.int(in: -5...50) : nil,
                                    max: rng.chance(50) ? x + rng.int(in: -5...50) : x + 1))
                        ))
                default: matcher.fields.append((field: field, value: value))
                }
            }
            if rng.chance(40) {
                let other = rng.pick(events)
                var anchor = Matcher(
                    event: other.kind, fields: timeline.fields(of: other).filter { _ in rng.chance(50) })
                if rng.chance(30) { anchor.when = .at(other.t) }
                if rng.chance(50) {
                    matcher.since = anchor
                    if rng.chance(50) { matcher.within = SimTime(ms: rng.int(in: 0...20_000)) }
                } else {
                    matcher.until = anchor
                }
            }
            if rng.chance(20) { matcher.when = .between(SimTime(ms: max(0, event.t.ms - 3000)), event.t) }
            if rng.chance(30) { matcher.countRange = Bounds(min: 1, max: Int64(rng.int(in: 1...3))) }
            matchers.append(matcher)
        }
        let index = MatcherIndex(timeline, for: matchers)
        var anchored = 0
        var tested = 0
        for matcher in matchers {
            let scan = events.count { timeline.matches(matcher, $0) }
            #expect(index.count(matcher) == scan)
            if matcher.since != nil || matcher.until != nil { anchored += 1 }
            if !matcher.tests.isEmpty { tested += 1 }
        }
        #expect(anchored > 20 && tested > 50, "the sweep covers anchors and tests")
        let failures = timeline.failures(of: matchers)
        let scanned = matchers.filter { m in
            let anchorsFound = [m.since, m.until].allSatisfy { a in
                a.map { a in events.contains { timeline.matches(a, $0) } } ?? true
            }
            let n = events.count { timeline.matches(m, $0) }
            return !anchorsFound || !m.isMet(by: n)
        }
        #expect(failures.map(\.matcher) == scanned)
        #expect(!failures.isEmpty && failures.count < matchers.count, "some fail, some pass")
    }
}
