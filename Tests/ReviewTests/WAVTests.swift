import AudioBus
import CLITestSupport
import Foundation
import Fuzzing
import SimClock
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Review
@testable import ScenarioFormat
@testable import SimRunner

/// `--format wav`: the tests listen. Each WAV is decoded and its channels'
/// non-silent intervals compared, to 10 ms, with what the bus recorded as
/// played (left) and what the lanes draw as heard by the ears (right).
@Suite struct WAVTests {
    /// The WAV of `timeline`'s `window`, as `run --format wav` writes it.
    static func wav(_ timeline: Timeline, window: ReviewWindow = ReviewWindow()) -> [UInt8] {
        var bytes: [UInt8] = []
        timeline.writeWAV(window: window) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A sample louder than this is sound.
    static let threshold: Int32 = 200

    /// What each channel of `timeline`'s WAV sounds: its non-silent intervals
    /// in milliseconds, gaps under 10 ms bridged (a tone crosses zero, and
    /// the tolerance is 10 ms); and how many frames it holds.
    static func listen(_ timeline: Timeline, window: ReviewWindow = ReviewWindow()) throws -> (
        frames: Int, left: [SimInterval], right: [SimInterval]
    ) {
        // Listened to as it is written (a drive's WAV is up to 128 MB): the header, then whole frames.
        var header: [UInt8] = []
        var found: [[(start: Int, end: Int)]] = [[], []]
        var frames = 0
        timeline.writeWAV(window: window) { b in
            guard header.count == 44 else {
                header = Array(b)
                return
            }
            #expect(b.count % 4 == 0, "a chunk of whole frames")
            for f in 0..<(b.count / 4) {
                let i = frames + f
                for c in 0..<2 {
                    let k = 4 * f + 2 * c
                    let s = Int32(Int16(bitPattern: UInt16(b[k]) | UInt16(b[k + 1]) << 8))
                    guard s > threshold || s < -threshold else { continue }
                    if let last = found[c].last, i - last.end < 160 {
                        found[c][found[c].count - 1].end = i + 1
                    } else {
                        found[c].append((i, i + 1))
                    }
                }
            }
            frames += b.count / 4
        }
        let sound = try WAVFile.parse(header).get()
        #expect(sound.rate == 16_000 && sound.channels == 2)
        let offset = timeline.soundRange(window).start.ms
        let ms = found.map {
            $0.map {
                SimInterval(SimTime(ms: offset + Int64($0.start) / 16), SimTime(ms: offset + (Int64($0.end) + 15) / 16))
            }
        }
        return (frames, ms[0], ms[1])
    }

    /// `set`'s intervals with gaps under 10 ms bridged, as `listen` does.
    static func bridged(_ set: IntervalSet) -> [SimInterval] {
        var out: [SimInterval] = []
        for interval in set.intervals {
            if let last = out.last, interval.start.ms - last.end.ms < 10 {
                out[out.count - 1].end = interval.end
            } else {
                out.append(interval)
            }
        }
        return out
    }

    /// Whether two lists of intervals agree, each end within 10 ms.
    static func agree(_ heard: [SimInterval], _ expected: [SimInterval]) -> Bool {
        heard.count == expected.count
            && zip(heard, expected).allSatisfy {
                abs($0.start.ms - $1.start.ms) <= 10 && abs($0.end.ms - $1.end.ms) <= 10
            }
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func eachChannelSoundsExactlyWhileTheTimelineSaysItPlays(_ file: ScenarioFile) throws {
        let scenario = try Fixtures.load(file.path)
        let simulation = try Simulation(scenario)
        let timeline = simulation.timeline
        let (frames, heardLeft, heardRight) = try Self.listen(timeline)
        let end = timeline.events.last?.t ?? .zero
        #expect(frames == Int(max(end.ms, 1)) * 16)
        // Left: the bus's own record of what played, guidance and Pippa.
        let speaker = simulation.bus.intervals(of: .guidance).union(simulation.bus.intervals(of: .pippa))
        let expectedLeft = Self.bridged(speaker)
        #expect(Self.agree(heardLeft, expectedLeft), "left: heard \(heardLeft), played \(expectedLeft)")
        // Right: Dad's speech where the lanes draw it heard; their sum per utterance is dad.ended's heardMs.
        let heard = IntervalSet(Lanes(timeline).bars.filter { $0.kind == .heard }.map { SimInterval($0.start, $0.end) })
        let expectedRight = Self.bridged(heard)
        #expect(Self.agree(heardRight, expectedRight), "right: heard \(heardRight), heard by the ears \(expectedRight)")
        let heardMs = timeline.events.reduce(Int64(0)) {
            if case .dadEnded(_, let h, _) = $1.what { $0 + h } else { $0 }
        }
        #expect(Soundtrack(timeline).heard(microphone: true).measure.ms == heardMs)
    }

    @Test(arguments: Fixtures.scenarioFiles)
    func aCutStretchStopsWithinTenMillisecondsOfItsCut(_ file: ScenarioFile) throws {
        let timeline = try Simulation(try Fixtures.load(file.path)).timeline
        let cuts = timeline.events.filter {
            if case .stretchCut(_, _, _, _, let played, _) = $0.what { played > 0 } else { false }
        }
        guard !cuts.isEmpty else { return }
        // Pippa alone: what follows a cut (the line that cut it) would hide the cut.
        let heard = try Self.listen(timeline, window: ReviewWindow(only: EventFamilies.parse("talk").get())).left
        for cut in cuts {
            #expect(
                heard.contains { abs($0.end.ms - cut.t.ms) <= 10 }, "the stretch cut at \(cut.t) still sounds: \(heard)"
            )
        }
    }

    @Test func theSameTimelineGivesTheSameBytesAndAWindowIsASliceOfTheWhole() throws {
        let timeline = try Simulation(try Fixtures.scenario("urgent-cut")).timeline
        let whole = Self.wav(timeline)
        #expect(whole == Self.wav(timeline))
        let window = ReviewWindow(from: SimTime(ms: 1_500), to: SimTime(ms: 3_250))
        let part = Self.wav(timeline, window: window)
        #expect(part.count == 44 + 1_750 * 64)
        #expect(Array(part[44...]) == Array(whole[(44 + 1_500 * 64)..<(44 + 3_250 * 64)]))
    }

    @Test func theHeaderSaysSixteenBitStereoAtSixteenKilohertzAndItsSizes() throws {
        let header = WAVFile.header(frames: 16_000)
        #expect(header.count == 44)
        #expect(Array(header[0..<4]) == Array("RIFF".utf8) && Array(header[36..<40]) == Array("data".utf8))
        #expect(header[4] == 0x24 && header[5] == 0xFA && header[6] == 0 && header[7] == 0)  // 64,036
        #expect(WAVFile.maxMilliseconds == 67_108_863)
        // A stream's data size larger than what follows (espeak-ng to a pipe) reads to the end.
        var stream = WAVFile.header(frames: 1_000_000)
        stream += [1, 0, 2, 0, 3, 0, 4, 0]
        #expect(try WAVFile.parse(stream).get().samples == [[1, 3], [2, 4]])
        #expect(WAVFile.parse(Array("RIFX".utf8)) == .failure(.notWAV))
    }

    @Test func theThreeVoicesAreDistinctAndTheWordsShapeThem() {
        func syllables(_ text: String?, _ voice: Voice, ms: Int64 = 2_000) -> [SyntheticVoice.Syllable] {
            SyntheticVoice.syllables(
                Soundtrack.Words(text: text, language: nil, id: "x"), voice: voice, frames: ms * 16)
        }
        let said = "In 300 m, turn right"
        let steps = [Voice.dad, .guidance, .pippa].map { syllables(said, $0).map(\.step).min() ?? 0 }
        #expect(steps[0] < steps[1] && steps[1] < steps[2], "Dad lowest, Pippa highest")
        #expect(Set([Voice.dad, .guidance, .pippa].map { syllables(said, $0).map(\.table) }).count == 3)
        // In, 3, 0, 0, m, turn, right: seven syllables, with pauses between words.
        #expect(syllables(said, .guidance).filter { $0.peak > 2_500 }.count == 7)
        // A Hangul block is a syllable: 세 번째 출구 is five.
        #expect(syllables("세 번째 출구", .pippa).filter { $0.peak > 2_200 }.count == 5)
        #expect(syllables("turn left", .guidance) != syllables("turn right", .guidance))
        // Without text, the id is babbled, one syllable per 200 ms.
        #expect(syllables(nil, .dad, ms: 1_000).count == 5)
        // The layout covers the whole item, without a gap.
        let laid = syllables(said, .pippa)
        #expect(laid.first?.start == 0 && laid.last.map { $0.start + $0.length } == 32_000)
        #expect(zip(laid, laid.dropFirst()).allSatisfy { $0.start + $0.length == $1.start })
    }

    @Test func theSineIsTheSameIntegersEverywhere() {
        #expect(SyntheticVoice.sine(0) == 0 && SyntheticVoice.sine(256) == 32767 && SyntheticVoice.sine(768) == -32767)
        #expect(
            (0..<1024).allSatisfy {
                abs(Double(SyntheticVoice.sine($0)) / 32767 - sin(Double($0) * 2 * .pi / 1024)) < 0.002
            })
    }

    @Test func runWritesTheWAVRefusesATerminalAndADriveTooLongForRIFF() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = folder + "/drive.wav"
        let run = Fixtures.drivesim("run", Fixtures.path("Scenarios/urgent-cut.json"), "--format", "wav", "--out", out)
        #expect(run.code == 0 && run.stdout.isEmpty)
        let bytes = try #require(FileManager.default.contents(atPath: out))
        #expect(bytes.count == 44 + 6_500 * 64)
        var console = Console.captured
        console.outIsTerminal = true
        #expect(
            Drivesim.main(["run", Fixtures.path("Scenarios/urgent-cut.json"), "--format", "wav"], console: &console)
                == 2)
        #expect(console.stderr.contains("give '--out FILE.wav'"))
        // 19 hours of silence: past RIFF's 32-bit sizes, refused; a window of it is not.
        let long = Fixtures.write(
            #"{"drivesim": 1, "name": "long", "guidance": [{"id": "g1", "at": 68400, "duration": 1}]}"#, "long.json",
            in: folder)
        let refused = Fixtures.drivesim("run", long, "--format", "wav", "--out", out)
        #expect(
            refused.code == 2 && refused.stderr.contains("--from")
                && refused.stderr.contains("longer than a WAV file holds"))
        let window = Fixtures.drivesim("run", long, "--format", "wav", "--out", out, "--from", "68399", "--to", "68402")
        #expect(window.code == 0)
        #expect(FileManager.default.contents(atPath: out)?.count == 44 + 3_000 * 64)
    }

    @Test func theHTMLPagePlaysTheDriveFromAWAVBesideItOrEmbedded() throws {
        let folder = try Fixtures.temporaryFolder()
        let scenario = Fixtures.path("Scenarios/urgent-cut.json")
        let beside = Fixtures.drivesim("run", scenario, "--format", "html", "--audio", "my drive.wav", "--from", "1")
        #expect(beside.code == 0)
        #expect(
            beside.stdout.contains(
                #"<audio id="audio" controls preload="auto" data-start="1000" src="my%20drive.wav"></audio>"#))
        let embedded = Fixtures.drivesim("run", scenario, "--format", "html", "--audio", "embed")
        #expect(embedded.code == 0)
        let start = try #require(embedded.stdout.range(of: "data:audio/wav;base64,")).upperBound
        let end = try #require(embedded.stdout.range(of: "\"", range: start..<embedded.stdout.endIndex)).lowerBound
        let wav = try #require(Data(base64Encoded: String(embedded.stdout[start..<end])))
        #expect(Array(wav) == Self.wav(try Simulation(try Fixtures.scenario("urgent-cut")).timeline))
        // Without --audio the page is as before: no player.
        #expect(!Fixtures.drivesim("run", scenario, "--format", "html").stdout.contains("<audio"))
        let long = Fixtures.write(
            #"{"drivesim": 1, "name": "long", "guidance": [{"id": "g1", "at": 200, "duration": 1}]}"#, "long.json",
            in: folder)
        let refused = Fixtures.drivesim("run", long, "--format", "html", "--audio", "embed")
        #expect(refused.code == 2 && refused.stderr.contains("'--audio embed' holds at most 120 s"))
        #expect(
            Fixtures.drivesim("run", long, "--format", "html", "--audio", "embed", "--from", "100", "--to", "220").code
                == 0)
        let wrong = Fixtures.drivesim(
            "run", scenario, "--format", "wav", "--audio", "embed", "--out", folder + "/x.wav")
        #expect(wrong.code == 2 && wrong.stderr.contains("'--audio' applies only with '--format html'"))
    }

    @Test func base64StreamedInChunksOfAnySizeIsTheWholesBase64() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for size in [1, 2, 3, 4, 5, 7, 64, 1_000] {
            for count in [0, 1, 2, 3, 998, 1_000] {
                var text: [UInt8] = []
                ChunkedOutput.writing(to: { text.append(contentsOf: $0) }) { out in
                    var stream = Base64Stream()
                    for from in stride(from: 0, to: count, by: size) {
                        bytes[from..<min(count, from + size)].withUnsafeBufferPointer { stream.append($0, to: &out) }
                    }
                    stream.finish(to: &out)
                }
                #expect(
                    String(decoding: text, as: UTF8.self) == Data(bytes[0..<count]).base64EncodedString(),
                    "chunks of \(size), \(count) bytes")
            }
        }
    }

    @Test func aFuzzReproducerIsHeardAsItsBrokenArbiterPlayedIt() throws {
        let folder = try Fixtures.temporaryFolder()
        #expect(
            Fixtures.drivesim("fuzz", "--mutant", "urgent-waits", "--runs", "300", "--jobs", "1", "--out", folder).code
                == 1)
        // The invariant's reproducer: the urgent line waits (the other, a decision's, differs by a rule's name only, not in sound).
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first { $0.hasPrefix("invariant-3-") })
        let file = folder + "/" + name
        // Replayed with its mutant, the run fails (exit 1) and the WAV is still written: what Dad would hear.
        #expect(
            Fixtures.drivesim(
                "run", file, "--mutant", "urgent-waits", "--format", "wav", "--out", folder + "/broken.wav"
            ).code == 1)
        let scenario = try Fixtures.load(file)
        let broken = Simulation(scenario, fault: try #require(Mutant(name: "urgent-waits")).talk)
        let written = try #require(FileManager.default.contents(atPath: folder + "/broken.wav"))
        #expect(Array(written) == Self.wav(broken.timeline))
        let heard = try Self.listen(broken.timeline).left
        let played = Self.bridged(broken.bus.intervals(of: .guidance).union(broken.bus.intervals(of: .pippa)))
        #expect(Self.agree(heard, played), "heard \(heard), played \(played)")
        // With the reference arbiter it passes, and sounds otherwise.
        #expect(Fixtures.drivesim("run", file, "--format", "wav", "--out", folder + "/right.wav").code == 0)
        #expect(FileManager.default.contents(atPath: folder + "/right.wav") != written)
    }

    @Test func theCommittedClipIsTheBytesThisMachineWrites() throws {
        // docs/urgent-cut-cut.wav was written on Linux: any machine writes the same bytes (integers only).
        let committed = try #require(FileManager.default.contents(atPath: Fixtures.path("docs/urgent-cut-cut.wav")))
        let timeline = try Simulation(try Fixtures.scenario("urgent-cut")).timeline
        #expect(
            Array(committed)
                == Self.wav(timeline, window: ReviewWindow(from: SimTime(ms: 1_500), to: SimTime(ms: 2_500))))
    }
}
