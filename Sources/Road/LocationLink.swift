import SimClock

/// The link that reports each fix (as reporter `pathfinder`) to the service.
/// Reports are dropped, never queued: a late position is not where the car
/// is. At most one report is in flight; a fix that arrives while the link is
/// offline or busy, that is already older than the freshness limit, or that
/// was taken before a fix already reported, is dropped with that reason. A
/// report in flight fails when an outage begins before it lands, and times
/// out when it would land older than the freshness limit: both are dropped,
/// with their reasons, at the instant they fail, and free the link then.
///
/// A fix that arrives while a report is in flight is dropped (`busy`); it
/// neither waits nor cancels the report in flight. Waiting would deliver a
/// position older than the next fix will be; cancelling would, on a link
/// slower than the fix rate, cancel every report before it lands.
public struct LocationLink: Sendable, Equatable {
    /// Who the reports are from.
    public static let reporter = "pathfinder"

    /// Why a report was not sent, or did not land. Raw values are the timeline's words.
    public enum DropReason: String, Sendable, Equatable, CaseIterable {
        /// The link was down when the fix arrived.
        case offline
        /// The fix was older than the freshness limit when it arrived.
        case stale
        /// Another report was in flight.
        case busy
        /// The fix was taken before (or with) one already reported.
        case outOfOrder = "out-of-order"
        /// An outage began while the report was in flight.
        case interrupted
        /// The report would have landed older than the freshness limit.
        case timeout
    }

    /// What became of one fix's report.
    public enum Outcome: Sendable, Equatable {
        /// Sent now; it lands at `delivered`.
        case sent(delivered: SimTime)
        /// Sent now, but it fails at `at` for `reason` (`interrupted` or `timeout`).
        case failed(at: SimTime, reason: DropReason)
        /// Never sent.
        case dropped(DropReason)
    }

    /// How long a report is in flight.
    public var latency: SimTime
    /// A fix older than this is not reported, and a report that would land older times out.
    public var freshness: SimTime
    /// Windows in which the link is down.
    public var outages: [SimInterval] { didSet { offline = IntervalSet(outages) } }
    /// The outages as one set, for lookups by binary search.
    var offline: IntervalSet
    /// When the report in flight lands or fails; the link is free from then on.
    public private(set) var busyUntil = SimTime.zero
    /// When the newest fix reported was taken.
    public private(set) var lastReported: SimTime? = nil
    /// A deliberately broken link, for mutation testing (nil: the link as documented).
    package var fault: RoadFault? = nil

    /// A link with the defaults of docs/scenario-format.md: 300 ms latency, 2 s freshness, no
    /// outages. Both spans lie within 0...1 h in a valid road (`RoadSetup.validate()`).
    public init(
        latency: SimTime = SimTime(ms: 300), freshness: SimTime = SimTime(ms: 2000), outages: [SimInterval] = []
    ) {
        self.latency = latency
        self.freshness = freshness
        self.outages = outages
        offline = IntervalSet(outages)
    }

    /// Whether two links behave alike: equal settings (the state in flight is not compared).
    public static func == (a: LocationLink, b: LocationLink) -> Bool {
        a.latency == b.latency && a.freshness == b.freshness && a.outages == b.outages
    }

    /// Offers the report of a fix taken at `taken` at time `now`. Checked in
    /// this order: offline, stale, busy, out-of-order; a report sent then
    /// fails at the first of an outage's start and its freshness deadline
    /// (`taken + freshness`) that comes before it lands.
    public mutating func offer(taken: SimTime, at now: SimTime) -> Outcome {
        if offline.contains(now) { return .dropped(.offline) }
        if now - taken > freshness { return .dropped(.stale) }
        if now < busyUntil { return .dropped(.busy) }
        if let last = lastReported, taken <= last { return .dropped(.outOfOrder) }
        lastReported = taken
        let lands = now + latency
        let outage =
            fault == .linkThroughOutage
            ? nil : outages.lazy.filter { $0.start > now && $0.start <= lands }.map(\.start).min()
        let deadline = taken + freshness
        if let outage, outage <= deadline {
            busyUntil = outage
            return .failed(at: outage, reason: .interrupted)
        }
        if lands > deadline, fault != .linkNoTimeout {
            busyUntil = deadline
            return .failed(at: deadline, reason: .timeout)
        }
        busyUntil = lands
        return .sent(delivered: lands)
    }
}
