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
/// end's in one answer. A run foretold by the reference goes out whole, in
/// one `run` message answered in one line. One process serves a whole
/// campaign: the tables start each run.
package final class ArbiterProcess: @unchecked Sendable {
    /// The protocol version this drivesim speaks.
    package static let protocolVersion = 4
    /// The process every `ExternalArbiter` talks to; set once by the command, used by one thread at a time.
    package nonisolated(unsafe) static var current: ArbiterProcess?

    /// The command, run with `/bin/sh -c`.
    package let command: String
    /// How long one answer may take, in milliseconds.
    package let timeoutMs: Int
    private var process: ChildProcess?
    private var toChild: Int32 = -1
    private var fromChild: Int32 = -1
    private var buffer: [UInt8] = []
    /// The last `errKeep` bytes of the process's standard error, read as it comes.
    private var errTail: [UInt8] = []
    private static let errKeep = 2000
    /// Why the process was given up (it did not answer in time): later runs
    /// do not start it again, so a hung arbiter costs one timeout, not one a run.
    package private(set) var givenUp: String?
    private var started = 0
    /// The current run's batch (`ArbiterBatch`).
    package var batch = ArbiterBatch()
    /// Why the current check failed, if it did (cleared by `takeFailure`).
    package private(set) var failure: String?

    /// The hello's key and version: `protocol` 4 for an arbiter; a guidance
    /// process (`GuidanceProcess`, which talks through one of these) says `guidance` 2.
    package let hello: (key: String, version: Int)
    /// The oldest version still spoken (a guidance's 1); the process's answer picks one.
    package let oldest: Int
    /// The version the process answered the last hello with.
    package private(set) var version: Int

    /// A process not yet started.
    package init(
        command: String, timeoutMs: Int,
        hello: (key: String, version: Int) = ("protocol", ArbiterProcess.protocolVersion), oldest: Int? = nil
    ) {
        self.command = command
        self.timeoutMs = timeoutMs
        self.hello = hello
        self.oldest = oldest ?? hello.version
        version = hello.version
    }

    /// Why a process could not be started as an arbiter.
    package enum StartProblem: Error, Equatable {
        /// The shell could not be spawned.
        case cannotSpawn(String)
        /// The hello went unanswered: the exchange's failure (it exited, timed out, printed garbage).
        case noAnswer(String)
        /// It answered the hello with something else (a hello without this key).
        case notAHello(key: String)
        /// It speaks another protocol version than `expected` (of the hello's `key`), or than any from `oldest`.
        case otherVersion(Int64, expected: Int, oldest: Int, key: String)
        /// Its hello has the key, but its value (the JSON as written: `"3"`,
        /// `3.5`, `null`, `1e30`) is no whole number, so no supported version.
        case notAVersion(String, expected: Int, oldest: Int, key: String)

        /// In words, for the one-line error.
        package var reason: String {
            switch self {
            case .cannotSpawn(let reason), .noAnswer(let reason): return reason
            case .notAHello(let key):
                return "it answered the hello with something else than a hello"
                    + (key == "protocol" ? "" : " with '\(key)'")
            case .otherVersion(let v, let expected, let oldest, let key):
                let what = key == "protocol" ? "protocol" : "\(key) protocol"
                return "it speaks \(what) version \(v); this drivesim speaks "
                    + (oldest == expected ? "\(expected)" : "\(oldest) to \(expected)")
            case .notAVersion(let value, let expected, let oldest, let key):
                return "its hello's '\(key)' is \(value), not a supported version: this drivesim speaks "
                    + (oldest == expected ? "\(expected)" : "\(oldest) to \(expected)") + ", a whole number"
            }
        }
    }

    /// Starts the process and shakes hands; throws why it could not.
    package func start() throws(StartProblem) {
        signal(SIGPIPE, SIG_IGN)
        errTail.removeAll()
        let process: ChildProcess
        switch ChildProcess.spawn(command) {
        case .success(let started): process = started
        case .failure(let failure): throw .cannotSpawn(failure.reason)
        }
        self.process = process
        toChild = process.input
        fromChild = process.output
        buffer.removeAll()
        consumed = 0
        started += 1
        guard let answer = ask("{\"type\":\"hello\",\"\(hello.key)\":\(hello.version)}") else {
            throw .noAnswer(lastReason)
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
    private var lastReason = ""
    /// The instant of the last message exchanged: where a failure happened.
    package private(set) var lastInstant = SimTime.zero

    /// The end of the command: the process's input is closed and it has
    /// `grace` ms to exit by itself, then its whole group is killed, so an
    /// arbiter that ignores the end of its input does not outlive drivesim.
    package func stop(grace: Int = 200) { end(grace: grace) }

    /// Ends the process at once (a failure): its whole group is killed and
    /// the shell reaped; what it left on standard error is kept for the report.
    package func kill() { end(grace: 0) }

    private func end(grace: Int) {
        process?.end(grace: grace, tail: &errTail, keep: Self.errKeep)
        process = nil
    }

    /// The reason of the last failure, with the tail of standard error; clears it.
    package func takeFailure() -> String? {
        defer { failure = nil }
        return failure
    }

    /// A new run: restarts the process if an earlier failure ended it, then
    /// sends the tables. With a forecast of the run (`forecast`, or else the
    /// last run's messages when it ran over the same tables and did not
    /// fail), it sends the forecast's messages too, in one `run` message,
    /// and reads its answer: if every instant's answer is the forecast's,
    /// the run is served from them; if one differs, it starts again with
    /// the tables alone and asks instant by instant.
    package func beginRun(_ tables: ArbiterTables) {
        batch.clear()
        // A run served from a forecast logs nothing: its messages are the forecast's.
        let messages = serving.map { served == $0.count ? $0 : Array($0[..<served]) } ?? log
        let lastRun = runFailed ? nil : runTables.map { (tables: $0, messages: messages) }
        let foretold = forecast ?? lastRun
        let ahead = forecast == nil ? answeredAhead : nil
        let times = forecast == nil ? 1 : forecastTimes
        let told = forecast == nil ? nil : toldOutcome
        toldOutcome = nil
        forecast = nil
        answeredAhead = nil
        forecastTimes = 1
        runFailed = false
        runTables = nil
        log = []
        serving = nil
        if process == nil {
            if let givenUp {
                fail("not asked: the process was given up when \(givenUp) in an earlier run")
                return
            }
            do { try start() } catch {
                fail(error.reason)
                return
            }
        }
        defer { runTables = tables }
        if let foretold, let ahead, ahead.tables == tables, ahead.messages == foretold.messages {
            // Sent and answered alike with the run before (invariant 7's second run).
            serving = ahead.messages
            served = 0
            return
        }
        var table: [UInt8] = []
        Self.encode(tables, into: &table)
        table.append(0x0A)
        if let foretold, foretold.tables == tables, !foretold.messages.isEmpty {
            switch told ?? speculate(table, foretold.messages, times: times) {
            case .failed: return
            case .answered(let twice):
                serving = foretold.messages
                served = 0
                if twice { answeredAhead = (tables, foretold.messages) }
                return
            case .parted: break
            }
        }
        transfer(table, lines: 0)
    }

    /// The run's tables, and its messages so far when they are asked one by one (a run served from a forecast is the forecast's).
    private var runTables: ArbiterTables?
    package private(set) var log: [BatchMessage] = []
    private var runFailed = false
    /// The next run's messages as foretold (the reference's run), if any; used once.
    package var forecast: (tables: ArbiterTables, messages: [BatchMessage])?
    /// How many runs the forecast is for (2: invariant 7's second run repeats the first); sent that many times at once.
    package var forecastTimes = 1
    /// How the process answered the forecast, when it was sent ahead with other runs' (`foretell`).
    private var toldOutcome: Speculation?
    /// Runs sent and answered ahead (`foretell`), in the order they will be checked.
    private var told: [(run: Forecast, outcome: Speculation)] = []
    /// The first of `told` still to be checked.
    private var nextTold = 0
    /// The next run's messages, already sent and answered as foretold along with the last run's.
    private var answeredAhead: (tables: ArbiterTables, messages: [BatchMessage])?
    /// A run served from a forecast the process answered alike, and how far.
    private var serving: [BatchMessage]?
    private var served = 0

    package enum Speculation {
        /// Every answer of the first copy was the one foretold; `twice`: of the second too.
        case answered(twice: Bool)
        case parted, failed
    }

    /// Sends `tables` and `messages` in one `run` message, `times` times
    /// over (each copy a run), and reads the answers: whether each is the
    /// one foretold, a well formed answer differs, or the process failed (a
    /// malformed answer fails the run, as it would asked alone).
    private func speculate(_ tables: [UInt8], _ messages: [BatchMessage], times: Int) -> Speculation {
        var run = tables
        var foretold = Foretold(1)
        foretold.add(messages, into: &run)
        let copies = max(times, 1)
        var bytes = run
        for _ in 1..<copies { bytes.append(contentsOf: run) }
        guard let lines = transfer(bytes, lines: copies) else { return .failed }
        var outcome = Speculation.answered(twice: copies > 1)
        for (copy, line) in lines.enumerated() {
            guard let alike = judge(line, messages, foretold, run: 0) else { return .failed }
            if !alike {
                if copy == 0 {
                    outcome = .parted
                } else if case .answered = outcome {
                    outcome = .answered(twice: false)
                }
            }
        }
        return outcome
    }

    /// Runs as `run` messages and the canonical answers to them, one after
    /// the other (`ends[k]`: where run k's answer ends).
    package struct Foretold {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        init(_ runs: Int) {
            bytes.reserveCapacity(runs * 1500)
            ends.reserveCapacity(runs)
        }
        /// Writes `messages` into `run` as one `run` message, a line, and keeps its canonical answer.
        mutating func add(_ messages: [BatchMessage], into run: inout [UInt8]) {
            run.reserveCapacity(run.count + messages.count * 96)
            ArbiterProcess.encodeRun(messages, into: &run)
            run.append(0x0A)
            ArbiterProcess.encodeRunAnswer(messages, into: &bytes)
            ends.append(bytes.count)
        }
    }

    /// Whether `line` answers the `run` message of `messages` as foretold
    /// (run `k` of `foretold`): a line equal to the canonical answer does,
    /// without parsing; any other is parsed and compared instant by
    /// instant. Nil (and `failure` set) on a malformed answer.
    private func judge(_ line: ArraySlice<UInt8>, _ messages: [BatchMessage], _ foretold: Foretold, run k: Int) -> Bool?
    {
        let start = k == 0 ? 0 : foretold.ends[k - 1]
        if Self.same(line, foretold.bytes, from: start, to: foretold.ends[k]) { return true }
        guard let answers = runAnswer(line, messages) else { return nil }
        let asForetold = zip(answers, messages).allSatisfy { answer, message in
            answer.each == message.each && (!message.ends || (answer.end == message.end && answer.idle == message.idle))
        }
        if asForetold, notice == nil {
            notice = Self.notCanonical(line, canonical: foretold.bytes[start..<foretold.ends[k]])
        }
        return asForetold
    }

    /// Said once, the first time a right answer is not in the canonical form
    /// (docs/arbiter-protocol.md): it is parsed, the slow path. Nil while
    /// every answer is canonical; the check costs nothing on that path.
    package private(set) var notice: String?

    /// The notice for `line`, a right answer that differs from `canonical`: the first byte where they part.
    package static func notCanonical(_ line: ArraySlice<UInt8>, canonical: ArraySlice<UInt8>) -> String {
        let at =
            zip(line, canonical).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(line.count, canonical.count)
        func around(_ bytes: ArraySlice<UInt8>) -> String {
            let from = bytes.startIndex + max(0, at - 12)
            let to = min(bytes.endIndex, bytes.startIndex + at + 12)
            return escapedForTerminal(String(decoding: bytes[from..<to], as: UTF8.self))
        }
        return "note: the arbiter's answers are right but not in the canonical form, so each is parsed (slower); "
            + "the first differs at byte \(at): '\(around(line))' where the canonical form has '\(around(canonical))' "
            + "(docs/arbiter-protocol.md, \"The canonical answer\")\n"
    }

    /// The answers of a `run` answer line, one per instant of `messages`:
    /// from `runAnswers` when the same line came before, else parsed and
    /// kept; nil (and `failure` set) if it is not a well formed answer to
    /// that run (an `actions` message with as many `instants` as it had,
    /// each a well formed answer to its instant).
    package func runAnswer(_ line: ArraySlice<UInt8>, _ messages: [BatchMessage]) -> [Answer]? {
        var bytes = Array(line)
        for message in messages { bytes.append(message.ends ? 1 : 0) }
        let key = AnswerKey(bytes: bytes)
        if let known = runAnswers[key], known.count == messages.count,
            zip(known, messages).allSatisfy({ $0.each.count == $1.inputs.count })
        {
            return known
        }
        parsedAnswers += 1
        guard let object = parse(line) else { return nil }
        let what = "the run of \(counted(messages.count, "instant")) from \(messages.first?.t.ms ?? 0) ms"
        guard object["type"]?.text == "actions", case .array(let items)? = object["instants"]?.kind else {
            fail("it answered \(what) out of turn (no 'actions' message with 'instants'): \(Self.describe(object))")
            return nil
        }
        guard items.count == messages.count else {
            fail(
                "it answered \(what) with \(counted(items.count, "answer")) for \(counted(messages.count, "instant")): \(Self.describe(object))"
            )
            return nil
        }
        var answers: [Answer] = []
        answers.reserveCapacity(items.count)
        for (item, message) in zip(items, messages) {
            let instant = "the instant at \(message.t.ms) ms of the run"
            guard
                let answer = answer(item, inputs: message.inputs.count, ends: message.ends, for: instant, typed: false)
            else { return nil }
            answers.append(answer)
        }
        runAnswers.keep(answers, for: key)
        return answers
    }

    /// Whether `line` is `bytes[start..<end]`.
    private static func same(_ line: ArraySlice<UInt8>, _ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
        guard line.count == end - start, end > start else { return false }
        return line.withUnsafeBytes { a in
            bytes.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress! + start, end - start) == 0 }
        }
    }

    /// Whether this run can still talk to the process.
    package var alive: Bool { process != nil }

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
        func fail(_ reason: String) { self.fail(reason, keepingProcess: keepingProcess) }
        let object: JSONValue
        do { object = try JSONParser.parse(Array(line)) } catch {
            // JSON that breaks one rule is named for it; anything else is not JSON at all.
            switch error.reason {
            case .duplicateKey(let key):
                fail(
                    "it printed an object with the key '\(key)' twice\(error.path.isEmpty ? "" : " (at \(error.path))"): \(Self.excerpt(Array(line)))"
                )
            case .tooDeep:
                fail("it printed JSON nested deeper than \(JSONParser.maxDepth) levels: \(Self.excerpt(Array(line)))")
            default:
                fail("it printed something that is not a JSON object: \(Self.excerpt(Array(line)))")
            }
            return nil
        }
        guard case .object = object.kind else {
            fail("it printed something that is not a JSON object: \(Self.excerpt(Array(line)))")
            return nil
        }
        return object
    }

    /// The longest answer line drivesim reads: 16 MiB (a campaign's whole
    /// stretch of runs answers in lines far shorter). Also the most it keeps
    /// of lines the process wrote ahead of what it was asked.
    package static let answerLimit = 16 << 20

    /// Writes `bytes` while it reads what the process answers, until all
    /// are written and `lines` lines are in (neither side blocks on a full
    /// pipe); nil (and `failure` set) if the process failed: it exited (seen
    /// at once, whoever else holds its pipes), closed its output, wrote a
    /// line over `answerLimit`, or took longer than the timeout over one
    /// answer (a deadline per line, which bytes without a newline do not move).
    @discardableResult
    private func transfer(_ bytes: [UInt8], lines count: Int) -> [ArraySlice<UInt8>]? {
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
                fail("cannot read its output")
                return nil
            }
            if fds[1].revents != 0 { errorsOpen = process.drain(process.errors, into: &errTail, keep: Self.errKeep) }
            if fds[2].revents != 0, offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { write(toChild, $0.baseAddress, $0.count) }
                if n > 0 {
                    offset += n
                } else if !(n < 0 && (errno == EINTR || errno == EAGAIN)) {
                    return ended("it stopped reading its input")
                }
            }
            if fds[0].revents != 0 {
                let open = readAnswers()
                if buffer.count - consumed > Self.answerLimit {
                    fail("it wrote an answer line longer than \(Self.answerLimit >> 20) MiB, the limit")
                    return nil
                }
                if !open {
                    // Written all and read all: a process that exits after its last answer is no failure yet.
                    if offset == bytes.count && lines.count == count { break }
                    return ended("it closed its output")
                }
            }
            if ready == 0 || fds[0].revents == 0, process.reap() {
                // Exited: what it wrote before is still in the pipe.
                _ = readAnswers()
                if offset == bytes.count && lines.count == count { break }
                return ended("it closed its output")
            }
            if clock.now >= deadline {
                let reason = "it did not answer within \(Self.describe(milliseconds: timeoutMs))"
                fail(reason)
                givenUp = reason
                return nil
            }
        }
        return lines.map { buffer[$0] }
    }

    /// The failure of a process that stopped talking (`what`): one that
    /// exited (waited for briefly) is reported by its exit, whichever pipe
    /// showed it first, so the same missing command is told one way.
    private func ended(_ what: String) -> [ArraySlice<UInt8>]? {
        guard let process else { return nil }
        if process.awaitExit(milliseconds: 1000) {
            fail("it exited before answering (\(process.exitDescription))")
        } else {
            fail("\(what) (still running)")
        }
        return nil
    }

    /// `5 s`, or `1500 ms` when not whole seconds.
    package static func describe(milliseconds ms: Int) -> String { ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms" }

    private var consumed = 0
    /// The answer lines the last exchange read, in `buffer` (all of them, or those before it failed).
    private var answered: [Range<Int>] = []
    /// How many answer lines were parsed (not the canonical answer foretold, nor a line seen before).
    package private(set) var parsedAnswers = 0
    /// Answer lines seen (with whether their message ended the instant) and what they said.
    private var answers = AnswerCache<Answer>(limit: 65536)
    /// `run` answer lines seen (with whether each of its messages ended its instant) and what they said.
    private var runAnswers = AnswerCache<[Answer]>(limit: 4096)
    private var chunk = [UInt8](repeating: 0, count: 65536)

    /// Records why the run failed, with the tail of standard error (all in
    /// one line, control characters escaped), and ends the process, unless
    /// `keepingProcess` (it answered in step, so it can serve the next run:
    /// a guidance's answer that cannot be spoken).
    package func fail(_ reason: String, keepingProcess: Bool = false) {
        if !keepingProcess { kill() }
        var err = String(decoding: errTail, as: UTF8.self)
        while err.last?.isNewline == true { err.removeLast() }
        let full = escapedForTerminal(err.isEmpty ? reason : reason + "; its standard error ends: " + err)
        lastReason = full
        runFailed = true
        if failure == nil { failure = full }
    }

    package static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return "'" + text + (line.count > 120 ? "…'" : "'")
    }

    /// An answer line read: from `answers` when the same line came before
    /// (a second run's, or a common one), else parsed and kept; nil (and
    /// `failure` set) if it is not a well formed answer to the message.
    package func answer(_ line: ArraySlice<UInt8>, inputs: Int, ends: Bool, for what: String) -> Answer? {
        var bytes = Array(line)
        bytes.append(ends ? 1 : 0)
        let key = AnswerKey(bytes: bytes)
        if let known = answers[key], known.each.count == inputs { return known }
        parsedAnswers += 1
        guard let object = parse(line), let answer = answer(object, inputs: inputs, ends: ends, for: what) else {
            return nil
        }
        answers.keep(answer, for: key)
        return answer
    }

    /// An `instant` answer: each input's actions, the end's and `idle` (empty and false when it did not end the instant).
    package typealias Answer = (each: [[TalkArbiter.Action]], end: [TalkArbiter.Action], idle: Bool)

    /// The action lists of an `instant` answer, one per input, and the
    /// end's actions and `idle` when the message ended the instant; nil (and
    /// `failure` set) if it is not that. Not `typed`: an instant's answer
    /// within a `run`'s, an object without `type`.
    package func answer(_ answer: JSONValue, inputs: Int, ends: Bool, for what: String, typed: Bool = true) -> Answer? {
        guard !typed || answer["type"]?.text == "actions", case .object = answer.kind,
            case .array(let lists)? = answer["each"]?.kind
        else {
            fail(
                typed
                    ? "it answered \(what) out of turn (no 'actions' message with 'each'): \(Self.describe(answer))"
                    : "it answered \(what) with something else than an object with 'each': \(Self.describe(answer))")
            return nil
        }
        guard lists.count == inputs else {
            fail(
                "it answered \(what) with \(counted(lists.count, "action list")) for \(counted(inputs, "input")): \(Self.describe(answer))"
            )
            return nil
        }
        var each: [[TalkArbiter.Action]] = []
        each.reserveCapacity(inputs)
        for list in lists {
            guard let actions = self.actions(list, for: what) else { return nil }
            each.append(actions)
        }
        guard ends else { return (each, [], false) }
        guard let endList = answer["end"], let idle = answer["idle"]?.boolean else {
            fail("it answered \(what) without the end of the instant ('end' and 'idle'): \(Self.describe(answer))")
            return nil
        }
        guard let end = actions(endList, for: what) else { return nil }
        return (each, end, idle)
    }

    private func actions(_ list: JSONValue, for what: String) -> [TalkArbiter.Action]? {
        guard case .array(let items) = list.kind else {
            fail("it answered \(what) with an action list that is not an array: \(Self.describe(list))")
            return nil
        }
        var out: [TalkArbiter.Action] = []
        out.reserveCapacity(items.count)
        for item in items {
            var unfit: UnfitRule?
            guard let action = Self.decode(item, unfit: &unfit) else {
                if let key = Self.integerOutOfRange(in: item) {
                    fail(
                        "it answered \(what) with an action whose '\(key)' is beyond a 64-bit integer: \(Self.describe(item))"
                    )
                    return nil
                }
                if let unfit {
                    let fits = unfit.fits.map(\.rawValue).joined(separator: " or ")
                    fail(
                        "it answered \(what) with a \(unfit.action) whose rule '\(unfit.rule.rawValue)' is not one it can carry (\(fits)): \(Self.describe(item))"
                    )
                    return nil
                }
                fail("it answered \(what) with an action drivesim does not know: \(Self.describe(item))")
                return nil
            }
            out.append(action)
        }
        return out
    }

    package static func describe(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    /// The first member of the action `o` (or of its `by`) that is a whole
    /// number too large for a 64-bit integer (an index or a time), if any.
    package static func integerOutOfRange(in o: JSONValue) -> String? {
        guard case .object(let members) = o.kind else { return nil }
        for (key, value) in members {
            if case .number(let literal) = value.kind, Int(literal) == nil,
                literal.drop(while: { $0 == "-" }).allSatisfy(\.isNumber)
            {
                return key
            }
            if key == "by", let inner = integerOutOfRange(in: value) { return "by." + inner }
        }
        return nil
    }

    /// A rule of the SPEC's that an action named but cannot carry: `lineDropped` with `short-wait`.
    package struct UnfitRule {
        /// The action's `do`, the rule it named, and the rules it can carry.
        var action: String, rule: Rule, fits: [Rule]
    }

    /// The action `o`, or nil if it is not one; `unfit` says so when only its rule does not fit it.
    package static func decode(_ o: JSONValue, unfit: inout UnfitRule?) -> TalkArbiter.Action? {
        func int(_ key: String) -> Int? { o[key]?.integer }
        func time(_ key: String) -> SimTime? { int(key).map { SimTime(ms: Int64($0)) } }
        func isNull(_ key: String) -> Bool { o[key].map { $0.kind == .null } ?? true }
        guard case .object = o.kind, let kind = o["do"]?.text else { return nil }
        func rule<R: TalkArbiter.ActionRule>(_: R.Type) -> R? {
            guard let rule = o["rule"]?.text.flatMap(Rule.init(rawValue:)) else { return nil }
            guard let fitting = R(rule) else {
                unfit = UnfitRule(action: kind, rule: rule, fits: R.allCases.map(\.rule))
                return nil
            }
            return fitting
        }
        switch kind {
        case "lineWaiting":
            guard let line = int("line"), let rule = rule(TalkArbiter.WaitRule.self) else { return nil }
            let stretch: Int?
            if isNull("stretch") {
                stretch = nil
            } else {
                guard let k = int("stretch") else { return nil }
                stretch = k
            }
            return .lineWaiting(line: line, rule: rule, stretch: stretch)
        case "lineStarted":
            guard let line = int("line"), let end = time("endsAt") else { return nil }
            return .lineStarted(line: line, endsAt: end)
        case "lineEnded": return int("line").map { .lineEnded(line: $0) }
        case "lineDropped":
            guard let line = int("line"), let rule = rule(TalkArbiter.DropRule.self) else { return nil }
            return .lineDropped(line: line, rule: rule)
        case "replyQueued": return int("reply").map { .replyQueued(reply: $0) }
        case "replyBegan": return int("reply").map { .replyBegan(reply: $0) }
        case "stretchStarted":
            guard let reply = int("reply"), let stretch = int("stretch"), let end = time("endsAt") else { return nil }
            let held: SimTime?
            if isNull("held") {
                held = nil
            } else {
                guard let h = time("held") else { return nil }
                held = h
            }
            return .stretchStarted(reply: reply, stretch: stretch, endsAt: end, held: held)
        case "stretchEnded":
            guard let reply = int("reply"), let stretch = int("stretch") else { return nil }
            return .stretchEnded(reply: reply, stretch: stretch)
        case "stretchCut":
            guard let reply = int("reply"), let stretch = int("stretch"), let rule = rule(TalkArbiter.CutRule.self),
                let played = time("played"), let by = o["by"]
            else { return nil }
            let cause: TalkArbiter.Cause
            if let n = by["line"]?.integer {
                cause = .line(n)
            } else if let n = by["utterance"]?.integer {
                cause = .utterance(n)
            } else {
                return nil
            }
            let then: TalkArbiter.AfterCut?
            if isNull("then") {
                then = nil
            } else {
                guard let t = o["then"]?.text.flatMap(TalkArbiter.AfterCut.init(rawValue:)) else { return nil }
                then = t
            }
            return .stretchCut(reply: reply, stretch: stretch, rule: rule, by: cause, played: played, then: then)
        case "replyEnded": return int("reply").map { .replyEnded(reply: $0) }
        case "replyAbandoned":
            guard let reply = int("reply"), let rule = rule(TalkArbiter.AbandonRule.self) else { return nil }
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
    package var text: String? { if case .string(let s) = kind { s } else { nil } }
    /// The integer, if the value is a number written as one that fits.
    package var integer: Int? { if case .number(let n) = kind { Int(n) } else { nil } }
    /// The boolean, if the value is one.
    package var boolean: Bool? { if case .bool(let b) = kind { b } else { nil } }
}

/// An answer line as a dictionary key, hashed in one pass over its bytes
/// (an array of bytes hashes them one by one, five times slower).
package struct AnswerKey: Hashable {
    package let bytes: [UInt8]
    package func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

/// Answer lines seen and what they said, bounded: once it holds `limit`
/// of them or 32 MiB of their bytes, it starts again.
package struct AnswerCache<Value> {
    package let limit: Int
    private var values: [AnswerKey: Value] = [:]
    private var bytes = 0
    package static var byteLimit: Int { 32 << 20 }

    package init(limit: Int) { self.limit = limit }

    subscript(key: AnswerKey) -> Value? { values[key] }

    package mutating func keep(_ value: Value, for key: AnswerKey) {
        if values.count >= limit || bytes + key.bytes.count > Self.byteLimit {
            values.removeAll(keepingCapacity: true)
            bytes = 0
        }
        values[key] = value
        bytes += key.bytes.count
    }
}

/// One run's batch with the process: what was sent and not yet delivered.
package struct ArbiterBatch {
    /// Revisions of the instant not yet sent (they ride in its next message).
    package var revisions: [BatchMessage.Revision] = []
    /// The inputs of the last `instant` message and their answers; `next` is the next to deliver.
    package var inputs: [ArbiterInput] = []
    package var answers: [[TalkArbiter.Action]] = []
    package var next = 0
    /// The end's answer, when the last message ended the instant and `endInstant` has not come yet.
    package var end: (actions: [TalkArbiter.Action], idle: Bool)?

    package mutating func clear() {
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
    package func exchange(_ inputs: [ArbiterInput], ends: Bool, at now: SimTime) -> Bool {
        guard alive else { return false }
        lastInstant = now
        let message: BatchMessage
        if let serving {
            // Served from the forecast (logged as it is: `beginRun` takes the forecast for the log).
            guard served < serving.count, serving[served].t == now, serving[served].ends == ends,
                serving[served].inputs == inputs, serving[served].revisions == batch.revisions
            else {
                fail(
                    "drivesim's run parted at \(now.ms) ms from the run it had foretold and sent (a drivesim bug: its run is not a function of the answers)"
                )
                return false
            }
            message = serving[served]
            served += 1
            batch.revisions.removeAll(keepingCapacity: true)
        } else {
            var asked = BatchMessage(t: now, revisions: batch.revisions, inputs: inputs, ends: ends)
            batch.revisions.removeAll(keepingCapacity: true)
            let what = "the instant at \(now.ms) ms"
            var bytes: [UInt8] = []
            Self.encode(asked, into: &bytes)
            bytes.append(0x0A)
            guard let line = transfer(bytes, lines: 1)?.first,
                let answer = answer(line, inputs: inputs.count, ends: ends, for: what)
            else {
                return false
            }
            asked.each = answer.each
            if ends {
                asked.end = answer.end
                asked.idle = answer.idle
            }
            log.append(asked)
            message = asked
        }
        batch.inputs = inputs
        batch.answers = message.each
        batch.next = 0
        batch.end = ends ? (message.end, message.idle) : nil
        return true
    }

    /// Delivers `input`: the answer its batch drew, checked against what the
    /// batch announced; without a batch, a message of its own.
    package func deliver(_ input: ArbiterInput, at now: SimTime, into actions: inout [TalkArbiter.Action]) {
        guard alive else { return }
        if batch.next == batch.inputs.count {
            guard batch.end == nil else {
                return fail(
                    "drivesim delivered \(Self.encode(input)) at \(now.ms) ms after the message that ended the instant (its batching did not foresee the input)"
                )
            }
            guard exchange([input], ends: false, at: now) else { return }
        }
        guard batch.inputs[batch.next] == input else {
            return fail(
                "drivesim delivered \(Self.encode(input)) at \(now.ms) ms where its batch announced \(Self.encode(batch.inputs[batch.next]))"
            )
        }
        actions.append(contentsOf: batch.answers[batch.next])
        batch.next += 1
    }

    /// The end of the instant: the answer of the message that ended it, or a message of its own.
    package func endInstant(at now: SimTime, into actions: inout [TalkArbiter.Action]) -> Bool? {
        guard alive else { return nil }
        guard batch.next == batch.inputs.count else {
            fail(
                "drivesim ended the instant at \(now.ms) ms before delivering \(Self.encode(batch.inputs[batch.next])) that its batch announced"
            )
            return nil
        }
        if batch.end == nil { guard exchange([], ends: true, at: now) else { return nil } }
        guard let end = batch.end else { return nil }
        batch.end = nil
        actions.append(contentsOf: end.actions)
        return end.idle
    }

    /// Announced inputs: one `instant` message for them (and the end).
    package func announce(_ inputs: [ArbiterInput], ends: Bool, at now: SimTime) {
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
package struct ExternalArbiter: BatchingArbiter {
    private let connection: ArbiterProcess?
    private var idle = false

    package init(_ tables: ArbiterTables) { self.init(tables, begun: false) }

    /// The same; with `begun`, the process's run over `tables` has begun already (`ArbiterProcess.verdict`).
    package init(_ tables: ArbiterTables, begun: Bool) {
        connection = ArbiterProcess.current
        if !begun { connection?.beginRun(tables) }
    }

    package func announce(_ inputs: [ArbiterInput], endsInstant: Bool, at now: SimTime) {
        connection?.announce(inputs, ends: endsInstant, at: now)
    }

    private func input(_ input: ArbiterInput, at now: SimTime, into actions: inout [Action]) {
        connection?.deliver(input, at: now, into: &actions)
    }

    package mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        input(.lineEnded(line), at: now, into: &actions)
    }
    package mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        input(.stretchEnded(stretch), at: now, into: &actions)
    }
    package mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        input(.dadEnded(utterance), at: now, into: &actions)
    }
    package mutating func earsTimer(at now: SimTime, into actions: inout [Action]) {
        input(.earsTimer, at: now, into: &actions)
    }
    package mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        input(.lineExpired(line), at: now, into: &actions)
    }
    package mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        input(.lineRequested(line), at: now, into: &actions)
    }
    /// Kept for the instant's next message (`"revise":[[line,duration],…]`).
    package mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) {
        connection?.batch.revisions.append(.init(line: line, duration: duration))
    }
    package mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) {
        input(.replyBegan(reply), at: now, into: &actions)
    }
    package mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        input(.chunkReady(stretch), at: now, into: &actions)
    }
    package mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        input(.dadStarted(utterance), at: now, into: &actions)
    }

    package mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        if let idle = connection?.endInstant(at: now, into: &actions) { self.idle = idle }
    }

    package var isIdle: Bool { idle }
}

extension ArbiterProcess {
    /// `verdict` with the process's failure, if the run had one, in place of
    /// what the run found from the failing instant on (`Verdict.processFailed`).
    package func adding(failureTo verdict: Verdict) -> Verdict {
        guard let reason = takeFailure() else { return verdict }
        var verdict = verdict
        verdict.recordProcessFailure(at: lastInstant, "the arbiter process failed: \(reason)")
        return verdict
    }

    /// The verdict of `scenario` with this process's arbiter, failures included.
    ///
    /// The reference's run, recorded message by message (`BatchedArbiter`),
    /// is the first run's forecast: a process that answers every message as
    /// the reference does gets them all at once, in one `run` message. The
    /// second run (invariant 7) is foretold by the first: both go out at
    /// once, and the second is served without another exchange if the
    /// process answered both alike. A first run answered as foretold is the
    /// reference's run (the simulator is a function of the answers), so it
    /// is not simulated again: the second run, simulated and served from its
    /// own answers, is compared with it. In differential mode the forecast's
    /// decisions are the reference's (batching changes no decision:
    /// `BatchingTests`), so the reference does not run a second time.
    /// `roadPlan` plans the road with another guidance (`--guidance`), every run alike.
    package func verdict(_ scenario: Scenario, differential: Bool = false, roadPlan: RoadPlanning? = nil) -> Verdict {
        let run: Forecast?
        if nextTold < told.count, told[nextTold].run.scenario == scenario {
            run = told[nextTold].run
            toldOutcome = told[nextTold].outcome
            nextTold += 1
        } else {
            // Not told ahead (a run with no message, or a scenario out of order): foretold on its own.
            run = Self.forecast(scenario, differential: differential, roadPlan: roadPlan)
        }
        guard let run else {
            return adding(
                failureTo: Verdict(scenario, differential: differential, roadPlan: roadPlan) { ExternalArbiter($0) })
        }
        forecast = (run.tables, run.messages)
        forecastTimes = 2
        // The first run begins here, so that a run served in full is known before it is simulated.
        beginRun(run.tables)
        var begun: ArbiterTables? = run.tables
        var first: Simulation?
        if let serving, served == 0, failure == nil {
            served = serving.count
            first = run.simulation
            begun = nil
        }
        let verdict = Verdict(
            scenario, differential: differential, roadPlan: roadPlan, reference: run.decisions, first: first
        ) { tables in
            defer { begun = nil }
            return ExternalArbiter(tables, begun: begun == tables)
        }
        return adding(failureTo: verdict)
    }

    /// The reference's run of a scenario, recorded message by message
    /// (`BatchedArbiter`): its tables, messages, simulation and, in
    /// differential mode, decisions.
    package struct Forecast {
        let scenario: Scenario
        let tables: ArbiterTables
        package let messages: [BatchMessage]
        let decisions: [Decision]?
        let simulation: Simulation
    }

    /// The reference's run of `scenario`; nil if it cannot be foretold (a
    /// handoff sent after a stretch: its run is several, one per pass, `Simulation.resolvingHandoffs`).
    package static func forecast(_ scenario: Scenario, differential: Bool, roadPlan: RoadPlanning? = nil) -> Forecast? {
        guard scenario.road?.stretchesSentAfter.isEmpty ?? true else { return nil }
        let recorded = BatchedArbiter<TalkArbiter>.Log()
        var tables: ArbiterTables?
        let reference = Simulation(scenario, roster: nil, roadPlan: roadPlan, recordingDecisions: differential) {
            (t: ArbiterTables) -> BatchedArbiter<TalkArbiter> in
            tables = t
            return BatchedArbiter(TalkArbiter(t), log: recorded)
        }
        guard let tables, !recorded.mispredicted else { return nil }
        return Forecast(
            scenario: scenario, tables: tables, messages: recorded.messages, decisions: reference.decisions,
            simulation: reference)
    }

    /// Sends the runs of `scenarios` ahead, each foretold by the reference
    /// and twice over (invariant 7), all in one write, and reads every
    /// answer: the process answers a stretch of a campaign in one exchange,
    /// and `verdict` then checks each run as usual, served from its answers
    /// if they were the ones foretold. Anything amiss (the process failed,
    /// a malformed answer) drops them all and ends the process: the runs are
    /// then asked one by one, and the one at fault fails as it would alone.
    package func foretell(_ scenarios: [Scenario], differential: Bool, roadPlan: RoadPlanning? = nil) {
        told = []
        nextTold = 0
        guard process != nil, failure == nil else { return }
        var runs: [Forecast] = []
        var bytes: [UInt8] = []
        var foretold = Foretold(scenarios.count)
        for scenario in scenarios {
            guard let run = Self.forecast(scenario, differential: differential, roadPlan: roadPlan),
                !run.messages.isEmpty
            else { continue }
            var copy: [UInt8] = []
            Self.encode(run.tables, into: &copy)
            copy.append(0x0A)
            foretold.add(run.messages, into: &copy)
            bytes.append(contentsOf: copy)
            bytes.append(contentsOf: copy)
            runs.append(run)
        }
        guard !runs.isEmpty, let lines = transfer(bytes, lines: 2 * runs.count) else { return drop() }
        for (k, run) in runs.enumerated() {
            let line = lines.startIndex + 2 * k
            guard let once = judge(lines[line], run.messages, foretold, run: k),
                let twice = judge(lines[line + 1], run.messages, foretold, run: k)
            else { return drop() }
            told.append((run, once ? .answered(twice: twice) : .parted))
        }
    }

    /// Forgets the runs sent ahead, and the process if it failed over them (its failure is no run's).
    private func drop() {
        told = []
        nextTold = 0
        if failure != nil || process == nil {
            kill()
            failure = nil
        }
    }
}
