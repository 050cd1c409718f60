import Guidance
import ScenarioFormat
import SimClock
import TalkArbiter
import TestSupport
import Testing

@testable import Fuzzing
@testable import Review
@testable import SimRunner

private func decode(_ text: String) throws -> Scenario {
    try ScenarioDecoder.decode(Array(text.utf8), file: "test.json")
}

/// A line that cuts `s1` at 2 s (long-cut), then plays to 3 s.
private let cutScenario = """
    {"drivesim": 1, "name": "cut",
     "guidance": [{"id": "g1", "at": 2, "duration": 1}],
     "replies": [{"id": "r1", "at": 0, "stretches": [{"id": "s1", "duration": 9}, {"id": "s2", "duration": 1}]}],
     "expect": [
       {"event": "talk.stretch.cut", "stretch": "s2", "rule": "urgent-cut"},
       {"event": "guidance.started", "line": "g1", "at": 2.5},
       {"event": "talk.stretch.cut", "stretch": "s1", "count": 0}]}
    """

@Suite struct ExpectationTests {
    @Test func aFailedExpectationNamesTheFieldsThatDifferedAndItsLineAndColumn() throws {
        let verdict = try Verdict(try decode(cutScenario))
        #expect(verdict.failures.count == 3)
        let first = verdict.failures[0]
        #expect(first.found == 0)
        #expect(
            first.differences == [
                FieldDifference(field: .rule, expected: .string("urgent-cut"), actual: .string("long-cut")),
                FieldDifference(field: .stretch, expected: .string("s2"), actual: .string("s1")),
            ])
        #expect(first.timeOutside == nil)
        #expect(first.summary.hasPrefix("expect[0] (line 5, column 4): expected talk.stretch.cut"))
        #expect(
            first.differenceLine
                == #"nearest differs in rule: "long-cut", expected "urgent-cut"; stretch: "s1", expected "s2""#)

        let second = verdict.failures[1]
        #expect(second.differences.isEmpty)
        #expect(second.timeOutside == SimTime(ms: 2000))
        #expect(second.differenceLine == "nearest differs in t: 00:02.000, expected at 00:02.500")

        let third = verdict.failures[2]
        #expect(third.found == 1, "count 0 fails because s1 was cut")
        #expect(third.differenceLine == nil, "the nearest event matches; only the count is wrong")

        let report = verdict.report
        #expect(
            report.contains(
                "expect[1] (line 6, column 4): expected guidance.started line=\"g1\" at 00:02.500; found none\n  nearest differs in t:"
            ))
    }

    @Test func theIndexFindsWhatAScanFinds() throws {
        // Every kind of window and field, against a plain scan of the timeline.
        let scenario = GeneratedDrive.scenario(
            seed: 3, lines: 60, replies: 60, utterances: 10, length: SimTime(ms: 600_000))
        let timeline = try Simulation(scenario).timeline
        var rng = SplitMix64(seed: 9)
        var matchers: [Matcher] = []
        for event in timeline.events.prefix(400) {
            var fields = timeline.fields(of: event).filter { _ in rng.chance(60) }
            if rng.chance(30), let f = fields.first, case .string(let s) = f.value {
                fields[0].value = .string(s + "x")
            }
            let t = SimTime(ms: event.t.ms + rng.int(in: -1...1))
            let when: Matcher.When = rng.pick([.anywhere, .at(t), .between(t, t + SimTime(ms: rng.int(in: 0...5_000)))])
            matchers.append(Matcher(event: event.kind, fields: fields, when: when, count: rng.chance(50) ? 1 : nil))
        }
        let index = MatcherIndex(timeline, for: matchers)
        for matcher in matchers {
            let scan = timeline.events.count { timeline.matches(matcher, $0) }
            #expect(index.count(matcher) == scan)
        }
        let failures = timeline.failures(of: matchers)
        let scanned = matchers.filter { m in
            let n = timeline.events.count { timeline.matches(m, $0) }
            return m.count.map { n != $0 } ?? (n == 0)
        }
        #expect(failures.map(\.matcher) == scanned)
        #expect(!failures.isEmpty && failures.count < matchers.count, "some fail, some pass")
    }

    // A hang guard, not a speed check (it took two minutes in release when matchers were scanned).
    @Test(.fullRunOnly, .timeLimit(.minutes(1))) func aHundredThousandFailingMatchersAreChecked() throws {
        // A two-hour drive (about 30,000 events) and 100,000 matchers, each
        // naming a real line, stretch or utterance at a time it did not happen.
        let scenario = GeneratedDrive.scenario(seed: 1)
        let timeline = try Simulation(scenario).timeline
        var matchers: [Matcher] = []
        var rng = SplitMix64(seed: 5)
        for i in 0..<100_000 {
            let at = SimTime(ms: rng.int(in: 0...7_200_000))
            switch i % 3 {
            case 0:
                let id = scenario.guidance[i % scenario.guidance.count].id
                matchers.append(
                    Matcher(
                        event: .guidanceStarted, fields: [(field: .line, value: .string(id))], when: .at(at),
                        path: "expect[\(i)]"))
            case 1:
                let id = scenario.replies[i % scenario.replies.count].stretches[0].id
                matchers.append(
                    Matcher(
                        event: .stretchCut, fields: [(field: .stretch, value: .string(id))],
                        when: .between(at, at + SimTime(ms: 10)), path: "expect[\(i)]"))
            default:
                matchers.append(
                    Matcher(event: .dadEnded, fields: [(field: .heardMs, value: .int(-1))], path: "expect[\(i)]"))
            }
        }
        var withMatchers = scenario
        withMatchers.expect = matchers
        try withMatchers.validate()
        let failures = timeline.failures(of: matchers)
        #expect(failures.count > 90_000)
        #expect(failures.allSatisfy { !$0.nearest.isEmpty })
    }

    // MARK: One definition of validity

    @Test func everyGeneratedScenarioValidatesAndRoundTrips() throws {
        let faults: [TalkArbiter.Fault?] = [nil] + TalkArbiter.Fault.allCases.map { $0 }
        for run in 0..<300 {
            let fault = faults[run % faults.count]
            let scenario = Fuzzer.scenario(campaign: 11, run: run, fault: fault)
            #expect(throws: Never.self, "run \(run)") { try scenario.validate() }
            let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(scenario), file: "run.json")
            #expect(decoded == scenario, "run \(run)")
        }
    }

    @Test func everyShrunkReproducerValidatesAndRoundTrips() throws {
        var shrunk = 0
        for fault in TalkArbiter.Fault.allCases {
            var settings = Fuzzer.Settings()
            settings.fault = fault
            var fuzzer = Fuzzer(settings)
            for index in 0..<2_000 where fuzzer.failures.count < 2 { fuzzer.run(index) }
            for failure in fuzzer.failures {
                var shrinker = Shrinker(check: failure.violation.check, fault: fault)
                let small = shrinker.shrink(failure.scenario)
                #expect(throws: Never.self, "\(fault.rawValue)") { try small.validate() }
                let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(small), file: "repro.json")
                #expect(decoded == small, "\(fault.rawValue)")
                shrunk += 1
            }
        }
        #expect(shrunk >= TalkArbiter.Fault.allCases.count)
    }

    @Test func theShrinkerNeverSimulatesAnInvalidCandidate() {
        var shrinker = Shrinker(check: .invariant(1))
        var invalid = Scenario(name: "x", guidance: [GuidanceLine(id: "g1", at: .zero, duration: .zero)])
        let fails = shrinker.fails(invalid)
        #expect(!fails)
        #expect(shrinker.attempts == 0)
        invalid.guidance[0].duration = SimTime(ms: 1)
        #expect(invalid.isValid)
    }

    @Test(
        arguments: [
            (Scenario(name: ""), [JSONPath.Step.key("name")], ScenarioProblem.Reason.emptyString),
            (
                Scenario(name: "x", replies: [.init(id: "r1", at: .zero, stretches: [])]),
                [.key("replies"), .index(0), .key("stretches")], .emptyStretches
            ),
            (
                Scenario(
                    name: "x",
                    guidance: [
                        GuidanceLine(id: "g1", at: SimTime(ms: 5), duration: SimTime(ms: 1), expires: SimTime(ms: 5))
                    ]),
                [.key("guidance"), .index(0), .key("expires")], .expiresNotAfterAt
            ),
            (
                Scenario(name: "x", guidance: [GuidanceLine(id: "g1", at: SimTime(ms: -1), duration: SimTime(ms: 1))]),
                [.key("guidance"), .index(0), .key("at")], .negative
            ),
            (
                Scenario(name: "x", dad: [.init(id: "u1", at: .zero, duration: SimTime(ms: 3_600_001), language: .ko)]),
                [.key("dad"), .index(0), .key("duration")], .tooLarge(limitSeconds: 3600)
            ),
            (
                Scenario(
                    name: "x",
                    dad: [
                        .init(id: "u1", at: .zero, duration: SimTime(ms: 10), language: .ko),
                        .init(id: "u2", at: SimTime(ms: 9), duration: SimTime(ms: 10), language: .en),
                    ]),
                [.key("dad"), .index(1)], .overlappingUtterance(with: "u1")
            ),
            (
                Scenario(
                    name: "x", expect: [Matcher(event: .guidanceEnded, fields: [(field: .line, value: .bool(true))])]),
                [.key("expect"), .index(0), .key("line")], .wrongType(.string)
            ),
            (
                Scenario(
                    name: "x",
                    expect: [Matcher(event: .guidanceEnded, fields: [(field: .stretch, value: .string("s1"))])]),
                [.key("expect"), .index(0), .key("stretch")], .fieldNotCarried(.stretch, event: .guidanceEnded)
            ),
        ] as [(Scenario, [JSONPath.Step], ScenarioProblem.Reason)])
    func validateRefusesWithPathAndReason(
        scenario: Scenario, path: [JSONPath.Step], reason: ScenarioProblem.Reason
    ) {
        #expect(throws: ScenarioProblem(reason, at: path)) { try scenario.validate() }
    }
}
