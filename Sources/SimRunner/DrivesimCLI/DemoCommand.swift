import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// `drivesim demo` (and `drivesim` with no arguments, or with only the
/// demo's options: `drivesim --format html`): a built-in demo drive, its
/// timeline shown as `run` shows one; `--scenario` writes the scenario itself,
/// a file to start from.
enum DemoCommand: Command {
    static let name = "demo"
    static let abstract =
        "Run the built-in demo drive (what 'drivesim' alone does), or write its scenario to start from."
    static let usage =
        "USAGE: drivesim [demo] [--format <format>] [--out <file>] [--width <n>] [--from <s>] [--to <s>] [--only <families>] [--all] [--scenario]"
    /// `run`'s options that choose what is shown and where.
    static let options: [Option] = [
        Option(
            "--format", .oneOf(RunCommand.formats), "<format>",
            help: """
                text (default), json, lanes, svg, trace, html or geojson, as
                for 'drivesim run'.
                """),
        Option("--out", .file, "<file>", help: "Write there (atomically) instead of standard output."),
        Option(
            "--width", .integer(20...1_000_000), "<n>",
            help: "lanes: characters per line; svg: pixels for the time axis."),
        Option("--from", .text, "<seconds>", help: "Show from this time on.", check: RunCommand.checkSeconds),
        Option("--to", .text, "<seconds>", help: "Show up to this time.", check: RunCommand.checkSeconds),
        Option(
            "--only", .text, "<families>",
            help: """
                Show only these, comma-separated: guidance, talk, ears, dad,
                road, link (the road's reports); or a lane's name (pippa).
                """, offers: EventFamily.names, check: RunCommand.checkFamilies),
        .flag("--all", help: "text: show every event (by default routine road events are folded)."),
        .flag(
            "--scenario",
            help: """
                Write the demo's scenario file instead of its timeline: a drive
                on a route with Pippa and Dad, to copy and change, then run
                with 'drivesim run FILE'. Takes --out only.
                """, excludes: ["--format", "--width", "--from", "--to", "--only", "--all"]),
    ]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        OPTIONS:
        \(Option.help(options))

        'drivesim --format html --out demo.html' is 'drivesim demo --format html --out demo.html'.

        EXIT CODES: 0 the demo held, 1 it broke (a bug), 2 bad arguments or unwritable.

        """
    }

    /// Whether `arguments` (the whole command line) are the demo's: none, or
    /// an option of its own first (`--format html`), so `drivesim --format html` runs it.
    static func takes(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
        return options.contains { $0.name == name }
    }

    /// A short drive through Gangnam, the seed story end to end: the road
    /// section generates the fixes, the reports and the guidance lines while
    /// Pippa reads the weather in long stretches, so lines wait for a short
    /// stretch, cut long ones and cut at once when urgent. Dad asks for a
    /// petrol station and Pippa answers (a guidance line waits for her);
    /// her handoff of the station arrives over the link and is taken and
    /// acknowledged, the route to it switches in (the old route's waiting
    /// line dropped), the switch line cuts her answer and the new route's
    /// first turn is announced at once, its turns cutting her repeat.
    static let scenario = """
        {
          "drivesim": 1,
          "name": "demo: a short drive in Gangnam while Pippa reads the weather, and a petrol station",
          "description": "A 1.4 km drive at 50 km/h with generated fixes; Pippa reads the weather in long stretches, Dad asks for a petrol station, Pippa answers and hands the station off to the navigation: the route changes and the new route's first turn collides with her answer.",
          "replies": [
            {
              "id": "weather",
              "at": 2.0,
              "stretches": [
                {
                  "id": "w1",
                  "duration": 9.0,
                  "language": "en",
                  "text": "Tomorrow in Seoul will be sunny, with a high of 24 degrees."
                },
                {
                  "id": "w2",
                  "duration": 12.0,
                  "ready": 3.0,
                  "language": "en",
                  "text": "Light wind from the west, and in the evening a chance of showers."
                },
                {
                  "id": "w3",
                  "duration": 14.0,
                  "ready": 6.0,
                  "language": "en",
                  "text": "The weekend looks dry, so it is a good time for a trip to the coast."
                }
              ]
            }
          ],
          "dad": [
            {
              "id": "ask",
              "at": 58.0,
              "duration": 1.8,
              "language": "en",
              "text": "Is there a petrol station nearby?",
              "reply": {
                "id": "answer",
                "after": 0.6,
                "stretches": [
                  {
                    "id": "a1",
                    "duration": 3.5,
                    "language": "en",
                    "text": "There is one on Teheran-ro, just after the next turn."
                  },
                  {
                    "id": "a2",
                    "duration": 2.5,
                    "ready": 2.0,
                    "language": "en",
                    "text": "I'll take you there."
                  }
                ]
              }
            }
          ],
          "road": {
            "language": "en",
            "route": {
              "points": [
                {
                  "lat": 37.4979,
                  "lon": 127.0276
                },
                {
                  "lat": 37.4979,
                  "lon": 127.034968
                },
                {
                  "lat": 37.4943027,
                  "lon": 127.034968
                },
                {
                  "lat": 37.4943027,
                  "lon": 127.0383686
                }
              ],
              "maneuvers": [
                {
                  "id": "m1",
                  "lat": 37.4979,
                  "lon": 127.034968,
                  "turn": "right",
                  "street": "Gangnam-daero"
                },
                {
                  "id": "m2",
                  "lat": 37.4943027,
                  "lon": 127.034968,
                  "turn": "left",
                  "street": "Teheran-ro"
                },
                {
                  "id": "m3",
                  "lat": 37.4943027,
                  "lon": 127.0383686,
                  "turn": "arrive"
                }
              ]
            },
            "drive": {
              "speeds": [
                {
                  "from": 0,
                  "kmh": 50
                }
              ]
            },
            "fixes": {
              "seed": 1
            },
            "changes": [
              {
                "id": "station",
                "handoff": {
                  "sent": [
                    62.5
                  ],
                  "destination": "the petrol station on Teheran-ro"
                },
                "points": [
                  {
                    "lat": 37.4958,
                    "lon": 127.034968
                  },
                  {
                    "lat": 37.4943027,
                    "lon": 127.034968
                  },
                  {
                    "lat": 37.4943027,
                    "lon": 127.0363
                  },
                  {
                    "lat": 37.4939,
                    "lon": 127.0363
                  }
                ],
                "maneuvers": [
                  {
                    "id": "s1",
                    "lat": 37.4943027,
                    "lon": 127.034968,
                    "turn": "left",
                    "street": "Teheran-ro"
                  },
                  {
                    "id": "s2",
                    "lat": 37.4943027,
                    "lon": 127.0363,
                    "turn": "right"
                  },
                  {
                    "id": "s3",
                    "lat": 37.4939,
                    "lon": 127.0363,
                    "turn": "arrive",
                    "side": "right"
                  }
                ]
              }
            ]
          },
          "expect": [
            {
              "event": "guidance.waiting",
              "line": "m1.far",
              "rule": "short-wait",
              "stretch": "w1"
            },
            {
              "event": "talk.stretch.cut",
              "stretch": "w3",
              "rule": "long-cut",
              "by": "m1.near"
            },
            {
              "event": "talk.stretch.cut",
              "stretch": "w3",
              "rule": "urgent-cut",
              "by": "m1.now"
            },
            {
              "at": 58.0,
              "event": "talk.reply.abandoned",
              "reply": "weather",
              "rule": "barge-in"
            },
            {
              "event": "talk.reply.began",
              "reply": "answer",
              "at": 60.4
            },
            {
              "event": "guidance.waiting",
              "line": "m2.near",
              "rule": "short-wait",
              "stretch": "a1"
            },
            {
              "at": 62.8,
              "event": "road.handoff.taken",
              "handoff": "station"
            },
            {
              "at": 63.8,
              "event": "road.route.switched",
              "route": "station",
              "reason": "handoff"
            },
            {
              "at": 63.8,
              "event": "guidance.dropped",
              "line": "m2.near",
              "rule": "stale",
              "reason": "switched"
            },
            {
              "event": "talk.stretch.cut",
              "stretch": "a1",
              "rule": "urgent-cut",
              "by": "station.switched"
            },
            {
              "event": "guidance.requested",
              "line": "s1.near"
            },
            {
              "event": "guidance.requested",
              "line": "m3.far",
              "count": 0
            },
            {
              "event": "road.turn.passed",
              "count": 4
            },
            {
              "event": "road.turn.unannounced",
              "count": 0
            }
          ]
        }
        """

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        if let extra = args.positional.first {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no file, not '\(extra)'"))
        }
        if args.has("--scenario") {
            try console.output(Self.scenario + "\n", toFile: args.value("--out"))
            return 0
        }
        let shown = try RunCommand.Shown(args)
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.decode(Array(Self.scenario.utf8), file: "<demo>")
        } catch {
            throw DrivesimError.invalidScenario(error)
        }
        let verdict = Verdict(scenario, fault: nil)
        try shown.write(verdict.simulation.timeline, of: scenario, console: &console)
        if !verdict.passed { console.err(verdict.report) }
        return verdict.passed ? 0 : 1
    }
}
