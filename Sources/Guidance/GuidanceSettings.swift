import SimClock

/// Everything the guidance is told: the language, the stages' leads, when
/// two maneuvers are announced together, and how fast lines are spoken.
public struct GuidanceSettings: Sendable, Equatable {
    /// The language every generated line is phrased in; never guessed.
    public var language: Language
    /// The far stage's lead: 25 s + 0.3 s per m/s, at least 500 m (at 130 km/h, 36 s or 1.3 km).
    public var far = StageLead(seconds: 25, growth: 0.3, minimum: 500)
    /// The near stage's lead: 10 s + 0.15 s per m/s, at least 150 m (at 130 km/h, 15 s or 560 m).
    public var near = StageLead(seconds: 10, growth: 0.15, minimum: 150)
    /// The "now" stage's lead: 2.5 s + 0.06 s per m/s, at least 30 m (at 130 km/h, 4.7 s or 170 m).
    public var now = StageLead(seconds: 2.5, growth: 0.06, minimum: 30)
    /// A maneuver that follows the announced one within this many meters, or
    /// within `thenSeconds` at the current speed, is announced with it
    /// ("…, then turn left").
    public var thenWithin = 200.0
    /// A maneuver that follows the announced one within this many seconds at
    /// the current speed is announced with it (an exit then a fork 300 m later
    /// at 120 km/h: 9 s).
    public var thenSeconds = 12.0
    /// A "now" line must be able to finish this long before its point, or it is late.
    public var margin = SimTime(ms: 1000)
    /// From a line's start on the bus until the driver hears it (the TTS
    /// engine waking, a Bluetooth link): 1.5 s, the compensation OsmAnd
    /// applies by default. Every stage is timed so that the line, this
    /// latency included, is heard to its end before its point.
    public var outputLatency = SimTime(ms: 1500)
    /// Speech rates for estimating a line's duration.
    public var rates = SpeechRates()
    /// The units distances are spoken in (metric by default); Korean is always metric.
    public var units = Units.metric

    /// The units lines are spoken in: `units`, but metric in Korean.
    public var spokenUnits: Units { language == .ko ? .metric : units }

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
