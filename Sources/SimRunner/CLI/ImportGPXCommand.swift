import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// `drivesim import-gpx FILE [--out FILE]`: a GPX track as the road
/// section's recorded fixes, keeping its timestamps.
enum ImportGPXCommand: Command {
    static let name = "import-gpx"
    static let abstract = "Turn a GPX track into a road section's recorded fixes, keeping its timestamps."
    static let usage = "USAGE: drivesim import-gpx <file> [--out <file>]"
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <file>                  A GPX file with a track (<trk><trkseg><trkpt lat lon><time>),
                                  UTF-8, at most 64 MiB.

        OPTIONS:
          --out <file>            Write the JSON there instead of standard output.
          -h, --help              Show help information.

        Prints {"recorded": [...]}, the value of a road section's "fixes": one fix per
        track point, "at" and "arrives" in seconds after the first point's time.

        EXIT CODES: 0 written, 2 the file is unreadable or not a usable GPX track.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: ["--out"], flags: [])
        guard args.positional.count == 1 else {
            throw DrivesimError.usage(
                args.positional.isEmpty ? .missingArgument("GPX file") : .tooManyArguments(command: name, takes: "one GPX file"))
        }
        let path = args.positional[0]
        let bytes = try FileSystem.read(path)
        let points: [GPXTrack.Point]
        do {
            points = try GPXTrack.points(bytes)
        } catch {
            throw DrivesimError.gpx(file: path, error)
        }
        let text = String(decoding: JSONWriter.bytes(GPXTrack.recordedFixes(points)), as: UTF8.self) + "\n"
        try console.output(text, toFile: args.value("--out"))
        return 0
    }
}
