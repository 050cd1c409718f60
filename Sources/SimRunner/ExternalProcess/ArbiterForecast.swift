import SimClock
import SimRunner
import TalkArbiter

/// What the arbiter client knows to foretell runs, one value: the run under
/// way, which foretells the next, and the runs of a campaign's stretch sent
/// ahead (`ArbiterProcess.foretell`). `ArbiterProcess` moves it; nothing
/// in it talks to the process.
package struct ArbiterForecast {
    /// The run under way, and so what it foretells of the next.
    package enum Run: Equatable {
        /// Nothing: no run yet, or it has not settled how it began (it failed then).
        case unknown
        /// Over `tables`, asked instant by instant: its messages so far.
        case asked(ArbiterTables, log: [BatchMessage])
        /// Over `tables`, served from `messages` the process answered as
        /// foretold, `served` of them so far; `twin`: the next run's, the
        /// same messages over the same tables, were answered alike too.
        case served(ArbiterTables, messages: [BatchMessage], served: Int, twin: Bool)
    }

    /// How the process answered a run sent with its forecast.
    package enum Speculation: Equatable {
        /// Every answer of the first copy was the one foretold; `twice`: of the second too.
        case answered(twice: Bool)
        /// A well formed answer differs.
        case parted
        /// The process failed (a malformed answer fails the run, as it would asked alone).
        case failed
    }

    /// How a run begins (`begin`).
    package enum Start: Equatable {
        /// Served from `messages`, answered already along with the run before (its twin): nothing is sent.
        case servedAhead([BatchMessage])
        /// The tables and `messages` in one `run` message, `times` copies
        /// at once; `told`: how the process answered them, sent ahead.
        case foretold([BatchMessage], times: Int, told: Speculation?)
        /// The tables alone: the run is asked instant by instant.
        case asked
    }

    package private(set) var run = Run.unknown
    /// Runs sent and answered ahead, in the order they will be checked, and the first not yet checked.
    private var told: [(run: ArbiterProcess.Forecast, outcome: Speculation)] = []
    private var nextTold = 0

    package init() {}

    /// Begins a run over `tables`, `unknown` until `serve` or `ask` says
    /// how it began. Foretold by `forecast`, the reference's messages, if
    /// known (sent for two runs: invariant 7's second repeats the first),
    /// with `told`, their answers if sent ahead; else by the run before,
    /// unless it `failed`.
    package mutating func begin(
        _ tables: ArbiterTables, forecast: [BatchMessage]?, told: Speculation?, lastFailed: Bool
    ) -> Start {
        let last = lastFailed ? Run.unknown : run
        run = .unknown
        if let forecast { return forecast.isEmpty ? .asked : .foretold(forecast, times: 2, told: told) }
        switch last {
        case .unknown: return .asked
        case .asked(let before, let log):
            return before == tables && !log.isEmpty ? .foretold(log, times: 1, told: nil) : .asked
        case .served(let before, let messages, let served, let twin):
            guard before == tables, served > 0 else { return .asked }
            if twin && served == messages.count { return .servedAhead(messages) }
            return .foretold(served == messages.count ? messages : Array(messages[..<served]), times: 1, told: nil)
        }
    }

    /// The run begun is served from `messages` over `tables`; `twin`: so is the next, answered alike.
    package mutating func serve(_ tables: ArbiterTables, _ messages: [BatchMessage], twin: Bool) {
        run = .served(tables, messages: messages, served: 0, twin: twin)
    }

    /// The run begun over `tables` is asked instant by instant.
    package mutating func ask(_ tables: ArbiterTables) { run = .asked(tables, log: []) }

    /// Whether the run is served from its forecast.
    package var isServed: Bool {
        if case .served = run { return true }
        return false
    }

    /// A served run's next message, if it is the one at `t` with these
    /// `inputs`, end and `revisions`: taken. Nil if the run parted from it.
    package mutating func take(
        at t: SimTime, inputs: [ArbiterInput], ends: Bool, revisions: [BatchMessage.Revision]
    ) -> BatchMessage? {
        guard case .served(let tables, let messages, let served, let twin) = run, served < messages.count else {
            return nil
        }
        let next = messages[served]
        guard next.t == t, next.ends == ends, next.inputs == inputs, next.revisions == revisions else { return nil }
        run = .served(tables, messages: messages, served: served + 1, twin: twin)
        return next
    }

    /// Takes a served run's every message at once, when none was taken yet: whether it did.
    package mutating func takeAll() -> Bool {
        guard case .served(let tables, let messages, 0, let twin) = run else { return false }
        run = .served(tables, messages: messages, served: messages.count, twin: twin)
        return true
    }

    /// Keeps `message`, asked and answered, in an asked run's log.
    package mutating func record(_ message: BatchMessage) {
        guard case .asked(let tables, var log) = run else { return }
        run = .unknown  // `log` is then the only reference: appended in place
        log.append(message)
        run = .asked(tables, log: log)
    }

    /// The runs sent ahead, each with how the process answered it, to be checked in this order.
    package mutating func tell(_ runs: [(run: ArbiterProcess.Forecast, outcome: Speculation)]) {
        told = runs
        nextTold = 0
    }

    /// The next run sent ahead, taken if it is `scenario`'s.
    package mutating func takeTold(_ scenario: Scenario) -> (run: ArbiterProcess.Forecast, outcome: Speculation)? {
        guard nextTold < told.count, told[nextTold].run.scenario == scenario else { return nil }
        nextTold += 1
        return told[nextTold - 1]
    }
}
