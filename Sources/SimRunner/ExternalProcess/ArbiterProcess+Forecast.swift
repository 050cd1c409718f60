import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs foretold (docs/arbiter-protocol.md): the reference's run of a
/// scenario sent whole, in one `run` message, and its answer compared with
/// the canonical one; `ArbiterForecast` keeps what is known between runs.
extension ArbiterProcess {
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

    /// `verdict` with the process's failure, if the run had one, in place of
    /// what the run found from the failing instant on (`Verdict.processFailed`).
    package func adding(failureTo verdict: Verdict) -> Verdict {
        guard let failure = takeFailure() else { return verdict }
        var verdict = verdict
        verdict.recordProcessFailure(at: lastInstant, "the arbiter process failed: \(failure)")
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
    /// Each run's arbiter is an `ExternalArbiter` talking to this process.
    package func verdict(_ scenario: Scenario, differential: Bool = false, roadPlan: RoadPlanning? = nil) -> Verdict {
        // Not told ahead (a run with no message, or a scenario out of order): foretold on its own.
        let told = forecast.takeTold(scenario)
        guard let run = told?.run ?? Self.forecast(scenario, differential: differential, roadPlan: roadPlan) else {
            return adding(
                failureTo: Verdict(scenario, differential: differential, roadPlan: roadPlan) {
                    ExternalArbiter($0, process: self)
                })
        }
        // The first run begins here, so that a run served in full is known before it is simulated.
        beginRun(run.tables, forecast: run.messages, told: told?.outcome)
        var begun: ArbiterTables? = run.tables
        var first: Simulation?
        if channel.failure == nil, forecast.takeAll() {
            first = run.simulation
            begun = nil
        }
        let verdict = Verdict(
            scenario, differential: differential, roadPlan: roadPlan, reference: run.decisions, first: first
        ) { tables in
            defer { begun = nil }
            return ExternalArbiter(tables, process: self, begun: begun == tables)
        }
        return adding(failureTo: verdict)
    }

    /// Sends the runs of `scenarios` ahead, each foretold by the reference
    /// and twice over (invariant 7), all in one write, and reads every
    /// answer: the process answers a stretch of a campaign in one exchange,
    /// and `verdict` then checks each run as usual, served from its answers
    /// if they were the ones foretold. Anything amiss (the process failed,
    /// a malformed answer) drops them all and ends the process: the runs are
    /// then asked one by one, and the one at fault fails as it would alone.
    package func foretell(_ scenarios: [Scenario], differential: Bool, roadPlan: RoadPlanning? = nil) {
        forecast.tell([])
        guard alive, channel.failure == nil else { return }
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
        guard !runs.isEmpty, let lines = channel.transfer(bytes, lines: 2 * runs.count) else { return drop() }
        var told: [(run: Forecast, outcome: ArbiterForecast.Speculation)] = []
        for (k, run) in runs.enumerated() {
            let line = lines.startIndex + 2 * k
            guard let once = judge(lines[line], run.messages, foretold, run: k),
                let twice = judge(lines[line + 1], run.messages, foretold, run: k)
            else { return drop() }
            told.append((run, once ? .answered(twice: twice) : .parted))
        }
        forecast.tell(told)
    }

    /// Ends the process if it failed over the runs sent ahead, and forgets its failure: it is no run's.
    private func drop() {
        guard channel.failure != nil || !alive else { return }
        channel.kill()
        _ = takeFailure()
    }

    /// Sends `tables` and `messages` in one `run` message, `times` times
    /// over (each copy a run), and reads the answers: whether each is the
    /// one foretold, a well formed answer differs, or the process failed (a
    /// malformed answer fails the run, as it would asked alone).
    func speculate(_ tables: [UInt8], _ messages: [BatchMessage], times: Int) -> ArbiterForecast.Speculation {
        var run = tables
        var foretold = Foretold(1)
        foretold.add(messages, into: &run)
        let copies = max(times, 1)
        var bytes = run
        for _ in 1..<copies { bytes.append(contentsOf: run) }
        guard let lines = channel.transfer(bytes, lines: copies) else { return .failed }
        var outcome = ArbiterForecast.Speculation.answered(twice: copies > 1)
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
    /// instant. Nil (and the failure recorded) on a malformed answer.
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

    /// Whether `line` is `bytes[start..<end]`.
    private static func same(_ line: ArraySlice<UInt8>, _ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
        guard line.count == end - start, end > start else { return false }
        return line.withUnsafeBytes { a in
            bytes.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress! + start, end - start) == 0 }
        }
    }
}
