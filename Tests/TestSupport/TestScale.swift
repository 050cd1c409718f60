import Foundation
import Testing

/// How large a test's campaign is. `swift test` on a developer's machine runs
/// each at its quick size, so the suite takes about two minutes on two cores;
/// a full run (CI, where `CI` is set, or `DRIVESIM_FULL_TESTS=1`) runs the
/// full sizes and the tests kept for it (docs/architecture.md, "Tests").
public enum TestScale {
    /// Whether this is a full run: `DRIVESIM_FULL_TESTS` set to anything but
    /// `0`, or else `CI` set.
    public static let full: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if let asked = environment["DRIVESIM_FULL_TESTS"] { return asked != "0" }
        return environment["CI"] != nil
    }()

    /// `full` in a full run, else `quick`.
    public static func size(_ full: Int, quick: Int) -> Int { Self.full ? full : quick }
}

extension Trait where Self == ConditionTrait {
    /// Runs only in a full run: long drives and campaigns that take seconds each.
    public static var fullRunOnly: Self {
        .enabled(if: TestScale.full, "a long test: it runs in CI, or with DRIVESIM_FULL_TESTS=1")
    }
}
