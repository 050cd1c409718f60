import Road
import ScenarioFormat
import SimClock
import SimRunner

extension GeneratedDrive {
    /// A 2-hour road drive for benchmarks: a route of `maneuvers` turns
    /// (legs of 600 to 1,800 m, alternating city and arterial speeds), fixes
    /// every second with noise, jitter and drops, a link, and talk throughout
    /// (replies of three stretches and Dad's questions), all from `seed`.
    package static func roadScenario(
        seed: UInt64, maneuvers: Int = 100, replies: Int = 600, utterances: Int = 120,
        length: SimTime = SimTime(ms: 7_200_000)
    ) -> Scenario {
        var random = SplitMix64(seed: seed)
        let projection = LocalProjection(origin: GeoPoint(latitude: 37.5, longitude: 127.0))
        var position = Vector(x: 0, y: 0)
        var heading = 0  // quarter turns
        var points = [projection.unproject(position)]
        var specs: [Scenario.ManeuverSpec] = []
        var steps: [SpeedProfile.Step] = []
        var along = 0.0
        for i in 0..<maneuvers {
            let leg = Double(random.int(in: 600...1_800))
            steps.append(SpeedProfile.Step(from: along, speed: (i % 3 == 0 ? 80 : 50) / 3.6))
            let direction = [Vector(x: 1, y: 0), Vector(x: 0, y: 1), Vector(x: -1, y: 0), Vector(x: 0, y: -1)][
                heading & 3]
            // Two points per leg, so the matcher has vertices to search.
            position = position + direction * (leg / 2)
            points.append(projection.unproject(position))
            position = position + direction * (leg / 2)
            points.append(projection.unproject(position))
            along += leg
            let left = random.chance(50)
            heading += left ? 1 : 3
            let turn: Turn = i == maneuvers - 1 ? .arrive : (left ? .left : .right)
            specs.append(Scenario.ManeuverSpec(id: "m\(i)", point: projection.unproject(position), turn: turn))
        }
        var generator = FixGenerator()
        generator.seed = seed
        generator.jitter = SimTime(ms: 400)
        generator.dropPercent = 2
        var road = Scenario.Road(
            language: random.chance(50) ? .ko : .en, points: points, maneuvers: specs,
            drive: Scenario.Drive(profile: SpeedProfile(steps: steps)), fixes: .generated(generator))
        road.link.outages = [SimInterval(SimTime(ms: 1_800_000), SimTime(ms: 1_860_000))]
        var scenario = GeneratedDrive.scenario(
            seed: seed, lines: 0, replies: replies, utterances: utterances, length: length)
        scenario.name = "generated 2-hour road drive, seed \(seed)"
        scenario.road = road
        return scenario
    }

    /// A road drive of about `hours`: 45 maneuvers, 300 replies and 60 utterances per hour.
    package static func roadScenario(hours: Int, seed: UInt64) -> Scenario {
        var scenario = roadScenario(
            seed: seed, maneuvers: 45 * hours, replies: 300 * hours, utterances: 60 * hours,
            length: SimTime(ms: 3_600_000 * Int64(hours) - 10_000))
        scenario.name = "generated road drive of about \(hours) h, seed \(seed)"
        return scenario
    }
}
