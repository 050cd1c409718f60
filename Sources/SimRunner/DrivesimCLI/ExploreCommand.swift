import ExternalProcess
import Foundation
import Fuzzing
import Review
import ScenarioFormat
import SimRunner
import TalkArbiter

/// `drivesim explore`: every talk scenario of up to N items on the grid of
/// the rules' boundaries (`Explorer`, docs/explore.md), each checked as a
/// fuzz run is; each broken check's failures are shrunk and written as a
/// reproducer, as `fuzz` writes them.
enum ExploreCommand: Command {
    static let name = "explore"
    static let options: [Option] = [
        Option("--scope", .integer(1...4), "<n>", help: "The most items, 1 to 4 (default 3)."),
        Option(
            "--shard", .text, "<i>/<n>",
            help: """
                Check only part i of n (1-based) of the scenarios;
                n machines with i = 1...n together check exactly the whole.
                """, check: FuzzCommand.checkShard),
        Option.jobs,
        Option("--out", .file, "<dir>", help: "Where reproducers go (default explore-failures)."),
        Option(
            "--mutant", .oneOf(TalkArbiter.Fault.allCases.map(\.rawValue)), "<name>",
            help: """
                Explore a deliberately broken arbiter (a talk mutant of
                'drivesim fuzz --list-mutants').
                """),
        Option(
            "--arbiter", .text, "<command>",
            help: """
                Explore the arbiter that COMMAND runs (docs/arbiter-protocol.md),
                compared with drivesim's decision by decision; one worker.
                """, check: Option.notBlank),
        Option.arbiterTimeout,
        Option(
            "--ties", .file, "<file>",
            help: """
                Report which outcomes of this scenario change with the order
                of same-instant inputs or a 1 ms shift (docs/explore.md#ties).
                """),
    ]
    static let abstract = "Check every small talk scenario on a grid of the rules' boundaries."
    static let usage =
        "USAGE: drivesim explore [--scope <n>] [--shard <i>/<n>] [--jobs <n>] [--out <dir>] [--mutant <name>] [--arbiter <command>]"
    static let tiesUsage = "drivesim explore --ties <file> [--mutant <name>]"
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)
               \(tiesUsage)

        Enumerates every scenario of 1 to <n> items (guidance lines of each kind, Pippa's
        replies with late chunks, Dad's utterances) placed on a grid of offsets from the
        rules' boundaries (a stretch with waitLimit +/- 1 ms left, the ears' tail +/- 1 ms,
        the same instant, ...), under each settings variant, each multiset once. Each is
        simulated twice and checked like a fuzz run; the failures of each broken check are
        shrunk and the smallest written to <dir> as a file that 'drivesim run' replays.
        Prints, per size, 'scope k: N scenarios, F failures'. The same on every machine.

        With --ties, runs one scenario with each group of lines (or replies) of one instant
        in every other order, and with each input moved 1 ms either way, and prints a table
        of the outcomes that change: under which order or shift, whose, what it was, what
        it became.

        OPTIONS:
        \(Option.help(options))

        EXIT CODES: 0 no scenario failed, 1 a scenario failed, 2 bad arguments or a
        reproducer that could not be written. With --ties: 0 the report, whatever it
        shows; 1 a variation broke a check; 2 an unusable file.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.isEmpty else {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no arguments, only options"))
        }
        if let file = args.value("--ties") { return try ties(file, args, console: &console) }
        let scope = args.integer("--scope") ?? 3
        var settings = Fuzzer.Settings()
        if let shard = args.value("--shard") { settings.shard = try FuzzCommand.parseShard(shard) }
        settings.mutant = talkMutant(args).map(Mutant.talk)
        var jobs = args.integer("--jobs") ?? Option.defaultJobs
        let external = try ArbiterProcess.launch(args)
        defer { external?.stop() }
        if let external { FuzzCommand.use(external, in: &settings, jobs: &jobs) }
        let out = args.value("--out") ?? "explore-failures"
        if args.value("--out") != nil { try FuzzCommand.prepare(folder: out) }

        let arbiter = settings.mutant.map { "mutant \($0.name) (breaks \($0.breaks))" } ?? settings.arbiter.name
        console.out(
            "drivesim explore: scope \(scope), shard \(settings.shard.index)/\(settings.shard.count), \(arbiter)\n")
        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = console.errIsTerminal
        let outcome = Explorer.run(scope: scope, settings: settings, jobs: jobs) { progress in
            if showsProgress {
                console.err(
                    "\rscope \(progress.size): \(progress.done)/\(progress.total) scenarios, \(progress.failed) failed")
            }
            // An arbiter given up (it hung) is asked nothing more.
            return external?.givenUp == nil
        }
        if showsProgress { console.err("\r\u{1B}[K") }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        for size in outcome.sizes {
            let part = settings.shard.count == 1 ? "" : "\(size.checked) of "
            let failures = "\(size.failed) failure\(size.failed == 1 ? "" : "s")"
            console.out("scope \(size.size): \(part)\(size.scenarios) scenarios, \(failures)\n")
        }
        let fuzzer = outcome.fuzzer
        console.err("\(fuzzer.runsDone) scenarios in \(BenchCommand.format1(seconds)) s\n")
        if let external, let reason = external.givenUp {
            console.err(
                "the arbiter '\(escapedForTerminal(external.command))' was given up: \(reason); no later scenario asked it\n"
            )
        }
        if let notice = external?.notice { console.err(notice) }
        let reproducers = FuzzCommand.writeReproducers(
            fuzzer, folder: out, jobs: jobs, console: &console,
            unshrinkable: external?.givenUp != nil ? [.arbiter(.process)] : []
        ) {
            .explore(scope: scope, index: $0)
        }
        report(fuzzer, reproducers: reproducers, console: &console)
        if reproducers.contains(where: { $0.1 == nil }) { return 2 }
        return fuzzer.failedRuns == 0 ? 0 : 1
    }

    /// The talk mutant `--mutant` names, if any: the grid is talk alone, so a road mutant could never be caught by
    /// it (its table offers talk mutants only).
    static func talkMutant(_ args: Arguments) -> TalkArbiter.Fault? {
        args.value("--mutant").flatMap(TalkArbiter.Fault.init(rawValue:))
    }

    /// `--ties FILE`: the table of outcomes that change with an order or a shift.
    static func ties(_ file: String, _ args: Arguments, console: inout Console) throws -> Int32 {
        for option in ["--scope", "--shard", "--jobs", "--out", "--arbiter", "--arbiter-timeout"]
        where args.value(option) != nil {
            throw DrivesimError.usage(
                .tooManyArguments(command: "\(name) --ties", takes: "one scenario file and --mutant, not \(option)"))
        }
        let fault = talkMutant(args)
        let scenario = try ScenarioFiles.load(file).get()
        let orders = TieReport.orderCount(of: scenario)
        let shifts = TieReport.shiftCount(of: scenario)
        console.out("drivesim explore --ties \(file): \(counted(orders, "order")), \(counted(shifts, "shift"))\n")
        // Rows as they are found: one variation in memory at a time, whatever the file's size.
        var rows = 0
        let showsProgress = console.errIsTerminal
        let report = TieReport(
            scenario, fault: fault,
            progress: { done, total in
                if showsProgress && (done % 16 == 0 || done == total) { console.err("\r\(done)/\(total) variations") }
            }
        ) { change in
            if rows == 0 { console.out("\n| under | item | was | became |\n|---|---|---|---|\n") }
            rows += 1
            console.out("| \(change.under) | \(change.item) | \(change.was) | \(change.became) |\n")
        }
        if showsProgress { console.err("\r\u{1B}[K") }
        var text = (rows > 0 ? "\n" : "") + counted(report.changed, "changed outcome")
        text +=
            report.skipped > 0
            ? " (\(report.skipped) \(report.skipped == 1 ? "variation" : "variations") not valid, skipped)" : ""
        text += "\n"
        for (t, items) in report.oversized {
            text +=
                "not run in every order: the \(items) items at \(t) (more than \(TieReport.largestGroup) in one instant)\n"
        }
        console.out(text)
        for (under, violation) in report.broken {
            console.err("FAIL under \(under): \(violation.check) at \(violation.t): \(violation.message)\n")
        }
        return report.broken.isEmpty ? 0 : 1
    }

    /// The failed scenarios per check, the rules the grid made fire, and the reproducers.
    static func report(_ fuzzer: Fuzzer, reproducers: [(Fuzzer.Failure, String?)], console: inout Console) {
        console.out(FuzzCommand.tally(fuzzer, reproducers: reproducers, unit: "scenario", everyCheck: false))
    }
}
