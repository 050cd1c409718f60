import SimClock

/// The units distances are spoken in. Raw values are the scenario's words.
public enum Units: String, Sendable, Equatable, CaseIterable {
    /// Meters and kilometers.
    case metric
    /// Feet and miles, rounded as US voices say them (English only).
    case imperial
}

/// Distances as they are spoken: rounded *down* to a preset, never up, so a
/// line never promises more room than there is. An amount is counted in its
/// units' base: meters (metric) or feet (imperial).
package enum SpokenDistance {
    /// The metric presets, meters, ascending.
    package static let presets: [Int] = [
        50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000, 3000, 5000, 10000,
    ]
    /// The imperial presets, feet, ascending: hundreds of feet up to 1,000,
    /// then a quarter, a half and three quarters of a mile, then 1, 1.5, 2,
    /// 3, 5 and 10 miles (as US voices round them: "In a half mile").
    package static let feetPresets: [Int] = [
        100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1320, 2640, 3960, 5280, 7920, 10560, 15840, 26400, 52800,
    ]
    /// Meters in a foot (exact, by definition).
    package static let metersPerFoot = 0.3048
    static let feetPerMile = 5280

    /// The presets of `units`, in its base unit, ascending.
    package static func presets(_ units: Units) -> [Int] { units == .metric ? presets : feetPresets }

    /// How many meters `amount` of `units`' base unit is.
    package static func meters(_ amount: Int, _ units: Units) -> Double {
        units == .metric ? Double(amount) : Double(amount) * metersPerFoot
    }

    /// The largest preset at or below `meters`, in `units`' base unit, or nil below the smallest.
    package static func roundDown(_ meters: Double, _ units: Units = .metric) -> Int? {
        presets(units).last { Self.meters($0, units) <= meters }
    }

    /// The form written for the voice: digits and the unit as a word, never
    /// a symbol a voice may misread. English: `300 meters`, `1 kilometer`,
    /// `1.5 kilometers`, or `900 feet`, `a quarter mile`, `1.5 miles`;
    /// Korean, always metric: `300미터`, `1킬로미터`, `1.5킬로미터` (read
    /// 일점오 킬로미터, as Korean navigation apps say it).
    package static func written(_ amount: Int, _ language: Language, _ units: Units = .metric) -> String {
        if units == .imperial && language == .en { return imperial(amount) }
        let meters = units == .metric ? amount : Int(Self.meters(amount, units).rounded(.down))
        let number =
            meters < 1000
            ? "\(meters)"
            : meters % 1000 == 0 ? "\(meters / 1000)" : "\(meters / 1000).\(meters % 1000 / 100)"
        switch language {
        case .en:
            if meters < 1000 { return number + (meters == 1 ? " meter" : " meters") }
            return number + (meters == 1000 ? " kilometer" : " kilometers")
        case .ko:
            return number + (meters < 1000 ? "미터" : "킬로미터")
        }
    }

    /// Feet as said: `900 feet`, `a quarter mile`, `a half mile`,
    /// `three quarters of a mile`, `1 mile`, `1.5 miles`.
    static func imperial(_ feet: Int) -> String {
        switch feet {
        case ..<(feetPerMile / 4): return feet == 1 ? "1 foot" : "\(feet) feet"
        case feetPerMile / 4: return "a quarter mile"
        case feetPerMile / 2: return "a half mile"
        case feetPerMile * 3 / 4: return "three quarters of a mile"
        default:
            let tenths = feet * 10 / feetPerMile
            let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
            return number + (tenths == 10 ? " mile" : " miles")
        }
    }
}
