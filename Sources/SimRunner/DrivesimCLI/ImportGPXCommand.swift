import Fuzzing
import Review
import Road
import RouteImport
import ScenarioFormat
import SimClock
import SimRunner

/// `drivesim import-gpx FILE [--out FILE] [--assume-utc] [--round]
/// [--from T] [--to T] [--road]`: a GPX track as the road section's
/// recorded fixes, keeping its timestamps; points without a usable time are
/// skipped and listed on standard error.
enum ImportGPXCommand: Command {
    static let name = "import-gpx"
    static let abstract = "Turn a GPX track into a road section's recorded fixes, keeping its timestamps."
    static let usage =
        "USAGE: drivesim import-gpx <file> [--out <file>] [--assume-utc] [--round] [--from <t>] [--to <t>] [--road | --route-from-track --language <ko|en>]"
    static let options: [Option] = [
        Option("--out", .file, "<file>", help: "Write the JSON there instead of standard output."),
        .flag("--assume-utc", help: "Read times without a zone as UTC (otherwise refused)."),
        .flag(
            "--round",
            help: """
                Round digits below the millisecond to the nearest
                millisecond (otherwise refused).
                """),
        Option(
            "--from", .text, "<t>",
            help: """
                Keep only points from/up to <t> (inclusive): seconds after the
                first usable point (12.5), or a time (2024-05-01T09:00:00Z).
                """),
        Option("--to", .text, "<t>", help: nil),
        .flag(
            "--road",
            help: """
                Print {"fixes": ..., "route": {"points": [...]}}, the route
                from the file's first <rte>.
                """),
        .flag(
            "--route-from-track",
            help: """
                Print a whole scenario that runs as is: the track as its
                recorded fixes and, as its route, the track simplified
                (points within 10 m of the line dropped), with a maneuver
                at each turn over 30 degrees and the arrival at its end.
                """, excludes: ["--road"], needs: ["--language"]),
        Option(
            "--language", .oneOf(Language.allCases.map(\.rawValue)), "<ko|en>",
            help: """
                With --route-from-track: the road's language (required,
                never guessed).
                """, needs: ["--route-from-track"]),
    ]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A GPX file with a track (<trk><trkseg><trkpt lat lon><time>),
                                  UTF-8, at most 64 MiB.

        OPTIONS:
        \(Option.help(options))

        Prints {"recorded": [...]}, the value of a road section's "fixes": one fix per
        kept track point, "at" and "arrives" in seconds after the first kept point's time,
        "speed" (m/s) from <speed>, "course" from <course>, "accuracy" = <hdop> x 5 m.
        A point without a usable <time> or position is skipped and named on standard error,
        with a count; an impossible date, a zone-less time, sub-millisecond digits or a
        track over 24 hours refuses the file.

        EXIT CODES: 0 written (points may have been skipped), 2 the file is unreadable or
        no usable track point remains.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.count == 1 else {
            throw DrivesimError.usage(
                args.positional.isEmpty
                    ? .missingArgument("GPX file") : .tooManyArguments(command: name, takes: "one GPX file"))
        }
        let path = args.positional[0]
        try FileSystem.refuseOverwriting(inputs: [path], with: args.value("--out"))
        var options = GPXTrack.Options()
        options.assumeUTC = args.has("--assume-utc")
        options.round = args.has("--round")
        options.from = try cut(args, "--from", options, file: path)
        options.to = try cut(args, "--to", options, file: path)
        let language = args.value("--language").flatMap(Language.init(rawValue:))
        let bytes = try FileSystem.read(path)
        let track: GPXTrack.Track
        do {
            track = try GPXTrack.read(bytes, options: options)
        } catch {
            throw DrivesimError.gpx(file: path, error)
        }
        if args.has("--road"), track.route.count < 2 { throw DrivesimError.gpx(file: path, .noRoute) }
        var notes = ""
        for skip in track.skipped { notes += "\(path): skipped \(skip)\n" }
        for left in track.leftOut { notes += "\(path): \(left)\n" }
        if !track.skipped.isEmpty {
            notes +=
                "\(path): \(counted(track.points.count, "fix", "fixes")) written, \(counted(track.skipped.count, "track point")) skipped\n"
        }
        if !args.has("--road"), language == nil, track.route.count >= 2 {
            notes +=
                "\(path): the file has a route (<rte>, \(counted(track.route.count, "point"))): --road writes it too\n"
        }
        if !notes.isEmpty { console.err(notes) }
        let value =
            try language.map { language throws(DrivesimError) in
                try scenario(from: track, language: language, file: path)
            }
            ?? (args.has("--road") ? GPXTrack.roadSection(track) : GPXTrack.recordedFixes(track.points))
        let text = String(decoding: JSONWriter.bytes(value), as: UTF8.self) + "\n"
        try console.output(text, toFile: args.value("--out"))
        return 0
    }

    /// A scenario that runs as is: the route is the track simplified
    /// (`RouteImporter.simplified`) and read as a GeoJSON line is (a
    /// maneuver at each turn over `RouteImporter.turnAngle`, the arrival
    /// at its end), the fixes are the track's points as `import-gpx` writes
    /// them, and no generated drive (the fixes say where the car was).
    /// What the import makes is read back by the decoder before it is
    /// written, as `import-route` does.
    static func scenario(from track: GPXTrack.Track, language: Language, file: String) throws(DrivesimError)
        -> JSONValue
    {
        let source = FileSystem.split(file).name
        let route = RouteImporter.simplified(
            track.points.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) })
        let line = JSONValue.object([
            ("type", .string("LineString")),
            (
                "coordinates",
                .array(route.map { .array([.number(String($0.longitude)), .number(String($0.latitude))]) })
            ),
        ])
        let imported: RouteImporter.Imported
        do {
            imported = try RouteImporter.importRoute(
                JSONWriter.bytes(line), options: RouteImporter.Options(language: language, source: source))
        } catch {
            // The line is made here, not the user's: the problem (too few distinct points, too long) is the track's.
            throw .importProblem(file: file, ImportProblem(error.reason, at: ""))
        }
        var scenario = imported.scenario
        scenario.name = "track from \(source)"
        scenario.description =
            "Imported by drivesim import-gpx --route-from-track from \(source): \(counted(track.points.count, "fix", "fixes")) "
            + "as recorded, the route the track simplified to \(counted(route.count, "point")) (within "
            + "\(Int(RouteImporter.trackToleranceMeters)) m), \(counted(scenario.road?.maneuvers.count ?? 0, "maneuver")) "
            + "(turns over \(Int(RouteImporter.turnAngle))° and the arrival)."
        guard case .object(var members) = (try? JSONParser.parse(ScenarioEncoder.encode(scenario)))?.kind,
            let r = members.firstIndex(where: { $0.key == "road" }), case .object(var road) = members[r].value.kind
        else {
            throw .importProblem(
                file: file,
                ImportProblem(.scenarioRefused(path: "", reason: "the scenario made does not encode"), at: ""))
        }
        road.removeAll { $0.key == "drive" || $0.key == "fixes" }
        road.append(("fixes", GPXTrack.recordedFixes(track.points)))
        members[r].value = .object(road)
        let value = JSONValue.object(members)
        do { _ = try ScenarioDecoder.decode(JSONWriter.bytes(value), file: source) } catch {
            throw .importProblem(
                file: file, ImportProblem(.scenarioRefused(path: error.path, reason: error.reason.message), at: ""))
        }
        return value
    }

    /// `--from`/`--to`: seconds after the first point, or a time (with its zone, unless `--assume-utc`).
    static func cut(_ args: Arguments, _ name: String, _ options: GPXTrack.Options, file: String) throws(DrivesimError)
        -> GPXTrack.Cut?
    {
        guard let text = args.value(name) else { return nil }
        if text.contains("T") {
            guard case .success(let ms) = GPXTrack.time(text, assumeUTC: options.assumeUTC, round: options.round) else {
                throw .gpx(file: file, .unreadableCut(option: name, value: text))
            }
            return .at(epochMs: ms)
        }
        guard let t = try RunCommand.seconds(args, name) else { return nil }
        return .after(milliseconds: t.ms)
    }
}
