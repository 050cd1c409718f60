/// `drivesim run FILE [--format text|json]`: one scenario, its timeline on
/// standard output, what failed on standard error.
enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Simulate one scenario, print its timeline, check its expectations and invariants."
    static let usage = "USAGE: drivesim run <file> [--format text|json]"
    static let formats = ["text", "json"]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A scenario file (JSON, format version 1).

        OPTIONS:
          --format <format>       text (default) or json.
          -h, --help              Show help information.

        EXIT CODES: 0 all held, 1 an expectation or invariant failed, 2 unusable input.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: ["--format"], flags: [])
        guard args.positional.count == 1 else {
            throw UsageError(args.positional.isEmpty ? "missing scenario file" : "run takes one scenario file")
        }
        let format = args.value("--format") ?? "text"
        guard formats.contains(format) else {
            let hint = suggestion(for: format, among: formats).map { " Did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown format '\(format)'; use one of: \(formats.joined(separator: ", ")).\(hint)")
        }
        switch ScenarioFiles.load(args.positional[0]) {
        case .failure(let failure):
            console.err("Error: \(failure)\n")
            return 2
        case .success(let scenario):
            let verdict = Verdict(scenario)
            let timeline = verdict.simulation.timeline
            console.out(format == "json" ? timeline.json : timeline.text)
            if !verdict.passed { console.err(verdict.report) }
            return verdict.passed ? 0 : 1
        }
    }
}
