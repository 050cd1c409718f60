import Guidance
import Road
import ScenarioFormat
import SimClock
import TestSupport
import Testing

@testable import SimRunner

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

/// drivesim's own guidance, and one line more: "Drive carefully." (2 s, of
/// no maneuver) at the first span from 23:59:40 on.
private struct CarefulAtMidnight: Guidance {
    var reference: Announcer
    var said = false
    var segmentEnd: SimTime? {
        get { reference.segmentEnd }
        set { reference.segmentEnd = newValue }
    }
    var nowSpoken: [Bool] { reference.nowSpoken }
    var reviser: Announcer? { reference }

    init(_ route: GuidanceRoute) { reference = Announcer(route) }

    mutating func announce(_ state: RoadState, from: SimTime, until: SimTime, into out: inout [Announcement]) {
        if !said, from >= ms(86_380_000) {
            said = true
            let line = GuidanceLine(
                id: "careful", at: from, duration: ms(2_000), text: "Drive carefully.", language: .en)
            out.append(.line(line, maneuver: reference.maneuvers.count - 1, stage: .far))
        }
        reference.announce(state, from: from, until: until, into: &out)
    }
    mutating func fixArrived(_ fix: Fix, state: RoadState?, onRoute: Bool) {
        reference.fixArrived(fix, state: state, onRoute: onRoute)
    }
    mutating func rerouteLine(at t: SimTime, back: Bool) -> GuidanceLine? { reference.rerouteLine(at: t, back: back) }
    func unannounced(_ m: Int) -> RoadEvent.UnannouncedReason? { reference.unannounced(m) }
    func unannounced(_ m: Int, passedAt pass: SimTime) -> RoadEvent.UnannouncedReason? {
        reference.unannounced(m, passedAt: pass)
    }
}

/// Nothing a guidance asks for happens after the drive's 24 h (SPEC 2, issue 49),
/// however long its line waits and whichever guidance made it.
@Suite struct DrivesEndTests {
    /// A 1.5 km drive from 23:58:00 (arriving about 23:59:50), and the file's own
    /// line g0, 100 s from 23:58:30: it plays until 24:00:10.
    static let scenario = """
        { "drivesim": 1, "name": "a line waiting at midnight",
          "guidance": [ { "id": "g0", "at": 86310, "duration": 100 } ],
          "road": { "language": "en",
            "route": { "points": [ { "lat": 37.5, "lon": 127.0 }, { "lat": 37.5, "lon": 127.017 } ],
                       "maneuvers": [ { "id": "end", "lat": 37.5, "lon": 127.017, "turn": "arrive" } ] },
            "drive": { "start": 86280, "speeds": [ { "from": 0, "kmh": 50 } ] } } }
        """

    @Test func aGuidancesLineThatWouldEndAfter24hIsDroppedStaleInTime() throws {
        let scenario = try ScenarioDecoder.decode(Array(Self.scenario.utf8), file: "midnight.json")
        try scenario.validate()
        let plan = try RoadPlan(scenario.road, guidance: CarefulAtMidnight.init)
        let run = Simulation(scenario, plan: plan)
        let roster = run.timeline.roster
        let careful = try #require(roster.lines.firstIndex { $0.id == "careful" })
        let asked = try #require(run.timeline.events.first { $0.what == .guidanceRequested(LineIndex(careful)) })
        #expect(asked.t >= ms(86_380_000) && asked.t < ms(86_398_000))
        // It could end by 24 h only if it started by 23:59:58: it expires 1 ms after.
        #expect(roster.lines[careful].expires == ms(86_398_001))
        let gone = run.timeline.events.first {
            if case .guidanceDropped(LineIndex(careful), _) = $0.what {
                true
            } else if case .guidanceStarted(LineIndex(careful)) = $0.what {
                true
            } else {
                false
            }
        }
        #expect(
            gone?.t == ms(86_398_001) && gone?.kind == .guidanceDropped && gone?.rule == .stale,
            "\(String(describing: gone))")
        // No line of the guidance starts or ends after 24 h; only the file's own g0 plays past it.
        for event in run.timeline.events where event.t > RoadPlan.end {
            switch event.what {
            case .guidanceStarted(let l), .guidanceEnded(let l): #expect(roster.lines[l.int].id == "g0", "\(event)")
            default: continue
            }
        }
        #expect(Invariants.check(scenario, run).isEmpty)
    }

    @Test func drivesimsOwnGuidanceToo() throws {
        // Its "You have arrived" waits behind g0 and is dropped, never said after 24 h.
        let scenario = try ScenarioDecoder.decode(Array(Self.scenario.utf8), file: "midnight.json")
        let run = try Simulation(scenario)
        let roster = run.timeline.roster
        for event in run.timeline.events where event.t > RoadPlan.end {
            if case .guidanceStarted(let l) = event.what {
                Issue.record("\(roster.lines[l.int].id) starts at \(event.t)")
            }
        }
        #expect(run.timeline.events.contains { $0.kind == .guidanceDropped && $0.rule == .stale })
        #expect(Invariants.check(scenario, run).isEmpty)
    }
}
