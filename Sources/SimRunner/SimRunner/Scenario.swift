import Guidance
import SimClock
import TalkArbiter

/// A scenario: one drive's inputs and what its timeline must show.
/// Decoded strictly from JSON (see `ScenarioDecoder`); format version 1.
public struct Scenario: Sendable, Equatable {
    /// The format version this drivesim reads and writes.
    public static let formatVersion = 1

    /// The scenario's name, shown in reports and the timeline.
    public var name: String
    /// Free text about the scenario.
    public var description: String?
    /// The arbiter's settings.
    public var settings: Settings
    /// The guidance lines, in file order.
    public var guidance: [GuidanceLine]
    /// Pippa's replies, in file order.
    public var replies: [Reply]
    /// Dad's utterances, in file order.
    public var dad: [Utterance]
    /// The matchers the timeline must satisfy (SPEC 6).
    public var expect: [Matcher]
    /// The `expect` items about Pippa's view at an instant (`{"pippa": …}`), in file order.
    public var expectPippa: [PippaMatcher] = []
    /// The simulated drive, if any: its lines join `guidance` (see `RoadPlan`).
    public var road: Road?
    /// The routing service's own prompts for the road's maneuvers (`road.servicePrompts`), if imported.
    public var servicePrompts: [ServicePrompt] = []
    /// A golden timeline file (the `--format json` timeline) that the whole
    /// timeline must equal, as a path relative to the scenario file.
    public var golden: String?

    /// A scenario from its parts. Not validated: decode files with
    /// `ScenarioDecoder`, which refuses what SPEC 3 refuses.
    public init(
        name: String, description: String? = nil, settings: Settings = Settings(),
        guidance: [GuidanceLine] = [], replies: [Reply] = [], dad: [Utterance] = [], expect: [Matcher] = [],
        golden: String? = nil, road: Road? = nil
    ) {
        self.name = name
        self.description = description
        self.settings = settings
        self.guidance = guidance
        self.replies = replies
        self.dad = dad
        self.expect = expect
        self.golden = golden
        self.road = road
    }

    /// The arbiter's settings: `earsTail`, `waitLimit`, `afterCut`.
    public typealias Settings = TalkArbiter.Settings
    /// What Pippa does with a stretch that guidance cut.
    public typealias AfterCut = TalkArbiter.AfterCut

    /// One of Pippa's replies, spoken in stretches.
    public struct Reply: Sendable, Equatable {
        /// Its id, unique in the scenario.
        public var id: String
        /// When the reply begins (for a reply to Dad: seconds after his utterance ends, see `DadReply`).
        public var at: SimTime
        /// At least one.
        public var stretches: [Stretch]

        /// A reply.
        public init(id: String, at: SimTime, stretches: [Stretch]) {
            self.id = id
            self.at = at
            self.stretches = stretches
        }
    }

    /// A part of a reply whose audio arrives as one chunk.
    public struct Stretch: Sendable, Equatable {
        /// Its id, unique in the scenario.
        public var id: String
        /// How long it plays.
        public var duration: SimTime
        /// When its chunk is in the cache, counted from the reply's `at`.
        public var ready: SimTime
        /// What Pippa says.
        public var text: String?
        /// The language she says it in.
        public var language: Language?

        /// A stretch.
        public init(
            id: String, duration: SimTime, ready: SimTime = .zero, text: String? = nil, language: Language? = nil
        ) {
            self.id = id
            self.duration = duration
            self.ready = ready
            self.text = text
            self.language = language
        }
    }

    /// Something Dad says into the microphone.
    public struct Utterance: Sendable, Equatable {
        /// Its id, unique in the scenario.
        public var id: String
        /// When Dad starts speaking.
        public var at: SimTime
        /// How long he speaks.
        public var duration: SimTime
        /// The microphone button he pressed; never guessed.
        public var language: Language
        /// What he says.
        public var text: String?
        /// Pippa's answer, if any part of the utterance was heard.
        public var reply: DadReply?

        /// An utterance.
        public init(
            id: String, at: SimTime, duration: SimTime, language: Language, text: String? = nil, reply: DadReply? = nil
        ) {
            self.id = id
            self.at = at
            self.duration = duration
            self.language = language
            self.text = text
            self.reply = reply
        }
    }

    /// Pippa's answer to an utterance: begins `after` its end.
    public struct DadReply: Sendable, Equatable {
        /// Its id, unique in the scenario.
        public var id: String
        /// How long after the utterance's end it begins.
        public var after: SimTime
        /// At least one.
        public var stretches: [Stretch]

        /// An answer.
        public init(id: String, after: SimTime = .zero, stretches: [Stretch]) {
            self.id = id
            self.after = after
            self.stretches = stretches
        }
    }
}
