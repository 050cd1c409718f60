import Guidance
import Road
import ScenarioFormat
import SimClock
import SimRunner

/// The route steps every importer reads a response into (OSRM's, Valhalla's,
/// GraphHopper's, Kakao's, Apple's and Google's alike), and what the import
/// decides from them: each step's maneuver, ferries, reversals, the voice's
/// units and where each step starts along the route.
extension RouteImporter {
    /// One step as read: its path in the document and what the import uses.
    struct Step {
        var path: String
        var leg: Int
        var index: Int
        var lastOfLeg: Bool
        var type: String
        var modifier: String?
        var exit: Int?
        var location: GeoPoint
        var name: String?
        var ref: String?
        var destinations: String?
        var exits: String?
        /// `driving_side`: `left` or `right` (nil: not given, right).
        var drivingSide: String?
        /// The maneuver's `bearing_before` and `bearing_after`, degrees (nil: not given).
        var bearings: (before: Double?, after: Double?) = (nil, nil)
        var distance: Double
        var duration: Double
        var voice: [(before: Double, text: String, path: String)]
        /// A rotary's name (`rotary_name`: "Place de l'Étoile").
        var rotaryName: String? = nil
        /// The step's `mode` (`driving`, `ferry`, …; nil: not given).
        var mode: String? = nil
        /// Mapbox's first `bannerInstructions[].primary` (about the maneuver
        /// that ends the step): its text and its components' (text, `abbr`,
        /// `abbr_priority`).
        var banner: Banner? = nil
        /// The keys its fields go by in its document (OSRM's, Valhalla's, GraphHopper's), for warnings.
        var keys = StepKeys.osrm
        /// A ramp's sign where the service names it apart from `destinations` (Kakao's "판교IC").
        var exitName: String? = nil
        /// A step that only sets the speed from where it starts (each of Kakao's roads): no maneuver, no note.
        var speedOnly = false
        /// The service's display text for the step's own maneuver, with no distance
        /// (Kakao's `guidance`, Google's and Apple's instructions): kept as a prompt.
        var display: String? = nil
        /// Its names were read from a service's words (Google's, Apple's):
        /// `name` the street, `destinations` the toward list, `exits` the
        /// exit's number and `exitName` its name, each as the text gives it.
        var fromWords = false
        /// The maneuver's id when the service numbers its steps its own way
        /// (Apple's `steps[k]`); nil: `l<leg>s<index>`.
        var id: String? = nil
        /// The leg's end the import adds where the service sends no step of its own (Google's, Apple's arrival).
        var added = false
        /// What the service calls a step going straight on, for its warning ("STRAIGHT step"); nil: OSRM's type.
        var straightTerm: String? = nil

        /// The maneuver's id in the scenario.
        var maneuverID: String { id ?? "l\(leg)s\(index)" }
    }

    /// A banner's primary text and its components, as read.
    struct Banner: Equatable {
        var text: String
        var components: [(text: String, type: String?, abbreviation: String?, priority: Double)]

        static func == (a: Banner, b: Banner) -> Bool {
            a.text == b.text && a.components.map(\.text) == b.components.map(\.text)
                && a.components.map(\.abbreviation) == b.components.map(\.abbreviation)
        }
    }

    /// A name longer than this, in characters, is said by the banner's
    /// shorter text when the response has one (`bannerName`).
    static let longName = 24

    /// The short form of `street` a banner gives, or nil: its primary text,
    /// with its components' abbreviations (`abbr`, lowest `abbr_priority`
    /// first) while it is longer than `longName`; only a banner whose every
    /// text component is part of `street` (the same road, not "Turn right"
    /// or "Exit 432 …"), and only when shorter.
    static func bannerName(_ street: String, _ banner: Banner?) -> String? {
        guard street.count > longName, let banner, !banner.components.isEmpty,
            banner.components.allSatisfy({ $0.type == "text" && street.contains($0.text) })
        else { return nil }
        var short = banner.text
        for c in banner.components.sorted(by: { $0.priority < $1.priority }) where short.count > longName {
            if let a = c.abbreviation, let r = short.firstRange(of: c.text) { short.replaceSubrange(r, with: a) }
        }
        return short.count < street.count && !short.isEmpty ? short : nil
    }

    /// The OSRM maneuver types (StepManeuver `type`).
    static let maneuverTypes = [
        "turn", "new name", "depart", "arrive", "merge", "on ramp", "off ramp", "fork", "end of road", "continue",
        "roundabout", "rotary", "roundabout turn", "notification", "exit roundabout", "exit rotary",
        // Older OSRM versions wrote these two for ramps; read as on and off ramp.
        "ramp", "use lane",
    ]

    /// A modifier as a plain turn: `uturn`, `sharp right`, …; nil is straight
    /// on, and one not in OSRM's list the nearest by its words (`nearestTurn`).
    static func plainTurn(_ modifier: String?) -> Turn {
        switch modifier {
        case nil, "straight": return .straight
        case "uturn": return .uTurn
        case "sharp right": return .sharpRight
        case "right": return .right
        case "slight right": return .slightRight
        case "slight left": return .slightLeft
        case "left": return .left
        case "sharp left": return .sharpLeft
        case let other?: return nearestTurn(other)
        }
    }

    /// Whether `modifier` is one of OSRM's (or absent).
    static func knownModifier(_ modifier: String?) -> Bool {
        [nil, "uturn", "sharp right", "right", "slight right", "straight", "slight left", "left", "sharp left"]
            .contains(modifier)
    }

    /// The turn an unknown modifier's words name: a side (`left`, `right`),
    /// how much (`sharp`, `hard`; `slight`, `bear`, `half`), or a U-turn; else straight on.
    static func nearestTurn(_ modifier: String) -> Turn {
        let words = modifier.lowercased()
        if words.contains("uturn") || words.contains("u-turn") || words.contains("u turn") { return .uTurn }
        let sharp = words.contains("sharp") || words.contains("hard")
        let slight = ["slight", "bear", "half"].contains { words.contains($0) }
        if words.contains("left") { return sharp ? .sharpLeft : slight ? .slightLeft : .left }
        if words.contains("right") { return sharp ? .sharpRight : slight ? .slightRight : .right }
        return .straight
    }

    /// Whether a step is no decision for the driver and so not announced:
    /// `new name`, `notification` and `use lane` going straight on or
    /// bending slightly, `continue` straight on (or without a modifier).
    static func goesStraightOn(_ step: Step) -> Bool {
        switch step.type {
        case "new name", "notification", "use lane":
            return [nil, "straight", "slight left", "slight right"].contains(step.modifier)
        case "continue":
            return step.modifier == nil || step.modifier == "straight"
        default:
            return false
        }
    }

    /// The road maneuver for a step, or nil for a step the road does not say
    /// (departures, roundabout exits); `warning` when it was not taken as given.
    static func maneuver(for step: Step, finalLeg: Bool) -> (
        turn: Turn, details: ManeuverDetails, warning: ImportWarning.Kind?
    )? {
        var details = ManeuverDetails()
        let plain = plainTurn(step.modifier)
        switch step.type {
        case "depart", "exit roundabout", "exit rotary":
            return nil
        case "arrive":
            if !step.lastOfLeg { return (.straight, ManeuverDetails(), nil) }
            // A leg's end before the last is a waypoint; whether the route turns back there is in `reverses`.
            if !finalLeg { return (.waypoint, ManeuverDetails(), nil) }
            var side: ArrivalSide? = nil
            switch step.modifier {
            case "left", "slight left", "sharp left": side = .left
            case "right", "slight right", "sharp right": side = .right
            case "straight": side = .ahead
            default: side = nil
            }
            return (.arrive, ManeuverDetails(side: side), nil)
        case "turn", "new name", "end of road", "notification", "use lane":
            return (plain, details, nil)
        case "continue":
            switch plain {
            case .slightLeft: return (.keepLeft, details, nil)
            case .slightRight: return (.keepRight, details, nil)
            default: return (plain, details, nil)
            }
        case "merge": return (.merge, details, nil)
        case "on ramp": return (.onRamp, details, nil)
        case "off ramp", "ramp": return (.offRamp, details, nil)
        case "fork":
            switch plain {
            case .left, .slightLeft, .sharpLeft: return (.forkLeft, details, nil)
            case .right, .slightRight, .sharpRight: return (.forkRight, details, nil)
            default: return (.straight, details, nil)
            }
        case "roundabout", "rotary", "roundabout turn":
            if let exit = step.exit, (1...ManeuverDetails.exits).contains(exit) {
                details.exit = exit
                return (.roundabout, details, nil)
            }
            return (plain, details, .roundaboutWithoutExit(keptAs: plain.rawValue))
        default:
            return (plain, details, .unknownManeuverType(step.type, keptAs: plain.rawValue))
        }
    }

    /// Whether step `k` boards a ferry: its `mode` is `ferry` and the step
    /// before's is not (a departure or an arrival stays what it is).
    static func boardsFerry(_ steps: [Step], _ k: Int) -> Bool {
        steps[k].mode == "ferry" && (k == 0 || steps[k - 1].mode != "ferry")
            && !["depart", "arrive"].contains(steps[k].type)
    }

    /// The speed a car ferry sails at, km/h (some 16 knots): a ferry step
    /// slower on average waits at the terminal for the rest of its time.
    static let ferryKmh = 30.0

    /// A ferry step of `distance` meters and `duration` seconds as a wait at
    /// the terminal (up to the longest stop, 1 h) and the speed it then
    /// sails at, km/h, so that the two take the step's duration; nil when it
    /// sails at `ferryKmh` or faster on average (no wait).
    static func ferry(distance: Double, duration: Double) -> (wait: SimTime, kmh: Double)? {
        let sailing = distance / (ferryKmh / 3.6)
        guard duration > sailing else { return nil }
        let wait = min(duration - sailing, 3600)
        let ms = Int64((wait * 1000).rounded(.down))
        guard ms > 0 else { return nil }
        return (SimTime(ms: ms), distance / (duration - Double(ms) / 1000) * 3.6)
    }

    /// The least change of heading, degrees, at which the route is taken to
    /// turn back at a waypoint: the arrival's `bearing_before` and the next
    /// leg's departure `bearing_after` within 30° of opposite (83° in, 263° out).
    static let reversal = 150.0

    /// Whether the route turns back between `arrival` and the `departure` that follows it.
    static func reverses(_ arrival: Step, _ departure: Step?) -> Bool {
        guard let inward = arrival.bearings.before, let outward = departure?.bearings.after else { return false }
        let change = abs((outward - inward).truncatingRemainder(dividingBy: 360))
        return min(change, 360 - change) >= reversal
    }

    /// The units the response's own voice instructions speak: imperial when
    /// one says feet or miles, else metric.
    static func voiceUnits(_ steps: [Step]) -> Units {
        let imperial = steps.contains {
            $0.voice.contains { v in
                let words = v.text.lowercased()
                return [" feet", " foot", " mile"].contains { words.contains($0) }
            }
        }
        return imperial ? .imperial : .metric
    }

    /// Where each step starts along the route, meters: where its maneuver's
    /// point lies on the route (the first pass within the maneuver
    /// tolerance, searched on from the step before's start), or, for a
    /// point off the route, the step before's start plus its distance
    /// scaled to the geometry.
    /// - Complexity: O(points + steps) along a route that holds every step's
    ///   point; each point off it costs a search of the rest of the route.
    static func starts(of steps: [Step], on route: Route) -> [Double] {
        let stepTotal = steps.reduce(0) { $0 + $1.distance }
        let scale = stepTotal > 0 ? route.length / stepTotal : 1
        var out: [Double] = []
        out.reserveCapacity(steps.count)
        for (k, step) in steps.enumerated() {
            guard let before = out.last else {
                out.append(0)
                continue
            }
            let placed = route.firstPass(near: step.location, from: before)
            out.append(placed ?? min(route.length, before + steps[k - 1].distance * scale))
        }
        return out
    }

    /// The length of a line of points, meters (the road's own projection).
    static func pathLength(_ points: [GeoPoint]) -> Double {
        guard points.count >= 2, let r = try? Route(points: points) else { return 0 }
        return r.length
    }
}
