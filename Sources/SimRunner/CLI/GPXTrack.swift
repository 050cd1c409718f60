import Foundation
import ScenarioFormat
import SimRunner
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A GPX track read into the road section's recorded-fix form: each
/// `<trkpt lat lon><time>` becomes a fix whose `at` (and `arrives`) is its
/// timestamp in seconds after the first point's, exact to the millisecond.
public enum GPXTrack {
    /// Why a file is not a usable GPX track.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The bytes are not UTF-8 (checked before the XML parser sees them); `offset` of the first bad byte.
        case notUTF8(offset: Int)
        case notXML(String)
        /// The document ends before its root element closes.
        case truncated
        case notGPX(root: String)
        case noTrackPoints
        /// Track point `index` (from 0) lacks or garbles `what`.
        case badPoint(index: Int, what: String)
        /// Track point `index` is timed before the one before it.
        case timeBackwards(index: Int)

        public var description: String {
            switch self {
            case .notUTF8(let offset): return "not a GPX file: not UTF-8 (byte \(offset))"
            case .truncated: return "the GPX file is truncated: it ends before </gpx>"
            case .notXML(let why): return "not a GPX file: the XML cannot be read (\(why))"
            case .notGPX(let root): return "not a GPX file: the root element is <\(root)>, not <gpx>"
            case .noTrackPoints: return "the GPX file has no track points (<trkpt>)"
            case .badPoint(let i, let what): return "track point \(i): \(what)"
            case .timeBackwards(let i): return "track point \(i): its time is before the previous point's"
            }
        }
    }

    /// One track point.
    public struct Point: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Milliseconds since 1970 (UTC).
        public var epochMs: Int64
    }

    /// Reads the track points of a GPX document. The bytes must be UTF-8
    /// (FoundationXML is not given anything else: invalid UTF-8 in an
    /// element name crashes it) and the document complete.
    public static func points(_ bytes: [UInt8]) throws(Problem) -> [Point] {
        if let offset = firstInvalidUTF8(bytes) { throw .notUTF8(offset: offset) }
        let reader = Reader()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reader
        let parsed = parser.parse()
        if let root = reader.root, root != "gpx" { throw .notGPX(root: root) }
        if let problem = reader.problem { throw problem }
        if !parsed { throw .notXML(parser.parserError.map { "\($0.localizedDescription)" } ?? "malformed") }
        if !reader.closed || reader.current != nil { throw .truncated }
        guard !reader.points.isEmpty else { throw .noTrackPoints }
        for i in reader.points.indices.dropFirst() where reader.points[i].epochMs < reader.points[i - 1].epochMs {
            throw .timeBackwards(index: i)
        }
        return reader.points
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
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

    /// The road section's `fixes` value: `{"recorded": [...]}`.
    package static func recordedFixes(_ points: [Point]) -> JSONValue {
        let start = points.first?.epochMs ?? 0
        let fixes = points.map { p -> JSONValue in
            let at = JSONValue.number(Seconds.literal(milliseconds: p.epochMs - start))
            return .object([
                ("at", at), ("arrives", at), ("lat", .number(String(p.latitude))), ("lon", .number(String(p.longitude))),
            ])
        }
        return .object([("recorded", .array(fixes))])
    }

    /// `2024-05-01T09:00:00Z`, `…:00.250Z` or `…:00+09:00` as milliseconds since 1970.
    static func epochMs(_ text: String) -> Int64? {
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
              let h = number(11..<13), let mi = number(14..<16), let sec = number(17..<19),
              (1...12).contains(mo), (1...daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, sec < 61
        else { return nil }
        var i = 19
        var ms: Int64 = 0
        if i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            var scale: Int64 = 100
            while i < s.count, s[i] >= 48, s[i] <= 57 {
                ms += Int64(s[i] - 48) * scale
                scale /= 10
                i += 1
            }
        }
        var offset: Int64 = 0
        if i < s.count, s[i] == UInt8(ascii: "Z") {
            i += 1
        } else if i + 6 == s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-"), s[i + 3] == UInt8(ascii: ":"),
                  let oh = number(i + 1..<i + 3), let om = number(i + 4..<i + 6) {
            offset = (oh * 60 + om) * 60_000 * (s[i] == UInt8(ascii: "+") ? 1 : -1)
            i += 6
        }
        guard i == s.count else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return ((days * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms - offset
    }

    /// The days of month `mo` (1...12) in year `y` (Gregorian).
    static func daysIn(month mo: Int64, year y: Int64) -> Int64 {
        switch mo {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The XML delegate: collects `<trkpt>` with their `<time>`.
    final class Reader: NSObject, XMLParserDelegate {
        var root: String? = nil
        var points: [Point] = []
        var problem: Problem? = nil
        var current: (lat: Double, lon: Double)? = nil
        var time: String? = nil
        var inTime = false
        /// Whether the root element's end tag was read.
        var closed = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if root == nil {
                root = local
                if local != "gpx" { parser.abortParsing() }
                return
            }
            if local == "trkpt" {
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                      abs(lat) <= 90, abs(lon) <= 180
                else {
                    problem = .badPoint(index: points.count, what: "lat and lon must be numbers in range")
                    parser.abortParsing()
                    return
                }
                current = (lat, lon)
                time = nil
            } else if local == "time", current != nil {
                inTime = true
                time = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTime { time? += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if local == "time" { inTime = false }
            if local == "gpx", current == nil { closed = true }
            if local == "trkpt", let point = current {
                guard let text = time, let ms = GPXTrack.epochMs(text) else {
                    problem = .badPoint(index: points.count, what: time == nil ? "no <time>" : "unreadable <time> \"\(time!)\"")
                    parser.abortParsing()
                    return
                }
                points.append(Point(latitude: point.lat, longitude: point.lon, epochMs: ms))
                current = nil
            }
        }
    }
}
