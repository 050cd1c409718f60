// The libFuzzer target for a guidance process's answers (docs/fuzzing.md, "libFuzzer").
//
// Not a SwiftPM target: `Fuzz/libfuzzer/run.sh` compiles it as it does
// FuzzTarget.swift, into .build/libfuzzer/fuzz-guidance.
//
// One input is a road scenario's number (its first byte, among the corpus
// files below) and then answer lines, as a guidance process would write
// them: each `span` and `unannounced` question of the plan is answered by
// the next line (an empty one when the input has no more), read and
// validated as a `--guidance` process's answer is (`ExternalGuidance`),
// the road planned with it, the talk simulated twice, every check run and
// the timeline rendered in every format. Properties: never crash, never
// hang (an answer's times and durations are bounded by its span and the
// drive's 24 h), and every failure reason is one line.

import DrivesimCLI
import ExternalProcess
import Foundation
import Guidance
import Review
import ScenarioFormat
import SimClock
import SimRunner

/// Stops the fuzzer with a message: libFuzzer records the input as a crash.
func breach(_ message: String) -> Never {
    fatalError("drivesim guidance fuzz target: \(message)")
}

/// The road scenarios an input picks from (by its first byte).
let scenarios: [Scenario] = {
    let names = [
        "gps-gap", "highway-120", "seoul-city-ko", "waypoint-u-turn", "drive-ends-at-midnight", "segment-ends-mid-line",
        "then-by-time-city", "off-route", "link-outage", "tunnel-beyond-horizon",
    ]
    return names.compactMap { try? ScenarioFiles.load("Scenarios/road/\($0).json").get() }
}()

/// A guidance process never started: it reads nothing and records failures only.
let process = GuidanceProcess(command: "fuzz", timeoutMs: 1000)

/// The input's answer lines, and the next to hand out.
final class Script: @unchecked Sendable {
    var lines: [ArraySlice<UInt8>] = []
    var next = 0

    /// The next line as a JSON object, or nil (the failure recorded) when it is not one.
    func answer(_ message: String, _ t: SimTime) -> JSONValue? {
        defer { next += 1 }
        return process.channel.parse(next < lines.count ? lines[next] : [])
    }
}
let script = Script()

/// Checks a reason: one line, no control character.
func checkReason(_ reason: String) {
    if reason.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        breach("a failure reason with a control character: \(reason.debugDescription)")
    }
}

/// libFuzzer calls this once per input; 0 means the input was handled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data, !scenarios.isEmpty else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let scenario = scenarios[Int(bytes[0]) % scenarios.count]
    script.lines = bytes.dropFirst().split(separator: 0x0A, omittingEmptySubsequences: false)
    script.next = 0
    // Each plan (the verdict plans the road twice) reads the answers from the first line again.
    let planning = RoadPlanning.guidance { route in
        script.next = 0
        return ExternalGuidance(route, process: process, answers: script.answer)
    }
    let verdict = process.judging(Verdict(scenario, fault: nil, roadPlan: planning), of: scenario)
    for violation in verdict.violations {
        checkReason(violation.message)
        if violation.t > RoadPlan.end, violation.check == Check.guidance(.process) { breach("a process failure after 24 h: \(violation.message)") }
    }
    let timeline = verdict.simulation.timeline
    for line in timeline.roster.road.lines where line.at + line.duration > RoadPlan.end {
        breach("a line of the process ends after 24 h: \(line.id) at \(line.at.ms) ms for \(line.duration.ms) ms")
    }
    _ = verdict.report
    _ = timeline.text
    _ = timeline.json
    _ = timeline.lanesChart(width: 100)
    _ = timeline.svg(width: Timeline.defaultSVGWidth)
    _ = timeline.trace()
    return 0
}
