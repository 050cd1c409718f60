// swift-tools-version:6.0
import PackageDescription

/// One set of settings for every target: warnings are errors.
let swiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "drivesim",
    products: [
        .executable(name: "drivesim", targets: ["drivesim"]),
    ],
    targets: [
        // The folder is `Sources/Clock`; the module is `SimClock` so that it
        // never collides with the standard library's `Clock` protocol.
        .target(name: "SimClock", path: "Sources/Clock", swiftSettings: swiftSettings),
        .target(name: "Road", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .target(name: "Guidance", dependencies: ["Road"], swiftSettings: swiftSettings),
        .target(name: "TalkArbiter", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .target(name: "AudioBus", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .target(
            name: "SimRunner",
            dependencies: ["SimClock", "Road", "Guidance", "TalkArbiter", "AudioBus"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "drivesim", dependencies: ["SimRunner"], swiftSettings: swiftSettings),
        .target(name: "TestSupport", dependencies: ["SimRunner"], path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "SimClockTests", dependencies: ["SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "RoadTests", dependencies: ["Road", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "GuidanceTests", dependencies: ["Guidance", "Road", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "AudioBusTests", dependencies: ["AudioBus", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(name: "TalkArbiterTests", dependencies: ["TalkArbiter", "SimClock"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SimRunnerTests",
            dependencies: ["SimRunner", "TestSupport"],
            // Pinned pictures, read from the package root by the tests.
            exclude: ["Goldens"],
            swiftSettings: swiftSettings
        ),
    ]
)
