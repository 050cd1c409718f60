import AudioBus

/// drivesim's built-in voices: no dependency, integer arithmetic only, so
/// every machine writes the same bytes.
///
/// A text is cut into syllables (a Hangul block is one; a Latin word has
/// one per vowel group; each digit is one) and pauses (a space, a longer one
/// for punctuation), laid out in proportion over the item's whole length.
/// Each syllable is a tone whose pitch and harmonics come from its letters
/// (its vowel picks the harmonics, its characters nudge the pitch), under a
/// swelling envelope. Between syllables the voice never falls silent (a soft
/// hum at `floor`), so an item sounds exactly while the timeline says it
/// plays, and a cut stops it mid-word, audibly.
///
/// The three timbres: guidance, a steady reedy tone (odd harmonics) at
/// 196 Hz; Pippa, a bright voice around 262 Hz whose pitch moves with the
/// words; Dad, a low buzz around 110 Hz.
package enum SyntheticVoice {
    /// One syllable (or pause) laid out: frames counted from the item's start.
    package struct Syllable: Sendable, Equatable {
        /// Its first frame, from the item's start.
        package var start: Int64
        /// Its length in frames.
        package var length: Int64
        /// The phase step per frame (2³² is one cycle).
        package var step: UInt32
        /// Which waveform (`tables`).
        package var table: Int
        /// The envelope's height at the syllable's middle (a pause: `floor`).
        package var peak: Int32
    }

    /// What a voice sounds like.
    struct Timbre {
        /// The pitch in millihertz.
        var pitch: Int64
        /// How far each syllable's letters move the pitch, in semitones either way.
        var spread: Int
        /// The loudest and the softest the envelope goes (of 32767).
        var peak: Int32, floor: Int32
        /// Its first waveform in `tables` (five follow, one per vowel class).
        var tables: Int
    }

    /// The timbre of `voice`.
    static func timbre(_ voice: Voice) -> Timbre {
        switch voice {
        case .guidance: return Timbre(pitch: 196_000, spread: 1, peak: 14_000, floor: 2_500, tables: 0)
        case .pippa: return Timbre(pitch: 262_000, spread: 4, peak: 12_000, floor: 2_200, tables: 5)
        case .dad: return Timbre(pitch: 110_000, spread: 2, peak: 12_000, floor: 2_500, tables: 10)
        }
    }

    /// Semitones −4…+4 as ratios in thousandths.
    static let semitones: [Int64] = [794, 841, 891, 944, 1000, 1059, 1122, 1189, 1260]

    /// Harmonic weights (1st to 8th) per vowel class: a, e, i, o, u.
    static let vowels: [[Int64]] = [
        [10, 8, 9, 6, 3, 2, 1, 1],
        [10, 4, 6, 7, 5, 3, 2, 1],
        [10, 2, 1, 2, 5, 6, 4, 3],
        [10, 9, 4, 2, 1, 1, 0, 0],
        [10, 5, 1, 0, 0, 0, 0, 0],
    ]

    /// One cycle of 1024 samples per voice and vowel class: guidance's five
    /// (even harmonics halved), Pippa's five, Dad's five (a 1/n buzz up to the
    /// 12th harmonic added). Each is scaled to a peak of 32767.
    package static let tables: [[Int16]] = {
        var tables: [[Int16]] = []
        for voice in 0..<3 {
            for weights in vowels {
                var w = weights + [0, 0, 0, 0]
                if voice == 0 { for h in stride(from: 1, to: w.count, by: 2) { w[h] /= 2 } }
                if voice == 2 { for h in 0..<w.count { w[h] += 12 / Int64(h + 1) } }
                var cycle = [Int64](repeating: 0, count: 1024)
                for k in 0..<1024 {
                    for h in 0..<w.count { cycle[k] += w[h] * sine((k * (h + 1)) & 1023) }
                }
                let top = max(1, cycle.map { abs($0) }.max() ?? 1)
                tables.append(cycle.map { Int16($0 * 32767 / top) })
            }
        }
        return tables
    }()

    /// sin(2πk/1024) × 32767 by Bhaskara I's rational approximation, in
    /// integers (within 0.2 %), so no platform's `sin` decides a sample.
    package static func sine(_ k: Int) -> Int64 {
        let p = Int64(k & 511)
        let v = 16 * p * (512 - p) * 32767 / (5 * 512 * 512 - 4 * p * (512 - p))
        return k & 512 == 0 ? v : -v
    }

    /// The envelope of a syllable over 256 steps: 4x(1 − x), 0…32767.
    static let swell: [Int32] = (0..<257).map { (k: Int) -> Int32 in
        let x = k * (256 - k)
        return Int32(x * 4 * 32767 / 65536)
    }

    /// One unit of speech: a syllable of a vowel class (0…4) or a pause, and
    /// its weight in the layout.
    struct Unit: Equatable {
        /// The vowel class, nil for a pause.
        var vowel: Int?
        /// What its characters add up to: moves the pitch.
        var seed: Int
        /// Its share of the item's length.
        var weight: Int64
    }

    /// The vowel class of each Hangul medial (ㅏ … ㅣ).
    static let hangulVowels = [0, 1, 0, 1, 3, 1, 3, 1, 3, 0, 1, 1, 3, 4, 3, 1, 2, 4, 4, 2, 2]

    /// The vowel class of an ASCII vowel letter, nil for any other.
    static func vowelClass(_ c: UInt32) -> Int? {
        switch c | 0x20 {
        case 0x61: return 0  // a
        case 0x65: return 1  // e
        case 0x69, 0x79: return 2  // i, y
        case 0x6F: return 3  // o
        case 0x75: return 4  // u
        default: return nil
        }
    }

    /// `text` cut into syllables and pauses, no pause at either end.
    /// - Complexity: O(n), n the text's scalars.
    static func units(of text: String) -> [Unit] {
        var units: [Unit] = []
        var word: [UInt32] = []
        func endWord() {
            guard !word.isEmpty else { return }
            // One syllable per vowel group; the consonants before the first join it.
            var onset = 0
            let first = units.count
            var afterVowel = false
            for c in word {
                let vowel = vowelClass(c)
                if let vowel, !afterVowel {
                    units.append(Unit(vowel: vowel, seed: Int(c), weight: 3))
                } else if units.count > first {
                    units[units.count - 1].seed &+= Int(c)
                } else {
                    onset &+= Int(c)
                }
                afterVowel = vowel != nil
            }
            // A word of consonants alone ("km") says one syllable like "e".
            if units.count == first { units.append(Unit(vowel: 1, seed: 0, weight: 3)) }
            units[first].seed = (units[first].seed &+ onset) & 0xFFFF
            word.removeAll(keepingCapacity: true)
        }
        func pause(_ weight: Int64) {
            endWord()
            guard let last = units.last else { return }
            if last.vowel == nil {
                units[units.count - 1].weight = max(last.weight, weight)
            } else {
                units.append(Unit(vowel: nil, seed: 0, weight: weight))
            }
        }
        for scalar in text.unicodeScalars {
            let c = scalar.value
            if (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) {
                word.append(c)
                continue
            }
            endWord()
            if (0xAC00...0xD7A3).contains(c) {
                units.append(Unit(vowel: hangulVowels[Int((c - 0xAC00) % 588 / 28)], seed: Int(c % 97), weight: 3))
            } else if (0x30...0x39).contains(c) {
                units.append(Unit(vowel: Int(c) % 5, seed: Int(c), weight: 3))
            } else if scalar.properties.isAlphabetic {
                units.append(Unit(vowel: Int(c % 5), seed: Int(c % 97), weight: 3))
            } else {
                pause(scalar == " " ? 1 : 2)
            }
        }
        endWord()
        while let last = units.last, last.vowel == nil { units.removeLast() }
        return units
    }

    /// The units of an item without text: one syllable every 200 ms, each
    /// from its id's characters, so it still sounds like speech.
    static func babble(_ id: String, frames: Int64) -> [Unit] {
        let sum = id.unicodeScalars.reduce(0) { $0 &+ Int($1.value) }
        let count = max(1, min(10_000, frames / (200 * WAVFile.framesPerMs)))
        return (0..<Int(count)).map { i in
            Unit(vowel: ((sum &+ 3 &* i) & 0x7FFF_FFFF) % 5, seed: (sum &+ 7 &* i) & 0x7FFF, weight: 3)
        }
    }

    /// The syllables of `words` spoken by `voice` over `frames` frames.
    /// - Complexity: O(n), n the text's scalars.
    package static func syllables(_ words: Soundtrack.Words, voice: Voice, frames: Int64) -> [Syllable] {
        var units = words.text.map(units(of:)) ?? []
        if units.isEmpty { units = babble(words.id, frames: frames) }
        let timbre = timbre(voice)
        let total = units.reduce(Int64(0)) { $0 + $1.weight }
        var syllables: [Syllable] = []
        syllables.reserveCapacity(units.count)
        var cumulative: Int64 = 0
        for (k, unit) in units.enumerated() {
            let start = frames.multipliedFullWidth(by: cumulative)
            cumulative += unit.weight
            let end = frames.multipliedFullWidth(by: cumulative)
            let a = Int64(truncatingIfNeeded: total.dividingFullWidth(start).quotient)
            let b = Int64(truncatingIfNeeded: total.dividingFullWidth(end).quotient)
            guard b > a else { continue }
            let vowel = unit.vowel ?? 0
            // Guidance falls a semitone on its last syllable; the others move with their letters.
            var shift = (unit.seed & 0xFFFF) % (2 * timbre.spread + 1) - timbre.spread
            if voice == .guidance { shift = k == units.count - 1 ? -1 : 0 }
            let pitch = timbre.pitch * semitones[4 + shift] / 1000
            let step = UInt32(truncatingIfNeeded: (pitch << 32) / (Int64(WAVFile.rate) * 1000))
            syllables.append(
                Syllable(
                    start: a, length: b - a, step: step, table: timbre.tables + vowel,
                    peak: unit.vowel == nil ? timbre.floor : timbre.peak))
        }
        return syllables
    }

    /// Adds frames `from..<to` (counted from the item's start) of the voice
    /// whose syllables are `syllables` to `out`, one sample every `stride`
    /// Int32s, starting at `out[0]`; `cursor` is the syllable to look from,
    /// moved on as frames pass (frames are asked in order).
    package static func render(
        _ syllables: [Syllable], floor: Int32, from: Int64, to: Int64, cursor: inout Int,
        into out: UnsafeMutablePointer<Int32>, stride: Int
    ) {
        var f = from
        var o = out
        while f < to, cursor < syllables.count {
            let s = syllables[cursor]
            if f >= s.start + s.length {
                cursor += 1
                continue
            }
            let end = min(to, s.start + s.length)
            if f < s.start {
                o += stride * Int(min(end, s.start) - f)
                f = min(end, s.start)
                continue
            }
            let table = tables[s.table]
            // The envelope's step through `swell` in 16.16 fixed point.
            let walk = (Int64(256) << 16) / s.length
            let rise = s.peak - floor
            table.withUnsafeBufferPointer { wave in
                swell.withUnsafeBufferPointer { shape in
                    var q = f - s.start
                    while f < end {
                        let phase = UInt32(truncatingIfNeeded: q) &* s.step
                        let envelope = floor + (rise * shape[Int((q * walk) >> 16)]) >> 15
                        o.pointee &+= (Int32(wave[Int(phase >> 22)]) &* envelope) >> 15
                        o += stride
                        q += 1
                        f += 1
                    }
                }
            }
        }
    }
}
