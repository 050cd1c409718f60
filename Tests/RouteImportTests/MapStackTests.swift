import CLITestSupport
import Foundation
import Guidance
import Review
import Road
import ScenarioFormat
import SimClock
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import RouteImport

/// The app's own map stacks (issue 40): Kakao Mobility, Google Routes v2,
/// Google Directions (legacy) and the Apple Maps Server API, told by their
/// structure, their errors shown as the service said them, each read into
/// the road its drive needs. The samples are drivesim's own
/// (`Scenarios/routes/responses/services.py`): one drive through Seoul in
/// each service's words.
@Suite struct MapStackTests {
    static func bytes(_ name: String) throws -> [UInt8] { try NativeImportTests.bytes(name) }

    static func imported(_ name: String, _ language: Language = .ko) throws -> RouteImporter.Imported {
        try NativeImportTests.imported(name, language)
    }

    static func problem(_ json: String, _ edit: (inout RouteImporter.Options) -> Void = { _ in }) -> ImportProblem? {
        var options = RouteImporter.Options(language: .ko, source: "t")
        edit(&options)
        do {
            _ = try RouteImporter.importRoute(Array(json.utf8), options: options)
            return nil
        } catch { return error }
    }

    static func maneuvers(_ imported: RouteImporter.Imported) throws -> [Scenario.ManeuverSpec] {
        try #require(imported.scenario.road).maneuvers
    }

    // MARK: Detection

    @Test func eachServiceIsToldByItsStructureBeforeOSRM() throws {
        func format(_ name: String) throws -> RouteFormat? {
            RouteFormat.detect(try JSONParser.parse(try Self.bytes(name)))
        }
        #expect(try format("seoul.kakao") == .kakao)
        #expect(try format("seoul.routes.google") == .google)
        #expect(try format("seoul.directions.google") == .googleLegacy)
        #expect(try format("seoul.apple") == .apple)
        #expect(try format("roundabout.osrm") == .osrm)
        #expect(try format("motorway-exit.mapbox") == .osrm)
        #expect(try format("roundabout.trip.valhalla") == .valhalla)
        #expect(try format("roundabout.paths.graphhopper") == .graphhopper)
        func detect(_ json: String) throws -> RouteFormat? {
            RouteFormat.detect(try JSONParser.parse(Array(json.utf8)))
        }
        #expect(try detect("{}") == .google)
        #expect(try detect(#"{"routes":[],"status":"ZERO_RESULTS"}"#) == .googleLegacy)
        #expect(try detect(#"{"trans_id":"a","routes":[{"result_code":104,"result_msg":"x"}]}"#) == .kakao)
        #expect(try detect(#"{"error":{"code":400,"message":"x","status":"INVALID_ARGUMENT"}}"#) == .google)
        #expect(try detect(#"{"error":{"message":"x","details":[]}}"#) == .apple)
        #expect(try detect(#"{"error_code":171,"error":"x","status_code":400,"status":"Bad Request"}"#) == .valhalla)
        #expect(try detect(#"{"code":"NoRoute","message":"x"}"#) == .osrm)
        #expect(try detect(#"{"type":"LineString","coordinates":[]}"#) == .geojson)
        #expect(try detect(#"{"hello":1}"#) == nil)
    }

    @Test func serviceOptionForcesTheFormat() throws {
        // Read as OSRM, a Kakao answer lacks OSRM's route `distance`: the option is obeyed, not second-guessed.
        let kakao = String(decoding: try Self.bytes("seoul.kakao"), as: UTF8.self)
        #expect(Self.problem(kakao) { $0.service = .osrm } == ImportProblem(.missingField("distance"), at: "routes[0]"))
        #expect(Self.problem(kakao) == nil)
        let (code, _, err) = Fixtures.drivesim(
            "import-route", Fixtures.path("Scenarios/routes/responses/seoul.kakao"), "--language", "ko", "--service",
            "kako")
        #expect(code == 2)
        #expect(err.contains("Did you mean 'kakao'?") || err.contains("kakao"), "\(err)")
    }

    @Test func serviceOptionIsInTheHelpAndTheCompletions() {
        let help = Fixtures.drivesim("import-route", "--help")
        #expect(help.code == 0)
        #expect(help.stdout.contains("--service <name>"))
        let words = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(
            words.contains("by its keys: osrm, valhalla, graphhopper, geojson, kakao, apple, google, google-legacy"),
            "\(help.stdout)")
        let bash = Fixtures.drivesim("completions", "bash")
        #expect(
            bash.stdout.contains(
                "--service) COMPREPLY=($(compgen -W \"osrm valhalla graphhopper geojson kakao apple google google-legacy\""
            ), "\(bash.stdout)")
    }

    // MARK: Service errors, as the service said them

    @Test func kakaoResultCodeIsShownWithItsMessage() {
        let json =
            #"{"trans_id":"t1","routes":[{"result_code":104,"result_msg":"출발지와 도착지가 5 m 이내로 설정된 경우 경로를 탐색할 수 없음"}]}"#
        #expect(
            Self.problem(json)
                == ImportProblem(
                    .serviceError(code: "104", message: "출발지와 도착지가 5 m 이내로 설정된 경우 경로를 탐색할 수 없음"),
                    at: "routes[0].result_code"))
        let folder = try! Fixtures.temporaryFolder()
        let (code, out, err) = Fixtures.drivesim(
            "import-route", Fixtures.write(json, "same.kakao", in: folder), "--language", "ko")
        #expect(code == 2)
        #expect(out.isEmpty)
        #expect(
            err.contains(
                "same.kakao: routes[0].result_code: the routing service answered with an error, code \"104\": 출발지와 도착지가 5 m"
            ), "\(err)")
        #expect(err.contains("(read as a Kakao Mobility directions response)"), "\(err)")
    }

    @Test func googleStatusesAndErrorsAreShownAsGoogleSaidThem() {
        #expect(
            Self.problem(#"{"geocoded_waypoints":[],"routes":[],"status":"ZERO_RESULTS"}"#)
                == ImportProblem(.serviceError(code: "ZERO_RESULTS", message: nil), at: "status"))
        #expect(
            Self.problem(#"{"routes":[],"status":"REQUEST_DENIED","error_message":"The provided API key is invalid."}"#)
                == ImportProblem(
                    .serviceError(code: "REQUEST_DENIED", message: "The provided API key is invalid."), at: "status"))
        #expect(
            Self.problem(
                #"{"error":{"code":400,"message":"Origin and destination must be different.","status":"INVALID_ARGUMENT"}}"#
            )
                == ImportProblem(
                    .serviceError(code: "INVALID_ARGUMENT", message: "Origin and destination must be different."),
                    at: "error"))
        #expect(Self.problem("{}") == ImportProblem(.emptyAnswer, at: ""))
        #expect(
            Self.problem(#"{"error":{"message":"Too many requests","details":[]}}"#)
                == ImportProblem(.serviceError(code: "Apple", message: "Too many requests"), at: "error"))
        let folder = try! Fixtures.temporaryFolder()
        let (code, _, err) = Fixtures.drivesim(
            "import-route", Fixtures.write("{}", "none.google", in: folder), "--language", "en")
        #expect(code == 2)
        #expect(err.contains("none.google: top level: the answer is empty ({}): the service holds no route"), "\(err)")
    }

    // MARK: Kakao

    /// A Kakao answer around one road of `vertexes`, with `guides` (JSON text).
    static func kakao(vertexes: String, guides: String, roads extra: String = "") -> String {
        #"{"trans_id":"t","routes":[{"result_code":0,"result_msg":"ok","summary":{"distance":1000,"duration":100},"sections":[{"distance":1000,"duration":100,"roads":[{"name":"A","distance":1000,"duration":100,"vertexes":[\#(vertexes)]}\#(extra)],"guides":[\#(guides)]}]}]}"#
    }

    static let twoGuides =
        #"{"name":"출발지","type":100,"guidance":"출발지","road_index":0,"distance":0,"duration":0},{"name":"목적지","type":101,"guidance":"목적지","road_index":-1,"distance":1000,"duration":100}"#

    @Test func kakaoRefusesProjectedCoordinatesWithAHint() {
        #expect(
            Self.problem(Self.kakao(vertexes: "958000.5,1950000,958100,1950900", guides: Self.twoGuides))
                == ImportProblem(.projectedCoordinates(value: 958001), at: "routes[0].sections[0].roads[0].vertexes[0]")
        )
        #expect(
            Self.problem(Self.kakao(vertexes: "127.03,37.5,127.03", guides: Self.twoGuides))
                == ImportProblem(
                    .wrongType(expected: "[x, y, …]: longitude, latitude pairs"),
                    at: "routes[0].sections[0].roads[0].vertexes"))
        #expect(
            Self.problem(Self.kakao(vertexes: "127.03,95,127.03,37.5", guides: Self.twoGuides))
                == ImportProblem(.coordinateOutOfRange, at: "routes[0].sections[0].roads[0].vertexes[1]"))
        #expect(Self.problem(Self.kakao(vertexes: "127.03,37.5,127.03,37.509", guides: Self.twoGuides)) == nil)
        let badRoad = Self.twoGuides.replacingOccurrences(of: #""road_index":0"#, with: #""road_index":3"#)
        #expect(
            Self.problem(Self.kakao(vertexes: "127.03,37.5,127.03,37.509", guides: badRoad))
                == ImportProblem(
                    .shapeIndexOutOfRange(index: 3, count: 1), at: "routes[0].sections[0].guides[0].road_index"))
        // Asked with summary=true: no roads, no guides: a summary, said so.
        #expect(
            Self.problem(
                #"{"trans_id":"t","routes":[{"result_code":0,"summary":{"distance":10},"sections":[{"distance":10,"duration":1}]}]}"#
            )
                == ImportProblem(.kakaoSummaryOnly, at: "routes[0].sections[0]"))
    }

    @Test func kakaoSeoulDriveHasEveryKindStreetAndToward() throws {
        let imported = try Self.imported("seoul.kakao")
        let m = try Self.maneuvers(imported)
        #expect(
            m.map(\.turn) == [
                .right, .left, .waypoint, .right, .onRamp, .forkLeft, .offRamp, .roundabout, .left, .arrive,
            ])
        // The street is the road's name (often empty), the toward what precedes "방면으로".
        #expect(m[0].street == "선릉로" && m[0].details.toward == "역삼역")
        #expect(m[1].street == nil && m[1].details.toward == "삼성, 코엑스")
        // A highway entrance and exit are named by their IC, toward their signs, their side said only when not the usual one.
        #expect(m[4].details.exitName == "서초IC" && m[4].details.toward == "부산, 대전" && m[4].details.side == nil)
        #expect(m[6].details.exitName == "한남IC" && m[6].details.toward == "이태원, 남산")
        // The road it leads onto is not said again as a direction ("강변북로,구리 방면" onto 강변북로).
        #expect(m[5].street == "강변북로" && m[5].details.toward == "구리")
        // 회전교차로에서 9시 방향: the third exit of four arms.
        #expect(m[7].details.exit == 3)
        #expect(m[8].street == "판교역로192번길")
        // The 12시 on the motorway and the toll are no maneuver, said so.
        #expect(
            imported.warnings == [
                ImportWarning(.notAnnounced(type: "continue"), at: "routes[0].sections[1].guides[3].type"),
                ImportWarning(.notAnnounced(type: "notification"), at: "routes[0].sections[1].guides[6].type"),
            ])
    }

    @Test func kakaoWaypointRepeatedAtTheNextSectionIsOneWaypointAndAUTurn() throws {
        let m = try Self.maneuvers(try Self.imported("seoul.kakao"))
        let waypoints = m.filter { $0.turn == .waypoint }
        #expect(waypoints.count == 1)
        #expect(waypoints.first?.details.uTurn == true)
        #expect(m.map(\.id).filter { $0.hasPrefix("l1s0") }.isEmpty, "the next section's first guide is its departure")
    }

    @Test func kakaoSpeedsComeFromEachRoad() throws {
        let imported = try Self.imported("seoul.kakao")
        let kmh = try #require(imported.scenario.road?.drive?.profile.steps).map {
            ($0.speed * 3.6 * 10).rounded() / 10
        }
        // 테헤란로 36, 선릉로 40, then 30, …, the expressway's 100, 강변북로 80.
        #expect(kmh.first == 36)
        // Each road's distance / duration (whole seconds: 강변북로's 2,010 m in 90 s is 80.2).
        #expect(kmh == [36, 40, 30, 40, 50, 100, 80.2, 39.5, 36, 27, 30])
        #expect(imported.warnings.allSatisfy { if case .lengthDiffers = $0.kind { false } else { true } })
    }

    @Test(arguments: [
        (1, Turn.slightRight), (2, .right), (3, .right), (4, .right), (5, .sharpRight), (6, .uTurn),
        (7, .sharpLeft), (8, .left), (9, .left), (10, .left), (11, .slightLeft), (12, .straight),
    ])
    func kakaoClockHoursAreSlightNormalOrSharp(hour: Int, turn: Turn) {
        #expect(RouteImporter.clockHour("\(hour)시 방향") == hour)
        #expect(RouteImporter.clockHour("\(hour)시방향 우회전") == hour)
        #expect(RouteImporter.clockTurn(hour) == turn)
        let kind = RouteImporter.kakaoKind(code: 99, guidance: "\(hour)시 방향", name: "", motorway: false)
        #expect(RouteImporter.plainTurn(kind.modifier) == turn)
    }

    @Test func kakaoTwelveOClockOnAMotorwayIsNotAnnounced() {
        #expect(
            RouteImporter.kakaoKind(code: 0, guidance: "서울 방면으로 12시 방향", name: "", motorway: true)
                == .init(type: "continue", modifier: "straight"))
        #expect(
            RouteImporter.kakaoKind(code: 0, guidance: "12시 방향", name: "", motorway: false)
                == .init(type: "turn", modifier: "straight"))
    }

    @Test(arguments: [
        (3, 1), (12, 2), (9, 3), (6, 4), (1, 2), (2, 1), (4, 1), (5, 1), (7, 4), (8, 3), (10, 3), (11, 2),
    ])
    func kakaoRoundaboutClockHourIsAnExitOfFourArms(hour: Int, exit: Int) {
        #expect(RouteImporter.roundaboutExit(clock: hour) == exit)
        #expect(
            RouteImporter.kakaoKind(code: 99, guidance: "회전교차로에서 \(hour)시 방향", name: "", motorway: false).exit == exit)
    }

    @Test func kakaoGuideKindsFromTheirTypeAndWords() {
        func kind(_ code: Int, _ guidance: String, _ name: String = "", motorway: Bool = false)
            -> RouteImporter.KakaoKind
        {
            RouteImporter.kakaoKind(code: code, guidance: guidance, name: name, motorway: motorway)
        }
        #expect(kind(1, "좌회전") == .init(type: "turn", modifier: "left"))
        #expect(kind(2, "강남역 방면으로 우회전") == .init(type: "turn", modifier: "right"))
        #expect(kind(3, "유턴") == .init(type: "turn", modifier: "uturn"))
        #expect(kind(5, "왼쪽 방향") == .init(type: "continue", modifier: "slight left"))
        #expect(kind(6, "오른쪽 방향") == .init(type: "continue", modifier: "slight right"))
        #expect(kind(0, "직진") == .init(type: "continue", modifier: "straight"))
        #expect(kind(77, "판교JC 강릉 방면으로 오른쪽 방향", "판교JC") == .init(type: "fork", modifier: "slight right"))
        #expect(kind(77, "경부고속도로 왼쪽 진입") == .init(type: "on ramp", modifier: "slight left"))
        #expect(kind(77, "내부순환로 도시고속도로 진입") == .init(type: "on ramp", modifier: nil))
        #expect(kind(77, "판교IC 분당 방면으로 오른쪽 출구", "판교IC") == .init(type: "off ramp", modifier: "slight right"))
        #expect(kind(77, "왼쪽 출구") == .init(type: "off ramp", modifier: "slight left"))
        #expect(kind(77, "서울요금소 (통행료 1,000원)", "서울TG") == .init(type: "notification", modifier: "straight"))
        #expect(kind(77, "망향휴게소") == .init(type: "notification", modifier: "straight"))
        #expect(kind(77, "목포항 카페리 항로") == .init(type: "notification", modifier: "straight", ferry: true))
        // The words decide before the code; a code not read by number whose words say nothing is straight on, said so.
        #expect(kind(999, "좌회전") == .init(type: "turn", modifier: "left"))
        #expect(kind(2, "좌회전") == .init(type: "turn", modifier: "left"))
        #expect(kind(1, "") == .init(type: "turn", modifier: "left"))
        #expect(kind(999, "무엇") == .init(type: "continue", modifier: "straight", unknown: true))
    }

    @Test func kakaoTowardIsWhatPrecedesBangmyeon() {
        #expect(RouteImporter.kakaoDestinations("동판교IC 내곡,서울 방면으로 우회전", name: "동판교IC") == "내곡, 서울")
        #expect(RouteImporter.kakaoDestinations("판교 분당 방면으로 오른쪽 방향", name: nil) == "판교, 분당")
        #expect(RouteImporter.kakaoDestinations("수원, 오산 , 평택 방면으로", name: nil) == "수원, 오산")
        #expect(RouteImporter.kakaoDestinations("서울 방면 (통행료 1,000원)", name: nil) == "서울")
        #expect(RouteImporter.kakaoDestinations("서초IC에서 부산,대전 방면으로 오른쪽 고속도로 진입", name: "서초IC") == "부산, 대전")
        #expect(RouteImporter.kakaoDestinations("우회전", name: nil) == nil)
    }

    @Test func kakaoUnknownGuideTypeIsWarnedWithItsPath() throws {
        let guides =
            #"{"name":"출발지","type":100,"guidance":"출발지","road_index":0,"distance":0,"duration":0},{"name":"","type":999,"guidance":"","road_index":1,"distance":555,"duration":50},{"name":"목적지","type":101,"guidance":"목적지","road_index":-1,"distance":530,"duration":50}"#
        let json = Self.kakao(
            vertexes: "127.03,37.5,127.03,37.505", guides: guides,
            roads: #",{"name":"B","distance":530,"duration":50,"vertexes":[127.03,37.505,127.036,37.505]}"#)
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .ko, source: "t"))
        #expect(try Self.maneuvers(imported).map(\.turn) == [.arrive])
        #expect(
            imported.warnings.contains(
                ImportWarning(.unknownGuideType(999, keptAs: "no maneuver"), at: "routes[0].sections[0].guides[1].type")
            ))
    }

    @Test func kakaoFerryIsAnnouncedAndItsRoadWaitsAtTheTerminal() throws {
        let guides = [
            #"{"name":"출발지","type":100,"guidance":"출발지","road_index":0,"distance":0,"duration":0}"#,
            #"{"name":"목포항","type":77,"guidance":"목포항 카페리 항로 진입","road_index":1,"distance":1112,"duration":100}"#,
            #"{"name":"","type":2,"guidance":"우회전","road_index":2,"distance":6004,"duration":900}"#,
            #"{"name":"목적지","type":101,"guidance":"목적지","road_index":-1,"distance":883,"duration":80}"#,
        ].joined(separator: ",")
        let roads =
            #",{"name":"카페리","distance":6004,"duration":900,"vertexes":[127.0,37.51,127.0,37.564]},{"name":"해안로","distance":883,"duration":80,"vertexes":[127.0,37.564,127.01,37.564]}"#
        let json = Self.kakao(vertexes: "127.0,37.5,127.0,37.51", guides: guides, roads: roads)
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .ko, source: "t"))
        let road = try #require(imported.scenario.road)
        #expect(road.maneuvers.map(\.turn) == [.ferry, .right, .arrive])
        // 6 km in 15 minutes: the crossing at 30 km/h (12 min) after a wait of 3 minutes at the terminal.
        let stop = try #require(road.drive?.profile.stops.first)
        #expect(abs(stop.at - 1112) < 2 && abs(Double(stop.dwell.ms) - 179_520) < 1000, "\(stop)")
    }

    @Test func theCommittedSeoulScenarioIsWhatTheKakaoImportWrites() throws {
        // Scenarios/routes/seoul-kakao.json: every maneuver's "now" line heard, and its golden timeline (drivesim check).
        try expectPinned(try Self.imported("seoul.kakao"), as: "routes/seoul-kakao", turns: 10)
    }

    @Test func aKakaoFixtureImportsAndItsScenarioRuns() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = folder + "/seoul.json"
        let (code, _, err) = Fixtures.drivesim(
            "import-route", Fixtures.path("Scenarios/routes/responses/seoul.kakao"), "--language", "ko", "--out", out)
        #expect(code == 0, "\(err)")
        let run = Fixtures.drivesim("run", out)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("선릉로"))
        #expect(!run.stdout.contains("road.turn.unannounced") || run.stdout.contains("then"))
    }

    // MARK: Google Routes v2

    @Test func googleRoutesSeoulDriveHasEveryKind() throws {
        let imported = try Self.imported("seoul.routes.google", .en)
        let m = try Self.maneuvers(imported)
        #expect(
            m.map(\.turn) == [
                .right, .left, .waypoint, .right, .onRamp, .forkLeft, .offRamp, .roundabout, .sharpLeft, .arrive,
            ])
        #expect(m[0].street == "Seolleung-ro")
        #expect(m[1].details.toward == "Samseong")
        #expect(m[2].details.uTurn)
        #expect(m[7].details.exit == 3)
        // The arrival side is the last instruction's second line.
        #expect(m[9].details.side == .right)
        // localizedValues in miles make an English voice imperial; a Korean one stays metric.
        #expect(imported.scenario.road?.guidance.units == .imperial)
        #expect(try Self.imported("seoul.routes.google", .ko).scenario.road?.guidance.units == .metric)
        #expect(imported.precision == 5)
    }

    /// A Routes v2 answer of one leg whose steps are `steps` (JSON), with no route polyline.
    static func routesV2(_ steps: String) -> String {
        #"{"routes":[{"distanceMeters":600,"duration":"60s","legs":[{"steps":[\#(steps)]}]}]}"#
    }

    static func v2Step(
        _ points: [(Double, Double)], _ maneuver: String?, _ text: String = "", meters: Int = 300, seconds: Int = 30
    ) -> String {
        let line = Polyline.encode(points.map { GeoPoint(latitude: $0.0, longitude: $0.1) }, precision: 5)
        let instruction =
            maneuver.map { #","navigationInstruction":{"maneuver":"\#($0)","instructions":"\#(text)"}"# } ?? ""
        return
            #"{"distanceMeters":\#(meters),"staticDuration":"\#(seconds)s","polyline":{"encodedPolyline":"\#(line)"}\#(instruction)}"#
    }

    @Test func googleLaneKeepSentAsATurnIsAKeepByItsGeometry() throws {
        // Straight north, then TURN_LEFT at about 0°: a keep left; at 90°: a left turn.
        let a = [(37.5, 127.03), (37.5027, 127.03)]
        let straight = [(37.5027, 127.03), (37.5054, 127.03)]
        let west = [(37.5027, 127.03), (37.5027, 127.0266)]
        let keep = Self.routesV2(
            [Self.v2Step(a, "DEPART"), Self.v2Step(straight, "TURN_LEFT", "Keep left")].joined(separator: ","))
        let turn = Self.routesV2(
            [Self.v2Step(a, "DEPART"), Self.v2Step(west, "TURN_LEFT", "Turn left")].joined(separator: ","))
        func turns(_ json: String) throws -> [Turn] {
            try Self.maneuvers(
                try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
            ).map(\.turn)
        }
        #expect(try turns(keep) == [.keepLeft, .arrive])
        #expect(try turns(turn) == [.left, .arrive])
        // A step with no instruction is no maneuver.
        let none = Self.routesV2([Self.v2Step(a, "DEPART"), Self.v2Step(west, nil)].joined(separator: ","))
        #expect(try turns(none) == [.arrive])
    }

    @Test func googleRampIsOnOrOffByTheSpeedBeforeIt() throws {
        let a = [(37.5, 127.03), (37.509, 127.03)]
        let ramp = [(37.509, 127.03), (37.5095, 127.0305), (37.512, 127.0305)]
        func turns(_ seconds: Int) throws -> [Turn] {
            let json = Self.routesV2(
                [Self.v2Step(a, "DEPART", meters: 1000, seconds: seconds), Self.v2Step(ramp, "RAMP_RIGHT")].joined(
                    separator: ","))
            return try Self.maneuvers(
                try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
            ).map(\.turn)
        }
        #expect(try turns(36) == [.offRamp, .arrive])  // 100 km/h before: leaving a motorway
        #expect(try turns(120) == [.onRamp, .arrive])  // 30 km/h: joining one
    }

    @Test func googleRoutesRefusalsNameTheirPath() {
        #expect(
            Self.problem(
                Self.routesV2(#"{"staticDuration":"12 s","polyline":{"encodedPolyline":"_p~iF~ps|U_ulLnnqC"}}"#))
                == ImportProblem(
                    .wrongType(expected: "a duration in seconds (\"102s\")"),
                    at: "routes[0].legs[0].steps[0].staticDuration"))
        #expect(
            Self.problem(Self.routesV2(#"{"polyline":{"encodedPolyline":""}}"#))
                == ImportProblem(.emptyPolyline, at: "routes[0].legs[0].steps[0].polyline.encodedPolyline"))
        #expect(
            Self.problem(Self.routesV2(#"{"polyline":{}}"#))
                == ImportProblem(.missingField("encodedPolyline"), at: "routes[0].legs[0].steps[0].polyline"))
        #expect(
            Self.problem(#"{"routes":[{"distanceMeters":1,"legs":[]}]}"#)
                == ImportProblem(.noSteps, at: "routes[0].legs"))
    }

    // MARK: Google Directions (legacy)

    @Test func googleLegacySeoulDriveHasEveryKind() throws {
        let imported = try Self.imported("seoul.directions.google", .en)
        let m = try Self.maneuvers(imported)
        #expect(
            m.map(\.turn) == [
                .right, .left, .waypoint, .right, .onRamp, .forkLeft, .offRamp, .roundabout, .sharpLeft, .arrive,
            ])
        #expect(m[0].street == "Seolleung-ro")
        #expect(m[2].details.uTurn)
        // The <div> holds the destination's side.
        #expect(m[9].details.side == .right)
        // The step with no `maneuver` (straight on) is no maneuver, said so.
        #expect(
            imported.warnings == [
                ImportWarning(.straightOn(what: "step without a maneuver"), at: "routes[0].legs[1].steps[3].maneuver")
            ])
    }

    @Test func googleLegacyHTMLIsReadWithoutItsTags() {
        let (text, div) = RouteImporter.plainText(
            html:
                #"Turn <b>right</b> onto <b>Main&nbsp;St</b><div style="font-size:0.9em">Destination will be on the left</div>"#
        )
        #expect(text == "Turn right onto Main St")
        #expect(div == "Destination will be on the left")
        #expect(RouteImporter.destinationSide(div) == "left")
        #expect(RouteImporter.instructionStreet(text) == "Main St")
        #expect(
            RouteImporter.instructionStreet(
                "<b>테헤란로</b>(으)로 좌회전".replacing("<b>", with: "").replacing("</b>", with: "")) == "테헤란로")
        #expect(RouteImporter.instructionExit("At the roundabout, take the 2nd exit onto A") == 2)
        #expect(RouteImporter.instructionExit("At the roundabout, take the third exit") == 3)
        #expect(RouteImporter.googleManeuver(legacy: "turn-slight-left") == "TURN_SLIGHT_LEFT")
    }

    @Test func googleLegacySlightLeftIsTheManeuverWhateverItsWords() throws {
        let a = [(37.5, 127.03), (37.5027, 127.03)]
        let b = [(37.5027, 127.03), (37.5045, 127.028)]
        func step(_ p: [(Double, Double)], _ maneuver: String?, _ html: String) -> String {
            let line = Polyline.encode(p.map { GeoPoint(latitude: $0.0, longitude: $0.1) }, precision: 5)
            return
                #"{"distance":{"value":300,"text":"0.3 km"},"duration":{"value":30},"start_location":{"lat":\#(p[0].0),"lng":\#(p[0].1)},"html_instructions":"\#(html)","polyline":{"points":"\#(line)"}\#(maneuver.map { #","maneuver":"\#($0)""# } ?? "")}"#
        }
        let json =
            #"{"status":"OK","routes":[{"legs":[{"steps":[\#(step(a, nil, "북쪽으로 출발")),\#(step(b, "turn-slight-left", "<b>역삼로</b>(으)로 좌회전"))]}]}]}"#
        let imported = try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .ko, source: "t"))
        let m = try Self.maneuvers(imported)
        #expect(m.map(\.turn) == [.slightLeft, .arrive])
        #expect(m[0].street == "역삼로")
    }

    // MARK: Apple

    @Test func appleKindsComeFromTheGeometryAndWalkingIsNotDriven() throws {
        let imported = try Self.imported("seoul.apple", .en)
        let m = try Self.maneuvers(imported)
        // "At the roundabout, take the 3rd exit": a roundabout by its words (issue 50), not the line's slight left.
        #expect(m.map(\.turn) == [.right, .slightRight, .slightLeft, .slightRight, .roundabout, .left, .arrive])
        #expect(m[4].details.exit == 3)
        #expect(m[0].street == "Eonju-ro")
        #expect(m.last?.details.side == .right)
        #expect(imported.warnings.contains(ImportWarning(.walkingNotDriven, at: "steps[8].transportType")))
        // The length check compares the driven part: no warning that the walk is missing.
        #expect(imported.warnings.allSatisfy { if case .lengthDiffers = $0.kind { false } else { true } })
    }

    @Test func appleRightTurnWordedOnlyAsPrepareToParkIsARightTurn() throws {
        let north = #"[{"latitude":37.5,"longitude":127.03},{"latitude":37.505,"longitude":127.03}]"#
        let east = #"[{"latitude":37.505,"longitude":127.03},{"latitude":37.505,"longitude":127.036}]"#
        let json =
            #"{"routes":[{"distanceMeters":1085,"durationSeconds":100,"stepIndexes":[0,1]}],"steps":[{"stepPathIndex":0,"distanceMeters":556,"instructions":""},{"stepPathIndex":1,"distanceMeters":529,"instructions":"Prepare to park"}],"stepPaths":[\#(north),\#(east)]}"#
        let imported = try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
        #expect(try Self.maneuvers(imported).map(\.turn) == [.right, .arrive])
        // No step durations (an MKRoute written out): the route's 100 s shared by distance, about 39 km/h throughout.
        #expect(imported.scenario.road?.drive?.profile.steps.map { ($0.speed * 3.6).rounded() } == [39])
    }

    /// A last step that says nothing gives the arrival no display text (libFuzzer found an empty prompt
    /// the decoder refuses): the scenario written reads back as it is.
    @Test func appleLastStepWithoutWordsGivesNoEmptyPrompt() throws {
        let north = #"[{"latitude":37.5,"longitude":127.03},{"latitude":37.505,"longitude":127.03}]"#
        let east = #"[{"latitude":37.505,"longitude":127.03},{"latitude":37.505,"longitude":127.036}]"#
        let json =
            #"{"routes":[{"distanceMeters":1085,"durationSeconds":100,"stepIndexes":[0,1]}],"steps":[{"stepPathIndex":0,"distanceMeters":556,"instructions":"Head north"},{"stepPathIndex":1,"distanceMeters":529,"instructions":""}],"stepPaths":[\#(north),\#(east)]}"#
        let imported = try RouteImporter.importRoute(Array(json.utf8), options: .init(language: .en, source: "t"))
        #expect(imported.scenario.servicePrompts.allSatisfy { !$0.text.isEmpty })
        let encoded = ScenarioEncoder.encode(imported.scenario)
        #expect(try ScenarioDecoder.decode(encoded, file: "t").servicePrompts == imported.scenario.servicePrompts)
    }

    @Test func appleRefusals() {
        let path = #"[{"latitude":37.5,"longitude":127.03},{"latitude":37.51,"longitude":127.03}]"#
        func apple(_ steps: String, indexes: String = "[0]") -> String {
            #"{"routes":[{"distanceMeters":1000,"stepIndexes":\#(indexes)}],"steps":[\#(steps)],"stepPaths":[\#(path)]}"#
        }
        #expect(
            Self.problem(
                apple(
                    #"{"stepPathIndex":0,"distanceMeters":1000,"durationSeconds":90,"instructions":"","transportType":"Automobile"}"#
                )) == nil)
        #expect(
            Self.problem(apple(#"{"stepPathIndex":4,"distanceMeters":1000}"#))
                == ImportProblem(.shapeIndexOutOfRange(index: 4, count: 1), at: "steps[0].stepPathIndex"))
        #expect(
            Self.problem(apple(#"{"stepPathIndex":0}"#, indexes: "[2]"))
                == ImportProblem(.shapeIndexOutOfRange(index: 2, count: 1), at: "routes[0].stepIndexes[0]"))
        #expect(
            Self.problem(apple(#"{"stepPathIndex":0,"transportType":"Walking"}"#))
                == ImportProblem(.nothingDriven, at: "routes[0].stepIndexes"))
        // Its maneuvers go by Apple's step numbers (issue 50): a step listed twice is refused where it repeats.
        #expect(
            Self.problem(apple(#"{"stepPathIndex":0,"distanceMeters":1000}"#, indexes: "[0,0]"))
                == ImportProblem(.repeatedStep(index: 0), at: "routes[0].stepIndexes[1]"))
    }

    // MARK: Prompts

    @Test func displayTextsAreKeptAndComparedWithNoDistance() throws {
        let imported = try Self.imported("seoul.kakao")
        let prompts = imported.scenario.servicePrompts
        #expect(prompts.first == ServicePrompt(maneuver: "l0s1", before: nil, text: "역삼역 방면으로 우회전"))
        #expect(prompts.allSatisfy { $0.before == nil })
        #expect(prompts.count == 10, "one for each maneuver kept")
        // Written without `before`, read back the same.
        let encoded = ScenarioEncoder.encode(imported.scenario)
        #expect(
            String(decoding: encoded, as: UTF8.self).contains(
                "\"maneuver\": \"l0s1\",\n        \"text\": \"역삼역 방면으로 우회전\""))
        #expect(try ScenarioDecoder.decode(encoded, file: "t").servicePrompts == prompts)
        // Each beside drivesim's first line for its maneuver: wording side by side, no difference.
        let run = try Simulation(imported.scenario)
        let comparison = try #require(PromptComparison(run.timeline, imported.scenario))
        let shown = comparison.rows.filter(\.display)
        #expect(shown.count == 10)
        #expect(shown.allSatisfy { $0.line != nil && $0.difference == nil && $0.serviceBefore == nil })
        #expect(comparison.text.contains("shown"))
        #expect(comparison.json.contains(#""display": true"#))
        #expect(comparison.summary.isEmpty, "display texts make no pairs to summarise")
        // Google's instructions are display texts too, the arrival's side line included.
        let google = try Self.imported("seoul.routes.google", .en).scenario.servicePrompts
        #expect(google.contains(ServicePrompt(maneuver: "l0s1", before: nil, text: "Turn right onto Seolleung-ro")))
        #expect(google.contains(ServicePrompt(maneuver: "l1s8", before: nil, text: "Destination will be on the right")))
    }

    // MARK: Hostile values

    /// `v` with one of its leaves (every `every`th) replaced by each of `values`, one at a time.
    static func variants(_ v: JSONValue, every: Int, values: [JSONValue]) -> [JSONValue] {
        var out: [JSONValue] = []
        var counter = 0
        func walk(_ v: JSONValue, _ rebuild: (JSONValue) -> JSONValue) {
            switch v.kind {
            case .object(let members):
                for (i, m) in members.enumerated() {
                    walk(m.value) { new in
                        var changed = members
                        changed[i] = (m.key, new)
                        return rebuild(JSONValue(.object(changed)))
                    }
                }
            case .array(let items):
                for (i, item) in items.enumerated() {
                    walk(item) { new in
                        var changed = items
                        changed[i] = new
                        return rebuild(JSONValue(.array(changed)))
                    }
                }
            default:
                counter += 1
                if counter % every == 0 { out += values.map(rebuild) }
            }
        }
        walk(v) { $0 }
        return out
    }

    @Test(arguments: [
        "seoul.kakao", "seoul.routes.google", "seoul.directions.google", "seoul.apple",
        "boston-ko.directions.google", "toronto.directions.google", "aveiro.routes.google",
    ])
    func hostileValuesAreRefusedOrImportedNeverACrash(_ name: String) throws {
        // Leaves swapped for a negative, a huge number, a number beyond a double, strings where numbers go
        // and the reverse: each is refused with a problem or imports into what the decoder reads back
        // (no trap on any arithmetic; about 5,000 variants of the four were tried so while writing this).
        let root = try JSONParser.parse(try Self.bytes(name))
        let values: [JSONValue] = [
            .number("-1"), .number("1e308"), .number("1e400"), .string(""), .string("1e400s"), JSONValue(.null),
        ]
        var imported = 0
        for v in Self.variants(root, every: name == "seoul.kakao" ? 53 : 13, values: values) {
            guard
                let done = try? RouteImporter.importRoute(
                    JSONWriter.bytes(v), options: .init(language: .ko, source: "h"))
            else { continue }
            imported += 1
            #expect(try ScenarioDecoder.decode(ScenarioEncoder.encode(done.scenario), file: "h") == done.scenario)
        }
        #expect(imported > 0)
    }
}
