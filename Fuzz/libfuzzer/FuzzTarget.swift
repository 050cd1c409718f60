// The libFuzzer entry point for drivesim (docs/fuzzing.md, "libFuzzer").
//
// Not a SwiftPM target: `Fuzz/libfuzzer/run.sh` compiles the package's
// modules and this file with `swiftc -sanitize=fuzzer,address`.
//
// One input is one file, exactly as the CLI would read it, so a crash file
// replays with `drivesim run FILE` or `drivesim import-gpx FILE`:
//
// - it starts with `<` (after whitespace or a UTF-8 byte order mark): a GPX
//   track, read as `import-gpx` reads it, and its fixes written as JSON;
// - anything else: a scenario, decoded as `run` decodes it; when it decodes,
//   it is run and checked (Verdict: two runs, every invariant, every rule
//   check, every expectation) and the timeline is rendered in every format of
//   `run --format`, once whole and once through a window (the WAV: half a
//   second from the window's start).
//
// Beyond "never crash, never hang", three properties are checked, each a
// contract of the package; a breach stops the fuzzer like a crash does:
// 1. `ScenarioDecoder.decode(ScenarioEncoder.encode(s)) == s` (ScenarioEncoder);
// 2. a scenario the decoder accepts breaks no invariant and no rule check
//    (the premise of `drivesim fuzz`, SPEC 7);
// 3. every rendering of one timeline is the same twice.

import DrivesimCLI
import Foundation
import Review
import Road
import RouteImport
import ScenarioFormat
import SimClock
import SimRunner

/// The name errors give the input; it never touches the file system.
let inputName = "fuzz-input"

/// The longest route this target runs, in metres (the corpus's longest is a few km).
/// The decoder already refuses any drive past 24 h; this only keeps each
/// execution fast under AddressSanitizer: an 88 km route (a point moved by
/// one degree) took 30 s there, rendering every format twice.
let maxRouteMeters = 20_000.0

/// libFuzzer calls this once per input; 0 means the input was handled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if looksLikeXML(bytes) {
        fuzzGPX(bytes)
    } else {
        fuzzScenario(bytes)
    }
    return 0
}

/// Whether the first byte that is not whitespace (or a UTF-8 byte order mark) is `<`.
func looksLikeXML(_ bytes: [UInt8]) -> Bool {
    var i = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    return i < bytes.count && bytes[i] == UInt8(ascii: "<")
}

/// Stops the fuzzer with a message: libFuzzer records the input as a crash.
func breach(_ message: String) -> Never {
    fatalError("drivesim fuzz target: \(message)")
}

func fuzzScenario(_ bytes: [UInt8]) {
    let scenario: Scenario
    do {
        scenario = try ScenarioDecoder.decode(bytes, file: inputName)
    } catch {
        // The message is part of the surface: build it.
        let message = "\(error)"
        if message.isEmpty { breach("an empty error message for \(error.reason)") }
        return
    }

    // 1. The encoder writes what the decoder reads back.
    let encoded = ScenarioEncoder.encode(scenario)
    do {
        let again = try ScenarioDecoder.decode(encoded, file: inputName)
        if again != scenario {
            breach("decode(encode(s)) != s; encoded:\n\(String(decoding: encoded, as: UTF8.self))")
        }
    } catch {
        breach("the encoder wrote what the decoder refuses: \(error)\nencoded:\n\(String(decoding: encoded, as: UTF8.self))")
    }

    // 2. The run: simulated twice and checked. A route longer than
    // `maxRouteMeters` is decoded but not run: such a drive lasts for days and
    // its timeline has millions of events (a limit of this target, not of the
    // format; docs/fuzzing.md).
    if let road = scenario.road, let route = try? Route(points: road.points), route.length > maxRouteMeters { return }
    // Through the public, validating path: the decoder and `Scenario.validate()`
    // must agree on every accepted file.
    let verdict: Verdict
    do { verdict = try Verdict(scenario) } catch {
        breach("the decoder accepted what Scenario.validate() refuses: \(error)")
        return
    }
    if !verdict.violations.isEmpty {
        breach("an accepted scenario breaks an invariant or rule check:\n\(verdict.report)")
    }
    _ = verdict.report

    // 3. Every renderer, whole and through a window over the middle third.
    let timeline = verdict.simulation.timeline
    let end = timeline.events.last?.t.ms ?? 0
    let windows = [
        ReviewWindow(),
        ReviewWindow(from: SimTime(ms: end / 3), to: SimTime(ms: max(end / 3 * 2, end / 3 + 1))),
    ]
    let first = renderings(timeline, windows: windows)
    if first != renderings(timeline, windows: windows) {
        breach("a rendering of one timeline differs between two calls")
    }
}

/// Every format of `drivesim run --format`, at fixed bounded widths.
func renderings(_ timeline: Timeline, windows: [ReviewWindow]) -> [String] {
    var out = [timeline.text, timeline.json]
    for window in windows {
        out.append(timeline.lanesChart(width: 100, window: window))
        out.append(timeline.lanesChart(width: 20, window: window))
        out.append(timeline.svg(width: Timeline.defaultSVGWidth, window: window))
        out.append(timeline.trace(window: window))
        // Half a second of the sound from the window's start (the built-in voices over any text), as its FNV-1a.
        let start = window.from?.ms ?? 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        timeline.writeWAV(window: ReviewWindow(from: SimTime(ms: start), to: SimTime(ms: start + 500))) { chunk in
            for byte in chunk { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        out.append(String(hash))
    }
    return out
}

func fuzzGPX(_ bytes: [UInt8]) {
    do {
        let points = try GPXTrack.points(bytes)
        _ = JSONWriter.bytes(GPXTrack.recordedFixes(points))
    } catch {
        _ = "\(error)"
    }
}
