import CLITestSupport
import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import RouteImport

/// Routes read as a navigator reads them, whatever language the service
/// answers in (issue 50): names from the structure of Google's words, each
/// language's own markers, and warnings for what the import cannot keep.
/// The samples are drivesim's own (`Scenarios/routes/responses/words.py`).
@Suite struct WordsTests {
    static func maneuvers(_ name: String, _ language: Language = .en) throws -> [Scenario.ManeuverSpec] {
        try #require(try NativeImportTests.imported(name, language).scenario.road).maneuvers
    }

    static func now(_ m: Scenario.ManeuverSpec, _ language: Language) -> String {
        Phrasebook.line(
            .now, Maneuver(id: m.id, turn: m.turn, street: m.street, details: m.details), distance: nil, then: nil,
            language: language)
    }

    // MARK: Names from Google's structure

    @Test func koreanLegacyNamesTheStreetAndTheTowardFromItsBoldRuns() throws {
        // "<b>우회전</b>하여 <b>Otis St</b>에 진입": before, the line never named the street.
        let m = try Self.maneuvers("boston-ko.directions.google", .ko)
        #expect(m.map(\.turn) == [.right, .left, .right, .arrive])
        #expect(m[0].street == "Otis St")
        // "<b>Franklin St</b> 방면으로 <b>Devonshire St</b>(으)로": a Google name is never split at its spaces ("Franklin, St").
        #expect(m[1].street == "Devonshire St" && m[1].details.toward == "Franklin St")
        #expect(m[2].street == "State St")
        #expect(m[3].details.side == .right)
        // The Korean line names them, 로 after St (스트리트: a vowel).
        #expect(Self.now(m[0], .ko) == "지금 Otis St로 우회전하세요.")
        #expect(Self.now(m[1], .ko) == "지금 Franklin St 방면 Devonshire St로 좌회전하세요.")
    }

    @Test func koreanPlainTextNamesTheWholeName() {
        let ko = RouteImporter.korean
        #expect(RouteImporter.reading("우회전하여 Otis St에 진입", ko).street == "Otis St")
        #expect(RouteImporter.reading("Franklin St 방면으로 북동쪽으로 향하기", ko) == .init(street: nil, toward: ["Franklin St"]))
        #expect(RouteImporter.reading("삼성역 방면 테헤란로(으)로 좌회전", ko) == .init(street: "테헤란로", toward: ["삼성역"]))
        // A direction is no street ("<b>북쪽</b>(으)로").
        #expect(RouteImporter.reading("\u{1}북쪽\u{2}(으)로 향하기", ko).street == nil)
        #expect(RouteImporter.reading("\u{1}12\u{2}번 출구로 나가기", ko).exitNumber == "12")
    }

    @Test func englishLegacyKeepsListsStayOnAndAnExitsNumberNameAndTowardApart() throws {
        let m = try Self.maneuvers("toronto.directions.google")
        #expect(
            m.map(\.turn) == [.left, .keepRight, .left, .onRamp, .merge, .offRamp, .forkLeft, .offRamp, .left, .arrive])
        #expect(m[0].street == "Steeles Ave W")
        // "Keep right to stay on Steeles Ave W".
        #expect(m[1].street == "Steeles Ave W")
        // "toward <b>Jane St/York Regional Rd 55</b>": a list of two, not one name.
        #expect(m[2].street == nil && m[2].details.toward == "Jane St, York Regional Rd 55")
        #expect(m[3].street == "ON-407 ETR")
        // "Take the exit onto ON-427 S toward ON-401 W": the toward is no exit's name.
        #expect(m[5].street == "ON-427 S" && m[5].details.toward == "ON-401 W" && m[5].details.exitName == nil)
        #expect(Self.now(m[5], .en) == "Now take the exit on the left onto ON-427 S toward ON-401 W.")
        // "…to continue on ON-427 S, follow signs for Toronto Pearson Airport".
        #expect(m[6].street == "ON-427 S" && m[6].details.toward == "Toronto Pearson Airport")
        // "Take exit 38 for Dixon Rd toward Airport": the number, the exit's name, the toward.
        #expect(
            m[7].details.exitNumber == "38" && m[7].details.exitName == "Dixon Rd" && m[7].details.toward == "Airport")
        #expect(Self.now(m[7], .en) == "Now take exit 38, Dixon Rd, toward Airport.")
        #expect(m[9].details.side == .left)
    }

    @Test func routesV2KeepsAbbreviationsWithTheirDots() throws {
        let m = try Self.maneuvers("aveiro.routes.google")
        #expect(m.map(\.turn) == [.left, .right, .left, .arrive])
        // "onto Av. Artur Ravara": before, "Av".
        #expect(m[0].street == "Av. Artur Ravara")
        #expect(m[1].street == "R. Cap. Sousa Pizarro" && m[1].details.toward == "Praia da Barra, Ílhavo")
        #expect(m[2].street == "R. Cap. Sousa Pizarro")
        #expect(m[3].details.side == .right)
    }

    @Test(
        "An exit's number is never a road's ref",
        arguments: [
            ("12", true), ("12A", true), ("51H-I", true), ("D909", false), ("A7", false), ("I-90", false),
            ("123456789", false),
        ])
    func exitNumbers(_ token: String, _ isNumber: Bool) {
        #expect(RouteImporter.isExitNumber(token) == isNumber)
    }

    @Test func englishPlainTextNamesEndAtTheirBoundaries() {
        let en = RouteImporter.english
        #expect(
            RouteImporter.reading("Keep left at the fork to continue on I-94 W, follow signs for Madison", en)
                == .init(street: "I-94 W", toward: ["Madison"]))
        #expect(
            RouteImporter.reading("Take exit 52 for US-101 N toward San Francisco", en)
                == .init(street: nil, toward: ["San Francisco"], exitNumber: "52", exitName: "US-101 N"))
        #expect(RouteImporter.reading("Turn right onto Main St.", en).street == "Main St")
        #expect(RouteImporter.reading("Take exit 41 on the left", en).street == nil)
    }
}

extension WordsTests {
    @Test func theLanguageIsToldByTheWordsNotTheNamesLetters() {
        #expect(RouteImporter.words(for: ["Turn right onto 도산대로"]).code == "en")
        #expect(RouteImporter.words(for: ["우회전하여 Otis St에 진입"]).code == "ko")
        #expect(
            RouteImporter.reading("Turn right onto 도산대로", RouteImporter.words(for: ["Turn right onto 도산대로"])).street
                == "도산대로")
    }

    @Test func anArrivalSideIsReadOnlyFromALineAboutTheDestination() {
        #expect(RouteImporter.destinationSide("Destination will be on the right") == "right")
        // "Pass by X (on the right)", or a turn, is no arrival's side.
        #expect(RouteImporter.destinationSide("Pass by Tim Hortons (on the right)") == nil)
        #expect(RouteImporter.destinationSide("Turn right onto 학동로") == nil)
        #expect(RouteImporter.destinationSide("목적지는 오른쪽에 있습니다", RouteImporter.korean) == "right")
    }
}

// MARK: What the import cannot keep, said

extension WordsTests {
    @Test func aManeuverTooCloseToTheStartIsLeftOutWithAWarning() throws {
        // A fork 4 m after the start: before, kept and passed `turn unannounced [late]` with no warning.
        let start = [(37.5, 127.03), (37.500036, 127.03)]
        let fork = [(37.500036, 127.03), (37.5027, 127.0297), (37.5054, 127.0297)]
        let west = [(37.5054, 127.0297), (37.5054, 127.0240)]
        let json = MapStackTests.routesV2(
            [
                MapStackTests.v2Step(start, "DEPART", "Head north", meters: 4, seconds: 1),
                MapStackTests.v2Step(fork, "FORK_LEFT", "Keep left at the fork", meters: 600, seconds: 54),
                MapStackTests.v2Step(west, "TURN_LEFT", "Turn left onto Dosan-daero", meters: 500, seconds: 45),
            ].joined(separator: ","))
        let imported = try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
        let road = try #require(imported.scenario.road)
        #expect(road.maneuvers.map(\.turn) == [.left, .arrive])
        #expect(
            imported.warnings.contains(
                ImportWarning(
                    .cannotAnnounceAfterStart(meters: 4),
                    at: "routes[0].legs[0].steps[1].navigationInstruction.maneuver")),
            "\(imported.warnings)")
        #expect(RouteImporter.unannounced(imported.scenario).isEmpty)
        #expect(ImportWarning(.cannotAnnounceAfterStart(meters: 4), at: "x").reason.contains("4 m after the start"))
    }

    @Test func appleIsWarnedInItsOwnTermsAndItsStepsKeepTheirNumbers() throws {
        let imported = try NativeImportTests.imported("seoul.apple")
        let m = try #require(imported.scenario.road).maneuvers
        // Apple's own step numbers; the arrival, no step of Apple's, is `arrive`.
        #expect(m.map(\.id) == ["s1", "s2", "s4", "s5", "s6", "s7", "arrive"])
        // steps[3] runs straight on: said in Apple's terms (before: 'a "new name" step'), at its own path.
        let straight = ImportWarning(
            .straightOn(what: RouteImporter.straightTerm(RouteImporter.fromGeometry, keys: .apple)),
            at: "steps[3].instructions")
        #expect(imported.warnings == [ImportWarning(.walkingNotDriven, at: "steps[8].transportType"), straight])
        // The 8 steps Apple drives (the walk aside), not 9 with the arrival the import adds.
        #expect(
            imported.scenario.description?.contains("1 leg, 8 steps, 7 maneuvers") == true,
            "\(imported.scenario.description ?? "")")
        #expect(
            straight.reason
                == "a step whose line turns less than 30° (Apple sends no maneuver) going straight on is no maneuver; not announced"
        )
    }

    @Test func aKakaoSummaryOnlyAnswerIsNamedAsSuch() throws {
        // The multi-destination answer: each route a summary, no sections.
        let json =
            #"{"trans_id":"t","routes":[{"result_code":0,"result_msg":"길찾기 성공","key":"0","summary":{"distance":5003,"duration":1180}}]}"#
        #expect(MapStackTests.problem(json) == ImportProblem(.kakaoSummaryOnly, at: "routes[0]"))
        let folder = try Fixtures.temporaryFolder()
        let (code, _, err) = Fixtures.drivesim(
            "import-route", Fixtures.write(json, "many.kakao", in: folder), "--language", "ko")
        #expect(code == 2)
        #expect(
            err.contains("many.kakao: routes[0]: a summary of the route only")
                && err.contains("ask /v1/directions for the route"), "\(err)")
    }
}

// MARK: Each language's words

extension WordsTests {
    /// One sample per language: an instruction and what it names, a ramp's words, a roundabout's ordinal, an arrival line.
    struct Sample: CustomTestStringConvertible, Sendable {
        var code: String, text: String, reading: RouteImporter.Reading, ramp: String, rampKind: String,
            roundabout: String, exit: Int, arrival: String
        var testDescription: String { code }
    }

    static let samples: [Sample] = [
        Sample(
            code: "en", text: "Turn right onto Otis St toward Franklin St",
            reading: .init(street: "Otis St", toward: ["Franklin St"]),
            ramp: "Take exit 12A toward Boston", rampKind: "off ramp",
            roundabout: "At the roundabout, take the 2nd exit", exit: 2,
            arrival: "Destination will be on the right"),
        Sample(
            code: "ko", text: "Franklin St 방면으로 우회전하여 Otis St에 진입",
            reading: .init(street: "Otis St", toward: ["Franklin St"]),
            ramp: "12번 출구로 나가기", rampKind: "off ramp", roundabout: "회전교차로에서 2번째 출구로 나가기", exit: 2,
            arrival: "목적지는 오른쪽에 있습니다."),
        Sample(
            code: "ja", text: "右折して国道1号線に入る", reading: .init(street: "国道1号線"),
            ramp: "首都高速入口から首都高速に入る", rampKind: "on ramp", roundabout: "ロータリーで2番目の出口を出る", exit: 2, arrival: "目的地は右側です"),
        Sample(
            code: "zh", text: "右转进入中山路", reading: .init(street: "中山路"),
            ramp: "从12号出口离开", rampKind: "off ramp", roundabout: "在环岛处，从第2个出口驶出", exit: 2, arrival: "目的地在右侧"),
        Sample(
            code: "fr", text: "Tourner à droite sur Rue de Rivoli vers Louvre",
            reading: .init(street: "Rue de Rivoli", toward: ["Louvre"]),
            ramp: "Prendre la sortie D909 vers Annecy", rampKind: "off ramp",
            roundabout: "Au rond-point, prendre la 2e sortie sur Av. Foch", exit: 2,
            arrival: "Votre destination se trouvera sur la droite"),
        Sample(
            code: "de", text: "Rechts abbiegen auf Hauptstraße Richtung Zentrum",
            reading: .init(street: "Hauptstraße", toward: ["Zentrum"]),
            ramp: "Auffahrt auf A 8 nehmen", rampKind: "on ramp", roundabout: "Im Kreisverkehr die 2. Ausfahrt nehmen",
            exit: 2,
            arrival: "Das Ziel befindet sich auf der rechten Seite"),
        Sample(
            code: "es", text: "Gira a la derecha hacia Calle de Alcalá", reading: .init(street: "Calle de Alcalá"),
            ramp: "Toma la salida 12 en dirección a Madrid", rampKind: "off ramp",
            roundabout: "En la rotonda, toma la segunda salida", exit: 2,
            arrival: "El destino está a la derecha"),
        Sample(
            code: "pt", text: "Vire à direita na Av. Artur Ravara sentido Praia da Barra",
            reading: .init(street: "Av. Artur Ravara", toward: ["Praia da Barra"]),
            ramp: "Pegue a saída 45 sentido Campinas", rampKind: "off ramp",
            roundabout: "Na rotatória, pegue a 2.ª saída para a R. Augusta", exit: 2,
            arrival: "O destino estará à direita"),
        Sample(
            code: "it", text: "Svolta a destra in Via Roma in direzione Centro",
            reading: .init(street: "Via Roma", toward: ["Centro"]),
            ramp: "Prendi l'uscita 12 in direzione Milano", rampKind: "off ramp",
            roundabout: "Alla rotonda prendi la 2ª uscita", exit: 2,
            arrival: "La destinazione è sulla destra"),
    ]

    @Test(arguments: samples)
    func eachLanguagesTableReadsItsOwnWords(_ s: Sample) throws {
        let words = RouteImporter.words(for: [s.text, s.ramp, s.roundabout, s.arrival])
        #expect(words.code == s.code)
        #expect(RouteImporter.reading(s.text, words) == s.reading)
        #expect(RouteImporter.rampKind(s.ramp, words) == s.rampKind)
        #expect(RouteImporter.instructionExit(s.roundabout, words) == s.exit)
        #expect(RouteImporter.said(words.roundabout, in: s.roundabout))
        #expect(RouteImporter.destinationSide(s.arrival, words) == "right")
        #expect(
            RouteImporter.destinationSide(
                s.arrival.replacingOccurrences(of: "right", with: "left"), RouteImporter.english)
                == (s.code == "en" ? "left" : nil))
    }

    @Test func exitNumbersNamesAndOrdinalsAcrossLanguages() {
        // "Prendre la sortie D909": a road's ref, never the exit's number.
        #expect(
            RouteImporter.reading("Prendre la sortie D909 vers Annecy", RouteImporter.french)
                == .init(street: nil, toward: ["Annecy"], exitNumber: nil, exitName: "D909"))
        #expect(RouteImporter.reading("Prendre la sortie 12 vers Lyon", RouteImporter.french).exitNumber == "12")
        #expect(
            RouteImporter.reading("Toma la salida 12 en dirección a Madrid", RouteImporter.spanish)
                == .init(toward: ["Madrid"], exitNumber: "12"))
        #expect(RouteImporter.reading("从12号出口离开", RouteImporter.chinese).exitNumber == "12")
        // The longest ordinal said: "décima primeira" is the eleventh; "12th" is no "2th".
        #expect(
            RouteImporter.instructionExit("Na rotatória, pegue a décima primeira saída", RouteImporter.portuguese) == 11
        )
        #expect(RouteImporter.instructionExit("Na rotatória, pegue a 1.ª saída", RouteImporter.portuguese) == 1)
        #expect(RouteImporter.instructionExit("At the roundabout, take the 12th exit") == 12)
    }

    @Test func wordsInNoLanguageReadAreWarnedNeverGuessed() throws {
        // Dutch, which drivesim has no table for: no street from "naar", no side from "rechts", each said.
        let a = [(52.0, 5.0), (52.0027, 5.0)]
        let b = [(52.0027, 5.0), (52.0027, 5.0044)]
        let json = MapStackTests.routesV2(
            [
                MapStackTests.v2Step(a, "DEPART", "Rijd naar het noorden"),
                MapStackTests.v2Step(
                    b, "TURN_RIGHT", "Sla rechtsaf naar Kerkstraat\\nUw bestemming bevindt zich rechts"),
            ].joined(separator: ","))
        let imported = try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
        let m = try #require(imported.scenario.road).maneuvers
        #expect(m.map(\.turn) == [.right, .arrive])
        #expect(m[1].details.side == nil)
        #expect(
            imported.warnings.contains(
                ImportWarning(.wordsNotRead, at: "routes[0].legs[0].steps[0].navigationInstruction.instructions")),
            "\(imported.warnings)")
        #expect(
            imported.warnings.contains(
                ImportWarning(
                    .arrivalSideNotRead("Uw bestemming bevindt zich rechts"),
                    at: "routes[0].legs[0].steps[1].navigationInstruction.instructions")))
        // In French, read: "Votre destination se trouvera sur la droite" was dropped without a warning.
        let french = json.replacingOccurrences(of: "Rijd naar het noorden", with: "Se diriger vers le nord")
            .replacingOccurrences(
                of: "Sla rechtsaf naar Kerkstraat\\nUw bestemming bevindt zich rechts",
                with: "Tourner à droite sur Rue Haute\\nVotre destination se trouvera sur la droite")
        let read = try RouteImporter.importRoute(Array(french.utf8), options: .init(language: .en, source: "t"))
        let fm = try #require(read.scenario.road).maneuvers
        #expect(fm[0].street == "Rue Haute" && fm[1].details.side == .right)
        #expect(read.warnings.isEmpty, "\(read.warnings)")
    }
}

// MARK: Kinds: turns over their extent, ramps, roundabouts

extension WordsTests {
    static func legacyStep(
        _ p: [(Double, Double)], _ maneuver: String?, _ html: String, meters: Int = 300, seconds: Int = 30
    ) -> String {
        let line = Polyline.encode(p.map { GeoPoint(latitude: $0.0, longitude: $0.1) }, precision: 5)
        return
            #"{"distance":{"value":\#(meters),"text":"0.3 km"},"duration":{"value":\#(seconds)},"start_location":{"lat":\#(p[0].0),"lng":\#(p[0].1)},"html_instructions":"\#(html)","polyline":{"points":"\#(line)"}\#(maneuver.map { #","maneuver":"\#($0)""# } ?? "")}"#
    }

    static func legacy(_ steps: [String]) -> String {
        #"{"status":"OK","routes":[{"legs":[{"steps":[\#(steps.joined(separator: ","))]}]}]}"#
    }

    static func turns(_ json: String) throws -> [Scenario.ManeuverSpec] {
        try #require(
            try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t")).scenario.road
        ).maneuvers
    }

    @Test func anExplicitTurnThatBendsLateIsATurnNotAKeep() throws {
        // North, then "Turn left onto Hwy 7": straight 47 m, then -88°: the ±20 m rule saw a keep.
        let a = [(43.8, -79.5), (43.8027, -79.5)]
        let late = [(43.8027, -79.5), (43.80312, -79.5), (43.80315, -79.5062)]
        #expect(
            try Self.turns(
                Self.legacy([
                    Self.legacyStep(a, nil, "Head <b>north</b>"),
                    Self.legacyStep(late, "turn-left", "Turn <b>left</b> onto <b>Hwy 7</b>"),
                ])
            ).map(\.turn)
                == [.left, .arrive])
        // Routes v2 may send a lane keep as TURN_LEFT, but over its first 100 m this one turns: a turn too.
        #expect(
            try Self.turns(
                MapStackTests.routesV2(
                    [
                        MapStackTests.v2Step(a, "DEPART"),
                        MapStackTests.v2Step(late, "TURN_LEFT", "Turn left onto Hwy 7"),
                    ]
                    .joined(separator: ","))
            ).map(\.turn) == [.left, .arrive])
    }

    @Test func aRampIsReadByItsWordsThenItsSequenceThenTheSpeed() throws {
        // Onto the Périphérique (MERGE) at 52 km/h, then RAMP_RIGHT "Prendre la sortie": off, whatever the speed says.
        let a = [(48.83, 2.39), (48.8327, 2.39)]
        let merge = [(48.8327, 2.39), (48.8354, 2.3905)]
        let ramp = [(48.8354, 2.3905), (48.8359, 2.3910), (48.8385, 2.3910)]
        func kinds(_ rampText: String) throws -> [Turn] {
            try Self.turns(
                MapStackTests.routesV2(
                    [
                        MapStackTests.v2Step(a, "DEPART", "", meters: 300, seconds: 30),
                        MapStackTests.v2Step(merge, "MERGE", "", meters: 300, seconds: 21),
                        MapStackTests.v2Step(ramp, "RAMP_RIGHT", rampText, meters: 350, seconds: 30),
                    ].joined(separator: ","))
            ).map(\.turn)
        }
        #expect(try kinds("Prendre la sortie Porte de Bercy") == [.merge, .offRamp, .arrive])
        // No words: after a merge and before any turn, the sequence says off.
        #expect(try kinds("") == [.merge, .offRamp, .arrive])
        // The words win over the sequence.
        #expect(try kinds("Take the ramp onto A4") == [.merge, .onRamp, .arrive])
    }

    @Test func aRoundaboutIsAlwaysARoundaboutItsExitSaidOrCounted() throws {
        let north = [(40.58, -105.08), (40.5827, -105.08)]
        // "At the traffic circle, continue straight to stay on N Shields St": through it, the second exit, never "turn right".
        let through = [(40.5827, -105.08), (40.5829, -105.0798), (40.5831, -105.08), (40.5858, -105.08)]
        let m = try Self.turns(
            Self.legacy([
                Self.legacyStep(north, nil, "Head <b>north</b>"),
                Self.legacyStep(
                    through, "roundabout-right",
                    "At the traffic circle, continue straight to stay on <b>N Shields St</b>"),
            ]))
        #expect(m.map(\.turn) == [.roundabout, .arrive])
        #expect(m[0].details.exit == 2 && m[0].street == "N Shields St")
        #expect(Self.now(m[0], .en) == "At the roundabout, take the second exit onto N Shields St.")
        // The same words with no maneuver code at all: still a roundabout.
        #expect(
            try Self.turns(
                Self.legacy([
                    Self.legacyStep(north, nil, "Head <b>north</b>"),
                    Self.legacyStep(
                        through, nil, "At the traffic circle, continue straight to stay on <b>N Shields St</b>"),
                ])
            ).map(\.turn)
                == [.roundabout, .arrive])
        // Portuguese "1.ª saída".
        let right = [(40.5827, -105.08), (40.5829, -105.0798), (40.5829, -105.0760)]
        let pt = try Self.turns(
            MapStackTests.routesV2(
                [
                    MapStackTests.v2Step(north, "DEPART", "Siga na direção norte"),
                    MapStackTests.v2Step(
                        right, "ROUNDABOUT_RIGHT", "Na rotatória, pegue a 1.ª saída para a R. Augusta"),
                ].joined(separator: ",")))
        #expect(pt[0].turn == .roundabout && pt[0].details.exit == 1 && pt[0].street == "R. Augusta")
        // No ordinal: counted from the line, which leaves to the left (the third of four arms).
        let left = [
            (40.5827, -105.08), (40.5829, -105.0798), (40.5831, -105.08), (40.5829, -105.0802), (40.5829, -105.0840),
        ]
        let counted = try Self.turns(
            MapStackTests.routesV2(
                [
                    MapStackTests.v2Step(north, "DEPART"),
                    MapStackTests.v2Step(left, "ROUNDABOUT_RIGHT", "Enter the roundabout"),
                ]
                .joined(separator: ",")))
        #expect(counted[0].turn == .roundabout && counted[0].details.exit == 3, "\(counted)")
    }
}

// MARK: Kakao's motorway exits

extension WordsTests {
    /// A Kakao answer of two roads, `first` then `second` (name, km/h), with a guide named "판교IC" where the second begins.
    static func kakaoIC(first: (String, Int), second: (String, Int), guidance: String) -> String {
        let a = first.1 == 100 ? 72 : 180
        let b = second.1 == 100 ? 18 : 45
        let guides = [
            #"{"name":"출발지","type":100,"guidance":"출발지","road_index":0,"distance":0,"duration":0}"#,
            #"{"name":"판교IC","type":6,"guidance":"\#(guidance)","road_index":1,"distance":2000,"duration":\#(a)}"#,
            #"{"name":"목적지","type":101,"guidance":"목적지","road_index":-1,"distance":500,"duration":\#(b)}"#,
        ].joined(separator: ",")
        let roads =
            #"[{"name":"\#(first.0)","distance":2000,"duration":\#(a),"vertexes":[127.03,37.5,127.03,37.518]},{"name":"\#(second.0)","distance":500,"duration":\#(b),"vertexes":[127.03,37.518,127.0304,37.5183,127.0304,37.5225]}]"#
        return
            #"{"trans_id":"t","routes":[{"result_code":0,"result_msg":"ok","summary":{"distance":2500,"duration":\#(a + b)},"sections":[{"distance":2500,"duration":\#(a + b),"roads":\#(roads),"guides":[\#(guides)]}]}]}"#
    }

    @Test func aKakaoICGuideIsAnExitByTheRoadTheGuideIsOn() throws {
        // Off the expressway onto a local road, its words saying neither 출구 nor 진출: an off-ramp named by its IC.
        let off = try Self.turns(
            Self.kakaoIC(first: ("경부고속도로", 100), second: ("", 40), guidance: "판교IC 분당 방면으로 오른쪽 방향"))
        #expect(off.map(\.turn) == [.offRamp, .arrive])
        #expect(off[0].details.exitName == "판교IC" && off[0].details.toward == "분당")
        // From a local road onto the expressway (the road it leads onto is the motorway): no exit, a keep by its words.
        let on = try Self.turns(
            Self.kakaoIC(first: ("분당로", 40), second: ("경부고속도로", 100), guidance: "판교IC 서울 방면으로 오른쪽 방향"))
        #expect(on.map(\.turn) == [.keepRight, .arrive])
    }
}

extension WordsTests {
    @Test func anAppleTurnItsWordsNameIsMeasuredOverItsExtent() throws {
        // Apple sends no code: "Turn left onto Hwy 7", straight 47 m then -88°, was no maneuver by the ±20 m rule.
        func apple(_ text: String) -> String {
            let north = #"[{"latitude":43.8,"longitude":-79.5},{"latitude":43.8027,"longitude":-79.5}]"#
            let late =
                #"[{"latitude":43.8027,"longitude":-79.5},{"latitude":43.80312,"longitude":-79.5},{"latitude":43.80315,"longitude":-79.5062}]"#
            return
                #"{"routes":[{"distanceMeters":850,"durationSeconds":80,"stepIndexes":[0,1]}],"steps":[{"stepPathIndex":0,"distanceMeters":300,"instructions":""},{"stepPathIndex":1,"distanceMeters":550,"instructions":"\#(text)"}],"stepPaths":[\#(north),\#(late)]}"#
        }
        #expect(try Self.turns(apple("Turn left onto Hwy 7")).map(\.turn) == [.left, .arrive])
        // Words that name no side leave the line's start to decide: a bend later in the step is no turn.
        #expect(try Self.turns(apple("Continue onto Hwy 7")).map(\.turn) == [.arrive])
    }
}

extension WordsTests {
    @Test func anyTextIsReadWithoutATrap() {
        // Texts drawn from every table's markers, bold marks, digits, dots and slashes, in any order: read, never a crash.
        var pieces: [String] = [
            "\u{1}", "\u{2}", "12", "A7", "/", ".", ". ", " ", "St", "Av.", "İ", "ß", "\n", "번", "방면", ",",
        ]
        for w in RouteImporter.languages {
            pieces += w.streetBefore
            pieces += w.streetAfter
            pieces += w.towardBefore
            pieces += w.towardAfter
            pieces += w.exitWords
            pieces += w.exitNumberAfter
            pieces += w.boundaries
            pieces += w.ordinalForms
        }
        var random = SplitMix64(seed: 50)
        for _ in 0..<500 {
            let count = Int(random.next() % 12)
            let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            for words in RouteImporter.languages {
                let r = RouteImporter.reading(text, words)
                #expect(r.street.map { !$0.isEmpty && $0.count <= RouteImporter.streetCharacters } ?? true)
                #expect(r.exitNumber.map { RouteImporter.isExitNumber($0) } ?? true)
                _ = RouteImporter.instructionExit(text, words)
                _ = RouteImporter.destinationSide(text, words)
            }
        }
    }
}
