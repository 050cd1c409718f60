import Guidance
import SimRunner

#if canImport(Dispatch)
    import Dispatch
#endif
#if canImport(Synchronization)
    import Synchronization
#endif

/// A fuzz campaign on several workers, with exactly the results of one.
///
/// Runs are independent (run `i`'s scenario comes from `Fuzzer.seed(campaign:run:)`
/// alone), so the shard's runs are cut into chunks of `chunkSize` consecutive
/// runs. Each worker takes the next chunk in run order and does it with a
/// `Fuzzer` of its own; finished chunks are merged in run order, so failures,
/// counts, rule coverage and reproducers are the same whatever the number of
/// workers. A campaign stopped early (a time limit) keeps the contiguous
/// prefix of chunks that were done: its result is exactly that of the shard's
/// first `runsDone` runs (without a shard, that of `--runs <runsDone>`).
public enum Campaign {
    /// What a campaign did.
    public struct Outcome: Sendable {
        /// The merged result, as if one fuzzer had done the runs in order.
        public var fuzzer: Fuzzer
        /// Whether `poll` stopped the campaign before every run was done.
        public var stoppedEarly: Bool
    }

    /// How far a running campaign is: the merged prefix of runs.
    public struct Progress: Sendable {
        /// Runs done and merged (a prefix of the shard's runs).
        public var runsDone: Int
        /// Failed runs among them.
        public var failedRuns: Int
    }

    /// A shrunk failure: the smallest reproducer found for one check.
    public struct Reproducer: Sendable {
        /// The failing run whose shrunk scenario is the smallest.
        public var failure: Fuzzer.Failure
        /// Its scenario, shrunk.
        public var scenario: Scenario
        /// How many candidate scenarios the shrinker tried for it.
        public var tries: Int
    }

    /// Runs per chunk: small enough that a stop is prompt (a few milliseconds
    /// of work in a release build), large enough that merging costs nothing.
    package static let chunkSize = 250

    /// The runs of the shard, cut into chunks of consecutive runs, in order.
    static func chunks(_ settings: Fuzzer.Settings) -> [StrideTo<Int>] {
        let step = settings.shard.count
        let first = settings.shard.index - 1
        let span = chunkSize * step
        return stride(from: first, to: settings.runs, by: span).map {
            stride(from: $0, to: min(settings.runs, $0 + span), by: step)
        }
    }

    /// What a campaign checks, chunk by chunk: each chunk's runs (run index,
    /// scenario, and what the generator knows of its road), in run order,
    /// the chunks in order. A fuzz campaign's chunk generates its runs
    /// from their seeds; an exploration's (`Explorer`) enumerates them.
    package struct Workload: Sendable {
        /// How many chunks.
        package var chunks: Int
        /// The runs of chunk `i`, in run order.
        package var runs: @Sendable (Int) -> [Run]

        /// One run: its index, its scenario, and what the generator knows of its road (`Fuzzer.generate`).
        package typealias Run = (index: Int, scenario: Scenario, road: KnownRoad?)

        /// A workload of `chunks` chunks.
        package init(chunks: Int, runs: @escaping @Sendable (Int) -> [Run]) {
            self.chunks = chunks
            self.runs = runs
        }
    }

    /// The fuzz campaign of `settings`: its shard's runs in chunks of consecutive runs.
    static func fuzzWorkload(_ settings: Fuzzer.Settings) -> Workload {
        let chunks = chunks(settings)
        return Workload(chunks: chunks.count) { i in
            chunks[i].map {
                let (scenario, road) = Fuzzer.generate(
                    campaign: settings.seed, run: $0, mutant: settings.mutant, road: settings.road)
                return (index: $0, scenario: scenario, road: road)
            }
        }
    }

    /// Does the campaign of `settings` on `jobs` workers and merges it in run
    /// order. `poll` is called on the calling thread every 100 ms or so (after
    /// each chunk with one worker) with the progress so far; when it returns
    /// false, the workers finish the chunks they are on and stop.
    public static func run(_ settings: Fuzzer.Settings, jobs: Int, poll: (Progress) -> Bool) -> Outcome {
        run(settings, workload: fuzzWorkload(settings), jobs: jobs, poll: poll)
    }

    /// The same for any workload: its chunks checked with `settings`' arbiter on `jobs` workers, merged in order.
    package static func run(_ settings: Fuzzer.Settings, workload: Workload, jobs: Int, poll: (Progress) -> Bool)
        -> Outcome
    {
        var fuzzer = Fuzzer(settings)
        #if canImport(Dispatch) && canImport(Synchronization)
            if jobs > 1, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                let board = Board<Fuzzer, Fuzzer>(items: workload.chunks, whole: fuzzer) { $0.append($1) }
                inParallel(jobs: jobs, board: board, work: { check(settings, workload.runs($0)) }) {
                    board.read { Progress(runsDone: $0.runsDone, failedRuns: $0.failedRuns) }
                } poll: {
                    poll($0)
                }
                return Outcome(fuzzer: board.read { $0 }, stoppedEarly: board.mergedCount < workload.chunks)
            }
        #endif
        // One worker: the calling thread, chunk after chunk.
        for chunk in 0..<workload.chunks {
            if chunk > 0, !poll(Progress(runsDone: fuzzer.runsDone, failedRuns: fuzzer.failedRuns)) {
                return Outcome(fuzzer: fuzzer, stoppedEarly: true)
            }
            fuzzer.append(check(settings, workload.runs(chunk)))
        }
        return Outcome(fuzzer: fuzzer, stoppedEarly: false)
    }

    /// One chunk of runs, checked by a fuzzer of its own.
    static func check(_ settings: Fuzzer.Settings, _ runs: [Workload.Run]) -> Fuzzer {
        var fuzzer = Fuzzer(settings)
        guard let foretell = settings.arbiter.foretell else {
            for run in runs { fuzzer.run(run.index, run.scenario, road: run.road) }
            return fuzzer
        }
        // The arbiter is told each stretch of runs before they are checked (one exchange for many runs).
        for start in stride(from: 0, to: runs.count, by: foretoldRuns) {
            let part = runs[start..<min(start + foretoldRuns, runs.count)]
            foretell(part.map(\.scenario))
            for run in part { fuzzer.run(run.index, run.scenario, road: run.road) }
        }
        return fuzzer
    }

    /// How many runs an arbiter that is told ahead (`ArbiterUnderTest.foretell`) is told at once.
    static let foretoldRuns = 25

    /// Shrinks the first `candidates` failures of each broken check on `jobs`
    /// workers (each failure on its own) and keeps, per check, the smallest
    /// result (fewest items, then fewest route points), the earliest run on a
    /// tie: the same as shrinking them one by one.
    /// In `Check.all` order.
    public static func reproducers(of fuzzer: Fuzzer, candidates: Int, jobs: Int) -> [Reproducer] {
        reproducers(of: fuzzer, candidates: candidates, jobs: jobs, unshrinkable: [])
    }

    /// The reproducers of `fuzzer`'s failures as above, the failures of a
    /// process among them (`Check.arbiter(.process)`, `.guidance(.process)`),
    /// each filed like any other; those of the checks in `unshrinkable` (a
    /// process given up: it is asked nothing more) are kept as found.
    package static func reproducers(of fuzzer: Fuzzer, candidates: Int, jobs: Int, unshrinkable: Set<Check>)
        -> [Reproducer]
    {
        let arbiter = fuzzer.settings.arbiter
        let failing = (Check.all + [.arbiter(.process), .guidance(.process)]).flatMap { check in
            fuzzer.failures.filter { $0.violation.check == check }.prefix(unshrinkable.contains(check) ? 1 : candidates)
        }
        let shrunk = map(failing.count, jobs: jobs) { i -> Reproducer in
            guard !unshrinkable.contains(failing[i].violation.check) else {
                return Reproducer(failure: failing[i], scenario: failing[i].scenario, tries: 0)
            }
            var shrinker = Shrinker(check: failing[i].violation.check, arbiter: arbiter)
            let small = shrinker.shrink(failing[i].scenario)
            return Reproducer(failure: failing[i], scenario: small, tries: shrinker.attempts)
        }
        var best: [Reproducer] = []
        for candidate in shrunk {
            if let last = best.last, last.failure.violation.check == candidate.failure.violation.check {
                if smallness(candidate.scenario) < smallness(last.scenario) { best[best.count - 1] = candidate }
            } else {
                best.append(candidate)
            }
        }
        return best
    }

    /// How small a reproducer is, to pick the smallest: its items, then its route's points.
    static func smallness(_ scenario: Scenario) -> (items: Int, points: Int) {
        (Shrinker.size(of: scenario), scenario.road?.points.count ?? 0)
    }

    /// `work(0) … work(count - 1)` on up to `jobs` workers, in index order.
    static func map<T: Sendable>(_ count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> T) -> [T] {
        #if canImport(Dispatch) && canImport(Synchronization)
            if jobs > 1, count > 1, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                let board = Board<T, [T]>(items: count, whole: []) { $0.append($1) }
                inParallel(jobs: min(jobs, count), board: board, work: work, progress: {}, poll: { _ in true })
                return board.read { $0 }
            }
        #endif
        return (0..<count).map(work)
    }
}

#if canImport(Dispatch) && canImport(Synchronization)
    extension Campaign {
        /// Starts `jobs` workers that take items from `board` until none are left
        /// or the board is stopped, and waits for them, polling every 100 ms.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        static func inParallel<Part, Whole, P>(
            jobs: Int, board: Board<Part, Whole>, work: @escaping @Sendable (Int) -> Part,
            progress: () -> P, poll: (P) -> Bool
        ) {
            let group = DispatchGroup()
            for worker in 0..<jobs {
                // A serial queue of its own per worker: each gets a thread even
                // when there are more workers than cores.
                DispatchQueue(label: "drivesim.fuzz.worker-\(worker)").async(group: group) {
                    while let item = board.claim() { board.finish(item, work(item)) }
                }
            }
            while group.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if !poll(progress()) { board.stop() }
            }
        }
    }

    /// Items handed out in order to any number of workers, their results merged
    /// in item order as soon as every earlier item's is in. Each worker owns its
    /// own state; only the claim and the hand-back take the lock.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class Board<Part: Sendable, Whole: Sendable>: Sendable {
        private struct State {
            var next = 0
            var stopped = false
            /// Results that arrived before an earlier item's, by item.
            var waiting: [Int: Part] = [:]
            /// Items merged into `whole`: always a prefix.
            var merged = 0
            var whole: Whole
        }

        private let state: Mutex<State>
        private let items: Int
        private let merge: @Sendable (inout Whole, Part) -> Void

        init(items: Int, whole: Whole, merge: @escaping @Sendable (inout Whole, Part) -> Void) {
            self.items = items
            self.merge = merge
            state = Mutex(State(whole: whole))
        }

        /// The next item to work on, or nil when all are taken or the board is stopped.
        func claim() -> Int? {
            state.withLock { state in
                guard !state.stopped, state.next < items else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        /// Hands in an item's result; merges every result now in order.
        func finish(_ item: Int, _ part: sending Part) {
            state.withLock { state in
                state.waiting[item] = part
                while let next = state.waiting.removeValue(forKey: state.merged) {
                    merge(&state.whole, next)
                    state.merged += 1
                }
            }
        }

        /// No more items are handed out; those being worked on still come in.
        func stop() { state.withLock { $0.stopped = true } }

        /// How many items have been merged (a prefix).
        var mergedCount: Int { state.withLock { $0.merged } }

        /// Reads the merged whole.
        func read<R: Sendable>(_ body: (Whole) -> R) -> R { state.withLock { body($0.whole) } }
    }
#endif
