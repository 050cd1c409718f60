import SimClock

/// Everything the guidance is told: the language, the stages' leads, when
/// two maneuvers are announced together, and how fast lines are spoken.
public struct GuidanceSettings: Sendable, Equatable {
    /// The language every generated line is phrased in; never guessed.
    public var language: Language
    /// The far stage's lead: 30 s of driving, at least 500 m (`guidance.far`).
    public var far = StageLead(seconds: 30, minimum: 500)
    /// The near stage's lead: 12 s of driving, at least 150 m (`guidance.near`).
    public var near = StageLead(seconds: 12, minimum: 150)
    /// The now stage's lead: 3 s of driving, at least 30 m (`guidance.now`).
    public var now = StageLead(seconds: 3, minimum: 30)
    /// A maneuver that follows the announced one within this many meters is
    /// announced with it ("…, then turn left").
    public var thenWithin = 200.0
    /// A "now" line must be able to finish this long before its point, or it is late.
    public var margin = SimTime(ms: 1000)
    /// Speech rates for estimating a line's duration.
    public var rates = SpeechRates()

    /// The defaults of docs/scenario-format.md, phrased in `language`.
    public init(language: Language) { self.language = language }

    /// The lead of a stage.
    public func lead(_ stage: Stage) -> StageLead {
        switch stage {
        case .far: return far
        case .near: return near
        case .now: return now
        }
    }
}

/// How fast a voice speaks: English in words per second, Korean in syllables per second.
public struct SpeechRates: Sendable, Equatable {
    /// English speech rate, words per second (0.5...50; 2.6 by default).
    public var englishWordsPerSecond = 2.6
    /// Korean speech rate, syllables per second (0.5...50; 5.5 by default).
    public var koreanSyllablesPerSecond = 5.5

    /// The default rates: 2.6 English words and 5.5 Korean syllables per second.
    public init() {}
}
