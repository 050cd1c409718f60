/// Distances as they are spoken: rounded *down* to a preset, never up, so a
/// line never promises more room than there is.
public enum SpokenDistance {
    /// The presets, meters, ascending.
    public static let presets: [Int] = [50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000, 3000, 5000, 10000]

    /// The largest preset at or below `meters`, or nil below the smallest.
    public static func roundDown(_ meters: Double) -> Int? {
        presets.last { Double($0) <= meters }
    }

    /// The written form: `300 m`, `1 km`, `1.5 km`.
    public static func written(_ meters: Int) -> String {
        if meters < 1000 { return "\(meters) m" }
        return meters % 1000 == 0 ? "\(meters / 1000) km" : "\(meters / 1000).\(meters % 1000 / 100) km"
    }
}
