// The libFuzzer target for route responses (docs/fuzzing.md, "libFuzzer").
//
// Not a SwiftPM target: `Fuzz/libfuzzer/run.sh` compiles it as it does
// FuzzTarget.swift, into .build/libfuzzer/fuzz-route.
//
// One input is one response file, as `drivesim import-route FILE
// --language en` reads it (a crash file replays with that command).
// Properties: never crash, never hang; an import error's message is one
// line; an imported scenario encodes to what the decoder reads back as it
// (the import's own check, which the command makes too).

import DrivesimCLI
import Foundation
import RouteImport
import ScenarioFormat
import SimRunner

/// Stops the fuzzer with a message: libFuzzer records the input as a crash.
func breach(_ message: String) -> Never {
    fatalError("drivesim route fuzz target: \(message)")
}

/// The longest route this target imports, meters: the import drives the
/// road, and a long one under AddressSanitizer takes seconds (a limit of
/// this target, not of the format).
let maxRouteMeters = 20_000.0

/// libFuzzer calls this once per input; 0 means the input was handled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    var options = RouteImporter.Options(language: .en, source: "fuzz-input")
    options.maxMeters = maxRouteMeters
    let imported: RouteImporter.Imported
    do { imported = try RouteImporter.importRoute(bytes, options: options) } catch {
        let message = MessageInfo(DrivesimError.importProblem(file: "fuzz-input", error)).message
        if message.dropLast().contains(where: { $0.isNewline }) || message.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) {
            breach("an import error's message is not one clean line: \(message.debugDescription)")
        }
        return 0
    }
    let encoded = ScenarioEncoder.encode(imported.scenario)
    do {
        let again = try ScenarioDecoder.decode(encoded, file: "imported")
        if again != imported.scenario { breach("decode(encode(imported)) != imported") }
    } catch {
        breach("the import wrote what the decoder refuses: \(error)")
    }
    return 0
}
