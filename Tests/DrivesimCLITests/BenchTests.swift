import TestSupport
import Testing

@Suite struct BenchTests {
    /// The numbers in `text` after `label` (e.g. "12.3" in "… label 12.3 ms").
    func figure(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." })
    }

    @Test func theRoadDrivesPlanningIsNeverReportedAsMoreThanTheWholeRun() throws {
        let out = Fixtures.drivesim("bench", "--quick", "--only", "road")
        #expect(out.code == 0)
        let whole = try #require(figure(after: "timeline entries per run\n ", in: out.stdout))
        let planning = try #require(figure(after: "of which planning the road", in: out.stdout))
        #expect(planning <= whole, "\(out.stdout)")
        #expect(out.stdout.contains("ms CPU per run, of which planning the road"))
    }
}
