import Guidance
import Road
import SimClock

/// The road's check on what a guidance says (docs/timeline.md, "road
/// line-words"; why it was silent is Invariants+Claims): what any
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
        let left = en ? ["left"] : ["좌회전", "왼쪽"]
        let right = en ? ["right"] : ["우회전", "오른쪽"]
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
        let timeline = run.timeline
        let roster = timeline.roster
        let maneuvers = roster.road.maneuvers
        var index: [String: Int] = [:]
        for (i, m) in maneuvers.enumerated() where index[m.id] == nil { index[m.id] = i }
        var found: [Violation] = []
        for event in timeline.events {
            guard case .guidanceStarted(let l) = event.what, let stage = roster.stage(of: l),
                let id = roster.lines[l.int].maneuver, let m = index[id],
                let text = roster.text(of: l, startingAt: event.t)
            else { continue }
            let line = roster.lines[l.int]
            let language = line.language ?? road.guidance.language
            let lower = text.lowercased()
            func fail(_ why: String) {
                found.append(
                    .init(
                        check: .road(.lineWords), t: event.t,
                        message: "line \(line.id) (\(stage.rawValue), \(id)) \(why): \"\(text)\""))
            }
            let said = spokenDistance(text)
            switch stage {
            case .now:
                if said != nil {
                    fail("says a distance, as if the maneuver were not now")
                    continue
                }
            case .far, .near:
                guard let said else {
                    fail("says no distance")
                    continue
                }
                let voice = language == .ko ? Units.metric : road.guidance.units
                if said.units != voice {
                    fail("says \(said.units.rawValue) units to a \(voice.rawValue) voice (\(language.rawValue))")
                    continue
                }
            }
            let maneuver = maneuvers[m]
            if let missing = namingWords(maneuver, language).first(where: { choice in
                !choice.contains { says(lower, $0.lowercased()) }
            }) {
                fail(
                    "does not name its maneuver (\(maneuver.turn.rawValue)): none of \(missing.map { "'\($0)'" }.joined(separator: ", "))"
                )
                continue
            }
            // Another's street where its own is not: the words of a neighbour (the next one's may follow ", then").
            guard let own = maneuver.street, !own.isEmpty, !says(text, own) else { continue }
            for k in max(0, m - 2)...min(maneuvers.count - 1, m + 2) where k != m && k != m + 1 {
                if let other = maneuvers[k].street, other.count >= 2, other != own, !says(own, other), says(text, other)
                {
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
}
