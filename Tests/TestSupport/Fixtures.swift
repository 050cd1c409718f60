import Foundation
import ScenarioFormat
import SimRunner

/// Where the repository's files are, and small helpers shared by tests.
public enum Fixtures {
    /// The package's root folder.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// A path inside the package.
    public static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// Every scenario file of the corpus (`*.json` but not a golden
    /// `*.timeline.json`, at any depth), sorted by path as `check` runs them.
    public static var scenarioFiles: [ScenarioFile] {
        let root = path("Scenarios")
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".timeline.json") }
            .map { root + "/" + $0 }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { ScenarioFile(path: $0) }
    }

    /// Reads and decodes one scenario file (not yet validated).
    public static func load(_ path: String) throws -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else { throw Unreadable(path: path) }
        return try ScenarioDecoder.decode(Array(data), file: path)
    }

    /// A fixture file that could not be read.
    struct Unreadable: Error { let path: String }

    /// A new empty folder for one test, inside this test process's own
    /// folder, which is removed when the process exits.
    public static func temporaryFolder() throws -> String {
        let url = URL(fileURLWithPath: testsFolder).appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The test process's folder of temporary folders, made on first use.
    private static let testsFolder: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drivesim-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Fixtures.testsFolder) }
        return url.path
    }()

    /// Writes `text` to `name` inside `folder`; returns the path.
    @discardableResult
    public static func write(_ text: String, _ name: String, in folder: String) -> String {
        let path = folder + "/" + name
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A scenario file as a test argument, displayed by its name.
public struct ScenarioFile: Sendable, CustomStringConvertible {
    public let path: String
    public var description: String { path.split(separator: "/").suffix(2).joined(separator: "/") }
}

extension Fixtures {
    /// A scenario of the repository's corpus, by file name (`long-cut`).
    public static func scenario(_ name: String) throws -> Scenario {
        try load(path("Scenarios/\(name).json"))
    }
}
