import SimClock

/// One spoken guidance line ("In 300 m, turn right"), hand-written in a
/// scenario or produced by the guidance for a drive.
public struct GuidanceLine: Sendable, Equatable {
    /// Unique across the scenario.
    public var id: String
    /// When the line is requested.
    public var at: SimTime
    /// How long it plays.
    public var duration: SimTime
    /// Urgent lines cut Pippa at once.
    public var urgent: Bool
    /// What is said, if known.
    public var text: String?
    /// The language it is spoken in, if known.
    public var language: Language?
    /// The maneuver it announces; a newer line for it supersedes a pending one.
    public var maneuver: String?
    /// After this instant a line still pending is dropped as stale.
    public var expires: SimTime?

    /// A line; only `id`, `at` and `duration` are required.
    public init(
        id: String, at: SimTime, duration: SimTime, urgent: Bool = false,
        text: String? = nil, language: Language? = nil, maneuver: String? = nil, expires: SimTime? = nil
    ) {
        self.id = id
        self.at = at
        self.duration = duration
        self.urgent = urgent
        self.text = text
        self.language = language
        self.maneuver = maneuver
        self.expires = expires
    }
}

/// A generated line's words for the position at a later instant (see
/// `RoadPlan.revisions`): a line that starts at or after `t` says `text`
/// and lasts `duration`.
public struct LineRevision: Sendable, Equatable {
    /// From when these words hold.
    public var t: SimTime
    /// What the line then says.
    public var text: String
    /// How long it then plays.
    public var duration: SimTime

    /// A revision from `t` on.
    public init(t: SimTime, text: String, duration: SimTime) {
        self.t = t
        self.text = text
        self.duration = duration
    }
}
