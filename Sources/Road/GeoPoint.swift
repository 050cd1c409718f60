/// A point on the earth, in degrees (WGS 84).
public struct GeoPoint: Sendable, Equatable {
    /// Degrees north, -90...90 (`lat` in the file).
    public var latitude: Double
    /// Degrees east, -180...180 (`lon` in the file).
    public var longitude: Double

    /// A point; not checked here (`RoadSetup.validate()` refuses one out of range).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
