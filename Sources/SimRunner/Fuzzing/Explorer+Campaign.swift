import SimRunner

extension Explorer {
    /// How many scenarios of one size an exploration checked, and how many failed.
    package struct SizeResult: Sendable, Equatable {
        /// The number of items.
        package var size: Int
        /// The scenarios of that size on the grid (all shards).
        package var scenarios: Int
        /// Those this shard checked.
        package var checked: Int
        /// Those that failed a check.
        package var failed: Int
    }

    /// What an exploration did.
    package struct Outcome: Sendable {
        /// Size by size, from 1.
        package var sizes: [SizeResult]
        /// Every size's runs merged in order, as one campaign: a failure's
        /// `run` is its scenario's index in the whole exploration (sizes in
        /// order), which is the same whatever the scope, shard or workers.
        package var fuzzer: Fuzzer
        /// Whether `poll` stopped it before every scenario was checked.
        package var stoppedEarly: Bool
    }

    /// How far a running exploration is.
    package struct Progress: Sendable {
        /// The size being checked.
        package var size: Int
        /// This shard's scenarios of that size, and how many are done and failed.
        package var total: Int, done: Int, failed: Int
    }

    /// Parents per chunk of work: a few hundred scenarios each.
    static let parentsPerChunk = 4

    /// Every valid point of `size` items, in canonical order, made on `jobs` workers.
    /// - Complexity: one simulation per point of `size - 1` items, and so on down.
    package static func points(size: Int, jobs: Int = 1) -> [Point] {
        var level = roots
        for _ in 0..<max(0, size) {
            let parents = level
            level = Campaign.map(parents.count, jobs: jobs) { children(of: parents[$0]) }.flatMap { $0 }
        }
        return level
    }

    /// How many scenarios of each size from 1 to `scope` the grid has, without checking them.
    package static func counts(scope: Int, jobs: Int = 1) -> [Int] {
        guard scope >= 1 else { return [] }
        var out: [Int] = []
        var parents = roots
        for size in 1...scope {
            let level = parents
            let children = Campaign.map(level.count, jobs: jobs) { i in Explorer.children(of: level[i]) }
            out.append(children.reduce(0) { $0 + $1.filter(\.isRelevant).count })
            if size < scope { parents = children.flatMap { $0 } }
        }
        return out
    }

    /// Checks every scenario of the grid of up to `scope` items with
    /// `settings.arbiter` (its shard of them), size by size, on `jobs`
    /// workers; the results are the same for any number of workers.
    /// `poll` is called with the progress as a campaign's is; when it returns
    /// false, the exploration stops after the chunks being checked.
    package static func run(scope: Int, settings: Fuzzer.Settings, jobs: Int, poll: (Progress) -> Bool) -> Outcome {
        var sizes: [SizeResult] = []
        var whole = Fuzzer(settings)
        var parents = roots
        var first = 0
        for size in stride(from: 1, through: scope, by: 1) {
            let level = parents
            // Numbered first (a scenario's index is its place in the whole enumeration), then checked chunk by chunk.
            let counts = Campaign.map(level.count, jobs: jobs) { i in
                Explorer.children(of: level[i]).filter(\.isRelevant).count
            }
            var starts: [Int] = []
            var total = first
            for count in counts {
                starts.append(total)
                total += count
            }
            let offsets = starts
            let shard = settings.shard
            let mine = (first..<total).filter { $0 % shard.count == shard.index - 1 }.count
            let chunks = (level.count + parentsPerChunk - 1) / parentsPerChunk
            let workload = Campaign.Workload(chunks: chunks) { chunk in
                var runs: [Campaign.Workload.Run] = []
                for p in chunk * parentsPerChunk..<min(level.count, (chunk + 1) * parentsPerChunk) {
                    for (c, point) in Explorer.children(of: level[p]).filter(\.isRelevant).enumerated() {
                        let index = offsets[p] + c
                        guard index % shard.count == shard.index - 1 else { continue }
                        runs.append((index, point.scenario(name: "explore scenario \(index)"), nil))
                    }
                }
                return runs
            }
            let outcome = Campaign.run(settings, workload: workload, jobs: jobs) {
                poll(Progress(size: size, total: mine, done: $0.runsDone, failed: $0.failedRuns))
            }
            sizes.append(
                SizeResult(
                    size: size, scenarios: total - first, checked: outcome.fuzzer.runsDone,
                    failed: outcome.fuzzer.failedRuns))
            whole.append(outcome.fuzzer)
            if outcome.stoppedEarly { return Outcome(sizes: sizes, fuzzer: whole, stoppedEarly: true) }
            first = total
            if size < scope {
                parents = Campaign.map(level.count, jobs: jobs) { Explorer.children(of: level[$0]) }.flatMap { $0 }
            }
        }
        return Outcome(sizes: sizes, fuzzer: whole, stoppedEarly: false)
    }
}
