import Guidance
import Road
import SimClock
import Testing

@testable import ScenarioFormat
@testable import SimRunner

/// A road scenario whose route (885 m due east) has `maneuvers`.
private func withManeuvers(_ maneuvers: String) -> String {
    #"{"drivesim": 1, "name": "t", "road": {"language": "ko", "route": {"points": [{"lat": 37.5, "lon": 127.0}, {"lat": 37.5, "lon": 127.01}], "maneuvers": ["#
        + maneuvers + #"]}, "drive": {"speeds": [{"from": 0, "kmh": 50}]}}}"#
}

/// One maneuver at 265 m with `fields` after its id and point.
private func one(_ fields: String) -> String {
    withManeuvers(#"{"id": "m1", "lat": 37.5, "lon": 127.003, "# + fields + "}")
}

private func failure(_ text: String) -> ScenarioError? {
    do {
        _ = try ScenarioDecoder.decode(Array(text.utf8), file: "road.json")
        return nil
    } catch {
        return error
    }
}

@Suite struct ManeuverDecodingTests {
    @Test(
        arguments: [
            (
                one(#""turn": "roundabout""#), ScenarioError.Reason.invalid(.road(.exitMissing)),
                "road.route.maneuvers[0]"
            ),
            (
                one(#""turn": "roundabout", "exit": 0"#), .invalid(.road(.countOutOfRange(1...12))),
                "road.route.maneuvers[0].exit"
            ),
            (
                one(#""turn": "roundabout", "exit": 13"#), .invalid(.road(.countOutOfRange(1...12))),
                "road.route.maneuvers[0].exit"
            ),
            (
                one(#""turn": "roundabout", "exit": 2.5"#), .wrongType(expected: .integer),
                "road.route.maneuvers[0].exit"
            ),
            (
                one(#""turn": "roundabout", "exit": "2""#), .wrongType(expected: .integer),
                "road.route.maneuvers[0].exit"
            ),
            (
                one(#""turn": "left", "exit": 2"#), .keyNotForTurn("exit", turn: "left", only: ["roundabout"]),
                "road.route.maneuvers[0].exit"
            ),
            (
                one(#""turn": "left", "ref": "12""#), .keyNotForTurn("ref", turn: "left", only: ["off-ramp"]),
                "road.route.maneuvers[0].ref"
            ),
            (one(#""turn": "off-ramp", "ref": """#), .invalid(.road(.textEmpty)), "road.route.maneuvers[0].ref"),
            (
                one(#""turn": "off-ramp", "ref": "123456789""#), .invalid(.road(.textTooLong(maxCharacters: 8))),
                "road.route.maneuvers[0].ref"
            ),
            (one(#""turn": "off-ramp", "name": 12"#), .wrongType(expected: .string), "road.route.maneuvers[0].name"),
            (
                one(#""turn": "right", "side": "right""#),
                .keyNotForTurn("side", turn: "right", only: ["arrive", "off-ramp", "on-ramp"]),
                "road.route.maneuvers[0].side"
            ),
            (
                one(#""turn": "off-ramp", "side": "ahead""#),
                .unknownValue("ahead", allowed: ["left", "right"], suggestion: nil), "road.route.maneuvers[0].side"
            ),
            (
                one(#""turn": "arrive", "side": "rigth""#),
                .unknownValue("rigth", allowed: ["left", "right", "ahead"], suggestion: "right"),
                "road.route.maneuvers[0].side"
            ),
            (
                one(#""turn": "arrive", "street": "강남대로""#),
                .keyNotForTurn(
                    "street", turn: "arrive", only: Turn.allCases.filter { !$0.saidOnReaching }.map(\.rawValue)),
                "road.route.maneuvers[0].street"
            ),
            (
                one(#""turn": "arrive", "toward": "수원""#),
                .keyNotForTurn(
                    "toward", turn: "arrive", only: Turn.allCases.filter { !$0.saidOnReaching }.map(\.rawValue)),
                "road.route.maneuvers[0].toward"
            ),
            (one(#""turn": "left", "toward": """#), .invalid(.road(.textEmpty)), "road.route.maneuvers[0].toward"),
            (
                one(#""turn": "left", "uTurn": true"#), .keyNotForTurn("uTurn", turn: "left", only: ["waypoint"]),
                "road.route.maneuvers[0].uTurn"
            ),
            (
                one(#""turn": "waypoint", "street": "강남대로""#),
                .keyNotForTurn(
                    "street", turn: "waypoint", only: Turn.allCases.filter { !$0.saidOnReaching }.map(\.rawValue)),
                "road.route.maneuvers[0].street"
            ),
            (
                one(#""turn": "u-turn", "name": "광화문 로터리""#),
                .keyNotForTurn("name", turn: "u-turn", only: ["off-ramp", "on-ramp", "roundabout"]),
                "road.route.maneuvers[0].name"
            ),
            (
                one(#""turn": "roundabuot", "exit": 2"#),
                .unknownValue("roundabuot", allowed: Turn.allCases.map(\.rawValue), suggestion: "roundabout"),
                "road.route.maneuvers[0].turn"
            ),
            (
                one(#""turn": "left", "exitt": 2"#), .unknownKey("exitt", suggestion: "exit"),
                "road.route.maneuvers[0].exitt"
            ),
            (
                withManeuvers(
                    #"{"id": "m1", "lat": 37.5, "lon": 127.003, "turn": "arrive"}, {"id": "m2", "lat": 37.5, "lon": 127.006, "turn": "left"}"#
                ),
                .invalid(.road(.arrivalNotLast)), "road.route.maneuvers[1]"
            ),
        ] as [(String, ScenarioError.Reason, String)])
    func badManeuverIsRefusedWithReasonAndPath(text: String, reason: ScenarioError.Reason, path: String) throws {
        let error = try #require(failure(text), "decoded, but should have been refused")
        #expect(error.reason == reason)
        #expect(error.path == path)
    }

    @Test func eachKindReadsItsOwnDetails() throws {
        let text = withManeuvers(
            #"""
            {"id": "a", "lat": 37.5, "lon": 127.002, "turn": "roundabout", "exit": 2, "toward": "수원", "street": "강남대로"},
            {"id": "b", "lat": 37.5, "lon": 127.004, "turn": "off-ramp", "ref": "12A", "name": "판교IC"},
            {"id": "c", "lat": 37.5, "lon": 127.006, "turn": "arrive", "side": "ahead"}
            """#)
        let s = try ScenarioDecoder.decode(Array(text.utf8), file: "road.json")
        let m = try #require(s.road).maneuvers
        #expect(m.map(\.turn) == [.roundabout, .offRamp, .arrive])
        #expect(m[0].details == ManeuverDetails(toward: "수원", exit: 2) && m[0].street == "강남대로")
        #expect(m[1].details == ManeuverDetails(exitNumber: "12A", exitName: "판교IC"))
        #expect(m[2].details == ManeuverDetails(side: .ahead))
        let again = try ScenarioDecoder.decode(ScenarioEncoder.encode(s), file: "again")
        #expect(again == s)
    }
}

/// A coordinate or a number of the road is read in place when it can be
/// (`Decoding.exactDouble`): the same double as `Double(String)`, or none.
@Test func aNumberReadInPlaceIsTheOneDoubleReads() {
    var random = SplitMix64(seed: 7)
    var literals = [
        "0", "-0", "0.0", "1", "80", "-1.5", "37.49999911268743", "127.0145096767621", "127.01450659152097",
        "9007199254740992", "9007199254740993", "0.1", "0.30000000000000004", "1e5", "2.5E-3", "-180",
        "90.000000000000000001",
        "123456789012345678", "0.0000000000000000000001", "0.00000000000000000000001", "4.35", "1.7976931348623157",
        // Halfway between two doubles (ties to even), and just beside halfway.
        "4503599627370496.5", "4503599627370497.5", "4503599627370496.50000000000000001", "45035996.273704975",
        "0.10000000000000000555", "9999999999999999999", "1844674407370955161.5",
    ]
    for _ in 0..<20_000 {
        let digits = random.int(in: 1...19)
        let point = random.int(in: 0...digits)
        var text = random.int(in: 0...3) == 0 ? "-" : ""
        for k in 0..<digits {
            if k == point && k > 0 { text += "." }
            text += String(random.int(in: k == 0 ? 1...9 : 0...9))
        }
        literals.append(text)
    }
    var exact = 0
    for literal in literals {
        guard let x = Array(literal.utf8).withUnsafeBufferPointer(Decoding.exactDouble) else { continue }
        #expect(x.bitPattern == Double(literal)!.bitPattern, "\(literal)")
        exact += 1
    }
    #expect(exact > 15_000)  // most literals of up to 19 digits are read in place
    // A coordinate's 17 digits are read in place.
    for literal in ["127.01450659152097", "-37.498123456789012", "0.12345678901234567"] {
        #expect(Array(literal.utf8).withUnsafeBufferPointer(Decoding.exactDouble) != nil, "\(literal)")
    }
}
