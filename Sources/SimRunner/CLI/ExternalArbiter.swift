import Foundation
import SimClock
import SimRunner
import TalkArbiter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An arbiter in another process (`--arbiter "COMMAND"`), spoken to in line-delimited
/// JSON over its standard input and output (docs/arbiter-protocol.md).
///
/// The simulator performs each input's actions before it takes the next input
/// (a line requested may start at once, and what is recorded next depends on
/// it), so every input is one round trip, and so is the end of the instant.
/// One process serves a whole campaign: `reset` and the tables start each run.
final class ArbiterProcess: @unchecked Sendable {
    /// The protocol version this drivesim speaks.
    static let protocolVersion = 2
    /// The process every `ExternalArbiter` talks to; set once by the command, used by one thread at a time.
    nonisolated(unsafe) static var current: ArbiterProcess?

    /// The command, run with `/bin/sh -c`.
    let command: String
    /// How long one answer may take, in milliseconds.
    let timeoutMs: Int
    private var process: Process?
    private var toChild: Int32 = -1
    private var fromChild: Int32 = -1
    private var buffer: [UInt8] = []
    private let errTail = StderrTail()
    private var started = 0
    /// Why the current check failed, if it did (cleared by `takeFailure`).
    private(set) var failure: String?

    /// A process not yet started.
    init(command: String, timeoutMs: Int) {
        self.command = command; self.timeoutMs = timeoutMs
    }

    /// Starts the process and shakes hands; the reason it could not, if not.
    func start() -> String? {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input; process.standardOutput = output; process.standardError = errors
        let tail = errTail
        tail.clear()
        errors.fileHandleForReading.readabilityHandler = { handle in tail.append(handle.availableData) }
        do { try process.run() } catch { return "cannot start /bin/sh: \(error)" }
        self.process = process
        toChild = input.fileHandleForWriting.fileDescriptor
        fromChild = output.fileHandleForReading.fileDescriptor
        // Keep the handles alive with the process.
        handles = [input, output, errors]
        buffer.removeAll()
        started += 1
        guard let hello = ask("{\"type\":\"hello\",\"protocol\":\(Self.protocolVersion)}") else { return lastReason }
        guard hello["type"] as? String == "hello", let version = hello["protocol"] as? Int else {
            stop(); return "it answered the hello with something else than a hello"
        }
        guard version == Self.protocolVersion else {
            stop(); return "it speaks protocol version \(version); this drivesim speaks \(Self.protocolVersion)"
        }
        return nil
    }
    private var handles: [Pipe] = []
    private var lastReason = ""

    /// Ends the process (a failure, or the end of the command).
    func stop() {
        if let process {
            kill(process.processIdentifier, SIGKILL)
            // Not `waitUntilExit`: it spins a run loop that may never return here.
            for _ in 0..<200 where process.isRunning { usleep(1000) }
        }
        process = nil
        for pipe in handles { pipe.fileHandleForReading.readabilityHandler = nil }
        handles = []
    }

    /// The reason of the last failure, with the tail of standard error; clears it.
    func takeFailure() -> String? {
        defer { failure = nil }
        return failure
    }

    /// A new run: restarts the process if an earlier failure ended it, then sends `reset` and the tables.
    func beginRun(_ tables: ArbiterTables) {
        if process == nil {
            if let reason = start() { fail(reason); return }
        }
        send("{\"type\":\"reset\"}")
        send(Self.encode(tables))
    }

    /// Whether this run can still talk to the process.
    var alive: Bool { process != nil }

    /// One message and its answer, an object; nil (and `failure` set) if the process failed.
    func ask(_ message: String) -> [String: Any]? {
        guard process != nil else { return nil }
        guard send(message) else { return nil }
        guard let line = readLine() else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            fail("it printed something that is not a JSON object: \(Self.excerpt(line))"); return nil
        }
        return object
    }

    @discardableResult
    private func send(_ message: String) -> Bool {
        guard process != nil else { return false }
        var bytes = Array(message.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(toChild, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n < 0, errno == EINTR { continue }
                fail("it stopped reading its input (\(exitDescription()))"); return false
            }
            offset += n
        }
        return true
    }

    private func readLine() -> [UInt8]? {
        var waited = 0
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var fd = pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0)
            let step = 100
            let ready = poll(&fd, 1, Int32(step))
            if ready == 0 {
                waited += step
                if waited >= timeoutMs { fail("it did not answer within \(timeoutMs) ms"); return nil }
                continue
            }
            if ready < 0 { if errno == EINTR { continue }; fail("cannot read its output"); return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fromChild, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { fail("it closed its output (\(exitDescription()))"); return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    private func exitDescription() -> String {
        guard let process else { return "gone" }
        for _ in 0..<20 where process.isRunning { usleep(5000) }
        if process.isRunning { return "still running" }
        return process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
    }

    /// Records why the run failed, with the tail of standard error, and ends the process.
    func fail(_ reason: String) {
        stop()
        usleep(10000)
        let err = errTail.text
        let full = err.isEmpty ? reason : reason + "; its standard error ends:\n" + err
        lastReason = full
        if failure == nil { failure = full }
    }

    static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return "'" + text + (line.count > 120 ? "…'" : "'")
    }

    /// The `tables` message of a run.
    static func encode(_ tables: ArbiterTables) -> String {
        let s = tables.settings
        var out = "{\"type\":\"tables\",\"settings\":{\"afterCut\":\"\(s.afterCut.rawValue)\",\"earsTail\":\(s.earsTail.ms),\"waitLimit\":\(s.waitLimit.ms)},\"lines\":["
        for (i, line) in tables.lines.enumerated() {
            if i > 0 { out += "," }
            out += "{\"duration\":\(line.duration.ms),\"expires\":\(line.expires.map { "\($0.ms)" } ?? "null"),"
                + "\"maneuver\":\(line.maneuver.map(String.init) ?? "null"),\"urgent\":\(line.urgent)}"
        }
        out += "],\"replies\":["
        out += tables.replies.map { "[\($0.stretches.lowerBound),\($0.stretches.upperBound)]" }.joined(separator: ",")
        out += "],\"stretches\":[" + tables.stretchDurations.map { "\($0.ms)" }.joined(separator: ",")
        out += "],\"utterances\":\(tables.utterances)}"
        return out
    }

    /// The actions of an `actions` answer; nil (and `failure` set) if it is not one.
    func actions(of answer: [String: Any], for what: String) -> [TalkArbiter.Action]? {
        guard answer["type"] as? String == "actions", let list = answer["actions"] as? [Any] else {
            fail("it answered \(what) out of turn (no 'actions' message): \(Self.describe(answer))"); return nil
        }
        var out: [TalkArbiter.Action] = []
        for item in list {
            guard let object = item as? [String: Any], let action = Self.decode(object) else {
                fail("it answered \(what) with an action drivesim does not know: \(item)"); return nil
            }
            out.append(action)
        }
        return out
    }

    static func describe(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "?" }
        return String(decoding: data.prefix(160), as: UTF8.self)
    }

    static func decode(_ o: [String: Any]) -> TalkArbiter.Action? {
        func int(_ key: String) -> Int? { o[key] as? Int }
        func time(_ key: String) -> SimTime? { int(key).map { SimTime(ms: Int64($0)) } }
        func optionalTime(_ key: String) -> SimTime?? { o[key] == nil || o[key] is NSNull ? .some(nil) : time(key).map { .some($0) } }
        func rule() -> Rule? { (o["rule"] as? String).flatMap(Rule.init(rawValue:)) }
        guard let kind = o["do"] as? String else { return nil }
        switch kind {
        case "lineWaiting":
            guard let line = int("line"), let rule = rule() else { return nil }
            let stretch: Int?
            if o["stretch"] == nil || o["stretch"] is NSNull { stretch = nil } else {
                guard let k = int("stretch") else { return nil }
                stretch = k
            }
            return .lineWaiting(line: line, rule: rule, stretch: stretch)
        case "lineStarted":
            guard let line = int("line"), let end = time("endsAt") else { return nil }
            return .lineStarted(line: line, endsAt: end)
        case "lineEnded": return int("line").map { .lineEnded(line: $0) }
        case "lineDropped":
            guard let line = int("line"), let rule = rule() else { return nil }
            return .lineDropped(line: line, rule: rule)
        case "replyQueued": return int("reply").map { .replyQueued(reply: $0) }
        case "replyBegan": return int("reply").map { .replyBegan(reply: $0) }
        case "stretchStarted":
            guard let reply = int("reply"), let stretch = int("stretch"), let end = time("endsAt"),
                let held = optionalTime("held") else { return nil }
            return .stretchStarted(reply: reply, stretch: stretch, endsAt: end, held: held)
        case "stretchEnded":
            guard let reply = int("reply"), let stretch = int("stretch") else { return nil }
            return .stretchEnded(reply: reply, stretch: stretch)
        case "stretchCut":
            guard let reply = int("reply"), let stretch = int("stretch"), let rule = rule(),
                let played = time("played"), let by = o["by"] as? [String: Any] else { return nil }
            let cause: TalkArbiter.Cause
            if let n = (by["line"] as? NSNumber)?.intValue { cause = .line(n) }
            else if let n = (by["utterance"] as? NSNumber)?.intValue { cause = .utterance(n) }
            else { return nil }
            let then: TalkArbiter.AfterCut?
            if o["then"] == nil || o["then"] is NSNull { then = nil } else {
                guard let t = (o["then"] as? String).flatMap(TalkArbiter.AfterCut.init(rawValue:)) else { return nil }
                then = t
            }
            return .stretchCut(reply: reply, stretch: stretch, rule: rule, by: cause, played: played, then: then)
        case "replyEnded": return int("reply").map { .replyEnded(reply: $0) }
        case "replyAbandoned":
            guard let reply = int("reply"), let rule = rule() else { return nil }
            return .replyAbandoned(reply: reply, rule: rule)
        case "earsClosed": return .earsClosed
        case "earsOpened": return .earsOpened
        case "wake": return time("at").map { .wake(at: $0) }
        default: return nil
        }
    }
}

/// The last few kilobytes of a process's standard error, filled from another thread.
final class StderrTail: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    func append(_ data: Data) {
        lock.lock(); defer { lock.unlock() }
        bytes.append(contentsOf: data)
        if bytes.count > 2000 { bytes.removeFirst(bytes.count - 2000) }
    }
    func clear() { lock.lock(); bytes = []; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: bytes, as: UTF8.self) }
}

/// The `Arbiter` that forwards every input to `ArbiterProcess.current`. A
/// process that failed draws no more actions; the command reports its failure.
struct ExternalArbiter: Arbiter {
    private let connection: ArbiterProcess?
    private var idle = false

    init(_ tables: ArbiterTables) {
        connection = ArbiterProcess.current
        connection?.beginRun(tables)
    }

    private func input(_ kind: String, _ index: Int?, at now: SimTime, into actions: inout [Action]) {
        guard let connection, connection.alive else { return }
        let message = "{\"type\":\"input\",\"kind\":\"\(kind)\",\"index\":\(index.map(String.init) ?? "null"),\"t\":\(now.ms)}"
        guard let answer = connection.ask(message),
            let drawn = connection.actions(of: answer, for: "\(kind) at \(now.ms) ms") else { return }
        actions.append(contentsOf: drawn)
    }

    mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) { input("lineEnded", line, at: now, into: &actions) }
    mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) { input("stretchEnded", stretch, at: now, into: &actions) }
    mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) { input("dadEnded", utterance, at: now, into: &actions) }
    mutating func earsTimer(at now: SimTime, into actions: inout [Action]) { input("earsTimer", nil, at: now, into: &actions) }
    mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) { input("lineExpired", line, at: now, into: &actions) }
    mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) { input("lineRequested", line, at: now, into: &actions) }
    /// Sent as `{"type":"revise","line":…,"duration":…,"t":…}`; the answer's actions must be none.
    mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) {
        guard let connection, connection.alive else { return }
        let message = "{\"type\":\"revise\",\"line\":\(line),\"duration\":\(duration.ms),\"t\":\(now.ms)}"
        guard let answer = connection.ask(message), let drawn = connection.actions(of: answer, for: "revise at \(now.ms) ms") else { return }
        if !drawn.isEmpty { connection.fail("it answered a revise of line \(line) at \(now.ms) ms with actions; a revise draws none") }
    }
    mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) { input("replyBegan", reply, at: now, into: &actions) }
    mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) { input("chunkReady", stretch, at: now, into: &actions) }
    mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) { input("dadStarted", utterance, at: now, into: &actions) }

    mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        guard let connection, connection.alive else { return }
        guard let answer = connection.ask("{\"type\":\"endInstant\",\"t\":\(now.ms)}"),
            let drawn = connection.actions(of: answer, for: "endInstant at \(now.ms) ms") else { return }
        idle = answer["idle"] as? Bool ?? false
        actions.append(contentsOf: drawn)
    }

    var isIdle: Bool { idle }
}

extension ArbiterProcess {
    /// Starts `--arbiter`'s process for a command, or throws exit 2 with the command and the reason.
    static func launch(_ args: Arguments) throws(DrivesimError) -> ArbiterProcess? {
        guard let command = args.value("--arbiter") else { return nil }
        let seconds = try args.integer("--arbiter-timeout", in: 1...3600) ?? 5
        let process = ArbiterProcess(command: command, timeoutMs: seconds * 1000)
        if let reason = process.start() { throw DrivesimError.arbiterProcess(command: command, reason: reason) }
        current = process
        return process
    }

    /// `verdict` with the process's failure, if the run had one, as its first violation.
    func adding(failureTo verdict: Verdict) -> Verdict {
        guard let reason = takeFailure() else { return verdict }
        var verdict = verdict
        verdict.violations.insert(Violation(check: .arbiter(.process), t: .zero, message: "the arbiter process failed: \(reason)"), at: 0)
        return verdict
    }

    /// The verdict of `scenario` with this process's arbiter, failures included.
    func verdict(_ scenario: Scenario, differential: Bool = false) -> Verdict {
        adding(failureTo: Verdict(scenario, differential: differential) { ExternalArbiter($0) })
    }
}
