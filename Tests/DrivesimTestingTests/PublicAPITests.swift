import Foundation
import TestSupport
import Testing

/// docs/library.md's "Public API" lists exactly what the modules declare public.
@Suite struct PublicAPITests {
    /// Every module of the package and its folder. The products' modules are
    /// listed in library.md; the others (no product holds them) declare nothing public.
    static let modules: [(name: String, folder: String)] = [
        ("SimClock", "Sources/Clock"), ("Road", "Sources/Road"), ("Guidance", "Sources/Guidance"),
        ("TalkArbiter", "Sources/TalkArbiter"), ("AudioBus", "Sources/AudioBus"),
        ("SimRunner", "Sources/SimRunner/SimRunner"), ("ScenarioFormat", "Sources/SimRunner/ScenarioFormat"),
        ("Review", "Sources/SimRunner/Review"), ("Fuzzing", "Sources/SimRunner/Fuzzing"),
        ("DrivesimTesting", "Sources/DrivesimTesting"), ("RouteImport", "Sources/SimRunner/RouteImport"),
        ("ExternalProcess", "Sources/SimRunner/ExternalProcess"), ("DrivesimCLI", "Sources/SimRunner/DrivesimCLI"),
        ("drivesim", "Sources/drivesim"),
    ]

    /// The texts of a folder's Swift files, in path order.
    static func sources(_ folder: String) throws -> [String] {
        let root = Fixtures.path(folder)
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return try names.filter { $0.hasSuffix(".swift") }.sorted()
            .map { try String(contentsOfFile: root + "/" + $0, encoding: .utf8) }
    }

    @Test func libraryMdListsEveryPublicDeclarationAndNothingElse() throws {
        let listed = PublicAPI.listed(
            in: try String(contentsOfFile: Fixtures.path("docs/library.md"), encoding: .utf8))
        var differences: [String] = []
        for (module, folder) in Self.modules {
            let declared = PublicAPI.declarations(in: try Self.sources(folder))
            differences += PublicAPI.differences(module: module, declared: declared, listed: listed[module] ?? [])
        }
        let unknown = Set(listed.keys).subtracting(Self.modules.map(\.name)).sorted()
        if !unknown.isEmpty { differences.append("docs/library.md lists unknown modules: \(unknown)") }
        #expect(listed.count >= 9, "docs/library.md's Public API lists no modules")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func anUnlistedPublicTypeAndAListedNameThatIsNotPublicAreBothReported() {
        let source = """
            public struct Listed {}
            public struct Unlisted {}
            package struct Hidden {}
            """
        let docs = """
            ## Public API

            ### M

            - `Listed`: listed and public.
            - `Hidden`: listed, not public.

            ## After
            - `Ignored`: outside the section.
            """
        let listed = PublicAPI.listed(in: docs)
        #expect(listed == ["M": ["Listed", "Hidden"]])
        #expect(
            PublicAPI.differences(module: "M", declared: PublicAPI.declarations(in: [source]), listed: listed["M"]!)
                == [
                    "M: public but not listed in docs/library.md: Unlisted",
                    "M: listed in docs/library.md but not public: Hidden",
                ])
    }

    @Test func theScannerNamesTypesNestedTypesAliasesTopLevelDeclarationsAndForeignExtensionsMembers() {
        let source = #"""
            /// A type { with a brace in its comment.
            public struct Outer: Sendable,
                Equatable
            {
                public struct Inner { public var x = "}" }
                struct Hidden { public struct NotPublic {} }
                public private(set) var count = 0
                public typealias Alias = Int
                public func f() { struct Local {} }
                let text = """
                    public struct InAString {
                    """
            }
            extension Outer {
                public enum Added { case a }
            }
            package struct Package { public struct InPackage {} }
            public func topLevel() {}
            public let constant = 1
            public extension Timeline {
                func svg() -> String { "" }
                private func helper() {}
            }
            extension Verdict {
                public var report: String { "" }
                public init?(_ text: String) { nil }
                public static func == (a: Verdict, b: Verdict) -> Bool { true }
                public enum Style {
                    case plain
                    public var name: String { "" }
                }
                var hidden: Int { 0 }
            }
            public protocol Kind { func act() }
            """#
        #expect(
            PublicAPI.declarations(in: [source]) == [
                "Outer", "Outer.Inner", "Outer.Alias", "Outer.Added", "topLevel", "constant", "Timeline.svg",
                "Verdict.report", "Verdict.init", "Verdict.==", "Verdict.Style", "Kind",
            ])
    }
}
