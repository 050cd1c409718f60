import Foundation
import Testing

@testable import DrivesimCLI

/// Help fitted to a terminal keeps each paragraph whole: a sentence that
/// ends in a colon before an example, or the text after `EXIT CODES:`,
/// is wrapped with the rest, never left as a fragment on a line of its own.
@Suite struct HelpFittingTests {
    /// The lines of `text` that hold a fragment: fewer than three words,
    /// ending no sentence, clause or list (`scenario may`, `or`).
    static func fragments(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let words = line.split(separator: " ")
            guard let last = line.last, !words.isEmpty, words.count < 3 else { return false }
            return !".:)]".contains(last) && !["-", "<", "~"].contains(words[0].first)
        }
    }

    @Test func noHelpAtEightyColumnsLeavesAFragmentOfASentenceOnALineOfItsOwn() {
        for command in Drivesim.commands {
            #expect(Self.fragments(Drivesim.fit(command.help, width: 80)) == [], "\(command.name) --help")
        }
        #expect(Self.fragments(Drivesim.help(width: 80)) == [])
    }

    @Test func schemasSentenceBeforeItsExampleIsWrappedWithItsParagraph() {
        let fitted = Drivesim.fit(SchemaCommand.help, width: 80)
        #expect(fitted.contains("A\nscenario may name it in a \"$schema\" key"), "\(fitted)")
    }
}
