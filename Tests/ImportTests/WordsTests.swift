import Guidance
import Road
@testable import RouteImport
import ScenarioFormat
import SimClock
import SimRunner
import Testing
import CLITestSupport
import TestSupport
@testable import DrivesimCLI

/// Routes read as a navigator reads them, whatever language the service
/// answers in (issue 50): names from the structure of Google's words, each
/// language's own markers, and warnings for what the import cannot keep.
/// The samples are drivesim's own (`Scenarios/routes/responses/words.py`).
@Suite struct WordsTests {
    static func maneuvers(_ name: String, _ language: Language = .en) throws -> [Scenario.ManeuverSpec] {
        try #require(try NativeImportTests.imported(name, language).scenario.road).maneuvers
    }

    static func now(_ m: Scenario.ManeuverSpec, _ language: Language) -> String {
        Phrasebook.line(.now, Maneuver(id: m.id, turn: m.turn, street: m.street, details: m.details), distance: nil, then: nil, language: language)
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
        #expect(m.map(\.turn) == [.left, .keepRight, .left, .onRamp, .merge, .offRamp, .forkLeft, .offRamp, .left, .arrive])
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
        #expect(m[7].details.exitNumber == "38" && m[7].details.exitName == "Dixon Rd" && m[7].details.toward == "Airport")
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

    @Test("An exit's number is never a road's ref", arguments: [
        ("12", true), ("12A", true), ("51H-I", true), ("D909", false), ("A7", false), ("I-90", false), ("123456789", false),
    ])
    func exitNumbers(_ token: String, _ isNumber: Bool) {
        #expect(RouteImporter.isExitNumber(token) == isNumber)
    }

    @Test func englishPlainTextNamesEndAtTheirBoundaries() {
        let en = RouteImporter.english
        #expect(RouteImporter.reading("Keep left at the fork to continue on I-94 W, follow signs for Madison", en)
            == .init(street: "I-94 W", toward: ["Madison"]))
        #expect(RouteImporter.reading("Take exit 52 for US-101 N toward San Francisco", en)
            == .init(street: nil, toward: ["San Francisco"], exitNumber: "52", exitName: "US-101 N"))
        #expect(RouteImporter.reading("Turn right onto Main St.", en).street == "Main St")
        #expect(RouteImporter.reading("Take exit 41 on the left", en).street == nil)
    }
}

extension WordsTests {
    @Test func theLanguageIsToldByTheWordsNotTheNamesLetters() {
        #expect(RouteImporter.words(for: ["Turn right onto 도산대로"]).code == "en")
        #expect(RouteImporter.words(for: ["우회전하여 Otis St에 진입"]).code == "ko")
        #expect(RouteImporter.reading("Turn right onto 도산대로", RouteImporter.words(for: ["Turn right onto 도산대로"])).street == "도산대로")
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
        let json = MapStackTests.routesV2([
            MapStackTests.v2Step(start, "DEPART", "Head north", meters: 4, seconds: 1),
            MapStackTests.v2Step(fork, "FORK_LEFT", "Keep left at the fork", meters: 600, seconds: 54),
            MapStackTests.v2Step(west, "TURN_LEFT", "Turn left onto Dosan-daero", meters: 500, seconds: 45),
        ].joined(separator: ","))
        let imported = try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
        let road = try #require(imported.scenario.road)
        #expect(road.maneuvers.map(\.turn) == [.left, .arrive])
        #expect(imported.warnings.contains(ImportWarning(.cannotAnnounceAfterStart(meters: 4), at: "routes[0].legs[0].steps[1].navigationInstruction.maneuver")),
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
        let straight = ImportWarning(.straightOn(what: RouteImporter.straightTerm(RouteImporter.fromGeometry, keys: .apple)), at: "steps[3].instructions")
        #expect(imported.warnings == [ImportWarning(.walkingNotDriven, at: "steps[8].transportType"), straight])
        // The 8 steps Apple drives (the walk aside), not 9 with the arrival the import adds.
        #expect(imported.scenario.description?.contains("1 leg, 8 steps, 7 maneuvers") == true, "\(imported.scenario.description ?? "")")
        #expect(straight.reason == "a step whose line turns less than 30° (Apple sends no maneuver) going straight on is no maneuver; not announced")
    }

    @Test func aKakaoSummaryOnlyAnswerIsNamedAsSuch() throws {
        // The multi-destination answer: each route a summary, no sections.
        let json = #"{"trans_id":"t","routes":[{"result_code":0,"result_msg":"길찾기 성공","key":"0","summary":{"distance":5003,"duration":1180}}]}"#
        #expect(MapStackTests.problem(json) == ImportProblem(.kakaoSummaryOnly, at: "routes[0]"))
        let folder = try Fixtures.temporaryFolder()
        let (code, _, err) = Fixtures.drivesim("import-route", Fixtures.write(json, "many.kakao", in: folder), "--language", "ko")
        #expect(code == 2)
        #expect(err.contains("many.kakao: routes[0]: a summary of the route only") && err.contains("ask /v1/directions for the route"), "\(err)")
    }
}
