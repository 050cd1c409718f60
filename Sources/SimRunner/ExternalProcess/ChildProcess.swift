import SimRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process group of the arbiter running now (0: none), for the signal
/// handler that kills it when drivesim itself is interrupted.
nonisolated(unsafe) private var runningGroup: pid_t = 0

/// A command run with `/bin/sh -c` in a process group of its own, its
/// standard input, output and error piped to drivesim (each of drivesim's
/// ends non-blocking and close-on-exec).
///
/// The shell need not `exec` the command (dash does not), so the command is
/// the shell's child or deeper: ending the child means killing the whole
/// group (`killpg`), then reaping the shell at once, so nothing the command
/// started outlives drivesim and no zombie is left. An interrupt, a hang-up
/// or a termination of drivesim kills the group too before drivesim dies.
package final class ChildProcess {
    /// The shell's process id, which is also the group's id.
    package let pid: pid_t
    /// Drivesim's ends: the child's standard input, output and error.
    package let input: Int32, output: Int32, errors: Int32
    /// The wait status, once reaped.
    package private(set) var status: Int32?
    /// Whether the group was killed and the descriptors closed.
    private var ended = false
    /// Whether drivesim's end of the child's standard input is still open.
    private var inputOpen = true

    private init(pid: pid_t, input: Int32, output: Int32, errors: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
        self.errors = errors
    }

    /// Starts `command`; why not if it cannot start.
    package static func spawn(_ command: String) -> Result<ChildProcess, ProcessFailure> {
        installSignalHandlers()
        var fds: [Int32] = [-1, -1, -1, -1, -1, -1]
        for k in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard makePipe(&pair) else {
                let code = errno
                for fd in fds where fd >= 0 { close(fd) }
                return .failure(.cannotMakePipe(errno: code))
            }
            fds[2 * k] = pair[0]
            fds[2 * k + 1] = pair[1]
        }
        // The child reads fds[0] and writes fds[3] and fds[5]; drivesim has the other ends.
        let (childIn, toChild, fromChild, childOut, fromErrors, childErr) = (
            fds[0], fds[1], fds[2], fds[3], fds[4], fds[5]
        )
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childIn, 0)
        posix_spawn_file_actions_adddup2(&actions, childOut, 1)
        posix_spawn_file_actions_adddup2(&actions, childErr, 2)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // drivesim ignores SIGPIPE and SIGXFSZ and may block others: the child starts with the defaults.
        var defaults = sigset_t()
        var none = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&none)
        for signal in [SIGPIPE, SIGXFSZ, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sh"), strdup("-c"), strdup(command), nil]
        defer { for arg in argv { free(arg) } }
        var pid = pid_t()
        let code = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environment)
        for fd in [childIn, childOut, childErr] { close(fd) }
        guard code == 0 else {
            for fd in [toChild, fromChild, fromErrors] { close(fd) }
            return .failure(.cannotStartShell(errno: code))
        }
        for fd in [toChild, fromChild, fromErrors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        runningGroup = pid
        return .success(ChildProcess(pid: pid, input: toChild, output: fromChild, errors: fromErrors))
    }

    /// Whether the shell has exited, reaping it if so; never blocks.
    @discardableResult
    package func reap() -> Bool {
        if status != nil { return true }
        var code: Int32 = 0
        let got = waitpid(pid, &code, WNOHANG)
        if got == pid {
            status = code
            return true
        }
        if got < 0, errno == ECHILD {
            status = 0
            return true
        }
        return false
    }

    /// Waits up to `milliseconds` for the shell to exit; whether it did.
    package func awaitExit(milliseconds: Int) -> Bool {
        for _ in 0..<max(1, milliseconds / 5) {
            if reap() { return true }
            usleep(5000)
        }
        return reap()
    }

    /// How it ended, in words: `exit status 7`, `killed by signal 9`, or `still running`.
    package var exitDescription: String { status.map(Self.describe(status:)) ?? "still running" }

    /// A wait status in words: `exit status 7` or `killed by signal 9`.
    package static func describe(status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exit status \((status >> 8) & 0xFF)" }
        return "killed by signal \(signal)"
    }

    /// Kills the whole group, reaps the shell, reads what is left of its
    /// standard error into `tail` (its last `keep` bytes) and closes drivesim's ends.
    /// With `grace` (a normal end), its input is closed first and it has
    /// `grace` milliseconds to exit on its own.
    package func end(grace: Int = 0, tail: inout [UInt8], keep: Int) {
        guard !ended else { return }
        ended = true
        if grace > 0 {
            closeInput()
            _ = awaitExit(milliseconds: grace)
        }
        kill(-pid, SIGKILL)  // killpg: the group, grandchildren included
        if status == nil {
            var code: Int32 = 0
            while waitpid(pid, &code, 0) < 0, errno == EINTR {}
            status = code
        }
        if runningGroup == pid { runningGroup = 0 }
        drain(errors, into: &tail, keep: keep)
        closeInput()
        close(output)
        close(errors)
    }

    /// Closes drivesim's end of the child's standard input (the end of its
    /// input), once: `end` does not close it again.
    package func closeInput() {
        guard inputOpen else { return }
        inputOpen = false
        close(input)
    }

    /// Reads what `fd` holds now (non-blocking) onto `tail`, keeping its last `keep` bytes; false at end of file.
    @discardableResult
    package func drain(_ fd: Int32, into tail: inout [UInt8], keep: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                tail.append(contentsOf: chunk[..<n])
                if tail.count > keep { tail.removeFirst(tail.count - keep) }
                continue
            }
            if n < 0, errno == EINTR { continue }
            return n < 0  // EAGAIN: open, nothing more now; 0: closed
        }
    }

    /// A pipe whose two ends are close-on-exec from the start where the
    /// system allows it (`pipe2`), so no other child inherits them.
    private static func makePipe(_ pair: inout [Int32]) -> Bool {
        if let pipe2 = pipe2 { return pipe2(&pair, O_CLOEXEC) == 0 }
        guard pipe(&pair) == 0 else { return false }
        for fd in pair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// `pipe2`, where the C library has it (glibc, musl; not Darwin), looked
    /// up by name as the Glibc module leaves it out.
    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// The environment the child inherits: drivesim's own.
    package static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Glibc)
            return environ
        #else
            return _NSGetEnviron().pointee
        #endif
    }

    /// Installed once: SIGINT, SIGTERM and SIGHUP kill the running
    /// arbiter's group, then take their default course. A signal drivesim
    /// was started ignoring (`nohup`) stays ignored.
    private static let installedSignalHandlers: Bool = {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number) { received in
                if runningGroup > 0 { kill(-runningGroup, SIGKILL) }
                signal(received, SIG_DFL)
                raise(received)
            }
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { signal(number, SIG_IGN) }
        }
        return true
    }()

    private static func installSignalHandlers() { _ = installedSignalHandlers }
}

/// `command` as a replay line gives it, so that it runs as printed from any
/// folder (a reproducer's): when one of its words is a relative path to
/// something that exists from the working folder (`Examples/guidance.py`),
/// it is run from there (`cd '/work/app' && python3 Examples/guidance.py`);
/// otherwise as it is.
package func replayable(_ command: String) -> String {
    let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    let relative = words.contains { word in
        !word.hasPrefix("/") && !word.hasPrefix("-") && word.contains("/") && access(word, F_OK) == 0
    }
    var folder = [CChar](repeating: 0, count: 4096)
    guard relative, getcwd(&folder, folder.count) != nil else { return command }
    let cwd = String(decoding: folder.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return "cd \(shellQuoted(cwd)) && \(command)"
}
