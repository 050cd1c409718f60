import Guidance
import Road
import Testing

@testable import Fuzzing
@testable import ScenarioFormat
@testable import SimRunner

/// Generated road drives sometimes stop at a waypoint (turning back there
/// or not) and cross by ferry (issue 23), and pass every check as drawn.
@Suite struct RoadGeneratorWaypointFerryTests {
    static let drawn: [Scenario] = (0..<300).map { i in
        var generator = RoadGenerator(seed: UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 1, mutant: nil)
        return generator.scenario(name: "run \(i)")
    }

    @Test func waypointsUTurnsAndFerriesAreDrawn() {
        let maneuvers = Self.drawn.flatMap { $0.road?.maneuvers ?? [] }
        let uTurns = maneuvers.filter { $0.turn == .waypoint && $0.details.uTurn }.count
        let waypoints = maneuvers.filter { $0.turn == .waypoint && !$0.details.uTurn }.count
        let ferries = Self.drawn.filter { s in s.road?.maneuvers.contains { $0.turn == .ferry } ?? false }
        #expect(
            uTurns >= 10 && waypoints >= 10 && ferries.count >= 10,
            "\(uTurns) U-turns, \(waypoints) waypoints, \(ferries.count) ferries")
        // A ferry is waited for at its terminal and crossed at the ferry's speed.
        for s in ferries {
            let profile = s.road!.drive!.profile
            #expect(profile.stops.count == 1)
            #expect(profile.steps.contains { abs($0.speed * 3.6 - RoadGenerator.ferryKmh) < 1e-9 })
        }
    }

    @Test func aUTurnAtAWaypointTurnsTheRouteBack() throws {
        for s in Self.drawn {
            guard let road = s.road, let w = road.maneuvers.firstIndex(where: { $0.details.uTurn }) else { continue }
            // Along the route, the car heads the other way 100 m after the waypoint as 50 m before it.
            let route = try road.placedRoute()
            let at = route.maneuvers[w].distance
            let before = route.location(at: at - 50).direction
            let after = route.location(at: min(route.length, at + RoadGenerator.carriageways + 50)).direction
            #expect(before.x * after.x + before.y * after.y < 0, "\(s.name)")
        }
    }

    @Test func everyDrawnDriveWithAWaypointOrAFerryPassesTheRoadChecks() throws {
        var checked = 0
        for s in Self.drawn where s.road?.maneuvers.contains(where: { [.waypoint, .ferry].contains($0.turn) }) ?? false
        {
            #expect(s.isValid, "\(s.name)")
            #expect(
                Fuzzer.violations(of: s, mutant: nil).isEmpty, "\(s.name): \(Fuzzer.violations(of: s, mutant: nil))")
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test func aReproducerKeepsAFerryOnlyWhenTheFailureNeedsIt() throws {
        // Broken expiry fires line-after-maneuver on a drive with a ferry; shrunk, it keeps only what the failure needs.
        let mutant = try #require(Mutant(name: "expiry-ignored"))
        let check = try #require(mutant.road?.check)
        let failing = try #require(
            Self.drawn.first { s in
                (s.road?.maneuvers.contains { $0.turn == .ferry } ?? false)
                    && Fuzzer.violations(of: s, mutant: mutant).contains { $0.check == check }
            })
        var shrinker = Shrinker(check: check, mutant: mutant)
        let small = shrinker.shrink(failing)
        #expect(Fuzzer.violations(of: small, mutant: mutant).contains { $0.check == check })
        #expect(Fuzzer.violations(of: small, mutant: nil).isEmpty)
        #expect(Shrinker.size(of: small) < Shrinker.size(of: failing))
        // A ferry or waypoint still in it is needed: as straight on, the failure is gone
        // (here the turn before announces the ferry in its "now" line, whose length the failure needs).
        for (i, m) in (small.road?.maneuvers ?? []).enumerated() where [.waypoint, .ferry].contains(m.turn) {
            var plain = small
            plain.road!.maneuvers[i].turn = .straight
            plain.road!.maneuvers[i].details = ManeuverDetails()
            #expect(!Fuzzer.violations(of: plain, mutant: mutant).contains { $0.check == check }, "\(m.id)")
        }
        // Replayable: it reads back as written and fails the same way.
        let decoded = try ScenarioDecoder.decode(ScenarioEncoder.encode(small), file: "r.json")
        #expect(Fuzzer.violations(of: decoded, mutant: mutant).contains { $0.check == check })
    }
}
