import Road

/// Google's encoded polyline algorithm (the format of OSRM's `polyline`,
/// `polyline6` and Valhalla's shape): each coordinate the signed difference
/// to the previous one, times 10^precision, in 5-bit chunks offset by 63.
package enum Polyline {
    /// The most 5-bit chunks one value may take: 7 chunks hold 35 bits, more
    /// than any latitude or longitude needs at precision 6 (±180e6 < 2^29).
    static let maxChunks = 7

    /// The points of `text` as (latitude, longitude) in whole units of
    /// 10^-precision degrees; `offset` of the first bad character on failure.
    package static func decode(_ text: String) -> Result<[(lat: Int64, lon: Int64)], PolylineError> {
        let bytes = Array(text.utf8)
        var i = 0
        var lat: Int64 = 0
        var lon: Int64 = 0
        var out: [(lat: Int64, lon: Int64)] = []
        func value() -> Int64? {
            var result: Int64 = 0
            var shift: Int64 = 0
            var chunks = 0
            while i < bytes.count {
                let c = Int64(bytes[i])
                guard c >= 63, c <= 126, chunks < maxChunks else { return nil }
                i += 1
                chunks += 1
                let b = c - 63
                result |= (b & 0x1F) << shift
                shift += 5
                if b < 0x20 { return (result & 1) != 0 ? ~(result >> 1) : result >> 1 }
            }
            return nil
        }
        while i < bytes.count {
            let start = i
            guard let dLat = value() else { return .failure(PolylineError(offset: i < bytes.count ? i : start)) }
            guard i < bytes.count, let dLon = value() else {
                return .failure(PolylineError(offset: min(i, bytes.count)))
            }
            // Each delta is below 2^35 and there are fewer than 2^28 of them in
            // a 64 MiB file, so the sums stay far inside Int64.
            lat += dLat
            lon += dLon
            out.append((lat, lon))
        }
        return .success(out)
    }

    /// `points` encoded at `precision` (5 or 6): what `decode` reads back,
    /// each coordinate rounded to the precision.
    /// - Complexity: O(n).
    package static func encode(_ points: [GeoPoint], precision: Int) -> String {
        let scale = precision == 6 ? 1e6 : 1e5
        var out: [UInt8] = []
        var lat: Int64 = 0
        var lon: Int64 = 0
        func put(_ delta: Int64) {
            var v = delta < 0 ? ~(delta << 1) : delta << 1
            while v >= 0x20 {
                out.append(UInt8((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            }
            out.append(UInt8(v + 63))
        }
        for p in points {
            let a = Int64((p.latitude * scale).rounded())
            let b = Int64((p.longitude * scale).rounded())
            put(a - lat)
            put(b - lon)
            lat = a
            lon = b
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether every point is a latitude and longitude at `precision`.
    static func plausible(_ points: [(lat: Int64, lon: Int64)], precision: Int) -> Bool {
        let scale: Int64 = precision == 6 ? 1_000_000 : 100_000
        return !points.isEmpty && points.allSatisfy { abs($0.lat) <= 90 * scale && abs($0.lon) <= 180 * scale }
    }
}

/// Where an encoded polyline stops decoding (0-based character offset).
package struct PolylineError: Error, Sendable, Equatable {
    /// The offset of the bad or missing character.
    package var offset: Int
}
