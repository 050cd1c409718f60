import Foundation
import Road
import ScenarioFormat
import SimRunner

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A GPX file read into the road section's recorded-fix form: each
/// `<trkpt lat lon><time>` becomes a fix whose `at` (and `arrives`) is its
/// timestamp in seconds after the first kept point's, exact to the
/// millisecond, with `speed`, `course` and `accuracy` from `<speed>`,
/// `<course>` and `<hdop>`. Points that cannot be used are skipped and
/// listed; what would make the whole file wrong is refused.
package enum GPXTrack {
    /// Why a file is not a usable GPX track: the whole import is refused.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// The bytes are not UTF-8 (checked before the XML parser sees them); `offset` of the first bad byte.
        case notUTF8(offset: Int)
        /// A processing instruction (`<?…?>`) other than the XML declaration at
        /// the start, at `line`: GPX has none, and FoundationXML crashes on one without data.
        case processingInstruction(line: Int)
        /// The XML parser cannot read the document: `reason` in words, at `line` (from 1).
        case notXML(line: Int, reason: String)
        /// The document ends before its root element closes.
        case truncated
        /// The root element is not `<gpx>`.
        case notGPX(root: String)
        /// The file has no `<trkpt>` at all.
        case noTrackPoints
        /// Every track point was skipped (`skipped` of them, listed in the track's `skipped`).
        case nothingUsable(skipped: [Skip])
        /// Track point `index` (from 0) has a well-formed time that does not exist: Feb 31, month 13, 25:00.
        case impossibleDate(index: Int, time: String)
        /// Track point `index` has a time without a zone (`Z` or `±hh:mm`) and `--assume-utc` was not given.
        case noZone(index: Int, time: String)
        /// Track point `index` has digits below the millisecond and `--round` was not given.
        case subMillisecond(index: Int, time: String)
        /// The kept points span more than 24 hours (`milliseconds` from first to last).
        case tooLong(milliseconds: Int64)
        /// `--from`/`--to` (`option`) is neither seconds nor a time with its zone.
        case unreadableCut(option: String, value: String)
        /// No kept point lies between `--from` and `--to`.
        case nothingInCut
        /// `--road` was asked for but the file has no `<rte>` of at least two `<rtept>`.
        case noRoute

        package var description: String {
            switch self {
            case .notUTF8(let offset): return "not a GPX file: not UTF-8 (byte \(offset))"
            case .processingInstruction(let line):
                return
                    "not a GPX file: a processing instruction (<?…?>) at line \(line); GPX has only the XML declaration"
            case .truncated: return "the GPX file is truncated: it ends before </gpx>"
            case .notXML(let line, let why): return "not a GPX file: the XML cannot be read at line \(line): \(why)"
            case .notGPX(let root): return "not a GPX file: the root element is <\(root)>, not <gpx>"
            case .noTrackPoints: return "the GPX file has no track points (<trkpt>)"
            case .nothingUsable(let skipped):
                return "no usable track point: all \(skipped.count) were skipped"
                    + (skipped.first.map { " (the first: \($0))" } ?? "")
            case .impossibleDate(let i, let t):
                return "track point \(i): <time> \"\(t)\" is a date or time that does not exist"
            case .noZone(let i, let t):
                return
                    "track point \(i): <time> \"\(t)\" has no zone (Z or +hh:mm); --assume-utc reads such times as UTC"
            case .subMillisecond(let i, let t):
                return
                    "track point \(i): <time> \"\(t)\" has digits below the millisecond; --round rounds them to the nearest millisecond"
            case .tooLong(let ms):
                return
                    "the track lasts \(Seconds.literal(milliseconds: ms)) s, more than 24 hours; cut it with --from and --to"
                    + " (seconds after the first point, or times such as 2024-05-01T09:00:00Z)"
            case .unreadableCut(let option, let value):
                return "'\(option)' takes seconds after the first point (like 12.5) or a time with its zone"
                    + " (like 2024-05-01T09:00:00Z), not '\(value)'"
            case .nothingInCut: return "no track point lies between --from and --to"
            case .noRoute: return "--road needs a route: the GPX file has no <rte> with at least two <rtept>"
            }
        }
    }

    /// Why one track point was skipped, or one of its values left out.
    package enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The point has no `<time>`.
        case noTime
        /// The `<time>` text is not an ISO 8601 date and time.
        case unreadableTime(String)
        /// `lat` or `lon` is missing, not a number, or out of range.
        case badPosition
        /// The point's time is before the previous kept point's.
        case timeBackwards
        /// The point lies before `--from` or after `--to` (not reported as skipped).
        case outsideCut
        /// A `<speed>`, `<course>` or `<hdop>` (`element`) is unreadable or out of range: left out, the point kept.
        case valueLeftOut(element: String, text: String)

        package var description: String {
            switch self {
            case .noTime: return "no <time>"
            case .unreadableTime(let t): return "unreadable <time> \"\(t)\""
            case .badPosition: return "lat and lon must be numbers in range"
            case .timeBackwards: return "its time is before the previous point's"
            case .outsideCut: return "outside --from/--to"
            case .valueLeftOut(let e, let t): return "<\(e)> \"\(t)\" is unreadable or out of range: left out"
            }
        }
    }

    /// A skipped point (or a value left out): its index among the file's track points, from 0, and why.
    package struct Skip: Equatable, Sendable, CustomStringConvertible {
        /// The point's index among all `<trkpt>` of the file, from 0.
        package var index: Int
        /// Why.
        package var reason: Reason
        /// `track point 3: no <time>`.
        package var description: String { "track point \(index): \(reason)" }
    }

    /// One track point.
    package struct Point: Equatable, Sendable {
        /// Degrees north.
        package var latitude: Double
        /// Degrees east.
        package var longitude: Double
        /// Milliseconds since 1970 (UTC).
        package var epochMs: Int64
        /// `<speed>` in m/s (GPX 1.0, or an extension's `speed`), when readable and in 0...150.
        package var speed: Double? = nil
        /// `<course>` in degrees, 0..<360 (360 reads as 0).
        package var course: Double? = nil
        /// `<hdop>`, when readable and not negative.
        package var hdop: Double? = nil
        /// Which `<trkseg>` of the file the point is in, from 0.
        package var segment: Int = 0
        /// The point's index among all `<trkpt>` of the file, from 0.
        package var index: Int = 0

        /// A point at a position and time.
        package init(latitude: Double, longitude: Double, epochMs: Int64) {
            self.latitude = latitude
            self.longitude = longitude
            self.epochMs = epochMs
        }
    }

    /// How strictly times are read, and which part of the track to keep.
    package struct Options: Equatable, Sendable {
        /// Read a time without a zone as UTC instead of refusing the file.
        package var assumeUTC = false
        /// Round digits below the millisecond to the nearest millisecond instead of refusing the file.
        package var round = false
        /// Keep points from this time on (inclusive).
        package var from: Cut? = nil
        /// Keep points up to this time (inclusive).
        package var to: Cut? = nil
        /// The defaults: strict, the whole track.
        package init() {}
    }

    /// One end of `--from`/`--to`.
    package enum Cut: Equatable, Sendable {
        /// Milliseconds after the first usable point's time.
        case after(milliseconds: Int64)
        /// A moment, milliseconds since 1970 (UTC).
        case at(epochMs: Int64)
    }

    /// What a GPX file gave.
    package struct Track: Equatable, Sendable {
        /// The kept track points, in order; never empty.
        package var points: [Point]
        /// The track points skipped, in file order.
        package var skipped: [Skip]
        /// Values left out of kept points (their point kept).
        package var leftOut: [Skip]
        /// The points of the file's first `<rte>` (`<rtept lat lon>` in range), as (latitude, longitude).
        package var route: [GeoPoint]
        /// How many points `--from`/`--to` left out.
        package var cut: Int
    }

    /// The longest track kept: 24 hours.
    package static let maxDurationMs: Int64 = 24 * 3_600_000

    /// Reads the track points of a GPX document with the default options.
    package static func points(_ bytes: [UInt8]) throws(Problem) -> [Point] {
        try read(bytes).points
    }

    /// Reads a GPX document. The bytes must be UTF-8 (FoundationXML is not
    /// given anything else: invalid UTF-8 in an element name crashes it) and
    /// the document complete.
    package static func read(_ bytes: [UInt8], options: Options = Options()) throws(Problem) -> Track {
        if let offset = firstInvalidUTF8(bytes) { throw .notUTF8(offset: offset) }
        if let line = processingInstructionLine(bytes) { throw .processingInstruction(line: line) }
        let reader = Reader()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reader
        let parsed = parser.parse()
        if let root = reader.root, root != "gpx" { throw .notGPX(root: root) }
        let code = (parser.parserError as NSError?)?.code
        if !parsed { throw .notXML(line: max(1, parser.lineNumber), reason: words(forParserCode: code ?? 0)) }
        if reader.root == nil { throw .notXML(line: 1, reason: "the document is empty or has no element") }
        if !reader.closed || reader.current != nil { throw .truncated }
        // FoundationXML can report success and still set an error (content after the root, say).
        if let code { throw .notXML(line: max(1, parser.lineNumber), reason: words(forParserCode: code)) }
        guard !reader.raw.isEmpty else { throw .noTrackPoints }

        var kept: [Point] = []
        var skipped: [Skip] = []
        var leftOut: [Skip] = []
        for raw in reader.raw {
            guard let lat = raw.lat, let lon = raw.lon else {
                skipped.append(Skip(index: raw.index, reason: .badPosition))
                continue
            }
            guard let text = raw.time else {
                skipped.append(Skip(index: raw.index, reason: .noTime))
                continue
            }
            let ms: Int64
            switch time(text, assumeUTC: options.assumeUTC, round: options.round) {
            case .success(let value): ms = value
            case .failure(.malformed):
                skipped.append(Skip(index: raw.index, reason: .unreadableTime(text)))
                continue
            case .failure(.impossibleDate): throw .impossibleDate(index: raw.index, time: text)
            case .failure(.noZone): throw .noZone(index: raw.index, time: text)
            case .failure(.subMillisecond): throw .subMillisecond(index: raw.index, time: text)
            }
            if let previous = kept.last, ms < previous.epochMs {
                skipped.append(Skip(index: raw.index, reason: .timeBackwards))
                continue
            }
            var point = Point(latitude: lat, longitude: lon, epochMs: ms)
            point.segment = raw.segment
            point.index = raw.index
            if let s = raw.speed {
                if let v = Double(s), v.isFinite, v >= 0, v <= 150 {
                    point.speed = v
                } else {
                    leftOut.append(Skip(index: raw.index, reason: .valueLeftOut(element: "speed", text: s)))
                }
            }
            if let c = raw.course {
                if let v = Double(c), v.isFinite, v >= 0, v <= 360 {
                    point.course = v == 360 ? 0 : v
                } else {
                    leftOut.append(Skip(index: raw.index, reason: .valueLeftOut(element: "course", text: c)))
                }
            }
            if let h = raw.hdop {
                if let v = Double(h), v.isFinite, v >= 0 {
                    point.hdop = v
                } else {
                    leftOut.append(Skip(index: raw.index, reason: .valueLeftOut(element: "hdop", text: h)))
                }
            }
            kept.append(point)
        }
        guard let first = kept.first else { throw .nothingUsable(skipped: skipped) }

        var cut = 0
        if options.from != nil || options.to != nil {
            func moment(_ c: Cut) -> Int64 {
                switch c {
                case .after(let ms):
                    return first.epochMs.addingReportingOverflow(ms).overflow ? .max : first.epochMs + ms
                case .at(let ms): return ms
                }
            }
            let lo = options.from.map(moment) ?? .min
            let hi = options.to.map(moment) ?? .max
            let before = kept.count
            kept = kept.filter { $0.epochMs >= lo && $0.epochMs <= hi }
            cut = before - kept.count
            if kept.isEmpty { throw .nothingInCut }
        }
        let span = kept[kept.count - 1].epochMs - kept[0].epochMs
        if span > maxDurationMs { throw .tooLong(milliseconds: span) }
        return Track(points: kept, skipped: skipped, leftOut: leftOut, route: reader.route, cut: cut)
    }

    /// The XML parser's error code in words (never the number). On Linux,
    /// FoundationXML passes libxml2's own codes (`xmlParserErrors`); on
    /// Apple platforms, `XMLParser.ErrorCode`.
    package static func words(forParserCode code: Int) -> String {
        let malformed = "the XML is malformed"
        #if canImport(FoundationXML)
            switch code {
            case 1:
                return
                    "the document is beyond the XML parser's limits (a text or attribute over 10 MB, or nesting too deep)"
            case 2: return "the XML parser ran out of memory"
            case 3, 4: return "the document is empty or does not start with an element"
            case 5: return "there is content after the root element ends"
            case 6, 7, 8, 9, 10: return "a character that XML does not allow"
            case 23, 24, 26, 27: return "an entity (&name;) that is not declared or not finished"
            case 38, 39, 40, 41, 42: return "a malformed attribute"
            case 45: return "an unfinished comment"
            case 63: return "an unfinished CDATA section"
            case 68: return "a name is missing where XML needs one (a stray '<' or '&')"
            case 73: return "a tag is not closed with '>'"
            case 76: return "an end tag does not match its start tag"
            case 77: return "a tag is not finished"
            default: return malformed
            }
        #else
            switch XMLParser.ErrorCode(rawValue: code) {
            case .internalError?, .outOfMemoryError?:
                return
                    "the document is beyond the XML parser's limits (a text or attribute over 10 MB, or nesting too deep)"
            case .emptyDocumentError?, .documentStartError?:
                return "the document is empty or does not start with an element"
            case .prematureDocumentEndError?: return "the document ends too early"
            case .invalidCharacterError?, .invalidCharacterRefError?, .invalidCharacterInEntityError?:
                return "a character that XML does not allow"
            case .undeclaredEntityError?, .entityReferenceMissingSemiError?, .entityRefLoopError?:
                return "an entity (&name;) that cannot be expanded"
            case .tagNameMismatchError?: return "an end tag does not match its start tag"
            case .attributeNotStartedError?, .attributeNotFinishedError?, .attributeRedefinedError?,
                .attributeHasNoValueError?,
                .lessThanSymbolInAttributeError?:
                return "a malformed attribute"
            case .commentNotFinishedError?: return "an unfinished comment"
            case .cdataNotFinishedError?: return "an unfinished CDATA section"
            default: return malformed
            }
        #endif
    }

    /// The line (from 1) of the first `<?` that is not the XML declaration at
    /// the very start (after an optional byte order mark), or nil. FoundationXML
    /// on Linux crashes on a processing instruction without data (`<?x?>`) and
    /// on a declaration without a version (`<?xml?>`), both found by the
    /// libFuzzer target, so neither reaches it: the declaration counts only
    /// as `<?xml`, white space, then `version` before its `?>`.
    package static func processingInstructionLine(_ bytes: [UInt8]) -> Int? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let open = Array("<?xml".utf8)
        if bytes[start...].starts(with: open) {
            guard
                let close = (start..<max(start, bytes.count - 1)).first(where: {
                    bytes[$0] == UInt8(ascii: "?") && bytes[$0 + 1] == UInt8(ascii: ">")
                })
            else { return nil }
            let body = bytes[(start + open.count)..<max(start + open.count, close)]
            let spaced = body.first.map { [0x20, 0x09, 0x0D, 0x0A].contains($0) } ?? false
            let versioned = body.firstRange(of: Array("version".utf8)) != nil
            // A declaration holds no markup: a `?>` found past a `<` or `>` closes something else
            // (the libFuzzer target found `<?xml … ?$>` followed by `<?xml?>`, which crashes FoundationXML).
            let plain = !body.contains(UInt8(ascii: "<")) && !body.contains(UInt8(ascii: ">"))
            guard spaced, versioned, plain else {
                return 1 + bytes[..<start].lazy.filter { $0 == UInt8(ascii: "\n") }.count
            }
            start = close + 2
        }
        var line = 1 + bytes[..<start].lazy.filter { $0 == UInt8(ascii: "\n") }.count
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "\n") { line += 1 }
            if bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") { return line }
            i += 1
        }
        return nil
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
    package static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The accuracy written for a fix, meters: `hdop × 5`, rounded to the centimeter, at most 100 000 (the format's limit).
    package static func accuracy(hdop: Double) -> Double {
        min(100_000, (hdop * 500).rounded() / 100)
    }

    /// The road section's `fixes` value: `{"recorded": [...]}`.
    package static func recordedFixes(_ points: [Point]) -> JSONValue {
        let start = points.first?.epochMs ?? 0
        let fixes = points.map { p -> JSONValue in
            let at = JSONValue.number(Seconds.literal(milliseconds: p.epochMs - start))
            var members: [(String, JSONValue)] = [
                ("at", at), ("arrives", at), ("lat", .number(String(p.latitude))),
                ("lon", .number(String(p.longitude))),
            ]
            if let h = p.hdop { members.append(("accuracy", .number(String(accuracy(hdop: h))))) }
            if let c = p.course { members.append(("course", .number(String(c)))) }
            if let s = p.speed { members.append(("speed", .number(String(s)))) }
            return .object(members)
        }
        return .object([("recorded", .array(fixes))])
    }

    /// A road section's `route` and `fixes`: `{"fixes": {"recorded": [...]}, "route": {"points": [...]}}`.
    package static func roadSection(_ track: Track) -> JSONValue {
        let points = track.route.map { p -> JSONValue in
            .object([("lat", .number(String(p.latitude))), ("lon", .number(String(p.longitude)))])
        }
        return .object([("fixes", recordedFixes(track.points)), ("route", .object([("points", .array(points))]))])
    }

    /// Why a time is not read.
    package enum TimeProblem: Error, Equatable {
        /// Not `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]`.
        case malformed
        /// A day that does not exist.
        case impossibleDate
        /// No zone, and UTC not assumed.
        case noZone
        /// Digits below the millisecond, and rounding not asked for.
        case subMillisecond
    }

    /// `2024-05-01T09:00:00Z`, `…:00.250Z` or `…:00+09:00` as milliseconds since 1970; nil for anything else.
    package static func epochMs(_ text: String) -> Int64? {
        try? time(text, assumeUTC: false, round: false).get()
    }

    /// An ISO 8601 time as milliseconds since 1970, or why not.
    package static func time(_ text: String, assumeUTC: Bool, round: Bool) -> Result<Int64, TimeProblem> {
        let s = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= s.count else { return nil }
            var n: Int64 = 0
            for c in s[range] {
                guard c >= 48 && c <= 57 else { return nil }
                n = n * 10 + Int64(c - 48)
            }
            return n
        }
        guard s.count >= 19, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"), s[10] == UInt8(ascii: "T"),
            s[13] == UInt8(ascii: ":"), s[16] == UInt8(ascii: ":"),
            let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
            let h = number(11..<13), let mi = number(14..<16), let sec = number(17..<19)
        else { return .failure(.malformed) }
        var i = 19
        var ms: Int64 = 0
        var belowMs = false
        if i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            var scale: Int64 = 100
            while i < s.count, s[i] >= 48, s[i] <= 57 {
                let digit = Int64(s[i] - 48)
                if i - start < 3 {
                    ms += digit * scale
                    scale /= 10
                } else if i - start == 3 {
                    if digit >= 5 { ms += 1 }  // round half up, on the first digit below the millisecond
                    if digit != 0 { belowMs = true }
                } else if digit != 0 {
                    belowMs = true
                }
                i += 1
            }
            if i == start { return .failure(.malformed) }
        }
        var offset: Int64 = 0
        var zoned = false
        if i < s.count, s[i] == UInt8(ascii: "Z") {
            i += 1
            zoned = true
        } else if i + 6 == s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-"),
            s[i + 3] == UInt8(ascii: ":"),
            let oh = number(i + 1..<i + 3), let om = number(i + 4..<i + 6), oh < 24, om < 60
        {
            offset = (oh * 60 + om) * 60_000 * (s[i] == UInt8(ascii: "+") ? 1 : -1)
            i += 6
            zoned = true
        }
        guard i == s.count else { return .failure(.malformed) }
        // A well-formed time naming a moment that does not exist (Feb 31, month 13, 25:00) refuses the file.
        guard (1...12).contains(mo), d >= 1, d <= daysIn(month: mo, year: y), h < 24, mi < 60, sec < 61 else {
            return .failure(.impossibleDate)
        }
        if !zoned && !assumeUTC { return .failure(.noZone) }
        if belowMs && !round { return .failure(.subMillisecond) }
        // Days from the civil date (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return .success(((days * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms - offset)
    }

    /// The days of month `mo` (1...12) in year `y` (Gregorian).
    package static func daysIn(month mo: Int64, year y: Int64) -> Int64 {
        switch mo {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// One `<trkpt>` as written, before it is judged.
    package struct RawPoint {
        var index: Int
        var segment: Int
        var lat: Double?
        var lon: Double?
        var time: String? = nil
        var speed: String? = nil
        var course: String? = nil
        var hdop: String? = nil
    }

    /// The XML delegate: collects `<trkpt>` with their `<time>`, `<speed>`,
    /// `<course>` and `<hdop>` (also inside `<extensions>`, by local name,
    /// e.g. Garmin's `gpxtpx:speed`), and the first `<rte>`'s `<rtept>`.
    final class Reader: NSObject, XMLParserDelegate {
        var root: String? = nil
        var raw: [RawPoint] = []
        var route: [GeoPoint] = []
        var current: RawPoint? = nil
        /// The element whose text is being collected, and the text.
        var collecting: String? = nil
        var text = ""
        var segment = -1
        var routes = 0
        var inRoute = false
        /// Whether the root element's end tag was read.
        var closed = false

        static func local(_ name: String) -> String { name.split(separator: ":").last.map(String.init) ?? name }

        static func coordinate(_ text: String?, limit: Double) -> Double? {
            guard let text, let v = Double(text), v.isFinite, abs(v) <= limit else { return nil }
            return v
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let local = Self.local(name)
            if root == nil {
                root = local
                if local != "gpx" { parser.abortParsing() }
                return
            }
            switch local {
            case "trkseg":
                segment += 1
            case "trkpt":
                current = RawPoint(
                    index: raw.count, segment: max(segment, 0),
                    lat: Self.coordinate(attributes["lat"], limit: 90),
                    lon: Self.coordinate(attributes["lon"], limit: 180))
            case "rte":
                routes += 1
                inRoute = routes == 1
            case "rtept":
                if inRoute, let lat = Self.coordinate(attributes["lat"], limit: 90),
                    let lon = Self.coordinate(attributes["lon"], limit: 180)
                {
                    route.append(GeoPoint(latitude: lat, longitude: lon))
                }
            case "time", "speed", "course", "hdop":
                if current != nil, collecting == nil {
                    collecting = local
                    text = ""
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if collecting != nil, text.utf8.count < 200 { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let local = Self.local(name)
            if local == collecting, current != nil {
                let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                switch local {
                case "time": if current!.time == nil { current!.time = value }
                case "speed": if current!.speed == nil { current!.speed = value }
                case "course": if current!.course == nil { current!.course = value }
                default: if current!.hdop == nil { current!.hdop = value }
                }
                collecting = nil
            }
            if local == "rte" { inRoute = false }
            if local == "gpx", current == nil { closed = true }
            if local == "trkpt", let point = current {
                raw.append(point)
                current = nil
                collecting = nil
            }
        }
    }
}
