import ExternalProcess
import Fuzzing
import Review
import ScenarioFormat
import SimClock
import SimRunner

/// `drivesim run FILE [--format text|json|lanes|svg|trace|html]`: one scenario
/// (`-`: from standard input), its timeline on standard output (or in
/// `--out`), what failed on standard error.
enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Simulate one scenario, print its timeline, check its expectations and invariants."
    static let usage =
        "USAGE: drivesim run <file> [--format <format>] [--out <file>] [--width <n>] [--from <s>] [--to <s>] [--only <families>] [--all] [--mutant <name>] [--arbiter <command> [--timeline-only]] [--guidance <command>] [--prompts <text|json>] [--voice <command> [--voice-timeout <s>]] [--audio <file|embed>]"
    /// The formats of `--format`, by name.
    static let formats = TimelineFormat.allCases.map(\.rawValue)
    static let options: [Option] = [
        Option(
            "--format", .oneOf(formats), "<format>",
            help: """
                text (default), json, lanes (a text chart, one row per lane),
                svg (a picture for a browser), trace (Chrome Trace Event
                JSON for Perfetto and chrome://tracing), html (a page
                with zoom, pan and each event's fields; no network),
                geojson (the route, fixes, where each line was spoken,
                dropped reports) or wav (the drive as sound: left what Dad
                hears, right what Pippa hears; 16 kHz, 16-bit).
                """),
        Option(
            "--out", .file, "<file>",
            help: """
                Write the timeline to this file (atomically) instead of
                standard output (wav: required on a terminal).
                """),
        Option(
            "--width", .integer(20...1_000_000), "<n>",
            help: """
                lanes: characters per line (default: the terminal's width,
                or 80); svg: pixels for the time axis (default 1200).
                """),
        Option(
            "--from", .text, "<seconds>", help: "Show from this time on (text and json: events at or after it).",
            check: checkSeconds),
        Option(
            "--to", .text, "<seconds>", help: "Show up to this time (text and json: events at or before it).",
            check: checkSeconds),
        Option(
            "--only", .text, "<families>",
            help: """
                Show only these, comma-separated: guidance, talk, ears, dad,
                road, link (the road's reports); or a lane's name (pippa).
                """, offers: EventFamily.names, check: checkFamilies),
        .flag(
            "--all",
            help: """
                text: show every event; by default each run of three or more
                routine road events (a trusted fix arrived, a report sent or
                delivered) is folded into one line with their counts.
                """),
        Option(
            "--mutant", .oneOf(Mutant.allCases.map(\.name)), "<name>",
            help: """
                Use a deliberately broken arbiter or road, to replay a reproducer
                that 'drivesim fuzz --mutant' wrote.
                """, excludes: ["--guidance"]),
        Option(
            "--arbiter", .text, "<command>", help: "Use the arbiter that COMMAND runs (docs/arbiter-protocol.md).",
            check: Option.notBlank),
        Option.arbiterTimeout,
        .flag(
            "--timeline-only",
            help: """
                With --arbiter: judge its timeline only, not also each
                decision against drivesim's reference (the default).
                """, needs: ["--arbiter"]),
        Option(
            "--guidance", .text, "<command>",
            help: """
                Plan the road with the guidance engine COMMAND runs
                (docs/test-your-guidance.md): judged by the road's checks,
                not by a road's expectations or golden timeline (said on
                standard error, as is what a process's failure left unjudged).
                """, check: Option.notBlank),
        Option.guidanceTimeout,
        Option(
            "--voice", .text, "<command>",
            help: """
                wav: speak each distinct text with this text-to-speech
                command, {lang} replaced by its language (en, ko), the
                text on its standard input, a WAV on its standard output
                (e.g. "espeak-ng -v {lang} --stdout"); fitted to the item.
                """, needs: ["--format wav"]),
        Option(
            "--voice-timeout", .integer(1...3600), "<s>", help: "How long it may take over one text (default: 10).",
            needs: ["--format wav", "--voice"]),
        Option(
            "--audio", .file, "<file>",
            help: """
                html: play the drive beside the chart, with a moving
                playhead: from this WAV file (made with the same --from),
                or 'embed' it in the page (windows of at most 120 s).
                """, needs: ["--format html"], check: checkNotEmpty),
        Option(
            "--prompts", .oneOf(promptFormats), "<text|json>",
            help: """
                On standard error, where drivesim spoke each maneuver's lines
                against the routing service's own prompts (an imported route's
                "servicePrompts"), as a table or as JSON.
                """),
    ]
    /// The forms of `--prompts`.
    static let promptFormats = ["text", "json"]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A scenario file (JSON, format version 1); - reads it from
                                  standard input.

        OPTIONS:
        \(Option.help(options))

        If the scenario names a golden timeline ("golden"), the whole timeline must equal it.

        EXIT CODES: 0 all held, 1 an expectation, invariant or golden timeline failed, 2 unusable input.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.count == 1 else {
            throw DrivesimError.usage(
                args.positional.isEmpty
                    ? .missingArgument("scenario file") : .tooManyArguments(command: name, takes: "one scenario file"))
        }
        let shown = try Shown(args)
        let prompts = args.value("--prompts")
        let fault = args.value("--mutant").flatMap(Mutant.init(name:))
        let audio = args.value("--audio").map { $0 == "embed" ? PageAudio.embedded : .file($0) }
        let file = args.positional[0]
        try FileSystem.refuseOverwriting(inputs: [file], with: args.value("--out"))
        var warnings: [ScenarioError] = []
        let scenario = try load(file, warnings: &warnings)
        for warning in warnings { console.warn(warning.description) }
        // Its golden timeline is an input too.
        try FileSystem.refuseOverwriting(
            inputs: [(try? GoldenFiles.path(of: scenario, file: file)).flatMap { $0 } ?? "-"], with: args.value("--out")
        )
        let external = try ArbiterProcess.launch(args)
        defer { external?.stop() }
        let guidance = try GuidanceProcess.launch(args)
        defer { guidance?.channel.stop() }
        let roadPlan = guidance?.planning
        var verdict =
            external?.verdict(scenario, differential: !args.has("--timeline-only"), roadPlan: roadPlan)
            ?? Verdict(scenario, fault: fault?.talk, roadPlan: roadPlan ?? fault?.roadPlan)
        if let guidance { verdict = guidance.judging(verdict, of: scenario) }
        let timeline = verdict.simulation.timeline
        // After a process failure the timeline is cut short: only the failure is reported.
        // A golden timeline pins drivesim's own guidance: another is judged by the checks.
        let unjudged = Unjudged(scenario, verdict, otherGuidance: guidance != nil)
        let golden =
            unjudged?.golden == true
            ? .none
            : try GoldenFiles.check(
                scenario, file: file == "-" ? FileSystem.standardInputName : file, timeline: timeline)
        // Streamed: a long drive's output is never held whole.
        if shown.format.isSound {
            let recordings = try sound(timeline, window: shown.window, args, console: &console)
            try console.output(
                chunks: { timeline.writeWAV(window: shown.window, recordings: recordings, to: $0) },
                toFile: args.value("--out"))
        } else if let audio {
            let range = timeline.soundRange(shown.window)
            if audio == .embedded, range.end.ms - range.start.ms > Timeline.embeddedAudioLimitMs {
                throw DrivesimError.usage(
                    .audioTooLongToEmbed(ms: range.end.ms - range.start.ms, limitMs: Timeline.embeddedAudioLimitMs))
            }
            try console.output(
                chunks: { timeline.writeHTML(window: shown.window, audio: audio, to: $0) }, toFile: args.value("--out"))
        } else {
            try shown.write(timeline, of: scenario, console: &console)
        }
        if let prompts {
            let comparison = PromptComparison(timeline, scenario)
            console.err(
                comparison.map { prompts == "json" ? $0.json : $0.text }
                    ?? "prompts: the scenario keeps no service prompts\n")
        }
        // What failed is headed by the file and the scenario's name, as `check` heads it.
        if !verdict.passed || !golden.holds {
            console.err(
                escapedForTerminal("\(file == "-" ? FileSystem.standardInputName : file): \(scenario.name)") + "\n")
        }
        if !verdict.passed { console.err(verdict.report) }
        if let unjudged {
            console.err(unjudged.line(file: escapedForTerminal(file == "-" ? FileSystem.standardInputName : file)))
        }
        FuzzCommand.noteMutantReproducer(scenario, fault: fault, console: &console)
        if case .differs(let diff) = golden { console.err(diff) }
        // The process ends next: its scenario and timeline are left to `exit`.
        ProcessEnd.keep((scenario, verdict), console)
        return verdict.passed && golden.holds ? 0 : 1
    }

    /// What `run` (and the demo) shows and where: `--format`, `--width`,
    /// `--from`, `--to`, `--only`, `--all` and `--out`.
    struct Shown {
        var format: TimelineFormat
        var width: Int?
        var window: ReviewWindow
        var out: String?

        /// The options in `args` (each checked by its table): a reversed window is a usage error.
        init(_ args: Arguments) throws(DrivesimError) {
            format = args.value("--format").flatMap(TimelineFormat.init(rawValue:)) ?? .text
            width = args.integer("--width")
            window = ReviewWindow(
                from: try seconds(args, "--from"), to: try seconds(args, "--to"),
                only: try args.value("--only").map(families) ?? .all, folded: !args.has("--all"))
            if let from = window.from, let to = window.to, from >= to {
                throw .usage(
                    .reversedWindow(from: args.value("--from") ?? "\(from)", to: args.value("--to") ?? "\(to)"))
            }
            out = args.value("--out")
        }

        /// Writes `timeline` as chosen, to `--out` or standard output; streamed, so a long drive's output is never held whole.
        func write(_ timeline: Timeline, of scenario: Scenario, console: inout Console) throws {
            let columns = width ?? (format == .lanes ? console.columns : nil)
            try console.output(
                chunks: { format.write(timeline, of: scenario, width: columns, window: window, to: $0) }, toFile: out)
        }
    }

    /// The scenario in `file`, or on standard input for `-` (named `<stdin>` in errors).
    static func load(
        _ file: String,
        standardInput: () throws(DrivesimError) -> [UInt8] = { () throws(DrivesimError) in
            try FileSystem.readStandardInput()
        }
    ) throws(DrivesimError) -> Scenario {
        var ignored: [ScenarioError] = []
        return try load(file, warnings: &ignored, standardInput: standardInput)
    }

    /// Checks that the WAV of `window` can be written (not to a terminal,
    /// not past RIFF's size) and records `--voice`'s phrases, if it is
    /// given, warning about those fitted past the bound.
    static func sound(_ timeline: Timeline, window: ReviewWindow, _ args: Arguments, console: inout Console)
        throws(DrivesimError) -> [Soundtrack.Phrase: WAVFile.Sound]
    {
        if args.value("--out") == nil, console.outIsTerminal { throw .usage(.soundToTerminal) }
        let range = timeline.soundRange(window)
        let length = range.end.ms - range.start.ms
        if length > WAVFile.maxMilliseconds {
            throw .usage(.soundTooLong(ms: length, limitMs: WAVFile.maxMilliseconds))
        }
        guard let command = args.value("--voice") else { return [:] }
        let seconds = args.integer("--voice-timeout") ?? 10
        // The phrases of the window only: a window of a long drive asks for what it plays.
        let soundtrack = Soundtrack(timeline, only: window.only).window(range)
        let recordings = try VoiceProcess.record(soundtrack, command: command, timeoutMs: seconds * 1000)
        for warning in VoiceProcess.fitWarnings(soundtrack, recordings) { console.warn(warning) }
        return recordings
    }

    /// `--audio`'s value, a WAV's path or `embed`, must not be empty.
    static let checkNotEmpty: Option.Check = { option, value throws(DrivesimError) in
        if value.isEmpty { throw .usage(.emptyValue(option: option)) }
    }

    /// `--from` and `--to` (and the demo's): seconds, exact to the millisecond.
    static let checkSeconds: Option.Check = { option, value throws(DrivesimError) in
        _ = try seconds(value, option: option)
    }

    /// `--only` (and the demo's): families or lanes, comma-separated.
    static let checkFamilies: Option.Check = { _, value throws(DrivesimError) in _ = try families(value) }

    /// `load(_:)`, and its warnings (`ScenarioDecoder.warnings`) appended to `warnings`.
    static func load(
        _ file: String, warnings: inout [ScenarioError],
        standardInput: () throws(DrivesimError) -> [UInt8] = { () throws(DrivesimError) in
            try FileSystem.readStandardInput()
        }
    ) throws(DrivesimError) -> Scenario {
        guard file == "-" else { return try ScenarioFiles.load(file, warnings: &warnings).get() }
        let bytes = try standardInput()
        do {
            let scenario = try ScenarioDecoder.decode(bytes, file: FileSystem.standardInputName)
            warnings += ScenarioDecoder.warnings(for: scenario, bytes: bytes, file: FileSystem.standardInputName)
            return scenario
        } catch {
            throw .invalidScenario(error)
        }
    }

    /// `--only`'s value: the families named, comma-separated.
    static func families(_ list: String) throws(DrivesimError) -> EventFamilies {
        switch EventFamilies.parse(list) {
        case .success(let families): return families
        case .failure(let unknown):
            throw .usage(
                .unknownValue(
                    option: "--only", value: unknown.name, allowed: EventFamily.names,
                    suggestion: suggestion(for: unknown.name, among: EventFamily.namesAndLanes)))
        }
    }

    /// An option in seconds, exact to the millisecond like scenario times:
    /// a JSON number and nothing else (no spaces around it).
    static func seconds(_ args: Arguments, _ name: String) throws(DrivesimError) -> SimTime? {
        guard let text = args.value(name) else { return nil }
        return try seconds(text, option: name)
    }

    /// `text`, the value of `name`, in seconds exact to the millisecond.
    static func seconds(_ text: String, option name: String) throws(DrivesimError) -> SimTime {
        guard let value = try? JSONParser.parse(Array(text.utf8)), case .number(let literal) = value.kind,
            literal == text
        else {
            throw .usage(.notSeconds(option: name, value: text))
        }
        switch Seconds.milliseconds(fromLiteral: text, limitMs: Int64(ScenarioDecoder.maxTimeSeconds) * 1000) {
        case .success(let ms): return SimTime(ms: ms)
        case .failure(.negative): throw .usage(.negativeSeconds(option: name, value: text))
        case .failure(.notWholeMilliseconds): throw .usage(.notWholeMilliseconds(option: name, value: text))
        case .failure(.tooLarge):
            throw .usage(.tooManySeconds(option: name, value: text, limit: ScenarioDecoder.maxTimeSeconds))
        }
    }
}
