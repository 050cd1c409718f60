import Foundation
import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// Golden timeline files on disk: where a scenario's golden file is, reading
/// and comparing it, and recording it.
enum GoldenFiles {
    /// What comparing a run with its golden file found.
    enum Outcome {
        /// The scenario names no golden file.
        case none
        case equal
        /// The readable diff.
        case differs(String)

        var holds: Bool { if case .differs = self { return false } else { return true } }
    }

    /// The golden file's path: relative to the scenario file's folder.
    static func path(of scenario: Scenario, file: String) -> String? {
        guard let golden = scenario.golden else { return nil }
        if golden.hasPrefix("/") { return golden }
        return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(golden).relativePath
    }

    /// Compares `timeline` with the scenario's golden file.
    static func check(_ scenario: Scenario, file: String, timeline: Timeline) -> Result<Outcome, LoadFailure> {
        guard let path = path(of: scenario, file: file) else { return .success(.none) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.unreadable(
                file: file,
                reason: "golden: the golden timeline '\(path)' is missing; run 'drivesim check --record \(file)' to write it"))
        }
        do {
            let golden = try Golden.lines(ofGolden: [UInt8](data))
            guard let diff = Golden.diff(golden: golden, actual: Golden.lines(of: timeline)) else { return .success(.equal) }
            return .success(.differs("\(file): the timeline differs from the golden timeline '\(path)'\n" + diff))
        } catch {
            let why: String
            switch error {
            case .notJSON(let line, let column): why = "is not JSON (line \(line), column \(column))"
            case .notATimeline(let at, let reason): why = "is not a timeline (\(at.isEmpty ? "top level" : at): \(reason))"
            }
            return .failure(.unreadable(
                file: file,
                reason: "golden: the golden timeline '\(path)' \(why); fix it, or run 'drivesim check --record \(file)' to write it again"))
        }
    }

    /// Writes the scenario's golden file; returns its path.
    static func record(_ scenario: Scenario, file: String, timeline: Timeline) throws -> String? {
        guard let path = path(of: scenario, file: file) else { return nil }
        try ScenarioFiles.writeAtomically(timeline.json, to: path)
        return path
    }
}
