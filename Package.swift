// swift-tools-version:6.2
import PackageDescription

/// One set of settings for every target: warnings are errors, as a toolchain
/// setting (no unsafe compiler flags), so the package stays usable as a versioned dependency.
let swiftSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error)
]

let package = Package(
    name: "drivesim",
    products: [
        .executable(name: "drivesim", targets: ["drivesim"]),
        // The simulator as a library (docs/library.md): import the modules you use.
        .library(
            name: "Drivesim",
            targets: [
                "SimClock", "Road", "Guidance", "TalkArbiter", "AudioBus", "SimRunner", "ScenarioFormat", "Review",
                "Fuzzing",
            ]
        ),
        // The conformance kit: the SPEC corpus and fuzzing for your own arbiter, from Swift Testing.
        .library(name: "DrivesimTesting", targets: ["DrivesimTesting"]),
    ],
    targets: [
        // The folder is `Sources/Clock`; the module is `SimClock` so that it
        // never collides with the standard library's `Clock` protocol.
        .target(name: "SimClock", path: "Sources/Clock", swiftSettings: swiftSettings),
        .target(name: "Road", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .target(name: "Guidance", dependencies: ["Road"], swiftSettings: swiftSettings),
        .target(name: "TalkArbiter", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .target(name: "AudioBus", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        // `Sources/SimRunner` holds the run and the edges around it, one module each
        // (docs/architecture.md): the core, the file format, review, fuzzing, the CLI.
        .target(
            name: "SimRunner",
            dependencies: ["SimClock", "Road", "Guidance", "TalkArbiter", "AudioBus"],
            path: "Sources/SimRunner/SimRunner",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ScenarioFormat",
            dependencies: ["SimRunner", "SimClock", "Road", "Guidance", "TalkArbiter"],
            path: "Sources/SimRunner/ScenarioFormat",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Review",
            dependencies: ["SimRunner", "ScenarioFormat", "SimClock", "Road", "Guidance", "TalkArbiter", "AudioBus"],
            path: "Sources/SimRunner/Review",
            // The HTML page's style sheet and script (Timeline+HTML.swift reads them with Bundle.module).
            resources: [.copy("Resources/page.css"), .copy("Resources/page.js")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Fuzzing",
            dependencies: ["SimRunner", "ScenarioFormat", "SimClock", "Road", "Guidance", "TalkArbiter"],
            path: "Sources/SimRunner/Fuzzing",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RouteImport",
            dependencies: ["SimRunner", "ScenarioFormat", "SimClock", "Road", "Guidance"],
            path: "Sources/SimRunner/RouteImport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ExternalProcess",
            dependencies: ["SimRunner", "ScenarioFormat", "SimClock", "Road", "Guidance", "TalkArbiter"],
            path: "Sources/SimRunner/ExternalProcess",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DrivesimCLI",
            dependencies: [
                "SimRunner", "ScenarioFormat", "Review", "Fuzzing", "RouteImport", "ExternalProcess", "SimClock",
                "Road", "Guidance", "TalkArbiter",
            ],
            path: "Sources/SimRunner/DrivesimCLI",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DrivesimTesting",
            dependencies: ["SimRunner", "ScenarioFormat", "Fuzzing", "TalkArbiter", "SimClock", "Guidance"],
            // SPEC's talk scenarios, a copy of Scenarios/*.json, and the road's, a copy of
            // Scenarios/road/*.json without their golden timelines (.ci/run checks they agree).
            resources: [.copy("Corpus"), .copy("RoadCorpus")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "drivesim", dependencies: ["DrivesimCLI"], swiftSettings: swiftSettings),
        // Test helpers: fixtures and arbiters for the core's tests; running the command line, for the others.
        .target(
            name: "TestSupport", dependencies: ["ScenarioFormat", "SimRunner", "TalkArbiter", "SimClock"],
            path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .target(
            name: "CLITestSupport", dependencies: ["TestSupport", "DrivesimCLI"], path: "Tests/CLITestSupport",
            swiftSettings: swiftSettings),
        .testTarget(name: "SimClockTests", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "RoadTests", dependencies: ["Road", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GuidanceTests", dependencies: ["Guidance", "Road", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "AudioBusTests", dependencies: ["AudioBus", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "TalkArbiterTests", dependencies: ["TalkArbiter", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SimRunnerTests",
            dependencies: ["SimRunner", "TestSupport", "Fuzzing", "Review", "ScenarioFormat", "TalkArbiter"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScenarioFormatTests",
            dependencies: ["SimRunner", "TestSupport", "DrivesimCLI", "Fuzzing", "Review", "ScenarioFormat"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ReviewTests",
            dependencies: [
                "SimRunner", "TestSupport", "CLITestSupport", "DrivesimCLI", "Fuzzing", "Review", "ScenarioFormat",
                "AudioBus",
            ],
            // Pinned pictures, read from the package root by the tests.
            exclude: ["Goldens"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FuzzingTests",
            dependencies: [
                "SimRunner", "TestSupport", "CLITestSupport", "DrivesimCLI", "Fuzzing", "Review", "ScenarioFormat",
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "RouteImportTests",
            dependencies: [
                "RouteImport", "SimRunner", "TestSupport", "CLITestSupport", "DrivesimCLI", "Review", "ScenarioFormat",
                "Road", "Guidance",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DrivesimTestingTests",
            dependencies: [
                "DrivesimTesting", "SimRunner", "Fuzzing", "TalkArbiter", "SimClock", "TestSupport", "Guidance", "Road",
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "DrivesimCLITests",
            dependencies: [
                "SimRunner", "TestSupport", "CLITestSupport", "DrivesimCLI", "Fuzzing", "Review", "ScenarioFormat",
                "TalkArbiter", "RouteImport", "ExternalProcess",
            ], swiftSettings: swiftSettings),
    ]
)
