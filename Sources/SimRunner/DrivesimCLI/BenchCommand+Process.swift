import ExternalProcess
import Review

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a user runs, measured as a user runs it: `drivesim run FILE --format F`
/// as a process of its own (start-up, decoding, both runs, every check and
/// the rendering), its CPU time read from the kernel when it is reaped.
extension BenchCommand {
    /// This process's executable when it is the `drivesim` command (not a
    /// test runner that links the CLI), so that it can run itself.
    static func drivesimExecutable() -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard n > 0 else { return nil }
            let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            let path = CommandLine.arguments.first ?? ""
        #endif
        return path.hasSuffix("/drivesim") && access(path, X_OK) == 0 ? path : nil
    }

    /// User plus system CPU seconds of one run of `executable` with
    /// `arguments`, its output and errors to /dev/null; nil if it could not
    /// start or did not exit with 0.
    static func processCPUSeconds(_ executable: String, _ arguments: [String]) -> Double? {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid = pid_t()
        guard posix_spawn(&pid, executable, &actions, nil, argv, ChildProcess.environment) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        guard status == 0 else { return nil }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// `run FILE --format F` as a whole process on each drive, per format:
    /// CPU ms, best of `repetitions`, and per hour against the 1-hour drive.
    /// The start-up (`drivesim --version`) is shown beside it: it is part of
    /// the 1-hour figure, so a ratio under 1 is the start-up shared out.
    static func benchProcesses(hours: [Int], drives: [[UInt8]], repetitions: Int, console: inout Console) {
        guard let drivesim = drivesimExecutable() else {
            console.out("  the whole process: not measured (this process is not the drivesim command)\n")
            return
        }
        guard let folder = CppHoldModel.temporaryFolder() else {
            console.out("  the whole process: not measured (cannot make a temporary folder)\n")
            return
        }
        let files = hours.map { folder + "/drive-\($0)h.json" }
        defer {
            for file in files { unlink(file) }
            rmdir(folder)
        }
        for (file, bytes) in zip(files, drives) {
            guard let handle = fopen(file, "wx"), fwrite(bytes, 1, bytes.count, handle) == bytes.count,
                fclose(handle) == 0
            else {
                console.out("  the whole process: not measured (cannot write \(file))\n")
                return
            }
        }
        func best(_ arguments: [String]) -> Double? {
            var best: Double? = nil
            for _ in 0..<repetitions {
                guard let s = processCPUSeconds(drivesim, arguments) else { return nil }
                best = min(best ?? s, s)
            }
            return best
        }
        let startUp = best(["--version"]).map { format1($0 * 1000) + " ms" } ?? "failed"
        console.out(
            "the whole process, 'drivesim run FILE --format F' on the same drives, CPU ms, best of \(repetitions) (start-up alone: \(startUp)):\n"
        )
        console.out(growthHeader(hours))
        for format in TimelineFormat.allCases where !format.drawsOnlyTheRoad && !format.isSound {
            console.out(
                growthRow(
                    format.rawValue, hours: hours,
                    seconds: files.map { best(["run", $0, "--format", format.rawValue]) }))
        }
    }
}
