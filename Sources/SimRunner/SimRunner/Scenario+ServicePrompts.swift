/// A routing service's own voice prompt for one maneuver, kept by
/// `drivesim import-route` from a response's `voiceInstructions` so that a run
/// can compare where drivesim spoke with where the service would have
/// (the road's optional `servicePrompts` key, docs/import.md). It never
/// changes the run.
public struct ServicePrompt: Sendable, Equatable {
    /// The id of the road maneuver the prompt announces.
    public var maneuver: String
    /// How far before the maneuver the service would speak it, in meters
    /// (its `distanceAlongGeometry`); nil for a display text, which has no
    /// distance (Kakao's `guidance`, Google's and Apple's instructions).
    public var before: Double?
    /// The service's words (its `announcement`).
    public var text: String

    /// A prompt for `maneuver`, `before` meters ahead of it (nil: a display text, at no distance).
    public init(maneuver: String, before: Double?, text: String) {
        self.maneuver = maneuver
        self.before = before
        self.text = text
    }
}
