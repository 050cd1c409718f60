import Fuzzing
import Guidance
import Review
import ScenarioFormat
import SimClock
import SimRunner
import Testing

private func s(_ seconds: Double) -> SimTime { SimTime(ms: Int64((seconds * 1000).rounded())) }

@Suite struct SimulationTests {
    /// The SPEC's example scenario, built as values.
    static let specExample = Scenario(
        name: "ordinary line waits for a short stretch",
        guidance: [
            GuidanceLine(
                id: "g1", at: s(2), duration: s(1.8), text: "In 300 m, turn right", language: .en, maneuver: "m1")
        ],
        replies: [
            .init(
                id: "r1", at: .zero,
                stretches: [
                    .init(id: "s1", duration: s(4), text: "...", language: .ko),
                    .init(id: "s2", duration: s(2), ready: s(1)),
                ])
        ],
        dad: [
            .init(
                id: "u1", at: s(9), duration: s(1.2), language: .ko,
                reply: .init(id: "r2", after: s(0.8), stretches: [.init(id: "s3", duration: s(2))]))
        ],
        expect: [
            Matcher(event: .guidanceStarted, fields: [(.line, .string("g1"))], when: .at(s(4))),
            Matcher(event: .stretchCut, count: 0),
        ])

    @Test func theSpecExampleBuiltAsValuesWaitsForTheShortStretch() throws {
        let verdict = try Verdict(Self.specExample)
        #expect(verdict.passed, "\(verdict.report)")
        #expect(verdict.simulation.endedAtRest)
    }
}
