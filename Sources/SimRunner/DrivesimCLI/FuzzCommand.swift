import Foundation
import Fuzzing
import Review
import Road
import ScenarioFormat
import SimRunner
import TalkArbiter

#if canImport(Glibc)
    import ExternalProcess
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `drivesim fuzz`: a seeded campaign of collision scenarios; every failure
/// is counted, and the first of each broken check is shrunk and written as a
/// scenario file that replays it.
enum FuzzCommand: Command {
    static let name = "fuzz"
    static let abstract = "Generate collision scenarios from a seed, check them, shrink each failure to a reproducer."
    static let usage =
        "USAGE: drivesim fuzz [--seed <s>] [--runs <n>] [--time-limit <seconds>] [--shard <i>/<n>] [--jobs <n>] [--out <dir>] [--mutant <name>] [--road] [--arbiter <command>] [--guidance <command>]"
    static let options: [Option] = [
        Option("--seed", .integer(0...UInt64.max), "<s>", help: "The campaign's seed (default 1)."),
        Option("--runs", .integer(1...100_000_000), "<n>", help: "How many runs (default 10000)."),
        Option(
            "--time-limit", .text, "<seconds>", help: "Stop early after this much wall-clock time.",
            check: checkTimeLimit),
        Option(
            "--shard", .text, "<i>/<n>",
            help: """
                Do only part i of n (1-based) of the campaign's runs;
                n machines with i = 1...n together do exactly the whole.
                """, check: checkShard),
        Option.jobs,
        Option("--out", .file, "<dir>", help: "Where reproducers go (default fuzz-failures)."),
        Option(
            "--mutant", .oneOf(Mutant.allCases.map(\.name)), "<name>",
            help: """
                Fuzz a deliberately broken arbiter or road instead (see
                --list-mutants); a road mutant makes every run a road run.
                """, excludes: ["--guidance"]),
        .flag(
            "--road",
            help: """
                Draw road profiles too: half the runs (a draw of their own)
                are small road drives with talk on top; the other runs are
                exactly those of the campaign without --road.
                """),
        .flag("--list-mutants", help: "List the built-in mutants and what each breaks."),
        Option(
            "--arbiter", .text, "<command>",
            help: """
                Fuzz the arbiter that COMMAND runs (docs/arbiter-protocol.md),
                compared with drivesim's decision by decision; one worker.
                """, check: Option.notBlank),
        Option.arbiterTimeout,
        Option(
            "--guidance", .text, "<command>",
            help: """
                Plan every road with the guidance engine COMMAND runs
                (docs/test-your-guidance.md; with --road); one worker.
                """, check: Option.notBlank),
        Option.guidanceTimeout,
    ]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)
               drivesim fuzz --list-mutants

        Each run draws a profile (which features, how dense, which settings), makes a
        scenario aimed at the arbiter's boundaries, simulates it twice and checks every
        invariant of SPEC 7 and every rule check. The first failure of each broken check
        is shrunk to a 1-minimal scenario and written to <dir> as a file that
        'drivesim run' replays. The same seed gives the same campaign on every machine.

        OPTIONS:
        \(Option.help(options))

        EXIT CODES: 0 no run failed, 1 a run failed, 2 bad arguments.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.isEmpty else {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no arguments, only options"))
        }
        if args.has("--list-mutants") {
            for fault in TalkArbiter.Fault.allCases {
                console.out("\(pad(fault.rawValue, 28)) breaks \(pad(fault.rule.rawValue, 15)) \(fault.summary)\n")
            }
            for fault in RoadFault.allCases {
                console.out("\(pad(fault.rawValue, 28)) breaks \(pad(fault.check.description, 26)) \(fault.summary)\n")
            }
            return 0
        }
        var settings = Fuzzer.Settings()
        settings.seed = args.integer("--seed") ?? settings.seed
        settings.runs = args.integer("--runs") ?? settings.runs
        if let shard = args.value("--shard") { settings.shard = try parseShard(shard) }
        settings.mutant = args.value("--mutant").flatMap(Mutant.init(name:))
        settings.road = args.has("--road")
        var jobs = args.integer("--jobs") ?? Option.defaultJobs
        let external = try ArbiterProcess.launch(args)
        defer { external?.stop() }
        if let external { use(external, in: &settings, jobs: &jobs) }
        let guidance = try GuidanceProcess.launch(args)
        defer { guidance?.channel.stop() }
        if let guidance { use(guidance, with: external, in: &settings, jobs: &jobs) }
        let timeLimit = try args.value("--time-limit").map(timeLimit)
        let out = args.value("--out") ?? "fuzz-failures"
        if args.value("--out") != nil { try prepare(folder: out) }

        let mutant = settings.mutant.map { "mutant \($0.name) (breaks \($0.breaks))" } ?? settings.arbiter.name
        console.out(
            "drivesim fuzz: seed \(settings.seed), runs \(settings.runs), shard \(settings.shard.index)/\(settings.shard.count), \(mutant)"
                + (settings.road ? ", road profiles" : "") + "\n")
        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = console.errIsTerminal
        // With a time limit, the result is the contiguous prefix of runs done (see `Campaign`).
        let outcome = Campaign.run(settings, jobs: jobs) { progress in
            if showsProgress { console.err("\r\(counted(progress.runsDone, "run")), \(progress.failedRuns) failed") }
            // An arbiter given up (it hung) is asked nothing more: the campaign stops.
            return (timeLimit.map { clock.now - start <= $0 } ?? true) && external?.givenUp == nil
                && guidance?.channel.givenUp == nil
        }
        let fuzzer = outcome.fuzzer
        let stoppedEarly = outcome.stoppedEarly
        let elapsed = clock.now - start
        if console.errIsTerminal { console.err("\r") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        console.err(
            "\(counted(fuzzer.runsDone, "run")) in \(BenchCommand.format1(seconds)) s (\(Int(Double(fuzzer.runsDone) / max(seconds, 1e-9))) runs/s)\n"
        )
        if stoppedEarly, external?.givenUp == nil {
            console.out("stopped by --time-limit after \(counted(fuzzer.runsDone, "run"))\n")
        }
        if let external, let reason = external.givenUp {
            // Told once: the runs after it were not asked (they fail as `arbiter process`).
            console.err(
                "the arbiter '\(escapedForTerminal(external.command))' was given up: \(reason); no later run asked it, and the campaign stopped after \(counted(fuzzer.runsDone, "run"))\n"
            )
        }

        if let guidance, let reason = guidance.channel.givenUp {
            console.err(
                "the guidance '\(escapedForTerminal(guidance.command))' was given up: \(reason); no later run asked it, and the campaign stopped after \(counted(fuzzer.runsDone, "run"))\n"
            )
        }
        if let notice = external?.notice { console.err(notice) }
        // A process given up is asked nothing more: its failure is filed as found, unshrunk.
        let givenUp = Set(
            (external?.givenUp != nil ? [Check.arbiter(.process)] : [])
                + (guidance?.channel.givenUp != nil ? [Check.guidance(.process)] : []))
        let reproducers = writeReproducers(fuzzer, folder: out, jobs: jobs, console: &console, unshrinkable: givenUp)
        report(fuzzer, reproducers: reproducers, console: &console)
        if reproducers.contains(where: { $0.1 == nil }) { return 2 }
        return fuzzer.failedRuns == 0 ? 0 : 1
    }

    /// `--time-limit`'s value: seconds of wall-clock time, more than 0 and at most a day.
    static func timeLimit(_ text: String) throws(DrivesimError) -> Duration {
        guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else { throw .usage(.badTimeLimit(text)) }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// `--time-limit`, checked with the other options.
    static let checkTimeLimit: Option.Check = { _, value throws(DrivesimError) in _ = try timeLimit(value) }

    /// `--shard`, checked with the other options.
    static let checkShard: Option.Check = { _, value throws(DrivesimError) in _ = try parseShard(value) }

    /// `i/n` with 1 ≤ i ≤ n.
    static func parseShard(_ text: String) throws(DrivesimError) -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 100_000, (1...n).contains(i)
        else {
            throw DrivesimError.usage(.badShard(text))
        }
        return (i, n)
    }

    /// Makes sure the folder can be made and written in. Created only when something fails (docs/fuzzing.md): here, before
    /// the campaign, it is made to see that it can be, and the folders made
    /// are removed again, so a campaign that finds nothing leaves none.
    static func prepare(folder: String) throws(DrivesimError) {
        let made = try FileSystem.makeFolder(folder)
        defer { for path in made.reversed() { rmdir(path) } }
        guard access(folder, W_OK) == 0 else { throw .cannotWrite(path: folder, WriteProblem(errno: errno)) }
    }

    /// Shrinks the first failures of each check (up to `candidates`, on `jobs`
    /// workers), keeps the smallest result and writes it; returns what was
    /// written, per check.
    static func writeReproducers(
        _ fuzzer: Fuzzer, folder: String, jobs: Int = 1, console: inout Console, unshrinkable: Set<Check> = [],
        origin: ((Int) -> ReproducerFile.Origin)? = nil
    ) -> [(Fuzzer.Failure, String?)] {
        var written: [(Fuzzer.Failure, String?)] = []
        for reproducer in Campaign.reproducers(
            of: fuzzer, candidates: candidates, jobs: jobs, unshrinkable: unshrinkable)
        {
            let (failure, tries) = (reproducer.failure, reproducer.tries)
            let seed = fuzzer.settings.seed
            let arbiter = fuzzer.settings.arbiter
            let found = origin?(failure.run) ?? .fuzz(seed: seed, run: failure.run)
            let check = failure.violation.check
            // The shrunk file's own violation, with the arbiter it was found with: its times are what the file shows.
            // A process given up is asked nothing more: its failure is the one found, in the run it hung in.
            let checked = unshrinkable.contains(check) ? nil : arbiter.check(reproducer.scenario)
            let violation =
                checked?.violations.sorted { ($0.t, $0.check) < ($1.t, $1.check) }.first { $0.check == check }
                ?? failure.violation
            let name = ReproducerFile.fileName(check: check, mutant: arbiter.mutant, origin: found)
            let file = "\(folder)/\(name)"
            let small = ReproducerFile.prepare(
                reproducer.scenario, check: check, violation: violation, arbiter: arbiter, origin: found,
                unshrunkSize: Shrinker.size(of: failure.scenario), file: name, checked: checked)
            let drawn = check.drawn(in: reproducer.scenario.settings).map { " (\($0))" } ?? ""
            console.err("FAIL \(found.label): \(check) at \(violation.t): \(violation.message)\(drawn)\n")
            do {
                try FileSystem.makeFolder(folder)
                try FileSystem.write(ScenarioEncoder.encode(small), to: file)
                let size = Shrinker.size(of: small)
                console.err(
                    "  shrunk to \(counted(size, "item")) in \(counted(tries, "try", "tries")): \(arbiter.replay.line(file))\n"
                )
                written.append((failure, file))
            } catch {
                // Never lost: the scenario goes to standard error in full, and the campaign exits 2.
                console.err(
                    "  could not write the reproducer: \(error.reason); here it is in full:\n"
                        + String(decoding: ScenarioEncoder.encode(small), as: UTF8.self) + "\n")
                written.append((failure, nil))
            }
        }
        return written
    }

    /// Replaying a mutant's reproducer without `--mutant` (`run`): a note on
    /// standard error that it passes only because the real arbiter is right.
    static func noteMutantReproducer(_ scenario: Scenario, fault: Mutant?, console: inout Console) {
        guard fault == nil, let noted = ReproducerFile.anyMutant(noted: scenario.description) else { return }
        let real = noted.talk != nil ? "arbiter" : "road"
        console.err(
            "note: a reproducer of mutant \(noted.name); it passes only because the real \(real) is right "
                + "(replay the failure with --mutant \(noted.name))\n")
    }

    /// How many failures of one check are shrunk to find the smallest reproducer.
    static let candidates = 8

    static func report(_ fuzzer: Fuzzer, reproducers: [(Fuzzer.Failure, String?)], console: inout Console) {
        console.out(
            "\nruns: \(fuzzer.runsDone)\nfailed runs: \(fuzzer.failedRuns)\n"
                + tally(fuzzer, reproducers: reproducers, unit: "run", everyCheck: true))
    }

    /// A plugged-in arbiter's process as the campaign's arbiter, compared with
    /// the reference, on one worker: its runs are one conversation.
    static func use(_ external: ArbiterProcess, in settings: inout Fuzzer.Settings, jobs: inout Int) {
        jobs = 1
        settings.arbiter = .custom(
            name: "the arbiter '\(external.command)'", replay: external.replayOptions,
            foretell: { external.foretell($0, differential: true) }
        ) { external.verdict($0, differential: true) }
    }

    /// A plugged-in guidance's process as the campaign's road guidance (with
    /// `external`, the plugged-in arbiter, if any), on one worker.
    static func use(
        _ guidance: GuidanceProcess, with external: ArbiterProcess?, in settings: inout Fuzzer.Settings, jobs: inout Int
    ) {
        jobs = 1
        let plan = guidance.planning
        settings.arbiter = .custom(
            name: "the guidance '\(guidance.command)'" + (external.map { " with the arbiter '\($0.command)'" } ?? ""),
            replay: guidance.replayOptions + (external?.replayOptions ?? "")
        ) { scenario in
            guidance.judging(
                external?.verdict(scenario, differential: true, roadPlan: plan)
                    ?? Verdict(scenario, fault: nil, roadPlan: plan), of: scenario)
        }
        settings.arbiter.guidance = true
    }

    /// The failures per check (every check, or only those that failed), the
    /// rules fired, and where each reproducer went: what `fuzz` and `explore`
    /// print after their counts, a failure named as one `unit` ("run 12").
    static func tally(_ fuzzer: Fuzzer, reproducers: [(Fuzzer.Failure, String?)], unit: String, everyCheck: Bool)
        -> String
    {
        var text = ""
        // The road's checks can fire only on road runs (`--road`, a road mutant): without them they are not listed.
        let roadRuns = fuzzer.settings.road || fuzzer.settings.mutant?.road != nil
        // The arbiter's own checks are listed only when they failed (the built-in arbiters never do).
        let listed = Check.all + [.arbiter(.process), .guidance(.process)]
        let checks =
            everyCheck || fuzzer.failedRuns > 0
            ? listed.filter { check in
                fuzzer.failuresPerCheck[check] != nil
                    || (everyCheck && !check.isArbiterCheck && (roadRuns || !check.isRoadCheck))
            } : []
        // One column for the counts of both tables, past the longest name (`road line-after-maneuver`).
        let column = max(22, checks.map { $0.description.count }.max() ?? 0)
        if !checks.isEmpty {
            text += "failed \(unit)s per check:\n"
            for check in checks {
                text += "  \(pad(check.description, column)) \(fuzzer.failuresPerCheck[check, default: 0])\n"
            }
        }
        text += "rules fired:\n"
        for rule in Rule.allCases { text += "  \(pad(rule.rawValue, column)) \(fuzzer.rulesFired[rule])\n" }
        if !reproducers.isEmpty {
            text += "reproducers (the smallest of the first \(candidates) failures of each check):\n"
            for (failure, file) in reproducers {
                text += "  \(unit) \(failure.run): \(failure.violation.check) -> \(file ?? "not written")\n"
            }
        }
        return text
    }
}

extension TalkArbiter.Fault {
    /// One line on what the mutant does.
    var summary: String {
        switch self {
        case .earsEarly: return "the ears reopen 1 ms early"
        case .urgentWaits: return "urgent lines wait for Pippa like ordinary ones"
        case .waitLimitStrict: return "the wait limit compared with < instead of ≤"
        case .waitLimitLoose: return "lines wait for a stretch with up to 1 ms over the limit"
        case .urgentNotAhead: return "urgent lines queue behind pending ordinary ones"
        case .supersedingIgnored: return "a newer line for a maneuver supersedes nothing"
        case .staleIgnored: return "expired lines still play"
        case .heldIgnored: return "Pippa's next stretch starts while a line plays"
        case .repeatSkips: return "afterCut repeat skips the cut stretch"
        case .bargeInWhilePlayingOnly: return "barge-in ignored while a reply waits for a chunk or is held"
        case .replyQueueLIFO: return "the newest waiting reply goes first"
        }
    }
}

extension Check {
    /// Whether this is one of the arbiter's own checks (`Check.arbiter`).
    var isArbiterCheck: Bool {
        switch self {
        case .arbiter, .guidance: return true
        default: return false
        }
    }

    /// Whether this is one of the road's checks (`Check.road`).
    var isRoadCheck: Bool {
        if case .road = self { return true }
        return false
    }
}

extension ArbiterProcess {
    /// The options of `drivesim run` that use this arbiter again, quoted for
    /// a POSIX shell: ` --arbiter 'COMMAND'`, and its timeout when not the default.
    var replayOptions: String {
        " --arbiter \(shellQuoted(replayable(command)))"
            + (timeoutMs == 5000 ? "" : " --arbiter-timeout \(timeoutMs / 1000)")
    }
}
