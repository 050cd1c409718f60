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
    static let abstract = "Run the built-in demo drive (what 'drivesim' alone does), or write its scenario to start from."
    static let usage =
        "USAGE: drivesim [demo] [--format <format>] [--out <file>] [--width <n>] [--from <s>] [--to <s>] [--only <families>] [--all] [--scenario]"
    /// `run`'s options that choose what is shown and where.
    static let options = ["--format", "--out", "--width", "--from", "--to", "--only"]
    static let flags = ["--all", "--scenario"]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        OPTIONS:
          --format <format>       text (default), json, lanes, svg, trace, html or geojson, as
                                  for 'drivesim run'.
          --out <file>            Write there (atomically) instead of standard output.
          --width <n>             lanes: characters per line; svg: pixels for the time axis.
          --from <seconds>        Show from this time on.
          --to <seconds>          Show up to this time.
          --only <families>       Show only these, comma-separated: guidance, talk, ears, dad,
                                  road, link (the road's reports).
          --all                   text: show every event (by default routine road events are folded).
          --scenario              Write the demo's scenario file instead of its timeline: a drive
                                  on a route with Pippa and Dad, to copy and change, then run
                                  with 'drivesim run FILE'. Takes --out only.
          -h, --help              Show help information.

        'drivesim --format html --out demo.html' is 'drivesim demo --format html --out demo.html'.

        EXIT CODES: 0 the demo held, 1 it broke (a bug), 2 bad arguments or unwritable.

        """
    }

    /// Whether `arguments` (the whole command line) are the demo's: none, or
    /// an option of its own first (`--format html`), so `drivesim --format html` runs it.
    static func takes(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
        return (options + flags).contains(name)
    }

    /// A short drive through Gangnam: the road section generates the fixes,
    /// the reports and the guidance lines (far, near and now for two turns
    /// and the arrival) while Pippa reads the weather in long stretches, so
    /// lines wait for a short stretch, cut long ones and cut at once when
    /// urgent; Dad asks about a petrol station and a guidance line closes the
    /// ears on part of his question.
    static let scenario = """
        {
          "drivesim": 1,
          "name": "demo: a short drive in Gangnam while Pippa reads the weather",
          "description": "A 1.3 km drive at 50 km/h with two turns and generated fixes; Pippa reads the weather in long stretches and Dad asks about a petrol station.",
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
              "at": 66.0,
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
                    "text": "Yes, one is 500 metres ahead on the right."
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
            }
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
              "at": 66.0,
              "event": "talk.reply.abandoned",
              "reply": "weather",
              "rule": "barge-in"
            },
            {
              "event": "talk.reply.began",
              "reply": "answer",
              "at": 68.4
            },
            {
              "event": "road.turn.passed",
              "count": 3
            },
            {
              "event": "road.turn.unannounced",
              "count": 0
            }
          ]
        }
        """

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options, flags: flags)
        if let extra = args.positional.first { throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no file, not '\(extra)'")) }
        if args.has("--scenario") {
            for option in options + flags where option != "--out" && option != "--scenario" && (args.value(option) != nil || args.has(option)) {
                throw DrivesimError.usage(.excludes("--scenario", option))
            }
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
