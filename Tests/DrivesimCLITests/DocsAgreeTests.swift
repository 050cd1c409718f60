import Foundation
import Road
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI

/// What a newcomer reads (README, docs/) agrees with what the package does.
@Suite struct DocsAgreeTests {
    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: Fixtures.path(relative), encoding: .utf8)
    }

    /// The lines of every ```sh block of `text`.
    static func shellLines(_ text: String) -> [String] {
        var lines: [String] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inside = line == "```sh" ? true : false
                continue
            }
            if inside { lines.append(line) }
        }
        return lines
    }

    @Test func theReadmeNamesTheToolchainPackageSwiftNeeds() throws {
        let manifest = try Self.read("Package.swift")
        let version = try #require(manifest.split(separator: "\n").first?.split(separator: ":").last.map(String.init))
        #expect(
            try Self.read("README.md").contains("Swift \(version) toolchain"), "Package.swift needs Swift \(version)")
    }

    /// Every doc says `drivesim …`: README's set-up puts it on the PATH before its first such command, and cli.md says how.
    @Test func theReadmePutsDrivesimOnThePathBeforeUsingIt() throws {
        let lines = Self.shellLines(try Self.read("README.md"))
        let export = try #require(
            lines.firstIndex { $0.hasPrefix(#"export PATH="$PWD/.build/release:$PATH""#) },
            "no step puts drivesim on the PATH")
        let build = try #require(lines.firstIndex { $0.hasPrefix("swift build -c release") })
        let first = try #require(lines.firstIndex { $0.hasPrefix("drivesim") || $0.contains("&& drivesim ") })
        #expect(build < export && export < first)
        #expect(try Self.read("docs/cli.md").contains(#"export PATH="$PWD/.build/release:$PATH""#))
    }

    /// What README's commands write goes under `out/`, which git ignores, never loose in the repository's root.
    @Test func theReadmesCommandsWriteUnderOneIgnoredFolder() throws {
        #expect(try Self.read(".gitignore").split(separator: "\n").contains("/out/"))
        let lines = Self.shellLines(try Self.read("README.md"))
        let made = try #require(lines.firstIndex { $0.hasPrefix("mkdir -p out ") }, "README never makes out/")
        var writes = 0
        for (n, line) in lines.enumerated() {
            let command = line.components(separatedBy: " #").first ?? line
            let words = command.split(separator: " ").map(String.init)
            for (i, word) in words.enumerated() where ["--out", ">"].contains(word) && i + 1 < words.count {
                let target = words[i + 1]
                if target.hasPrefix("~/") || target.hasPrefix("/dev/") { continue }
                writes += 1
                #expect(target.hasPrefix("out/"), "README writes \(target) outside out/: \(line)")
                #expect(n > made, "README writes \(target) before making out/")
            }
        }
        #expect(writes >= 4)
    }

    /// docs/library.md's example version is the one `drivesim --version` prints.
    @Test func theLibraryDocsVersionIsTheVersion() throws {
        let text = try Self.read("docs/library.md")
        let versions = text.matches(of: /\b0\.\d+\.\d+\b/).map { String($0.output) }
        #expect(!versions.isEmpty)
        for version in versions { #expect(version == DrivesimVersion.current, "docs/library.md says \(version)") }
    }

    /// Every maneuver kind the decoder accepts is in the scenario format's list of kinds.
    @Test func everyManeuverKindIsInTheScenarioFormat() throws {
        let text = try Self.read("docs/scenario-format.md")
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `maneuvers[].turn` |") })
        for turn in Turn.allCases {
            #expect(row.contains("`\(turn.rawValue)`"), "docs/scenario-format.md lacks \(turn.rawValue)")
        }
    }

    /// Every service `import-route --help` names is in README's and cli.md's lists.
    @Test func everyImportedServiceIsInReadmeAndCli() throws {
        let readme =
            try Self.read("README.md").split(separator: "\n").first { $0.contains("(docs/import.md)") }.map(String.init)
            ?? ""
        let cli =
            try Self.read("docs/cli.md").split(separator: "\n").first { $0.hasPrefix("| `drivesim import-route") }.map(
                String.init) ?? ""
        for service in ["OSRM", "Valhalla", "GraphHopper", "Mapbox"] {
            #expect(ImportRouteCommand.abstract.contains(service))
            #expect(readme.contains(service), "README's docs list lacks \(service)")
            #expect(cli.contains(service), "docs/cli.md's import-route row lacks \(service)")
        }
    }
}
