import CLITestSupport
import Foundation
import TestSupport
import Testing

@testable import DrivesimCLI
@testable import Review

/// `run --format wav --voice COMMAND`: a text-to-speech command, run once
/// per distinct phrase like `--arbiter`'s process. The command here is
/// `cat` of a tone the test wrote, one per language, so no TTS is needed.
@Suite struct VoiceTests {
    /// A folder holding `en.wav` (a 444 Hz square wave of 1 s at 8 kHz, mono,
    /// with 0.1 s of silence at either end, trimmed) and `ko.wav` (the same, 2 s).
    static func tones() throws -> String {
        let folder = try Fixtures.temporaryFolder()
        for (language, seconds) in [("en", 1.0), ("ko", 2.0)] {
            let frames = Int(seconds * 8000)
            var samples = [Int16](repeating: 0, count: 800)
            samples += (0..<frames).map { ($0 / 9) % 2 == 0 ? 8000 : -8000 }
            samples += [Int16](repeating: 0, count: 800)
            var bytes = WAVFile.header(frames: Int64(samples.count))
            // Mono at 8 kHz: the header's channel count, rates and block size rewritten.
            bytes[22] = 1
            bytes.replaceSubrange(24..<36, with: [0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0])
            bytes.replaceSubrange(
                40..<44, with: withUnsafeBytes(of: UInt32(samples.count * 2).littleEndian, Array.init))
            for s in samples { bytes += withUnsafeBytes(of: s.littleEndian, Array.init) }
            #expect(FileManager.default.createFile(atPath: "\(folder)/\(language).wav", contents: Data(bytes)))
        }
        return folder
    }

    static let urgentCut = Fixtures.path("Scenarios/urgent-cut.json")

    @Test func eachPhraseIsSpokenOnceInItsLanguageAndFittedToItsItem() throws {
        let folder = try Self.tones()
        // The command logs each text it is given, then says its language's tone.
        let command = "cat >> \(folder)/said.txt; echo >> \(folder)/said.txt; cat \(folder)/{lang}.wav"
        let run = Fixtures.drivesim(
            "run", Self.urgentCut, "--format", "wav", "--out", folder + "/voiced.wav", "--voice", command)
        #expect(run.code == 0, "\(run.stderr)")
        // In the order first heard; s1 plays twice (cut, then repeated): its phrase is spoken once.
        let said = try String(contentsOfFile: folder + "/said.txt", encoding: .utf8)
        #expect(said == "세 번째 출구입니다\nTurn left now\n")
        // The 2 s Korean tone fitted to the 3 s stretch and the 1 s English one to the 1.5 s line: within 2×, no warning.
        #expect(run.stderr.isEmpty)
        let voiced = try #require(FileManager.default.contents(atPath: folder + "/voiced.wav"))
        let sound = try WAVFile.parse(Array(voiced)).get()
        #expect(sound.samples[0].count == 6_500 * 16)
        // The line (2.0–3.5 s) is the square wave, stretched: only ±8000 and the steps between.
        let line = sound.samples[0][(2_000 * 16)..<(3_500 * 16)]
        #expect(line.allSatisfy { abs(Int($0)) <= 8000 } && line.filter { abs(Int($0)) == 8000 }.count > line.count / 2)
        // The built-in voices sound otherwise.
        let builtIn = Fixtures.drivesim("run", Self.urgentCut, "--format", "wav", "--out", folder + "/built-in.wav")
        #expect(builtIn.code == 0)
        #expect(FileManager.default.contents(atPath: folder + "/built-in.wav") != voiced)
    }

    @Test func aRecordingFittedPastTwiceItsLengthIsWarnedAbout() throws {
        let folder = try Self.tones()
        // The 1 s English tone for everything: the 1.5 s line is fine; the 3 s stretch stretches it 3×.
        let run = Fixtures.drivesim(
            "run", Self.urgentCut, "--format", "wav", "--out", folder + "/x.wav", "--voice",
            "cat \(folder)/{lang}.wav".replacingOccurrences(of: "{lang}", with: "en"))
        #expect(run.code == 0)
        #expect(
            run.stderr.contains(
                "warning: --voice: s1 \"세 번째 출구입니다\": its speech lasts 1000 ms, fitted to the item's 3000 ms"))
    }

    @Test func aVoiceThatFailsTimesOutOrWritesNoWAVIsExitTwoNamingTheItem() throws {
        let folder = try Self.tones()
        let out = folder + "/x.wav"
        let failing = Fixtures.drivesim(
            "run", Self.urgentCut, "--format", "wav", "--out", out, "--voice", "echo no voice >&2; exit 3")
        #expect(failing.code == 2)
        #expect(failing.stderr.contains("for s1 \"세 번째 출구입니다\" (ko): it ended with exit status 3; it said: no voice"))
        let slow = Fixtures.drivesim(
            "run", Self.urgentCut, "--format", "wav", "--out", out, "--voice", "sleep 30", "--voice-timeout", "1")
        #expect(slow.code == 2 && slow.stderr.contains("no WAV within 1 s"))
        let text = Fixtures.drivesim("run", Self.urgentCut, "--format", "wav", "--out", out, "--voice", "cat")
        #expect(text.code == 2 && text.stderr.contains("its output is not a WAV file"))
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written after a failure")
        let wrongFormat = Fixtures.drivesim("run", Self.urgentCut, "--voice", "cat")
        #expect(wrongFormat.code == 2 && wrongFormat.stderr.contains("'--voice' applies only with '--format wav'"))
        let empty = Fixtures.drivesim("run", Self.urgentCut, "--format", "wav", "--out", out, "--voice", " ")
        #expect(empty.code == 2 && empty.stderr.contains("'--voice' must not be empty"))
    }

    @Test func nothingAVoiceStartedOutlivesDrivesimWhetherItHangsOrLeavesAGrandchild() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = folder + "/x.wav"
        // Hangs: its grandchild too is killed at the timeout.
        let hanging = "sleep 300 & echo $! > \(folder)/hanging; wait"
        let hung = ExternalArbiterTests.timed([
            "run", Self.urgentCut, "--format", "wav", "--out", out, "--voice", hanging, "--voice-timeout", "1",
        ])
        #expect(hung.code == 2 && hung.stderr.contains("no WAV within 1 s"), "\(hung.stderr)")
        #expect(ExternalArbiterTests.goneSoon(try ExternalArbiterTests.pid(in: folder + "/hanging")))
        // Says its WAV and exits, a grandchild holding its output open: used at once, the grandchild killed.
        let leaving = "cat \(try Self.tones())/{lang}.wav; sleep 300 & echo $! > \(folder)/left"
        let left = ExternalArbiterTests.timed([
            "run", Self.urgentCut, "--format", "wav", "--out", out, "--voice", leaving,
        ])
        #expect(left.code == 0, "\(left.stderr)")
        #expect(left.seconds < 8, "not held by the grandchild: \(left.seconds) s")
        #expect(ExternalArbiterTests.goneSoon(try ExternalArbiterTests.pid(in: folder + "/left")))
    }
}
