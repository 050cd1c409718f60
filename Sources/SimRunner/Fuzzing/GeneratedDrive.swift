import Guidance
import ScenarioFormat
import SimClock
import SimRunner

/// A long drive made up from a seed, for benchmarks: guidance lines, replies
/// and utterances spread over two hours, colliding as they will.
package enum GeneratedDrive {
    /// A drive of `length` (2 hours by default: 2,000 lines, 2,000 replies of 3 stretches, 300 utterances).
    package static func scenario(
        seed: UInt64, lines: Int = 2_000, replies: Int = 2_000, utterances: Int = 300,
        length: SimTime = SimTime(ms: 7_200_000)
    ) -> Scenario {
        var random = SplitMix64(seed: seed)
        let hours2 = length.ms
        func time(_ i: Int, of n: Int) -> SimTime {
            SimTime(ms: hours2 * Int64(i) / Int64(n) + random.int(in: 0...(hours2 / Int64(n) / 2)))
        }
        var scenario = Scenario(name: "generated drive of \(length), seed \(seed)")
        for i in 0..<lines {
            let at = time(i, of: lines)
            scenario.guidance.append(
                GuidanceLine(
                    id: "g\(i)", at: at, duration: SimTime(ms: random.int(in: 1_000...3_500)),
                    urgent: random.chance(15),
                    maneuver: "m\(i / 3)",
                    expires: random.chance(30) ? at + SimTime(ms: random.int(in: 2_000...8_000)) : nil))
        }
        for i in 0..<replies {
            let stretches = (0..<3).map { k in
                Scenario.Stretch(
                    id: "r\(i)s\(k)", duration: SimTime(ms: random.int(in: 500...4_000)),
                    ready: SimTime(ms: Int64(k) * random.int(in: 0...1_500)))
            }
            scenario.replies.append(Scenario.Reply(id: "r\(i)", at: time(i, of: replies), stretches: stretches))
        }
        let slot = hours2 / Int64(utterances)
        for i in 0..<utterances {
            let at = SimTime(ms: slot * Int64(i) + random.int(in: 0...(slot / 2)))
            let reply = Scenario.DadReply(
                id: "a\(i)", after: SimTime(ms: random.int(in: 0...1_000)),
                stretches: [Scenario.Stretch(id: "a\(i)s0", duration: SimTime(ms: random.int(in: 1_000...3_000)))])
            scenario.dad.append(
                Scenario.Utterance(
                    id: "u\(i)", at: at, duration: SimTime(ms: random.int(in: 800...(slot / 3))),
                    language: random.chance(50) ? .ko : .en, reply: reply))
        }
        return scenario
    }

    /// A talk drive of `hours` at the 2-hour drive's density: per hour 1,000
    /// lines, 1,000 replies of three stretches and 150 utterances.
    package static func scenario(hours: Int, seed: UInt64) -> Scenario {
        var scenario = GeneratedDrive.scenario(
            seed: seed, lines: 1_000 * hours, replies: 1_000 * hours, utterances: 150 * hours,
            length: SimTime(ms: 3_600_000 * Int64(hours) - 10_000))
        scenario.name = "generated drive of \(hours) h, seed \(seed)"
        return scenario
    }
}
