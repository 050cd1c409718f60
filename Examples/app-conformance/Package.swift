// swift-tools-version:6.2
import PackageDescription

// An app's own talk arbiter, tested with drivesim's conformance kit.
let package = Package(
    name: "app-conformance",
    dependencies: [
        // Named, so that the identity does not depend on the checkout folder's name.
        .package(name: "drivesim", path: "../.."),
    ],
    targets: [
        // The app's arbiter: no dependency on drivesim at all.
        .target(name: "AppTalk"),
        .testTarget(
            name: "AppTalkTests",
            dependencies: [
                "AppTalk",
                .product(name: "Drivesim", package: "drivesim"),
                .product(name: "DrivesimTesting", package: "drivesim"),
            ]
        ),
        // The guidance template (docs/test-your-guidance.md): the reference wrapped, one thing to change.
        .testTarget(
            name: "GuidanceTemplateTests",
            dependencies: [
                .product(name: "Drivesim", package: "drivesim"),
                .product(name: "DrivesimTesting", package: "drivesim"),
            ]
        ),
        // The adapter template (docs/library.md): the reference wrapped, one rule to change.
        .testTarget(
            name: "ArbiterTemplateTests",
            dependencies: [
                .product(name: "Drivesim", package: "drivesim"),
                .product(name: "DrivesimTesting", package: "drivesim"),
            ]
        ),
    ]
)
