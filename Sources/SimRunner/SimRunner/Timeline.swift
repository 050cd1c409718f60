import Guidance
import Road
import SimClock
import TalkArbiter

/// Everything that happened in one run, in order (SPEC 5), with the roster
/// that names its items.
public struct Timeline: Sendable {
    /// The scenario's name.
    public let scenario: String
    package let roster: Roster
    /// The events in the order they happened (time, then SPEC 4.2's order within an instant).
    public internal(set) var events: [TimelineEvent] = []

    init(scenario: String, roster: Roster) {
        self.scenario = scenario
        self.roster = roster
    }

    /// The same run with only the events `keep` accepts (given each event's
    /// index and the event), in order: for review, `--from`, `--to` and
    /// `--only` of `drivesim run`.
    package func keeping(_ keep: (_ index: Int, _ event: TimelineEvent) -> Bool) -> Timeline {
        var kept = self
        kept.events = []
        for (i, event) in events.enumerated() where keep(i, event) { kept.events.append(event) }
        return kept
    }

    /// An event's fields, in the order of `EventKind.fields`; optional
    /// extras appear only when they have a value.
    public func fields(of event: TimelineEvent) -> [(field: Field, value: FieldValue)] {
        event.kind.fields.compactMap { field in value(of: field, in: event).map { (field, $0) } }
    }

    /// One field of an event, or nil if the event does not carry it (a field
    /// of another kind, or an optional extra without a value).
    public func value(of field: Field, in event: TimelineEvent) -> FieldValue? {
        // The field first: most asked are not the rule, and finding the event's rule takes a switch.
        if field == .rule, let rule = event.rule { return .string(rule.rawValue) }
        switch event.what {
        // Each field read from the roster's line in place (a copy of the line would retain all its strings).
        case .guidanceRequested(let l):
            switch field {
            case .line: return .string(roster.lines[l.int].id)
            case .urgent: return .bool(roster.lines[l.int].urgent)
            case .maneuver: return roster.lines[l.int].maneuver.map(FieldValue.string)
            case .stage: return roster.stage(of: l).map { .string($0.rawValue) }
            case .text: return roster.lines[l.int].text.map(FieldValue.string)
            case .language: return roster.lines[l.int].language.map { .string($0.rawValue) }
            default: return nil
            }
        case .guidanceStarted(let l):
            switch field {
            case .line: return .string(roster.lines[l.int].id)
            case .text: return roster.text(of: l, startingAt: event.t).map(FieldValue.string)
            case .language: return roster.lines[l.int].language.map { .string($0.rawValue) }
            default: return nil
            }
        case .guidanceWaiting(let l, _, let stretch):
            switch field {
            case .line: return .string(roster.lines[l.int].id)
            case .stretch: return stretch.map { .string(roster.stretches[$0.int].id) }
            default: return nil
            }
        case .guidanceEnded(let l):
            return field == .line ? .string(roster.lines[l.int].id) : nil
        case .guidanceDropped(let l, let rule):
            switch field {
            case .line: return .string(roster.lines[l.int].id)
            case .reason: return roster.dropReason(of: l, rule: rule, at: event.t).map { .string($0.rawValue) }
            default: return nil
            }
        case .replyQueued(let r), .replyBegan(let r), .replyEnded(let r), .replyAbandoned(let r, _):
            return field == .reply ? .string(roster.replyIDs[r.int]) : nil
        case .stretchStarted(let r, let s, let held):
            switch field {
            case .reply: return .string(roster.replyIDs[r.int])
            case .stretch: return .string(roster.stretches[s.int].id)
            case .heldMs: return held.map(FieldValue.int)
            case .text: return roster.stretches[s.int].text.map(FieldValue.string)
            case .language: return roster.stretches[s.int].language.map { .string($0.rawValue) }
            default: return nil
            }
        case .stretchEnded(let r, let s):
            switch field {
            case .reply: return .string(roster.replyIDs[r.int])
            case .stretch: return .string(roster.stretches[s.int].id)
            default: return nil
            }
        case .stretchCut(let r, let s, _, let by, let played, let afterCut):
            switch field {
            case .reply: return .string(roster.replyIDs[r.int])
            case .stretch: return .string(roster.stretches[s.int].id)
            case .by: return .string(roster.id(of: by))
            case .playedMs: return .int(played)
            case .afterCut: return afterCut.map { .string($0.rawValue) }
            default: return nil
            }
        case .earsClosed, .earsOpened:
            return nil
        case .dadStarted(let u):
            switch field {
            case .utterance: return .string(roster.utterances[u.int].id)
            case .language: return .string(roster.utterances[u.int].language.rawValue)
            case .text: return roster.utterances[u.int].text.map(FieldValue.string)
            default: return nil
            }
        case .dadEnded(let u, let heard, let lost):
            switch field {
            case .utterance: return .string(roster.utterances[u.int].id)
            case .heardMs: return .int(heard)
            case .lostMs: return .int(lost)
            default: return nil
            }
        case .road(let road):
            return value(of: field, in: road)
        }
    }

    /// One field of a road event, or nil if it does not carry it.
    func value(of field: Field, in road: RoadEvent.What) -> FieldValue? {
        func fix(_ f: FixIndex) -> FieldValue { .string("f\(f.raw)") }
        func maneuver(_ m: ManeuverIndex) -> FieldValue { .string(roster.road.maneuvers[m.int].id) }
        switch road {
        case .fixArrived(let f, let age, let trusted):
            switch field {
            case .fix: return fix(f)
            case .ageMs: return .int(age)
            case .trusted: return .bool(trusted)
            default: return nil
            }
        case .fixDropped(let f, let reason):
            return field == .fix ? fix(f) : field == .reason ? .string(reason.rawValue) : nil
        case .reportDropped(let f, let reason):
            return field == .fix ? fix(f) : field == .reason ? .string(reason.rawValue) : nil
        case .reportDelivered(let f):
            return field == .fix ? fix(f) : nil
        case .reportSent(let f, let age, let onRoute, let next):
            switch field {
            case .fix: return fix(f)
            case .reporter: return .string(LocationLink.reporter)
            case .ageMs: return .int(age)
            case .onRoute: return .bool(onRoute)
            case .maneuver: return next.map { maneuver($0.maneuver) }
            case .distanceM: return next.map { .int($0.distanceM) }
            default: return nil
            }
        case .offRoute(let offset): return field == .offsetM ? .int(offset) : nil
        case .onRoute(let progress): return field == .progressM ? .int(progress) : nil
        case .turnUpcoming(let next, let eta, let after):
            switch field {
            case .maneuver: return maneuver(next.maneuver)
            case .turn: return .string(roster.road.maneuvers[next.maneuver.int].turn.rawValue)
            case .distanceM: return .int(next.distanceM)
            case .etaMs: return eta.map(FieldValue.int)
            case .after: return after.map { maneuver($0.maneuver) }
            case .afterDistanceM: return after.map { .int($0.distanceM) }
            default: return nil
            }
        case .turnPassed(let m): return field == .maneuver ? maneuver(m) : nil
        case .turnUnannounced(let m, let reason):
            return field == .maneuver ? maneuver(m) : field == .reason ? .string(reason.rawValue) : nil
        case .stageSkipped(let m, let stage, let reason):
            switch field {
            case .maneuver: return maneuver(m)
            case .stage: return .string(stage.rawValue)
            case .reason: return .string(reason.rawValue)
            default: return nil
            }
        case .measuringPaused(let reason): return field == .reason ? .string(reason.rawValue) : nil
        case .measuringResumed, .segmentStarted, .segmentEnded: return nil
        case .routeRequested(let reason, let c):
            return field == .reason
                ? .string(reason.rawValue) : field == .handoff ? c.map { .string(roster.road.changes[$0]) } : nil
        case .routeFailed(let reason, let request, let c):
            switch field {
            case .reason: return .string(reason.rawValue)
            case .request: return .string(request.rawValue)
            case .handoff: return c.map { .string(roster.road.changes[$0]) }
            default: return nil
            }
        case .routeKept(let request, let c):
            return field == .request
                ? .string(request.rawValue) : field == .handoff ? c.map { .string(roster.road.changes[$0]) } : nil
        case .routeSwitched(let c, let reason):
            return field == .route ? .string(roster.road.changes[c]) : field == .reason ? .string(reason.rawValue) : nil
        case .switchSkipped(let c, let reason):
            return field == .route ? .string(roster.road.changes[c]) : field == .reason ? .string(reason.rawValue) : nil
        case .handoffDelivered(let c), .handoffTaken(let c), .handoffAcknowledged(let c):
            return field == .handoff ? .string(roster.road.changes[c]) : nil
        case .handoffIgnored(let c, let reason):
            return field == .handoff
                ? .string(roster.road.changes[c]) : field == .reason ? .string(reason.rawValue) : nil
        }
    }

    /// One event in one line, for messages: `00:02.000 guidance.waiting line="g1" rule="short-wait"`.
    package func summary(of event: TimelineEvent) -> String {
        var out = "\(event.t) \(event.kind.rawValue)"
        for (field, value) in fields(of: event) { out += " \(field.rawValue)=\(value)" }
        return out
    }
}

extension Roster {
    /// A generated line's stage (nil for the file's lines and reroute lines).
    package func stage(of line: LineIndex) -> Stage? {
        line.int < lineStages.count ? lineStages[line.int] : nil
    }

    /// The revision of generated line `line` in force when it starts at `t`
    /// (the latest at or before `t`), or nil: it says its requested words.
    package func revision(of line: LineIndex, startingAt t: SimTime) -> LineRevision? {
        let r = line.int - (lines.count - road.lines.count)
        guard r >= 0, r < road.revisions.count else { return nil }
        return road.revisions[r].last { $0.t <= t }
    }

    /// What line `line` says when it starts at `t`: its revised words, else its own.
    package func text(of line: LineIndex, startingAt t: SimTime) -> String? {
        revision(of: line, startingAt: t)?.text ?? lines[line.int].text
    }

    /// Why line `line`, dropped by `rule` at `t`, was dropped beyond its rule:
    /// `switched` when it is a generated line of a route that a switch ended
    /// at `t` while it waited (`RoadPlan.endsAtSwitch`); else nil.
    package func dropReason(of line: LineIndex, rule: Rule, at t: SimTime) -> LineDropReason? {
        let r = line.int - (lines.count - road.lines.count)
        guard rule == .stale, r >= 0, r < road.endsAtSwitch.count, road.endsAtSwitch[r], road.lines[r].expires == t
        else { return nil }
        return .switched
    }

    /// The id of who cut a stretch: a line or an utterance.
    package func id(of cause: TalkArbiter.Cause) -> String {
        switch cause {
        case .line(let i): return lines[i].id
        case .utterance(let i): return utterances[i].id
        }
    }
}
