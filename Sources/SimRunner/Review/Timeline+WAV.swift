import SimClock
import SimRunner

/// `run --format wav`: the timeline as sound (docs/review.md, "Listening").
extension Timeline {
    /// The milliseconds a WAV of `window` holds: from `--from` (else 0) to
    /// `--to` (else the last event), at least one.
    package func soundRange(_ window: ReviewWindow) -> (start: SimTime, end: SimTime) {
        window.range(end: events.last?.t ?? .zero)
    }

    /// Frames handed over at a time: a quarter of a second, 64 KiB of samples.
    static let wavChunkFrames = 16_384

    /// Writes the WAV of `window` (`WAVFile`'s layout) to `emit` in chunks
    /// of a quarter of a second as they are made: memory is bounded by the
    /// timeline's sounds, never by the drive's length. A sound whose phrase
    /// is in `recordings` (a `--voice` command's output) says it, fitted to
    /// the item's length; any other speaks with the built-in voices
    /// (`SyntheticVoice`). Samples are a function of their time alone, so a
    /// window's bytes are the same as the whole drive's at those times.
    /// - Complexity: O(f + n log n), f the frames, n the events.
    package func writeWAV(
        window: ReviewWindow = ReviewWindow(), recordings: [Soundtrack.Phrase: WAVFile.Sound] = [:],
        to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let range = soundRange(window)
        let first = range.start.ms * WAVFile.framesPerMs
        let last = range.end.ms * WAVFile.framesPerMs
        WAVFile.header(frames: last - first).withUnsafeBufferPointer(emit)
        let sounds = Soundtrack(self, only: window.only).sounds
        var next = 0
        var active: [Speaking] = []
        let chunk = Self.wavChunkFrames
        var mix = [Int32](repeating: 0, count: 2 * chunk)
        var bytes = [UInt8](repeating: 0, count: 4 * chunk)
        var at = first
        while at < last {
            let count = Int(min(Int64(chunk), last - at))
            let end = at + Int64(count)
            while next < sounds.count, sounds[next].audible.start.ms * WAVFile.framesPerMs < end {
                let sound = sounds[next]
                next += 1
                if sound.audible.end.ms * WAVFile.framesPerMs > at {
                    active.append(Speaking(sound, recordings: recordings))
                }
            }
            mix.withUnsafeMutableBufferPointer { mix in
                mix.update(repeating: 0)
                for k in active.indices {
                    let from = max(at, active[k].start)
                    let to = min(end, active[k].end)
                    guard from < to else { continue }
                    active[k].render(
                        from: from, to: to,
                        into: mix.baseAddress! + 2 * Int(from - at) + (active[k].sound.isMicrophone ? 1 : 0))
                }
                bytes.withUnsafeMutableBufferPointer { out in
                    for i in 0..<(2 * count) {
                        // Clamped to 16 bits, little-endian (compared in Int32, not by the generic
                        // `Int16(clamping:)`, which a debug build, the tests', runs three times slower).
                        let x = mix[i]
                        let v = UInt32(bitPattern: x > 32_767 ? 32_767 : x < -32_768 ? -32_768 : x)
                        out[2 * i] = UInt8(truncatingIfNeeded: v)
                        out[2 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    }
                }
            }
            active.removeAll { $0.end <= end }
            bytes.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<4 * count])) }
            at = end
        }
    }
}

/// A sound being rendered: its syllables (or its recording) made once when it starts to be heard.
private struct Speaking {
    let sound: Soundtrack.Sound
    /// Its audible frames, absolute.
    let start: Int64, end: Int64
    /// Its first word's frame.
    let origin: Int64
    /// The item's whole length in frames.
    let frames: Int64
    let syllables: [SyntheticVoice.Syllable]
    let recording: [Int16]?
    let floor: Int32
    var cursor = 0

    init(_ sound: Soundtrack.Sound, recordings: [Soundtrack.Phrase: WAVFile.Sound]) {
        self.sound = sound
        start = sound.audible.start.ms * WAVFile.framesPerMs
        end = sound.audible.end.ms * WAVFile.framesPerMs
        origin = sound.origin.ms * WAVFile.framesPerMs
        frames = max(1, sound.length.ms * WAVFile.framesPerMs)
        recording = sound.words.phrase.flatMap { recordings[$0]?.samples.first }.flatMap { $0.isEmpty ? nil : $0 }
        syllables = recording == nil ? SyntheticVoice.syllables(sound.words, voice: sound.voice, frames: frames) : []
        floor = SyntheticVoice.timbre(sound.voice).floor
    }

    /// Adds absolute frames `from..<to` to `out` (every other Int32: one channel of a stereo mix).
    mutating func render(from: Int64, to: Int64, into out: UnsafeMutablePointer<Int32>) {
        guard let recording else {
            SyntheticVoice.render(
                syllables, floor: floor, from: from - origin, to: to - origin, cursor: &cursor, into: out, stride: 2)
            return
        }
        // Fitted: the recording stretched or squeezed over the item's whole length, linearly interpolated.
        let n = Int64(recording.count)
        var o = out
        recording.withUnsafeBufferPointer { r in
            for p in (from - origin)..<(to - origin) {
                let position = p * (n - 1)
                let i = Int(position / frames)
                let fraction = position % frames
                let a = Int64(r[i])
                let b = Int64(r[min(i + 1, r.count - 1)])
                o.pointee &+= Int32(truncatingIfNeeded: a + (b - a) * fraction / frames)
                o += 2
            }
        }
    }
}
