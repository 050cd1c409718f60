/// The WAV files drivesim writes (`run --format wav`) and reads (a
/// `--voice` command's output): RIFF, PCM, 16-bit little-endian samples.
///
/// Written: 16,000 frames a second, two channels (left: the speaker, what
/// Dad hears; right: the microphone as the talk's ears pass it, what Pippa
/// hears), so one millisecond is exactly 16 frames and every timeline instant
/// falls on a frame. A RIFF file counts its bytes in 32 bits: at 64,000 bytes
/// a second it holds at most `maxMilliseconds` (about 18 h 38 min).
package enum WAVFile {
    /// Frames per second of the files written.
    package static let rate = 16_000
    /// Frames per millisecond of the files written.
    package static let framesPerMs: Int64 = 16
    /// Channels of the files written: left, the speaker; right, the microphone behind the ears.
    package static let channels = 2
    /// Bytes per frame written: two 16-bit samples.
    package static let bytesPerFrame: Int64 = 4
    /// The header's size: the RIFF, `fmt ` and `data` chunk headers.
    package static let headerSize = 44
    /// The longest sound a RIFF file can hold at this rate, in milliseconds:
    /// its sizes are 32-bit and the RIFF size counts the header's last 36 bytes.
    package static let maxMilliseconds = (Int64(UInt32.max) - 36) / (framesPerMs * bytesPerFrame)

    /// The 44-byte header of a file of `frames` frames (sizes saturated at
    /// the 32-bit limit: `run` refuses longer sounds before writing).
    package static func header(frames: Int64) -> [UInt8] {
        let data = UInt32(clamping: frames * bytesPerFrame)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func word(_ v: UInt32) { for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
        func half(_ v: UInt16) {
            bytes.append(UInt8(truncatingIfNeeded: v))
            bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        }
        bytes += Array("RIFF".utf8)
        word(data > UInt32.max - 36 ? UInt32.max : data + 36)
        bytes += Array("WAVEfmt ".utf8)
        word(16)
        half(1)  // PCM
        half(UInt16(channels))
        word(UInt32(rate))
        word(UInt32(rate * channels * 2))
        half(UInt16(channels * 2))
        half(16)
        bytes += Array("data".utf8)
        word(data)
        return bytes
    }

    /// A WAV file's sound: its rate and the samples of its first channel.
    package struct Sound: Sendable, Equatable {
        /// Frames per second.
        package var rate: Int
        /// How many channels the file had.
        package var channels: Int
        /// The samples of each channel, one array per channel.
        package var samples: [[Int16]]
    }

    /// Why bytes are not a WAV file this reader takes.
    package enum Problem: Error, Sendable, Equatable {
        /// Not `RIFF….WAVE`.
        case notWAV
        /// No `fmt ` chunk before the `data` chunk, or no `data` chunk.
        case missingChunk(String)
        /// Not 16-bit integer PCM.
        case unsupportedEncoding(format: Int, bits: Int)
        /// A rate or channel count of zero.
        case badFormat
    }

    /// Reads a 16-bit PCM WAV file (`WAVE_FORMAT_PCM` or `EXTENSIBLE`). A
    /// `data` size larger than what follows (a writer that streamed to a
    /// pipe, as `espeak-ng --stdout` does) is taken as "to the end".
    /// - Complexity: O(n), n the bytes.
    package static func parse(_ bytes: [UInt8]) -> Result<Sound, Problem> {
        func word(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func half(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8)
        else {
            return .failure(.notWAV)
        }
        var at = 12
        var format: (code: Int, channels: Int, rate: Int, bits: Int)? = nil
        while at + 8 <= bytes.count {
            let size = word(at + 4)
            let body = at + 8
            if bytes[at..<at + 4].elementsEqual("fmt ".utf8) {
                guard size >= 16, body + 16 <= bytes.count else { return .failure(.missingChunk("fmt ")) }
                var code = half(body)
                if code == 0xFFFE, size >= 26, body + 26 <= bytes.count { code = half(body + 24) }
                format = (code, half(body + 2), word(body + 4), half(body + 14))
            } else if bytes[at..<at + 4].elementsEqual("data".utf8) {
                guard let format else { return .failure(.missingChunk("fmt ")) }
                guard format.code == 1, format.bits == 16 else {
                    return .failure(.unsupportedEncoding(format: format.code, bits: format.bits))
                }
                guard format.channels > 0, format.rate > 0 else { return .failure(.badFormat) }
                let end = body + min(size, bytes.count - body)
                let frames = (end - body) / (2 * format.channels)
                var samples = [[Int16]](repeating: [], count: format.channels)
                for c in 0..<format.channels {
                    samples[c] = (0..<frames).map { f in
                        let k = body + 2 * (f * format.channels + c)
                        return Int16(bitPattern: UInt16(bytes[k]) | UInt16(bytes[k + 1]) << 8)
                    }
                }
                return .success(Sound(rate: format.rate, channels: format.channels, samples: samples))
            }
            // Chunks are padded to an even size.
            let next = body.addingReportingOverflow(size + (size & 1))
            guard !next.overflow, next.partialValue > at else { break }
            at = next.partialValue
        }
        return .failure(.missingChunk("data"))
    }
}
