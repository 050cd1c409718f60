import SimClock
import TalkArbiter

/// A starting point: drivesim's reference arbiter, wrapped, with one rule of
/// your own. Every requirement of `Arbiter` is here and delegates to
/// `TalkArbiter`; change one rule and run the tests beside this file to see
/// which scenarios and checks the change breaks.
///
/// Change a rule through what the reference is built from or told, as here:
/// skipping or rewriting its actions in one method leaves its state out of
/// step with what drivesim performed, and the reference checks its state in
/// debug builds (`Assertion failed: TalkArbiter … Inconsistency`).
struct MyArbiter: Arbiter {
    /// The one rule changed, when true: an ordinary line waits for a stretch
    /// (`short-wait`) only with strictly less than `waitLimit` left, where
    /// SPEC 4.1 says at most; with exactly `waitLimit` left it cuts the
    /// stretch (`long-cut`). With `false`, as shipped, this is the reference.
    static let strictShortWait = false

    var reference: TalkArbiter

    /// One arbiter per run, from the run's tables (settings, lines, replies, stretches, utterances).
    init(_ tables: ArbiterTables) {
        var settings = tables.settings
        // The rule changed: 1 ms less turns the reference's "at most" into "less than".
        if Self.strictShortWait, settings.waitLimit > .zero { settings.waitLimit = settings.waitLimit - SimTime(ms: 1) }
        // Valid tables with a smaller waitLimit, not below zero, are valid.
        let changed = try? ArbiterTables(
            settings: settings, lines: tables.lines, replies: tables.replies,
            stretchDurations: tables.stretchDurations, utterances: tables.utterances)
        reference = TalkArbiter(changed ?? tables)
    }

    // Completions (SPEC 4.2 step 1), in this order within an instant.
    mutating func lineEnded(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        reference.lineEnded(line, at: now, into: &actions)
    }
    mutating func stretchEnded(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        reference.stretchEnded(stretch, at: now, into: &actions)
    }
    mutating func dadEnded(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        reference.dadEnded(utterance, at: now, into: &actions)
    }
    mutating func earsTimer(at now: SimTime, into actions: inout [Action]) {
        reference.earsTimer(at: now, into: &actions)
    }

    // Arrivals (step 2).
    mutating func lineExpired(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        reference.lineExpired(line, at: now, into: &actions)
    }
    /// Decided at once: superseded, then urgent-cut, short-wait, long-cut or guidance-queue.
    mutating func lineRequested(_ line: Int, at now: SimTime, into actions: inout [Action]) {
        reference.lineRequested(line, at: now, into: &actions)
    }
    mutating func replyBegan(_ reply: Int, at now: SimTime, into actions: inout [Action]) {
        reference.replyBegan(reply, at: now, into: &actions)
    }
    mutating func chunkReady(_ stretch: Int, at now: SimTime, into actions: inout [Action]) {
        reference.chunkReady(stretch, at: now, into: &actions)
    }
    mutating func dadStarted(_ utterance: Int, at now: SimTime, into actions: inout [Action]) {
        reference.dadStarted(utterance, at: now, into: &actions)
    }

    /// Before an instant's inputs, on a road: a waiting line re-phrased; it draws no actions.
    mutating func lineRevised(_ line: Int, duration: SimTime, at now: SimTime) {
        reference.lineRevised(line, duration: duration, at: now)
    }

    /// Settle (start what may start, barge-in) and observe the ears (steps 3 and 4).
    mutating func endInstant(at now: SimTime, into actions: inout [Action]) {
        reference.endInstant(at: now, into: &actions)
    }

    /// Whether nothing plays, is pending or active; asked after the run.
    var isIdle: Bool { reference.isIdle }
}
