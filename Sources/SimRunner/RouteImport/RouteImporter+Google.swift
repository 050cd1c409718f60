import Guidance
import Road
import ScenarioFormat
import SimClock

/// Google's Routes API v2 (`computeRoutes`: `routes[].legs[].steps[]` with
/// `navigationInstruction`, durations as `"102s"`) and its legacy Directions
/// API (`status`, `routes[].legs[].steps[]` with `html_instructions` and
/// `maneuver` on some), read into the steps the OSRM reader makes
/// (docs/import.md, "Google").
extension RouteImporter {
    /// One Google or Apple step as read, before it is made a `Step`: its
    /// maneuver in Routes v2's spelling (`TURN_LEFT`; legacy's `turn-left`
    /// is respelled; `fromGeometry` for Apple, which sends none), its
    /// text's first line, the line after it (the destination's side), its
    /// own line, distance and duration.
    struct ServiceStep {
        var path: String
        var maneuver: String?
        var text: String
        var side: String?
        var points: [GeoPoint]
        var distance: Double
        var duration: Double
        /// Its text with legacy's bold runs marked (`markedText`), nil for plain text.
        var marked: String? = nil
        /// Its number in the service's own list (Apple's `steps[k]`), when the maneuver is named by it.
        var number: Int? = nil
    }

    /// What a service calls a step going straight on, for its warning: its
    /// own code ("STRAIGHT step", legacy's "\"straight\" step"), a step
    /// without one, or Apple's step whose line does not turn.
    static func straightTerm(_ maneuver: String?, keys: StepKeys) -> String {
        if maneuver == fromGeometry { return "step whose line turns less than 30° (Apple sends no maneuver)" }
        let legacy = keys.type == StepKeys.googleLegacy.type
        guard let maneuver else { return legacy ? "step without a maneuver" : "step without a navigationInstruction" }
        return legacy
            ? "\"" + String(maneuver.lowercased().map { $0 == "_" ? "-" : $0 }) + "\" step" : maneuver + " step"
    }

    /// A legacy `maneuver` (`turn-slight-left`) in Routes v2's spelling (`TURN_SLIGHT_LEFT`).
    static func googleManeuver(legacy: String) -> String {
        String(legacy.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// A step's text without its HTML tags (`html_instructions`), its `<div>` (the destination's side) apart.
    static func plainText(html: String) -> (text: String, div: String?) { htmlText(html, marks: false) }

    /// A step's text without its `<div>` and its tags, each `<b>` run (a
    /// name, as Google gives it) between `boldOpen` and `boldClose`.
    static func markedText(html: String) -> String { htmlText(html, marks: true).text }

    static func htmlText(_ html: String, marks: Bool) -> (text: String, div: String?) {
        var text = ""
        var div: String? = nil
        var inDiv = false
        var tag = ""
        var inTag = false
        for c in html {
            if inTag {
                if c == ">" {
                    inTag = false
                    let name = tag.lowercased()
                    if name.hasPrefix("div") {
                        inDiv = true
                        div = div ?? ""
                    }
                    if name.hasPrefix("/div") { inDiv = false }
                    // A tag between words keeps them apart.
                    if name.hasPrefix("div") || name.hasPrefix("/div") || name.hasPrefix("br") {
                        if inDiv { div! += " " } else { text += " " }
                    }
                    if marks, !inDiv, name == "b" { text.append(boldOpen) }
                    if marks, !inDiv, name == "/b" { text.append(boldClose) }
                } else {
                    tag.append(c)
                }
            } else if c == "<" {
                inTag = true
                tag = ""
            } else if inDiv {
                div!.append(c)
            } else {
                text.append(c)
            }
        }
        func tidy(_ s: String) -> String {
            s.replacingEntities().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        return (tidy(text), div.map(tidy).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The side a destination line names in `words`' language
    /// ("Destination will be on the right", "목적지는 오른쪽에 있습니다"):
    /// only a sentence that names the destination, and only one side (never
    /// "Turn right onto …", nor "Pass by X (on the right)").
    static func destinationSide(_ line: String?, _ words: Words = english) -> String? {
        guard let line else { return nil }
        let sentences = line.lowercased().split(whereSeparator: { ".\n。".contains($0) })
        for s in sentences where words.destination.contains(where: { s.contains($0.lowercased()) }) {
            let left = words.left.contains { s.contains($0.lowercased()) }
            let right = words.right.contains { s.contains($0.lowercased()) }
            if left != right { return left ? "left" : "right" }
            if words.ahead.contains(where: { s.contains($0.lowercased()) }) { return "straight" }
        }
        return nil
    }

    /// The street an instruction names (`reading`), in the language its words tell.
    static func instructionStreet(_ text: String) -> String? { reading(text, words(for: [text])).street }

    /// A roundabout's exit an instruction counts in `words`' language
    /// ("take the 2nd exit", "third exit", "2번째 출구"), 1 to 12; nil for none.
    static func instructionExit(_ text: String, _ words: Words = english) -> Int? {
        let lower = text.lowercased()
        // The longest phrase said wins: "décima primeira saída" is the eleventh, not the "primeira saída".
        var said: (length: Int, exit: Int)? = nil
        for (i, w) in words.ordinalWords.enumerated()
        where lower.contains(w.lowercased()) && w.count > (said?.length ?? 0) {
            said = (w.count, i % ManeuverDetails.exits + 1)
        }
        if let said { return said.exit }
        for n in (1...ManeuverDetails.exits).reversed() {
            let suffix = n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th"
            for form in words.ordinalForms {
                let said = form.replacing("#ord", with: "\(n)\(suffix)").replacing("#", with: "\(n)").lowercased()
                // "12th exit" is not read as a "2th exit": the number starts where a word does.
                guard let r = lower.firstRange(of: said) else { continue }
                if r.lowerBound == lower.startIndex || !lower[lower.index(before: r.lowerBound)].isNumber { return n }
            }
        }
        return nil
    }

    /// The least speed, km/h, of the step before a ramp at which the ramp
    /// leaves a motorway (off) rather than joins one (on): Google's `RAMP_*`
    /// does not say which.
    static let motorwayKmh = 60.0

    /// The change of heading under this, degrees, is a lane keep: Google
    /// sends keeps as `TURN_LEFT`/`TURN_RIGHT` at about 0°.
    static let laneKeepAngle = 20.0

    /// The steps of Google's legs (each a list of `ServiceStep`, `legPaths`
    /// their paths), as the OSRM reader's: a departure at each leg's start,
    /// each step's maneuver at its start, the leg's end an arrival (a
    /// waypoint before the last, with the bearings that tell a U-turn).
    static func steps(google legs: [[ServiceStep]], legPaths: [String], keys: StepKeys, warnings: inout [ImportWarning])
        -> [Step]
    {
        var out: [Step] = []
        // The language the instructions are written in, told once by their words; words in none of them, said so.
        let texts = legs.flatMap { $0.map(\.text) }.filter { !$0.isEmpty }
        let (words, told) = told(texts)
        if !told, let first = legs.joined().first(where: { !$0.text.isEmpty }) {
            warnings.append(ImportWarning(.wordsNotRead, at: JSONPath.join(first.path, textKey(keys))))
        }
        let legacy = keys.type == StepKeys.googleLegacy.type
        for (l, leg) in legs.enumerated() {
            // Whether the route is on a motorway by the steps' sequence: after a merge or an on-ramp, before any turn.
            var onMotorway = false
            for (j, g) in leg.enumerated() {
                guard let location = g.points.first else { continue }
                let read = reading(g.marked ?? g.text, words)
                let before = j > 0 ? leg[j - 1] : nil
                var type = "new name"
                var modifier: String? = "straight"
                var exit: Int? = nil
                var mode = "driving"
                // The turn the line makes where the step begins, over the step before's line and its own.
                let joined = (before?.points ?? []) + g.points
                let at = before?.points.count ?? 0
                // O(the two steps' points).
                let angle = at > 0 && at < joined.count ? turnAngle(at: at, joined, Neighbours(joined)) : nil
                switch g.maneuver {
                case _ where j == 0:
                    type = "depart"
                    modifier = nil
                case "TURN_SLIGHT_LEFT":
                    type = "turn"
                    modifier = "slight left"
                case "TURN_SHARP_LEFT":
                    type = "turn"
                    modifier = "sharp left"
                case "TURN_SLIGHT_RIGHT":
                    type = "turn"
                    modifier = "slight right"
                case "TURN_SHARP_RIGHT":
                    type = "turn"
                    modifier = "sharp right"
                case "TURN_LEFT", "TURN_RIGHT", "KEEP_LEFT", "KEEP_RIGHT":
                    let side = g.maneuver!.hasSuffix("LEFT") ? "left" : "right"
                    // A lane keep Routes v2 sends as a turn: the geometry overrules the enum, where the line
                    // bends less than 20° both at the step's start and over its first 100 m (a turn 47 m in is
                    // a turn). Legacy has its own keep codes: its explicit turn is a turn.
                    let extent = extentAngle(before?.points ?? [], g.points, reach: turnExtent)
                    let lane =
                        !legacy && angle.map { abs($0) < laneKeepAngle } == true
                        && extent.map { abs($0) < laneKeepAngle } != false
                    let keep = g.maneuver!.hasPrefix("KEEP") || lane
                    (type, modifier) = keep ? ("continue", "slight " + side) : ("turn", side)
                case "UTURN_LEFT", "UTURN_RIGHT":
                    type = "turn"
                    modifier = "uturn"
                case "RAMP_LEFT", "RAMP_RIGHT":
                    // RAMP_* does not say on or off: the words first ("Take exit", "Prendre la sortie", "Take the ramp onto"),
                    // then the sequence (after a merge or an on-ramp, before any turn: off), the speed before last.
                    let fast = before.map { $0.duration > 0 && $0.distance / $0.duration * 3.6 >= motorwayKmh } ?? false
                    type = rampKind(g.text, words) ?? (onMotorway || fast ? "off ramp" : "on ramp")
                    modifier = g.maneuver == "RAMP_LEFT" ? "slight left" : "slight right"
                case "MERGE":
                    type = "merge"
                    modifier = nil
                case "FORK_LEFT":
                    type = "fork"
                    modifier = "slight left"
                case "FORK_RIGHT":
                    type = "fork"
                    modifier = "slight right"
                case "FERRY", "FERRY_TRAIN":
                    type = "notification"
                    mode = "ferry"
                case "ROUNDABOUT_LEFT", "ROUNDABOUT_RIGHT":
                    type = "roundabout"
                    modifier = g.maneuver == "ROUNDABOUT_LEFT" ? "left" : "right"
                    // The ordinal said, else straight through (the second of four arms), else counted from the line.
                    exit =
                        instructionExit(g.text, words) ?? roundaboutExit(g.text, words, before?.points ?? [], g.points)
                case _
                where said(words.roundabout, in: g.text)
                    && (instructionExit(g.text, words) != nil || said(words.straightThrough, in: g.text)):
                    // A roundabout the code does not name ("At the traffic circle, continue straight"): a roundabout, never a turn.
                    type = "roundabout"
                    exit =
                        instructionExit(g.text, words) ?? roundaboutExit(g.text, words, before?.points ?? [], g.points)
                case fromGeometry?:
                    // No maneuver code (Apple): the line's turn; one its words name that bends later in the step
                    // (straight 47 m, then the turn) over its first 100 m; under 30°, a keep where the words say one.
                    let extent =
                        said(words.left + words.right, in: g.text)
                        ? extentAngle(before?.points ?? [], g.points, reach: turnExtent) : nil
                    if let turn = angle.flatMap({ turn(forAngle: $0) }) ?? extent.flatMap({ turn(forAngle: $0) }) {
                        (type, modifier) = ("turn", RouteImporter.modifier(for: turn))
                    } else if let angle, abs(angle) >= 5,
                        ["keep", "bear", "fork", "exit", "ramp", "merge", "방향", "출구"].contains(
                            where: g.text.lowercased().contains)
                    {
                        (type, modifier) = ("continue", angle > 0 ? "slight left" : "slight right")
                    }
                case nil, "MANEUVER_UNSPECIFIED", "NAME_CHANGE", "STRAIGHT", "DEPART":
                    // A step with no instruction, or a bend with no maneuver, is no maneuver.
                    break
                case let other?:
                    type = other
                    modifier = angle.flatMap { turn(forAngle: $0) }.flatMap(RouteImporter.modifier(for:))
                }
                let neighbours = Neighbours(g.points)
                // Google's names are whole: a toward list is joined for `Signs`, never split at spaces.
                let towards = read.toward.map { $0.replacing(":", with: " ") }
                var step = Step(
                    path: g.path, leg: l, index: j, lastOfLeg: false, type: type, modifier: modifier, exit: exit,
                    location: location,
                    name: read.street, ref: nil, destinations: towards.isEmpty ? nil : towards.joined(separator: ", "),
                    exits: read.exitNumber,
                    drivingSide: nil, bearings: (nil, bearings(at: 0, g.points, neighbours).after),
                    distance: g.distance, duration: g.duration,
                    voice: [], mode: mode, keys: keys,
                    display: g.text.isEmpty ? nil : String(g.text.prefix(promptCharacters)))
                step.exitName = read.exitName
                step.fromWords = true
                step.straightTerm = straightTerm(g.maneuver, keys: keys)
                switch type {
                case "merge", "on ramp": onMotorway = true
                case "new name", "continue", "fork", "notification": break
                default: onMotorway = false
                }
                if let n = g.number {
                    step.index = n
                    step.id = "s\(n)"
                }
                out.append(step)
            }
            // The leg's end: the arrival, its side from the last instruction's second line.
            guard let last = leg.last(where: { !$0.points.isEmpty }), let end = last.points.last else { continue }
            var arrival = Step(
                path: legPaths[l], leg: l, index: leg.count, lastOfLeg: true, type: "arrive",
                modifier: destinationSide(last.side, words),
                exit: nil, location: end, name: nil, ref: nil, destinations: nil, exits: nil, drivingSide: nil,
                bearings: (bearings(at: last.points.count - 1, last.points, Neighbours(last.points)).before, nil),
                distance: 0, duration: 0, voice: [], keys: keys,
                display: last.side.flatMap { $0.isEmpty ? nil : String($0.prefix(promptCharacters)) })
            // A line about the destination whose side is in no words drivesim reads: said, never guessed.
            if l == legs.count - 1, let line = last.side, arrival.modifier == nil, !line.isEmpty,
                keys.type != StepKeys.apple.type || said(words.destination, in: line)
            {
                warnings.append(
                    ImportWarning(
                        .arrivalSideNotRead(String(line.prefix(80))), at: JSONPath.join(last.path, textKey(keys))))
            }
            // No step of the service's own: not counted, and where the steps go by their numbers (Apple), named `arrive`.
            arrival.added = true
            if last.number != nil { arrival.id = "arrive" }
            out.append(arrival)
        }
        return out
    }

    /// Where a step's words are in its document: Routes v2's `navigationInstruction.instructions`,
    /// legacy's `html_instructions`, Apple's `instructions`.
    static func textKey(_ keys: StepKeys) -> String {
        keys.type == StepKeys.googleLegacy.type
            ? "html_instructions"
            : keys.type == StepKeys.google.type ? "navigationInstruction.instructions" : "instructions"
    }

    /// How far into a step its turn is measured when the start alone looks like a lane keep, meters.
    static let turnExtent = 100.0

    /// Whether `text` says any of `phrases` (letter case aside).
    static func said(_ phrases: [String], in text: String) -> Bool {
        let lower = text.lowercased()
        return phrases.contains { lower.contains($0.lowercased()) }
    }

    /// A ramp's kind by its words: `off ramp` for an exit word ("exit",
    /// "sortie", "출구"), `on ramp` for an entrance word ("ramp onto",
    /// "Auffahrt", "진입로"); nil when they say neither (or both).
    static func rampKind(_ text: String, _ words: Words) -> String? {
        let off = said(words.exitWords, in: text)
        let on = said(words.entranceWords, in: text)
        return off == on ? nil : off ? "off ramp" : "on ramp"
    }

    /// The point `meters` along `line` (its last when shorter).
    static func point(along line: [GeoPoint], _ meters: Double) -> GeoPoint? {
        guard var last = line.first else { return nil }
        var walked = 0.0
        for p in line.dropFirst() {
            let d = greatCircleDistance(last, p)
            if walked + d >= meters, d > 0 {
                let f = (meters - walked) / d
                return GeoPoint(
                    latitude: last.latitude + (p.latitude - last.latitude) * f,
                    longitude: last.longitude + (p.longitude - last.longitude) * f)
            }
            walked += d
            last = p
        }
        return last
    }

    /// The change of heading, degrees (positive left), from the last 20 m
    /// of `before` to the chord of `line`'s first `reach` meters: a turn
    /// over its real extent, not only at its first point; nil without both.
    static func extentAngle(_ before: [GeoPoint], _ line: [GeoPoint], reach: Double) -> Double? {
        guard before.count >= 2, let start = line.first, let end = point(along: line, reach), end != start,
            let back = point(along: before.reversed(), turnReach), back != start
        else { return nil }
        var change = bearing(back, start) - bearing(start, end)
        if change > 180 { change -= 360 }
        if change < -180 { change += 360 }
        return change
    }

    /// A roundabout's exit from its line when no ordinal is said: straight
    /// through is the second; else the heading 150 m in (or where the step
    /// ends) against the heading into it, as a clock hour on four arms
    /// driven anticlockwise (`roundaboutExit(clock:)`: right the first,
    /// ahead the second, left the third, back the fourth).
    static func roundaboutExit(_ text: String, _ words: Words, _ before: [GeoPoint], _ line: [GeoPoint]) -> Int? {
        if said(words.straightThrough, in: text) { return 2 }
        guard before.count >= 2, let start = line.first, let back = point(along: before.reversed(), turnReach),
            back != start,
            let end = point(along: line, roundaboutReach), let tail = point(along: line, max(0, roundaboutReach - 30)),
            end != tail
        else { return nil }
        var change = bearing(back, start) - bearing(tail, end)
        if change > 180 { change -= 360 }
        if change < -180 { change += 360 }
        let hour = ((Int((-change / 30).rounded()) % 12) + 12) % 12
        return roundaboutExit(clock: hour == 0 ? 12 : hour)
    }

    /// How far into a roundabout step its way out is measured, meters.
    static let roundaboutReach = 150.0

    /// The maneuver of a step whose kind comes from the line alone (Apple's).
    static let fromGeometry = "GEOMETRY"

    /// `lines` joined in order, the point two neighbours share once.
    /// - Complexity: O(points).
    static func joined(_ lines: [[GeoPoint]]) -> [GeoPoint] {
        var out: [GeoPoint] = []
        for line in lines { out.append(contentsOf: out.last == line.first ? Array(line.dropFirst()) : line) }
        return out
    }

    /// Whether a service's own distance texts ("0.3 mi", "500 ft") are imperial.
    static func imperial(_ texts: [String]) -> Bool {
        texts.contains { t in [" mi", " ft"].contains { t.hasSuffix($0) } }
    }
}

extension String {
    /// With the HTML entities Google writes (`&amp;`, `&nbsp;`, `&#39;`, …) as their characters.
    func replacingEntities() -> String {
        guard contains("&") else { return self }
        var s = self
        for (entity, c) in [
            ("&nbsp;", " "), ("&amp;", "&"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&lt;", "<"),
            ("&gt;", ">"),
        ] {
            s = s.replacing(entity, with: c)
        }
        return s
    }

}

extension RouteImporter.Reader {
    // MARK: Google Routes v2

    /// A Routes v2 duration (`"102s"`, `"1.5s"`), seconds.
    func googleDuration(_ v: JSONValue, _ path: String) throws(ImportProblem) -> Double {
        guard case .string(let text) = v.kind, text.hasSuffix("s"), let x = Double(text.dropLast()), x.isFinite, x >= 0
        else {
            throw ImportProblem(.wrongType(expected: "a duration in seconds (\"102s\")"), at: path)
        }
        return x
    }

    /// A Routes v2 polyline (`{"encodedPolyline": …}` at `precision`, or `{"geoJsonLinestring": …}`).
    func googlePolyline(_ v: JSONValue, _ path: String, precision: Int) throws(ImportProblem) -> [GeoPoint] {
        if let encoded = v["encodedPolyline"] {
            return try geometry(encoded, JSONPath.join(path, "encodedPolyline"), distance: 0, asked: precision).0
        }
        if let line = v["geoJsonLinestring"] {
            return try geometry(line, JSONPath.join(path, "geoJsonLinestring"), distance: 0, asked: precision).0
        }
        throw ImportProblem(.missingField("encodedPolyline"), at: path)
    }

    /// Google's Routes v2 `routes[N]` (`--route N`).
    mutating func google(_ root: JSONValue, options: RouteImporter.Options) throws(ImportProblem)
        -> RouteImporter.Imported
    {
        if let error = root["error"] {
            // `{"error": {"code": 400, "message": "…", "status": "INVALID_ARGUMENT"}}`, shown as Google said it.
            let code =
                try string(error, "status", "error") ?? error["code"].flatMap {
                    if case .number(let n) = $0.kind { n } else { nil }
                } ?? "error"
            throw ImportProblem(.serviceError(code: code, message: try string(error, "message", "error")), at: "error")
        }
        if case .object(let members) = root.kind, members.isEmpty { throw ImportProblem(.emptyAnswer, at: "") }
        let (route, path) = try chosen("routes", of: root, options)
        let precision = options.precision ?? 5
        var distanceTexts: [String] = []
        let (legs, legsPath, googleLegs, legPaths) = try serviceLegs(route, path) { step, p throws(ImportProblem) in
            let points = try googlePolyline(
                try member(step, "polyline", p), JSONPath.join(p, "polyline"), precision: precision)
            var maneuver: String? = nil
            var text = ""
            var side: String? = nil
            if let instruction = step["navigationInstruction"] {
                let iPath = JSONPath.join(p, "navigationInstruction")
                maneuver = try string(instruction, "maneuver", iPath)
                let lines = (try string(instruction, "instructions", iPath) ?? "").split(separator: "\n").map(
                    String.init)
                text = lines.first ?? ""
                side = lines.count > 1 ? lines[lines.count - 1] : nil
            }
            if let text = step["localizedValues"]?["distance"]?["text"], case .string(let t) = text.kind {
                distanceTexts.append(t)
            }
            let meters =
                try step["distanceMeters"].map { v throws(ImportProblem) in
                    try distance(v, JSONPath.join(p, "distanceMeters"))
                } ?? 0
            let seconds =
                try (step["staticDuration"] ?? step["duration"]).map { v throws(ImportProblem) in
                    try googleDuration(
                        v, JSONPath.join(p, step["staticDuration"] != nil ? "staticDuration" : "duration"))
                } ?? 0
            return RouteImporter.ServiceStep(
                path: p, maneuver: maneuver, text: text, side: side, points: points, distance: meters, duration: seconds
            )
        }
        var legLines: [[GeoPoint]] = []
        for (l, leg) in legs.enumerated() {
            legLines.append(
                try leg["polyline"].map { v throws(ImportProblem) in
                    try googlePolyline(v, legsPath + "[\(l)].polyline", precision: precision)
                } ?? [])
        }
        // The route's own line; without it, the legs' joined; without those, the steps'.
        var points: [GeoPoint] = []
        var geometryPath = JSONPath.join(path, "polyline")
        if let line = route["polyline"] {
            points = try googlePolyline(line, geometryPath, precision: precision)
        } else if legLines.allSatisfy({ !$0.isEmpty }) {
            points = RouteImporter.joined(legLines)
            geometryPath = legsPath
        } else {
            points = RouteImporter.joined(googleLegs.flatMap { $0.map(\.points) })
            geometryPath = legsPath
        }
        var warnings: [ImportWarning] = []
        let steps = RouteImporter.steps(google: googleLegs, legPaths: legPaths, keys: .google, warnings: &warnings)
        let total =
            try route["distanceMeters"].map { v throws(ImportProblem) in
                try distance(v, JSONPath.join(path, "distanceMeters"))
            }
            ?? steps.reduce(0) { $0 + $1.distance }
        let seconds = try (route["staticDuration"] ?? route["duration"]).map { v throws(ImportProblem) in
            try googleDuration(
                v, JSONPath.join(path, route["staticDuration"] != nil ? "staticDuration" : "duration"))
        }
        var options = options
        // `localizedValues` in miles make an English voice imperial.
        if options.units == nil, RouteImporter.imperial(distanceTexts) { options.units = .imperial }
        return try native(
            steps, points: points, precision: precision, total: total, seconds: seconds, geometryPath: geometryPath,
            options: options, warnings: warnings)
    }

    // MARK: Google Directions (legacy)

    /// A point as an object of two members (legacy's `{"lat", "lng"}`,
    /// Apple's `{"latitude", "longitude"}`), checked.
    func point(_ v: JSONValue, _ path: String, latitude: String, longitude: String) throws(ImportProblem) -> GeoPoint {
        let lat = try number(try member(v, latitude, path), JSONPath.join(path, latitude))
        let lon = try number(try member(v, longitude, path), JSONPath.join(path, longitude))
        guard abs(lat) <= 90 else { throw ImportProblem(.coordinateOutOfRange, at: JSONPath.join(path, latitude)) }
        guard abs(lon) <= 180 else {
            throw ImportProblem(.coordinateOutOfRange, at: JSONPath.join(path, longitude))
        }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    /// Google's `routes[N].legs[].steps[]` (Routes v2 and legacy alike), each
    /// step an object read by `read` (the step and its path), a leg without
    /// steps refused; the legs, their path, the steps read and each leg's last step's path.
    func serviceLegs(
        _ route: JSONValue, _ path: String,
        _ read: (JSONValue, String) throws(ImportProblem) -> RouteImporter.ServiceStep
    ) throws(ImportProblem) -> (
        legs: [JSONValue], path: String, steps: [[RouteImporter.ServiceStep]], lastPaths: [String]
    ) {
        let legsPath = JSONPath.join(path, "legs")
        let legs = try array(try member(route, "legs", path), legsPath)
        if legs.isEmpty { throw ImportProblem(.noSteps, at: legsPath) }
        var out: [[RouteImporter.ServiceStep]] = []
        var lastPaths: [String] = []
        for (l, leg) in legs.enumerated() {
            let legPath = legsPath + "[\(l)]"
            let stepsPath = JSONPath.join(legPath, "steps")
            let list = try array(try member(leg, "steps", legPath), stepsPath)
            if list.isEmpty { throw ImportProblem(.noSteps, at: stepsPath) }
            var steps: [RouteImporter.ServiceStep] = []
            for (j, step) in list.enumerated() {
                let p = stepsPath + "[\(j)]"
                guard case .object = step.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: p) }
                steps.append(try read(step, p))
            }
            out.append(steps)
            lastPaths.append(JSONPath.join(stepsPath, list.count - 1))
        }
        return (legs, legsPath, out, lastPaths)
    }

    /// Google's legacy Directions `routes[N]` (`--route N`).
    mutating func googleLegacy(_ root: JSONValue, options: RouteImporter.Options) throws(ImportProblem)
        -> RouteImporter.Imported
    {
        if let status = try string(root, "status", ""), status != "OK" {
            // ZERO_RESULTS, NOT_FOUND, REQUEST_DENIED, …: as Google said it, with its `error_message`.
            throw ImportProblem(
                .serviceError(code: status, message: try string(root, "error_message", "")), at: "status")
        }
        let (route, path) = try chosen("routes", of: root, options)
        let precision = options.precision ?? 5
        var distanceTexts: [String] = []
        let (legs, legsPath, googleLegs, legPaths) = try serviceLegs(route, path) { step, p throws(ImportProblem) in
            let polyline = try member(step, "polyline", p)
            var points = try geometry(
                try member(polyline, "points", JSONPath.join(p, "polyline")),
                JSONPath.join(p, "polyline.points"), distance: 0, asked: precision
            ).0
            if points.isEmpty {
                points = [
                    try point(
                        try member(step, "start_location", p), JSONPath.join(p, "start_location"), latitude: "lat",
                        longitude: "lng")
                ]
            }
            let html = try string(step, "html_instructions", p) ?? ""
            let (text, div) = RouteImporter.plainText(html: html)
            let dPath = JSONPath.join(p, "distance")
            let tPath = JSONPath.join(p, "duration")
            let meters = try distance(
                try member(try member(step, "distance", p), "value", dPath), JSONPath.join(dPath, "value"))
            if let t = try string(try member(step, "distance", p), "text", dPath) { distanceTexts.append(t) }
            let seconds =
                try step["duration"].map { v throws(ImportProblem) in
                    try distance(try member(v, "value", tPath), JSONPath.join(tPath, "value"))
                } ?? 0
            return RouteImporter.ServiceStep(
                path: p, maneuver: try string(step, "maneuver", p).map(RouteImporter.googleManeuver(legacy:)),
                text: text, side: div,
                points: points, distance: meters, duration: seconds, marked: RouteImporter.markedText(html: html))
        }
        // The steps' lines joined: `overview_polyline` is smoothed, its maneuvers off it.
        let points = RouteImporter.joined(googleLegs.flatMap { $0.map(\.points) })
        var warnings: [ImportWarning] = []
        let steps = RouteImporter.steps(
            google: googleLegs, legPaths: legPaths, keys: .googleLegacy, warnings: &warnings)
        var total = 0.0
        var seconds = 0.0
        for (l, leg) in legs.enumerated() {
            let legPath = legsPath + "[\(l)]"
            if let d = leg["distance"]?["value"] {
                total += try distance(d, JSONPath.join(legPath, "distance.value"))
            }
            if let t = leg["duration"]?["value"] {
                seconds += try distance(t, JSONPath.join(legPath, "duration.value"))
            }
        }
        if total == 0 { total = steps.reduce(0) { $0 + $1.distance } }
        var options = options
        if options.units == nil, RouteImporter.imperial(distanceTexts) { options.units = .imperial }
        return try native(
            steps, points: points, precision: precision, total: total, seconds: seconds > 0 ? seconds : nil,
            geometryPath: legsPath, options: options, warnings: warnings)
    }
}
