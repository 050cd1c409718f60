import ScenarioFormat
import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process in another process spoken to in lines of JSON over its
/// standard input and output: the child process, the hello, the newline
/// framing, the `poll` loop, the tail of its standard error, the timeout
/// and the failures. The arbiter client (`ArbiterProcess`) and the guidance
/// process (`GuidanceProcess`) each talk through one.
package final class LineChannel {
    /// The command, run with `/bin/sh -c`.
    package let command: String
    /// How long one answer may take, in milliseconds.
    package let timeoutMs: Int
    /// The hello's key and version: `protocol` 4 for an arbiter, `guidance` 3 for a guidance.
    package let hello: (key: String, version: Int)
    /// The oldest version still spoken (a guidance's 1); the process's answer picks one.
    package let oldest: Int
    /// The version the process answered the last hello with.
    package private(set) var version: Int

    private var process: ChildProcess?
    private var toChild: Int32 = -1
    private var fromChild: Int32 = -1
    /// What the process wrote, from the first line not yet taken (`consumed`).
    private var buffer: [UInt8] = []
    private var consumed = 0
    /// The answer lines the last exchange read, in `buffer` (all of them, or those before it failed).
    private var answered: [Range<Int>] = []
    private var chunk = [UInt8](repeating: 0, count: 65536)
    /// The last `errKeep` bytes of the process's standard error, read as it comes.
    private var errTail: [UInt8] = []
    private static let errKeep = 2000

    /// Why the process was given up (it did not answer in time): later runs
    /// do not start it again, so a hung process costs one timeout, not one a run.
    package private(set) var givenUp: ProcessFailure?
    /// The first failure since the last `takeFailure`.
    package private(set) var failure: RecordedFailure?
    /// The last failure recorded.
    private var lastFailure: RecordedFailure?
    /// How many failures were recorded: none came between two moments if it did not move.
    package private(set) var failures = 0

    /// A process not yet started.
    package init(command: String, timeoutMs: Int, hello: (key: String, version: Int), oldest: Int? = nil) {
        self.command = command
        self.timeoutMs = timeoutMs
        self.hello = hello
        self.oldest = oldest ?? hello.version
        version = hello.version
    }

    /// Starts the process and shakes hands; throws why it could not.
    package func start() throws(ProcessFailure) {
        signal(SIGPIPE, SIG_IGN)
        errTail.removeAll()
        let process: ChildProcess
        switch ChildProcess.spawn(command) {
        case .success(let started): process = started
        case .failure(let failure): throw failure
        }
        self.process = process
        toChild = process.input
        fromChild = process.output
        buffer.removeAll()
        consumed = 0
        guard let answer = ask("{\"type\":\"hello\",\"\(hello.key)\":\(hello.version)}") else {
            throw .noAnswer(lastFailure)
        }
        guard answer["type"]?.text == "hello", let value = answer[hello.key] else {
            kill()
            throw .notAHello(key: hello.key)
        }
        guard let version = value.integer else {
            let written = escapedForTerminal(
                String(decoding: JSONWriter.bytes(value, pretty: false).prefix(40), as: UTF8.self))
            kill()
            throw .notAVersion(written, expected: hello.version, oldest: oldest, key: hello.key)
        }
        guard (oldest...hello.version).contains(version) else {
            kill()
            throw .otherVersion(Int64(version), expected: hello.version, oldest: oldest, key: hello.key)
        }
        self.version = version
    }

    /// Starts the process again if an earlier failure ended it; false (the
    /// failure recorded) if it cannot be, or was given up: it is not asked again.
    package func restart() -> Bool {
        guard process == nil else { return true }
        if let givenUp {
            fail(.givenUpEarlier(givenUp))
            return false
        }
        do { try start() } catch {
            fail(error)
            return false
        }
        return true
    }

    /// The end of the command: the process's input is closed and it has
    /// `grace` ms to exit by itself, then its whole group is killed, so a
    /// process that ignores the end of its input does not outlive drivesim.
    package func stop(grace: Int = 200) { end(grace: grace) }

    /// Ends the process at once (a failure): its whole group is killed and
    /// the shell reaped; what it left on standard error is kept for the report.
    package func kill() { end(grace: 0) }

    private func end(grace: Int) {
        process?.end(grace: grace, tail: &errTail, keep: Self.errKeep)
        process = nil
    }

    /// Whether the process is running (a failure ends it, unless it answered in step).
    package var alive: Bool { process != nil }

    /// The first failure since the last call, with the tail of standard error; clears it.
    package func takeFailure() -> RecordedFailure? {
        defer { failure = nil }
        return failure
    }

    /// Records a failure with the tail of standard error, and ends the
    /// process, unless `keepingProcess` (it answered in step, so it can
    /// serve the next run: a guidance's answer that cannot be spoken).
    package func fail(_ what: ProcessFailure, keepingProcess: Bool = false) {
        if !keepingProcess { kill() }
        var err = String(decoding: errTail, as: UTF8.self)
        while err.last?.isNewline == true { err.removeLast() }
        let recorded = RecordedFailure(failure: what, standardError: err)
        lastFailure = recorded
        failures += 1
        if failure == nil { failure = recorded }
    }

    /// One message and its answer, an object; nil (and `failure` set) if
    /// the process failed. An answer line that is no JSON object ends the
    /// process, unless `keepingProcess` (a line for a line is in step).
    package func ask(_ message: String, keepingProcess: Bool = false) -> JSONValue? {
        var bytes = Array(message.utf8)
        bytes.append(0x0A)
        guard let line = transfer(bytes, lines: 1)?.first else { return nil }
        return parse(line, keepingProcess: keepingProcess)
    }

    /// Messages each drawing one answer line, written at once (the process
    /// answers while drivesim writes): the answer lines in order, all of
    /// them, or as many as came before the process failed (`failure` set).
    package func askAll(_ messages: [String]) -> [ArraySlice<UInt8>] {
        var bytes: [UInt8] = []
        for message in messages {
            bytes.append(contentsOf: message.utf8)
            bytes.append(0x0A)
        }
        return transfer(bytes, lines: messages.count) ?? answered.map { buffer[$0] }
    }

    /// One message that draws no answer; false (and `failure` set) if the process failed.
    package func tell(_ message: String) -> Bool {
        var bytes = Array(message.utf8)
        bytes.append(0x0A)
        return transfer(bytes, lines: 0) != nil
    }

    /// An answer line as a JSON object; nil (and `failure` set) if it is not
    /// one: the process is ended, unless `keepingProcess` (it answered in step).
    package func parse(_ line: ArraySlice<UInt8>, keepingProcess: Bool = false) -> JSONValue? {
        let object: JSONValue
        do { object = try JSONParser.parse(Array(line)) } catch {
            // JSON that breaks one rule is named for it; anything else is not JSON at all.
            switch error.reason {
            case .duplicateKey(let key):
                fail(.duplicateKey(key, path: error.path, line: Array(line)), keepingProcess: keepingProcess)
            case .tooDeep: fail(.tooDeep(line: Array(line)), keepingProcess: keepingProcess)
            default: fail(.notAnObject(line: Array(line)), keepingProcess: keepingProcess)
            }
            return nil
        }
        guard case .object = object.kind else {
            fail(.notAnObject(line: Array(line)), keepingProcess: keepingProcess)
            return nil
        }
        return object
    }

    /// The longest answer line drivesim reads: 16 MiB (a campaign's whole
    /// stretch of runs answers in lines far shorter). Also the most it keeps
    /// of lines the process wrote ahead of what it was asked.
    package static let answerLimit = 16 << 20

    /// `5 s`, or `1500 ms` when not whole seconds.
    package static func describe(milliseconds ms: Int) -> String { ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms" }

    /// Writes `bytes` while it reads what the process answers, until all
    /// are written and `lines` lines are in (neither side blocks on a full
    /// pipe); nil (and `failure` set) if the process failed: it exited (seen
    /// at once, whoever else holds its pipes), closed its output, wrote a
    /// line over `answerLimit`, or took longer than the timeout over one
    /// answer (a deadline per line, which bytes without a newline do not move).
    @discardableResult
    func transfer(_ bytes: [UInt8], lines count: Int) -> [ArraySlice<UInt8>]? {
        guard let process else { return nil }
        var lines: [Range<Int>] = []
        lines.reserveCapacity(count)
        defer { answered = lines }
        var offset = 0
        let clock = ContinuousClock()
        let timeout = Duration.milliseconds(timeoutMs)
        var deadline = clock.now + timeout
        // Lines already read past the last answer (a process that answered ahead) come first.
        var scanned = consumed
        func takeLines() {
            while lines.count < count, let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                lines.append(consumed..<newline)
                consumed = newline + 1
                scanned = consumed
                deadline = clock.now + timeout
            }
            scanned = buffer.count
        }
        /// Reads what the process wrote (non-blocking); false at the end of its output.
        func readAnswers() -> Bool {
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fromChild, $0.baseAddress, $0.count) }
                if n > 0 {
                    buffer.append(contentsOf: chunk[..<n])
                    continue
                }
                if n < 0, errno == EINTR { continue }
                takeLines()
                return n < 0
            }
        }
        if consumed == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            consumed = 0
            scanned = 0
        }
        takeLines()
        var errorsOpen = true
        while offset < bytes.count || lines.count < count {
            var fds = [
                pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? process.errors : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: offset < bytes.count ? toChild : -1, events: Int16(POLLOUT), revents: 0),
            ]
            // A short step, so that an exit is seen at once even when a grandchild keeps the pipes open.
            let ready = poll(&fds, 3, 50)
            if ready < 0 {
                if errno == EINTR { continue }
                fail(.cannotPoll)
                return nil
            }
            if fds[1].revents != 0 { errorsOpen = process.drain(process.errors, into: &errTail, keep: Self.errKeep) }
            if fds[2].revents != 0, offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { write(toChild, $0.baseAddress, $0.count) }
                if n > 0 {
                    offset += n
                } else if !(n < 0 && (errno == EINTR || errno == EAGAIN)) {
                    return ended(.stoppedReading)
                }
            }
            if fds[0].revents != 0 {
                let open = readAnswers()
                if buffer.count - consumed > Self.answerLimit {
                    fail(.lineTooLong)
                    return nil
                }
                if !open {
                    // Written all and read all: a process that exits after its last answer is no failure yet.
                    if offset == bytes.count && lines.count == count { break }
                    return ended(.closedOutput)
                }
            }
            if ready == 0 || fds[0].revents == 0, process.reap() {
                // Exited: what it wrote before is still in the pipe.
                _ = readAnswers()
                if offset == bytes.count && lines.count == count { break }
                return ended(.closedOutput)
            }
            if clock.now >= deadline {
                fail(.timedOut(ms: timeoutMs))
                givenUp = .timedOut(ms: timeoutMs)
                return nil
            }
        }
        return lines.map { buffer[$0] }
    }

    /// The failure of a process that stopped talking (`what`, still
    /// running): one that exited (waited for briefly) is reported by its
    /// exit, whichever pipe showed it first, so the same missing command is told one way.
    private func ended(_ what: ProcessFailure) -> [ArraySlice<UInt8>]? {
        guard let process else { return nil }
        if process.awaitExit(milliseconds: 1000), let status = process.status {
            fail(.exited(status: status))
        } else {
            fail(what)
        }
        return nil
    }
}
