import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// `drivesim import-gpx FILE [--out FILE] [--assume-utc] [--round]
/// [--from T] [--to T] [--road]`: a GPX track as the road section's
/// recorded fixes, keeping its timestamps; points without a usable time are
/// skipped and listed on standard error.
enum ImportGPXCommand: Command {
    static let name = "import-gpx"
    static let abstract = "Turn a GPX track into a road section's recorded fixes, keeping its timestamps."
    static let usage = "USAGE: drivesim import-gpx <file> [--out <file>] [--assume-utc] [--round] [--from <t>] [--to <t>] [--road]"
    static let options: [String] = ["--out", "--from", "--to"]
    static let flags: [String] = ["--assume-utc", "--round", "--road"]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A GPX file with a track (<trk><trkseg><trkpt lat lon><time>),
                                  UTF-8, at most 64 MiB.

        OPTIONS:
          --out <file>            Write the JSON there instead of standard output.
          --assume-utc            Read times without a zone as UTC (otherwise refused).
          --round                 Round digits below the millisecond to the nearest
                                  millisecond (otherwise refused).
          --from <t>, --to <t>    Keep only points from/up to <t> (inclusive): seconds after the
                                  first usable point (12.5), or a time (2024-05-01T09:00:00Z).
          --road                  Print {"fixes": ..., "route": {"points": [...]}}, the route
                                  from the file's first <rte>.
          -h, --help              Show help information.

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
        let args = try Arguments(arguments, options: options, flags: flags)
        guard args.positional.count == 1 else {
            throw DrivesimError.usage(
                args.positional.isEmpty ? .missingArgument("GPX file") : .tooManyArguments(command: name, takes: "one GPX file"))
        }
        let path = args.positional[0]
        try FileSystem.refuseOverwriting(inputs: [path], with: args.value("--out"))
        var options = GPXTrack.Options()
        options.assumeUTC = args.has("--assume-utc")
        options.round = args.has("--round")
        options.from = try cut(args, "--from", options, file: path)
        options.to = try cut(args, "--to", options, file: path)
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
            notes += "\(path): \(counted(track.points.count, "fix", "fixes")) written, \(counted(track.skipped.count, "track point")) skipped\n"
        }
        if !args.has("--road"), track.route.count >= 2 {
            notes += "\(path): the file has a route (<rte>, \(counted(track.route.count, "point"))): --road writes it too\n"
        }
        if !notes.isEmpty { console.err(notes) }
        let value = args.has("--road") ? GPXTrack.roadSection(track) : GPXTrack.recordedFixes(track.points)
        let text = String(decoding: JSONWriter.bytes(value), as: UTF8.self) + "\n"
        try console.output(text, toFile: args.value("--out"))
        return 0
    }

    /// `--from`/`--to`: seconds after the first point, or a time (with its zone, unless `--assume-utc`).
    static func cut(_ args: Arguments, _ name: String, _ options: GPXTrack.Options, file: String) throws(DrivesimError) -> GPXTrack.Cut? {
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
