/// Distances as they are spoken: rounded *down* to a preset, never up, so a
/// line never promises more room than there is.
public enum SpokenDistance {
    /// The presets, meters, ascending.
    public static let presets: [Int] = [50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000, 3000, 5000, 10000]

    /// The largest preset at or below `meters`, or nil below the smallest.
    public static func roundDown(_ meters: Double) -> Int? {
        presets.last { Double($0) <= meters }
    }

    /// The form written for the voice: digits and the unit as a word, never
    /// a symbol a voice may misread. English: `300 meters`, `1 kilometer`,
    /// `1.5 kilometers`; Korean: `300미터`, `1킬로미터`, `1.5킬로미터` (read
    /// 일점오 킬로미터, as Korean navigation apps say it).
    public static func written(_ meters: Int, _ language: Language) -> String {
        let number = meters < 1000 ? "\(meters)"
            : meters % 1000 == 0 ? "\(meters / 1000)" : "\(meters / 1000).\(meters % 1000 / 100)"
        switch language {
        case .en:
            if meters < 1000 { return number + (meters == 1 ? " meter" : " meters") }
            return number + (meters == 1000 ? " kilometer" : " kilometers")
        case .ko:
            return number + (meters < 1000 ? "미터" : "킬로미터")
        }
    }
}
