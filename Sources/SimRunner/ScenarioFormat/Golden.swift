import SimClock
import SimRunner

/// Golden timelines: a scenario may name a file holding the whole timeline
/// it must produce (its `--format json` text). Timelines are compared on the
/// SPEC 5 fields (`t`, `event` and `EventKind.specFields`) and on the spoken
/// words and their language (`text`, `language`), since a changed phrase is
/// changed behaviour; other extras drivesim may add later (how long a stretch
/// was held) do not break a golden file.
package enum Golden {
    /// Why a golden file cannot be used.
    package enum Failure: Error, Sendable, Equatable {
        /// Not JSON at all.
        case notJSON(line: Int, column: Int)
        /// JSON, but not a timeline; the path says where.
        case notATimeline(path: String, reason: String)
    }

    /// The extras golden files compare besides the SPEC's fields: what is said, and in which language.
    package static let comparedExtras: [Field] = [.text, .language]

    /// The fields a golden file compares for events of `kind`, in the table's order.
    package static func comparedFields(of kind: EventKind) -> [Field] {
        kind.specFields + kind.schema.extras.filter { comparedExtras.contains($0) }
    }

    /// Each event as one comparable line: its time, its name and its SPEC fields.
    ///
    ///     00:02.000  guidance.waiting  line=g1 rule=short-wait stretch=s1
    package static func lines(of timeline: Timeline) -> [String] {
        timeline.events.map { event in
            let fields = comparedFields(of: event.kind).compactMap { field in
                timeline.value(of: field, in: event).map { (field.rawValue, $0.json) }
            }
            return line(t: event.t, event: event.kind.rawValue, fields: fields)
        }
    }

    /// The comparable lines of a golden file's text.
    ///
    /// - Throws: `Golden.Failure` when the text is not a timeline.
    package static func lines(ofGolden bytes: [UInt8]) throws(Failure) -> [String] {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw .notJSON(line: error.line, column: error.column) }
        guard case .object(let members) = root.kind,
            let eventsValue = members.first(where: { $0.key == "events" })?.value,
            case .array(let items) = eventsValue.kind
        else { throw .notATimeline(path: "", reason: "expected an object with an \"events\" list") }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let path = "events[\(i)]"
            guard case .object(let fields) = item.kind else {
                throw .notATimeline(path: path, reason: "expected an object")
            }
            func member(_ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
            guard let tValue = member("t"), case .number(let literal) = tValue.kind, let ms = Int64(literal), ms >= 0
            else {
                throw .notATimeline(path: path + ".t", reason: "expected whole milliseconds")
            }
            guard let nameValue = member("event"), case .string(let name) = nameValue.kind,
                let kind = EventKind(rawValue: name)
            else { throw .notATimeline(path: path + ".event", reason: "expected an event name of SPEC 5") }
            var compared: [(String, String)] = []
            for field in comparedFields(of: kind) {
                let key = field.rawValue
                guard let value = member(key) else { continue }
                switch value.kind {
                case .string(let s): compared.append((key, JSONWriter.quoted(s)))
                case .number(let n): compared.append((key, n))
                case .bool(let b): compared.append((key, b ? "true" : "false"))
                default: throw .notATimeline(path: path + "." + key, reason: "expected a string, number or boolean")
                }
            }
            out.append(line(t: SimTime(ms: ms), event: name, fields: compared))
        }
        return out
    }

    static func line(t: SimTime, event: String, fields: [(String, String)]) -> String {
        var out = "\(t)  \(event)"
        for (name, value) in fields { out += " \(name)=\(value)" }
        return out
    }

    /// How many unchanged events a diff shows around each change.
    package static let context = 3
    /// The most edit steps the aligned diff looks for; past it, the diff
    /// shows the first differing block only (so a 24-hour timeline that
    /// differs everywhere costs O((n + m) · maxEdits) time and O(maxEdits²) memory).
    package static let maxEdits = 1_000

    /// One step of an edit script: keep a golden line, remove it, or add a line of this run.
    enum Edit: Equatable {
        case keep(golden: Int, actual: Int)
        case remove(golden: Int)
        case add(actual: Int)
    }

    /// A readable, aligned diff of two timelines' lines, or nil when they are
    /// equal: the shortest edit script (Myers' O((n + m) · d) algorithm over
    /// events, so the longest common subsequence stays aligned), `-` for an
    /// event of the golden file, `+` for one of this run, `context` unchanged
    /// events around each change, at most `limit` changed lines in all.
    package static func diff(golden: [String], actual: [String], limit: Int = 40) -> String? {
        guard golden != actual else { return nil }
        // The common prefix and suffix are kept as they are; only the middle is aligned.
        var prefix = 0
        while prefix < golden.count, prefix < actual.count, golden[prefix] == actual[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < golden.count - prefix, suffix < actual.count - prefix,
            golden[golden.count - 1 - suffix] == actual[actual.count - 1 - suffix]
        { suffix += 1 }
        let a = golden[prefix..<(golden.count - suffix)]
        let b = actual[prefix..<(actual.count - suffix)]
        var script: [Edit] = (0..<prefix).map { .keep(golden: $0, actual: $0) }
        let aligned = shortestEdit(a, b, maxEdits: maxEdits)
        if let aligned {
            script += aligned
        } else {
            script += a.indices.map { .remove(golden: $0) } + b.indices.map { .add(actual: $0) }
        }
        for k in 0..<suffix {
            script.append(.keep(golden: golden.count - suffix + k, actual: actual.count - suffix + k))
        }

        var out = "first difference at event \(prefix) (- golden, + this run"
        out += aligned == nil ? "; more than \(maxEdits) changes, shown as one block):\n" : "):\n"
        // Which steps to print: every change, and `context` kept steps either side of one.
        let changed = script.indices.filter { if case .keep = script[$0] { return false } else { return true } }
        var shown = [Bool](repeating: false, count: script.count)
        for i in changed { for j in max(0, i - context)...min(script.count - 1, i + context) { shown[j] = true } }
        var printed = 0
        var last = -1
        for i in script.indices where shown[i] {
            if printed >= limit { break }
            if last >= 0, i > last + 1 { out += "    …\n" }
            last = i
            switch script[i] {
            case .keep(let g, _): out += "    \(golden[g])\n"
            case .remove(let g):
                out += "  - \(golden[g])\n"
                printed += 1
            case .add(let n):
                out += "  + \(actual[n])\n"
                printed += 1
            }
        }
        if changed.count > printed { out += "  … \(counted(changed.count - printed, "more changed event"))\n" }
        let removed = changed.filter { if case .remove = script[$0] { return true } else { return false } }.count
        out += "golden has \(counted(golden.count, "event")), this run \(actual.count); "
        out += "\(removed) removed, \(changed.count - removed) added\n"
        return out
    }

    /// Myers' shortest edit script from `a` to `b`, or nil if it needs more than `maxEdits` steps.
    static func shortestEdit(_ a: ArraySlice<String>, _ b: ArraySlice<String>, maxEdits: Int) -> [Edit]? {
        let n = a.count
        let m = b.count
        let dMax = min(n + m, maxEdits)
        let offset = dMax + 1
        var v = [Int](repeating: 0, count: 2 * dMax + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...dMax {
            trace.append(v)
            var k = -d
            while k <= d {
                var x =
                    k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
                    ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[a.startIndex + x] == b[b.startIndex + y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
                k += 2
            }
        }
        guard found else { return nil }
        // Walk back through the saved frontiers.
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let down = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
            let prevK = down ? k + 1 : k - 1
            let prevX = d == 0 ? 0 : v[offset + prevK]
            let prevY = d == 0 ? 0 : prevX - prevK
            while x > prevX, y > prevY {
                x -= 1
                y -= 1
                edits.append(.keep(golden: a.startIndex + x, actual: b.startIndex + y))
            }
            if d > 0 {
                if down {
                    y -= 1
                    edits.append(.add(actual: b.startIndex + y))
                } else {
                    x -= 1
                    edits.append(.remove(golden: a.startIndex + x))
                }
            }
        }
        return edits.reversed()
    }
}
