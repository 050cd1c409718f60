import Guidance
import Road
import ScenarioFormat
import SimClock
import TestSupport
import Testing

@testable import SimRunner

/// What Pippa knows at an instant (`PippaView`, issue 48) and the matchers
/// that assert it (`{"pippa": …, "at": …}`), on
/// `Scenarios/road/pippa-view-off-route-and-past-120-s.json`: fix fN is
/// taken at N s and its report lands 600 ms later; f38 is the first sent off
/// the route, f50 the first back on it; f69 (taken 69.0 s) the last before a
/// link outage from 70 s to 220 s, after which f220 lands at 220.6 s.
@Suite struct PippaViewTests {
    static let name = "road/pippa-view-off-route-and-past-120-s"
    static let timeline = try! Simulation(try! Fixtures.scenario(name)).timeline
    static func ms(_ v: Int64) -> SimTime { SimTime(ms: v) }

    @Test func beforeHerFirstReportSheDoesNotKnow() throws {
        let first = try #require(PippaView.History(Self.timeline).reports.first)
        #expect(first.fix.raw == 0 && first.delivered == Self.ms(600))
        let before = Self.timeline.pippa(at: Self.ms(599))
        #expect(before.report == nil && before.ageMs == nil && before.answer == .notKnown)
        #expect(Self.timeline.pippa(at: Self.ms(600)).answer == .yes)
    }

    @Test func aReportDeliveredAtAnInstantIsKnownAtThatInstant() {
        let before = Self.timeline.pippa(at: Self.ms(38_599))
        let at = Self.timeline.pippa(at: Self.ms(38_600))
        #expect(before.report?.fix.raw == 37 && before.answer == .yes && before.ageMs == 1599)
        #expect(at.report?.fix.raw == 38 && at.answer == .no && at.ageMs == 600 && at.report?.next == nil)
        let back = Self.timeline.pippa(at: Self.ms(50_600))
        #expect(back.answer == .yes && back.report?.next?.distanceM == 435)
    }

    @Test func aReportExactly120SecondsOldStillAnswersAndOneMillisecondOlderDoesNot() {
        let known = Self.timeline.pippa(at: Self.ms(189_000))
        let unknown = Self.timeline.pippa(at: Self.ms(189_001))
        #expect(known.report?.fix.raw == 69 && known.ageMs == 120_000 && known.answer == .yes)
        #expect(unknown.report?.fix.raw == 69 && unknown.ageMs == 120_001 && unknown.answer == .notKnown)
        // Off the route, the same boundary: a no turns into not-known.
        let off = PippaView.Report(
            fix: FixIndex(1), taken: .zero, delivered: Self.ms(400), onRoute: false, next: nil, event: 0)
        #expect(PippaView(at: PippaView.keptFor, last: off).answer == .no)
        #expect(PippaView(at: PippaView.keptFor + Self.ms(1), last: off).answer == .notKnown)
    }

    @Test func ofReportsDeliveredInOneMillisecondTheLastInTheTimelineCounts() throws {
        var timeline = Self.timeline
        let f38 = try #require(timeline.events.firstIndex { $0.what == .road(.reportDelivered(FixIndex(38))) })
        // f37's report delivered again in f38's millisecond, after it: she holds f37's (on the route).
        timeline.events.insert(TimelineEvent(t: Self.ms(38_600), .road(.reportDelivered(FixIndex(37)))), at: f38 + 1)
        #expect(timeline.pippa(at: Self.ms(38_600)).report?.fix.raw == 37)
        #expect(timeline.pippa(at: Self.ms(38_600)).answer == .yes)
        // Before it: f38's comes last, and she answers no.
        timeline.events.swapAt(f38, f38 + 1)
        #expect(timeline.pippa(at: Self.ms(38_600)).report?.fix.raw == 38)
        #expect(timeline.pippa(at: Self.ms(38_600)).answer == .no)
    }

    @Test func aReportDeliveredButNeverSentIsNoReport() throws {
        var timeline = Self.timeline
        let sent = try #require(
            timeline.events.firstIndex {
                if case .road(.reportSent(let f, _, _, _)) = $0.what { f.raw == 38 } else { false }
            })
        timeline.events.remove(at: sent)
        #expect(timeline.pippa(at: Self.ms(38_600)).report?.fix.raw == 37)
    }

    @Test func theSpansCoverTheDriveWithOneAnswerEachAndAgreeWithTheViewAtEveryInstant() throws {
        let history = PippaView.History(Self.timeline)
        let end = try #require(Self.timeline.events.last).t
        let spans = history.spans(to: end)
        #expect(spans.first?.start == .zero && spans.last?.end == end)
        for (a, b) in zip(spans, spans.dropFirst()) { #expect(a.end == b.start && a.answer != b.answer) }
        #expect(spans.allSatisfy { $0.start < $0.end })
        #expect(spans.map(\.answer) == [.notKnown, .yes, .no, .yes, .notKnown, .yes])
        #expect(spans.map(\.start.ms) == [0, 600, 38_600, 50_600, 189_001, 220_600])
        // Every span's first and last instants, and the instant after it, say what the view says.
        for span in spans {
            for t in [span.start, span.end - Self.ms(1)] { #expect(history.view(at: t).answer == span.answer, "\(t)") }
        }
        // The oldest a report grows within a yes span: f69's, 120 s at the span's last instant.
        #expect(spans[3].oldestMs == 120_000 && history.reports[spans[3].reports.upperBound - 1].fix.raw == 69)
        #expect(
            spans[2].oldestMs == 1599 && spans[4].oldestMs == nil
                && spans[4].reports == spans[3].reports.upperBound - 1..<spans[3].reports.upperBound)
    }

    // MARK: Matchers

    static func scenario(_ expect: String) throws -> Scenario {
        let text = try String(contentsOfFile: Fixtures.path("Scenarios/\(name).json"), encoding: .utf8)
        let at = try #require(text.range(of: "\"expect\": ["))
        return try ScenarioDecoder.decode(
            Array((text[..<at.upperBound] + expect + "," + text[at.upperBound...]).utf8), file: "x.json")
    }

    static func refusal(_ expect: String) -> ScenarioError? {
        do {
            _ = try scenario(expect)
            return nil
        } catch let error as ScenarioError { return error } catch { return nil }
    }

    @Test func theScenariosMatchersOfPippasViewPass() throws {
        let scenario = try Fixtures.scenario(Self.name)
        #expect(scenario.expectPippa.count == 8 && scenario.expect.count == 2)
        #expect(scenario.expectPippa.map(\.index) == [1, 2, 3, 4, 6, 7, 8, 9])
        let verdict = try Verdict(scenario)
        #expect(verdict.passed, "\(verdict)")
    }

    @Test func aMatcherOfTheWrongAnswerOrReportFailsAndSaysWhatSheKnew() throws {
        let scenario = try Self.scenario(#"{"pippa": "no", "at": 60, "fix": "f37", "ageMs": {"max": 500}}"#)
        let failures = try Verdict(scenario).pippaFailures
        try #require(failures.count == 1)
        #expect(failures[0].matcher.path == "expect[0]" && failures[0].view.answer == .yes)
        #expect(failures[0].differences.map(\.field) == [.ageMs, .fix])
        #expect(
            failures[0].summary.hasSuffix(
                #": expected pippa "no" at 01:00.000 ageMs ≤ 500 fix="f37"; she answers yes, from f59's report 1000 ms old; differs in ageMs: 1000, expected ≤ 500; fix: "f59", expected "f37""#
            ))
        // One field wrong, the answer right: still a failure.
        #expect(try Verdict(try Self.scenario(#"{"pippa": "yes", "at": 60, "distanceM": 1}"#)).pippaFailures.count == 1)
        // A field her report does not carry (off route: no maneuver) fails too.
        #expect(
            try Verdict(try Self.scenario(#"{"pippa": "no", "at": 40, "maneuver": "m1"}"#)).pippaFailures.first?
                .differences.first?.actual == nil)
        #expect(try Verdict(try Self.scenario(#"{"pippa": "no", "at": 40, "onRoute": false}"#)).passed)
    }

    @Test func aMatcherAfterTheDrivesEndFailsSayingSo() throws {
        let end = try #require(Self.timeline.events.last).t
        let over = try Verdict(
            try Self.scenario(#"{"pippa": "not-known", "at": \#(Matcher.seconds(end + Self.ms(1)).dropLast(2))}"#))
        #expect(over.pippaFailures.first?.afterEnd == end)
        #expect(over.pippaFailures.first?.summary.hasSuffix("the drive ended at \(end)") == true)
        #expect(try Verdict(try Self.scenario(#"{"pippa": "yes", "at": \#(Matcher.seconds(end).dropLast(2))}"#)).passed)
    }

    @Test func aMatcherThatNamesNothingRealOrHasATypoIsRefusedWithItsPath() throws {
        let cases: [(String, String, ScenarioError.Reason)] = [
            (
                #"{"pippa": "maybe", "at": 1}"#, "expect[0].pippa",
                .unknownValue("maybe", allowed: ["yes", "no", "not-known"], suggestion: nil)
            ),
            (#"{"pippa": "no", "at": 1, "agems": 5}"#, "expect[0].agems", .unknownKey("agems", suggestion: "ageMs")),
            (#"{"pippa": "no"}"#, "expect[0]", .missingField("at")),
            (
                #"{"pippa": "no", "at": 1, "maneuver": "m9"}"#, "expect[0].maneuver",
                .unknownID("m9", kind: "maneuver", suggestion: nil)
            ),
            (#"{"pippa": "no", "at": 1, "fix": "x"}"#, "expect[0].fix", .unknownID("x", kind: "fix", suggestion: nil)),
            (#"{"pippa": "no", "at": 1, "onRoute": 1}"#, "expect[0].onRoute", .wrongType(expected: .boolean)),
            (#"{"pippa": "no", "at": -1}"#, "expect[0].at", .invalid(.negative)),
        ]
        for (matcher, path, reason) in cases {
            let error = Self.refusal(matcher)
            #expect(error?.path == path && error?.reason == reason, "\(matcher): \(String(describing: error))")
        }
        // An event matcher after a Pippa matcher is named by its place in the file.
        #expect(
            Self.refusal(#"{"pippa": "no", "at": 1}, {"event": "road.off-route", "nope": 1}"#)?.path == "expect[1].nope"
        )
        let noRoad =
            #"{"drivesim": 1, "name": "x", "expect": [{"event": "ears.closed", "count": 0}, {"pippa": "yes", "at": 1}]}"#
        do {
            _ = try ScenarioDecoder.decode(Array(noRoad.utf8), file: "x.json")
            Issue.record("a Pippa matcher without a road was taken")
        } catch {
            #expect(error.path == "expect[1].pippa" && error.reason == .invalid(.pippaWithoutRoad))
        }
    }

    @Test func aScenarioWithPippaMatchersIsWrittenBackInItsOrder() throws {
        let scenario = try Fixtures.scenario(Self.name)
        let bytes = ScenarioEncoder.encode(scenario)
        let again = try ScenarioDecoder.decode(bytes, file: "again.json")
        #expect(again == scenario)
        #expect(again.expectPippa.map(\.index) == scenario.expectPippa.map(\.index))
    }
}
