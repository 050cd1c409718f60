import Road
import SimClock

/// What a line says, in the language the user chose, as one complete
/// sentence written for the voice: "In 300 meters, turn right onto
/// Gangnam-daero." or "300미터 앞에서 강남대로로 우회전하세요." Every phrase
/// is listed in docs/road.md.
package enum Phrasebook {
    /// The line for `stage` of a maneuver, with the spoken distance (far and
    /// near stages; nil gives the "now" form) and the maneuver that follows
    /// closely, if any.
    /// `distance` is counted in `units`' base (meters, or feet); Korean is
    /// always metric.
    package static func line(
        _ stage: Stage, _ maneuver: Maneuver, distance: Int?, then next: Maneuver?, language: Language,
        units: Units = .metric
    ) -> String {
        let lead = stage == .now ? nil : distance
        switch language {
        case .en: return english(maneuver, distance: lead, then: next, units: units)
        case .ko: return korean(maneuver, distance: lead, then: next)
        }
    }

    /// The line after a maneuver when the next is far: "Continue on
    /// Gangnam-daero for 5 kilometers." / "강남대로를 따라 5킬로미터
    /// 직진하세요.", or without a street "Continue for 5 kilometers." /
    /// "5킬로미터 직진하세요." `distance` is written (`SpokenDistance.written`).
    package static func continueLine(_ distance: String, on street: String?, _ language: Language) -> String {
        switch language {
        case .en: return "Continue" + (street.map { " on \($0)" } ?? "") + " for \(distance)."
        case .ko: return (street.map { "\($0)\(eulReul(after: $0)) 따라 " } ?? "") + "\(distance) 직진하세요."
        }
    }

    /// The departure line: "Head north." / "북쪽 방향으로 출발하세요.", or
    /// with the distance to the first maneuver (written, `SpokenDistance.written`)
    /// "Head north for 5 kilometers." / "북쪽 방향으로 출발해 5킬로미터
    /// 직진하세요." `heading` is degrees clockwise from north, said as the
    /// nearest of the eight compass points.
    package static func departure(heading: Double, for distance: String?, _ language: Language) -> String {
        let point = compassPoint(heading)
        switch language {
        case .en: return "Head \(englishCompass[point])" + (distance.map { " for \($0)" } ?? "") + "."
        case .ko: return "\(koreanCompass[point]) 방향으로 " + (distance.map { "출발해 \($0) 직진하세요." } ?? "출발하세요.")
        }
    }

    static let englishCompass = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
    static let koreanCompass = ["북쪽", "북동쪽", "동쪽", "남동쪽", "남쪽", "남서쪽", "서쪽", "북서쪽"]

    /// The nearest of the eight compass points to `heading` (0 north, 2 east, …), halves going clockwise.
    static func compassPoint(_ heading: Double) -> Int {
        guard heading.isFinite else { return 0 }
        let h = heading.truncatingRemainder(dividingBy: 360)
        return Int(((h < 0 ? h + 360 : h) / 45 + 0.5).rounded(.down)) % 8
    }

    /// The object particle after `text`: 을 after a final consonant,
    /// ㄹ included (서울을, Central을: 센트럴을), 를 after a vowel (강남대로를,
    /// Street를). Where the reading is not written (`finalSound`), " 도로를":
    /// a voice cannot say 을(를), so the name is followed by a noun that takes 를.
    static func eulReul(after text: String) -> String {
        switch finalSound(of: text) {
        case .vowel: return "를"
        case .rieul, .consonant: return "을"
        case .unknown: return " 도로를"
        }
    }

    /// The urgent line when the car has left the route.
    package static func offRoute(_ language: Language) -> String {
        language == .en ? "You are off route. Recalculating." : "경로를 벗어났습니다. 경로를 재탐색합니다."
    }

    /// The urgent line as a reroute's new route is taken (`<change>.switched`).
    package static func recalculated(_ language: Language) -> String {
        language == .en ? "The route has been recalculated." : "새로운 경로로 안내합니다."
    }

    /// The urgent line when the car is back on the route it follows
    /// (`reroute<n>.back`): no new route, so the Korean claims none
    /// ("returned to the route"); the English is the recalculation Dad heard announced.
    package static func backOnRoute(_ language: Language) -> String {
        language == .en ? "The route has been recalculated." : "경로로 복귀했습니다."
    }

    /// The line as a handoff's route is taken: "Guiding you to the petrol
    /// station on Teheran-ro." / "집으로 안내합니다." (로 after a vowel or ㄹ,
    /// 으로 after another consonant; a name whose reading is not written is
    /// set apart: "Shell, 목적지로 안내합니다."). nil: "your destination".
    package static func guiding(to destination: String?, _ language: Language) -> String {
        switch language {
        case .en: return "Guiding you to \(destination ?? "your destination")."
        case .ko:
            guard let destination else { return "목적지로 안내합니다." }
            switch finalSound(of: destination) {
            case .vowel, .rieul: return "\(destination)로 안내합니다."
            case .consonant: return "\(destination)으로 안내합니다."
            case .unknown: return "\(destination), 목적지로 안내합니다."
            }
        }
    }

    // MARK: English

    static func english(_ m: Maneuver, distance: Int?, then next: Maneuver?, units: Units = .metric) -> String {
        let lead = distance.map { "In \(SpokenDistance.written($0, .en, units)), " }
        if m.turn == .arrive && next == nil {
            if let lead { return lead + englishArrival(m.details.side) + "." }
            switch m.details.side {
            case nil: return "You have arrived at your destination."
            case let side?: return "Your destination is \(englishSide(side))."
            }
        }
        if m.turn == .waypoint { return englishWaypoint(m, lead: lead) }
        let (place, action) = englishAction(m)
        var clause = place.map { "\($0), \(action)" } ?? action
        if let next { clause += ", then " + englishFollowing(next) }
        if let lead { return lead + clause + "." }
        if place != nil || m.turn == .arrive { return capitalized(clause) + "." }
        return "Now " + clause + "."
    }

    /// A waypoint's line, which is never joined to the next maneuver: ahead
    /// of it "In 300 meters, you will reach your first waypoint." (or "…, at
    /// your first waypoint, make a U-turn."), on reaching it "You have
    /// reached your first waypoint." (". Now make a U-turn.").
    static func englishWaypoint(_ m: Maneuver, lead: String?) -> String {
        let name = englishWaypointName(m)
        if let lead { return lead + (m.details.uTurn ? "at \(name), make a U-turn." : "you will reach \(name).") }
        return "You have reached \(name)." + (m.details.uTurn ? " Now make a U-turn." : "")
    }

    /// "your first waypoint" (to the twelfth), "waypoint 13", or "your waypoint" when not numbered.
    static func englishWaypointName(_ m: Maneuver) -> String {
        guard let n = m.details.waypoint else { return "your waypoint" }
        return n <= englishOrdinals.count ? "your \(englishOrdinal(n)) waypoint" : "waypoint \(n)"
    }

    /// An arrival as a clause: "you will arrive at your destination", "your destination will be on the right".
    static func englishArrival(_ side: ArrivalSide?) -> String {
        guard let side else { return "you will arrive at your destination" }
        return "your destination will be \(englishSide(side))"
    }

    static func englishSide(_ side: ArrivalSide) -> String {
        switch side {
        case .left: return "on the left"
        case .right: return "on the right"
        case .ahead: return "straight ahead"
        }
    }

    /// The maneuver after ", then".
    static func englishFollowing(_ m: Maneuver) -> String {
        if m.turn == .arrive { return englishArrival(m.details.side) }
        if m.turn == .waypoint {
            return m.details.uTurn
                ? "make a U-turn at \(englishWaypointName(m))" : "you will reach \(englishWaypointName(m))"
        }
        let (place, action) = englishAction(m)
        return place.map { "\($0), \(action)" } ?? action
    }

    /// The signs' direction as said: none when it only repeats the street
    /// ("onto A 100 toward A 100"; letter case and spaces aside).
    static func towardSaid(_ m: Maneuver) -> String? {
        guard let toward = m.details.toward else { return nil }
        func plain(_ s: String) -> String { s.lowercased().filter { !$0.isWhitespace } }
        return m.street.map(plain) == plain(toward) ? nil : toward
    }

    /// Where the maneuver happens, if it names a place ("at the roundabout"), and what to do there.
    static func englishAction(_ m: Maneuver) -> (place: String?, action: String) {
        let onto = m.street.map { " onto \($0)" } ?? ""
        let toward = towardSaid(m).map { " toward \($0)" } ?? ""
        let signs = onto + toward
        switch m.turn {
        case .left: return (nil, "turn left" + signs)
        case .right: return (nil, "turn right" + signs)
        case .slightLeft: return (nil, "bear left" + signs)
        case .slightRight: return (nil, "bear right" + signs)
        case .sharpLeft: return (nil, "turn sharp left" + signs)
        case .sharpRight: return (nil, "turn sharp right" + signs)
        case .keepLeft: return (nil, "keep left" + signs)
        case .keepRight: return (nil, "keep right" + signs)
        case .forkLeft: return ("at the fork", "keep left" + signs)
        case .forkRight: return ("at the fork", "keep right" + signs)
        case .merge: return (nil, (m.street == nil ? "merge onto the main road" : "merge") + signs)
        case .onRamp:
            let ramp = m.details.exitName.map { "take the \($0) ramp" } ?? "take the ramp"
            return (nil, ramp + (m.details.side.map { " " + englishSide($0) } ?? "") + signs)
        case .offRamp:
            // "take exit 12, Pangyo IC, on the left toward Suwon": the side after the exit's sign.
            let side = m.details.side.map { " " + englishSide($0) } ?? ""
            let exit: String
            switch (m.details.exitNumber, m.details.exitName) {
            case (let number?, let name?):
                exit = "take exit \(number), \(name)" + (side.isEmpty && signs.isEmpty ? "" : ",")
            case (let number?, nil): exit = "take exit \(number)"
            case (nil, let name?): exit = "take the \(name) exit"
            case (nil, nil): exit = "take the exit"
            }
            return (nil, exit + side + signs)
        case .roundabout:
            // A named one by its name: "At Place de l'Étoile, take the third exit."
            let roundabout = m.details.exitName ?? "the roundabout"
            guard let n = m.details.exit else { return (nil, "go through \(roundabout)" + signs) }
            return ("at \(roundabout)", "take the \(englishOrdinal(n)) exit" + signs)
        case .uTurn: return (nil, "make a U-turn" + signs)
        case .straight: return (nil, "continue straight" + signs)
        case .ferry:
            // "take the ferry", "take the Puttgarden–Rødby ferry", "take the Scandlines Ferry".
            let ferry =
                m.street.map { $0.lowercased().contains("ferry") ? "the \($0)" : "the \($0) ferry" } ?? "the ferry"
            return (nil, "take \(ferry)" + toward)
        case .arrive: return (nil, "you will arrive at your destination")
        case .waypoint: return (nil, "you will reach \(englishWaypointName(m))")
        }
    }

    static let englishOrdinals = [
        "first", "second", "third", "fourth", "fifth", "sixth",
        "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth",
    ]

    /// 1 to 12 as ordinal words, which every voice reads right.
    package static func englishOrdinal(_ n: Int) -> String {
        (1...englishOrdinals.count).contains(n) ? englishOrdinals[n - 1] : "number \(n)"
    }

    static func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    // MARK: Korean

    static func korean(_ m: Maneuver, distance: Int?, then next: Maneuver?) -> String {
        let dist = distance.map { SpokenDistance.written($0, .ko) }
        if m.turn == .arrive && next == nil {
            let side = m.details.side.map(koreanSide)
            if let dist { return side.map { "\(dist) 앞 \($0)에 목적지가 있습니다." } ?? "\(dist) 앞에 목적지가 있습니다." }
            return side.map { "목적지가 \($0)에 있습니다." } ?? "목적지에 도착했습니다."
        }
        if m.turn == .waypoint {
            // "300미터 앞에 첫 번째 경유지가 있습니다.", "첫 번째 경유지에 도착했습니다. 유턴하세요."
            let name = koreanWaypointName(m)
            if let dist { return m.details.uTurn ? "\(dist) 앞 \(name)에서 유턴하세요." : "\(dist) 앞에 \(name)가 있습니다." }
            return "\(name)에 도착했습니다." + (m.details.uTurn ? " 유턴하세요." : "")
        }
        let (place, stem) = koreanAction(m)
        var body: String
        if let next {
            if next.turn == .waypoint {
                // "우회전하면 첫 번째 경유지에 도착합니다.", "우회전한 후 첫 번째 경유지에서 유턴하세요."
                let name = koreanWaypointName(next)
                body = next.details.uTurn ? attributive(stem) + " 후 \(name)에서 유턴하세요" : stem + "면 \(name)에 도착합니다"
            } else if next.turn == .arrive {
                // "우회전하면 목적지에 도착합니다."
                body = stem + "면 " + (next.details.side.map { "\(koreanSide($0))에 목적지가 있습니다" } ?? "목적지에 도착합니다")
            } else {
                let (nextPlace, nextStem) = koreanAction(next)
                body = attributive(stem) + " 후 " + (nextPlace.map { $0 + " " } ?? "") + nextStem + "세요"
            }
        } else {
            body = stem + "세요"
        }
        if let place { body = place + " " + body }
        if let dist { return dist + (place == nil ? " 앞에서 " : " 앞 ") + body + "." }
        return (place == nil ? "지금 " : "") + body + "."
    }

    /// "첫 번째 경유지", or "경유지" when not numbered.
    static func koreanWaypointName(_ m: Maneuver) -> String {
        m.details.waypoint.map { "\(koreanOrdinal($0)) 경유지" } ?? "경유지"
    }

    static func koreanSide(_ side: ArrivalSide) -> String {
        switch side {
        case .left: return "왼쪽"
        case .right: return "오른쪽"
        case .ahead: return "정면"
        }
    }

    /// Where the maneuver happens, if it names a place ("회전교차로에서"), and
    /// the verb phrase up to its stem ("강남대로로 우회전하"), to which "세요",
    /// "면" or the attributive "ㄴ 후" is added.
    static func koreanAction(_ m: Maneuver) -> (place: String?, stem: String) {
        let toward = towardSaid(m).map { "\($0) 방면" }
        let targetWords = [toward, m.street].compactMap { $0 }
        // "수원 방면 강남대로로": where the maneuver leads, with 로/으로.
        let target = targetWords.isEmpty ? nil : withRo(targetWords.joined(separator: " "))
        func turn(_ verb: String) -> (String?, String) { (nil, target.map { "\($0) \(verb)" } ?? verb) }
        switch m.turn {
        case .left: return turn("좌회전하")
        case .right: return turn("우회전하")
        case .sharpLeft: return turn("급좌회전하")
        case .sharpRight: return turn("급우회전하")
        case .straight: return turn("직진하")
        // "수원 방면 페리에 탑승하", "Puttgarden–Rødby 페리에 탑승하".
        case .ferry:
            let ferry = [toward, m.street.map { $0.contains("페리") ? $0 : "\($0) 페리" } ?? "페리"].compactMap { $0 }.joined(
                separator: " ")
            return (nil, "\(ferry)에 탑승하")
        // "왼쪽 방향, 수원 방면으로": the pause keeps 방향 (the side) apart from 방면 (the signs).
        case .slightLeft: return (nil, target.map { "왼쪽 방향, \($0) 진행하" } ?? "왼쪽 방향으로 진행하")
        case .slightRight: return (nil, target.map { "오른쪽 방향, \($0) 진행하" } ?? "오른쪽 방향으로 진행하")
        case .keepLeft: return (nil, target.map { "왼쪽 차로를 따라 \($0) 진행하" } ?? "왼쪽 차로를 유지하")
        case .keepRight: return (nil, target.map { "오른쪽 차로를 따라 \($0) 진행하" } ?? "오른쪽 차로를 유지하")
        case .forkLeft: return ("갈림길에서", target.map { "왼쪽 방향, \($0) 진행하" } ?? "왼쪽 방향으로 진행하")
        case .forkRight: return ("갈림길에서", target.map { "오른쪽 방향, \($0) 진행하" } ?? "오른쪽 방향으로 진행하")
        case .uTurn: return (nil, target.map { "유턴해 \($0) 진행하" } ?? "유턴하")
        case .merge: return (nil, target.map { "\($0) 합류하" } ?? "본선으로 합류하")
        case .onRamp:
            guard m.details.exitName != nil || m.details.side != nil else {
                return (nil, target.map { "\($0) 진입하" } ?? "진입로로 들어가")
            }
            // "수원 방면 왼쪽 A 10 진입로로 들어가": the signs, the side, the ramp's road.
            let ramp = [toward, m.details.side.map(koreanSide), m.details.exitName.map { "\($0) 진입로" } ?? "진입로"]
            let into = withRo(ramp.compactMap { $0 }.joined(separator: " ")) + " 들어가"
            return (nil, m.street.map { into + " \(withRo($0)) 진입하" } ?? into)
        case .offRamp:
            // "12번 출구, 판교IC": the number first, the name after a pause;
            // "판교IC 12번 출구" would be heard as an exit 12 of the interchange.
            var exit = [m.details.exitNumber.map { "\($0)번 출구" }, m.details.exitName].compactMap { $0 }.joined(
                separator: ", ")
            if exit.isEmpty { exit = "출구" }
            return (nil, leave(m.details.side.map { "\(koreanSide($0)) \(exit)" } ?? exit, m))
        case .roundabout:
            // A named one by its name, still called 회전교차로 ("Place de l'Étoile 회전교차로에서").
            let roundabout = koreanRoundabout(m.details.exitName)
            guard let n = m.details.exit else {
                return (nil, target.map { "\(roundabout)를 지나 \($0) 진행하" } ?? "\(roundabout)를 통과하")
            }
            return ("\(roundabout)에서", leave("\(koreanOrdinal(n)) 출구", m))
        case .arrive: return (nil, "목적지에 도착하")
        case .waypoint: return (nil, "\(koreanWaypointName(m))에 도착하")
        }
    }

    /// "회전교차로", or a roundabout's name before it unless the name says so
    /// itself ("광화문 로터리", "Gwanghwamun Rotary", "Dupont Circle").
    static func koreanRoundabout(_ name: String?) -> String {
        guard let name else { return "회전교차로" }
        let says = ["회전교차로", "로터리", "rotary", "roundabout", "circle"].contains { name.lowercased().hasSuffix($0) }
        return says ? name : "\(name) 회전교차로"
    }

    /// Leaving by `exit`: "수원 방면 12번 출구로 나가", "12번 출구, 판교IC로 나가",
    /// then "강남대로로 진입하" for a street.
    static func leave(_ exit: String, _ m: Maneuver) -> String {
        let signed = m.details.toward.map { "\($0) 방면 \(exit)" } ?? exit
        let out = withRo(signed) + " 나가"
        return m.street.map { out + " \(withRo($0)) 진입하" } ?? out
    }

    static let koreanOrdinals = ["첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열", "열한", "열두"]

    /// 1 to 12 in native Korean ordinals ("두 번째"), written out because a
    /// voice reading "2번째" may say 이 instead of 두.
    package static func koreanOrdinal(_ n: Int) -> String {
        (1...koreanOrdinals.count).contains(n) ? koreanOrdinals[n - 1] + " 번째" : "\(n)번째"
    }

    /// `text` with the particle 로 or 으로 ("to, onto"), chosen by how its
    /// last letter or digit is read.
    package static func withRo(_ text: String) -> String { text + roParticle(after: text) }

    /// 로 after a vowel or ㄹ, 으로 after any other final consonant; where
    /// the reading is not written (`finalSound`), " 쪽으로" ("towards"): a
    /// voice cannot say (으)로.
    package static func roParticle(after text: String) -> String {
        switch finalSound(of: text) {
        case .vowel, .rieul: return "로"
        case .consonant: return "으로"
        case .unknown: return " 쪽으로"
        }
    }

    /// How a name's last syllable ends when a Korean reader says it, which
    /// picks every particle: 로/으로, 을/를.
    package enum FinalSound: Equatable, Sendable {
        /// No final consonant: 로, 를 (강남대로, Street: 스트리트).
        case vowel
        /// ㄹ: 로, but 을 (서울, Central: 센트럴, Exit 1: 일).
        case rieul
        /// Any other final consonant: 으로, 을 (한강진, Station: 스테이션, 3: 삼).
        case consonant
        /// Not written in Hangul, kana, digits or Latin letters (仙台塩釜線,
        /// Москва): no particle that needs the choice (" 쪽으로", " 도로를").
        case unknown
    }

    /// The final sound of `text`, judged on its last Hangul syllable, digit
    /// or Latin letter (trailing punctuation and spaces are skipped):
    /// - a Hangul syllable by its final consonant (jongseong): none is a
    ///   vowel, ㄹ is ㄹ (서울), any other a consonant (한강진);
    /// - a kana by its reading: ン (ん) is ㄴ, a consonant; any other a vowel;
    /// - a digit as it is read in Sino-Korean: 1 (일), 7 (칠) and 8 (팔) end
    ///   in ㄹ; 0 (영, 십, 백, 천, 만), 3 (삼) and 6 (육) in another consonant;
    ///   2, 4, 5 and 9 in a vowel;
    /// - a Latin word in capitals (an acronym, read letter by letter) by the
    ///   last letter's Korean name: L (엘) and R (알) end in ㄹ, M (엠) and N
    ///   (엔) in another consonant, every other letter in a vowel (IC: 아이씨);
    /// - any other Latin word as Korean writes loanwords and reads
    ///   romanized Korean: a final l, or le, is ㄹ (Central: 센트럴, Seoul:
    ///   서울, Castle: 캐슬); a final m, n or ng is a consonant (Station:
    ///   스테이션, Daechi-dong: 동), and so is a silent e after n or m that
    ///   follows a vowel or itself (Lane: 레인, Stone: 스톤, Home: 홈, Anne:
    ///   앤); a final p, t, k or ck after one short vowel
    ///   letter is a consonant written as a final (Market: 마켓, Rock: 록),
    ///   as it is after romanized Korean's ae, eo, eu, oe (Pyeongtaek:
    ///   평택, Yeok: 역), and a final k after oo (Book: 북, Brook: 브룩);
    ///   anything else is followed by a vowel (Street:
    ///   스트리트, Park: 파크, Airport: 에어포트).
    /// A name without a letter or digit at all ends in a vowel.
    package static func finalSound(of text: String) -> FinalSound {
        let scalars = Array(text.unicodeScalars)
        func isLatin(_ s: Unicode.Scalar) -> Bool { (0x41...0x5A).contains(s.value) || (0x61...0x7A).contains(s.value) }
        func isDigit(_ s: Unicode.Scalar) -> Bool { (0x30...0x39).contains(s.value) }
        func isSyllable(_ s: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(s.value) }
        guard let i = scalars.lastIndex(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        else { return .vowel }
        let last = scalars[i]
        if isSyllable(last) {
            switch (last.value - 0xAC00) % 28 {
            case 0: return .vowel
            case 8: return .rieul
            default: return .consonant
            }
        }
        if (0x3041...0x3096).contains(last.value) || (0x30A1...0x30FA).contains(last.value) {
            return last == "ン" || last == "ん" ? .consonant : .vowel
        }
        if isDigit(last) {
            switch last.value - 0x30 {
            case 1, 7, 8: return .rieul
            case 0, 3, 6: return .consonant
            default: return .vowel
            }
        }
        guard isLatin(last) else { return .unknown }
        var start = i
        while start > 0, isLatin(scalars[start - 1]) { start -= 1 }
        let word = scalars[start...i]
        if word.allSatisfy({ (0x41...0x5A).contains($0.value) }) {
            switch last {
            case "L", "R": return .rieul
            case "M", "N": return .consonant
            default: return .vowel
            }
        }
        let letters = word.map { Character($0).lowercased() }.joined()
        let vowels = Set("aeiou")
        if letters.hasSuffix("l") || letters.hasSuffix("le") { return .rieul }
        if letters.hasSuffix("m") || letters.hasSuffix("n") || letters.hasSuffix("ng") { return .consonant }
        // A silent e after n or m (Lane: 레인, Home: 홈, Anne: 앤).
        let ending = Array(letters.suffix(3))
        if ending.count == 3, ending[2] == "e", "nm".contains(ending[1]),
            vowels.contains(ending[0]) || ending[0] == ending[1]
        {
            return .consonant
        }
        // A stop after a short vowel is written as a final (마켓, 록); after a long
        // vowel, a diphthong or another consonant it takes ㅡ (스트리트, 파크).
        var body = Array(letters)
        guard let stop = body.last, "ptk".contains(stop) else { return .vowel }
        body.removeLast()
        if stop == "k", body.last == "c" { body.removeLast() }
        let tail = String(body.reversed().prefix { vowels.contains($0) }.reversed())
        let before = body.dropLast(tail.count).last
        if tail.count == 1, before.map({ !vowels.contains($0) }) ?? false { return .consonant }
        if ["ae", "eo", "eu", "oe"].contains(tail) || (tail == "oo" && stop == "k") { return .consonant }
        return .vowel
    }

    /// A verb stem ending in an open syllable ("우회전하", "나가") in its
    /// attributive form ("우회전한", "나간"), for "…한 후".
    static func attributive(_ stem: String) -> String {
        guard let last = stem.unicodeScalars.last, (0xAC00...0xD7A3).contains(last.value),
            (last.value - 0xAC00) % 28 == 0, let withN = Unicode.Scalar(last.value + 4)
        else { return stem + "은" }
        return String(stem.unicodeScalars.dropLast()) + String(Character(withN))
    }
}
