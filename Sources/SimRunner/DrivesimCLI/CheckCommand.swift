import ExternalProcess
import Fuzzing
import Review
import ScenarioFormat
import SimRunner
import TalkArbiter

/// `drivesim check PATH... [--record] [--coverage]`: every scenario under the
/// paths, one line each, then `N passed, N failed`.
enum CheckCommand: Command {
    static let name = "check"
    static let abstract = "Run every scenario under the paths and report which passed."
    static let usage =
        "USAGE: drivesim check <path> ... [--record] [--coverage] [--arbiter <command> [--timeline-only]] [--guidance <command>]"
    static let options: [Option] = [
        .flag(
            "--record",
            help: """
                Write the golden timeline of every scenario that names one
                ("golden") and passes its expectations and invariants.
                Refused when the environment has CI=true.
                """),
        .flag(
            "--coverage",
            help: """
                Also report how often each rule of the talk arbiter fired,
                per scenario and in total, and the rules never exercised.
                """),
        Option(
            "--arbiter", .text, "<command>",
            help: """
                Check the arbiter that COMMAND runs instead of drivesim's own
                (docs/arbiter-protocol.md); one that fails fails its scenario.
                """, check: Option.notBlank),
        Option.arbiterTimeout,
        .flag(
            "--timeline-only",
            help: """
                With --arbiter: judge its timelines only, not also each
                decision against drivesim's reference (the default).
                """, needs: ["--arbiter"]),
        Option(
            "--guidance", .text, "<command>",
            help: """
                Plan each road with the guidance engine COMMAND runs
                (docs/test-your-guidance.md): judged by the road's checks,
                not by a road's expectations or golden timeline (they pin
                drivesim's own): each scenario says so on standard error,
                and the line before the last counts them.
                """, check: Option.notBlank),
        Option.guidanceTimeout,
    ]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <path>                  Scenario files, or folders searched recursively for *.json
                                  (golden timelines, *.timeline.json, are not scenarios).

        OPTIONS:
        \(Option.help(options))

        Prints one line per scenario (PASS, FAIL, ERROR or RECORD) and last 'N passed, N failed';
        details of each failure go to standard error. A scenario that names a golden timeline
        fails when its timeline differs (a diff goes to standard error). A file that cannot be
        used (a golden timeline missing or malformed included) is reported with its reason,
        counted as failed, and the rest still run.

        EXIT CODES: 0 all passed, 1 any failed, 2 any file could not be used.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard !args.positional.isEmpty else { throw DrivesimError.usage(.missingArgument("path")) }
        let record = args.has("--record")
        if record, console.environment["CI"] == "true" { throw DrivesimError.refusedOnCI(.recordGoldens) }
        let external = try ArbiterProcess.launch(args)
        defer { external?.stop() }
        let guidance = try GuidanceProcess.launch(args)
        defer { guidance?.channel.stop() }
        let roadPlan = guidance?.planning
        let found = ScenarioFiles.scan(args.positional)
        guard !found.isEmpty else { throw DrivesimError.usage(.noScenarioFiles(args.positional)) }
        var passed = 0
        var failed = 0
        var unusable = 0
        var unwritten = 0
        // `--record` never writes over a file it was given (compared by identity).
        var inputs: [FileSystem.Identity: String] = [:]
        for case .file(let path) in found where record {
            if let identity = FileSystem.identity(ofFile: path), inputs[identity] == nil { inputs[identity] = path }
        }
        var coverage: [(file: String, rules: RuleCoverage)] = []
        var tally = UnjudgedTally()
        /// A file or folder that cannot be used: listed, counted as failed, and the rest go on (SPEC 8).
        func unusableFile(_ path: String, _ error: DrivesimError) {
            unusable += 1
            console.out("\(console.coloured("ERROR", .red)) \(path)\n")
            console.err(MessageInfo(error).message)
        }
        for (index, entry) in found.enumerated() {
            if console.errIsTerminal { console.err("\r[\(index + 1)/\(found.count)] ") }
            let file: String
            switch entry {
            case .problem(let error):
                unusableFile(entry.path, error)
                continue
            case .file(let path): file = path
            }
            let scenario: Scenario
            var warnings: [ScenarioError] = []
            switch ScenarioFiles.load(file, warnings: &warnings) {
            case .failure(let error):
                unusableFile(file, error)
                continue
            case .success(let loaded): scenario = loaded
            }
            for warning in warnings { console.warn(warning.description) }
            var verdict =
                external?.verdict(scenario, differential: !args.has("--timeline-only"), roadPlan: roadPlan)
                ?? Verdict(scenario, fault: nil, roadPlan: roadPlan)
            if let guidance { verdict = guidance.judging(verdict, of: scenario) }
            let unjudged = Unjudged(scenario, verdict, otherGuidance: guidance != nil)
            if let unjudged { tally.add(unjudged) }
            let timeline = verdict.simulation.timeline
            if args.has("--coverage") { coverage.append((file, RuleCoverage(timeline))) }
            do {
                let recording = record && scenario.golden != nil
                if recording, verdict.passed {
                    if let path = try GoldenFiles.record(scenario, file: file, timeline: timeline, inputs: inputs) {
                        passed += 1
                        console.out("RECORD \(file) → \(path)\n")
                    }
                    continue
                }
                let golden: GoldenFiles.Outcome
                if recording {
                    // A failing run is not recorded, and its golden file (maybe not written yet)
                    // is not compared; a golden name against the rules is still refused.
                    _ = try GoldenFiles.path(of: scenario, file: file)
                    golden = .none
                } else if unjudged != nil {
                    // The timeline was cut short by the failure: only the failure is reported.
                    // A golden timeline pins drivesim's own guidance: another is judged by the checks.
                    golden = .none
                } else {
                    golden = try GoldenFiles.check(scenario, file: file, timeline: timeline)
                }
                if verdict.passed && golden.holds {
                    passed += 1
                    console.out("\(console.coloured("PASS", .green))  \(file)\n")
                } else {
                    failed += 1
                    console.out("\(console.coloured("FAIL", .red))  \(file)\n")
                    var report = escapedForTerminal("\(file): \(scenario.name)") + "\n" + verdict.report
                    if case .differs(let diff) = golden { report += diff }
                    if recording { report += "\(file): its golden timeline is not recorded: the run fails\n" }
                    console.err(report)
                }
                if let unjudged { console.err(unjudged.line(file: escapedForTerminal(file))) }
            } catch {
                if case .cannotWrite = error { unwritten += 1 }
                unusableFile(file, error)
            }
        }
        if unwritten > 0 {
            console.err(
                "\(counted(unwritten, "golden timeline")) could not be written (each named above); the rest were checked or recorded\n"
            )
        }
        if console.errIsTerminal { console.err("\r") }
        if let notice = external?.notice { console.err(notice) }
        if args.has("--coverage") { console.out(coverageReport(coverage)) }
        if let line = tally.line { console.out(line) }
        console.out("\(passed) passed, \(failed + unusable) failed\n")
        return unusable > 0 ? 2 : (failed > 0 ? 1 : 0)
    }

    /// Per scenario the rules that fired, then the totals, then the rules never exercised.
    static func coverageReport(_ runs: [(file: String, rules: RuleCoverage)]) -> String {
        var out = "\nrule coverage (firings per scenario; see docs/review.md for what counts):\n"
        var total = RuleCoverage()
        for run in runs {
            total.add(run.rules)
            let fired =
                Rule.allCases.filter { run.rules[$0] > 0 }.map { "\($0.rawValue) \(run.rules[$0])" }
                + RoadRule.allCases.filter { run.rules[road: $0] > 0 }.map { "\($0.rawValue) \(run.rules[road: $0])" }
            out += "  \(run.file): \(fired.isEmpty ? "no rule" : fired.joined(separator: ", "))\n"
        }
        out += "\ntotals over \(counted(runs.count, "scenario")):\n"
        // The rule column fits the longest name of either table (`report-out-of-order`), so the columns hold.
        let width = (Rule.allCases.map(\.rawValue) + RoadRule.allCases.map(\.rawValue)).map(\.count).max() ?? 16
        out += "  \(pad("rule", width)) \(pad("firings", 8)) scenarios\n"
        for rule in Rule.allCases {
            let scenarios = runs.filter { $0.rules[rule] > 0 }.count
            out += "  \(pad(rule.rawValue, width)) \(pad(String(total[rule]), 8)) \(scenarios)\n"
        }
        out += "  road rules:\n"
        for rule in RoadRule.allCases {
            let scenarios = runs.filter { $0.rules[road: rule] > 0 }.count
            out += "  \(pad(rule.rawValue, width)) \(pad(String(total[road: rule]), 8)) \(scenarios)\n"
        }
        let never = total.neverFired.map(\.rawValue) + total.roadNeverFired.map(\.rawValue)
        out +=
            never.isEmpty
            ? "\nevery rule of SPEC 4.1 and of the road is exercised\n"
            : "\nnever exercised: \(never.joined(separator: ", "))\n"
        return out + "\n"
    }
}
