import Guidance
import Review
import TestSupport
import Testing

@testable import ScenarioFormat
@testable import SimRunner

/// The one field table (`EventKind.schema`) is where the JSON, the text,
/// golden files and matchers get their fields, and invariant 7 compares
/// whole events.
@Suite struct TimelineTableTests {
    /// Every corpus scenario's timeline.
    static let timelines: [Timeline] = Fixtures.scenarioFiles.compactMap { file in
        (try? Fixtures.load(file.path)).flatMap { try? Simulation($0).timeline }
    }

    /// The keys of one rendered JSON object, in their order.
    static func keys(_ object: String) throws -> [String] {
        let value = try JSONParser.parse(Array(object.utf8))
        guard case .object(let members) = value.kind else { return [] }
        return members.map(\.key)
    }

    @Test func everyRenderedEventsJSONKeysAreTheTablesFieldsForItsKind() throws {
        var seen = Set<String>()
        for timeline in Self.timelines {
            for event in timeline.events {
                let kind = event.kind
                seen.insert(kind.rawValue)
                let keys = try Self.keys(timeline.jsonObject(event))
                let expected = (timeline.fields(of: event).map(\.field.rawValue) + ["event", "t"])
                    .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                #expect(keys == expected, "\(timeline.scenario): \(kind.rawValue)")
                let table = Set(kind.fields.map(\.rawValue) + ["event", "t"])
                #expect(Set(keys).isSubset(of: table))
                // The SPEC's fields are always there, but an optional `stretch` of a wait and the road's optional ones.
                let optional: Set<Field> = [.stretch, .maneuver, .distanceM, .etaMs, .after, .afterDistanceM, .handoff]
                for field in kind.specFields where !optional.contains(field) {
                    #expect(keys.contains(field.rawValue), "\(kind.rawValue) lacks \(field.rawValue)")
                }
            }
        }
        let missing = EventKind.allCases.map(\.rawValue).filter { !seen.contains($0) }
        #expect(missing.count <= 3, "the corpus shows almost every kind; never seen: \(missing)")
    }

    @Test func eachFieldsJSONValueHasTheTablesType() throws {
        for timeline in Self.timelines {
            for event in timeline.events {
                for (field, value) in timeline.fields(of: event) {
                    switch (field.type, value) {
                    case (.string, .string), (.int, .int), (.bool, .bool): continue
                    default: Issue.record("\(event.kind.rawValue).\(field.rawValue) is \(value)")
                    }
                }
            }
        }
    }

    @Test func goldenLinesCompareExactlyTheTablesSpecFieldsAndTheSpokenWords() {
        for timeline in Self.timelines.prefix(20) {
            for (event, line) in zip(timeline.events, Golden.lines(of: timeline)) {
                // `00:02.000  guidance.waiting  line="g1" rule="short-wait"`: the fields after the time and event, in order.
                let compared = Golden.comparedFields(of: event.kind).compactMap { field in
                    timeline.value(of: field, in: event).map { " \(field.rawValue)=\($0.json)" }
                }
                #expect(line == "\(event.t)  \(event.kind.rawValue)" + compared.joined(), "\(line)")
                #expect(
                    Set(Golden.comparedFields(of: event.kind))
                        == Set(event.kind.specFields).union(
                            event.kind.schema.extras.filter { $0 == .text || $0 == .language }))
            }
        }
    }

    @Test func aMatcherMayNameExactlyTheTablesFieldsOfItsEvent() {
        for kind in EventKind.allCases {
            for field in Field.allCases {
                let value =
                    switch field.type {
                    case .int: "1"
                    case .bool: "true"
                    case .string: "\"x\""
                    }
                let text =
                    #"{"drivesim": 1, "name": "n", "expect": [{"event": "\#(kind.rawValue)", "\#(field.rawValue)": \#(value)}]}"#
                // A string "x" names nothing of this scenario, so it may be
                // refused for its value (SPEC 6), but never as a field the event lacks.
                do {
                    let decoded = try ScenarioDecoder.decode(Array(text.utf8), file: "t.json")
                    #expect(kind.fields.contains(field), "\(kind.rawValue) \(field.rawValue)")
                    #expect(decoded.expect[0].fields.map(\.field) == [field])
                } catch {
                    let unknownField = if case .unknownField = error.reason { true } else { false }
                    #expect(unknownField != kind.fields.contains(field), "\(kind.rawValue) \(field.rawValue): \(error)")
                    #expect(field.type == .string || unknownField, "ints and booleans are refused only for the field")
                }
            }
        }
    }

    @Test func invariantSevenFiresWhenTwoRunsDifferOnlyInARoadEventsPayload() throws {
        let a = try Simulation(try Fixtures.scenario("road/link-outage")).timeline
        #expect(Verdict.firstDifference(a, a) == nil)
        let i = try #require(a.events.firstIndex { if case .road(.fixArrived) = $0.what { true } else { false } })
        guard case .road(.fixArrived(let fix, let age, let trusted)) = a.events[i].what else { return }
        var b = a
        b.events[i].what = .road(.fixArrived(fix, ageMs: age + 1, trusted: trusted))
        let violation = try #require(Verdict.firstDifference(a, b))
        #expect(violation.check == .invariant(7))
        #expect(violation.message.contains("event \(i):"))
        var c = a
        c.events[i].what = .road(.fixArrived(fix, ageMs: age, trusted: !trusted))
        #expect(Verdict.firstDifference(a, c)?.check == .invariant(7))
    }
}
