import SimClock
import Testing

/// The one way a place in a file is written.
@Suite struct JSONPathTests {
    @Test func keysAreJoinedByDotsAndIndicesByBrackets() {
        let steps: [JSONPath.Step] = [.key("replies"), .index(0), .key("stretches"), .index(1), .key("duration")]
        #expect(JSONPath.render(steps) == "replies[0].stretches[1].duration")
    }

    @Test func aPathBelowARootStartsWithADot() {
        #expect(JSONPath.render([.key("changes"), .index(2)], from: "road") == "road.changes[2]")
        #expect(JSONPath.render([.index(3)]) == "[3]")
        #expect(JSONPath.render([]) == "")
        #expect(JSONPath.join(JSONPath.join("", "routes"), 0) == "routes[0]")
    }
}
