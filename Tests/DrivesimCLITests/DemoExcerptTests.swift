import CLITestSupport
import Foundation
import Testing
import TestSupport

/// README's excerpt of the demo is the demo's own output: every line it
/// shows is a line the demo prints, in the demo's order (`...` skips).
@Suite struct DemoExcerptTests {
    @Test func theReadmesExcerptIsTheDemosOutput() throws {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```\n# demo:"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let excerpt = readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound].split(separator: "\n").map(String.init)
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
        // The story folds the routine: the demo prints fewer than 150 lines (395 unfolded).
        #expect(out.split(separator: "\n").count < 150)
    }
}
