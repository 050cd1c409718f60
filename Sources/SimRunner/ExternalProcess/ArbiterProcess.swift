import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// An arbiter in another process (`--arbiter "COMMAND"`), spoken to in
/// line-delimited JSON (docs/arbiter-protocol.md) through a `LineChannel`:
/// the protocol's messages, its answers and the cache of answers seen.
///
/// The simulator announces an instant's inputs before it delivers them
/// (`BatchingArbiter`), so an instant is one round trip: its revisions, its
/// inputs and its end in one `instant` message, each input's actions and the
/// end's in one answer. A run foretold (`ArbiterForecast`) goes out whole,
/// in one `run` message answered in one line. One process serves a whole
/// campaign: the tables start each run.
package final class ArbiterProcess: @unchecked Sendable {
    /// The protocol version this drivesim speaks.
    package static let protocolVersion = 4

    /// The process: its framing, timeout and failures.
    package let channel: LineChannel
    /// What is known to foretell runs (ArbiterProcess+Forecast.swift).
    var forecast = ArbiterForecast()
    /// How many failures the channel had recorded when the current run began.
    private var failuresAtRun = 0
    /// The current run's batch (`ArbiterBatch`).
    package var batch = ArbiterBatch()
    /// The instant of the last message exchanged: where a failure happened.
    package private(set) var lastInstant = SimTime.zero
    /// Said once, the first time a right answer is not in the canonical form
    /// (docs/arbiter-protocol.md): it is parsed, the slow path. Nil while
    /// every answer is canonical; the check costs nothing on that path.
    package internal(set) var notice: String?
    /// How many answer lines were parsed (not the canonical answer foretold, nor a line seen before).
    package private(set) var parsedAnswers = 0
    /// Answer lines seen (with whether their message ended the instant) and what they said.
    private var answers = AnswerCache<Answer>(limit: 65536)
    /// `run` answer lines seen (with whether each of its messages ended its instant) and what they said.
    private var runAnswers = AnswerCache<[Answer]>(limit: 4096)

    /// A process not yet started.
    package init(command: String, timeoutMs: Int) {
        channel = LineChannel(command: command, timeoutMs: timeoutMs, hello: ("protocol", Self.protocolVersion))
    }

    /// The command, run with `/bin/sh -c`.
    package var command: String { channel.command }
    /// How long one answer may take, in milliseconds.
    package var timeoutMs: Int { channel.timeoutMs }
    /// Why the process was given up, if it was (it hung): no later run asks it.
    package var givenUp: ProcessFailure? { channel.givenUp }
    /// Whether this run can still talk to the process.
    package var alive: Bool { channel.alive }

    /// Starts the process and shakes hands; throws why it could not.
    package func start() throws(ProcessFailure) { try channel.start() }

    /// Closes the process's input and ends it (`LineChannel.stop`).
    package func stop() { channel.stop() }

    /// The current check's first failure, if it had one; clears it.
    package func takeFailure() -> RecordedFailure? { channel.takeFailure() }

    /// Records a failure and ends the process.
    func fail(_ what: ProcessFailure) { channel.fail(what) }

    /// A new run: restarts the process if an earlier failure ended it, then
    /// sends the tables. With `forecast`, the reference's messages for the
    /// run (`told`: how the process answered them, sent ahead), or else
    /// the last run's messages when it ran over the same tables and did not
    /// fail, it sends them too, in one `run` message, and reads its answer
    /// (`speculate`): if every instant's answer is the forecast's, the run
    /// is served from them; if one differs, it starts again with the tables
    /// alone and asks instant by instant.
    package func beginRun(
        _ tables: ArbiterTables, forecast messages: [BatchMessage]? = nil,
        told: ArbiterForecast.Speculation? = nil
    ) {
        batch.clear()
        let start = forecast.begin(
            tables, forecast: messages, told: told, lastFailed: channel.failures != failuresAtRun)
        failuresAtRun = channel.failures
        guard channel.restart() else { return }
        var table: [UInt8] = []
        switch start {
        case .servedAhead(let messages):
            // Sent and answered alike with the run before (invariant 7's second run).
            forecast.serve(tables, messages, twin: false)
            return
        case .foretold(let messages, let times, let told):
            Self.encode(tables, into: &table)
            table.append(0x0A)
            switch told ?? speculate(table, messages, times: times) {
            case .failed: return
            case .answered(let twice):
                forecast.serve(tables, messages, twin: twice)
                return
            case .parted: break
            }
        case .asked:
            Self.encode(tables, into: &table)
            table.append(0x0A)
        }
        forecast.ask(tables)
        channel.transfer(table, lines: 0)
    }

    /// Sends one `instant` message (the pending revisions, `inputs`, the end
    /// if `ends`) and keeps its answer in `batch`; false if the process failed.
    /// A run served from its forecast takes the forecast's message instead.
    @discardableResult
    package func exchange(_ inputs: [ArbiterInput], ends: Bool, at now: SimTime) -> Bool {
        guard alive else { return false }
        lastInstant = now
        let message: BatchMessage
        if forecast.isServed {
            guard let served = forecast.take(at: now, inputs: inputs, ends: ends, revisions: batch.revisions) else {
                fail(.partedFromForecast(at: now))
                return false
            }
            message = served
            batch.revisions.removeAll(keepingCapacity: true)
        } else {
            var asked = BatchMessage(t: now, revisions: batch.revisions, inputs: inputs, ends: ends)
            batch.revisions.removeAll(keepingCapacity: true)
            let what = "the instant at \(now.ms) ms"
            var bytes: [UInt8] = []
            Self.encode(asked, into: &bytes)
            bytes.append(0x0A)
            guard let line = channel.transfer(bytes, lines: 1)?.first,
                let answer = answer(line, inputs: inputs.count, ends: ends, for: what)
            else {
                return false
            }
            asked.each = answer.each
            if ends {
                asked.end = answer.end
                asked.idle = answer.idle
            }
            forecast.record(asked)
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
            guard batch.end == nil else { return fail(.deliveredAfterEnd(input, at: now)) }
            guard exchange([input], ends: false, at: now) else { return }
        }
        guard batch.inputs[batch.next] == input else {
            return fail(.deliveredOther(input, announced: batch.inputs[batch.next], at: now))
        }
        actions.append(contentsOf: batch.answers[batch.next])
        batch.next += 1
    }

    /// The end of the instant: the answer of the message that ended it, or a message of its own.
    package func endInstant(at now: SimTime, into actions: inout [TalkArbiter.Action]) -> Bool? {
        guard alive else { return nil }
        guard batch.next == batch.inputs.count else {
            fail(.endedBeforeDelivering(batch.inputs[batch.next], at: now))
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
            return fail(.announcedBeforeDelivering(at: now))
        }
        exchange(inputs, ends: ends, at: now)
    }

    /// An `instant` answer: each input's actions, the end's and `idle` (empty and false when it did not end the instant).
    package typealias Answer = (each: [[TalkArbiter.Action]], end: [TalkArbiter.Action], idle: Bool)

    /// An answer line read: from `answers` when the same line came before
    /// (a second run's, or a common one), else parsed and kept; nil (and
    /// the failure recorded) if it is not a well formed answer to the message.
    package func answer(_ line: ArraySlice<UInt8>, inputs: Int, ends: Bool, for what: String) -> Answer? {
        var bytes = Array(line)
        bytes.append(ends ? 1 : 0)
        let key = AnswerKey(bytes: bytes)
        if let known = answers[key], known.each.count == inputs { return known }
        parsedAnswers += 1
        guard let object = channel.parse(line), let answer = answer(object, inputs: inputs, ends: ends, for: what)
        else {
            return nil
        }
        answers.keep(answer, for: key)
        return answer
    }

    /// The answers of a `run` answer line, one per instant of `messages`:
    /// from `runAnswers` when the same line came before, else parsed and
    /// kept; nil (and the failure recorded) if it is not a well formed
    /// answer to that run (an `actions` message with as many `instants` as
    /// it had, each a well formed answer to its instant).
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
        guard let object = channel.parse(line) else { return nil }
        let what = "the run of \(counted(messages.count, "instant")) from \(messages.first?.t.ms ?? 0) ms"
        guard object["type"]?.text == "actions", case .array(let items)? = object["instants"]?.kind else {
            fail(.runOutOfTurn(what, object))
            return nil
        }
        guard items.count == messages.count else {
            fail(.runAnswerCount(what, answers: items.count, instants: messages.count, object))
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
