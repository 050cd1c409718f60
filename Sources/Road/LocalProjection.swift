#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local flat projection: east and north in meters from an origin, with the
/// meridian scale taken at the origin's latitude. At city scale (10 km) its
/// distances are within about 0.1% of the great circle, and it is the one
/// metric the road uses everywhere.
public struct LocalProjection: Sendable, Equatable {
    /// The mean earth radius (IUGG), in meters.
    public static let earthRadius = 6_371_008.8

    /// The point at the plane's (0, 0), whose latitude sets the meridian scale.
    public let origin: GeoPoint
    /// Meters per degree of latitude and of longitude at the origin.
    @usableFromInline let metersPerDegreeLat: Double
    @usableFromInline let metersPerDegreeLon: Double

    /// A projection centered on `origin`.
    public init(origin: GeoPoint) {
        self.origin = origin
        metersPerDegreeLat = LocalProjection.earthRadius * .pi / 180
        metersPerDegreeLon = metersPerDegreeLat * cos(origin.latitude * .pi / 180)
    }

    /// The point's position in meters east and north of the origin. The
    /// longitude difference is taken the short way round, within -180...180
    /// degrees, so a route across the antimeridian (179.9999° to -179.9999°)
    /// is 22 m long, not 40,000 km.
    @inlinable public func project(_ p: GeoPoint) -> Vector {
        var dLon = p.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return Vector(x: dLon * metersPerDegreeLon, y: (p.latitude - origin.latitude) * metersPerDegreeLat)
    }

    /// The point at a position in meters east and north of the origin, its
    /// longitude brought back within -180...180.
    @inlinable public func unproject(_ v: Vector) -> GeoPoint {
        var lon = origin.longitude + v.x / metersPerDegreeLon
        if !(-180...180).contains(lon) { lon = lon.remainder(dividingBy: 360) }
        return GeoPoint(latitude: origin.latitude + v.y / metersPerDegreeLat, longitude: lon)
    }
}

/// A position or a displacement in the local plane, in meters.
public struct Vector: Sendable, Equatable {
    /// Meters east of the origin.
    public var x: Double
    /// Meters north of the origin.
    public var y: Double

    /// A vector `x` meters east and `y` meters north.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

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
    let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * LocalProjection.earthRadius * asin(min(1, h.squareRoot()))
}
