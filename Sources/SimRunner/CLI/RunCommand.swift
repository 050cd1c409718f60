import Foundation
import Fuzzing
import Review
import ScenarioFormat
import SimClock
import SimRunner

/// `drivesim run FILE [--format text|json|lanes|svg|trace]`: one scenario,
/// its timeline on standard output (or in `--out`), what failed on standard error.
enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Simulate one scenario, print its timeline, check its expectations and invariants."
    static let usage =
        "USAGE: drivesim run <file> [--format <format>] [--out <file>] [--width <n>] [--from <s>] [--to <s>] [--mutant <name>]"
    static let formats = ["text", "json", "lanes", "svg", "trace"]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A scenario file (JSON, format version 1).

        OPTIONS:
          --format <format>       text (default), json, lanes (a text chart, one row per lane),
                                  svg (a picture for a browser) or trace (Chrome Trace Event
                                  JSON for Perfetto and chrome://tracing).
          --out <file>            Write the timeline to this file (atomically) instead of
                                  standard output.
          --width <n>             lanes: characters per line (default: the terminal's width,
                                  or 100); svg: pixels for the time axis (default 1200).
          --from <seconds>        Draw from this time on (lanes, svg, trace).
          --to <seconds>          Draw up to this time (lanes, svg, trace).
          --mutant <name>         Use a deliberately broken arbiter, to replay a reproducer
                                  that 'drivesim fuzz --mutant' wrote.
          -h, --help              Show help information.

        If the scenario names a golden timeline ("golden"), the whole timeline must equal it.

        EXIT CODES: 0 all held, 1 an expectation, invariant or golden timeline failed, 2 unusable input.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: ["--format", "--out", "--width", "--from", "--to", "--mutant"], flags: [])
        guard args.positional.count == 1 else {
            throw UsageError(args.positional.isEmpty ? "missing scenario file" : "run takes one scenario file")
        }
        let format = args.value("--format") ?? "text"
        guard formats.contains(format) else {
            let hint = suggestion(for: format, among: formats).map { " Did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown format '\(format)'; use one of: \(formats.joined(separator: ", ")).\(hint)")
        }
        let width = try args.integer("--width", in: 20...1_000_000)
        let window = ReviewWindow(from: try seconds(args, "--from"), to: try seconds(args, "--to"))
        if let from = window.from, let to = window.to, from >= to {
            throw UsageError("'--from' (\(from)) must be before '--to' (\(to)); swap them or widen the window")
        }
        let fault = try args.value("--mutant").map(FuzzCommand.mutant(named:))
        let file = args.positional[0]
        switch ScenarioFiles.load(file) {
        case .failure(let failure):
            console.err("Error: \(failure)\n")
            return 2
        case .success(let scenario):
            let verdict = Verdict(scenario, fault: fault)
            let timeline = verdict.simulation.timeline
            var golden: GoldenFiles.Outcome = .none
            if scenario.golden != nil {
                switch GoldenFiles.check(scenario, file: file, timeline: timeline) {
                case .failure(let failure):
                    console.err("Error: \(failure)\n")
                    return 2
                case .success(let outcome): golden = outcome
                }
            }
            let output = render(timeline, format: format, width: width, console: console, window: window)
            guard console.output(output, toFile: args.value("--out")) else { return 2 }
            if !verdict.passed { console.err(verdict.report) }
            if case .differs(let diff) = golden { console.err(diff) }
            return verdict.passed && golden.holds ? 0 : 1
        }
    }

    /// The timeline in one of `formats`.
    static func render(_ timeline: Timeline, format: String, width: Int?, console: Console, window: ReviewWindow) -> String {
        switch format {
        case "json": return timeline.json
        case "lanes": return timeline.lanesChart(width: width ?? console.terminalWidth ?? 100, window: window)
        case "svg": return timeline.svg(width: width ?? Timeline.defaultSVGWidth, window: window)
        case "trace": return timeline.trace(window: window)
        default: return timeline.text
        }
    }

    /// An option in seconds, exact to the millisecond like scenario times.
    static func seconds(_ args: Arguments, _ name: String) throws(UsageError) -> SimTime? {
        guard let text = args.value(name) else { return nil }
        guard let value = try? JSONParser.parse(Array(text.utf8)), case .number = value.kind else {
            throw UsageError("'\(name)' takes seconds, like 12.5, not '\(text)'")
        }
        switch Seconds.milliseconds(fromLiteral: text, limitMs: Int64(ScenarioDecoder.maxTimeSeconds) * 1000) {
        case .success(let ms): return SimTime(ms: ms)
        case .failure(.negative): throw UsageError("'\(name)' must not be negative, not '\(text)'")
        case .failure(.notWholeMilliseconds):
            throw UsageError("'\(name)' must be seconds to a whole millisecond (like 12.5), not '\(text)'")
        case .failure(.tooLarge):
            throw UsageError("'\(name)' must be at most \(ScenarioDecoder.maxTimeSeconds) seconds, not '\(text)'")
        }
    }
}
