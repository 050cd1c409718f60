import SimClock

/// The link that reports each fix (as reporter `pathfinder`) to the service.
/// Reports are dropped, never queued: at most one is in flight, and a fix
/// that arrives while the link is offline or busy, or that is already older
/// than the freshness limit, is dropped with that reason.
public struct LocationLink: Sendable, Equatable {
    /// Who the reports are from.
    public static let reporter = "pathfinder"

    /// Why a report was not sent. Raw values are the timeline's words.
    public enum DropReason: String, Sendable, Equatable, CaseIterable {
        case offline
        case stale
        case busy
    }

    /// What became of one fix's report.
    public enum Outcome: Sendable, Equatable {
        case sent(delivered: SimTime)
        case dropped(DropReason)
    }

    /// How long a report is in flight.
    public var latency: SimTime
    /// A fix older than this when it arrives is not reported.
    public var freshness: SimTime
    /// Windows in which the link is down.
    public var outages: [TimeWindow]
    /// When the report in flight lands; the link is free from then on.
    public private(set) var busyUntil = SimTime.zero

    public init(latency: SimTime = SimTime(ms: 300), freshness: SimTime = SimTime(ms: 2000), outages: [TimeWindow] = []) {
        self.latency = latency; self.freshness = freshness; self.outages = outages
    }

    /// Offers the report of a fix taken at `taken` at time `now`. Checked in
    /// this order: offline, stale, busy.
    public mutating func offer(taken: SimTime, at now: SimTime) -> Outcome {
        if outages.holds(now) { return .dropped(.offline) }
        if now - taken > freshness { return .dropped(.stale) }
        if now < busyUntil { return .dropped(.busy) }
        busyUntil = now + latency
        return .sent(delivered: busyUntil)
    }
}
