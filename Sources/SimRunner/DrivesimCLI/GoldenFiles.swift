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

    /// The golden file's path, beside or below the scenario `file`; nil if
    /// the scenario names none. A golden name must be relative, contain no
    /// `..` and end in `.timeline.json` (so no folder search takes it for a scenario).
    static func path(of scenario: Scenario, file: String) throws(DrivesimError) -> String? {
        guard let golden = scenario.golden else { return nil }
        if golden.hasPrefix("/") { throw .golden(file: file, .absolute(golden)) }
        if golden.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            throw .golden(file: file, .leavesTheFolder(golden))
        }
        guard golden.hasSuffix(".timeline.json") else { throw .golden(file: file, .notATimelineName(golden)) }
        let folder = FileSystem.split(file).folder
        return folder == "." && !file.hasPrefix("./") ? golden : folder + "/" + golden
    }

    /// Compares `timeline` with the scenario's golden file.
    static func check(_ scenario: Scenario, file: String, timeline: Timeline) throws(DrivesimError) -> Outcome {
        guard let path = try path(of: scenario, file: file) else { return .none }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            if case .unreadable(_, let problem) = error {
                throw .golden(file: file, problem == .missing ? .missing(path: path) : .unreadable(path: path, problem))
            }
            throw error
        }
        do {
            let golden = try Golden.lines(ofGolden: bytes)
            guard let diff = Golden.diff(golden: golden, actual: Golden.lines(of: timeline)) else { return .equal }
            return .differs(
                "\(file): the timeline differs from the golden timeline '\(path)'\n" + diff
                    + "if this run is right, record it with 'drivesim check --record \(file)' and review the diff before committing\n"
            )
        } catch {
            throw .golden(file: file, .malformed(path: path, error))
        }
    }

    /// Writes the scenario's golden file; returns its path. Refuses to
    /// overwrite a file that decodes as a scenario (the scenario itself
    /// included) or is one of `inputs` (the files `check` was given, by identity).
    static func record(
        _ scenario: Scenario, file: String, timeline: Timeline, inputs: [FileSystem.Identity: String] = [:]
    ) throws(DrivesimError) -> String? {
        guard let path = try path(of: scenario, file: file) else { return nil }
        if let target = FileSystem.identity(ofFile: path),
            let input = inputs[target] ?? (FileSystem.identity(ofFile: file) == target ? file : nil)
        {
            throw .golden(file: file, .isAnInput(path: path, input: input))
        }
        if let existing = try? FileSystem.read(path), (try? ScenarioDecoder.decode(existing, file: path)) != nil {
            throw .golden(file: file, .isAScenario(path: path))
        }
        try ScenarioFiles.write(timeline.json, to: path)
        return path
    }
}
