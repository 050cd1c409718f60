import Guidance
import SimClock
import TalkArbiter

/// A guidance line, by its place in the roster's line table.
public typealias LineIndex = ItemIndex<GuidanceLine>
/// A reply (Pippa's, then those answering Dad), by its place in the roster.
public typealias ReplyIndex = ItemIndex<Scenario.Reply>
/// A stretch, by its place in the roster's stretch table.
public typealias StretchIndex = ItemIndex<Scenario.Stretch>
/// One of Dad's utterances, by its place in the file.
public typealias UtteranceIndex = ItemIndex<Scenario.Utterance>

/// One entry of a timeline, typed: each case carries exactly its fields,
/// items as typed indices into the `Roster` (names are filled in only when
/// the timeline is rendered or compared), road entries with their whole
/// payload. Two events are equal exactly when they render the same.
public struct TimelineEvent: Sendable, Equatable {
    /// When it happened.
    public var t: SimTime
    /// What happened.
    public var what: What

    /// An event `what` at `t`.
    public init(t: SimTime, _ what: What) {
        self.t = t
        self.what = what
    }

    /// One case per event name of SPEC 5 (the road's in one case, typed by `RoadEvent`).
    public enum What: Sendable, Equatable {
        /// A line was requested.
        case guidanceRequested(LineIndex)
        /// Waiting by `short-wait` (for a stretch) or `guidance-queue`.
        case guidanceWaiting(LineIndex, rule: Rule, stretch: StretchIndex?)
        /// A line started playing.
        case guidanceStarted(LineIndex)
        /// A line played to its end.
        case guidanceEnded(LineIndex)
        /// A line was dropped (`superseded` or `stale`).
        case guidanceDropped(LineIndex, rule: Rule)
        /// Queued behind the active reply (`reply-queue`).
        case replyQueued(ReplyIndex)
        /// A reply became the active one.
        case replyBegan(ReplyIndex)
        /// A stretch started; `heldMs` when it was held first (`held`).
        case stretchStarted(ReplyIndex, StretchIndex, heldMs: Int64?)
        /// A stretch played to its end.
        case stretchEnded(ReplyIndex, StretchIndex)
        /// A stretch was cut by a line or an utterance, after `playedMs`.
        case stretchCut(
            ReplyIndex, StretchIndex, rule: Rule, by: TalkArbiter.Cause, playedMs: Int64,
            afterCut: TalkArbiter.AfterCut?)
        /// A reply played all its stretches.
        case replyEnded(ReplyIndex)
        /// A reply was abandoned (`barge-in` or `after-cut`).
        case replyAbandoned(ReplyIndex, rule: Rule)
        /// The ears closed (`ears-closed`).
        case earsClosed
        /// The ears opened.
        case earsOpened
        /// Dad started speaking.
        case dadStarted(UtteranceIndex)
        /// Dad stopped; how much of it the ears heard and lost.
        case dadEnded(UtteranceIndex, heardMs: Int64, lostMs: Int64)
        /// A road event of the plan, with its payload.
        case road(RoadEvent.What)
    }

    /// The event's name.
    public var kind: EventKind {
        switch what {
        case .guidanceRequested: return .guidanceRequested
        case .guidanceWaiting: return .guidanceWaiting
        case .guidanceStarted: return .guidanceStarted
        case .guidanceEnded: return .guidanceEnded
        case .guidanceDropped: return .guidanceDropped
        case .replyQueued: return .replyQueued
        case .replyBegan: return .replyBegan
        case .stretchStarted: return .stretchStarted
        case .stretchEnded: return .stretchEnded
        case .stretchCut: return .stretchCut
        case .replyEnded: return .replyEnded
        case .replyAbandoned: return .replyAbandoned
        case .earsClosed: return .earsClosed
        case .earsOpened: return .earsOpened
        case .dadStarted: return .dadStarted
        case .dadEnded: return .dadEnded
        case .road(let road): return road.kind
        }
    }

    /// The rule that decided it, if any.
    public var rule: Rule? {
        switch what {
        case .guidanceWaiting(_, let rule, _), .guidanceDropped(_, let rule), .stretchCut(_, _, let rule, _, _, _),
            .replyAbandoned(_, let rule):
            return rule
        case .replyQueued: return .replyQueue
        case .stretchStarted(_, _, let held): return held == nil ? nil : .held
        case .earsClosed: return .earsClosed
        case .guidanceRequested, .guidanceStarted, .guidanceEnded, .replyBegan, .stretchEnded, .replyEnded, .earsOpened,
            .dadStarted, .dadEnded, .road:
            return nil
        }
    }

    /// The line it concerns, for the guidance's events.
    public var line: LineIndex? {
        switch what {
        case .guidanceRequested(let l), .guidanceWaiting(let l, _, _), .guidanceStarted(let l), .guidanceEnded(let l),
            .guidanceDropped(let l, _):
            return l
        default: return nil
        }
    }

    /// The reply it concerns, for the talk's events.
    public var reply: ReplyIndex? {
        switch what {
        case .replyQueued(let r), .replyBegan(let r), .stretchStarted(let r, _, _), .stretchEnded(let r, _),
            .stretchCut(let r, _, _, _, _, _), .replyEnded(let r), .replyAbandoned(let r, _):
            return r
        default: return nil
        }
    }

    /// The utterance it concerns, for Dad's events.
    public var utterance: UtteranceIndex? {
        switch what {
        case .dadStarted(let u), .dadEnded(let u, _, _): return u
        default: return nil
        }
    }

    /// The stretch it concerns: the talk's stretch events and a `short-wait`.
    public var stretch: StretchIndex? {
        switch what {
        case .stretchStarted(_, let s, _), .stretchEnded(_, let s), .stretchCut(_, let s, _, _, _, _): return s
        case .guidanceWaiting(_, _, let s): return s
        default: return nil
        }
    }
}

extension RoadEvent.What {
    /// The timeline's name for this road event.
    package var kind: EventKind {
        switch self {
        case .fixArrived: return .roadFixArrived
        case .fixDropped: return .roadFixDropped
        case .reportSent: return .roadReportSent
        case .reportDelivered: return .roadReportDelivered
        case .reportDropped: return .roadReportDropped
        case .offRoute: return .roadOffRoute
        case .onRoute: return .roadOnRoute
        case .turnUpcoming: return .roadTurnUpcoming
        case .turnPassed: return .roadTurnPassed
        case .turnUnannounced: return .roadTurnUnannounced
        case .stageSkipped: return .roadStageSkipped
        case .measuringPaused: return .roadMeasuringPaused
        case .measuringResumed: return .roadMeasuringResumed
        case .segmentStarted: return .roadSegmentStarted
        case .segmentEnded: return .roadSegmentEnded
        case .routeRequested: return .roadRouteRequested
        case .routeFailed: return .roadRouteFailed
        case .routeSwitched: return .roadRouteSwitched
        case .routeKept: return .roadRouteKept
        case .handoffDelivered: return .roadHandoffDelivered
        case .handoffTaken: return .roadHandoffTaken
        case .handoffIgnored: return .roadHandoffIgnored
        case .handoffAcknowledged: return .roadHandoffAcknowledged
        case .switchSkipped: return .roadSwitchSkipped
        }
    }

    /// The reason it gives, as the timeline writes it.
    package var reason: String? {
        switch self {
        case .fixDropped(_, let reason): return reason.rawValue
        case .reportDropped(_, let reason): return reason.rawValue
        case .turnUnannounced(_, let reason): return reason.rawValue
        case .stageSkipped(_, _, let reason), .switchSkipped(_, let reason): return reason.rawValue
        case .measuringPaused(let reason): return reason.rawValue
        case .routeRequested(let reason, _), .routeSwitched(_, let reason): return reason.rawValue
        case .routeFailed(let reason, _, _): return reason.rawValue
        case .handoffIgnored(_, let reason): return reason.rawValue
        default: return nil
        }
    }
}

/// Why a line was dropped beyond its rule: `guidance.dropped`'s `reason`, an
/// extra of drivesim's (docs/timeline.md). Raw values are the timeline's words.
public enum LineDropReason: String, Sendable, Equatable, CaseIterable {
    /// A route switch ended its route while it waited (`road.route.switched`):
    /// it expired then (`stale`), its words being the old route's.
    case switched
}
