import ExternalProcess
import RouteImport
import ScenarioFormat
import SimClock
import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything that makes the command line unusable: exit code 2. Commands
/// throw it; `Drivesim.main` alone turns it into its message (`MessageInfo`).
/// Tests compare these cases, never the prose.
package enum DrivesimError: Error, Sendable, Equatable {
    /// The command line cannot be used.
    case usage(UsageProblem)
    /// A file (or folder) that cannot be read.
    case unreadable(file: String, FileProblem)
    /// A scenario file that reads but does not decode.
    case invalidScenario(ScenarioError)
    /// The scenario `file`'s golden timeline cannot be used.
    case golden(file: String, GoldenProblem)
    /// A GPX file that is not a usable track.
    case gpx(file: String, GPXTrack.Problem)
    /// A route response (or GeoJSON line) that cannot be imported: the file, the path inside it, the reason.
    case importProblem(file: String, ImportProblem)
    /// A route response refused as read in `format` (told by its structure or named by `--service`): the problem and the format.
    case importRefused(file: String, ImportProblem, format: RouteFormat)
    /// A file (or standard output, `path` `Console.standardOutputName`) that cannot be written.
    case cannotWrite(path: String, WriteProblem)
    /// An action that must not happen on CI (`CI=true`).
    case refusedOnCI(CIRefusal)
    /// An `--arbiter` command that cannot be used: it does not start, exits at once, or speaks another protocol.
    case arbiterProcess(command: String, ProcessFailure)
    /// `--guidance`'s process could not be started or refused the hello.
    case guidanceProcess(command: String, ProcessFailure)
    /// `--voice`'s command failed on a phrase: it did not start, failed, timed out or wrote no usable WAV.
    case voiceProcess(command: String, reason: String)
}

/// What is wrong with a command line.
package enum UsageProblem: Sendable, Equatable {
    /// A first word that is no command.
    case unknownCommand(String, suggestion: String?)
    /// `drivesim help NAME` for a NAME that is not a command.
    case unknownHelpTopic(String, suggestion: String?)
    /// An option the command does not have.
    case unknownOption(String, suggestion: String?)
    /// An option given last, without its value.
    case missingValue(option: String)
    /// A required option not given at all (`import-route` without `--language`), with the values it takes.
    case missingOption(option: String, allowed: [String])
    /// `--flag=value` for a flag.
    case flagTakesNoValue(flag: String)
    /// A required positional argument (`scenario file`, `path`, `GPX file`).
    case missingArgument(String)
    /// More positional arguments than the command takes.
    case tooManyArguments(command: String, takes: String)
    /// An option given an empty value (`--arbiter ""`).
    case emptyValue(option: String)
    /// An option's value is not a whole number in `from...to`.
    case notAWholeNumber(option: String, value: String, from: String, to: String)
    /// Not a bare JSON number (`' 5'`, `soon`).
    case notSeconds(option: String, value: String)
    /// A handoff's sending that is neither seconds nor `after:` a stretch's id.
    case notSending(option: String, value: String)
    /// Seconds below zero.
    case negativeSeconds(option: String, value: String)
    /// Seconds finer than a millisecond.
    case notWholeMilliseconds(option: String, value: String)
    /// Seconds beyond the format's limit.
    case tooManySeconds(option: String, value: String, limit: Int)
    /// `--from` not before `--to`.
    case reversedWindow(from: String, to: String)
    /// A value that is not one of a fixed set (`--format`, `--mutant`, `--only`).
    case unknownValue(option: String, value: String, allowed: [String], suggestion: String?)
    /// `--shard` not `i/n` with 1 ≤ i ≤ n ≤ 100,000.
    case badShard(String)
    /// `--time-limit` not seconds above 0 and at most 86,400.
    case badTimeLimit(String)
    /// A flag given without the option it modifies: `--timeline-only` without `--arbiter`.
    case needsOption(flag: String, option: String)
    /// Two options that cannot be given together (`--route-from-track` and `--road`).
    case excludes(String, String)
    /// `check` found no scenario file under its paths.
    case noScenarioFiles([String])
    /// `--format wav` to standard output on a terminal: binary noise in the terminal.
    case soundToTerminal
    /// A WAV longer than RIFF's 32-bit sizes hold (`WAVFile.maxMilliseconds`), both in milliseconds.
    case soundTooLong(ms: Int64, limitMs: Int64)
    /// `--audio embed` for a window longer than a page embeds (`Timeline.embeddedAudioLimitMs`), both in milliseconds.
    case audioTooLongToEmbed(ms: Int64, limitMs: Int64)
}

/// Why a file or folder cannot be read (from `errno`, or found before reading).
package enum FileProblem: Error, Sendable, Equatable {
    /// ENOENT, ENOTDIR: nothing by that name.
    case missing
    /// A folder where a file was expected.
    case isFolder
    /// EACCES, EPERM.
    case permissionDenied
    /// ELOOP, or a folder that contains itself through a symbolic link.
    case symlinkLoop
    /// Larger than the limit, in bytes; refused before reading.
    case tooLarge(limit: Int)
    /// Any other `errno`.
    case other(errno: Int32)

    /// The problem an `errno` of `open`, `stat`, `read` or `opendir` means.
    package init(errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self = .missing
        case EISDIR: self = .isFolder
        case EACCES, EPERM: self = .permissionDenied
        case ELOOP: self = .symlinkLoop
        default: self = .other(errno: code)
        }
    }
}

/// Why a file or standard output cannot be written.
package enum WriteProblem: Error, Sendable, Equatable {
    /// ENOSPC, EDQUOT.
    case noSpace
    /// EACCES, EPERM.
    case permissionDenied
    /// EROFS.
    case readOnly
    /// ENOENT: the folder it goes in does not exist.
    case noSuchFolder
    /// ENOTDIR: a part of the path is not a folder.
    case notADirectory
    /// A folder was wanted (`fuzz --out`) and the path is a file.
    case notAFolder
    /// The path is a folder.
    case isFolder
    /// ELOOP.
    case symlinkLoop
    /// EBADF: the descriptor is closed (standard output closed by the shell).
    case closed
    /// EPIPE: the reader went away.
    case brokenPipe
    /// EFBIG: beyond the file-size limit (`ulimit -f`) or the file system's.
    case tooLarge
    /// `--out ""`.
    case emptyPath
    /// A regular file whose mode bits (`mode`, the permission bits) do not
    /// let `writer`, the class this process is in, write it (`chmod a-w`):
    /// not replaced, as the shell's `>` would not write it.
    case readOnlyFile(mode: UInt32, for: Writer)
    /// The folder exists but refuses a new file in it (ENOENT there: `/proc`).
    case cannotCreateIn(folder: String)
    /// The same file as the command's input `file`: writing would replace it.
    case isAnInput(String)
    /// Any other `errno`.
    case other(errno: Int32)

    /// Whose mode bits decide whether a file may be written: the owner's,
    /// the group's or the others' (`FileSystem.refusal`).
    package enum Writer: String, Sendable, Equatable {
        case owner, group, others
    }

    /// The problem an `errno` of `open`, `write`, `close` or `rename` means.
    package init(errno code: Int32) {
        switch code {
        case ENOSPC, EDQUOT: self = .noSpace
        case EACCES, EPERM: self = .permissionDenied
        case EROFS: self = .readOnly
        case ENOENT: self = .noSuchFolder
        case ENOTDIR: self = .notADirectory
        case EISDIR: self = .isFolder
        case ELOOP: self = .symlinkLoop
        case EBADF: self = .closed
        case EPIPE: self = .brokenPipe
        case EFBIG: self = .tooLarge
        default: self = .other(errno: code)
        }
    }
}

/// Why a scenario's `golden` cannot be used.
package enum GoldenProblem: Sendable, Equatable {
    /// An absolute path; a golden timeline lives beside or below its scenario.
    case absolute(String)
    /// A `..` component: it would leave the scenario's folder.
    case leavesTheFolder(String)
    /// It does not end in `.timeline.json`, so it could be (or become) a scenario.
    case notATimelineName(String)
    /// The file there decodes as a scenario; `--record` refuses to overwrite it.
    case isAScenario(path: String)
    /// The golden file at `path` is the input `input` (the same file); `--record` refuses to replace it.
    case isAnInput(path: String, input: String)
    /// The golden file at `path` does not exist.
    case missing(path: String)
    /// The golden file at `path` cannot be read.
    case unreadable(path: String, FileProblem)
    /// The golden file at `path` is not a timeline.
    case malformed(path: String, Golden.Failure)
}

/// What `CI=true` refuses.
package enum CIRefusal: Sendable, Equatable {
    /// `check --record`: CI checks golden timelines, never writes them.
    case recordGoldens
}

/// `Did you mean 'x'?` after a space, or nothing.
func hint(_ suggestion: String?) -> String { suggestion.map { " Did you mean '\($0)'?" } ?? "" }

extension DrivesimError {
    /// The one-line reason, without `Error: `.
    package var reason: String {
        switch self {
        case .usage(let problem): return problem.reason
        case .unreadable(let file, let problem): return "\(escapedForTerminal(file)): \(problem.reason)"
        case .invalidScenario(let error): return error.description
        case .golden(let file, let problem): return "\(file): golden: \(problem.reason(scenario: file))"
        case .gpx(let file, let problem): return escapedForTerminal("\(file): \(problem)")
        case .importProblem(let file, let problem):
            // What the response says (a service's message, a type) is escaped: one line, no control sequence.
            return escapedForTerminal(
                "\(file): \(problem.path.isEmpty ? "top level" : problem.path): \(problem.reason.words)")
        case .importRefused(let file, let problem, let format):
            return escapedForTerminal(
                "\(file): \(problem.path.isEmpty ? "top level" : problem.path): \(problem.reason.words) (read as \(format.title))"
            )
        case .cannotWrite(let path, let problem):
            return
                "cannot write \(path == Console.standardOutputName ? path : "'\(escapedForTerminal(path))'"): \(problem.reason)"
        case .refusedOnCI(.recordGoldens):
            return "refusing to record golden timelines because CI=true: CI must check goldens, never write them. "
                + "Record them on your machine with 'drivesim check --record <path>', review the diff and commit it."
        case .arbiterProcess(let command, let failure):
            return "the arbiter '\(escapedForTerminal(command))' cannot be used: \(failure.reason)"
        case .guidanceProcess(let command, let failure):
            return "the guidance '\(escapedForTerminal(command))' cannot be used: \(failure.reason)"
        case .voiceProcess(let command, let reason):
            return "the voice '\(escapedForTerminal(command))' cannot be used: \(escapedForTerminal(reason))"
        }
    }
}

extension UsageProblem {
    /// The reason in words.
    package var reason: String {
        switch self {
        case .unknownCommand(let name, let suggestion): return "unknown command '\(name)'.\(hint(suggestion))"
        case .unknownHelpTopic(let name, let suggestion):
            return "no help for '\(name)': not a command.\(hint(suggestion))"
        case .unknownOption(let name, let suggestion): return "unknown option '\(name)'.\(hint(suggestion))"
        case .missingValue(let option): return "missing value for '\(option)'"
        case .missingOption(let option, let allowed):
            return "missing option '\(option)', which is required; give one of: \(allowed.joined(separator: ", "))"
        case .flagTakesNoValue(let flag): return "'\(flag)' takes no value"
        case .missingArgument(let what): return "missing \(what)"
        case .emptyValue(let option): return "'\(option)' must not be empty"
        case .tooManyArguments(let command, let takes): return "\(command) takes \(takes)"
        case .notAWholeNumber(let option, let value, let from, let to):
            return "'\(option)' must be a whole number from \(from) to \(to), not '\(value)'"
        case .notSeconds(let option, let value): return "'\(option)' takes seconds, like 12.5, not '\(value)'"
        case .notSending(let option, let value):
            return
                "'\(option)' takes seconds, like 12.5, or the stretch Pippa sends it after, like after:s2, not '\(value)'"
        case .negativeSeconds(let option, let value): return "'\(option)' must not be negative, not '\(value)'"
        case .notWholeMilliseconds(let option, let value):
            return "'\(option)' must be seconds to a whole millisecond (like 12.5), not '\(value)'"
        case .tooManySeconds(let option, let value, let limit):
            return "'\(option)' must be at most \(limit) seconds, not '\(value)'"
        case .reversedWindow(let from, let to):
            return "'--from' (\(from)) must be before '--to' (\(to)); swap them or widen the window"
        case .unknownValue(let option, let value, let allowed, let suggestion):
            let what = option == "--only" ? "name '\(value)' in --only" : "\(option.drop { $0 == "-" }) '\(value)'"
            return "unknown \(what); use one of: \(allowed.joined(separator: ", ")).\(hint(suggestion))"
        case .badShard(let text): return "'--shard' must be i/n with 1 ≤ i ≤ n ≤ 100,000, like 2/4, not '\(text)'"
        case .badTimeLimit(let text):
            return "'--time-limit' must be a number of seconds above 0 and at most 86,400 (24 h), not '\(text)'"
        case .needsOption(let flag, let option): return "'\(flag)' applies only with '\(option)'"
        case .excludes(let a, let b): return "'\(a)' and '\(b)' cannot be given together"
        case .noScenarioFiles(let paths): return "no scenario files under \(paths.joined(separator: " "))"
        case .soundToTerminal:
            return
                "'--format wav' writes sound, not text: give '--out FILE.wav', or redirect standard output to a file or a player"
        case .soundTooLong(let ms, let limit):
            // Exact to the millisecond: a value just over the limit is never rounded onto it.
            return
                "the WAV would last \(Matcher.seconds(SimTime(ms: ms))), longer than a WAV file holds (\(Matcher.seconds(SimTime(ms: limit))) at 16 kHz, two channels); "
                + "choose a window of at most that with '--from' and '--to'"
        case .audioTooLongToEmbed(let ms, let limit):
            return
                "'--audio embed' holds at most \(Matcher.seconds(SimTime(ms: limit))) of sound and this page shows \(Matcher.seconds(SimTime(ms: ms))): "
                + "choose a window with '--from' and '--to', or write the WAV with '--format wav --out drive.wav' and give '--audio drive.wav'"
        }
    }
}

extension FileProblem {
    /// The reason in words.
    package var reason: String {
        switch self {
        case .missing: return "no such file"
        case .isFolder: return "is a folder, not a file"
        case .permissionDenied: return "cannot be read: permission denied"
        case .symlinkLoop: return "cannot be read: a loop of symbolic links"
        case .tooLarge(let limit): return "is larger than the limit of \(limit / (1 << 20)) MiB; refused before reading"
        case .other(let code): return "cannot be read: \(String(cString: strerror(code)))"
        }
    }
}

extension WriteProblem {
    /// The reason in words.
    package var reason: String {
        switch self {
        case .noSpace: return "no space left on the device"
        case .permissionDenied: return "permission denied"
        case .readOnly: return "the file system is read-only"
        case .noSuchFolder: return "its folder does not exist"
        case .notADirectory: return "a part of its path is not a folder"
        case .notAFolder: return "it is a file, not a folder"
        case .isFolder: return "it is a folder"
        case .symlinkLoop: return "a loop of symbolic links"
        case .closed: return "it is closed"
        case .brokenPipe: return "the reader closed the pipe"
        case .tooLarge: return "the file would exceed the file-size limit (ulimit -f, or the file system's)"
        case .emptyPath: return "the path is empty"
        case .readOnlyFile(let mode, let writer):
            let who =
                switch writer {
                case .owner: "you own it"
                case .group: "you are in its group"
                case .others: "you are neither its owner nor in its group"
                }
            let octal = String(mode, radix: 8)
            return
                "its mode 0\(String(repeating: "0", count: max(0, 3 - octal.count)) + octal) does not let you write it (\(who)); not replaced, as the shell's '>' would refuse"
        case .cannotCreateIn(let folder): return "its folder '\(folder)' does not accept new files"
        case .isAnInput(let file):
            return "it is the input '\(file)' (the same file); refusing to replace it, write elsewhere"
        case .other(let code): return String(cString: strerror(code))
        }
    }
}

extension GoldenProblem {
    /// The reason in words; `scenario` is the scenario file, for the advice.
    func reason(scenario file: String) -> String {
        switch self {
        case .absolute(let golden):
            return
                "'\(golden)' is an absolute path; a golden timeline is named relative to its scenario, beside or below it"
        case .leavesTheFolder(let golden):
            return "'\(golden)' contains '..'; a golden timeline lives beside or below its scenario"
        case .notATimelineName(let golden):
            return "'\(golden)' does not end in '.timeline.json'; golden timelines are named NAME.timeline.json"
        case .isAScenario(let path):
            return "'\(path)' is a scenario file; refusing to overwrite it with a timeline"
        case .isAnInput(let path, let input):
            return "'\(path)' is the input '\(input)' (the same file); refusing to overwrite it with a timeline"
        case .missing(let path):
            return "the golden timeline '\(path)' is missing; run 'drivesim check --record \(file)' to write it"
        case .unreadable(let path, let problem):
            return "the golden timeline '\(path)' \(problem.reason)"
        case .malformed(let path, let failure):
            let why: String
            switch failure {
            case .notJSON(let line, let column): why = "is not JSON (line \(line), column \(column))"
            case .notATimeline(let at, let reason):
                why = "is not a timeline (\(at.isEmpty ? "top level" : at): \(reason))"
            }
            return
                "the golden timeline '\(path)' \(why); fix it, or run 'drivesim check --record \(file)' to write it again"
        }
    }
}
