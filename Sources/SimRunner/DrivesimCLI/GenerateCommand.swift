import Fuzzing
import ScenarioFormat
import SimClock
import SimRunner

/// `drivesim generate [--hours N] [--seed S] [--road] [--out FILE]`: a long
/// drive made up from a seed, written as a scenario file, so that a drive of
/// any length can be run, reviewed and timed as users run theirs.
enum GenerateCommand: Command {
    static let name = "generate"
    static let abstract = "Write a long generated drive (talk, or a road with talk) as a scenario file."
    static let usage = "USAGE: drivesim generate [--hours <n>] [--seed <s>] [--road] [--out <file>]"
    static let options: [Option] = [
        Option("--hours", .integer(1...24), "<n>", help: "How long the drive is, 1 to 24 (default 2)."),
        Option("--seed", .integer(0...UInt64.max), "<s>", help: "The seed, a whole number (default 1)."),
        .flag("--road", help: "A drive on a route with generated guidance."),
        Option("--out", .file, "<file>", help: "Write the scenario there instead of standard output."),
    ]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        A talk drive has, per hour, 1,000 guidance lines (15 % urgent, 30 % expiring,
        three lines per maneuver), 1,000 replies of three stretches and 150 utterances
        by Dad, each with a reply, colliding as they will. A road drive (--road) has a
        route of about 45 maneuvers per hour at city and arterial speeds, a generated
        fix every second with noise and drops, a link outage, and per hour 300 replies
        and 60 utterances on top. The same options give the same file, byte for byte.

        OPTIONS:
        \(Option.help(options))

        EXAMPLE:
          drivesim generate --hours 12 --out drive-12h.json && drivesim run drive-12h.json --format json

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.isEmpty else {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no arguments"))
        }
        let hours = args.integer("--hours") ?? 2
        let seed: UInt64 = args.integer("--seed") ?? 1
        let scenario =
            args.has("--road")
            ? GeneratedDrive.roadScenario(hours: hours, seed: seed)
            : GeneratedDrive.scenario(hours: hours, seed: seed)
        let text = String(decoding: ScenarioEncoder.encode(scenario), as: UTF8.self)
        try console.output(text, toFile: args.value("--out"))
        return 0
    }
}
