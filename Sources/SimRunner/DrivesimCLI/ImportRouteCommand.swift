import Guidance
import RouteImport
import ScenarioFormat
import SimClock
import SimRunner

/// `drivesim import-route RESPONSE.json --language ko|en [--route N]
/// [--precision 5|6] [--reroute FILE] [--handoff FILE --sent T,...]
/// [--out SCENARIO]`: a routing service's route response (or a GeoJSON
/// line) as a scenario that `drivesim run` drives, with route changes from
/// further responses.
enum ImportRouteCommand: Command {
    static let name = "import-route"
    static let abstract =
        "Turn a route response (OSRM, Valhalla, GraphHopper, Mapbox, Kakao Mobility, Apple Maps Server, Google Routes v2 or Directions), or a GeoJSON line, into a scenario."
    static let usage =
        "USAGE: drivesim import-route <file> --language <ko|en> [--route <n>] [--precision <5|6>] [--service <name>] [--kmh <n>] [--units <metric|imperial>] [--reroute <file>] [--handoff <file> --sent <seconds> [--destination <text>] [--place <name>]] [--out <file>]"
    static let options: [Option] = [
        Option(
            "--language", .oneOf(Language.allCases.map(\.rawValue)), "<ko|en>",
            help: "The road's language (required: never guessed from the response).", required: true),
        Option(
            "--route", .integer(0...999), "<n>",
            help: """
                The route to take, counted from 0 (default 0; Valhalla: its
                alternates from 1).
                """),
        Option("--precision", .oneOf(["5", "6"]), "<5|6>", help: "The polyline's precision (default: detected)."),
        Option(
            "--service", .oneOf(RouteFormat.allCases.map(\.rawValue)), "<name>",
            help:
                "Read <file> (not a change's) as this format instead of telling it by its keys: \(RouteFormat.allCases.map(\.rawValue).joined(separator: ", "))"
        ),
        Option("--kmh", .integer(4...250), "<n>", help: "GeoJSON lines only: the drive's speed (default 50)."),
        Option(
            "--units", .oneOf(Units.allCases.map(\.rawValue)), "<metric|imperial>",
            help: """
                The units English lines speak (default: the response's own
                voice instructions' units, else metric; Korean is metric).
                """),
        Option(
            "--reroute", .file, "<file>",
            help: """
                A second response, the route the app got after the car left
                the first one: a reroute change (r1, r2, ...). Repeatable; the
                changes are taken in the order given. Any format above.
                """, repeats: true),
        Option(
            "--handoff", .file, "<file>",
            help: """
                A response for Pippa's handoff: a handoff change (h1, h2, ...).
                The three options below apply to the --handoff before them.
                """, repeats: true),
        Option(
            "--sent", .text, "<seconds>",
            help: """
                When Pippa sends the handoff, comma-separated (more than one: a duplicate):
                seconds into the drive, or after:ID, when her stretch ID is over
                (the scenario's talk must hold it); required.
                """, repeats: true, needs: ["--handoff"]),
        Option(
            "--destination", .text, "<text>",
            help: #"What the guidance calls it ("the petrol station on Teheran-ro")."#, repeats: true,
            needs: ["--handoff"]),
        Option(
            "--place", .text, "<name>", help: "A saved place it names, saved where its route ends.", repeats: true,
            needs: ["--handoff"]),
        Option("--out", .file, "<file>", help: "Write the scenario there (atomically) instead of standard output."),
    ]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A route response in the OSRM format (OSRM, Valhalla's osrm
                                  output, Mapbox Directions), a Valhalla trip, a GraphHopper
                                  path, Kakao Mobility directions, Apple Maps Server directions,
                                  Google Routes v2 or Directions (legacy), or a GeoJSON
                                  LineString or Feature (told by its keys).

        OPTIONS:
        \(Option.help(options))

        Warnings (an unknown maneuver type kept as a plain turn, a maneuver too close to the one
        before) go to standard error, and where each change branches off. A change's route starts
        where the car was when the app asked: it branches off the road before at the point nearest
        its start, joined to it by a straight line when farther than 15 m; beyond 500 m it is
        refused. See docs/import.md.

        EXIT CODES: 0 written, 2 unusable input.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.count == 1 else {
            throw DrivesimError.usage(
                args.positional.isEmpty
                    ? .missingArgument("route response file")
                    : .tooManyArguments(command: name, takes: "one route response file"))
        }
        guard let language = args.value("--language").flatMap(Language.init(rawValue:)) else {
            preconditionFailure("the table requires --language, one of the languages")
        }
        let file = args.positional[0]
        let changes = try changeArguments(args)
        try FileSystem.refuseOverwriting(inputs: [file] + changes.map(\.file), with: args.value("--out"))
        var options = RouteImporter.Options(language: language, source: FileSystem.split(file).name)
        options.route = args.integer("--route") ?? 0
        options.precision = args.value("--precision").flatMap { Int($0) }
        options.service = args.value("--service").flatMap(RouteFormat.init(rawValue:))
        options.kmh = Double(args.integer("--kmh") ?? 50)
        if let u = args.value("--units") {
            // Korean is always spoken in metric units.
            let allowed = (language == .ko ? [Units.metric] : Units.allCases).map(\.rawValue)
            guard let units = Units(rawValue: u), allowed.contains(u) else {
                throw DrivesimError.usage(
                    .unknownValue(
                        option: "--units", value: u, allowed: allowed, suggestion: suggestion(for: u, among: allowed)))
            }
            options.units = units
        }
        var imported = try importFile(file, options: options, console: &console)
        // Each change's response alone (its own format, told by its keys; route 0), then added to the road.
        for change in changes {
            var own = RouteImporter.Options(language: language, source: FileSystem.split(change.file).name)
            own.kmh = options.kmh
            own.units = imported.scenario.road?.guidance.units
            let second = try importFile(change.file, options: own, console: &console)
            do {
                imported = try RouteImporter.adding(
                    RouteImporter.Change(id: change.id, imported: second, handoff: change.handoff), to: imported)
            } catch {
                throw DrivesimError.importProblem(file: change.file, error)
            }
        }
        for (change, branch) in zip(changes, RouteImporter.branches(imported.scenario)) {
            let when =
                branch.reached.map { ", reached at \(Seconds.literal(milliseconds: $0.ms)) s" } ?? ", never reached"
            // A note, not a warning: what a handoff's `--sent` times are chosen against.
            console.err(
                escapedForTerminal(
                    "\(change.file): \(change.id) branches off \(Int(branch.meters.rounded())) m along the drive\(when)"
                ) + "\n")
        }
        let encoded = ScenarioEncoder.encode(imported.scenario)
        // What `run` could not read back is refused here, with the figure.
        if encoded.count + 1 > FileSystem.readLimit {
            throw DrivesimError.importProblem(
                file: file,
                ImportProblem(.scenarioTooLarge(bytes: encoded.count + 1, limit: FileSystem.readLimit), at: ""))
        }
        // The import's own check: what it writes must read back as written.
        // A refusal names the response the user gave, and the scenario's path (there is no file of it to point into).
        // A handoff sent after a stretch names one of Pippa's that the user adds (an import has no talk):
        // it is read back beside a stand-in reply holding each such stretch.
        let talk = imported.scenario.road?.stretchesSentAfter ?? []
        var check = imported.scenario
        if !talk.isEmpty {
            check.replies.append(
                Scenario.Reply(
                    id: standInReply, at: .zero,
                    stretches: talk.map { Scenario.Stretch(id: $0, duration: SimTime(ms: 1_000)) }))
            console.err(
                escapedForTerminal(
                    "the scenario's talk must hold the stretches its handoffs are sent after: \(talk.joined(separator: ", ")) (replies[].stretches[].id)"
                ) + "\n")
        }
        do {
            _ = try ScenarioDecoder.decode(talk.isEmpty ? encoded : ScenarioEncoder.encode(check), file: options.source)
        } catch {
            throw DrivesimError.importProblem(
                file: file, ImportProblem(.scenarioRefused(path: error.path, reason: error.reason.message), at: ""))
        }
        try console.output(String(decoding: encoded, as: UTF8.self) + "\n", toFile: args.value("--out"))
        return 0
    }

    /// One response file read and imported, its warnings written; a refusal names the file and the format it was read as.
    static func importFile(_ file: String, options: RouteImporter.Options, console: inout Console) throws
        -> RouteImporter.Imported
    {
        let bytes = try FileSystem.read(file)
        let imported: RouteImporter.Imported
        do {
            imported = try RouteImporter.importRoute(bytes, options: options)
        } catch {
            // The refusal names the format the file was read as.
            let root = try? JSONParser.parse(bytes)
            guard let format = options.service ?? root.flatMap(RouteFormat.detect) else {
                throw DrivesimError.importProblem(file: file, error)
            }
            throw DrivesimError.importRefused(file: file, error, format: format)
        }
        for warning in imported.warnings {
            console.warn(escapedForTerminal("\(file): \(warning.path): \(warning.reason)"))
        }
        return imported
    }

    /// A route change as the command line gives it.
    struct ChangeArgument {
        var file: String
        var id: String
        var handoff: Scenario.Road.Handoff?
    }

    /// How `--sent` names the stretch a handoff is sent after: `after:s2`.
    static let afterPrefix = "after:"
    /// The id of the reply that stands in, when the import is read back, for the talk that holds those stretches.
    static let standInReply = "import-route stand-in"

    /// `--reroute FILE` and `--handoff FILE` in the order given, each
    /// handoff with the `--sent`, `--destination` and `--place` after it.
    static func changeArguments(_ args: Arguments) throws(DrivesimError) -> [ChangeArgument] {
        var out: [ChangeArgument] = []
        var reroutes = 0
        var handoffs = 0
        for (name, value) in args.ordered(options.filter(\.repeats).map(\.name)) {
            switch name {
            case "--reroute":
                reroutes += 1
                out.append(ChangeArgument(file: value, id: "r\(reroutes)"))
            case "--handoff":
                handoffs += 1
                out.append(ChangeArgument(file: value, id: "h\(handoffs)", handoff: Scenario.Road.Handoff(sent: [])))
            default:
                guard var handoff = out.last?.handoff else {
                    throw .usage(.needsOption(flag: name, option: "--handoff"))
                }
                if value.isEmpty { throw .usage(.emptyValue(option: name)) }
                switch name {
                case "--sent":
                    var sent: [Scenario.Road.Sending] = []
                    for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                        if item.hasPrefix(afterPrefix) {
                            let stretch = String(item.dropFirst(afterPrefix.count))
                            if stretch.isEmpty { throw .usage(.emptyValue(option: name)) }
                            sent.append(.after(stretch))
                        } else {
                            do { sent.append(.at(try RunCommand.seconds(String(item), option: name))) } catch .usage(
                                .notSeconds)
                            {
                                throw .usage(.notSending(option: name, value: String(item)))
                            }
                        }
                    }
                    handoff.sent = sent
                case "--destination": handoff.destination = value
                default: handoff.place = value
                }
                out[out.count - 1].handoff = handoff
            }
        }
        if let missing = out.first(where: { $0.handoff?.sent.isEmpty == true }) {
            throw .usage(
                .missingOption(option: "--sent", allowed: ["seconds after '--handoff \(missing.file)', like 19,20.5"]))
        }
        return out
    }
}
