import Fuzzing
import Guidance
import Review
import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `drivesim bench`: throughput of the event queue and of a whole generated
/// drive, and what `run` does (decoding, the verdict, each rendering) on
/// drives of growing length, measured in this process. Meant for a release build.
enum BenchCommand: Command {
    static let name = "bench"
    static let abstract = "Measure the event queue and a generated 2-hour drive (use a release build)."
    static let usage = "USAGE: drivesim bench [--quick] [--only queue|drive|render|growth|fuzz|road]"
    static let options: [Option] = [
        .flag("--quick", help: "Fewer repetitions and drives of 1, 2 and 4 hours, for a smoke test."),
        Option(
            "--only", .oneOf(parts), "<part>",
            help: """
                Measure only the queue, the drive, the rendering, the growth with the
                drive's length, the fuzzer or the road drive.
                """),
    ]
    /// The parts `--only` measures.
    static let parts = ["queue", "drive", "render", "growth", "fuzz", "road"]
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        Measures (a) the event queue alone as the classic hold model (pop the earliest,
        push one later) with 16, 1,000 and 100,000 pending events, beside the same loop
        over C++'s std::priority_queue (Benchmarks/queue_hold.cpp, compiled with the
        first of c++, g++ or clang++ on the PATH), and (b) a generated
        2-hour drive (2,000 guidance lines, 2,000 replies with 6,000 stretches, 300
        utterances) simulated in memory, (c) rendering that drive's timeline in every
        format of 'run --format', (d) what 'run' does on generated talk drives of 1, 2,
        8 and 24 hours: decoding the file, the whole verdict (both runs and every check)
        and each rendering, in CPU time, with how each grows per hour against the
        1-hour drive, (e) fuzzing and shrinking, and (f) a generated 2-hour road
        drive (about 100 maneuvers, a fix every second, talk throughout), planned and
        simulated, in CPU time per run. Reports events per second, render times and
        peak memory. Build with 'swift build -c release' and run
        .build/release/drivesim bench.

        OPTIONS:
        \(Option.help(options))

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: options)
        guard args.positional.isEmpty else {
            throw DrivesimError.usage(.tooManyArguments(command: name, takes: "no arguments"))
        }
        let only = args.value("--only")
        let scale = args.has("--quick") ? 20 : 1
        #if DEBUG
            console.err("warning: this is a debug build; build with -c release for real figures\n")
        #endif
        if only == nil || only == "queue" { benchQueue(scale: scale, console: &console) }
        if only == nil || only == "drive" { benchDrive(scale: scale, console: &console) }
        if only == nil || only == "render" { benchRender(scale: scale, console: &console) }
        if only == nil || only == "growth" { benchGrowth(quick: scale > 1, console: &console) }
        if only == nil || only == "fuzz" { benchFuzz(scale: scale, console: &console) }
        if only == nil || only == "road" { benchRoad(scale: scale, console: &console) }
        console.out("peak memory: \(peakMemoryMiB().map { format1($0) + " MiB" } ?? "unknown")\n")
        return 0
    }

    static func benchQueue(scale: Int, console: inout Console) {
        console.out("event queue, hold model (pop the earliest, push one later), against C++ std::priority_queue:\n")
        let cpp = CppHoldModel.build()
        if case .failure(let reason) = cpp { console.out("  C++: \(reason); its rates are not measured\n") }
        for pending in [16, 1_000, 100_000] {
            let operations = (pending == 100_000 ? 5_000_000 : 10_000_000) / scale
            let (seconds, checksum) = holdModel(pending: pending, operations: operations)
            let swiftRate = Double(operations) / seconds
            var line = "  \(pad(String(pending), 7)) pending  Swift \(rate(swiftRate)) events/s"
            if case .success(let binary) = cpp {
                if let (cppSeconds, cppChecksum) = binary.run(pending: pending, operations: operations) {
                    let cppRate = Double(operations) / cppSeconds
                    line += ", C++ \(rate(cppRate)) events/s, ratio \(format2(swiftRate / cppRate))"
                    if cppChecksum != checksum { line += " (C++ popped another order: not comparable)" }
                } else {
                    line += ", C++ failed to run"
                }
            }
            console.out(line + "\n")
        }
        if case .success(let binary) = cpp { binary.remove() }
    }

    static func benchDrive(scale: Int, console: inout Console) {
        let drive = GeneratedDrive.scenario(seed: 1)
        let repetitions = max(1, 200 / scale)
        var handled = 0
        var entries = 0
        let seconds = measure {
            for _ in 0..<repetitions {
                let run = Simulation(drive, fault: nil)
                handled += run.eventsHandled
                entries += run.timeline.events.count
            }
        }
        let stretches = drive.replies.reduce(0) { $0 + $1.stretches.count }
        console.out(
            """
            2-hour drive (\(drive.guidance.count) lines, \(drive.replies.count) replies, \(stretches) stretches, \
            \(drive.dad.count) utterances):
              \(handled / repetitions) events, \(entries / repetitions) timeline entries per run, \
            \(String(format1(seconds * 1000 / Double(repetitions)))) ms per run
              \(rate(Double(handled) / seconds)) events/s, \(rate(Double(entries) / seconds)) timeline entries/s

            """)
    }

    /// Each format's render time for the 2-hour drive's whole timeline; a
    /// format that draws only the road (`geojson`) is timed on the 2-hour
    /// road drive instead, where the talk drive would give it an empty
    /// collection to write. Tests pass smaller drives.
    static func benchRender(
        scale: Int, console: inout Console,
        talk drive: Scenario = GeneratedDrive.scenario(seed: 1), road: Scenario = GeneratedDrive.roadScenario(seed: 1)
    ) {
        let timeline = Simulation(drive, fault: nil).timeline
        let roadTimeline = Simulation(road, fault: nil).timeline
        let repetitions = max(1, 10 / scale)
        console.out(
            "rendering the 2-hour drive's timeline (\(timeline.events.count) entries), CPU time, best of \(repetitions):\n"
        )
        for format in TimelineFormat.allCases where !format.isSound {
            let (scenario, subject) = format.drawsOnlyTheRoad ? (road, roadTimeline) : (drive, timeline)
            // CPU time, the best run: on a shared machine wall time measures the neighbours.
            var bytes = 0
            var seconds = Double.infinity
            for _ in 0..<repetitions {
                seconds = min(seconds, cpuSeconds { bytes = writtenCount(format, subject, of: scenario) })
            }
            seconds = max(seconds, 1e-9)
            let megabytesPerSecond = Double(bytes) / seconds / 1_000_000
            let which = format.drawsOnlyTheRoad ? " (the road drive's, \(subject.events.count) entries)" : ""
            console.out(
                "  \(pad(format.rawValue, 7)) \(format1(seconds * 1000)) ms, \(bytes / 1024) KiB, "
                    + "\(format1(megabytesPerSecond)) MB/s\(which)\n")
        }
    }

    /// How many bytes `format` writes for `timeline`, made as `run` makes
    /// them: in chunks, each handed over (here counted) as it fills.
    static func writtenCount(_ format: TimelineFormat, _ timeline: Timeline, of scenario: Scenario) -> Int {
        var count = 0
        format.write(timeline, of: scenario) { count += $0.count }
        return count
    }

    /// Fuzz runs per second (generation with its dry runs, two simulations and
    /// every check per run), and the time to shrink a failing 30-item scenario.
    static func benchFuzz(scale: Int, console: inout Console) {
        var settings = Fuzzer.Settings()
        settings.runs = 20_000 / scale
        var fuzzer = Fuzzer(settings)
        let seconds = measure { for i in fuzzer.runIndices { fuzzer.run(i) } }
        console.out(
            "fuzz: \(settings.runs) runs in \(format1(seconds * 1000)) ms, \(Int(Double(settings.runs) / seconds)) runs/s (one core)\n"
        )
        // A 30-item collision (12 lines, 4 replies of 3 stretches, 3 utterances with a reply each) that a mutant fails.
        let fault = TalkArbiter.Fault.heldIgnored
        for seed in UInt64(1)...100 {
            let big = GeneratedDrive.scenario(
                seed: seed, lines: 12, replies: 4, utterances: 3, length: SimTime(ms: 40_000))
            guard let violation = Fuzzer.violations(of: big, fault: fault).first else { continue }
            var shrinker = Shrinker(check: violation.check, fault: fault)
            var small = big
            let shrinkSeconds = measure { small = shrinker.shrink(big) }
            console.out(
                "shrink: \(counted(Shrinker.size(of: big), "item")) to \(Shrinker.size(of: small)) in \(counted(shrinker.attempts, "try", "tries")), "
                    + "\(format1(shrinkSeconds * 1000)) ms\n")
            return
        }
    }

    /// What `run FILE` does, stage by stage, on generated talk drives of
    /// growing length: CPU milliseconds per run (the best of a few), and
    /// each figure per hour against the 1-hour drive's (1.00 is linear).
    static func benchGrowth(quick: Bool, console: inout Console) {
        let hours = quick ? [1, 2, 4] : [1, 2, 8, 24]
        // A talk drive gives a road-only format nothing to draw; 'rendering' times it on the road drive.
        let formats = TimelineFormat.allCases.filter { !$0.drawsOnlyTheRoad && !$0.isSound }
        let stages = ["decode", "verdict"] + formats.map(\.rawValue)
        var best: [[Double]] = []  // [drive][stage], CPU seconds
        var sizes: [(bytes: Int, events: Int)] = []
        let drives = hours.map { ScenarioEncoder.encode(GeneratedDrive.scenario(hours: $0, seed: 1)) }
        for (h, bytes) in zip(hours, drives) {
            let repetitions = quick ? 1 : max(3, 12 / h)
            var figures = [Double](repeating: .infinity, count: stages.count)
            var events = 0
            for _ in 0..<repetitions {
                var scenario: Scenario? = nil
                figures[0] = min(
                    figures[0], cpuSeconds { scenario = try? ScenarioDecoder.decode(bytes, file: "drive.json") })
                guard let scenario else {
                    console.out("  the generated \(h)-hour drive does not decode\n")
                    return
                }
                var verdict: Verdict? = nil
                figures[1] = min(figures[1], cpuSeconds { verdict = Verdict(scenario, fault: nil) })
                guard let timeline = verdict?.simulation.timeline else { return }
                events = timeline.events.count
                for (k, format) in formats.enumerated() {
                    figures[2 + k] = min(
                        figures[2 + k], cpuSeconds { _ = writtenCount(format, timeline, of: scenario) })
                }
            }
            best.append(figures)
            sizes.append((bytes.count, events))
        }
        let described = zip(hours, sizes).map { "\($0) h \($1.bytes / 1024) KiB, \($1.events) events" }.joined(
            separator: "; ")
        console.out(
            "what 'run FILE' does, on generated talk drives (seed 1: \(described)), CPU ms per run in this process, best of a few:\n"
        )
        console.out(growthHeader(hours))
        for (k, stage) in stages.enumerated() {
            console.out(growthRow(stage, hours: hours, seconds: best.map { $0[k] }))
        }
        benchProcesses(hours: hours, drives: drives, repetitions: quick ? 1 : 3, console: &console)
    }

    /// The growth tables' header: a column per drive, then per hour ÷ 1 h for each longer one.
    static func growthHeader(_ hours: [Int]) -> String {
        var header = "  " + pad("", 8)
        for h in hours { header += padLeft("\(h) h", 10) }
        header += "   per hour ÷ 1 h:"
        for h in hours.dropFirst() { header += padLeft("\(h) h", 7) }
        return header + "\n"
    }

    /// One row of a growth table: CPU ms per drive (nil: it failed), and per hour against the first.
    static func growthRow(_ name: String, hours: [Int], seconds: [Double?]) -> String {
        var line = "  " + pad(name, 8)
        for s in seconds { line += padLeft(s.map { format1($0 * 1000) } ?? "failed", 10) }
        line += pad("", 18)
        for d in hours.indices.dropFirst() {
            if let first = seconds[0], let s = seconds[d], first > 0 {
                line += padLeft(format2(s / Double(hours[d]) / first), 7)
            } else {
                line += padLeft("-", 7)
            }
        }
        return line + "\n"
    }

    static func benchRoad(scale: Int, console: inout Console) {
        let drive = GeneratedDrive.roadScenario(seed: 1)
        let repetitions = max(1, 50 / scale)
        var handled = 0
        var entries = 0
        var lines = 0
        var fixes = 0
        // Both parts in CPU time over the same runs: each run plans the road,
        // then simulates over that plan, so the part is never more than the whole.
        var seconds = 0.0
        var planSeconds = 0.0
        for _ in 0..<repetitions {
            var plan = RoadPlan.empty
            planSeconds += cpuSeconds { plan = RoadPlan(validated: drive.road) }
            var run: Simulation? = nil
            seconds += cpuSeconds { run = Simulation(drive, plan: plan) }
            guard let run else { continue }
            handled += run.eventsHandled
            entries += run.timeline.events.count
            lines += run.timeline.roster.road.lines.count
            fixes += run.timeline.roster.road.fixCount
        }
        seconds += planSeconds
        let plan = RoadPlan(validated: drive.road)
        let end = plan.events.last?.t.ms ?? 0
        console.out(
            """
            2-hour road drive (\(format1(Double(end) / 3_600_000)) h, \(plan.maneuvers.count) maneuvers, \
            \(fixes / repetitions) fixes, \(lines / repetitions) generated lines, \(drive.replies.count) replies, \
            \(drive.dad.count) utterances):
              \(handled / repetitions) events, \(entries / repetitions) timeline entries per run
              \(format1(seconds * 1000 / Double(repetitions))) ms CPU per run, of which planning the road \
            \(format1(planSeconds * 1000 / Double(repetitions))) ms
              decoding, per byte of the file: \(decodeRate(drive, repetitions)) for this drive, \
            \(decodeRate(GeneratedDrive.scenario(seed: 1), repetitions)) for the 2-hour talk drive

            """)
    }

    /// How fast `ScenarioDecoder.decode` reads `scenario`'s file, in MB/s of CPU time (best of `repetitions`).
    static func decodeRate(_ scenario: Scenario, _ repetitions: Int) -> String {
        let bytes = ScenarioEncoder.encode(scenario)
        var best = Double.infinity
        for _ in 0..<repetitions {
            best = min(best, cpuSeconds { _ = try? ScenarioDecoder.decode(bytes, file: "drive.json") })
        }
        return "\(format1(Double(bytes.count) / max(best, 1e-9) / 1e6)) MB/s (\(format1(Double(bytes.count) / 1e6)) MB)"
    }

    /// CPU seconds this process spent in `body` (bench only).
    static func cpuSeconds(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) * 1e-9
    }

    /// Seconds for `operations` hold steps with `pending` events in the queue,
    /// and a hash of the popped events in order (Benchmarks/queue_hold.cpp
    /// runs the same loop and must give the same hash).
    static func holdModel(pending: Int, operations: Int) -> (seconds: Double, checksum: UInt64) {
        var random = SplitMix64(seed: 42)
        var queue = EventQueue<Int>()
        queue.reserveCapacity(pending)
        for i in 0..<pending { queue.schedule(i, at: SimTime(ms: random.int(in: 0...1_000)), phase: UInt8(i & 3)) }
        var checksum: UInt64 = 0
        let seconds = measure {
            for _ in 0..<operations {
                let entry = queue.popFirst()!
                checksum = checksum &* 31 &+ UInt64(entry.event)
                queue.schedule(entry.event, at: entry.time + SimTime(ms: random.int(in: 1...1_000)), phase: entry.phase)
            }
        }
        precondition(checksum != 0 && queue.count == pending)
        return (seconds, checksum)
    }

    /// Benchmarks/queue_hold.cpp, compiled into a temporary folder with the
    /// first C++ compiler on the PATH, so the ratio is measured in each run.
    struct CppHoldModel {
        let folder: String
        var binary: String { folder + "/queue_hold" }

        static func build() -> Result<CppHoldModel, BuildFailure> {
            guard let source = findSource() else {
                return .failure(BuildFailure("Benchmarks/queue_hold.cpp not found"))
            }
            let compilers = ["c++", "g++", "clang++"]
            guard let compiler = compilers.first(where: { shell("command -v \($0) >/dev/null 2>&1") != nil }) else {
                return .failure(
                    BuildFailure("no C++ compiler found (looked for \(compilers.joined(separator: ", ")) on the PATH)"))
            }
            guard let folder = temporaryFolder() else {
                return .failure(BuildFailure("cannot make a temporary folder"))
            }
            let model = CppHoldModel(folder: folder)
            guard shell("\(compiler) -O2 -std=c++17 \(quoted(source)) -o \(quoted(model.binary)) 2>&1") != nil else {
                model.remove()
                return .failure(BuildFailure("\(compiler) failed to compile \(source)"))
            }
            return .success(model)
        }

        /// The C++ loop's seconds and checksum.
        func run(pending: Int, operations: Int) -> (Double, UInt64)? {
            guard let output = Self.shell("\(Self.quoted(binary)) \(pending) \(operations)") else { return nil }
            let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard fields.count == 2, let seconds = Double(fields[0]), let checksum = UInt64(fields[1]) else {
                return nil
            }
            return (seconds, checksum)
        }

        func remove() {
            unlink(binary)
            rmdir(folder)
        }

        /// The source beside this file's package: looked for up from this
        /// source file's folder, then up from the working directory.
        static func findSource() -> String? {
            var starts = [
                String(
                    #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
            ]
            var cwd = [CChar](repeating: 0, count: 4096)
            if getcwd(&cwd, cwd.count) != nil { starts.append(string(cwd)) }
            for start in starts {
                var folder = start
                while !folder.isEmpty {
                    let candidate = folder + "/Benchmarks/queue_hold.cpp"
                    if access(candidate, R_OK) == 0 { return candidate }
                    folder = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
                }
            }
            return nil
        }

        /// A new private folder under `TMPDIR` (or /tmp), for what `bench` builds or writes.
        static func temporaryFolder() -> String? {
            var template = Array(
                ((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/drivesim-bench-XXXXXX").utf8CString)
            return mkdtemp(&template) != nil ? string(template) : nil
        }

        /// A NUL-terminated C string's text.
        static func string(_ chars: [CChar]) -> String {
            String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Runs `command` with /bin/sh: its standard output, or nil if it failed.
        static func shell(_ command: String) -> String? {
            guard let pipe = popen(command, "r") else { return nil }
            var output = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = fread(&buffer, 1, buffer.count, pipe)
                if n <= 0 { break }
                output += buffer[0..<n]
            }
            return pclose(pipe) == 0 ? String(decoding: output, as: UTF8.self) : nil
        }

        static func quoted(_ path: String) -> String {
            "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        }
    }

    /// Why the C++ comparison cannot run.
    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Wall-clock seconds `body` took (bench only; nothing else reads a clock).
    static func measure(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The process's peak resident memory, from /proc (Linux only).
    static func peakMemoryMiB() -> Double? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, 256, file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if line.hasPrefix("VmHWM:") {
                let kb = line.split(separator: " ").compactMap { Double($0) }.first
                return kb.map { $0 / 1024 }
            }
        }
        return nil
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6 ? format1(perSecond / 1e6) + " million" : format1(perSecond / 1e3) + " thousand"
    }

    /// `s` right-aligned in `width` characters.
    static func padLeft(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    static func format2(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }

    static func format1(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
