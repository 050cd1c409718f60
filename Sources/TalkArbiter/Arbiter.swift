import SimClock

/// The interface of a talk arbiter (SPEC 4): anything that referees the bus
/// can be run, checked and fuzzed by drivesim through it.
///
/// The simulator creates one arbiter per run from the scenario's tables, then
/// hands it SPEC 4.2's instant: the instant's inputs, each with its time, in
/// their order (completions, then arrivals), then one `endInstant(at:into:)`,
/// in which the arbiter settles and observes. Each call appends the actions
/// that follow to a buffer the caller owns; every action names the rule that
/// caused it (`Action.rule`). The simulator validates each action before it
/// performs it: an impossible one (an unknown index, a line that is not
/// pending, two voices at once) fails the run with a violation naming it.
///
/// Indices number the tables' rows: lines, replies (Dad's answers included),
/// stretches and utterances. `TalkArbiter` is the reference implementation.
/// The type is sent to fuzzing workers (`SendableMetatype`); instances never are.
public protocol Arbiter: SendableMetatype {
    /// What the arbiter tells the simulator to do.
    typealias Action = TalkArbiter.Action

    /// An arbiter at time zero for one run: the ears open, nothing playing.
    init(_ tables: ArbiterTables)

    /// A playing line reached its end (`endsAt` of its `lineStarted`).
    mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action])
    /// A stretch reached its end; also delivered for a stretch that was cut (ignore it then).
    mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action])
    /// Dad stopped speaking.
    mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action])
    /// A time asked for with `Action.wake(at:)` has come.
    mutating func earsTimer(at now: SimTime, into actions: inout [Action])
    /// A line's `expires` instant came (delivered whatever the line's state).
    mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action])
    /// A line is requested.
    mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action])
    /// One of Pippa's replies begins.
    mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action])
    /// A stretch's audio chunk is in the cache.
    mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action])
    /// Dad started speaking.
    mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action])
    /// The guidance re-phrased line `line` for the position now (a far or
    /// near line that waits says the distance then left): if it starts from
    /// now on, it lasts `duration` (its `lineStarted` ends then). Delivered
    /// at the start of an instant, before its inputs, for a line requested
    /// and not yet started; it draws no actions.
    mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime)
    /// The instant's inputs are all in: settle (SPEC 4.2 step 3) and observe (step 4).
    mutating func endInstant(at now: SimTime, into actions: inout [Action])
    /// Whether nothing is playing, pending or active; asked once, after the run.
    var isIdle: Bool { get }
}

/// What an arbiter is told once, before the run: the settings and the tables
/// of everything that may happen. Validated when built, so an arbiter built
/// from it never indexes out of its tables.
public struct ArbiterTables: Sendable, Equatable {
    /// The scenario's settings.
    public let settings: TalkArbiter.Settings
    /// Every guidance line that may be requested, by index.
    public let lines: [TalkArbiter.Line]
    /// Every reply that may begin, Dad's answers included, by index.
    public let replies: [TalkArbiter.Reply]
    /// Every stretch's duration, by index; replies index into it.
    public let stretchDurations: [SimTime]
    /// How many of Dad's utterances there are (indices `0..<utterances`).
    public let utterances: Int

    /// Why a set of tables cannot be run.
    public enum Invalid: Error, Sendable, Equatable {
        /// A setting is negative.
        case negativeSetting
        /// A line's duration is not above zero.
        case lineDuration(line: Int)
        /// A reply has no stretches, or names stretches outside the table.
        case replyStretches(reply: Int)
        /// A stretch's duration is not above zero.
        case stretchDuration(stretch: Int)
        /// Replies' stretches overlap or leave a stretch without a reply.
        case stretchesNotPartitioned
        /// The utterance count is negative.
        case utterances
    }

    /// Tables, checked: settings not negative, durations above zero, each
    /// reply's stretches a non-empty run of the stretch table, in order, each
    /// stretch in exactly one reply.
    public init(
        settings: TalkArbiter.Settings, lines: [TalkArbiter.Line], replies: [TalkArbiter.Reply],
        stretchDurations: [SimTime], utterances: Int
    ) throws(Invalid) {
        guard settings.earsTail >= .zero, settings.waitLimit >= .zero else { throw .negativeSetting }
        if let bad = lines.indices.first(where: { lines[$0].duration <= .zero }) { throw .lineDuration(line: bad) }
        var next = 0
        for (i, reply) in replies.enumerated() {
            let range = reply.stretches
            guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= stretchDurations.count else {
                throw .replyStretches(reply: i)
            }
            guard range.lowerBound == next else { throw .stretchesNotPartitioned }
            next = range.upperBound
        }
        guard next == stretchDurations.count else { throw .stretchesNotPartitioned }
        if let bad = stretchDurations.indices.first(where: { stretchDurations[$0] <= .zero }) {
            throw .stretchDuration(stretch: bad)
        }
        guard utterances >= 0 else { throw .utterances }
        self.init(
            unchecked: settings, lines: lines, replies: replies, stretchDurations: stretchDurations,
            utterances: utterances)
    }

    /// Tables the caller has already validated (a scenario's, through its roster).
    package init(
        unchecked settings: TalkArbiter.Settings, lines: [TalkArbiter.Line], replies: [TalkArbiter.Reply],
        stretchDurations: [SimTime], utterances: Int
    ) {
        self.settings = settings
        self.lines = lines
        self.replies = replies
        self.stretchDurations = stretchDurations
        self.utterances = utterances
    }
}

extension TalkArbiter: Arbiter {
    /// The reference arbiter for one run.
    public init(_ tables: ArbiterTables) { self.init(tables, fault: nil) }

    /// A reference arbiter, or a mutant with a deliberate bug (mutation testing only).
    package init(_ tables: ArbiterTables, fault: Fault?) {
        self.init(
            settings: tables.settings, lines: tables.lines, replies: tables.replies,
            stretchDurations: tables.stretchDurations, fault: fault)
    }
}
