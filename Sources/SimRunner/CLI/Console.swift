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
public struct Console: Sendable {
    /// What was written to standard output, when capturing.
    public private(set) var stdout = ""
    /// What was written to standard error, when capturing.
    public private(set) var stderr = ""
    private let captures: Bool
    /// The environment variables commands consult (`CI`, `COLUMNS`); tests set their own.
    public var environment: [String: String]

    private init(captures: Bool) {
        self.captures = captures
        environment = captures ? [:] : ProcessInfo.processInfo.environment
    }

    /// The process's standard output and standard error.
    public static var standard: Console { Console(captures: false) }
    /// A console that keeps what was written, for tests.
    public static var captured: Console { Console(captures: true) }

    public mutating func out(_ text: String) {
        if captures { stdout += text } else { Self.write(text, to: 1) }
    }

    public mutating func err(_ text: String) {
        if captures { stderr += text } else { Self.write(text, to: 2) }
    }

    /// Whether standard error is a terminal (progress is shown only then).
    public var errIsTerminal: Bool { !captures && isatty(2) == 1 }

    /// The terminal's width in columns: `COLUMNS`, else the width of the
    /// terminal on standard output, else nil.
    public var terminalWidth: Int? {
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        guard !captures, isatty(1) == 1 else { return nil }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Unbuffered, so standard output and standard error interleave in order.
    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

extension Console {
    /// Writes `text` to the file at `path` atomically, or to standard output
    /// when there is no path. Returns false, having said why on standard
    /// error, if the file cannot be written.
    mutating func output(_ text: String, toFile path: String?) -> Bool {
        guard let path else {
            out(text)
            return true
        }
        do {
            try ScenarioFiles.writeAtomically(text, to: path)
            return true
        } catch {
            err("Error: cannot write '\(path)': check that its folder exists and is writable\n")
            return false
        }
    }
}
