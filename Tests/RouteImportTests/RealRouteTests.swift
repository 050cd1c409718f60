import CLITestSupport
import Foundation
import Guidance
import Review
import Road
import RouteImport
import ScenarioFormat
import SimRunner
import TestSupport
import Testing

@testable import DrivesimCLI

/// A real routing service's response (Scenarios/routes/real/PROVENANCE.md)
/// and what its import must give.
struct RealSample: Sendable, CustomStringConvertible {
    var response: String
    var turns: [Turn]
    var precision: Int
    /// The warnings' kinds, in order.
    var warnings: [ImportWarning.Kind]
    /// How many maneuvers are announced only in the one before's "now" line (reason `then`).
    var byThen: Int
    var scenario: String { String(response.split(separator: ".")[0]) }
    var description: String { response }
}

let realSamples = [
    RealSample(
        response: "mapbox-oldenburg.mapbox", turns: [.right, .right, .left, .left, .arrive], precision: 5, warnings: [],
        byThen: 0),
    RealSample(
        response: "mapbox-instructions.mapbox",
        turns: [.right, .left, .right, .offRamp, .forkLeft, .forkRight, .left, .right, .right, .arrive], precision: 5,
        warnings: [.notAnnounced(type: "new name"), .notAnnounced(type: "new name")], byThen: 1),
    RealSample(
        response: "mapbox-two-legs.mapbox",
        turns: [.right, .right, .right, .right, .right, .waypoint, .right, .uTurn, .left, .right, .arrive],
        precision: 6,
        warnings: [], byThen: 1),
    RealSample(
        response: "valhalla-ramps.valhalla",
        turns: [.right, .onRamp, .forkRight, .offRamp, .slightRight, .right, .arrive],
        precision: 6, warnings: [], byThen: 0),
    RealSample(
        response: "valhalla-roundabouts.valhalla",
        turns: [.slightRight, .roundabout, .uTurn, .forkRight, .offRamp, .waypoint, .roundabout, .arrive], precision: 6,
        warnings: [],
        byThen: 0),
    RealSample(
        response: "valhalla-voice.valhalla",
        turns: [
            .left, .right, .slightRight, .slightLeft, .right, .left, .right, .left, .right, .left, .right, .slightLeft,
            .right, .left, .left, .right, .left, .slightLeft, .right, .arrive,
        ], precision: 6,
        warnings: [.notAnnounced(type: "new name"), .notAnnounced(type: "new name")], byThen: 3),
]

func realBytes(_ s: RealSample) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Scenarios/routes/real/\(s.response)"))))
}

func importReal(_ s: RealSample) throws -> RouteImporter.Imported {
    try RouteImporter.importRoute(try realBytes(s), options: RouteImporter.Options(language: .en, source: s.response))
}

@Suite struct RealRouteTests {
    @Test(
        "Each real response imports to its maneuver kinds, at the detected precision, with the warnings it deserves",
        arguments: realSamples)
    func kinds(_ s: RealSample) throws {
        let imported = try importReal(s)
        #expect(imported.scenario.road?.maneuvers.map(\.turn) == s.turns)
        #expect(imported.precision == s.precision)
        #expect(imported.warnings.map(\.kind) == s.warnings)
    }

    @Test("Each real response's geometry is within 1% of its distance", arguments: realSamples)
    func length(_ s: RealSample) throws {
        try expectLengthWithinOnePercent(try importReal(s))
    }

    @Test("Each real response drives at its own step speeds", arguments: realSamples)
    func speeds(_ s: RealSample) throws {
        try expectStepSpeeds(try importReal(s), response: try JSONParser.parse(try realBytes(s)))
    }

    @Test(
        "Each real response's run announces every maneuver: in its own now line, or in the one before's (then)",
        arguments: realSamples)
    func announced(_ s: RealSample) throws {
        let scenario = try importReal(s).scenario
        let run = try Simulation(scenario)
        var nows: Set<String> = []
        var thens: Set<String> = []
        var otherwise = 0
        for e in run.timeline.events {
            if case .guidanceStarted(let l) = e.what, run.timeline.roster.stage(of: l) == .now,
                let m = run.timeline.roster.lines[l.int].maneuver
            {
                nows.insert(m)
            }
            if case .road(.turnUnannounced(let m, let reason)) = e.what {
                if reason == .then {
                    thens.insert(run.timeline.roster.road.maneuvers[m.int].id)
                } else {
                    otherwise += 1
                }
            }
        }
        #expect(nows.union(thens) == Set(scenario.road?.maneuvers.map(\.id) ?? []))
        #expect(thens.count == s.byThen)
        #expect(otherwise == 0)
        #expect(Invariants.checkRoad(scenario, run).isEmpty)
    }

    @Test(
        "Each committed real scenario is what the import writes, plus its golden and one now line expected per maneuver",
        arguments: realSamples)
    func pinned(_ s: RealSample) throws {
        try expectPinned(try importReal(s), as: "routes/real/\(s.scenario)", turns: s.turns.count)
    }

    @Test("drivesim check passes every real scenario against its golden")
    func check() {
        let (code, out, _) = Fixtures.drivesim("check", Fixtures.path("Scenarios/routes/real"))
        #expect(code == 0)
        #expect(out.contains("\(realSamples.count) passed, 0 failed"))
    }

    @Test("A step's prompts about a maneuver left out are counted on to the next one kept")
    func promptsCountedOn() throws {
        // instructions.json: step 3's prompts announce the "new name" of
        // step 4 (3524.8 m before the exit of step 5), so they are kept for
        // the exit, about 3524.8 m farther (as placed on the geometry).
        let prompts = try importReal(realSamples[1]).scenario.servicePrompts.filter { $0.maneuver == "l0s5" }
        let service = [225.3, 50.4]  // step 3's own distanceAlongGeometry
        #expect(prompts.count == 5)
        for (got, own) in zip(prompts.map(\.before), service) { #expect(abs((got ?? 0) - own - 3524.8) < 1) }
    }

    @Test("run --prompts json compares drivesim with Mapbox's own voice instructions, maneuver by maneuver")
    func promptsTable() throws {
        let (code, _, err) = Fixtures.drivesim(
            "run", Fixtures.path("Scenarios/routes/real/mapbox-instructions.json"), "--prompts", "json")
        #expect(code == 0)
        guard case .array(let rows) = try JSONParser.parse(Array(err.utf8))["prompts"]?.kind ?? .null else {
            Issue.record("no prompts")
            return
        }
        let first = try #require(rows.first)
        #expect(first["maneuver"] == .string("l0s1"))
        #expect(first["stage"] == .string("far"))
        #expect(first["serviceBefore"]?.kind == .number("181"))
        #expect(first["difference"]?.kind == .number("0"))
        // Every maneuver with a voice instruction has a row, the arrival's included.
        let maneuvers = Set(
            rows.compactMap { row -> String? in
                if case .string(let m) = row["maneuver"]?.kind { return m } else { return nil }
            })
        #expect(maneuvers == ["l0s1", "l0s2", "l0s3", "l0s5", "l0s6", "l0s7", "l0s9", "l0s10", "l0s11", "l0s12"])
    }

    @Test("run --prompts pairs each prompt with the nearest line of its maneuver, and summarises each stage")
    func promptsPairNearest() throws {
        let scenario = try Fixtures.scenario("routes/real/mapbox-instructions")
        let run = try Simulation(scenario)
        let comparison = try #require(PromptComparison(run.timeline, scenario))
        func rows(_ m: String) -> [PromptComparison.Row] { comparison.rows.filter { $0.maneuver == m } }
        // The exit: "In a half mile" (804 m) with drivesim's far line, "Take exit 432" (402 m) with
        // its now line; "In 2 miles" (3,525 m) has no counterpart, nor is any line left for it.
        let exit = rows("l0s5")
        #expect(exit.map(\.serviceBefore) == [3750, 3575, 3525, 804, 402])
        #expect(exit.map { $0.stage?.rawValue } == [nil, nil, nil, "far", "now"])
        // "Continue on Baker Street for a half mile", said after the turn before, pairs with nothing:
        // drivesim's far line (518 m) is more than half of 1,107 m from it.
        let baker = rows("l0s2")
        #expect(baker.first?.serviceText == "Continue on Baker Street for a half mile" && baker.first?.line == nil)
        #expect(baker.dropFirst().first.map { $0.stage == .far && $0.serviceBefore == nil } == true)
        let summary = comparison.summary
        #expect(summary.map(\.stage) == [.far, .near, .now])
        let far = try #require(summary.first)
        #expect(far.pairs == 4 && far.median == -41 && far.p90 == 168)
        #expect(comparison.text.contains("far: 4 pairs, median -41 m, 90% within 168 m"))
        #expect(comparison.json.contains("\"summary\": ["))
    }
}

/// OSRM's `overview` setting: its default (`simplified`) gives a route line
/// with fewer points than the steps' own lines, and `false` gives none.
@Suite struct OverviewTests {
    func imported(_ fixture: String) throws -> RouteImporter.Imported {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Scenarios/routes/real/\(fixture)"))))
        return try RouteImporter.importRoute(bytes, options: RouteImporter.Options(language: .en, source: fixture))
    }

    var full: RouteImporter.Imported { get throws { try importReal(realSamples[3]) } }

    @Test func aSimplifiedOverviewIsReplacedByTheStepsLinesWithAWarning() throws {
        // valhalla-ramps with every 8th point of its line (16 of 118): its
        // maneuvers lie up to 37 m off that line, which used to be refused.
        let simplified = try imported("valhalla-ramps-simplified.valhalla")
        #expect(simplified.warnings.map(\.kind) == [.simplifiedGeometry])
        #expect(simplified.scenario.road == (try full).scenario.road)
    }

    @Test func aResponseWithoutAnOverviewDrivesItsStepsLines() throws {
        let none = try imported("valhalla-ramps-no-overview.valhalla")
        #expect(none.warnings.isEmpty)
        #expect(none.scenario.road == (try full).scenario.road)
    }
}
