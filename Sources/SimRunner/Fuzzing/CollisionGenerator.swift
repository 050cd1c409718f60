import Guidance
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// Makes collision scenarios from a seed: valid by construction, small, and
/// aimed at the boundaries where an arbiter goes wrong.
///
/// Each scenario first draws its own *profile* (swarm testing: which features
/// are on, how dense, which settings), then random items within it. A dry
/// run then finds the instants that matter, and some items are moved onto
/// them: a request with exactly `waitLimit` left of a stretch (and 1 ms either
/// side), the very millisecond a stretch ends, Dad starting exactly when the
/// ears reopen (and 1 ms either side), a line expiring in the instant it
/// could start, one maneuver requested twice in one instant.
package struct CollisionGenerator {
    private var random: SplitMix64
    private let fault: TalkArbiter.Fault?

    /// A generator for one scenario; the dry runs use the arbiter under test.
    package init(seed: UInt64, fault: TalkArbiter.Fault? = nil) {
        random = SplitMix64(seed: seed)
        self.fault = fault
    }

    /// One scenario, valid by `Scenario.validate()`: the base is valid by
    /// construction, and a snap that would make it invalid is not kept.
    package mutating func scenario(name: String) -> Scenario {
        let profile = Profile(&random)
        var scenario = base(profile, name: name)
        for _ in 0..<Int(random.int(in: 1...3)) {
            var candidate = scenario
            // A snap that changed nothing needs no second look.
            if snap(&candidate), candidate.isValid { scenario = candidate }
        }
        return scenario
    }

    /// What this scenario is made of.
    private struct Profile {
        var lines: Int, urgent: Int, maneuvers: Bool, expiry: Bool
        var replies: Int, stretches: Int, lateChunks: Bool
        var utterances: Int, dadReplies: Bool
        var span: Int64, grid: Bool
        var settings: Scenario.Settings

        init(_ r: inout SplitMix64) {
            lines = Int(r.int(in: 0...5))
            urgent = r.pick([0, 25, 60])
            maneuvers = r.chance(50)
            expiry = r.chance(40)
            replies = Int(r.int(in: 0...3))
            stretches = Int(r.int(in: 1...3))
            lateChunks = r.chance(40)
            utterances = Int(r.int(in: 0...2))
            dadReplies = r.chance(60)
            span = r.int(in: 3_000...12_000)
            grid = r.chance(60)
            settings = Scenario.Settings(
                earsTail: SimTime(ms: r.pick([0, 500, r.int(in: 1...1_500)])),
                waitLimit: SimTime(ms: r.pick([0, 3_000, r.int(in: 200...4_000)])),
                afterCut: r.pick(Scenario.AfterCut.allCases))
        }
    }

    private mutating func time(_ profile: Profile, upTo span: Int64? = nil) -> SimTime {
        let t = random.int(in: 0...(span ?? profile.span))
        return SimTime(ms: profile.grid ? t / 250 * 250 : t)
    }

    private mutating func duration(_ range: ClosedRange<Int64>) -> SimTime {
        SimTime(ms: random.chance(50) ? random.int(in: range) / 100 * 100 + 100 : random.int(in: range))
    }

    private mutating func base(_ profile: Profile, name: String) -> Scenario {
        var scenario = Scenario(name: name, settings: profile.settings)
        for i in 0..<profile.lines {
            let at = time(profile)
            scenario.guidance.append(
                GuidanceLine(
                    id: "g\(i)", at: at, duration: duration(500...3_000), urgent: random.chance(profile.urgent),
                    maneuver: profile.maneuvers ? "m\(random.below(2))" : nil,
                    expires: profile.expiry && random.chance(50) ? at + duration(1...4_000) : nil))
        }
        var stretch = 0
        func stretches(_ generator: inout CollisionGenerator) -> [Scenario.Stretch] {
            (0..<Int(generator.random.int(in: 1...Int64(profile.stretches)))).map { k in
                defer { stretch += 1 }
                let ready = profile.lateChunks && k > 0 ? generator.duration(1...5_000) : .zero
                return Scenario.Stretch(id: "s\(stretch)", duration: generator.duration(300...6_000), ready: ready)
            }
        }
        for i in 0..<profile.replies {
            scenario.replies.append(Scenario.Reply(id: "r\(i)", at: time(profile), stretches: stretches(&self)))
        }
        var free = SimTime.zero
        for i in 0..<profile.utterances {
            let at = free + time(profile, upTo: profile.span / 2)
            let length = duration(200...3_000)
            free = at + length
            let reply =
                profile.dadReplies
                ? Scenario.DadReply(
                    id: "a\(i)", after: SimTime(ms: random.pick([0, random.int(in: 0...1_500)])),
                    stretches: stretches(&self))
                : nil
            scenario.dad.append(
                Scenario.Utterance(
                    id: "u\(i)", at: at, duration: length, language: random.chance(50) ? .ko : .en, reply: reply))
        }
        return scenario
    }

    // MARK: Aiming at the boundaries

    /// Moves one item onto an instant that matters in a dry run of the
    /// scenario; whether it changed anything. The dry run (which draws
    /// nothing from `random`) is made only when the chosen move needs it.
    private mutating func snap(_ scenario: inout Scenario) -> Bool {
        let before = scenario
        let fault = self.fault
        func boundaries() -> Boundaries {
            Boundaries(Simulation(before, fault: fault).timeline, settings: before.settings)
        }
        switch random.below(6) {
        case 0, 1:
            // A request with waitLimit left of a stretch (±1 ms), or in the millisecond it ends.
            guard !scenario.guidance.isEmpty else { return false }
            let b = boundaries()
            guard !b.stretchEnds.isEmpty else { return false }
            let end = random.pick(b.stretchEnds)
            let at = random.chance(25) ? end : end - scenario.settings.waitLimit + SimTime(ms: random.int(in: -1...1))
            moveLine(&scenario, Int(random.below(UInt64(scenario.guidance.count))), to: at)
        case 2:
            // Dad starting when the ears reopen (±1 ms).
            guard !scenario.dad.isEmpty else { return false }
            let b = boundaries()
            guard !b.reopenings.isEmpty else { return false }
            let at = random.pick(b.reopenings) + SimTime(ms: random.int(in: -1...1))
            moveUtterance(&scenario, Int(random.below(UInt64(scenario.dad.count))), to: at)
        case 3:
            // A line expiring in the instant it could start.
            let b = boundaries()
            guard let (line, start) = b.waitedLines.isEmpty ? nil : random.pick(b.waitedLines) else { return false }
            if start > scenario.guidance[line].at { scenario.guidance[line].expires = start }
        case 4:
            // One maneuver requested twice in one instant.
            guard scenario.guidance.count >= 2 else { return false }
            let a = Int(random.below(UInt64(scenario.guidance.count)))
            let c = (a + 1 + Int(random.below(UInt64(scenario.guidance.count - 1)))) % scenario.guidance.count
            scenario.guidance[c].maneuver = scenario.guidance[a].maneuver ?? "m0"
            scenario.guidance[a].maneuver = scenario.guidance[c].maneuver
            moveLine(&scenario, c, to: scenario.guidance[a].at)
        default:
            // Talk arriving in the instant a line is requested or ends (guidance wins the tie).
            guard !scenario.replies.isEmpty,
                let at = random.chance(50) ? boundaries().lineEnds.first : scenario.guidance.first?.at
            else { return false }
            let i = Int(random.below(UInt64(scenario.replies.count)))
            scenario.replies[i].at = at
        }
        return scenario != before
    }

    private func moveLine(_ scenario: inout Scenario, _ i: Int, to at: SimTime) {
        guard at >= .zero else { return }
        let shift = at - scenario.guidance[i].at
        scenario.guidance[i].at = at
        if let expires = scenario.guidance[i].expires { scenario.guidance[i].expires = expires + shift }
    }

    /// Moves utterance `i` to start at `at`, unless Dad would then speak over
    /// himself (touching is fine: intervals are half-open).
    /// - Complexity: O(n), n the utterances.
    private func moveUtterance(_ scenario: inout Scenario, _ i: Int, to at: SimTime) {
        guard at >= .zero else { return }
        let moved = SimInterval(at, at + scenario.dad[i].duration)
        let clash = scenario.dad.indices.contains { j in
            j != i && SimInterval(scenario.dad[j].at, scenario.dad[j].at + scenario.dad[j].duration).overlaps(moved)
        }
        if !clash { scenario.dad[i].at = at }
    }

    /// The instants of a dry run worth aiming at.
    private struct Boundaries {
        var stretchEnds: [SimTime] = []
        var reopenings: [SimTime] = []
        var lineEnds: [SimTime] = []
        /// Lines that waited, with the instant they started.
        var waitedLines: [(Int, SimTime)] = []

        init(_ timeline: Timeline, settings: Scenario.Settings) {
            var requested: [Int: SimTime] = [:]
            for event in timeline.events {
                switch event.what {
                case .stretchStarted(_, let stretch, _):
                    stretchEnds.append(event.t + timeline.roster.stretches[stretch.int].duration)
                case .guidanceEnded:
                    lineEnds.append(event.t)
                    reopenings.append(event.t + settings.earsTail)
                case .guidanceRequested(let line):
                    requested[line.int] = event.t
                case .guidanceStarted(let line):
                    if let at = requested[line.int], at < event.t { waitedLines.append((line.int, event.t)) }
                default: continue
                }
            }
        }
    }
}
