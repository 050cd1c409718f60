import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// A timeline laid out for people to look at: one lane per voice (guidance,
/// Pippa, the talk's ears, Dad), each holding intervals (bars), instants
/// where a rule decided something (marks), and arrows from a cause to its
/// effect (flows). Every renderer for review (`lanesChart`, `svg`, `trace`)
/// draws this one layout, so they agree on what happened.
///
/// It is derived from the timeline alone: waits run from
/// `guidance.requested` to `guidance.started` or `guidance.dropped`; Dad's
/// heard and lost parts are his utterance cut by the ears' closed windows.
/// Every event of the timeline is named (by index) by at least one bar or
/// mark, so a picture never silently leaves something out.
package struct Lanes: Sendable {
    /// The lanes, top to bottom.
    package enum Lane: Int, Sendable, CaseIterable, Comparable {
        case guidance, pippa, ears, dad, road
        /// Pippa's view: her answer to "am I on the right road?" (`PippaView`), drawn with the road.
        case view

        /// The row's name.
        package var title: String {
            switch self {
            case .guidance: return "guidance"
            case .pippa: return "Pippa"
            case .ears: return "ears"
            case .dad: return "Dad"
            case .road: return "road"
            case .view: return "view"
            }
        }

        package static func < (a: Lane, b: Lane) -> Bool { a.rawValue < b.rawValue }
    }

    /// What an interval shows.
    package enum BarKind: String, Sendable, CaseIterable {
        /// A guidance line playing.
        case line
        /// A line requested but not yet playing (until it starts or is dropped).
        case wait
        /// A reply active: from `talk.reply.began` to its end or abandonment.
        case reply
        /// A reply waiting behind another (`reply-queue`).
        case queued
        /// A stretch held back while guidance played or was pending (`held`).
        case held
        /// A stretch playing (`cut` says whether it was cut short).
        case stretch
        /// The talk's ears closed.
        case earsClosed = "ears-closed"
        /// A part of Dad's utterance the ears heard.
        case heard
        /// A part of Dad's utterance spoken while the ears were closed.
        case lost
        /// The car off the route: from `road.off-route` to `road.on-route` (or the end).
        case offRoute = "off-route"
        /// Pippa answers yes: her last report, at most `PippaView.keptFor` old, says the car is on the route.
        case pippaYes = "pippa-yes"
        /// Pippa answers no: it says the car is off the route.
        case pippaNo = "pippa-no"
        /// Pippa does not know: no report yet, or hers is older than `PippaView.keptFor`.
        case pippaNotKnown = "pippa-not-known"

        /// The kind of bar that draws a span of Pippa's answer.
        package init(_ answer: PippaView.Answer) {
            switch answer {
            case .yes: self = .pippaYes
            case .no: self = .pippaNo
            case .notKnown: self = .pippaNotKnown
            }
        }

        /// Whether it is a wait drawn on its own row (a line waiting, a reply queued, a stretch held),
        /// so that it never hides under what plays.
        package var isWait: Bool { self == .wait || self == .queued || self == .held }
    }

    /// An interval on one lane.
    package struct Bar: Sendable, Equatable {
        package var lane: Lane
        package var kind: BarKind
        package var start: SimTime
        package var end: SimTime
        /// The id it shows (`g1`, `r1/s1`, `u1`), empty for the ears.
        package var label: String
        /// Whether a stretch was cut short.
        package var cut: Bool = false
        /// The indices of the timeline events it stands for.
        package var events: [Int]
    }

    /// What an instant shows.
    package enum MarkKind: String, Sendable {
        /// A line waits (`short-wait`, `guidance-queue`).
        case waiting
        /// A line dropped (`superseded`, `stale`).
        case dropped
        /// A stretch cut (`urgent-cut`, `long-cut`, `barge-in`).
        case cut
        /// A reply abandoned (`barge-in`, `after-cut`).
        case abandoned
        /// A reply queued (`reply-queue`).
        case queued
        /// A held stretch resumes (`held`).
        case held
        /// Something on the road: a fix, a report, a turn (docs/timeline.md).
        case road
    }

    /// A moment of the road a reviewer looks for (issue 52): labelled in the
    /// lanes, the SVG and the page, listed in the summary and the page's
    /// Collisions menu beside the arbiter's rules. Raw values are the labels.
    package enum Moment: String, Sendable, CaseIterable {
        case offRoute = "off route"
        case backOnRoute = "back on route"
        case routeRequested = "route requested"
        case routeFailed = "route failed"
        case routeSwitched = "route switched"
        case routeKept = "route kept"
        case handoffTaken = "handoff taken"
        case handoffIgnored = "handoff ignored"
        /// A switch said no switch line (`road.switch.skipped`).
        case switchSkipped = "switch skipped"
        /// A turn passed without its "now" line (`road.turn.unannounced`).
        case turnUnannounced = "turn unannounced"

        /// The moment an event of `kind` is, if any.
        package init?(_ kind: EventKind) {
            switch kind {
            case .roadOffRoute: self = .offRoute
            case .roadOnRoute: self = .backOnRoute
            case .roadRouteRequested: self = .routeRequested
            case .roadRouteFailed: self = .routeFailed
            case .roadRouteSwitched: self = .routeSwitched
            case .roadRouteKept: self = .routeKept
            case .roadHandoffTaken: self = .handoffTaken
            case .roadHandoffIgnored: self = .handoffIgnored
            case .roadSwitchSkipped: self = .switchSkipped
            case .roadTurnUnannounced: self = .turnUnannounced
            default: return nil
            }
        }

        /// A route change's moment: its label is never hidden in a picture.
        package var isRouteChange: Bool {
            switch self {
            case .routeRequested, .routeFailed, .routeSwitched, .routeKept: return true
            default: return false
            }
        }
    }

    /// An instant at which a rule decided something, or something happened on the road.
    package struct Mark: Sendable, Equatable {
        package var lane: Lane
        package var kind: MarkKind
        package var t: SimTime
        package var rule: Rule?
        /// The timeline event it stands for.
        package var event: Int
        /// The road's moment it shows, if any (its label).
        package var moment: Moment? = nil
        /// Why a line was dropped beyond its rule (`switched`), if it says.
        package var reason: LineDropReason? = nil

        /// Its rule's label: the rule, and the reason beyond it when there is one (`stale: switched`, as the text says it).
        package var ruleLabel: String? {
            rule.map { rule in reason.map { rule.rawValue + ": " + $0.rawValue } ?? rule.rawValue }
        }
    }

    /// An arrow from a cause to its effect: the line or utterance that cut a
    /// stretch or abandoned a reply.
    package struct Flow: Sendable, Equatable {
        package var from: Lane
        /// The event that caused it (`guidance.started` of the line, `dad.started` of the utterance).
        package var cause: Int
        package var to: Lane
        /// The cut or abandonment.
        package var effect: Int
        package var t: SimTime
    }

    package private(set) var bars: [Bar] = []
    package private(set) var marks: [Mark] = []
    package private(set) var flows: [Flow] = []
    /// The lanes drawn, top to bottom: the road's only when the timeline has road events.
    package private(set) var shown: [Lane] = []
    /// The time of the last event (zero for an empty timeline).
    package private(set) var end: SimTime = .zero

    /// Lays out `timeline`.
    ///
    /// - Complexity: O(n log n) in the number of events.
    package init(_ timeline: Timeline, only families: EventFamilies = .all) {
        let roster = timeline.roster
        let events = timeline.events
        end = events.last?.t ?? .zero
        // Open intervals, by item index, holding the indices of their events so far.
        var requested = [(t: SimTime, events: [Int])?](repeating: nil, count: roster.lines.count)
        var playing = [(t: SimTime, events: [Int])?](repeating: nil, count: roster.lines.count)
        var started = [Int?](repeating: nil, count: roster.lines.count)
        var replyOpen = [(t: SimTime, events: [Int])?](repeating: nil, count: roster.replyIDs.count)
        var queuedOpen = [(t: SimTime, event: Int)?](repeating: nil, count: roster.replyIDs.count)
        var stretchOpen: (t: SimTime, event: Int)? = nil
        var earsOpenSince: (t: SimTime, event: Int)? = nil
        var speaking: (utterance: Int, t: SimTime, event: Int)? = nil
        var closedWindows = IntervalSet()
        var utterances: [(utterance: Int, start: SimTime, end: SimTime, events: [Int])] = []
        var lastCut: (reply: Int, t: SimTime)? = nil
        var offRouteSince: (t: SimTime, event: Int)? = nil

        func stretchLabel(_ e: TimelineEvent) -> String {
            (e.reply.map { roster.replyIDs[$0.int] } ?? "?") + "/"
                + (e.stretch.map { roster.stretches[$0.int].id } ?? "?")
        }

        for (i, e) in events.enumerated() {
            // The line, reply or utterance the event concerns.
            let s = (e.line?.int ?? e.reply?.int ?? e.utterance?.int) ?? -1
            switch e.kind {
            case .guidanceRequested:
                requested[s] = (e.t, [i])
            case .guidanceWaiting:
                requested[s]?.events.append(i)
                marks.append(Mark(lane: .guidance, kind: .waiting, t: e.t, rule: e.rule, event: i))
            case .guidanceStarted:
                started[s] = i
                var own = [i]
                if let wait = requested[s] {
                    if wait.t < e.t {
                        bars.append(
                            Bar(
                                lane: .guidance, kind: .wait, start: wait.t, end: e.t, label: roster.lines[s].id,
                                events: wait.events))
                    } else {
                        own = wait.events + own
                    }
                    requested[s] = nil
                }
                playing[s] = (e.t, own)
            case .guidanceEnded:
                if var play = playing[s] {
                    playing[s] = nil  // so that its events are appended to in place
                    play.events.append(i)
                    bars.append(
                        Bar(
                            lane: .guidance, kind: .line, start: play.t, end: e.t, label: roster.lines[s].id,
                            events: play.events))
                }
            case .guidanceDropped:
                var wait = requested[s] ?? (e.t, [])
                requested[s] = nil
                wait.events.append(i)
                bars.append(
                    Bar(
                        lane: .guidance, kind: .wait, start: wait.t, end: e.t, label: roster.lines[s].id,
                        events: wait.events))
                let reason = e.rule.flatMap { roster.dropReason(of: LineIndex(s), rule: $0, at: e.t) }
                marks.append(Mark(lane: .guidance, kind: .dropped, t: e.t, rule: e.rule, event: i, reason: reason))
            case .replyQueued:
                queuedOpen[s] = (e.t, i)
                marks.append(Mark(lane: .pippa, kind: .queued, t: e.t, rule: e.rule, event: i))
            case .replyBegan:
                if let queued = queuedOpen[s] {
                    bars.append(
                        Bar(
                            lane: .pippa, kind: .queued, start: queued.t, end: e.t, label: roster.replyIDs[s],
                            events: [queued.event]))
                    queuedOpen[s] = nil
                }
                replyOpen[s] = (e.t, [i])
            case .replyEnded, .replyAbandoned:
                if var reply = replyOpen[s] {
                    replyOpen[s] = nil
                    reply.events.append(i)
                    bars.append(
                        Bar(
                            lane: .pippa, kind: .reply, start: reply.t, end: e.t, label: roster.replyIDs[s],
                            events: reply.events))
                }
                if e.kind == .replyAbandoned {
                    marks.append(Mark(lane: .pippa, kind: .abandoned, t: e.t, rule: e.rule, event: i))
                    // Dad barged in while no stretch played: the arrow goes to the abandonment.
                    if e.rule == .bargeIn, lastCut.map({ $0.reply != s || $0.t != e.t }) ?? true,
                        let dad = speaking
                    {
                        flows.append(Flow(from: .dad, cause: dad.event, to: .pippa, effect: i, t: e.t))
                    }
                }
            case .stretchStarted:
                stretchOpen = (e.t, i)
                if case .stretchStarted(_, _, let held?) = e.what {
                    bars.append(
                        Bar(
                            lane: .pippa, kind: .held, start: e.t - SimTime(ms: held), end: e.t,
                            label: stretchLabel(e), events: [i]))
                    marks.append(Mark(lane: .pippa, kind: .held, t: e.t, rule: e.rule, event: i))
                }
            case .stretchEnded, .stretchCut:
                let open = stretchOpen ?? (e.t, i)
                bars.append(
                    Bar(
                        lane: .pippa, kind: .stretch, start: open.t, end: e.t, label: stretchLabel(e),
                        cut: e.kind == .stretchCut, events: open.event == i ? [i] : [open.event, i]))
                stretchOpen = nil
                if case .stretchCut(_, _, _, let by, _, _) = e.what {
                    marks.append(Mark(lane: .pippa, kind: .cut, t: e.t, rule: e.rule, event: i))
                    lastCut = (s, e.t)
                    switch by {
                    case .line(let line):
                        if let cause = started[line] ?? playing[line]?.events.last {
                            flows.append(Flow(from: .guidance, cause: cause, to: .pippa, effect: i, t: e.t))
                        } else {
                            // The line starts just after the cut, in the same step: point at it when it does.
                            pendingCuts.append((line, i, e.t))
                        }
                    case .utterance:
                        if let dad = speaking {
                            flows.append(Flow(from: .dad, cause: dad.event, to: .pippa, effect: i, t: e.t))
                        }
                    }
                }
            case .earsClosed:
                earsOpenSince = (e.t, i)
            case .earsOpened:
                let closed = earsOpenSince ?? (.zero, i)
                bars.append(
                    Bar(
                        lane: .ears, kind: .earsClosed, start: closed.t, end: e.t, label: "",
                        events: closed.event == i ? [i] : [closed.event, i]))
                closedWindows.insert(SimInterval(closed.t, e.t))
                earsOpenSince = nil
            case .dadStarted:
                speaking = (s, e.t, i)
            case .dadEnded:
                let start = speaking?.t ?? e.t
                utterances.append((s, start, e.t, speaking.map { [$0.event, i] } ?? [i]))
                speaking = nil
            case .roadOffRoute:
                if offRouteSince == nil { offRouteSince = (e.t, i) }
                marks.append(Mark(lane: .road, kind: .road, t: e.t, rule: nil, event: i, moment: Moment(e.kind)))
            case .roadOnRoute, .roadRouteSwitched:
                // Back on the route, or on a new one: the off-route stretch ends.
                if let since = offRouteSince {
                    bars.append(
                        Bar(
                            lane: .road, kind: .offRoute, start: since.t, end: e.t, label: "off route",
                            events: [since.event, i]))
                    offRouteSince = nil
                }
                marks.append(Mark(lane: .road, kind: .road, t: e.t, rule: nil, event: i, moment: Moment(e.kind)))
            case .roadFixArrived, .roadFixDropped, .roadReportSent, .roadReportDelivered, .roadReportDropped,
                .roadTurnUpcoming, .roadTurnPassed, .roadTurnUnannounced, .roadStageSkipped,
                .roadMeasuringPaused, .roadMeasuringResumed, .roadSegmentStarted, .roadSegmentEnded,
                .roadRouteRequested,
                .roadRouteFailed, .roadRouteKept, .roadHandoffDelivered, .roadHandoffTaken, .roadHandoffIgnored,
                .roadHandoffAcknowledged, .roadSwitchSkipped:
                // The road's own lane; its lines show in the guidance lane.
                marks.append(Mark(lane: .road, kind: .road, t: e.t, rule: nil, event: i, moment: Moment(e.kind)))
            }
            if e.kind == .guidanceStarted, !pendingCuts.isEmpty {
                for (n, pending) in pendingCuts.enumerated().reversed() where pending.line == s {
                    flows.append(Flow(from: .guidance, cause: i, to: .pippa, effect: pending.effect, t: pending.t))
                    pendingCuts.remove(at: n)
                }
            }
        }
        // Whatever is still open at the end runs to the last event.
        if let closed = earsOpenSince {
            bars.append(
                Bar(lane: .ears, kind: .earsClosed, start: closed.t, end: end, label: "", events: [closed.event]))
            closedWindows.insert(SimInterval(closed.t, end))
        }
        if let since = offRouteSince {
            bars.append(
                Bar(lane: .road, kind: .offRoute, start: since.t, end: end, label: "off route", events: [since.event]))
        }
        for utterance in utterances {
            splitUtterance(utterance, label: roster.utterances[utterance.utterance].id, closed: closedWindows)
        }
        let road = marks.contains { $0.lane == .road }
        if road { addPippaView(timeline) }
        // Sorted through their indices (ties keep their order), so no bar, with its label and events, is moved more than once.
        // The keys are plain values taken out once, so comparing touches no reference count.
        let unsorted = bars
        let keys = unsorted.map { (lane: $0.lane.rawValue, start: $0.start.ms, end: $0.end.ms) }
        let order = keys.withUnsafeBufferPointer { keys in
            unsorted.indices.sorted { a, b in
                (keys[a].lane, keys[a].start, keys[a].end, a) < (keys[b].lane, keys[b].start, keys[b].end, b)
            }
        }
        bars = order.map { unsorted[$0] }
        shown = road ? Lane.allCases : Lane.allCases.filter { $0 != .road && $0 != .view }
        flows.sort { ($0.t, $0.effect) < ($1.t, $1.effect) }
        if families != .all { keep(families, of: events) }
    }

    /// Leaves out what belongs to other families: the layout is made from the
    /// whole timeline first, so what is kept is drawn as truly as without `--only`.
    private mutating func keep(_ families: EventFamilies, of events: [TimelineEvent]) {
        func kept(_ event: Int) -> Bool { families.contains(events[event].kind) }
        bars.removeAll { bar in !(bar.events.first.map(kept) ?? false) }
        marks.removeAll { !kept($0.event) }
        flows.removeAll { !kept($0.cause) || !kept($0.effect) }
        shown.removeAll { families.intersection(EventFamily.drawn(in: $0)).isEmpty }
    }

    /// Pippa's view lane: one bar per span of one answer (`PippaView.History.spans`),
    /// labelled with the answer and her reports' age; it stands for the
    /// deliveries of the first and last report it holds (before her first
    /// report, for the delivery that ends it).
    /// - Complexity: O(n) in the events.
    private mutating func addPippaView(_ timeline: Timeline) {
        let history = PippaView.History(timeline)
        for span in history.spans(to: end) {
            let held = span.reports.map { history.reports[$0] }
            var events = held.first.map { [$0.event] } ?? history.reports.first.map { [$0.event] } ?? []
            if held.count > 1, let last = held.last { events.append(last.event) }
            let label: String
            switch (span.answer, held.last) {
            case (.notKnown, nil): label = "not-known: no report yet"
            case (.notKnown, let r?):
                label = "not-known: f\(r.fix.raw)'s report over \(Matcher.seconds(PippaView.keptFor)) old"
            case (_, _):
                label =
                    span.answer.rawValue + ", reports at most " + Matcher.seconds(SimTime(ms: span.oldestMs ?? 0))
                    + " old"
            }
            bars.append(
                Bar(
                    lane: .view, kind: BarKind(span.answer), start: span.start, end: span.end, label: label,
                    events: events))
        }
    }

    /// Cuts by a line that had not started yet when the cut was recorded.
    private var pendingCuts: [(line: Int, effect: Int, t: SimTime)] = []

    /// Dad's utterance as heard and lost parts: lost where it meets a closed
    /// window, heard in between; a zero-length utterance is one heard bar.
    /// - Complexity: O(log n + k), k the closed windows it meets.
    private mutating func splitUtterance(
        _ u: (utterance: Int, start: SimTime, end: SimTime, events: [Int]), label: String, closed: IntervalSet
    ) {
        var cursor = u.start
        func add(_ kind: BarKind, _ a: SimTime, _ b: SimTime) {
            bars.append(Bar(lane: .dad, kind: kind, start: a, end: b, label: label, events: u.events))
        }
        for lost in closed.intersection(SimInterval(u.start, u.end)).intervals {
            if cursor < lost.start { add(.heard, cursor, lost.start) }
            add(.lost, lost.start, lost.end)
            cursor = lost.end
        }
        if cursor < u.end || u.start == u.end { add(.heard, cursor, u.end) }
    }
}

/// The part of a timeline to draw: `from`/`to` in milliseconds, both
/// optional, and the families of events to show (`--only`; all by default).
public struct ReviewWindow: Sendable, Equatable {
    /// The first instant drawn (inclusive); nil: from the start.
    public var from: SimTime?
    /// The last instant drawn (inclusive); nil: to the end.
    public var to: SimTime?
    /// The families shown.
    public var only: EventFamilies
    /// Whether the text folds runs of routine road events (`Timeline.story`; `run --all` shows them).
    public var folded: Bool

    /// A window from `from` to `to` showing the families in `only`, its routine road events folded in the text.
    public init(from: SimTime? = nil, to: SimTime? = nil, only: EventFamilies = .all, folded: Bool = true) {
        self.from = from
        self.to = to
        self.only = only
        self.folded = folded
    }

    /// Whether the window is the whole timeline, every family.
    package var isEverything: Bool { from == nil && to == nil && only == .all }

    /// Whether the text and the JSON keep `event`: its time in `[from, to]`, its family shown.
    package func keeps(_ event: TimelineEvent) -> Bool {
        (from.map { event.t >= $0 } ?? true) && (to.map { event.t <= $0 } ?? true) && only.contains(event.kind)
    }

    /// The events of `timeline` that `keeps` accepts (the timeline itself when that is all of them).
    package func selecting(_ timeline: Timeline) -> Timeline {
        isEverything ? timeline : timeline.keeping { keeps($1) }
    }

    /// The range drawn for a timeline ending at `end`: never empty.
    package func range(end: SimTime) -> (start: SimTime, end: SimTime) {
        let start = from ?? .zero
        let stop = to ?? max(end, start + SimTime(ms: 1))
        return (start, stop > start ? stop : start + SimTime(ms: 1))
    }

    /// Whether an interval touches the window. Both are closed here, not
    /// half-open like `SimInterval`: a bar ending where the window starts,
    /// or a zero-length one on its edge, is still drawn.
    func shows(_ start: SimTime, _ end: SimTime, in range: (start: SimTime, end: SimTime)) -> Bool {
        end >= range.start && start <= range.end
    }
}

extension Lanes {
    /// The bars and marks that touch `range`, bars clipped to it.
    func visible(in range: (start: SimTime, end: SimTime)) -> (bars: [Bar], marks: [Mark], flows: [Flow]) {
        let marks = self.marks.filter { $0.t >= range.start && $0.t <= range.end }
        let flows = self.flows.filter { $0.t >= range.start && $0.t <= range.end }
        // A window that holds every bar keeps them as they are: no copy of their labels and events.
        if self.bars.allSatisfy({ $0.start >= range.start && $0.end <= range.end }) { return (self.bars, marks, flows) }
        let window = ReviewWindow()
        let bars = self.bars.compactMap { bar -> Bar? in
            guard window.shows(bar.start, bar.end, in: range) else { return nil }
            var clipped = bar
            clipped.start = max(bar.start, range.start)
            clipped.end = min(bar.end, range.end)
            // A stretch cut after the window ends is not cut inside it: draw no cut that the window does not hold.
            if bar.end > range.end { clipped.cut = false }
            return clipped
        }
        return (bars, marks, flows)
    }
}
