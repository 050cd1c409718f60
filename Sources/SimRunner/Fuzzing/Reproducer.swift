import Road
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// What makes a shrunk failure a file ready to commit: a readable file name
/// (the check it breaks), a name and description that name no path but the
/// file's own, and `expect` matchers that pin the correct behaviour at the
/// collision (docs/fuzzing.md#reproducers).
package enum ReproducerFile {
    /// The file name, without a folder: the check, the mutant if any, the
    /// campaign's seed and the run, e.g. `invariant-3-urgent-waits-seed-1-run-268.json`
    /// or `rule-barge-in-seed-1-run-268.json`. One campaign writes one file per
    /// check, so names never collide; the same campaign always gives the same names.
    package static func fileName(check: Check, fault: TalkArbiter.Fault?, seed: UInt64, run: Int) -> String {
        fileName(check: check, mutant: fault.map(Mutant.talk), seed: seed, run: run)
    }

    /// The same for any built-in mutant, the road's included.
    package static func fileName(check: Check, mutant: Mutant?, seed: UInt64, run: Int) -> String {
        let name = mutant.map { "-\($0.name)" } ?? ""
        return "\(slug(check))\(name)-seed-\(seed)-run-\(run).json"
    }

    /// The file name of scenario `index` of an exploration (`drivesim explore`):
    /// `<check>[-<mutant>]-explore-<index>.json`; the index is the same whatever the scope.
    package static func fileName(check: Check, mutant: Mutant?, exploreIndex index: Int) -> String {
        "\(slug(check))\(mutant.map { "-\($0.name)" } ?? "")-explore-\(index).json"
    }

    /// The file name of the failure of `check` found at `origin`.
    package static func fileName(check: Check, mutant: Mutant?, origin: Origin) -> String {
        switch origin {
        case .fuzz(let seed, let run): return fileName(check: check, mutant: mutant, seed: seed, run: run)
        case .explore(_, let index): return fileName(check: check, mutant: mutant, exploreIndex: index)
        }
    }

    /// Where a failure was found.
    package enum Origin: Sendable, Equatable {
        /// Run `run` of the fuzz campaign of `seed`.
        case fuzz(seed: UInt64, run: Int)
        /// Scenario `index` of the exploration of `scope`.
        case explore(scope: Int, index: Int)

        /// `run 13 (seed 1)`, `scenario 13 (explore --scope 3)`.
        package var label: String {
            switch self {
            case .fuzz(let seed, let run): return "run \(run) (seed \(seed))"
            case .explore(let scope, let index): return "scenario \(index) (explore --scope \(scope))"
            }
        }
    }

    /// A check in kebab case: `invariant-3`, `rule-barge-in`, `road-<check>`.
    package static func slug(_ check: Check) -> String {
        let text: String
        switch check {
        case .invariant(let n): text = "invariant-\(n)"
        case .rule(let rule): text = "rule-\(rule.rawValue)"
        case .road(let road): text = "road-\(road.rawValue)"
        case .decision(let rule): text = "decision-\(rule.rawValue)"
        case .arbiter(let check): text = "arbiter-\(check.rawValue)"
        case .guidance(let check): text = "guidance-\(check.rawValue)"
        }
        // Only letters, digits and `-`, so the name is safe on every file system.
        return String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
    }

    /// The sentence a mutant's reproducer carries in its `description`, so
    /// that replaying it without `--mutant` (which passes) says why it passes.
    package static func mutantNote(_ fault: TalkArbiter.Fault) -> String { mutantNote(.talk(fault)) }

    /// The same for any built-in mutant: a road mutant's says the real road is right.
    package static func mutantNote(_ mutant: Mutant) -> String {
        switch mutant {
        case .talk(let fault):
            return "Without --mutant \(fault.rawValue) this scenario passes only because the real arbiter is right: "
                + "its expectations pin what the real arbiter does at the collision."
        case .road(let fault):
            return "Without --mutant \(fault.rawValue) this scenario passes only because the real road is right: "
                + "its expectations pin what the real road does at the failure."
        }
    }

    /// The arbiter's mutant a reproducer's description names in its `mutantNote`, if any.
    package static func mutant(noted description: String?) -> TalkArbiter.Fault? { anyMutant(noted: description)?.talk }

    /// The built-in mutant (the arbiter's or the road's) a reproducer's description names in its `mutantNote`, if any.
    package static func anyMutant(noted description: String?) -> Mutant? {
        guard let description, let start = description.firstRange(of: "Without --mutant ")?.upperBound else {
            return nil
        }
        let name = description[start...].prefix { $0 != " " }
        guard let mutant = Mutant(name: String(name)), description.contains(mutantNote(mutant)) else { return nil }
        return mutant
    }

    /// How a reproducer is run again: by `drivesim run` with options (the
    /// mutant or the arbiter command it was found with), or, for a Swift
    /// arbiter from the conformance kit, by `Conformance.replay`.
    package enum Replay: Sendable, Equatable {
        /// `drivesim run FILE` with these options (` --mutant NAME`, ` --arbiter 'COMMAND'`, or none).
        case cli(options: String)
        /// `try Conformance.replay(TYPE.self, file: "FILE")` in a Swift test.
        case swift(type: String)
        /// `try Conformance.replayRoad(TYPE.init, file: "FILE")`: a Swift guidance from the conformance kit.
        case swiftRoad(type: String)

        /// The command or Swift line that replays `file`.
        package func line(_ file: String) -> String {
            switch self {
            case .cli(let options): return "drivesim run \(shellQuoted(file))\(options)"
            case .swift(let type): return "try Conformance.replay(\(type).self, file: \"\(file)\")"
            case .swiftRoad(let type): return "try Conformance.replayRoad(\(type).init, file: \"\(file)\")"
            }
        }

        /// What found the failure at `origin`.
        func found(_ origin: Origin) -> String {
            switch (self, origin) {
            case (.cli(let options), .fuzz(let seed, let run)):
                return "drivesim fuzz --seed \(seed), run \(run)\(options)"
            case (.swift(let type), .fuzz(let seed, let run)):
                return "Conformance.fuzz(\(type).self, seed: \(seed)), run \(run)"
            case (.cli(let options), .explore(let scope, let index)):
                return "drivesim explore --scope \(scope), scenario \(index)\(options)"
            case (.swift(let type), .explore(let scope, let index)):
                return "Conformance.explore(\(type).self, scope: \(scope)), scenario \(index)"
            case (.swiftRoad(let type), .fuzz(let seed, let run)):
                return "Conformance.road(\(type).init, seed: \(seed)), run \(run)"
            case (.swiftRoad(let type), .explore(let scope, let index)):
                return "Conformance.road(\(type).init), scope \(scope), scenario \(index)"
            }
        }
    }

    /// `small` (a shrunk scenario that breaks `check`) ready to be written as
    /// `file` (a bare file name): its name, description and matchers.
    package static func prepare(
        _ small: Scenario, check: Check, violation: Violation, fault: TalkArbiter.Fault?,
        seed: UInt64, run: Int, unshrunkSize: Int, file: String
    ) -> Scenario {
        prepare(
            small, check: check, violation: violation, arbiter: .mutant(fault), seed: seed, run: run,
            unshrunkSize: unshrunkSize, file: file)
    }

    /// The same for any built-in mutant, the road's included.
    package static func prepare(
        _ small: Scenario, check: Check, violation: Violation, mutant: Mutant?,
        seed: UInt64, run: Int, unshrunkSize: Int, file: String
    ) -> Scenario {
        prepare(
            small, check: check, violation: violation, arbiter: .builtIn(mutant), seed: seed, run: run,
            unshrunkSize: unshrunkSize, file: file)
    }

    /// The same for any arbiter under test: the description's `Replay:`
    /// line runs it again with that arbiter (`ArbiterUnderTest.replay`), and
    /// unless it is the reference, the matchers pin what the reference does
    /// where the two timelines part. The CLI and the conformance kit both
    /// write their reproducers here, so they are the same file. `checked` is
    /// `arbiter`'s verdict on `small` when the caller has it (not run again).
    package static func prepare(
        _ small: Scenario, check: Check, violation: Violation, arbiter: ArbiterUnderTest,
        seed: UInt64, run: Int, unshrunkSize: Int, file: String, checked: Verdict? = nil
    ) -> Scenario {
        prepare(
            small, check: check, violation: violation, arbiter: arbiter, origin: .fuzz(seed: seed, run: run),
            unshrunkSize: unshrunkSize, file: file, checked: checked)
    }

    /// The same for a failure found at `origin` (a fuzz run or an exploration's scenario).
    package static func prepare(
        _ small: Scenario, check: Check, violation: Violation, arbiter: ArbiterUnderTest,
        origin: Origin, unshrunkSize: Int, file: String, checked: Verdict? = nil
    ) -> Scenario {
        var out = small
        switch origin {
        case .fuzz(let seed, let run): out.name = "fuzz seed \(seed) run \(run): \(check)"
        case .explore(_, let index): out.name = "explore scenario \(index): \(check)"
        }
        // A guidance under test is judged by the checks alone: drivesim's own timeline pins nothing of it.
        out.expect =
            check == .arbiter(.process) || arbiter.guidance
            ? [] : expectations(small, violation: violation, arbiter: arbiter, checked: checked)
        out.expectPippa = []
        let size = Shrinker.size(of: small)
        var text =
            "Breaks \(check) at \(violation.t): \(violation.message)\(check.drawn(in: small.settings).map { " (\($0))" } ?? ""). Found by \(arbiter.replay.found(origin)); "
            + "shrunk from \(unshrunkSize) to \(counted(size, "item")). Replay: \(arbiter.replay.line(file))."
        if let mutant = arbiter.mutant {
            text += " " + mutantNote(mutant)
        } else if arbiter.isReference {
            text +=
                " No expectations: the real arbiter broke the check, so nothing here knows the correct behaviour yet."
        } else if arbiter.guidance {
            text += " No expectations: a guidance is judged by the road's checks."
        } else if !out.expect.isEmpty {
            text += " Its expectations pin what drivesim's reference arbiter does there."
        }
        out.description = text
        return out
    }

    /// Matchers that the real arbiter's timeline meets and the mutant's does
    /// not: the real arbiter's events at the violation's instant (each with
    /// its SPEC fields), and, if the mutant meets those too, its events at the
    /// instants where the two timelines first differ (the real event's and
    /// the mutant's), with a `count` of what the mutant did there instead. Empty without a mutant (the real arbiter
    /// failed, so there is no correct behaviour to pin) or when no such
    /// matchers exist.
    package static func expectations(_ scenario: Scenario, violation: Violation, fault: TalkArbiter.Fault?) -> [Matcher]
    {
        expectations(scenario, violation: violation, arbiter: .mutant(fault))
    }

    /// The same for any built-in mutant, the road's included.
    package static func expectations(_ scenario: Scenario, violation: Violation, mutant: Mutant?) -> [Matcher] {
        expectations(scenario, violation: violation, arbiter: .builtIn(mutant))
    }

    /// The same for any arbiter under test (none for the reference itself);
    /// `checked` is its verdict on `scenario` (without matchers) if known.
    package static func expectations(
        _ scenario: Scenario, violation: Violation, arbiter: ArbiterUnderTest, checked: Verdict? = nil
    ) -> [Matcher] {
        guard !arbiter.isReference else { return [] }
        var plain = scenario
        plain.expect = []
        let real = Verdict(plain, fault: nil).simulation.timeline
        let mutant =
            (scenario.expect.isEmpty ? checked : nil)?.simulation.timeline ?? arbiter.check(plain).simulation.timeline
        var matchers = pins(real, at: violation.t, against: nil)
        if mutant.failures(of: matchers).isEmpty, let first = firstDifference(real, mutant) {
            for t in Set([first.real, first.mutant].compactMap { $0 }).sorted() {
                for matcher in pins(real, at: t, against: mutant) where !matchers.contains(matcher) {
                    matchers.append(matcher)
                }
            }
        }
        guard !mutant.failures(of: matchers).isEmpty, real.failures(of: matchers).isEmpty else { return [] }
        for i in matchers.indices { matchers[i].path = "expect[\(i)]" }
        return matchers
    }

    /// One matcher per distinct event of `real` at `t` (a `count` when the
    /// same event happens more than once then); with `other`, also a `count`
    /// matcher for each distinct event of `other` at `t` that `real` has a
    /// different number of.
    static func pins(_ real: Timeline, at t: SimTime, against other: Timeline?) -> [Matcher] {
        var out: [Matcher] = []
        func add(_ timeline: Timeline, countAlways: Bool) {
            for event in timeline.events where event.t == t {
                let fields = event.kind.specFields.compactMap { field in
                    timeline.value(of: field, in: event).map { (field: field, value: $0) }
                }
                .sorted { $0.field.rawValue.utf8.lexicographicallyPrecedes($1.field.rawValue.utf8) }
                var matcher = Matcher(event: event.kind, fields: fields, when: .at(t))
                let inReal = real.events.filter { real.matches(matcher, $0) }.count
                if countAlways || inReal != 1 { matcher.count = inReal }
                if countAlways, let other, other.events.filter({ other.matches(matcher, $0) }).count == inReal {
                    continue
                }
                if !out.contains(matcher) { out.append(matcher) }
            }
        }
        add(real, countAlways: false)
        if let other { add(other, countAlways: true) }
        return out
    }

    /// Where the two timelines first differ (kind, time or SPEC fields): the
    /// time of each one's event there (nil for one that has ended), or nil if
    /// they are the same.
    static func firstDifference(_ real: Timeline, _ mutant: Timeline) -> (real: SimTime?, mutant: SimTime?)? {
        func key(_ timeline: Timeline, _ event: TimelineEvent) -> [String] {
            [event.kind.rawValue, String(event.t.ms)]
                + event.kind.specFields.map { timeline.value(of: $0, in: event)?.description ?? "-" }
        }
        let n = max(real.events.count, mutant.events.count)
        for i in 0..<n {
            let a = i < real.events.count ? real.events[i] : nil
            let b = i < mutant.events.count ? mutant.events[i] : nil
            if let a, let b, key(real, a) == key(mutant, b) { continue }
            return (a?.t, b?.t)
        }
        return nil
    }
}
