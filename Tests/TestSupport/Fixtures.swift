import Foundation
import DrivesimCLI
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

    /// Every scenario file of the corpus, by path relative to the package.
    public static var scenarioFiles: [ScenarioFile] {
        ScenarioFiles.discover([path("Scenarios")]).map { ScenarioFile(path: $0) }
    }

    /// Runs the command line and returns its exit code and what it wrote.
    public static func drivesim(_ arguments: String...) -> (code: Int32, stdout: String, stderr: String) {
        var console = Console.captured
        let code = Drivesim.main(arguments, console: &console)
        return (code, console.stdout, console.stderr)
    }

    /// A new empty folder for one test.
    public static func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drivesim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

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
        try ScenarioFiles.load(path("Scenarios/\(name).json")).get()
    }
}
