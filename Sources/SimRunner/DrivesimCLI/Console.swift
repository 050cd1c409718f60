import Foundation
import Fuzzing
import Review
import ScenarioFormat
import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: the timeline (or results) to standard output,
/// everything else to standard error. Tests use a console that captures both.
/// A failed write to standard output is remembered (`outputProblem`) and
/// turned into exit code 2 by `Drivesim.main`; nothing more is written there after it.
package struct Console: Sendable {
    /// What was written to standard output, when capturing.
    package private(set) var stdout = ""
    /// What was written to standard error, when capturing.
    package private(set) var stderr = ""
    /// Why writing to standard output failed, if it did.
    package private(set) var outputProblem: WriteProblem?
    /// The descriptor standard output goes to; nil when capturing it.
    private let outDescriptor: Int32?
    /// The descriptor standard error goes to; nil when capturing it.
    private let errDescriptor: Int32?
    /// The environment variables commands consult (`CI`, `COLUMNS`); tests set their own.
    package var environment: [String: String]
    /// Whether the process exits as soon as the command returns: so for the
    /// process's own console (`standard`, which `drivesim`'s `main` uses), not
    /// where many commands run in one process (tests). See `ProcessEnd`.
    package let processEndsAfterCommand: Bool

    /// Whether standard output is a terminal: colour is used only then (see
    /// `usesColour`). Taken from `isatty` for the process's console, false
    /// when capturing; tests set it.
    package var outIsTerminal: Bool

    /// How errors name standard output.
    package static let standardOutputName = "standard output"

    private init(out: Int32?, err: Int32?, environment: [String: String], processEndsAfterCommand: Bool = false) {
        outDescriptor = out
        errDescriptor = err
        self.environment = environment
        self.processEndsAfterCommand = processEndsAfterCommand
        outIsTerminal = out.map { isatty($0) == 1 } ?? false
    }

    /// The process's standard output and standard error.
    package static var standard: Console {
        Console(out: 1, err: 2, environment: ProcessInfo.processInfo.environment, processEndsAfterCommand: true)
    }
    /// A console that keeps what was written, for tests.
    package static var captured: Console { Console(out: nil, err: nil, environment: [:]) }
    /// Standard output to the descriptor `fd` (tests pass `/dev/full` or a
    /// closed one), standard error captured.
    package static func writingOutput(to fd: Int32) -> Console { Console(out: fd, err: nil, environment: [:]) }

    /// Writes `text` to standard output, unless an earlier write failed.
    package mutating func out(_ text: String) {
        guard let fd = outDescriptor else {
            stdout += text
            return
        }
        guard outputProblem == nil else { return }
        outputProblem = FileSystem.writeAll(Array(text.utf8), to: fd, using: posixWrite)
    }

    /// Writes `text` to standard error (a failure there has nowhere to be told).
    package mutating func err(_ text: String) {
        guard let fd = errDescriptor else {
            stderr += text
            return
        }
        _ = FileSystem.writeAll(Array(text.utf8), to: fd, using: posixWrite)
    }

    /// Writes one warning to standard error: `warning: ` and `line`, a
    /// `FILE: PATH: reason` already escaped to one line (`escapedForTerminal`,
    /// or a `ScenarioError`'s description). The one way warnings are told,
    /// whatever warns (an import, a scenario's unit slip).
    package mutating func warn(_ line: String) {
        err("warning: " + line + "\n")
    }

    /// Whether standard error is a terminal (progress is shown only then).
    package var errIsTerminal: Bool { errDescriptor.map { isatty($0) == 1 } ?? false }

    /// Whether PASS and FAIL are coloured: only on a terminal, and never when
    /// `NO_COLOR` is set to anything but the empty string (no-color.org).
    package var usesColour: Bool { outIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty }

    /// `word` in `colour` when `usesColour`, else as it is.
    func coloured(_ word: String, _ colour: Colour) -> String {
        usesColour ? "\u{1B}[\(colour.rawValue)m\(word)\u{1B}[0m" : word
    }

    /// The colours used: SGR codes.
    enum Colour: String {
        case green = "32"
        case red = "31"
    }

    /// The terminal's width in columns: `COLUMNS`, else the width of the
    /// terminal on standard output, else nil.
    package var terminalWidth: Int? {
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        guard let fd = outDescriptor, isatty(fd) == 1 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The width to fit: the terminal's (`terminalWidth`), 80 columns when unknown.
    package var columns: Int { terminalWidth ?? Self.defaultColumns }

    /// The width assumed when the terminal's is unknown (not a terminal, no `COLUMNS`).
    package static let defaultColumns = 80

    /// Writes `text` to the file at `path` (see `FileSystem.write`), or to
    /// standard output when there is no path.
    mutating func output(_ text: String, toFile path: String?) throws(DrivesimError) {
        guard let path else {
            out(text)
            return
        }
        try ScenarioFiles.write(text, to: path)
    }

    /// Writes the bytes that `produce` hands over in chunks as they come:
    /// to the file at `path` (replaced atomically, see `FileSystem.write`)
    /// or to standard output, so a long timeline is never held whole; to a
    /// captured output once all are in.
    mutating func output(
        chunks produce: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void, toFile path: String?
    ) throws(DrivesimError) {
        if let path { return try FileSystem.write(to: path, chunks: produce) }
        guard let fd = outDescriptor else {
            stdout += String(chunks: produce)
            return
        }
        produce { chunk in
            guard outputProblem == nil else { return }
            outputProblem = FileSystem.writeAll(UnsafeRawBufferPointer(chunk), to: fd, using: posixWrite)
        }
    }

    /// Standard output's writes are unbuffered (`write(2)`), so there is
    /// nothing left to flush: this checks that they all went through.
    package func finish() throws(DrivesimError) {
        if let outputProblem { throw .cannotWrite(path: Self.standardOutputName, outputProblem) }
    }
}
