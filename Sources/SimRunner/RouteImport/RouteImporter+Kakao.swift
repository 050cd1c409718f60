import Guidance
import Road
import ScenarioFormat
import SimClock

/// Kakao Mobility directions (`/v1/directions`, `/v1/waypoints/directions`,
/// `/v1/future/directions`): `routes[N].sections[]` are the legs, each with
/// its `roads` (the line, flat `vertexes` `[x, y, …]` = longitude,
/// latitude, and a speed each) and its `guides` (the maneuvers), read into
/// the steps the OSRM reader makes (docs/import.md, "Kakao Mobility").
extension RouteImporter {
    /// A guide's kind, as the OSRM step type and modifier it reads as, a
    /// roundabout's exit, and whether it boards a ferry.
    struct KakaoKind: Equatable {
        var type: String
        var modifier: String?
        var exit: Int? = nil
        var ferry = false
        /// The guide `type` was not one drivesim knows: read from its text.
        var unknown = false
    }

    /// Words of a guide that is no maneuver: tolls, rest areas.
    static let kakaoNoManeuver = ["톨게이트", "요금소", "휴게소", "졸음쉼터", "통행료"]

    /// The clock hour a Kakao text names ("2시 방향", "10시방향"), 1 to 12; nil for none.
    static func clockHour(_ text: String) -> Int? {
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            if chars[i] == "시" {
                var k = i + 1
                while k < chars.count, chars[k] == " " { k += 1 }
                if k + 1 < chars.count, chars[k] == "방", chars[k + 1] == "향" {
                    var start = i
                    while start > 0, chars[start - 1].isASCII, chars[start - 1].isNumber { start -= 1 }
                    if start < i, i - start <= 2, let hour = Int(String(chars[start..<i])), (1...12).contains(hour) {
                        return hour
                    }
                }
            }
            i += 1
        }
        return nil
    }

    /// The side a Kakao text names: `left` (왼쪽, 좌측), `right` (오른쪽, 우측); nil for none.
    static func kakaoSide(_ text: String) -> String? {
        if text.contains("왼쪽") || text.contains("좌측") { return "left" }
        if text.contains("오른쪽") || text.contains("우측") { return "right" }
        return nil
    }

    /// The turn at clock hour `hour` (12 straight on, 3 right, 6 back):
    /// 1 and 11 slight, 2 to 4 and 8 to 10 plain, 5 and 7 sharp, 6 a U-turn.
    static func clockTurn(_ hour: Int) -> Turn {
        switch hour {
        case 1: return .slightRight
        case 2, 3, 4: return .right
        case 5: return .sharpRight
        case 6: return .uTurn
        case 7: return .sharpLeft
        case 8, 9, 10: return .left
        case 11: return .slightLeft
        default: return .straight
        }
    }

    /// A roundabout's exit for the clock hour it is left at, on a
    /// roundabout of four arms driven anticlockwise (right-hand traffic):
    /// 3시 the first exit, 12시 the second, 9시 the third, 6시 the fourth
    /// (back); the hours between round to the nearer arm, the later on a tie.
    static func roundaboutExit(clock hour: Int) -> Int {
        // Degrees driven round from the entry (at 6시) to the exit.
        let driven = ((180 - 30 * hour) % 360 + 360) % 360
        return max(1, Int((Double(driven == 0 ? 360 : driven) / 90).rounded(.toNearestOrAwayFromZero)))
    }

    /// A guide's kind from its `guidance` text, its `name` and its `type`
    /// code (the words first: only codes 0–3, 5 and 6 are read by number;
    /// docs/import.md, "Kakao Mobility"); `motorway` when the road it is on
    /// is one (a 12시 there is not announced). `unknown` when neither the
    /// words nor the code say what it is.
    static func kakaoKind(code: Int, guidance: String, name: String, motorway: Bool) -> KakaoKind {
        let text = guidance + " " + name
        let side = kakaoSide(guidance) ?? (code == 5 ? "left" : code == 6 ? "right" : nil)
        let slight = side.map { "slight " + $0 }
        if kakaoNoManeuver.contains(where: { text.contains($0) }) || name.hasSuffix("TG") {
            return KakaoKind(type: "notification", modifier: "straight")
        }
        if text.contains("페리") || text.contains("여객선") || text.contains("항로") {
            return KakaoKind(type: "notification", modifier: "straight", ferry: true)
        }
        if code == 3 || text.contains("유턴") || text.contains("U턴") { return KakaoKind(type: "turn", modifier: "uturn") }
        let hour = clockHour(guidance)
        if text.contains("회전교차로") || text.contains("로터리") {
            return KakaoKind(
                type: "roundabout", modifier: hour.map { modifier(for: clockTurn($0)) } ?? nil,
                exit: hour.map(roundaboutExit))
        }
        let expressway = ["고속도로", "도시고속", "고속화", "자동차전용"].contains { text.contains($0) }
        if text.contains("진입"), expressway || name.hasSuffix("IC") {
            return KakaoKind(type: "on ramp", modifier: slight)
        }
        if text.contains("분기점") || name.hasSuffix("JC") {
            return KakaoKind(type: "fork", modifier: slight ?? "straight")
        }
        if text.contains("출구") || text.contains("진출") || (motorway && (name.hasSuffix("IC") || name.hasSuffix("나들목"))) {
            return KakaoKind(type: "off ramp", modifier: slight ?? "slight right")
        }
        if let hour {
            if hour == 12 { return KakaoKind(type: motorway ? "continue" : "turn", modifier: "straight") }
            return KakaoKind(type: "turn", modifier: modifier(for: clockTurn(hour)))
        }
        // The words, then the few codes read by number, then nothing known: straight on, said so.
        if guidance.contains("좌회전") { return KakaoKind(type: "turn", modifier: "left") }
        if guidance.contains("우회전") { return KakaoKind(type: "turn", modifier: "right") }
        if let words = kakaoSide(guidance) { return KakaoKind(type: "continue", modifier: "slight " + words) }
        if guidance.contains("직진") { return KakaoKind(type: "continue", modifier: "straight") }
        switch code {
        case 0: return KakaoKind(type: "continue", modifier: "straight")
        case 1: return KakaoKind(type: "turn", modifier: "left")
        case 2: return KakaoKind(type: "turn", modifier: "right")
        case 5, 6: return KakaoKind(type: "continue", modifier: slight)
        default: return KakaoKind(type: "continue", modifier: "straight", unknown: true)
        }
    }

    /// The directions a Kakao `guidance` names: what precedes "방면" ("동판교IC
    /// 내곡,서울 방면으로 우회전" is "내곡, 서울"), without the guide's own
    /// `name` and a toll's "(통행료 1,000원)"; the places split at commas
    /// (with or without spaces) or, with none, at spaces; the road it leads
    /// onto (`street`) is not a direction; the first two, written as OSRM's `destinations`.
    static func kakaoDestinations(_ guidance: String, name: String?, street: String? = nil) -> String? {
        var text = Substring(guidance)
        if let open = text.lastIndex(of: "("), text.hasSuffix(")") { text = text[..<open] }
        guard let mark = text.firstRange(of: "방면") else { return nil }
        var before = text[..<mark.lowerBound].trimmingSpaces()
        if let name, !name.isEmpty, before.hasPrefix(name) {
            // "서초IC에서 부산,대전 방면": the place's name and its particle are not a direction.
            before = String(before.dropFirst(name.count)).trimmingSpaces()
            if before.hasPrefix("에서") { before = String(before.dropFirst(2)).trimmingSpaces() }
        }
        let places = (before.contains(",") ? before.split(separator: ",") : before.split(separator: " "))
            .map { $0.trimmingSpaces() }.filter { !$0.isEmpty && $0 != street }
        return places.isEmpty ? nil : places.prefix(destinationsSaid).joined(separator: ", ")
    }

    /// The largest absolute value a WGS84 longitude takes: any beyond 1,000
    /// is a projected grid's meters (KATEC, WCONGNAMUL), not degrees.
    static let projectedBeyond = 1_000.0
}

extension RouteImporter.Reader {
    // MARK: Kakao Mobility

    /// Kakao's `routes[N]` (`--route N`): its sections as legs, its roads as the line and the speeds, its guides as the maneuvers.
    mutating func kakao(_ root: JSONValue, options: RouteImporter.Options) throws(ImportProblem)
        -> RouteImporter.Imported
    {
        let (route, path) = try chosen("routes", of: root, options)
        if let c = route["result_code"] {
            let code = try integer(c, JSONPath.join(path, "result_code"))
            if code != 0 {
                throw ImportProblem(
                    .serviceError(code: String(code), message: try string(route, "result_msg", path)),
                    at: JSONPath.join(path, "result_code"))
            }
        }
        let sectionsPath = JSONPath.join(path, "sections")
        // The multi-destination answer (`/v1/destinations/directions`) holds each route's summary alone.
        if route["sections"] == nil, route["summary"] != nil { throw ImportProblem(.kakaoSummaryOnly, at: path) }
        let sections = try array(try member(route, "sections", path), sectionsPath)
        if sections.isEmpty { throw ImportProblem(.noSteps, at: sectionsPath) }
        var points: [GeoPoint] = []
        var steps: [RouteImporter.Step] = []
        var warnings: [ImportWarning] = []
        var sectionMeters = 0.0
        for (s, section) in sections.enumerated() {
            let sPath = sectionsPath + "[\(s)]"
            guard case .object = section.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: sPath) }
            if let d = section["distance"] { sectionMeters += try distance(d, JSONPath.join(sPath, "distance")) }
            // Asked with `summary=true`, a section has neither roads nor guides.
            if section["roads"] == nil, section["guides"] == nil { throw ImportProblem(.kakaoSummaryOnly, at: sPath) }
            guard let roadList = section["roads"] else {
                throw ImportProblem(.noSteps, at: JSONPath.join(sPath, "roads"))
            }
            guard let guideList = section["guides"] else {
                throw ImportProblem(.noSteps, at: JSONPath.join(sPath, "guides"))
            }
            let roadsPath = JSONPath.join(sPath, "roads")
            let guidesPath = JSONPath.join(sPath, "guides")
            let roads = try array(roadList, roadsPath)
            let guides = try array(guideList, guidesPath)
            if roads.isEmpty { throw ImportProblem(.noSteps, at: roadsPath) }
            if guides.isEmpty { throw ImportProblem(.noSteps, at: guidesPath) }
            // Each road's first vertex in the joined line, its name, and whether it is a motorway.
            var roadSteps: [(index: Int, step: RouteImporter.Step)] = []
            var roadFirst: [Int] = []
            var roadNames: [String?] = []
            var motorway: [Bool] = []
            for (r, road) in roads.enumerated() {
                let rPath = roadsPath + "[\(r)]"
                guard case .object = road.kind else {
                    throw ImportProblem(.wrongType(expected: "an object"), at: rPath)
                }
                let vPath = JSONPath.join(rPath, "vertexes")
                let flat = try array(try member(road, "vertexes", rPath), vPath)
                guard flat.count >= 2, flat.count % 2 == 0 else {
                    throw ImportProblem(.wrongType(expected: "[x, y, …]: longitude, latitude pairs"), at: vPath)
                }
                var first = -1
                for k in stride(from: 0, to: flat.count, by: 2) {
                    let x = try number(flat[k], JSONPath.join(vPath, k))
                    let y = try number(flat[k + 1], JSONPath.join(vPath, k + 1))
                    for (value, at) in [(x, k), (y, k + 1)] where abs(value) > RouteImporter.projectedBeyond {
                        throw ImportProblem(
                            .projectedCoordinates(value: RouteImporter.whole(value)), at: JSONPath.join(vPath, at))
                    }
                    guard abs(y) <= 90 else {
                        throw ImportProblem(.coordinateOutOfRange, at: JSONPath.join(vPath, k + 1))
                    }
                    guard abs(x) <= 180 else {
                        throw ImportProblem(.coordinateOutOfRange, at: JSONPath.join(vPath, k))
                    }
                    let p = GeoPoint(latitude: y, longitude: x)
                    // A road begins where the one before ends: that point once.
                    if points.last != p { points.append(p) }
                    if first < 0 { first = points.count - 1 }
                }
                let name = try string(road, "name", rPath)
                let meters = try distance(try member(road, "distance", rPath), JSONPath.join(rPath, "distance"))
                let seconds = try distance(try member(road, "duration", rPath), JSONPath.join(rPath, "duration"))
                roadFirst.append(first)
                roadNames.append(name)
                motorway.append(
                    name.map { ["고속", "자동차전용"].contains(where: $0.contains) } ?? false
                        || (seconds > 0 && meters / seconds * 3.6 >= 80))
                roadSteps.append(
                    (
                        first,
                        RouteImporter.Step(
                            path: rPath, leg: s, index: r, lastOfLeg: false, type: "speed", modifier: nil, exit: nil,
                            location: points[first],
                            name: name, ref: nil, destinations: nil, exits: nil, drivingSide: nil, distance: meters,
                            duration: seconds, voice: [],
                            keys: .kakao, speedOnly: true)
                    ))
            }
            let neighbours = RouteImporter.Neighbours(points)
            var guideSteps: [(index: Int, step: RouteImporter.Step)] = []
            for (g, guide) in guides.enumerated() {
                let gPath = guidesPath + "[\(g)]"
                guard case .object = guide.kind else {
                    throw ImportProblem(.wrongType(expected: "an object"), at: gPath)
                }
                let code = try integer(try member(guide, "type", gPath), JSONPath.join(gPath, "type"))
                let rPath = JSONPath.join(gPath, "road_index")
                let roadIndex = try integer(try member(guide, "road_index", gPath), rPath)
                // The guide sits at the first vertex of its road; -1 is the section's end.
                guard roadIndex == -1 || (0..<roads.count).contains(roadIndex) else {
                    throw ImportProblem(.shapeIndexOutOfRange(index: roadIndex, count: roads.count), at: rPath)
                }
                let at = roadIndex == -1 ? points.count - 1 : roadFirst[roadIndex]
                let guidance = try string(guide, "guidance", gPath) ?? ""
                let name = try string(guide, "name", gPath)
                let last = g == guides.count - 1
                var kind: RouteImporter.KakaoKind
                if g == 0 {
                    // The origin, or the waypoint repeated at the start of the next section: the leg's departure.
                    kind = RouteImporter.KakaoKind(type: "depart", modifier: nil)
                } else if last {
                    kind = RouteImporter.KakaoKind(type: "arrive", modifier: nil)
                } else {
                    kind = RouteImporter.kakaoKind(
                        code: code, guidance: guidance, name: name ?? "",
                        motorway: roadIndex > 0 ? motorway[roadIndex - 1] : false)
                }
                var step = RouteImporter.Step(
                    path: gPath, leg: s, index: g, lastOfLeg: last, type: kind.type,
                    modifier: kind.modifier, exit: kind.exit, location: points[at],
                    name: roadIndex >= 0 ? roadNames[roadIndex] : nil, ref: nil,
                    destinations: RouteImporter.kakaoDestinations(
                        guidance, name: name, street: roadIndex >= 0 ? roadNames[roadIndex] : nil),
                    exits: nil, drivingSide: nil,
                    bearings: RouteImporter.bearings(at: at, points, neighbours), distance: 0, duration: 0, voice: [],
                    mode: kind.ferry ? "ferry" : "driving", keys: .kakao)
                if kind.unknown {
                    let kept =
                        RouteImporter.goesStraightOn(step)
                        ? "no maneuver" : RouteImporter.plainTurn(kind.modifier).rawValue
                    warnings.append(
                        ImportWarning(.unknownGuideType(code, keptAs: kept), at: JSONPath.join(gPath, "type")))
                }
                if let name, step.type == "on ramp" || step.type == "off ramp" { step.exitName = name }
                // Kakao's words for the guide, shown with no distance: compared by `run --prompts`.
                if g > 0, !guidance.isEmpty { step.display = String(guidance.prefix(RouteImporter.promptCharacters)) }
                guideSteps.append((at, step))
            }
            // Roads and guides in route order, a guide before the road that starts at it; the roads
            // after a ferry guide (up to the next guide) sail, so the crossing waits at the terminal.
            var r = 0
            var g = 0
            var sailing = false
            while r < roadSteps.count || g < guideSteps.count {
                if g == guideSteps.count || (r < roadSteps.count && roadSteps[r].index < guideSteps[g].index) {
                    var road = roadSteps[r].step
                    if sailing { road.mode = "ferry" }
                    steps.append(road)
                    r += 1
                } else {
                    sailing = guideSteps[g].step.mode == "ferry"
                    steps.append(guideSteps[g].step)
                    g += 1
                }
            }
        }
        var total = sectionMeters
        var seconds: Double? = nil
        if let summary = route["summary"] {
            let sPath = JSONPath.join(path, "summary")
            if let v = summary["distance"] { total = try distance(v, JSONPath.join(sPath, "distance")) }
            if let v = summary["duration"] { seconds = try distance(v, JSONPath.join(sPath, "duration")) }
        }
        if total == 0 { total = steps.reduce(0) { $0 + ($1.speedOnly ? $1.distance : 0) } }
        return try native(
            steps, points: points, precision: nil, total: total, seconds: seconds, geometryPath: sectionsPath,
            options: options, warnings: warnings)
    }
}
