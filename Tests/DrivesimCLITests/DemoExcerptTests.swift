import CLITestSupport
import Foundation
import TestSupport
import Testing

@testable import DrivesimCLI

/// README's excerpt of the demo is the demo's own output: every line it
/// shows is a line the demo prints, in the demo's order (`...` skips).
@Suite struct DemoExcerptTests {
    @Test func theReadmesExcerptIsTheDemosOutput() throws {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```\n# demo:"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let excerpt = readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound].split(separator: "\n").map(
            String.init)
        let (code, out, _) = Fixtures.drivesim()
        #expect(code == 0)
        var printed = out.split(separator: "\n").map(String.init)[...]
        for line in excerpt where line != "..." {
            guard let at = printed.firstIndex(of: line) else {
                Issue.record("README's excerpt line is not in the demo's output after the lines before it: \(line)")
                return
            }
            printed = printed[(at + 1)...]
        }
        #expect(excerpt.count >= 10)
        // The story folds the routine: the demo prints fewer than 160 lines (391 unfolded).
        #expect(out.split(separator: "\n").count < 160)
    }
}

/// The demo takes `run`'s output options, and writes its scenario as a file to start from.
@Suite struct DemoCommandTests {
    @Test func theDemoRendersAsRunDoesWithOrWithoutItsName() throws {
        let folder = try Fixtures.temporaryFolder()
        #expect(Fixtures.drivesim("demo").stdout == Fixtures.drivesim().stdout)
        let html = Fixtures.drivesim("--format", "html", "--out", folder + "/demo.html")
        #expect(html.code == 0 && html.stdout.isEmpty, "\(html.stderr)")
        let page = try String(contentsOfFile: folder + "/demo.html", encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page == Fixtures.drivesim("demo", "--format", "html").stdout)
        #expect(Fixtures.drivesim("--format=json", "--only", "dad").stdout.contains("\"event\": \"dad.started\""))
        let lanes = Fixtures.drivesim("demo", "--format", "lanes", "--width", "80", "--from", "60", "--to", "70")
        #expect(lanes.code == 0 && lanes.stdout.contains("from 01:00.000 to 01:10.000"), "\(lanes.stdout)")
    }

    @Test func theDemosScenarioIsAFileThatRunsAsTheDemo() throws {
        let folder = try Fixtures.temporaryFolder()
        let written = Fixtures.drivesim("demo", "--scenario", "--out", folder + "/demo.json")
        #expect(written.code == 0 && written.stdout.isEmpty)
        let run = Fixtures.drivesim("run", folder + "/demo.json")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == Fixtures.drivesim().stdout)
        #expect(
            Fixtures.drivesim("demo", "--scenario").stdout
                == (try String(contentsOfFile: folder + "/demo.json", encoding: .utf8)))
    }

    @Test func theScenarioTakesOnlyOut() {
        #expect(thrown(["demo", "--scenario", "--format", "json"]) == .usage(.excludes("--scenario", "--format")))
        #expect(
            thrown(["demo", "extra.json"])
                == .usage(.tooManyArguments(command: "demo", takes: "no file, not 'extra.json'")))
        #expect(
            thrown(["--format", "yaml"])
                == .usage(
                    .unknownValue(
                        option: "--format", value: "yaml", allowed: RunCommand.formats, suggestion: "html")))
    }
}
