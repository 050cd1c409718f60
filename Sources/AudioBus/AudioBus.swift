import SimClock

/// The simulated speaker and microphone: a guidance player, a talk player and
/// Dad's microphone behind the talk's ears.
///
/// It carries out what the arbiter decided and keeps its own record: every
/// interval a voice was audible, when the ears were open, and how much of each
/// utterance was heard. It trusts no one: if two voices ever play at once it
/// records an `Overlap`, whatever the arbiter believed.
public struct AudioBus: Sendable {
    /// Everything that sounded, in the order it started.
    public private(set) var played: [Played] = []
    /// Every instant two voices overlapped.
    public private(set) var overlaps: [Overlap] = []

    private var guidancePlaying: Int?
    private var talkPlaying: Int?
    /// When the ears were open: the current open stretch runs to `Int64.max`
    /// ms until they close, so an utterance's heard time is one measure.
    private var earsOpen = IntervalSet.always
    private var earsAreOpen = true
    private var speech: Speech?

    /// A silent bus at time zero, ears open.
    public init() {}

    /// Makes room in the record for `count` intervals played, so a long run's record grows once.
    public mutating func reserveCapacity(_ count: Int) { played.reserveCapacity(count) }

    /// What is audible on the speaker now, if anything.
    public var audible: Voice? {
        if guidancePlaying != nil { return .guidance }
        return talkPlaying != nil ? .pippa : nil
    }

    /// The guidance player starts a line (by index).
    public mutating func startGuidance(_ line: Int, at now: SimTime) {
        if let stretch = talkPlaying { overlaps.append(Overlap(at: now, line: line, stretch: played[stretch].item)) }
        guidancePlaying = played.count
        played.append(Played(voice: .guidance, item: line, start: now, end: now, cut: false))
    }

    /// The guidance player finishes its line.
    public mutating func endGuidance(at now: SimTime) {
        guard let i = guidancePlaying else { return }
        played[i].end = now
        guidancePlaying = nil
    }

    /// The talk player starts a stretch (by index).
    public mutating func startStretch(_ stretch: Int, at now: SimTime) {
        if let line = guidancePlaying { overlaps.append(Overlap(at: now, line: played[line].item, stretch: stretch)) }
        talkPlaying = played.count
        played.append(Played(voice: .pippa, item: stretch, start: now, end: now, cut: false))
    }

    /// The talk player stops, at the stretch's end or cut short.
    public mutating func stopStretch(at now: SimTime, cut: Bool) {
        guard let i = talkPlaying else { return }
        played[i].end = now
        played[i].cut = cut
        talkPlaying = nil
    }

    /// The times guidance and Pippa sounded together, from the finished
    /// intervals: empty on a sound bus, whatever `overlaps` recorded.
    /// - Complexity: O(n), n the intervals played.
    public var soundedTogether: IntervalSet { intervals(of: .guidance).intersection(intervals(of: .pippa)) }

    /// The talk's ears open or close.
    public mutating func setEars(open: Bool, at now: SimTime) {
        guard open != earsAreOpen else { return }
        if open { earsOpen.insert(SimInterval(now, .endOfTime)) } else { earsOpen.remove(SimInterval(now, .endOfTime)) }
        earsAreOpen = open
    }

    /// Dad starts speaking into the microphone.
    public mutating func startSpeech(_ utterance: Int, at now: SimTime) {
        speech = Speech(utterance: utterance, start: now)
    }

    /// Dad stops speaking: how much of the utterance the ears heard and lost.
    /// - Complexity: O(log n + k), n the times the ears closed, k while he spoke.
    public mutating func endSpeech(at now: SimTime) -> (heard: SimTime, lost: SimTime) {
        guard let current = speech else { return (.zero, .zero) }
        speech = nil
        let spoken = SimInterval(current.start, now)
        let heard = earsOpen.measure(within: spoken)
        played.append(Played(voice: .dad, item: current.utterance, start: current.start, end: now, cut: false))
        return (heard, spoken.duration - heard)
    }

    /// The times `voice` sounded (or Dad spoke), from the finished intervals
    /// of `played`; a voice still playing has not added its interval yet.
    /// - Complexity: O(n), n the intervals played.
    public func intervals(of voice: Voice) -> IntervalSet {
        IntervalSet(played.lazy.filter { $0.voice == voice }.map(\.interval))
    }

    /// One interval in which a voice was audible (or Dad spoke).
    public struct Played: Sendable, Equatable {
        /// Who sounded.
        public var voice: Voice
        /// The line, stretch or utterance index.
        public var item: Int
        /// When it started.
        public var start: SimTime
        /// When it stopped; equal to `start` while still playing.
        public var end: SimTime
        /// A stretch stopped before its end.
        public var cut: Bool

        /// `[start, end)`.
        public var interval: SimInterval { SimInterval(start, end) }
    }

    /// Two voices audible at once: a broken bus.
    public struct Overlap: Sendable, Equatable {
        /// When the second voice started over the first.
        public var at: SimTime
        /// The guidance line playing.
        public var line: Int
        /// Pippa's stretch playing.
        public var stretch: Int
    }

    private struct Speech: Sendable {
        var utterance: Int
        var start: SimTime
    }
}
