/// The voices that share the bus.
public enum Voice: String, Sendable, Equatable {
    /// A guidance line on the guidance player.
    case guidance
    /// Pippa, on the talk player.
    case pippa
    /// Dad, on the microphone.
    case dad
}
