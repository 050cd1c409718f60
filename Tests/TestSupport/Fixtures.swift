import Foundation
import SimRunner

/// Where the repository's files are, for tests that read `Scenarios/`.
public enum Fixtures {
    /// The package's root folder.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()
}

extension Fixtures {
    /// The path of a file in the package.
    public static func path(_ relative: String) -> String { packageRoot.appendingPathComponent(relative).path }

    /// A scenario of the repository's corpus, by file name (`long-cut`).
    public static func scenario(_ name: String) throws -> Scenario {
        try ScenarioFiles.load(path("Scenarios/\(name).json")).get()
    }

    /// Every scenario file of the repository's corpus.
    public static var scenarioFiles: [ScenarioFile] {
        ScenarioFiles.discover([path("Scenarios")]).map(ScenarioFile.init)
    }

    /// A fresh empty folder for a test to write in.
    public static func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drivesim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

/// A scenario file as a test argument, shown by its file name.
public struct ScenarioFile: Sendable, CustomStringConvertible {
    public let path: String
    public var description: String { (path as NSString).lastPathComponent }
}
