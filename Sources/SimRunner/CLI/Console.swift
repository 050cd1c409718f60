#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: the timeline (or results) to `out`, everything
/// else to `err`. Tests capture both; the executable writes to the streams.
public protocol Console {
    mutating func out(_ text: String)
    mutating func err(_ text: String)
    /// Whether standard error is a terminal (progress is shown only then).
    var errIsTerminal: Bool { get }
}

/// The process's standard output and standard error.
public struct StandardConsole: Console {
    public init() {}
    public mutating func out(_ text: String) { Self.write(text, to: 1) }
    public mutating func err(_ text: String) { Self.write(text, to: 2) }
    public var errIsTerminal: Bool { isatty(2) == 1 }

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

/// A console that keeps what was written, for tests.
public struct CapturedConsole: Console {
    public var stdout = ""
    public var stderr = ""
    public init() {}
    public mutating func out(_ text: String) { stdout += text }
    public mutating func err(_ text: String) { stderr += text }
    public var errIsTerminal: Bool { false }
}
