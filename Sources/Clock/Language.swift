/// A spoken language. Always explicit: drivesim never guesses a language.
public enum Language: String, Sendable, Equatable, CaseIterable {
    case ko
    case en
}
