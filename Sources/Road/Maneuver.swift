import SimClock

/// A maneuver on the route: what the driver does there, optionally the
/// street it leads onto, and the kind's details (signs, exit, side).
public struct Maneuver: Sendable, Equatable {
    /// Unique across the scenario.
    public var id: String
    /// The kind of maneuver.
    public var turn: Turn
    /// The street the maneuver leads onto ("Gangnam-daero", "강남대로").
    public var street: String?
    /// Distance along the route, in meters (set when placed on a route).
    public var distance: Double
    /// What the signs say and the kind's own values.
    public var details: ManeuverDetails

    /// A maneuver of kind `turn`; `distance` is set when it is placed on a route.
    public init(
        id: String, turn: Turn, street: String? = nil, distance: Double = 0,
        details: ManeuverDetails = ManeuverDetails()
    ) {
        self.id = id
        self.turn = turn
        self.street = street
        self.distance = distance
        self.details = details
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
    /// The left branch where the road splits in two.
    case forkLeft = "fork-left"
    /// The right branch where the road splits in two.
    case forkRight = "fork-right"
    /// Joining a road from a slip road.
    case merge
    /// Taking a ramp onto a highway.
    case onRamp = "on-ramp"
    /// Leaving a highway by an exit; see `ManeuverDetails.exitNumber` and `exitName`.
    case offRamp = "off-ramp"
    /// Leaving a roundabout by an exit; see `ManeuverDetails.exit`.
    case roundabout
    case uTurn = "u-turn"
    case straight
    /// Driving onto a ferry; `street` names the ferry ("take the Rødby ferry").
    case ferry
    /// The destination; see `ManeuverDetails.side`.
    case arrive
    /// A waypoint on the way (a stop between two legs of the route), said
    /// when reached, like the destination; see `ManeuverDetails.uTurn` and
    /// `ManeuverDetails.waypoint`.
    case waypoint

    /// Whether the maneuver's "now" line is said as the car reaches it (the
    /// destination, a waypoint) rather than ahead of it.
    @inlinable public var saidOnReaching: Bool { self == .arrive || self == .waypoint }
}

/// The values a kind of maneuver carries besides its street; each is nil
/// when not given. Which kinds take which is in docs/scenario-format.md.
public struct ManeuverDetails: Sendable, Equatable {
    /// The direction or destination on the signs ("Suwon", "수원"): "toward
    /// Suwon", "수원 방면". Any kind but `arrive`.
    public var toward: String?
    /// A roundabout's exit to take, counted from the one after the entry, 1 to `ManeuverDetails.exits`.
    public var exit: Int?
    /// An off-ramp's exit number as signed ("12", "12A").
    public var exitNumber: String?
    /// A ramp's sign: an off-ramp's exit name ("Pangyo IC", "판교IC": "take
    /// the Pangyo IC exit"), an on-ramp's road ("A 10": "take the A 10 ramp"),
    /// a roundabout's name ("At Place de l'Étoile, take the third exit").
    public var exitName: String?
    /// `arrive`: which side of the road the destination is on. `off-ramp`,
    /// `on-ramp`: the side the ramp leaves on (left or right), given where it
    /// is not the usual one ("take the exit on the left").
    public var side: ArrivalSide?
    /// `waypoint`: the route turns back there ("make a U-turn").
    public var uTurn: Bool
    /// `waypoint`: which waypoint of the route it is, from 1; set when
    /// maneuvers are placed on a route (`Route.place`), nil before.
    public var waypoint: Int?

    /// The highest roundabout exit number.
    public static let exits = 12

    /// Details; all nil unless given.
    public init(
        toward: String? = nil, exit: Int? = nil, exitNumber: String? = nil, exitName: String? = nil,
        side: ArrivalSide? = nil,
        uTurn: Bool = false, waypoint: Int? = nil
    ) {
        self.toward = toward
        self.exit = exit
        self.exitNumber = exitNumber
        self.exitName = exitName
        self.side = side
        self.uTurn = uTurn
        self.waypoint = waypoint
    }
}

/// Where the destination is as the car reaches it. Raw values are the scenario's words.
public enum ArrivalSide: String, Sendable, Equatable, CaseIterable {
    case left
    case right
    /// At the end of the road, straight on.
    case ahead
}

/// A maneuver, by its place on the route.
public typealias ManeuverIndex = ItemIndex<Maneuver>
