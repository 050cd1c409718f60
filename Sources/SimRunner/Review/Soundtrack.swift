import AudioBus
import Guidance
import SimClock
import SimRunner

/// What a timeline sounds like: every stretch of sound on the speaker (what
/// Dad hears) and on the talk's microphone feed (what Pippa hears), read from
/// the timeline's events alone, so the sound can never disagree with it.
///
/// - A guidance line sounds from `guidance.started` to `guidance.ended`.
/// - A stretch sounds from `talk.stretch.started` to `talk.stretch.ended`
///   or `talk.stretch.cut`; a repeated stretch is a new sound from its start.
/// - Dad's utterance, from `dad.started` to `dad.ended`, reaches Pippa only
///   where the ears were open: the utterance minus the windows from
///   `ears.closed` to `ears.opened` (as the lanes draw heard and lost speech;
///   their sums are `dad.ended`'s `heardMs`).
///
/// No rule is decided again here: every interval is an interval of events.
package struct Soundtrack: Sendable {
    /// One item's sound: where its words are laid out (`origin`, `length`,
    /// the item's whole length, so a cut stops it mid-word) and the part of
    /// it that is audible.
    package struct Sound: Sendable, Equatable {
        /// Who speaks: a guidance line and Pippa on the speaker (left), Dad on the microphone (right).
        package var voice: Voice
        /// The words, if the item has any.
        package var words: Words
        /// When its first word begins (the item started).
        package var origin: SimTime
        /// How long the whole item lasts: the line as played, the stretch's
        /// duration (longer than what sounded when it was cut), the utterance.
        package var length: SimTime
        /// What is heard of it, within `[origin, origin + length)`.
        package var audible: SimInterval
        /// The timeline event that started it.
        package var event: Int

        /// Whether it sounds on the right channel (Pippa's ears) rather than the left (the speaker).
        package var isMicrophone: Bool { voice == .dad }
    }

    /// An item's words and language: what a voice says. Items without text
    /// say their id (the built-in voices babble it; a `--voice` command is not asked).
    package struct Words: Sendable, Hashable {
        /// The text, if the scenario gives one.
        package var text: String?
        /// Its language, if given.
        package var language: Language?
        /// The item's id, for messages and for the built-in voices when there is no text.
        package var id: String

        /// What a `--voice` command is asked to say: the text and its language; nil without text.
        package var phrase: Phrase? { text.map { Phrase(text: $0, language: language) } }
    }

    /// A text in a language: what a `--voice` command synthesizes once, however often it is said.
    package struct Phrase: Sendable, Hashable {
        /// The words.
        package var text: String
        /// Their language, if given.
        package var language: Language?
    }

    /// The distinct phrases of the sounds, in the order first heard.
    package var phrases: [(phrase: Phrase, id: String)] {
        var seen = Set<Phrase>()
        return sounds.compactMap { sound in
            sound.words.phrase.flatMap { seen.insert($0).inserted ? ($0, sound.words.id) : nil }
        }
    }

    /// Every sound, ordered by the start of its audible part (then by its event).
    package private(set) var sounds: [Sound] = []

    /// The sounds of `timeline`, those of the families in `only` (`guidance`,
    /// `talk`, `dad`).
    ///
    /// - Complexity: O(n log n), n the events.
    package init(_ timeline: Timeline, only families: EventFamilies = .all) {
        let roster = timeline.roster
        var lineStarted = [(t: SimTime, event: Int)?](repeating: nil, count: roster.lines.count)
        var stretchStarted: (t: SimTime, event: Int, stretch: Int)? = nil
        var speaking: (t: SimTime, event: Int, utterance: Int)? = nil
        var closedSince: SimTime? = nil
        var closed = IntervalSet()
        var utterances: [Sound] = []
        func stretchSound(ending t: SimTime) {
            guard let open = stretchStarted else { return }
            stretchStarted = nil
            let stretch = roster.stretches[open.stretch]
            sounds.append(
                Sound(
                    voice: .pippa, words: Words(text: stretch.text, language: stretch.language, id: stretch.id),
                    origin: open.t, length: max(stretch.duration, t - open.t), audible: SimInterval(open.t, t),
                    event: open.event))
        }
        for (i, e) in timeline.events.enumerated() {
            switch e.what {
            case .guidanceStarted(let l):
                lineStarted[l.int] = (e.t, i)
            case .guidanceEnded(let l):
                guard let open = lineStarted[l.int] else { continue }
                lineStarted[l.int] = nil
                let line = roster.lines[l.int]
                let words = Words(text: roster.text(of: l, startingAt: open.t), language: line.language, id: line.id)
                sounds.append(
                    Sound(
                        voice: .guidance, words: words, origin: open.t, length: e.t - open.t,
                        audible: SimInterval(open.t, e.t), event: open.event))
            case .stretchStarted(_, let s, _):
                stretchSound(ending: e.t)
                stretchStarted = (e.t, i, s.int)
            case .stretchEnded, .stretchCut:
                stretchSound(ending: e.t)
            case .earsClosed:
                if closedSince == nil { closedSince = e.t }
            case .earsOpened:
                if let since = closedSince { closed.insert(SimInterval(since, e.t)) }
                closedSince = nil
            case .dadStarted(let u):
                speaking = (e.t, i, u.int)
            case .dadEnded:
                guard let open = speaking else { continue }
                speaking = nil
                let utterance = roster.utterances[open.utterance]
                let words = Words(text: utterance.text, language: utterance.language, id: utterance.id)
                utterances.append(
                    Sound(
                        voice: .dad, words: words, origin: open.t, length: e.t - open.t,
                        audible: SimInterval(open.t, e.t), event: open.event))
            default:
                continue
            }
        }
        // Ears still closed at the end stay closed.
        if let since = closedSince { closed.insert(SimInterval(since, .endOfTime)) }
        for utterance in utterances {
            for heard in IntervalSet([utterance.audible]).subtracting(closed).intervals {
                var part = utterance
                part.audible = heard
                sounds.append(part)
            }
        }
        sounds.removeAll { sound in
            sound.audible.isEmpty
                || !families.contains(
                    sound.voice == .guidance ? .guidanceStarted : sound.voice == .pippa ? .stretchStarted : .dadStarted)
        }
        sounds.sort { ($0.audible.start, $0.event) < ($1.audible.start, $1.event) }
    }

    /// The sounds heard between `range.start` and `range.end`.
    package func window(_ range: (start: SimTime, end: SimTime)) -> Soundtrack {
        var kept = self
        kept.sounds.removeAll { $0.audible.end <= range.start || $0.audible.start >= range.end }
        return kept
    }

    /// The times the speaker (`microphone` false) or Pippa's ears (`microphone` true) hear something.
    /// - Complexity: O(n log n), n the sounds.
    package func heard(microphone: Bool) -> IntervalSet {
        IntervalSet(sounds.lazy.filter { $0.isMicrophone == microphone }.map(\.audible))
    }
}
