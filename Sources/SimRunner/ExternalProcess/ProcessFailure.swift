import Guidance
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong with a process in another process, an arbiter's or a
/// guidance's, with what it said: worded once, in `reason`.
package enum ProcessFailure: Error, Equatable, CustomStringConvertible {
    // Starting it.

    /// No pipe to the process could be made (`errno`).
    case cannotMakePipe(errno: Int32)
    /// `/bin/sh` could not be spawned (`posix_spawn`'s error number).
    case cannotStartShell(errno: Int32)
    /// The hello went unanswered: the exchange's failure (it exited, timed out, printed garbage).
    indirect case noAnswer(RecordedFailure?)
    /// It answered the hello with something else (a hello without this key).
    case notAHello(key: String)
    /// It speaks another protocol version than `expected` (of the hello's `key`), or than any from `oldest`.
    case otherVersion(Int64, expected: Int, oldest: Int, key: String)
    /// Its hello has the key, but its value (the JSON as written: `"3"`,
    /// `3.5`, `null`, `1e30`) is no whole number, so no supported version.
    case notAVersion(String, expected: Int, oldest: Int, key: String)
    /// A run not asked: the process was given up earlier, for `reason`.
    indirect case givenUpEarlier(ProcessFailure)

    // The exchange (`LineChannel.transfer`).

    /// `poll` failed.
    case cannotPoll
    /// It exited (its wait status) before answering.
    case exited(status: Int32)
    /// It stopped reading its input, still running.
    case stoppedReading
    /// It closed its output, still running.
    case closedOutput
    /// It wrote an answer line longer than `LineChannel.answerLimit`.
    case lineTooLong
    /// It did not answer within its timeout, in milliseconds.
    case timedOut(ms: Int)

    // Its lines, each to be a JSON object.

    /// An object with a key twice (at `path`, when not the top level).
    case duplicateKey(String, path: String, line: [UInt8])
    /// JSON nested deeper than `JSONParser.maxDepth`.
    case tooDeep(line: [UInt8])
    /// Not JSON, or JSON that is not an object.
    case notAnObject(line: [UInt8])

    // An arbiter's answers, to the message `what` names.

    /// A `run` message answered with no `actions` message with `instants`.
    case runOutOfTurn(String, JSONValue)
    /// A `run` message answered with `answers` instants where it had `instants`.
    case runAnswerCount(String, answers: Int, instants: Int, JSONValue)
    /// An `instant` message answered with no `actions` message with `each`.
    case outOfTurn(String, JSONValue)
    /// A run's instant answered with no object with `each`.
    case notAnInstantAnswer(String, JSONValue)
    /// `lists` action lists for `inputs` inputs.
    case actionListCount(String, lists: Int, inputs: Int, JSONValue)
    /// An answer to a message that ended the instant without `end` and `idle`.
    case noEnd(String, JSONValue)
    /// An action list that is not an array.
    case actionListNotArray(String, JSONValue)
    /// An action whose member `key` is a whole number beyond a 64-bit integer.
    case integerTooLarge(String, key: String, JSONValue)
    /// An action naming a rule it cannot carry.
    case unfitRule(String, ArbiterProcess.UnfitRule, JSONValue)
    /// Something that is no action drivesim knows.
    case unknownAction(String, JSONValue)

    // drivesim's own batching, out of step with its process (a drivesim bug).

    /// A run served from a forecast parted from it at `t`.
    case partedFromForecast(at: SimTime)
    /// An input delivered after the message that ended the instant.
    case deliveredAfterEnd(ArbiterInput, at: SimTime)
    /// An input delivered where the batch announced another.
    case deliveredOther(ArbiterInput, announced: ArbiterInput, at: SimTime)
    /// The instant ended before an announced input was delivered.
    case endedBeforeDelivering(ArbiterInput, at: SimTime)
    /// Inputs announced before the ones announced earlier were delivered.
    case announcedBeforeDelivering(at: SimTime)

    // A guidance's answers.

    /// The span from `from` answered with what cannot be spoken.
    case span(from: SimTime, ExternalGuidance.Problem)
    /// The switching question at `at` answered with what cannot be spoken.
    case switching(at: SimTime, ExternalGuidance.Problem)
    /// The unannounced question for a maneuver answered with another message.
    case unannouncedOther(maneuver: Int)
    /// The unannounced question for a maneuver answered with another reason.
    case unannouncedReason(maneuver: Int)

    /// In words, for the one-line report.
    package var reason: String {
        switch self {
        case .cannotMakePipe(let code): return "cannot make a pipe: \(String(cString: strerror(code)))"
        case .cannotStartShell(let code): return "cannot start /bin/sh: \(String(cString: strerror(code)))"
        case .noAnswer(let failure): return failure?.description ?? ""
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
        case .givenUpEarlier(let reason):
            return "not asked: the process was given up when \(reason.reason) in an earlier run"
        case .cannotPoll: return "cannot read its output"
        case .exited(let status): return "it exited before answering (\(ChildProcess.describe(status: status)))"
        case .stoppedReading: return "it stopped reading its input (still running)"
        case .closedOutput: return "it closed its output (still running)"
        case .lineTooLong: return "it wrote an answer line longer than \(LineChannel.answerLimit >> 20) MiB, the limit"
        case .timedOut(let ms): return "it did not answer within \(LineChannel.describe(milliseconds: ms))"
        case .duplicateKey(let key, let path, let line):
            return "it printed an object with the key '\(key)' twice\(path.isEmpty ? "" : " (at \(path))"): "
                + Self.excerpt(line)
        case .tooDeep(let line):
            return "it printed JSON nested deeper than \(JSONParser.maxDepth) levels: \(Self.excerpt(line))"
        case .notAnObject(let line): return "it printed something that is not a JSON object: \(Self.excerpt(line))"
        case .runOutOfTurn(let what, let object):
            return "it answered \(what) out of turn (no 'actions' message with 'instants'): \(Self.describe(object))"
        case .runAnswerCount(let what, let answers, let instants, let object):
            return "it answered \(what) with \(counted(answers, "answer")) for \(counted(instants, "instant")): "
                + Self.describe(object)
        case .outOfTurn(let what, let answer):
            return "it answered \(what) out of turn (no 'actions' message with 'each'): \(Self.describe(answer))"
        case .notAnInstantAnswer(let what, let answer):
            return "it answered \(what) with something else than an object with 'each': \(Self.describe(answer))"
        case .actionListCount(let what, let lists, let inputs, let answer):
            return "it answered \(what) with \(counted(lists, "action list")) for \(counted(inputs, "input")): "
                + Self.describe(answer)
        case .noEnd(let what, let answer):
            return "it answered \(what) without the end of the instant ('end' and 'idle'): \(Self.describe(answer))"
        case .actionListNotArray(let what, let list):
            return "it answered \(what) with an action list that is not an array: \(Self.describe(list))"
        case .integerTooLarge(let what, let key, let item):
            return
                "it answered \(what) with an action whose '\(key)' is beyond a 64-bit integer: \(Self.describe(item))"
        case .unfitRule(let what, let unfit, let item):
            let fits = unfit.fits.map(\.rawValue).joined(separator: " or ")
            return "it answered \(what) with a \(unfit.action) whose rule '\(unfit.rule.rawValue)' is not one it "
                + "can carry (\(fits)): \(Self.describe(item))"
        case .unknownAction(let what, let item):
            return "it answered \(what) with an action drivesim does not know: \(Self.describe(item))"
        case .partedFromForecast(let t):
            return "drivesim's run parted at \(t.ms) ms from the run it had foretold and sent "
                + "(a drivesim bug: its run is not a function of the answers)"
        case .deliveredAfterEnd(let input, let t):
            return "drivesim delivered \(ArbiterProcess.encode(input)) at \(t.ms) ms after the message that ended "
                + "the instant (its batching did not foresee the input)"
        case .deliveredOther(let input, let announced, let t):
            return "drivesim delivered \(ArbiterProcess.encode(input)) at \(t.ms) ms where its batch announced "
                + ArbiterProcess.encode(announced)
        case .endedBeforeDelivering(let input, let t):
            return "drivesim ended the instant at \(t.ms) ms before delivering \(ArbiterProcess.encode(input)) "
                + "that its batch announced"
        case .announcedBeforeDelivering(let t):
            return "drivesim announced inputs at \(t.ms) ms before delivering the ones it had announced"
        case .span(let from, let problem): return "it answered the span from \(from.ms) ms: \(problem.reason)"
        case .switching(let t, let problem):
            return "it answered the switching question at \(t.ms) ms: \(problem.reason)"
        case .unannouncedOther(let m):
            return "it answered the unannounced question for maneuver \(m) with something else"
        case .unannouncedReason(let m):
            return "it answered the unannounced question for maneuver \(m): reason: expected \"late\", \"then\" or null"
        }
    }

    package var description: String { reason }

    /// A line's first 120 bytes, quoted, `…` when it is longer.
    package static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return "'" + text + (line.count > 120 ? "…'" : "'")
    }

    /// A JSON value as written, its first 160 characters, `…` when it is longer.
    package static func describe(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }
}

/// A failure as recorded: what went wrong and how the process's standard
/// error ended then; `description` is the one line reported (control
/// characters escaped).
package struct RecordedFailure: Sendable, Equatable, CustomStringConvertible {
    package let failure: ProcessFailure
    /// The last bytes of standard error, trailing newlines dropped; empty if none.
    package let standardError: String

    package var description: String {
        escapedForTerminal(
            standardError.isEmpty ? failure.reason : failure.reason + "; its standard error ends: " + standardError)
    }
}
