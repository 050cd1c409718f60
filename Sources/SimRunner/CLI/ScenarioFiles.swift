import Foundation
import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// Reading scenario files: the only place that touches the file system for
/// scenarios. Every failure becomes a `LoadFailure` naming the file.
public enum ScenarioFiles {
    /// Reads and decodes one scenario file.
    public static func load(_ path: String) -> Result<Scenario, LoadFailure> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.unreadable(file: path, reason: "no such file"))
        }
        if isDirectory.boolValue { return .failure(.unreadable(file: path, reason: "is a folder, not a scenario file")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.unreadable(file: path, reason: "cannot be read"))
        }
        do {
            return .success(try ScenarioDecoder.decode([UInt8](data), file: path))
        } catch {
            return .failure(.invalid(error))
        }
    }

    /// The scenario files under `paths`: a file as given, a folder's `.json`
    /// files at any depth, sorted by path so every machine runs them in one
    /// order. Golden timelines (`*.timeline.json`) are not scenarios. A path
    /// that does not exist is returned as is, so loading it reports it.
    public static func discover(_ paths: [String]) -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                found.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let enumerator = FileManager.default.enumerator(atPath: base)
            var inside: [String] = []
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".json"), !relative.hasSuffix(".timeline.json") { inside.append(base + "/" + relative) }
            }
            found += inside.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return found
    }

    /// Writes `text` to `path` atomically: a temporary file beside it, then a
    /// rename, so a half-written file never exists under the final name.
    public static func writeAtomically(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        try Data(text.utf8).write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}

/// A scenario file that cannot be used: exit code 2.
public enum LoadFailure: Error, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case invalid(ScenarioError)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): \(reason)"
        case .invalid(let error): return error.description
        }
    }
}
