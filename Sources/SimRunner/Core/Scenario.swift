import Guidance
import SimClock
import TalkArbiter

/// A scenario: one drive's inputs and what its timeline must show.
/// Decoded strictly from JSON (see `ScenarioDecoder`); format version 1.
public struct Scenario: Sendable, Equatable {
    /// The format version this drivesim reads and writes.
    public static let formatVersion = 1

    public var name: String
    public var description: String?
    public var settings: Settings
    public var guidance: [GuidanceLine]
    public var replies: [Reply]
    public var dad: [Utterance]
    public var expect: [Matcher]
    /// The simulated drive, if any: its lines join `guidance` (see `RoadPlan`).
    public var road: Road?
    /// The routing service's own prompts for the road's maneuvers (`road.servicePrompts`), if imported.
    public var servicePrompts: [ServicePrompt] = []
    /// A golden timeline file (the `--format json` timeline) that the whole
    /// timeline must equal, as a path relative to the scenario file.
    public var golden: String?

    public init(
        name: String, description: String? = nil, settings: Settings = Settings(),
        guidance: [GuidanceLine] = [], replies: [Reply] = [], dad: [Utterance] = [], expect: [Matcher] = [],
        golden: String? = nil, road: Road? = nil
    ) {
        self.name = name; self.description = description; self.settings = settings
        self.guidance = guidance; self.replies = replies; self.dad = dad; self.expect = expect
        self.golden = golden; self.road = road
    }

    /// The arbiter's settings: `earsTail`, `waitLimit`, `afterCut`.
    public typealias Settings = TalkArbiter.Settings
    /// What Pippa does with a stretch that guidance cut.
    public typealias AfterCut = TalkArbiter.AfterCut

    /// One of Pippa's replies, spoken in stretches.
    public struct Reply: Sendable, Equatable {
        public var id: String
        /// When the reply begins (for a reply to Dad: seconds after his utterance ends, see `DadReply`).
        public var at: SimTime
        /// At least one.
        public var stretches: [Stretch]

        public init(id: String, at: SimTime, stretches: [Stretch]) {
            self.id = id; self.at = at; self.stretches = stretches
        }
    }

    /// A part of a reply whose audio arrives as one chunk.
    public struct Stretch: Sendable, Equatable {
        public var id: String
        public var duration: SimTime
        /// When its chunk is in the cache, counted from the reply's `at`.
        public var ready: SimTime
        public var text: String?
        public var language: Language?

        public init(id: String, duration: SimTime, ready: SimTime = .zero, text: String? = nil, language: Language? = nil) {
            self.id = id; self.duration = duration; self.ready = ready; self.text = text; self.language = language
        }
    }

    /// Something Dad says into the microphone.
    public struct Utterance: Sendable, Equatable {
        public var id: String
        public var at: SimTime
        public var duration: SimTime
        /// The microphone button he pressed; never guessed.
        public var language: Language
        public var text: String?
        /// Pippa's answer, if any part of the utterance was heard.
        public var reply: DadReply?

        public init(id: String, at: SimTime, duration: SimTime, language: Language, text: String? = nil, reply: DadReply? = nil) {
            self.id = id; self.at = at; self.duration = duration; self.language = language; self.text = text; self.reply = reply
        }
    }

    /// Pippa's answer to an utterance: begins `after` its end.
    public struct DadReply: Sendable, Equatable {
        public var id: String
        public var after: SimTime
        public var stretches: [Stretch]

        public init(id: String, after: SimTime = .zero, stretches: [Stretch]) {
            self.id = id; self.after = after; self.stretches = stretches
        }
    }
}
