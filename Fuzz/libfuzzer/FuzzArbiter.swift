// The libFuzzer target for an external arbiter's answers (docs/fuzzing.md, "libFuzzer").
//
// Not a SwiftPM target: `Fuzz/libfuzzer/run.sh` compiles it as it does
// FuzzTarget.swift, into .build/libfuzzer/fuzz-arbiter.
//
// One input is a scenario's number (its first byte, among the corpus files
// below) and then answer lines, as an arbiter process would write them:
// the first line answers the scenario's whole run (a `run` message's answer,
// read by `ArbiterProcess.runAnswer`), the others answer the run input by
// input and instant by instant (`ArbiterProcess.answer`), their actions
// carried out as a plugged-in arbiter's are: validated, simulated twice,
// checked, and the timeline rendered in every format. Properties: never
// crash, never hang (every time an arbiter gives is bounded, its wake-ups
// too: `ActionValidator`), and every failure reason is one line.

import DrivesimCLI
import ExternalProcess
import Foundation
import Review
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// Stops the fuzzer with a message: libFuzzer records the input as a crash.
func breach(_ message: String) -> Never {
    fatalError("drivesim arbiter fuzz target: \(message)")
}

/// The scenarios an input picks from (by its first byte): talk and road files of the corpus.
let scenarios: [Scenario] = {
    let names = [
        "barge-in", "urgent-cut", "after-cut-repeat", "held", "reply-queue", "guidance-queue", "ears-closed",
        "chunk-late-gap", "dad-reply-queues", "spec-example",
    ]
    return names.compactMap { try? ScenarioFiles.load("Scenarios/\($0).json").get() }
}()

/// The reading half of an arbiter process, never started: it parses answers only.
let reader = ArbiterProcess(command: "fuzz", timeoutMs: 1000)

/// This input's answer lines, and the next to hand out (one run's worth; the second run starts again).
nonisolated(unsafe) var lines: [ArraySlice<UInt8>] = []
nonisolated(unsafe) var next = 0

/// Checks a failure's reason: one line, no control character.
func checkReason(_ failure: RecordedFailure?) {
    guard let reason = failure?.description else { return }
    if reason.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        breach("a failure reason with a control character: \(reason.debugDescription)")
    }
}

/// The next line, or an empty one when the input has no more.
func takeLine() -> ArraySlice<UInt8> {
    defer { next += 1 }
    return next < lines.count ? lines[next] : []
}

/// An arbiter whose every answer is the input's next line.
struct Scripted: Arbiter {
    var idle = false
    init(_ tables: ArbiterTables) { next = 1 }
    mutating func answer(_ inputs: Int, into actions: inout [Action]) {
        if let answer = reader.answer(takeLine(), inputs: 1, ends: false, for: "the instant"), let first = answer.each.first {
            actions.append(contentsOf: first)
        }
        checkReason(reader.takeFailure())
    }
    mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func earsTimer(at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) {}
    mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) { answer(1, into: &a) }
    mutating func endInstant(at t: SimTime, into a: inout [Action]) {
        if let answer = reader.answer(takeLine(), inputs: 0, ends: true, for: "the end of the instant") {
            a.append(contentsOf: answer.end)
            idle = answer.idle
        }
        checkReason(reader.takeFailure())
    }
    var isIdle: Bool { idle }
}

/// libFuzzer calls this once per input; 0 means the input was handled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data, !scenarios.isEmpty else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let scenario = scenarios[Int(bytes[0]) % scenarios.count]
    lines = bytes.dropFirst().split(separator: 0x0A, omittingEmptySubsequences: false)
    // The whole run's answer, against the reference's messages.
    if let forecast = ArbiterProcess.forecast(scenario, differential: false), let first = lines.first {
        _ = reader.runAnswer(first, forecast.messages)
        checkReason(reader.takeFailure())
    }
    // Input by input.
    let verdict: Verdict
    do { verdict = try Verdict(scenario, arbiter: Scripted.self) } catch { breach("a corpus scenario is refused: \(error)") }
    _ = verdict.report
    let timeline = verdict.simulation.timeline
    _ = timeline.text
    _ = timeline.json
    _ = timeline.lanesChart(width: 100)
    _ = timeline.svg(width: Timeline.defaultSVGWidth)
    _ = timeline.trace()
    return 0
}
