import AudioBus
import Guidance
import Road
import SimClock
import TalkArbiter

/// Runs one scenario: turns it into scheduled inputs, drives the loop one
/// instant at a time (SPEC 4.2), hands each input to the arbiter, carries out
/// its actions on the bus and records the timeline.
///
/// Any `Arbiter` can referee the run. Each action is validated before it is
/// performed, against what the simulator itself knows (which lines were
/// requested, what plays, which chunks are ready), never the arbiter's word:
/// the first impossible one stops the run and is kept in `impossibleAction`.
/// (The reference `TalkArbiter` is validated in debug builds only.)
public struct Simulation: Sendable {
    /// What a run produced.
    public var timeline: Timeline
    /// The bus's own record of what sounded.
    package var bus: AudioBus
    /// Whether the arbiter was at rest when the queue ran dry.
    public var endedAtRest: Bool
    /// How many events (inputs to the arbiter) the run handled.
    public var eventsHandled: Int
    /// The first action the arbiter returned that could not be carried out;
    /// the run stopped there. Always nil for the reference arbiter.
    public var impossibleAction: ImpossibleAction?
    /// Every input and the actions it drew, in order, when asked for
    /// (differential mode); nil otherwise.
    public var decisions: [Decision]?

    /// Simulates `scenario` with the reference arbiter, from time zero until
    /// nothing is left to happen. Throws the scenario's first problem
    /// (`Scenario.validate()`, its road included) without running it.
    public init(_ scenario: Scenario) throws(ScenarioProblem) {
        try scenario.validate()
        self.init(scenario, fault: nil)
    }

    /// Simulates `scenario` with an arbiter of type `arbiter`, built from the
    /// scenario's tables; `recordingDecisions` keeps every decision in `decisions`.
    /// Throws the scenario's first problem (`Scenario.validate()`) without running it.
    public init<A: Arbiter>(_ scenario: Scenario, arbiter: A.Type, recordingDecisions: Bool = false)
        throws(ScenarioProblem)
    {
        try scenario.validate()
        self.init(scenario, roster: nil, recordingDecisions: recordingDecisions) { A($0) }
    }

    /// Simulates `scenario` with a deliberately broken arbiter (nil: the
    /// reference), for mutation testing; `scenario` must be valid (decoded,
    /// generated or validated), since it is not checked again.
    package init(
        _ scenario: Scenario, fault: TalkArbiter.Fault?, roadPlan: RoadPlanning? = nil, recordingDecisions: Bool = false
    ) {
        self.init(scenario, roster: nil, roadPlan: roadPlan, recordingDecisions: recordingDecisions) {
            TalkArbiter($0, fault: fault)
        }
    }

    /// Simulates `scenario` over a road planned beforehand (`bench` times
    /// the planning and the whole run over the same runs; a fuzz run's dry
    /// runs plan a road they already planned no more), with a deliberately
    /// broken arbiter (nil: the reference).
    package init(_ scenario: Scenario, plan: RoadPlan, fault: TalkArbiter.Fault? = nil) {
        self.init(scenario, roster: nil, plan: plan, recordingDecisions: false) { TalkArbiter($0, fault: fault) }
    }

    /// Simulates `scenario` with the arbiter that `make` builds from its
    /// tables, over `roster` when one is already numbered for it (a second
    /// run of the same scenario, its handoffs sent as the first run found),
    /// else over `plan` when the road as written is planned beforehand (its
    /// handoffs sent after a stretch are then found as without it:
    /// `resolvingHandoffs`).
    ///
    /// With `expected` (an earlier run's events, for invariant 7), each event
    /// is compared as it is recorded and the events are kept only from the
    /// first that differs: the timeline is the same as without, but a run
    /// that repeats the earlier one shares its storage and allocates none.
    /// `roadPlan` plans the road another way (a road mutant, another
    /// guidance); nil plans it with drivesim's own guidance.
    package init<A: Arbiter>(
        _ scenario: Scenario, roster: Roster?, roadPlan: RoadPlanning? = nil, plan: RoadPlan? = nil,
        recordingDecisions: Bool,
        expected: [TimelineEvent]? = nil, make: (ArbiterTables) -> A
    ) {
        func simulate(_ roster: Roster) -> Run<A> {
            var run = Run(scenario, roster: roster, expected: expected, make: make)
            if recordingDecisions { run.decisions = [] }
            run.simulate()
            run.finishRecording()
            return run
        }
        let planning = roadPlan?.plan ?? { RoadPlan(validated: $0) }
        var run = simulate(roster ?? Roster(scenario, road: plan ?? planning(scenario.road)))
        if roster == nil {
            run = Simulation.resolvingHandoffs(
                scenario, first: run, plan: planning, run: { simulate(Roster(scenario, road: $0)) },
                timeline: \.timeline)
        }
        timeline = run.timeline
        bus = run.bus
        endedAtRest = run.impossible == nil && run.arbiter.isIdle
        eventsHandled = run.eventsHandled
        impossibleAction = run.impossible
        decisions = run.decisions
    }
}

/// What the queue holds: an arbiter's input, or a road event of the plan
/// (by index), which only records.
enum SimEvent: Sendable {
    case input(ArbiterInput)
    case road(Int)

    /// Its place within an instant: the input's step (`ArbiterInput.step`,
    /// SPEC 4.2), with road events among the arrivals just before the
    /// requests their fixes may cause (they touch only the timeline).
    var phase: UInt8 {
        switch self {
        case .input(let input): return input.step < Self.roadPhase ? input.step : input.step + 1
        case .road: return Self.roadPhase
        }
    }

    /// The road's phase: after stale lines, before requests (folded to a constant).
    @inline(__always) static var roadPhase: UInt8 { ArbiterInput.lineRequested(0).step }
}

/// The mutable state of one run.
private struct Run<A: Arbiter> {
    let scenario: Scenario
    let roster: Roster
    var bus = AudioBus()
    var timeline: Timeline
    var loop = SimLoop<SimEvent>()
    var actions: [TalkArbiter.Action] = []
    var eventsHandled = 0
    /// What the simulator knows, to validate the arbiter's actions.
    var known: ActionValidator
    /// Whether actions are validated: always for a foreign arbiter; for the
    /// reference (and its mutants) in debug builds only, so the built-in path
    /// keeps its speed while every debug test run checks it never needs it.
    /// A constant once `Run` is specialised.
    static var validating: Bool {
        #if DEBUG
            return true
        #else
            return A.self != TalkArbiter.self
        #endif
    }
    var validating: Bool { Self.validating }
    /// Whether the arbiter is told each batch of inputs before it gets them
    /// (`BatchingArbiter`); a constant once `Run` is specialised.
    static var batching: Bool { A.self is any BatchingArbiter.Type }
    /// Telling a batching arbiter its batches; nil for any other arbiter.
    var announcing: Announcing?
    var impossible: ImpossibleAction?
    var decisions: [Decision]?
    /// The road's line revisions in time order (line index in `roster.lines`),
    /// and the next one to deliver.
    let revisions: [(t: SimTime, line: Int, duration: SimTime)]
    var nextRevision = 0
    /// Lines that started (a revision no longer applies to them).
    var started: [Bool]
    /// An earlier run's events this run is expected to repeat, while it
    /// does; nil once they part (or without one).
    var repeating: Repeating?
    /// Last, so that unspecialised code (an arbiter from another module)
    /// finds every other field at a fixed offset.
    var arbiter: A

    init(_ scenario: Scenario, roster: Roster, expected: [TimelineEvent]?, make: (ArbiterTables) -> A) {
        self.scenario = scenario
        repeating = expected.map { Repeating(events: $0) }
        self.roster = roster
        let tables = ArbiterTables(
            unchecked: scenario.settings, lines: roster.arbiterLines,
            replies: roster.replyStretches.map(TalkArbiter.Reply.init(stretches:)),
            stretchDurations: roster.stretches.map(\.duration), utterances: scenario.dad.count)
        arbiter = make(tables)
        if Self.batching, let batching = arbiter as? any BatchingArbiter {
            announcing = Announcing(tell: { batching.announce($0, endsInstant: $1, at: $2) })
        }
        known = ActionValidator(tables, tracking: Self.validating)
        let offset = roster.lines.count - roster.road.lines.count
        revisions = roster.road.revisions.enumerated()
            .flatMap { i, list in list.map { (t: $0.t, line: offset + i, duration: $0.duration) } }
            .sorted { ($0.t, $0.line) < ($1.t, $1.line) }
        started = revisions.isEmpty ? [] : Array(repeating: false, count: roster.lines.count)
        timeline = Timeline(scenario: scenario.name, roster: roster)
        actions.reserveCapacity(16)
        bus.reserveCapacity(roster.lines.count + roster.stretches.count + scenario.dad.count)
        let records = roster.road.events
        loop.queue.reserveCapacity(
            roster.lines.count * 2 + scenario.replies.count + scenario.dad.count * 2 + records.count)
        if expected == nil {
            timeline.events.reserveCapacity(
                roster.lines.count * 4 + roster.stretches.count * 3 + scenario.dad.count * 2 + records.count)
        }
        // Everything in the file, in file order: guidance (the file's lines,
        // then the road's), replies, Dad; then the road's events. A reply's
        // chunks are scheduled when it begins: a chunk becoming ready records
        // nothing and is acted on only in the settle step, so where it falls among
        // an instant's arrivals cannot be observed, and the agenda stays small.
        for (i, line) in roster.lines.enumerated() {
            schedule(.lineRequested(i), at: line.at)
            if let expires = line.expires { schedule(.lineExpired(i), at: expires) }
        }
        for (i, reply) in scenario.replies.enumerated() { schedule(.replyBegan(i), at: reply.at) }
        for (i, utterance) in scenario.dad.enumerated() {
            schedule(.dadStarted(i), at: utterance.at)
            schedule(.dadEnded(i), at: utterance.at + utterance.duration)
        }
        for (i, record) in records.enumerated() { schedule(.road(i), at: record.t) }
    }

    mutating func schedule(_ event: SimEvent, at time: SimTime) {
        loop.schedule(event, at: time, phase: event.phase)
    }

    /// Schedules an input for the arbiter.
    mutating func schedule(_ input: ArbiterInput, at time: SimTime) { schedule(.input(input), at: time) }

    /// A reply begins: its chunks become ready `ready` after now (at once for 0).
    mutating func replyBegins(_ reply: Int, at now: SimTime) {
        if validating { known.replyBegins(reply) }
        arbiter.replyBegan(reply, at: now, into: &actions)
        for stretch in roster.replyStretches[reply] {
            let ready = roster.stretches[stretch].ready
            if ready == .zero {
                eventsHandled += 1
                if validating { known.chunkReady[stretch] = true }
                arbiter.chunkReady(stretch, at: now, into: &actions)
            } else {
                schedule(.chunkReady(stretch), at: now + ready)
            }
        }
    }

    mutating func simulate() {
        while let now = loop.advance() {
            revise(at: now)
            while let event = loop.nextEvent() {
                eventsHandled += 1
                // Whether the arbiter batches is known once (`announcing`): a conformance
                // check per event (`Self.batching`) cost 4% of a long talk drive.
                if announcing != nil {
                    if announcing!.left == 0 { announce(event, at: now) }
                    announcing!.left -= 1
                }
                handle(event, at: now)
                if impossible != nil { return }
            }
            arbiter.endInstant(at: now, into: &actions)
            perform(at: now, after: .endOfInstant)
            if impossible != nil { return }
        }
    }

    /// Announces to a batching arbiter the inputs of `event` (just taken)
    /// and of the events due now after it, up to the first that may make
    /// another input due now (a `dadEnded` whose reply begins at once).
    mutating func announce(_ event: SimEvent, at now: SimTime) {
        // Moved out and back, so that its buffers stay unique (a call on
        // `self` with `&self.announcing!.inputs` would copy the whole run).
        guard var a = announcing else { return }
        announcing = nil
        a.inputs.removeAll(keepingCapacity: true)
        a.due.removeAll(keepingCapacity: true)
        a.left = 1
        var ends = !Self.appendInputs(of: event, roster: roster, scenario: scenario, to: &a.inputs)
        if ends {
            loop.queue.events(dueAt: now, into: &a.due)
            for entry in a.due {
                a.left += 1
                if Self.appendInputs(of: entry.event, roster: roster, scenario: scenario, to: &a.inputs) {
                    ends = false
                    break
                }
            }
        }
        a.tell(a.inputs, ends, now)
        announcing = a
    }

    /// Appends the inputs that `event` delivers, in order (a reply's chunks
    /// ready at once follow its `replyBegan`; a road event delivers none);
    /// true if an input may follow it at the same instant that no event
    /// due yet foretells: Dad's end, when his reply begins 0 ms after it.
    static func appendInputs(of event: SimEvent, roster: Roster, scenario: Scenario, to list: inout [ArbiterInput])
        -> Bool
    {
        switch event {
        case .road: return false
        case .input(.replyBegan(let reply)):
            list.append(.replyBegan(reply))
            for stretch in roster.replyStretches[reply] where roster.stretches[stretch].ready == .zero {
                list.append(.chunkReady(stretch))
            }
            return false
        case .input(.dadEnded(let utterance)):
            list.append(.dadEnded(utterance))
            return roster.answer[utterance] != nil && scenario.dad[utterance].reply?.after == .zero
        case .input(let input):
            list.append(input)
            return false
        }
    }

    /// Tells the arbiter, before the instant's inputs, every line revision
    /// due by `now` for a line that has not started: a waiting far or near
    /// line then says (and lasts) what the position now gives.
    mutating func revise(at now: SimTime) {
        while nextRevision < revisions.count, revisions[nextRevision].t <= now {
            let r = revisions[nextRevision]
            nextRevision += 1
            guard !started[r.line] else { continue }
            if validating { known.lineRevised(r.line, duration: r.duration) }
            arbiter.lineRevised(r.line, duration: r.duration, at: now)
        }
    }

    mutating func handle(_ event: SimEvent, at now: SimTime) {
        guard case .input(let input) = event else {
            if case .road(let i) = event { record(now, .road(roster.road.events[i].what)) }
            return
        }
        switch input {
        case .lineEnded(let line): arbiter.lineEnded(line, at: now, into: &actions)
        case .stretchEnded(let stretch): arbiter.stretchEnded(stretch, at: now, into: &actions)
        case .dadEnded(let utterance):
            let (heard, lost) = bus.endSpeech(at: now)
            record(now, .dadEnded(UtteranceIndex(utterance), heardMs: heard.ms, lostMs: lost.ms))
            arbiter.dadEnded(utterance, at: now, into: &actions)
            if heard > .zero, let reply = roster.answer[utterance] {
                schedule(.replyBegan(reply), at: now + scenario.dad[utterance].reply!.after)
            }
        case .earsTimer: arbiter.earsTimer(at: now, into: &actions)
        case .lineExpired(let line): arbiter.lineExpired(line, at: now, into: &actions)
        case .lineRequested(let line):
            record(now, .guidanceRequested(LineIndex(line)))
            if validating { known.lineRequested(line) }
            arbiter.lineRequested(line, at: now, into: &actions)
        case .replyBegan(let reply): replyBegins(reply, at: now)
        case .chunkReady(let stretch):
            if validating { known.chunkReady[stretch] = true }
            arbiter.chunkReady(stretch, at: now, into: &actions)
        case .dadStarted(let utterance):
            record(now, .dadStarted(UtteranceIndex(utterance)))
            bus.startSpeech(utterance, at: now)
            arbiter.dadStarted(utterance, at: now, into: &actions)
        case .endOfInstant:
            // Never queued: the end of an instant is the loop's, after the queue is empty.
            return
        }
        perform(at: now, after: input)
    }

    /// Carries out the arbiter's actions, each validated first: the bus
    /// plays, the queue learns when things end, the timeline records. The
    /// first impossible action stops the run.
    mutating func perform(at now: SimTime, after input: ArbiterInput) {
        if decisions != nil { decisions!.append(Decision(t: now, input: input, actions: actions)) }
        guard !actions.isEmpty else { return }
        defer { actions.removeAll(keepingCapacity: true) }
        for action in actions {
            if validating, let reason = known.admit(action, at: now) {
                impossible = ImpossibleAction(t: now, input: input, action: action, reason: reason)
                return
            }
            switch action {
            case .lineWaiting(let line, let rule, let stretch):
                record(now, .guidanceWaiting(LineIndex(line), rule: rule.rule, stretch: stretch.map(StretchIndex.init)))
            case .lineStarted(let line, let end):
                if !started.isEmpty { started[line] = true }
                record(now, .guidanceStarted(LineIndex(line)))
                bus.startGuidance(line, at: now)
                schedule(.lineEnded(line), at: end)
            case .lineEnded(let line):
                record(now, .guidanceEnded(LineIndex(line)))
                bus.endGuidance(at: now)
            case .lineDropped(let line, let rule):
                record(now, .guidanceDropped(LineIndex(line), rule: rule.rule))
            case .replyQueued(let reply):
                record(now, .replyQueued(ReplyIndex(reply)))
            case .replyBegan(let reply):
                record(now, .replyBegan(ReplyIndex(reply)))
            case .stretchStarted(let reply, let stretch, let end, let held):
                record(now, .stretchStarted(ReplyIndex(reply), StretchIndex(stretch), heldMs: held?.ms))
                bus.startStretch(stretch, at: now)
                schedule(.stretchEnded(stretch), at: end)
            case .stretchEnded(let reply, let stretch):
                record(now, .stretchEnded(ReplyIndex(reply), StretchIndex(stretch)))
                bus.stopStretch(at: now, cut: false)
            case .stretchCut(let reply, let stretch, let rule, let by, let played, let then):
                record(
                    now,
                    .stretchCut(
                        ReplyIndex(reply), StretchIndex(stretch), rule: rule.rule, by: by, playedMs: played.ms,
                        afterCut: then))
                bus.stopStretch(at: now, cut: true)
            case .replyEnded(let reply):
                record(now, .replyEnded(ReplyIndex(reply)))
            case .replyAbandoned(let reply, let rule):
                record(now, .replyAbandoned(ReplyIndex(reply), rule: rule.rule))
            case .earsClosed:
                record(now, .earsClosed)
                bus.setEars(open: false, at: now)
            case .earsOpened:
                record(now, .earsOpened)
                bus.setEars(open: true, at: now)
            case .wake(let time):
                schedule(.earsTimer, at: time)
            }
        }
    }

    mutating func record(_ t: SimTime, _ what: TimelineEvent.What) {
        let event = TimelineEvent(t: t, what)
        if repeating != nil {
            if repeating!.repeats(event) { return }
            // The runs part here: keep what matched, then record as usual.
            let (events, matched) = (repeating!.events, repeating!.matched)
            timeline.events.reserveCapacity(Swift.max(events.count, matched + 1))
            timeline.events.append(contentsOf: events[..<matched])
            repeating = nil
        }
        timeline.events.append(event)
    }

    /// After the run: a run that repeated the expected events takes them
    /// as its own (shared storage), or as many as it matched.
    mutating func finishRecording() {
        guard let r = repeating else { return }
        timeline.events = r.matched == r.events.count ? r.events : Array(r.events[..<r.matched])
        repeating = nil
    }
}

/// Telling a batching arbiter (`BatchingArbiter`) each batch of an
/// instant's inputs before it gets them.
private struct Announcing {
    /// The arbiter's `announce`, found once (its batch lives in reference storage).
    let tell: ([ArbiterInput], Bool, SimTime) -> Void
    /// How many of the instant's events the last announcement covered and are still to come.
    var left = 0
    /// Scratch: the events due now, and their inputs.
    var due: [EventQueue<SimEvent>.Entry] = []
    var inputs: [ArbiterInput] = []
}

/// An earlier run's events that this run repeats (invariant 7): compared as
/// they are recorded, nothing recorded while they agree.
private struct Repeating {
    let events: [TimelineEvent]
    /// How many of `events` this run repeated so far.
    var matched = 0

    /// Whether `event` is the next one expected (and counts it if so).
    mutating func repeats(_ event: TimelineEvent) -> Bool {
        guard matched < events.count, events[matched] == event else { return false }
        matched += 1
        return true
    }
}
