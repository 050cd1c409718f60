import Guidance
import Road

/// What a service's instruction text names, read as a navigator reads it
/// (docs/import.md, "Words"): the street, the toward (a list: "Jane
/// St/York Regional Rd 55" is two), an off-ramp's exit number and exit
/// name apart, a roundabout's exit, the arrival side. Names come from the
/// structure first (legacy Google's `<b>` runs), the words around them
/// second, in the language the instructions are written in (a table per
/// language, `Words`), never from a stray word in another sentence.
extension RouteImporter {
    /// The words one language's instructions use around the names they
    /// give. A marker "before" a name comes before it (" onto "); one
    /// "after" follows it ("에 진입", "方面").
    struct Words: Sendable {
        /// The language's code (`en`, `ko`, …), for the docs and warnings.
        var code: String
        var streetBefore: [String] = []
        var streetAfter: [String] = []
        var towardBefore: [String] = []
        var towardAfter: [String] = []
        /// Where a name in plain text ends (", ", " then ", "하여 ").
        var boundaries: [String] = []
        /// Words that take a ramp off a motorway ("exit", "sortie", "출구").
        var exitWords: [String] = []
        /// Words that take a ramp onto one ("ramp onto", "Auffahrt", "진입로").
        var entranceWords: [String] = []
        /// After an exit number, the exit's name (" for ": "Take exit 52 for US-101 N").
        var exitNameBefore: [String] = []
        /// After an exit number ("12번 출구", "12番出口").
        var exitNumberAfter: [String] = []
        /// Words of the arrival line ("destination", "목적지").
        var destination: [String] = []
        var left: [String] = []
        var right: [String] = []
        var ahead: [String] = []
        /// Words that name a roundabout ("roundabout", "rond-point", "회전교차로").
        var roundabout: [String] = []
        /// Going straight through a roundabout ("continue straight", "tout droit").
        var straightThrough: [String] = []
        /// The exit's ordinal in words, the first exit first ("first exit").
        var ordinalWords: [String] = []
        /// The exit's ordinal with its digits: `#` is the number, `#ord` the
        /// number with English's suffix ("2nd exit", "2.ª saída", "2번째 출구").
        var ordinalForms: [String] = []
        /// Texts that are not names ("the left", "북쪽").
        var notNames: [String] = []
        /// Words that tell the language (beside the markers).
        var tells: [String] = []
    }

    static let english = Words(
        code: "en",
        streetBefore: [" onto ", "stay on ", "continue on ", " on "],
        towardBefore: [" toward ", " towards ", "follow signs for ", "signs for "],
        boundaries: [
            ", ", "; ", " then ", " and ", " (", " at ", " to stay", " to continue", " to take", " to merge", " for ",
        ],
        exitWords: ["exit", "off-ramp"], entranceWords: ["ramp onto", "ramp to", "on-ramp", "entrance"],
        exitNameBefore: [" for "],
        destination: ["destination"], left: ["left"], right: ["right"], ahead: ["straight ahead", "ahead"],
        roundabout: ["roundabout", "traffic circle", "rotary"],
        straightThrough: ["continue straight", "go straight", "straight through"],
        ordinalWords: [
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
            "twelfth",
        ].map { $0 + " exit" },
        ordinalForms: ["#ord exit"],
        notNames: ["the left", "the right", "your left", "your right", "left", "right"],
        tells: ["turn ", "head ", "keep ", "take ", "merge ", "continue ", "slight ", "destination"])

    static let korean = Words(
        code: "ko",
        streetAfter: ["에 진입", "(으)로"],
        towardAfter: ["방면"],
        boundaries: ["하여 ", "해서 ", "한 후 ", "후 ", "에서 ", "방면으로 ", "방면 ", "(으)로 ", ", "],
        exitWords: ["출구", "진출"], entranceWords: ["진입로", "입구"],
        exitNumberAfter: ["번 출구", "번출구"],
        destination: ["목적지"], left: ["왼쪽", "좌측"], right: ["오른쪽", "우측"], ahead: ["정면", "앞"],
        roundabout: ["회전교차로", "로터리"],
        straightThrough: ["직진"],
        ordinalWords: ["첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열", "열한", "열두"].map { $0 + " 번째 출구" },
        ordinalForms: ["#번째 출구", "# 번째 출구", "#번 출구"],
        notNames: ["북쪽", "남쪽", "동쪽", "서쪽", "북동쪽", "북서쪽", "남동쪽", "남서쪽", "좌회전", "우회전", "왼쪽", "오른쪽", "유턴"],
        tells: ["하여", "향하기", "좌회전", "우회전", "유턴", "목적지", "출구", "진입", "출발"])

    static let japanese = Words(
        code: "ja",
        streetAfter: ["に入る", "に入ります", "を進む", "に合流"],
        towardAfter: ["方面"],
        boundaries: ["して", "、", "。", "方面に向かって", "方面へ", "で"],
        exitWords: ["出口"], entranceWords: ["入口"],
        exitNumberAfter: ["番出口"],
        destination: ["目的地"], left: ["左"], right: ["右"], ahead: ["正面", "前方"],
        roundabout: ["ロータリー", "環状交差点"],
        straightThrough: ["直進"],
        ordinalWords: ["1つ目の出口", "2つ目の出口", "3つ目の出口", "4つ目の出口", "5つ目の出口", "6つ目の出口"],
        ordinalForms: ["#番目の出口", "# 番目の出口"],
        notNames: ["右", "左", "右方向", "左方向"],
        tells: ["右折", "左折", "直進", "方面", "出口", "に入る", "目的地", "方向"])

    static let chinese = Words(
        code: "zh",
        streetBefore: ["进入", "驶入"],
        towardAfter: ["方向"],
        boundaries: ["朝", "，", "、", "。", "然后", "并"],
        exitWords: ["出口"], entranceWords: ["入口", "匝道"],
        exitNumberAfter: ["号出口"],
        destination: ["目的地"], left: ["左"], right: ["右"], ahead: ["前方", "正前方"],
        roundabout: ["环岛", "环形交叉"],
        straightThrough: ["直行"],
        ordinalForms: ["第#个出口", "第#出口"],
        notNames: ["右", "左"],
        tells: ["右转", "左转", "直行", "进入", "驶入", "方向", "目的地", "掉头"])

    static let french = Words(
        code: "fr",
        streetBefore: [" sur ", " dans ", "continuer sur ", "rester sur "],
        towardBefore: [" vers ", " en direction de ", " direction "],
        boundaries: [", ", " puis ", " et ", " pour ", " ("],
        exitWords: ["sortie"], entranceWords: ["entrée", "bretelle d'accès", "accès"],
        destination: ["destination"], left: ["gauche"], right: ["droite"], ahead: ["tout droit", "en face"],
        roundabout: ["rond-point", "giratoire"],
        straightThrough: ["tout droit"],
        ordinalWords: [
            "première", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième",
            "neuvième",
            "dixième", "onzième", "douzième",
        ].map { $0 + " sortie" },
        ordinalForms: ["#re sortie", "#er sortie", "#e sortie", "#ème sortie", "#ᵉ sortie"],
        notNames: ["la droite", "la gauche", "votre droite", "votre gauche", "la voie de droite", "la voie de gauche"],
        tells: [
            "tourner", "prendre", "continuer", "rester", "serrer", "à droite", "à gauche", "votre destination",
            "se diriger", "sortie",
        ])

    static let german = Words(
        code: "de",
        streetBefore: [" auf ", " in die ", " in den ", "weiter auf "],
        towardBefore: [" richtung ", "den schildern nach "],
        boundaries: [", ", " und ", " bleiben", " fahren", " nehmen", " abbiegen", " ("],
        exitWords: ["ausfahrt"], entranceWords: ["auffahrt", "einfahrt"],
        destination: ["ziel"], left: ["links", "linken"], right: ["rechts", "rechten"], ahead: ["geradeaus"],
        roundabout: ["kreisverkehr"],
        straightThrough: ["geradeaus"],
        ordinalWords: [
            "erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte", "neunte", "zehnte", "elfte",
            "zwölfte",
        ]
        .map { $0 + " ausfahrt" }
            + [
                "ersten", "zweiten", "dritten", "vierten", "fünften", "sechsten", "siebten", "achten", "neunten",
                "zehnten", "elften", "zwölften",
            ]
            .map { $0 + " ausfahrt" },
        ordinalForms: ["#. ausfahrt"],
        notNames: ["der rechten seite", "der linken seite", "die rechte spur", "die linke spur"],
        tells: ["abbiegen", "weiter", "nehmen", "fahren", "ziel", "ausfahrt", "bleiben", "richtung"])

    static let spanish = Words(
        code: "es",
        streetBefore: [" hacia ", " por ", "continúa por ", "sigue por "],
        towardBefore: [" en dirección a ", " dirección "],
        boundaries: [", ", " y ", " para ", " ("],
        exitWords: ["salida"], entranceWords: ["entrada", "acceso"],
        destination: ["destino"], left: ["izquierda"], right: ["derecha"], ahead: ["enfrente", "al frente"],
        roundabout: ["rotonda", "glorieta"],
        straightThrough: ["recto"],
        ordinalWords: [
            "primera", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava", "novena", "décima",
            "undécima",
            "duodécima",
        ].map { $0 + " salida" },
        ordinalForms: ["#.ª salida", "#ª salida", "#.a salida"],
        notNames: ["la derecha", "la izquierda"],
        tells: [
            "gira", "toma", "continúa", "sigue", "dirígete", "mantente", "a la derecha", "a la izquierda", "salida",
            "incorpórate",
        ])

    static let portuguese = Words(
        code: "pt",
        streetBefore: [" na ", " no ", " pela ", " pelo ", " para a ", " para o ", " para "],
        towardBefore: [" sentido ", " em direção a ", " em direção à ", " em direção ao ", " rumo a "],
        boundaries: [", ", " e ", " ("],
        exitWords: ["saída"], entranceWords: ["entrada", "acesso"],
        destination: ["destino"], left: ["esquerda"], right: ["direita"], ahead: ["em frente"],
        roundabout: ["rotatória", "rotunda", "retorno"],
        straightThrough: ["em frente", "reto"],
        ordinalWords: [
            "primeira", "segunda", "terceira", "quarta", "quinta", "sexta", "sétima", "oitava", "nona", "décima",
            "décima primeira", "décima segunda",
        ].map { $0 + " saída" },
        ordinalForms: ["#.ª saída", "#ª saída", "#.a saída", "#a saída"],
        notNames: ["a direita", "a esquerda", "à direita", "à esquerda"],
        tells: [
            "vire", "siga", "pegue", "continue", "mantenha", "à direita", "à esquerda", "saída", "dirija", "destino",
        ])

    static let italian = Words(
        code: "it",
        streetBefore: [" in ", " su ", " e prendi ", " imbocca "],
        towardBefore: [" verso ", " in direzione ", " direzione "],
        boundaries: [", ", " e ", " per ", " ("],
        exitWords: ["uscita"], entranceWords: ["entrata", "ingresso", "rampa"],
        destination: ["destinazione"], left: ["sinistra"], right: ["destra"], ahead: ["di fronte"],
        roundabout: ["rotonda", "rotatoria"],
        straightThrough: ["dritto", "diritto"],
        ordinalWords: [
            "prima", "seconda", "terza", "quarta", "quinta", "sesta", "settima", "ottava", "nona", "decima",
            "undicesima",
            "dodicesima",
        ].map { $0 + " uscita" },
        ordinalForms: ["#ª uscita", "#a uscita", "#° uscita"],
        notNames: ["la destra", "la sinistra", "destra", "sinistra"],
        tells: [
            "svolta", "prendi", "continua", "mantieni", "a destra", "a sinistra", "uscita", "procedi", "destinazione",
        ])

    /// The tables drivesim reads, English first (a text that tells no language is read as English).
    static let languages: [Words] = [english, korean, japanese, chinese, french, german, spanish, portuguese, italian]

    /// The table whose words the texts use most (its `tells` and markers:
    /// the names' letters tell nothing, so "Turn right onto 학동로" is
    /// English), English on a tie.
    static func words(for texts: [String]) -> Words { told(texts).words }

    /// The table `words(for:)` picks, and whether any told it (texts in
    /// none of the languages, or no texts, tell none: read as English).
    static func told(_ texts: [String]) -> (words: Words, told: Bool) {
        let lower = texts.joined(separator: "\n").lowercased()
        var best = english
        var score = 0
        for w in languages {
            let s = (w.tells + w.streetBefore + w.streetAfter + w.towardBefore + w.towardAfter).reduce(0) {
                $0 + lower.ranges(of: $1.lowercased()).count
            }
            if s > score {
                best = w
                score = s
            }
        }
        return (best, score > 0)
    }

    /// What an instruction names.
    struct Reading: Equatable {
        var street: String?
        var toward: [String] = []
        var exitNumber: String?
        var exitName: String?
    }

    /// The mark before a bold run and the one after it, in a text made from
    /// legacy Google's HTML (`markedText`): the run is a name as Google gives it.
    static let boldOpen: Character = "\u{1}", boldClose: Character = "\u{2}"

    /// A line of text with the bold runs it holds (character offsets), lowercased for matching.
    struct Marked {
        var chars: [Character] = []
        var lower: [Character] = []
        var runs: [Range<Int>] = []

        init(_ text: String) {
            var open: Int? = nil
            for c in text {
                if c == boldOpen {
                    open = chars.count
                    continue
                }
                if c == boldClose {
                    if let o = open, o < chars.count { runs.append(o..<chars.count) }
                    open = nil
                    continue
                }
                chars.append(c)
                let l = c.lowercased()
                lower.append(l.count == 1 ? Character(l) : c)
            }
        }

        /// The first place `needle` (lowercase) occurs at or after `from`.
        func find(_ needle: String, from: Int = 0) -> Int? {
            let n = Array(needle.lowercased())
            guard !n.isEmpty, lower.count >= n.count, from <= lower.count - n.count else { return nil }
            for i in from...(lower.count - n.count) where lower[i] == n[0] {
                if lower[i..<(i + n.count)].elementsEqual(n) { return i }
            }
            return nil
        }

        /// The last place `needle` occurs ending at or before `end`.
        func findLast(_ needle: String, before end: Int) -> Int? {
            let n = Array(needle.lowercased())
            guard !n.isEmpty, end >= n.count else { return nil }
            for i in stride(from: min(end, lower.count) - n.count, through: 0, by: -1)
            where lower[i..<(i + n.count)].elementsEqual(n) { return i }
            return nil
        }

        func text(_ r: Range<Int>) -> String { String(chars[r]).trimmingSpaces() }

        /// Every place `needle` occurs.
        func allStarts(_ needle: String) -> [Int] {
            var out: [Int] = []
            var from = 0
            while let at = find(needle, from: from) {
                out.append(at)
                from = at + 1
            }
            return out
        }
    }

    /// The earliest of `markers` in `m` and where it ends.
    static func earliest(_ markers: [String], in m: Marked, from: Int = 0, skipping: Set<Int> = []) -> (
        at: Int, end: Int
    )? {
        var best: (at: Int, end: Int)? = nil
        for marker in markers {
            var start = from
            while let at = m.find(marker, from: start) {
                if !skipping.contains(at) {
                    if best.map({ at < $0.at }) ?? true { best = (at, at + marker.count) }
                    break
                }
                start = at + 1
            }
        }
        return best
    }

    /// The name after a marker that ends at `start`: the bold run there, with
    /// the runs joined to it by "/" or ","; in plain text, up to the first
    /// boundary or other marker of `words`.
    static func name(after start: Int, in m: Marked, _ words: Words, list: Bool) -> String? {
        var i = start
        while i < m.chars.count, m.chars[i] == " " { i += 1 }
        if let run = m.runs.first(where: { $0.lowerBound == i }) {
            var end = run.upperBound
            while list, let next = m.runs.first(where: { $0.lowerBound > end }),
                m.chars[end..<next.lowerBound].allSatisfy({ $0 == "/" || $0 == "," || $0 == " " }),
                m.chars[end..<next.lowerBound].contains(where: { $0 == "/" || $0 == "," })
            {
                end = next.upperBound
            }
            return clean(m.text(i..<end), words)
        }
        var end = m.chars.count
        let stops = words.boundaries + words.streetBefore + words.towardBefore + words.exitNameBefore
        if let stop = earliest(stops, in: m, from: i) { end = min(end, stop.at) }
        end = min(end, sentenceEnd(in: m, from: i))
        return i < end ? clean(m.text(i..<end), words) : nil
    }

    /// The name before a marker that begins at `end`: the bold run ending
    /// there; in plain text, back to the last boundary (or the line's start).
    static func name(before end: Int, in m: Marked, _ words: Words) -> String? {
        var e = end
        while e > 0, m.chars[e - 1] == " " { e -= 1 }
        if let run = m.runs.first(where: { $0.upperBound == e }) {
            var start = run.lowerBound
            while let previous = m.runs.last(where: { $0.upperBound < start }),
                m.chars[previous.upperBound..<start].allSatisfy({ $0 == "/" || $0 == "," || $0 == " " }),
                m.chars[previous.upperBound..<start].contains(where: { $0 == "/" || $0 == "," })
            {
                start = previous.lowerBound
            }
            return clean(m.text(start..<e), words)
        }
        var start = 0
        for b in words.boundaries + words.towardAfter + words.streetAfter {
            if let at = m.findLast(b, before: e) { start = max(start, at + b.count) }
        }
        return start < e ? clean(m.text(start..<e), words) : nil
    }

    /// Where a sentence ends in plain text: ". " after a word that is no
    /// abbreviation (a capital and at most four more letters: "Av.", "St.", "R.").
    static func sentenceEnd(in m: Marked, from: Int) -> Int {
        var i = from
        while i + 1 < m.chars.count {
            if m.chars[i] == ".", m.chars[i + 1] == " " || m.chars[i + 1] == "\n" {
                var s = i
                while s > from, m.chars[s - 1].isLetter { s -= 1 }
                let word = m.chars[s..<i]
                let abbreviation = !word.isEmpty && word.count <= 5 && word.first!.isUppercase
                if !abbreviation { return i }
            }
            if m.chars[i] == "\n" { return i }
            i += 1
        }
        return m.chars.count
    }

    /// A name as said: trimmed, without a closing full stop, nil when it is
    /// empty, one of `notNames`, or too long.
    static func clean(_ s: String, _ words: Words) -> String? {
        var name = s.trimmingSpaces()
        while let last = name.last, ",;:。、，".contains(last) { name = String(name.dropLast()).trimmingSpaces() }
        // A full stop at its end ends the sentence ("onto Main St."): inside, an abbreviation's stays ("Av. Artur Ravara").
        if name.hasSuffix(".") { name = String(name.dropLast()).trimmingSpaces() }
        guard !name.isEmpty, name.count <= streetCharacters, !words.notNames.contains(name.lowercased()) else {
            return nil
        }
        return name
    }

    /// A sign's names: a "/" list, or a "," one ("Jane St/York Regional Rd 55" is two).
    static func names(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == "/" || $0 == "," }).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// Whether `s` is an exit's number as signed: a digit first ("12",
    /// "12A", "51H-I"), at most the format's 8 characters; never a road's
    /// ref ("D909", "A7", "I-90").
    static func isExitNumber(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isNumber else { return false }
        return s.count <= RoadSetup.Limits.refCharacters && !s.contains(" ")
    }

    /// Whether `s` is a road's ref: letters then digits ("D909", "A7", "I-90", "ON-427").
    static func isRoadRef(_ s: String) -> Bool {
        let letters = s.prefix { $0.isLetter }
        let rest = s.dropFirst(letters.count).drop { $0 == "-" || $0 == " " }
        return !letters.isEmpty && letters.count <= 3 && rest.first?.isNumber == true
    }

    /// What the instruction `text` (marked with legacy's bold runs, or
    /// plain) names, in the language of `words`.
    static func reading(_ text: String, _ words: Words) -> Reading {
        let m = Marked(text)
        var out = Reading()
        // A street marker inside a toward marker (Italian " in " of " in direzione ") is the toward's.
        let towardStarts = Set(words.towardBefore.flatMap { t in m.allStarts(t) })
        if let s = earliest(words.streetBefore, in: m, skipping: towardStarts) {
            out.street = name(after: s.end, in: m, words, list: false)
        }
        if out.street == nil, let s = earliest(words.streetAfter, in: m) {
            out.street = name(before: s.at, in: m, words)
        }
        if let t = earliest(words.towardBefore, in: m) {
            out.toward = names(name(after: t.end, in: m, words, list: true))
        } else if let t = earliest(words.towardAfter, in: m) {
            out.toward = names(name(before: t.at, in: m, words))
        }
        // The exit: the number after an exit word ("Take exit 41", "Prendre la sortie 12"), or before "번 출구".
        for word in words.exitWords {
            guard let at = m.find(word), at == 0 || !m.chars[at - 1].isLetter else { continue }
            var i = at + word.count
            guard i == m.chars.count || !m.chars[i].isLetter else { continue }
            while i < m.chars.count, m.chars[i] == " " { i += 1 }
            let run = m.runs.first { $0.lowerBound == i }
            var end = run?.upperBound ?? i
            if run == nil { while end < m.chars.count, m.chars[end] != " ", m.chars[end] != "," { end += 1 } }
            let token = m.text(i..<end)
            if isExitNumber(token) {
                out.exitNumber = token
                if let f = earliest(words.exitNameBefore, in: m, from: end) {
                    out.exitName = name(after: f.end, in: m, words, list: false)
                }
            } else if isRoadRef(token) {
                // "Prendre la sortie D909": the road the exit is signed for, never its number.
                out.exitName = token
            }
            break
        }
        for marker in words.exitNumberAfter where out.exitNumber == nil {
            guard let at = m.find(marker) else { continue }
            var s = at
            while s > 0, m.chars[s - 1].isASCII,
                m.chars[s - 1].isLetter || m.chars[s - 1].isNumber || m.chars[s - 1] == "-"
            { s -= 1 }
            let token = m.text(s..<at)
            if isExitNumber(token) { out.exitNumber = token }
        }
        // A name the exit is signed by is not also the street it leads onto.
        if out.exitName != nil, out.exitName == out.street { out.street = nil }
        return out
    }
}
