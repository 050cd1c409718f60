import Guidance
import Road
import SimClock

/// The road's checks on what a guidance says and on why it was silent
/// (docs/timeline.md, "road line-words" and "road late-claim"): what any
/// guidance's lines must satisfy, drivesim's own or an app's, in English
/// and Korean. They read the words a line starts with (a line re-phrased
/// while it waited is judged by its new words) and the truth, never the
/// guidance's state.
extension Invariants {
    /// The words that must be in a line of maneuver `m` in `language`: each
    /// entry is a choice, one of whose words (letter case aside) must be
    /// there. A turn by its side ("left", "좌회전" or "왼쪽"), a U-turn, a
    /// roundabout's exit by its number, an off-ramp by its number and side,
    /// a ramp, a merge, an arrival; a kind whose words vary too much
    /// (straight on, a ferry, a roundabout with no exit) needs none.
    static func namingWords(_ m: Maneuver, _ language: Language) -> [[String]] {
        let en = language == .en
        let left = en ? ["left"] : ["좌회전", "왼쪽"], right = en ? ["right"] : ["우회전", "오른쪽"]
        let uTurn = en ? ["u-turn"] : ["유턴"]
        func side(_ s: ArrivalSide?) -> [[String]] {
            switch s {
            case .left: return [left]
            case .right: return [right]
            case .ahead, nil: return []
            }
        }
        switch m.turn {
        case .left, .slightLeft, .sharpLeft, .keepLeft, .forkLeft: return [left]
        case .right, .slightRight, .sharpRight, .keepRight, .forkRight: return [right]
        case .uTurn: return [uTurn]
        case .roundabout:
            guard let n = m.details.exit else { return [] }
            return [en ? [Phrasebook.englishOrdinal(n), "\(n)"] : [Phrasebook.koreanOrdinal(n), "\(n)번째", "\(n) 번째"]]
        case .offRamp:
            let sign = m.details.exitNumber.map { [[$0]] } ?? []
            let named = sign + side(m.details.side)
            // Named by its sign ("한남IC로 나가세요"), or as an exit.
            return named.isEmpty ? [(en ? ["exit"] : ["출구", "나가"]) + (m.details.exitName.map { [$0] } ?? [])] : named
        case .onRamp: return [en ? ["ramp"] : ["진입"]] + side(m.details.side)
        case .merge: return [en ? ["merge"] : ["합류"]]
        case .arrive: return [en ? ["arriv", "destination"] : ["도착", "목적지"]]
        case .waypoint: return m.details.uTurn ? [uTurn] : [en ? ["reach", "waypoint"] : ["경유지", "도착"]]
        case .straight, .ferry: return []
        }
    }

    /// `line-words`: every far, near and "now" line a guidance made says
    /// what it is for. It names its own maneuver (`namingWords`), and not a
    /// neighbour's street in place of its own; a far or near line says a
    /// distance, in its voice's units (metric in Korean; the scenario's
    /// `guidance.units` in English); a "now" line says none (it is now).
    /// - Complexity: O(lines × words): a line is compared with its own
    ///   maneuver and the two on each side of it only.
    static func checkWords(_ scenario: Scenario, _ run: Simulation) -> [Violation] {
        guard let road = scenario.road else { return [] }
        let timeline = run.timeline, roster = timeline.roster
        let maneuvers = roster.road.maneuvers
        var index: [String: Int] = [:]
        for (i, m) in maneuvers.enumerated() where index[m.id] == nil { index[m.id] = i }
        var found: [Violation] = []
        for event in timeline.events {
            guard case .guidanceStarted(let l) = event.what, let stage = roster.stage(of: l),
                  let id = roster.lines[l.int].maneuver, let m = index[id], let text = roster.text(of: l, startingAt: event.t)
            else { continue }
            let line = roster.lines[l.int]
            let language = line.language ?? road.guidance.language
            let lower = text.lowercased()
            func fail(_ why: String) {
                found.append(.init(check: .road(.lineWords), t: event.t, message: "line \(line.id) (\(stage.rawValue), \(id)) \(why): \"\(text)\""))
            }
            let said = spokenDistance(text)
            switch stage {
            case .now:
                if said != nil { fail("says a distance, as if the maneuver were not now"); continue }
            case .far, .near:
                guard let said else { fail("says no distance"); continue }
                let voice = language == .ko ? Units.metric : road.guidance.units
                if said.units != voice { fail("says \(said.units.rawValue) units to a \(voice.rawValue) voice (\(language.rawValue))"); continue }
            }
            let maneuver = maneuvers[m]
            if let missing = namingWords(maneuver, language).first(where: { choice in !choice.contains { says(lower, $0.lowercased()) } }) {
                fail("does not name its maneuver (\(maneuver.turn.rawValue)): none of \(missing.map { "'\($0)'" }.joined(separator: ", "))")
                continue
            }
            // Another's street where its own is not: the words of a neighbour (the next one's may follow ", then").
            guard let own = maneuver.street, !own.isEmpty, !says(text, own) else { continue }
            for k in max(0, m - 2)...min(maneuvers.count - 1, m + 2) where k != m && k != m + 1 {
                if let other = maneuvers[k].street, other.count >= 2, other != own, !says(own, other), says(text, other) {
                    fail("names \(maneuvers[k].id)'s street, \(other), not its own, \(own)")
                    break
                }
            }
        }
        return found
    }

    /// Whether `text` contains `words` (`String.contains`: by `Character`,
    /// canonically equivalent ones equal). When both are plain (every scalar
    /// ASCII but a carriage return, or a precomposed Hangul syllable), each
    /// scalar is a `Character` and its own normal form, so comparing their
    /// UTF-8 bytes gives the same answer at a fraction of the cost; any
    /// other text is compared by `Character`.
    static func says(_ text: String, _ words: String) -> Bool {
        guard isPlain(text), isPlain(words) else { return text.contains(words) }
        let found = text.utf8.withContiguousStorageIfAvailable { hay in
            words.utf8.withContiguousStorageIfAvailable { needle -> Bool in
                guard let first = needle.first else { return true }
                guard needle.count <= hay.count else { return false }
                for i in 0...(hay.count - needle.count) where hay[i] == first {
                    if (1..<needle.count).allSatisfy({ hay[i + $0] == needle[$0] }) { return true }
                }
                return false
            }
        }
        return (found ?? nil) ?? text.contains(words)
    }

    /// Whether every scalar of `text` is ASCII but a carriage return (which
    /// joins a line feed in one `Character`) or a precomposed Hangul syllable
    /// (U+AC00–U+D7A3: no jamo follows to join it).
    static func isPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { ($0.value < 0x80 && $0 != "\r") || (0xAC00...0xD7A3).contains($0.value) }
    }

    /// How much time to spare a `late` claim may leave, beyond the "now"
    /// stage's lead (`guidance.leads.now` at the car's speed: when the stage
    /// is due), the "now" line (at most `lateNowLine` long), the scenario's
    /// `outputLatency` and `margin`, and what the fixes' accuracy and noise
    /// explain at the car's speed: 2 s.
    public static let lateSlack = SimTime(ms: 2_000)
    /// The longest "now" line a `late` claim is judged by: 3 s.
    public static let lateNowLine = SimTime(ms: 3_000)

    /// `late-claim`: a "now" stage skipped `late` could truly no longer be
    /// said in time. Judged while the app knows where the car is (the last
    /// fix it used is fresh and no jump) and that the car moves: from that
    /// fix's true position and speed, the pass the app could predict leaves
    /// no more than the now stage's lead, `lateNowLine`, `outputLatency`,
    /// `margin`, the fixes' slack at that speed and `lateSlack` after the
    /// claim: a claim made before the "now" stage was even due is false.
    static func checkLateClaims(_ scenario: Scenario, _ run: Simulation, _ truth: RoadTruth?) -> [Violation] {
        guard let road = scenario.road, let truth, let trajectory = truth.trajectory else { return [] }
        let timeline = run.timeline, roster = timeline.roster
        let dropped = droppedFixes(timeline)
        var found: [Violation] = []
        var lastUsedTaken: SimTime? = nil
        var lastUsedHonest = true
        for event in timeline.events {
            switch event.what {
            case .road(.fixArrived(let f, let age, true)) where dropped[f.raw] == nil:
                lastUsedTaken = event.t - SimTime(ms: age)
                lastUsedHonest = truth.honest(f)
            case .road(.stageSkipped(let m, stage: .now, reason: .late)):
                guard let taken = lastUsedTaken, lastUsedHonest, event.t - taken <= positionFresh,
                      let point = truth.distance(of: roster.road.maneuvers[m.int].id) else { continue }
                let known = trajectory.state(at: taken)
                guard known.speed >= Announcer.standing else { continue }
                let left = point - known.distance
                let predicted = taken + SimTime(ms: Int64((max(0, left) / known.speed * 1000).rounded(.down)))
                let slack = SimTime(ms: Int64(((truth.ahead ?? truth.tolerance) / known.speed * 1000).rounded(.up)))
                let lead = road.guidance.now.distance(at: known.speed) / known.speed
                let due = SimTime(ms: Int64((lead * 1000).rounded(.up)))
                let needed = due + lateNowLine + road.guidance.outputLatency + road.guidance.margin + slack + lateSlack
                if predicted - event.t > needed {
                    found.append(.init(check: .road(.lateClaim), t: event.t, message:
                        "\(roster.road.maneuvers[m.int].id)'s \"now\" stage is skipped as late with \(Double((predicted - event.t).ms) / 1000) s to the turn at the speed the app knew (a \"now\" line needs at most \(Double(needed.ms) / 1000) s)"))
                }
            default: continue
            }
        }
        return found
    }
}
