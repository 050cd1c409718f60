import ScenarioFormat
import SimRunner

/// Reading scenario files: the only place that touches the file system for
/// scenarios. Every failure is a `DrivesimError` naming the file.
package enum ScenarioFiles {
    /// Reads (once, refusing files over `FileSystem.readLimit`) and decodes one scenario file.
    package static func load(_ path: String) -> Result<Scenario, DrivesimError> {
        var ignored: [ScenarioError] = []
        return load(path, warnings: &ignored)
    }

    /// `load(_:)`, and what is used as written but looks like a slip
    /// (`ScenarioDecoder.warnings`) appended to `warnings`.
    package static func load(_ path: String, warnings: inout [ScenarioError]) -> Result<Scenario, DrivesimError> {
        do {
            let bytes = try FileSystem.read(path)
            do {
                let scenario = try ScenarioDecoder.decode(bytes, file: path)
                warnings += ScenarioDecoder.warnings(for: scenario, bytes: bytes, file: path)
                return .success(scenario)
            } catch {
                return .failure(.invalidScenario(error))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Whether a file name is a scenario's: `*.json` but not a golden timeline (`*.timeline.json`).
    static func isScenarioName(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasSuffix(".timeline.json")
    }

    /// The scenario files under `paths`, and every folder or file that could
    /// not be read: a file as given, a folder's scenario files at any depth
    /// (symbolic links followed, loops reported), sorted by path so every
    /// machine runs them in one order. A path that does not exist is
    /// returned as a file, so loading it reports it.
    static func scan(
        _ paths: [String], list: (String) -> Result<[String], FileProblem> = FileSystem.names(in:)
    ) -> [FileSystem.Found] {
        var found: [FileSystem.Found] = []
        for path in paths {
            guard FileSystem.isFolder(path: path) else {
                found.append(.file(path))
                continue
            }
            let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            found += FileSystem.walk(base, wanted: isScenarioName, list: list).sorted {
                $0.path.utf8.lexicographicallyPrecedes($1.path.utf8)
            }
        }
        return found
    }

    /// The scenario files under `paths` (see `scan`), without the problems.
    package static func discover(_ paths: [String]) -> [String] {
        scan(paths).compactMap { if case .file(let path) = $0 { return path } else { return nil } }
    }

    /// Writes `text` to `path` (see `FileSystem.write`: atomic for regular files).
    static func write(_ text: String, to path: String) throws(DrivesimError) {
        try FileSystem.write(Array(text.utf8), to: path)
    }
}
