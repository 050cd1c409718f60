import Foundation
import ScenarioFormat
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
/// The simulator announces an instant's inputs before it delivers them
/// (`BatchingArbiter`), so an instant is one round trip: its revisions, its
/// inputs and its end in one `instant` message, each input's actions and the
/// end's in one answer. One process serves a whole campaign: `reset` and the
/// tables start each run.
final class ArbiterProcess: @unchecked Sendable {
    /// The protocol version this drivesim speaks.
    static let protocolVersion = 3
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
    /// The current run's batch (`ArbiterBatch`).
    var batch = ArbiterBatch()
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
        guard hello["type"]?.text == "hello", let version = hello["protocol"]?.integer else {
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
        batch.clear()
        if process == nil {
            if let reason = start() { fail(reason); return }
        }
        send("{\"type\":\"reset\"}\n" + Self.encode(tables))
    }

    /// Whether this run can still talk to the process.
    var alive: Bool { process != nil }

    /// One message and its answer, an object; nil (and `failure` set) if the process failed.
    func ask(_ message: String) -> JSONValue? {
        guard process != nil else { return nil }
        guard send(message) else { return nil }
        guard let line = readLine() else { return nil }
        guard let object = try? JSONParser.parse(line), case .object = object.kind else {
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

    /// The action lists of an `instant` answer, one per input, and the
    /// end's actions and `idle` when the message ended the instant; nil (and
    /// `failure` set) if it is not that.
    func answer(_ answer: JSONValue, inputs: Int, ends: Bool, for what: String)
        -> (each: [[TalkArbiter.Action]], end: [TalkArbiter.Action], idle: Bool)?
    {
        guard answer["type"]?.text == "actions", case .array(let lists)? = answer["each"]?.kind else {
            fail("it answered \(what) out of turn (no 'actions' message with 'each'): \(Self.describe(answer))"); return nil
        }
        guard lists.count == inputs else {
            fail("it answered \(what) with \(lists.count) action lists for \(inputs) inputs: \(Self.describe(answer))"); return nil
        }
        var each: [[TalkArbiter.Action]] = []
        each.reserveCapacity(inputs)
        for list in lists {
            guard let actions = self.actions(list, for: what) else { return nil }
            each.append(actions)
        }
        guard ends else { return (each, [], false) }
        guard let endList = answer["end"], let idle = answer["idle"]?.boolean else {
            fail("it answered \(what) without the end of the instant ('end' and 'idle'): \(Self.describe(answer))"); return nil
        }
        guard let end = actions(endList, for: what) else { return nil }
        return (each, end, idle)
    }

    private func actions(_ list: JSONValue, for what: String) -> [TalkArbiter.Action]? {
        guard case .array(let items) = list.kind else {
            fail("it answered \(what) with an action list that is not an array: \(Self.describe(list))"); return nil
        }
        var out: [TalkArbiter.Action] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let action = Self.decode(item) else {
                fail("it answered \(what) with an action drivesim does not know: \(Self.describe(item))"); return nil
            }
            out.append(action)
        }
        return out
    }

    static func describe(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    static func decode(_ o: JSONValue) -> TalkArbiter.Action? {
        func int(_ key: String) -> Int? { o[key]?.integer }
        func time(_ key: String) -> SimTime? { int(key).map { SimTime(ms: Int64($0)) } }
        func isNull(_ key: String) -> Bool { o[key].map { $0.kind == .null } ?? true }
        func rule() -> Rule? { o["rule"]?.text.flatMap(Rule.init(rawValue:)) }
        guard case .object = o.kind, let kind = o["do"]?.text else { return nil }
        switch kind {
        case "lineWaiting":
            guard let line = int("line"), let rule = rule() else { return nil }
            let stretch: Int?
            if isNull("stretch") { stretch = nil } else {
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
            guard let reply = int("reply"), let stretch = int("stretch"), let end = time("endsAt") else { return nil }
            let held: SimTime?
            if isNull("held") { held = nil } else {
                guard let h = time("held") else { return nil }
                held = h
            }
            return .stretchStarted(reply: reply, stretch: stretch, endsAt: end, held: held)
        case "stretchEnded":
            guard let reply = int("reply"), let stretch = int("stretch") else { return nil }
            return .stretchEnded(reply: reply, stretch: stretch)
        case "stretchCut":
            guard let reply = int("reply"), let stretch = int("stretch"), let rule = rule(),
                let played = time("played"), let by = o["by"] else { return nil }
            let cause: TalkArbiter.Cause
            if let n = by["line"]?.integer { cause = .line(n) }
            else if let n = by["utterance"]?.integer { cause = .utterance(n) }
            else { return nil }
            let then: TalkArbiter.AfterCut?
            if isNull("then") { then = nil } else {
                guard let t = o["then"]?.text.flatMap(TalkArbiter.AfterCut.init(rawValue:)) else { return nil }
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

extension JSONValue {
    /// The string, if the value is one.
    var text: String? { if case .string(let s) = kind { s } else { nil } }
    /// The integer, if the value is a number written as one that fits.
    var integer: Int? { if case .number(let n) = kind { Int(n) } else { nil } }
    /// The boolean, if the value is one.
    var boolean: Bool? { if case .bool(let b) = kind { b } else { nil } }
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

/// One run's batch with the process: what was sent and not yet delivered.
struct ArbiterBatch {
    /// Revisions of the instant not yet sent (they ride in its next message).
    var revisions: [(line: Int, duration: SimTime)] = []
    /// The inputs of the last `instant` message and their answers; `next` is the next to deliver.
    var inputs: [ArbiterInput] = []
    var answers: [[TalkArbiter.Action]] = []
    var next = 0
    /// The end's answer, when the last message ended the instant and `endInstant` has not come yet.
    var end: (actions: [TalkArbiter.Action], idle: Bool)?

    mutating func clear() {
        revisions.removeAll(keepingCapacity: true)
        inputs.removeAll(keepingCapacity: true)
        answers.removeAll(keepingCapacity: true)
        next = 0
        end = nil
    }
}

extension ArbiterProcess {
    /// Sends one `instant` message (the pending revisions, `inputs`, the end
    /// if `ends`) and keeps its answer in `batch`; false if the process failed.
    @discardableResult
    func exchange(_ inputs: [ArbiterInput], ends: Bool, at now: SimTime) -> Bool {
        guard alive else { return false }
        var message = "{\"type\":\"instant\",\"t\":\(now.ms),\"revise\":["
        for (i, r) in batch.revisions.enumerated() { message += (i > 0 ? ",[" : "[") + "\(r.line),\(r.duration.ms)]" }
        message += "],\"inputs\":["
        for (i, input) in inputs.enumerated() {
            if i > 0 { message += "," }
            message += Self.encode(input)
        }
        message += ends ? "],\"end\":true}" : "],\"end\":false}"
        batch.revisions.removeAll(keepingCapacity: true)
        let what = "the instant at \(now.ms) ms"
        guard let reply = ask(message), let answer = answer(reply, inputs: inputs.count, ends: ends, for: what) else { return false }
        batch.inputs = inputs
        batch.answers = answer.each
        batch.next = 0
        batch.end = ends ? (answer.end, answer.idle) : nil
        return true
    }

    /// `["kind",index]`, index null for the ears' timer.
    static func encode(_ input: ArbiterInput) -> String {
        switch input {
        case .lineEnded(let i): return "[\"lineEnded\",\(i)]"
        case .stretchEnded(let i): return "[\"stretchEnded\",\(i)]"
        case .dadEnded(let i): return "[\"dadEnded\",\(i)]"
        case .earsTimer: return "[\"earsTimer\",null]"
        case .lineExpired(let i): return "[\"lineExpired\",\(i)]"
        case .lineRequested(let i): return "[\"lineRequested\",\(i)]"
        case .replyBegan(let i): return "[\"replyBegan\",\(i)]"
        case .chunkReady(let i): return "[\"chunkReady\",\(i)]"
        case .dadStarted(let i): return "[\"dadStarted\",\(i)]"
        case .endOfInstant: return "[\"endInstant\",null]"
        }
    }

    /// Delivers `input`: the answer its batch drew, checked against what the
    /// batch announced; without a batch, a message of its own.
    func deliver(_ input: ArbiterInput, at now: SimTime, into actions: inout [TalkArbiter.Action]) {
        guard alive else { return }
        if batch.next == batch.inputs.count {
            guard batch.end == nil else {
                return fail("drivesim delivered \(Self.encode(input)) at \(now.ms) ms after the message that ended the instant (its batching did not foresee the input)")
            }
            guard exchange([input], ends: false, at: now) else { return }
        }
        guard batch.inputs[batch.next] == input else {
            return fail("drivesim delivered \(Self.encode(input)) at \(now.ms) ms where its batch announced \(Self.encode(batch.inputs[batch.next]))")
        }
        actions.append(contentsOf: batch.answers[batch.next])
        batch.next += 1
    }

    /// The end of the instant: the answer of the message that ended it, or a message of its own.
    func endInstant(at now: SimTime, into actions: inout [TalkArbiter.Action]) -> Bool? {
        guard alive else { return nil }
        guard batch.next == batch.inputs.count else {
            fail("drivesim ended the instant at \(now.ms) ms before delivering \(Self.encode(batch.inputs[batch.next])) that its batch announced")
            return nil
        }
        if batch.end == nil { guard exchange([], ends: true, at: now) else { return nil } }
        guard let end = batch.end else { return nil }
        batch.end = nil
        actions.append(contentsOf: end.actions)
        return end.idle
    }

    /// Announced inputs: one `instant` message for them (and the end).
    func announce(_ inputs: [ArbiterInput], ends: Bool, at now: SimTime) {
        guard alive else { return }
        guard batch.next == batch.inputs.count, batch.end == nil else {
            return fail("drivesim announced inputs at \(now.ms) ms before delivering the ones it had announced")
        }
        exchange(inputs, ends: ends, at: now)
    }
}

/// The `Arbiter` that forwards every input to `ArbiterProcess.current`,
/// an instant's inputs in one message (`BatchingArbiter`). A process that
/// failed draws no more actions; the command reports its failure.
struct ExternalArbiter: BatchingArbiter {
    private let connection: ArbiterProcess?
    private var idle = false

    init(_ tables: ArbiterTables) {
        connection = ArbiterProcess.current
        connection?.beginRun(tables)
    }

    func announce(_ inputs: [ArbiterInput], endsInstant: Bool, at now: SimTime) {
        connection?.announce(inputs, ends: endsInstant, at: now)
    }

    private func input(_ input: ArbiterInput, at now: SimTime, into actions: inout [Action]) {
        connection?.deliver(input, at: now, into: &actions)
    }

    mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) { input(.lineEnded(line), at: now, into: &actions) }
    mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) { input(.stretchEnded(stretch), at: now, into: &actions) }
    mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) { input(.dadEnded(utterance), at: now, into: &actions) }
    mutating func earsTimer(at now: SimTime, into actions: inout [Action]) { input(.earsTimer, at: now, into: &actions) }
    mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) { input(.lineExpired(line), at: now, into: &actions) }
    mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) { input(.lineRequested(line), at: now, into: &actions) }
    /// Kept for the instant's next message (`"revise":[[line,duration],…]`).
    mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) {
        connection?.batch.revisions.append((line, duration))
    }
    mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) { input(.replyBegan(reply), at: now, into: &actions) }
    mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) { input(.chunkReady(stretch), at: now, into: &actions) }
    mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) { input(.dadStarted(utterance), at: now, into: &actions) }

    mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        if let idle = connection?.endInstant(at: now, into: &actions) { self.idle = idle }
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
