import Guidance
import SimClock
import TalkArbiter

/// Everything that happened in one run, in order (SPEC 5), with the roster
/// that names its items.
public struct Timeline: Sendable {
    /// The scenario's name.
    public let scenario: String
    public let roster: Roster
    public internal(set) var events: [TimelineEvent] = []

    init(scenario: String, roster: Roster) {
        self.scenario = scenario
        self.roster = roster
    }

    /// An event's fields by name, in the order of `EventKind.fields`; optional
    /// extras appear only when they have a value.
    public func fields(of event: TimelineEvent) -> [(name: String, value: FieldValue)] {
        var out: [(name: String, value: FieldValue)] = []
        for name in event.kind.fields {
            if let value = value(of: name, in: event) { out.append((name, value)) }
        }
        return out
    }

    /// One field of an event, or nil if the event does not carry it.
    public func value(of field: String, in event: TimelineEvent) -> FieldValue? {
        let s = Int(event.subject), k = Int(event.stretch)
        switch (event.kind, field) {
        case (.guidanceRequested, "line"), (.guidanceWaiting, "line"), (.guidanceStarted, "line"),
            (.guidanceEnded, "line"), (.guidanceDropped, "line"):
            return .string(roster.lines[s].id)
        case (.guidanceRequested, "urgent"): return .bool(roster.lines[s].urgent)
        case (.guidanceRequested, "maneuver"): return roster.lines[s].maneuver.map(FieldValue.string)
        case (.guidanceRequested, "text"), (.guidanceStarted, "text"): return roster.lines[s].text.map(FieldValue.string)
        case (.guidanceRequested, "language"), (.guidanceStarted, "language"):
            return roster.lines[s].language.map { .string($0.rawValue) }
        case (.replyQueued, "reply"), (.replyBegan, "reply"), (.replyEnded, "reply"), (.replyAbandoned, "reply"),
            (.stretchStarted, "reply"), (.stretchEnded, "reply"), (.stretchCut, "reply"):
            return .string(roster.replyIDs[s])
        case (.guidanceWaiting, "stretch"), (.stretchStarted, "stretch"), (.stretchEnded, "stretch"),
            (.stretchCut, "stretch"):
            return k < 0 ? nil : .string(roster.stretches[k].id)
        case (.stretchStarted, "text"): return roster.stretches[k].text.map(FieldValue.string)
        case (.stretchStarted, "language"): return roster.stretches[k].language.map { .string($0.rawValue) }
        case (.stretchStarted, "heldMs"): return event.rule == nil ? nil : .int(event.ms)
        case (.stretchCut, "playedMs"): return .int(event.ms)
        case (.stretchCut, "by"):
            switch event.by {
            case .line(let i): return .string(roster.lines[i].id)
            case .utterance(let i): return .string(roster.utterances[i].id)
            case nil: return nil
            }
        case (.stretchCut, "afterCut"): return event.afterCut.map { .string($0.rawValue) }
        case (.dadStarted, "utterance"), (.dadEnded, "utterance"): return .string(roster.utterances[s].id)
        case (.dadStarted, "language"): return .string(roster.utterances[s].language.rawValue)
        case (.dadStarted, "text"): return roster.utterances[s].text.map(FieldValue.string)
        case (.dadEnded, "heardMs"): return .int(event.ms)
        case (.dadEnded, "lostMs"): return .int(event.lostMs)
        case (.guidanceRequested, "stage"):
            return s < roster.lineStages.count ? roster.lineStages[s].map { .string($0.rawValue) } : nil
        case (let kind, _) where kind.isRoad: return roadValue(of: field, in: roster.road.records[s])
        case (_, "rule"): return event.rule.map { .string($0.rawValue) }
        default: return nil
        }
    }

    /// One event in one line, for messages: `00:02.000 guidance.waiting line="g1" rule="short-wait"`.
    public func summary(of event: TimelineEvent) -> String {
        var out = "\(event.t) \(event.kind.rawValue)"
        for (name, value) in fields(of: event) { out += " \(name)=\(value)" }
        return out
    }
}
