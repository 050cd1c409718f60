#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The road's plane: a stereographic projection centred on an origin (the
/// route's first point). It is conformal, so at every point its scale is the
/// same in every direction, and that scale is known exactly: `scale(at:)`,
/// 1 at the origin and 1 + ρ²/4R² at ρ plane meters from it (1.006 at
/// 1,000 km, 2 at 10,000 km, the longest route). Every length the road
/// measures goes through `Line` (`meters(from:to:)`), which divides by it
/// along the line, and every displacement it draws in meters through
/// `plane(_:at:)`, which multiplies: so lengths hold at any distance from the origin (a 2,000 km route is as
/// long as the great circle says, segment by segment), not only at city
/// scale, where the scale is 1 within a millionth.
public struct LocalProjection: Sendable, Equatable {
    /// The mean earth radius (IUGG), in meters.
    public static let earthRadius = 6_371_008.8
    /// The least 1 + cos c (c the angle from the origin) projected as it
    /// is. A point nearer the origin's antipode (over 17,000 km away, far
    /// beyond any route: a stray recorded fix) is placed in its direction
    /// at the distance this gives, 1.8 × 10⁸ plane meters, so that no
    /// position is infinite or folds back near the route.
    @usableFromInline static let nearAntipode = 0.01

    /// The point at the plane's (0, 0).
    public let origin: GeoPoint
    @usableFromInline let sinLat0: Double
    @usableFromInline let cosLat0: Double

    /// A projection centred on `origin`.
    public init(origin: GeoPoint) {
        self.origin = origin
        sinLat0 = sin(origin.latitude * .pi / 180)
        cosLat0 = cos(origin.latitude * .pi / 180)
    }

    /// The point's position in plane meters east and north of the origin.
    /// The longitude difference is taken the short way round, within
    /// -180...180 degrees, so a route across the antimeridian (179.9999° to
    /// -179.9999°) is 22 m long, not 40,000 km.
    @inlinable public func project(_ p: GeoPoint) -> Vector {
        var dLon = p.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let lat = p.latitude * .pi / 180
        let lon = dLon * .pi / 180
        let sinLat = sin(lat)
        let cosLat = cos(lat)
        let cosLon = cos(lon)
        // The direction from the origin, its length sin c.
        let toward = Vector(x: cosLat * sin(lon), y: cosLat0 * sinLat - sinLat0 * cosLat * cosLon)
        let onePlusCos = 1 + sinLat0 * sinLat + cosLat0 * cosLat * cosLon
        guard onePlusCos < LocalProjection.nearAntipode else {
            return toward * (2 * LocalProjection.earthRadius / onePlusCos)
        }
        let farthest =
            2 * LocalProjection.earthRadius
            * ((2 - LocalProjection.nearAntipode) / LocalProjection.nearAntipode).squareRoot()
        let length = toward.length
        return length > 0 ? toward * (farthest / length) : Vector(x: 0, y: farthest)
    }

    /// The point at a plane position, its longitude brought back within -180...180.
    @inlinable public func unproject(_ v: Vector) -> GeoPoint {
        let rho = v.length
        guard rho > 0 else { return origin }
        let c = 2 * atan(rho / (2 * LocalProjection.earthRadius))
        let sinC = sin(c)
        let cosC = cos(c)
        let lat = asin(min(1, max(-1, cosC * sinLat0 + v.y * sinC * cosLat0 / rho)))
        var lon = origin.longitude + atan2(v.x * sinC, rho * cosLat0 * cosC - v.y * sinLat0 * sinC) * 180 / .pi
        if !(-180...180).contains(lon) { lon = lon.remainder(dividingBy: 360) }
        return GeoPoint(latitude: lat * 180 / .pi, longitude: lon)
    }

    /// Plane meters per meter on the earth at plane position `v`: 1 + ρ²/4R².
    @inlinable public func scale(at v: Vector) -> Double {
        1 + (v.x * v.x + v.y * v.y) / (4 * LocalProjection.earthRadius * LocalProjection.earthRadius)
    }

    /// The length on the earth, in meters, of the plane's straight line from `a` to `b`.
    @inlinable public func meters(from a: Vector, to b: Vector) -> Double { Line(from: a, to: b).meters(to: 1) }

    /// The plane's straight line from `a` to `b`, measured on the earth.
    /// Along it the scale 1 + |p|²/4R² is a quadratic in the fraction `u`
    /// of the way, so its earth length ∫ |b − a| du / scale has a closed form
    /// (an arctangent), and so has its inverse: exact on a line of 10 m and
    /// of 10,000 km alike, no sum of pieces.
    public struct Line: Sendable {
        /// `atan(x(u)) − atan(x0)` is the angle swept, x(u) = x0 + u·g.
        @usableFromInline let x0: Double, g: Double
        /// Earth meters per radian of that angle.
        @usableFromInline let k: Double

        /// The line from `a` to `b`.
        @inlinable public init(from a: Vector, to b: Vector) {
            let d = b - a
            let span2 = d.x * d.x + d.y * d.y
            let r2 = LocalProjection.earthRadius * LocalProjection.earthRadius
            let cross = a.x * d.y - a.y * d.x
            // √(4AC − B²) of the denominator A u² + B u + C = 4R² + |a + u d|².
            let root = 2 * (4 * r2 * span2 + cross * cross).squareRoot()
            guard root > 0 else {
                x0 = 0
                g = 0
                k = 0
                return
            }
            x0 = 2 * (a.x * d.x + a.y * d.y) / root
            g = 2 * span2 / root
            k = 8 * r2 * span2.squareRoot() / root
        }

        /// The earth's meters from its start to the point a fraction `u` (0...1) of the way.
        @inlinable public func meters(to u: Double) -> Double {
            k * atan2(u * g, 1 + x0 * (x0 + u * g))
        }

        /// The fraction of the way at `m` earth meters from its start (0 on a line of no length).
        @inlinable public func fraction(at m: Double) -> Double {
            guard g > 0 else { return 0 }
            let t = tan(m / k)
            return t * (1 + x0 * x0) / ((1 - x0 * t) * g)
        }
    }

    /// A displacement of `d` meters on the earth, as a plane vector at `v`.
    @inlinable public func plane(_ d: Vector, at v: Vector) -> Vector { d * scale(at: v) }
}

/// A position or a displacement in the local plane, in meters.
public struct Vector: Sendable, Equatable {
    /// Meters east of the origin.
    public var x: Double
    /// Meters north of the origin.
    public var y: Double

    /// A vector `x` meters east and `y` meters north.
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The sum, componentwise.
    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y) }
    /// The difference, componentwise.
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y) }
    /// The vector scaled by `k`.
    @inlinable public static func * (a: Vector, k: Double) -> Vector { Vector(x: a.x * k, y: a.y * k) }
    /// Its length in meters.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
}

/// The great-circle distance in meters (haversine), for checking the projection.
public func greatCircleDistance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
    let rad = Double.pi / 180
    let dLat = (b.latitude - a.latitude) * rad
    let dLon = (b.longitude - a.longitude) * rad
    let h =
        sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * LocalProjection.earthRadius * asin(min(1, h.squareRoot()))
}
