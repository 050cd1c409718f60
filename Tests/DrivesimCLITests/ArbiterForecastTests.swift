import SimClock
import SimRunner
import TalkArbiter
import Testing

@testable import ExternalProcess

/// What the arbiter client knows to foretell a run (`ArbiterForecast`), as a
/// value: how each run begins from the run before, with no process.
@Suite struct ArbiterForecastTests {
    static func tables(lines: Int) throws -> ArbiterTables {
        try ArbiterTables(
            settings: .init(), lines: Array(repeating: .init(duration: .init(ms: 1000)), count: lines), replies: [],
            stretchDurations: [], utterances: 0)
    }

    /// Two messages of a run over one line: it is requested at 0 ms, it ends at 1000 ms.
    static let messages = [
        BatchMessage(t: .zero, revisions: [], inputs: [.lineRequested(0)], ends: true),
        BatchMessage(t: SimTime(ms: 1000), revisions: [], inputs: [.lineEnded(0)], ends: true),
    ]

    /// How `forecast`, a copy, begins a run over `tables` without a forecast of its own.
    static func next(_ forecast: ArbiterForecast, _ tables: ArbiterTables, lastFailed: Bool = false)
        -> ArbiterForecast.Start
    {
        var forecast = forecast
        return forecast.begin(tables, forecast: nil, told: nil, lastFailed: lastFailed)
    }

    @Test func aRunAskedInstantByInstantForetellsTheNextOverTheSameTablesUnlessItFailed() throws {
        let one = try Self.tables(lines: 1)
        var forecast = ArbiterForecast()
        let first = forecast.begin(one, forecast: nil, told: nil, lastFailed: false)
        #expect(first == .asked)
        forecast.ask(one)
        for message in Self.messages { forecast.record(message) }
        #expect(forecast.run == .asked(one, log: Self.messages))
        #expect(Self.next(forecast, one) == .foretold(Self.messages, times: 1, told: nil))
        #expect(Self.next(forecast, one, lastFailed: true) == .asked)
        #expect(Self.next(forecast, try Self.tables(lines: 2)) == .asked)
        _ = forecast.begin(one, forecast: nil, told: nil, lastFailed: false)
        #expect(forecast.run == .unknown, "unknown until the run says how it began")
    }

    @Test func theReferencesForecastGoesOutForTwoRunsWithHowItWasAnsweredAhead() throws {
        let one = try Self.tables(lines: 1)
        var forecast = ArbiterForecast()
        let told = forecast.begin(one, forecast: Self.messages, told: .parted, lastFailed: true)
        #expect(told == .foretold(Self.messages, times: 2, told: .parted))
        let empty = forecast.begin(one, forecast: [], told: nil, lastFailed: false)
        #expect(empty == .asked)
    }

    @Test func aServedRunTakesItsMessagesInOrderAndAPartingTakesNothing() throws {
        let one = try Self.tables(lines: 1)
        var forecast = ArbiterForecast()
        forecast.serve(one, Self.messages, twin: true)
        #expect(forecast.isServed)
        let parted = forecast.take(at: SimTime(ms: 1000), inputs: [.lineEnded(0)], ends: true, revisions: [])
        #expect(parted == nil)
        #expect(forecast.run == .served(one, messages: Self.messages, served: 0, twin: true))
        let taken = forecast.take(at: .zero, inputs: [.lineRequested(0)], ends: true, revisions: [])
        #expect(taken == Self.messages[0])
        let whole = forecast.takeAll()
        #expect(!whole, "only a run none of whose messages was taken is taken whole")
        forecast.record(Self.messages[1])
        #expect(forecast.run == .served(one, messages: Self.messages, served: 1, twin: true))
    }

    @Test func aServedRunForetellsTheNextByWhatItServed() throws {
        let one = try Self.tables(lines: 1)
        func served(_ count: Int, twin: Bool) -> ArbiterForecast {
            var forecast = ArbiterForecast()
            forecast.serve(one, Self.messages, twin: twin)
            for message in Self.messages.prefix(count) {
                _ = forecast.take(at: message.t, inputs: message.inputs, ends: message.ends, revisions: [])
            }
            return forecast
        }
        var whole = served(0, twin: true)
        let takenWhole = whole.takeAll()
        #expect(takenWhole)
        #expect(Self.next(whole, one) == .servedAhead(Self.messages))
        #expect(Self.next(served(2, twin: true), one) == .servedAhead(Self.messages))
        #expect(Self.next(served(2, twin: false), one) == .foretold(Self.messages, times: 1, told: nil))
        #expect(Self.next(served(1, twin: true), one) == .foretold([Self.messages[0]], times: 1, told: nil))
        #expect(Self.next(served(0, twin: true), one) == .asked)
        #expect(Self.next(served(2, twin: true), one, lastFailed: true) == .asked)
        #expect(Self.next(served(2, twin: true), try Self.tables(lines: 2)) == .asked)
    }
}
