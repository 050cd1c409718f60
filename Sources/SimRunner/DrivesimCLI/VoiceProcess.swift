import ExternalProcess
import Foundation
import Review
import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `run --format wav --voice COMMAND`: real speech from a text-to-speech
/// command (`espeak-ng -v {lang} --stdout`), run like `--arbiter`'s process
/// (`/bin/sh -c`, its own process group, killed and reaped whatever
/// happens), once per distinct phrase (text and language).
///
/// `{lang}` in the command becomes the phrase's language (`en`, `ko`); the
/// text goes to the command's standard input, never into the command line,
/// so no text can be taken for shell syntax. The command must write one
/// 16-bit PCM WAV file to standard output, at any rate, within the timeout.
/// Items without text or without a language keep the built-in voices (a
/// language is never guessed).
enum VoiceProcess {
    /// The most of a command's output read: 64 MiB.
    static let outputLimit = 64 << 20
    /// A sample quieter than this at either end of a recording is silence, trimmed before fitting.
    static let quiet: Int16 = 64
    /// How far a recording may be stretched or squeezed to fit its item's length without a warning: twice either way.
    static let fitBound = 2

    /// Each phrase of `soundtrack` spoken by `command`, trimmed of its
    /// leading and trailing silence, or exit 2 naming the item whose phrase failed.
    static func record(_ soundtrack: Soundtrack, command: String, timeoutMs: Int) throws(DrivesimError) -> [Soundtrack
        .Phrase: WAVFile.Sound]
    {
        guard command.contains(where: { !$0.isWhitespace }) else { throw .usage(.emptyValue(option: "--voice")) }
        var recordings: [Soundtrack.Phrase: WAVFile.Sound] = [:]
        for (phrase, id) in soundtrack.phrases {
            guard let language = phrase.language else { continue }
            let said = command.replacingOccurrences(of: "{lang}", with: language.rawValue)
            let failed = { (reason: String) -> DrivesimError in
                .voiceProcess(
                    command: said,
                    reason:
                        "for \(id) \"\(escapedForTerminal(String(phrase.text.prefix(60))))\" (\(language.rawValue)): \(reason)"
                )
            }
            let output: [UInt8]
            switch run(said, input: Array(phrase.text.utf8), timeoutMs: timeoutMs) {
            case .success(let bytes): output = bytes
            case .failure(let failure): throw failed(failure.reason)
            }
            switch WAVFile.parse(output) {
            case .success(var sound):
                sound.samples = [trimmed(sound.samples[0])]
                sound.channels = 1
                recordings[phrase] = sound
            case .failure(let problem):
                throw failed("its output is \(problem.words)")
            }
        }
        return recordings
    }

    /// `samples` without the silence at either end.
    static func trimmed(_ samples: [Int16]) -> [Int16] {
        let loud = { (s: Int16) in s > quiet || s < -quiet }
        guard let first = samples.firstIndex(where: loud), let last = samples.lastIndex(where: loud) else { return [] }
        return Array(samples[first...last])
    }

    /// A warning for each phrase whose recording had to be stretched or
    /// squeezed past `fitBound` to last as long as its item (the first item saying it).
    static func fitWarnings(_ soundtrack: Soundtrack, _ recordings: [Soundtrack.Phrase: WAVFile.Sound]) -> [String] {
        var warned = Set<Soundtrack.Phrase>()
        var warnings: [String] = []
        for sound in soundtrack.sounds {
            guard let phrase = sound.words.phrase, let recording = recordings[phrase], !warned.contains(phrase) else {
                continue
            }
            let spokenMs = Int64(recording.samples[0].count) * 1000 / Int64(recording.rate)
            let lengthMs = sound.length.ms
            guard spokenMs > lengthMs * Int64(fitBound) || spokenMs * Int64(fitBound) < lengthMs else { continue }
            warned.insert(phrase)
            warnings.append(
                escapedForTerminal(
                    "--voice: \(sound.words.id) \"\(phrase.text.prefix(60))\": its speech lasts \(spokenMs) ms, fitted to the item's \(lengthMs) ms "
                        + "(beyond \(fitBound)× either way: its pitch and pace change with it)"))
        }
        return warnings
    }

    /// Why one run of the command failed.
    struct Failure: Error { var reason: String }

    /// Runs `command` with `input` on its standard input and returns its
    /// standard output once it exits with status 0, within `timeoutMs`; the
    /// process group is killed and reaped in every case.
    static func run(_ command: String, input: [UInt8], timeoutMs: Int) -> Result<[UInt8], Failure> {
        // A command that exits without reading its text must not kill drivesim.
        signal(SIGPIPE, SIG_IGN)
        let process: ChildProcess
        switch ChildProcess.spawn(command) {
        case .success(let p): process = p
        case .failure(let failure): return .failure(Failure(reason: failure.reason))
        }
        var errTail: [UInt8] = []
        var output: [UInt8] = []
        var failure: String? = nil
        var written = 0
        var inputOpen = true
        var outputOpen = true
        var errorsOpen = true
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(timeoutMs)
        var chunk = [UInt8](repeating: 0, count: 65536)
        if input.isEmpty {
            process.closeInput()
            inputOpen = false
        }
        while outputOpen {
            var fds = [
                pollfd(fd: process.output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? process.errors : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: inputOpen ? process.input : -1, events: Int16(POLLOUT), revents: 0),
            ]
            let ready = poll(&fds, 3, 50)
            if ready < 0 {
                if errno == EINTR { continue }
                failure = "cannot read its output"
                break
            }
            if fds[1].revents != 0 { errorsOpen = process.drain(process.errors, into: &errTail, keep: 2048) }
            if fds[2].revents != 0, inputOpen {
                let n = input[written...].withUnsafeBytes { write(process.input, $0.baseAddress, $0.count) }
                if n > 0 {
                    written += n
                } else if !(n < 0 && (errno == EINTR || errno == EAGAIN)) {
                    written = input.count
                }
                // All of the text given (or the command stopped reading): the end of its input.
                if written == input.count {
                    process.closeInput()
                    inputOpen = false
                }
            }
            if fds[0].revents != 0 {
                while true {
                    let n = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
                    if n > 0 {
                        output.append(contentsOf: chunk[..<n])
                        if output.count > outputLimit { break }
                        continue
                    }
                    if n < 0, errno == EINTR { continue }
                    if n == 0 { outputOpen = false }
                    break
                }
                if output.count > outputLimit {
                    failure = "it wrote more than \(outputLimit >> 20) MiB"
                    break
                }
            } else if ready == 0, process.reap() {
                // Exited, its output perhaps held open by a grandchild: what it wrote is in the pipe.
                process.drain(process.output, into: &output, keep: outputLimit + 1)
                break
            }
            if clock.now >= deadline {
                failure = "no WAV within \(LineChannel.describe(milliseconds: timeoutMs))"
                break
            }
        }
        if output.count > outputLimit, failure == nil { failure = "it wrote more than \(outputLimit >> 20) MiB" }
        // It has a second to exit after writing everything.
        let exited = failure == nil && process.awaitExit(milliseconds: 1000)
        var tail: [UInt8] = []
        process.end(tail: &tail, keep: 2048)
        errTail += tail
        if failure == nil, !exited { failure = "it did not exit after writing its output" }
        if failure == nil, process.exitDescription != "exit status 0" {
            failure = "it ended with \(process.exitDescription)"
        }
        guard let failure else { return .success(output) }
        let said = String(decoding: errTail.suffix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return .failure(Failure(reason: failure + (said.isEmpty ? "" : "; it said: " + said)))
    }
}

extension WAVFile.Problem {
    /// The problem in words, for `--voice`'s errors.
    var words: String {
        switch self {
        case .notWAV: return "not a WAV file (no RIFF/WAVE header)"
        case .missingChunk(let name): return "a WAV file without a '\(name)' chunk"
        case .unsupportedEncoding(let format, let bits):
            return "WAV encoding \(format) with \(bits) bits per sample; only 16-bit PCM is read"
        case .badFormat: return "a WAV file with no channels or a rate of 0"
        }
    }
}
