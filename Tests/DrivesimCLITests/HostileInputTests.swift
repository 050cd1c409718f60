import CLITestSupport
import Foundation
import TestSupport
import Testing

/// Hostile cases on the newest surfaces end with a message that says truly
/// what happened (issue 52). Serialized: each command line runs its own process.
@Suite(.serialized) struct HostileInputTests {
    static func road(_ name: String) -> String { Fixtures.path("Scenarios/road/\(name).json") }

    @Test func aGuidanceThatAnswersSwitchingWithGarbageInStepIsReportedAndKeptNotRestartedEveryRun() throws {
        let files = ["handoff-through-an-outage", "handoff-unknown-place-ko", "reroute-onto-another-road"].map(
            Self.road)
        for garbage in ["not json at all", "[1, 2]"] {
            let log = try Fixtures.temporaryFolder() + "/said.log"
            let garbler = try Fixtures.silentGuidance(version: 3, log: log, unannounced: "\"late\"", switching: garbage)
            let check = Fixtures.drivesim(["check"] + files + ["--guidance", garbler])
            #expect(check.code == 1 && check.stderr.contains("guidance process"), "\(check.stderr)")
            let said = try String(contentsOfFile: log, encoding: .utf8)
            let starts = said.split(separator: "\n").filter { $0.contains("\"type\":\"hello\"") }.count
            #expect(starts == 1, "\(garbage): started \(starts) times for 3 files: \(check.stderr)")
        }
    }

    @Test func aHangInARoadFuzzCampaignIsNamedInTheRunItHungIn() throws {
        let folder = try Fixtures.temporaryFolder()
        let out = try Fixtures.temporaryFolder()
        let hang =
            "python3 "
            + Fixtures.write(
                """
                import json, sys, time
                print(json.dumps({"type": "hello", "guidance": 1}), flush=True)
                for raw in sys.stdin:
                    m = json.loads(raw)
                    if m["type"] != "span": continue
                    if m["from"] > 30000: time.sleep(1000)
                    print(json.dumps({"type": "lines", "lines": []}), flush=True)
                """, "hang.py", in: folder)
        let result = Fixtures.drivesim(
            "fuzz", "--road", "--runs", "2", "--out", out, "--guidance", hang, "--guidance-timeout", "1")
        #expect(result.code == 1)
        let filed = try #require(
            result.stderr.split(separator: "\n").first { $0.hasPrefix("FAIL run") }, "\(result.stderr)")
        #expect(
            filed.contains("it did not answer within 1 s") && !filed.contains("not asked")
                && !filed.contains("at 00:00.000"), "\(filed)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first)
        let described = try String(contentsOfFile: out + "/" + file, encoding: .utf8)
        #expect(described.contains("did not answer") && !described.contains("earlier run"), "\(described.prefix(600))")
    }

    @Test(arguments: ["\"3\"", "3.5", "3.0", "null", "1e30"])
    func aHelloWithABadVersionValueIsSaidToBeNoSupportedVersion(value: String) throws {
        let folder = try Fixtures.temporaryFolder()
        let script =
            "sh "
            + Fixtures.write(
                "read line; echo '{\"type\":\"hello\",\"guidance\":\(value)}'; cat > /dev/null\n", "g.sh", in: folder)
        let result = Fixtures.drivesim("run", Self.road("highway-120"), "--guidance", script)
        #expect(
            result.code == 2
                && result.stderr.contains(
                    "its hello's 'guidance' is \(value), not a supported version: this drivesim speaks 1 to 3"),
            "\(result.stderr)")
    }

    @Test func fuzzLimitsAreSaidAsTheyAre() {
        let shard = Fixtures.drivesim("fuzz", "--shard", "1/999999999999")
        #expect(shard.code == 2 && shard.stderr.contains("1 ≤ i ≤ n ≤ 100,000"), "\(shard.stderr)")
        #expect(Fixtures.drivesim("fuzz", "--runs", "1", "--shard", "1/100000").code == 0)
        let limit = Fixtures.drivesim("fuzz", "--time-limit", "86401")
        #expect(limit.code == 2 && limit.stderr.contains("above 0 and at most 86,400 (24 h)"), "\(limit.stderr)")
    }

    @Test func aMeasuredValueIsNeverRoundedOntoTheLimitItBroke() throws {
        let scenario = Fixtures.path("Scenarios/urgent-cut.json")
        let wav = Fixtures.drivesim(
            "run", scenario, "--format", "wav", "--to", "67108.864", "--out", try Fixtures.temporaryFolder() + "/x.wav")
        #expect(
            wav.code == 2 && wav.stderr.contains("would last 67108.864 s, longer than a WAV file holds (67108.863 s"),
            "\(wav.stderr)")
        let page = Fixtures.drivesim("run", scenario, "--format", "html", "--audio", "embed", "--to", "120.001")
        #expect(
            page.code == 2 && page.stderr.contains("holds at most 120 s of sound and this page shows 120.001 s"),
            "\(page.stderr)")
    }
}

/// A fuzz failure says the drawn settings its check depends on (issue 52).
struct DrawnSettingsTests {
    @Test func aFuzzFailureSaysTheWaitLimitItsRunDrew() throws {
        let out = try Fixtures.temporaryFolder()
        let result = Fixtures.drivesim("fuzz", "--runs", "600", "--mutant", "wait-limit-loose", "--out", out)
        #expect(result.code == 1)
        let filed = result.stderr.split(separator: "\n").filter { $0.hasPrefix("FAIL run") }
        #expect(!filed.isEmpty && filed.allSatisfy { $0.contains("(this run drew waitLimit ") }, "\(result.stderr)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first)
        #expect(try String(contentsOfFile: out + "/" + file, encoding: .utf8).contains("(this run drew waitLimit "))
    }
}

/// `fuzz --out DIR` makes no folder when nothing fails, as fuzzing.md says;
/// README and review.md say first how to hear words (issue 52).
struct FolderAndVoiceDocsTests {
    @Test func fuzzOutMakesNoFolderWhenNothingFailsAndOneWhenSomethingDoes() throws {
        let folder = try Fixtures.temporaryFolder() + "/a/b"
        let clean = Fixtures.drivesim("fuzz", "--runs", "30", "--out", folder)
        #expect(clean.code == 0 && !FileManager.default.fileExists(atPath: folder), "\(clean.stderr)")
        #expect(!FileManager.default.fileExists(atPath: (folder as NSString).deletingLastPathComponent))
        let failing = Fixtures.drivesim(
            "fuzz", "--runs", "300", "--mutant", "urgent-waits", "--jobs", "1", "--out", folder)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(failing.code == 1 && !written.isEmpty)
        // A folder that cannot be made is still refused before the campaign.
        #expect(Fixtures.drivesim("fuzz", "--runs", "1", "--out", "/proc/drivesim-cannot-write").code == 2)
    }

    @Test func readmeAndReviewSayFirstHowToHearTheWords() throws {
        let review = try String(contentsOfFile: Fixtures.path("docs/review.md"), encoding: .utf8)
        #expect(review.split(separator: "\n").prefix(6).contains { $0.contains("--voice \"espeak-ng") })
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let use = try #require(readme.components(separatedBy: "## Use").dropFirst().first)
        let wav = try #require(use.split(separator: "\n").firstIndex { $0.contains("--format wav") })
        #expect(
            use.split(separator: "\n")[wav...].prefix(2).contains { $0.contains("--voice \"espeak-ng") },
            "\(use.prefix(1500))")
    }
}
