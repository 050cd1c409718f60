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
        self.id = id; self.at = at; self.duration = duration; self.urgent = urgent
        self.text = text; self.language = language; self.maneuver = maneuver; self.expires = expires
    }
}
