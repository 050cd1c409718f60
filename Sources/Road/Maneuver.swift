/// A maneuver on the route: what the driver does there and, optionally, the
/// street it leads onto.
public struct Maneuver: Sendable, Equatable {
    /// Unique across the scenario.
    public var id: String
    public var turn: Turn
    public var street: String?
    /// Distance along the route, in meters (set when placed on a route).
    public var distance: Double

    public init(id: String, turn: Turn, street: String? = nil, distance: Double = 0) {
        self.id = id; self.turn = turn; self.street = street; self.distance = distance
    }
}

/// The kind of a maneuver. Raw values are the scenario's words.
public enum Turn: String, Sendable, Equatable, CaseIterable {
    case left
    case right
    case slightLeft = "slight-left"
    case slightRight = "slight-right"
    case sharpLeft = "sharp-left"
    case sharpRight = "sharp-right"
    case keepLeft = "keep-left"
    case keepRight = "keep-right"
    case uTurn = "u-turn"
    case straight
    case arrive
}
