import SimRunner

/// The families of timeline events that `drivesim run --only` names. Every
/// event is in exactly one, by its name: `guidance.*`, `talk.*`, `ears.*`,
/// `dad.*`, the location link's `road.report.*`, and the rest of `road.*`.
///
/// The ears are a family of their own: they close because guidance plays,
/// but what they decide is how much of Dad is heard, so neither owns them.
/// Pictures lay out the whole timeline before they leave families out, so
/// `--only dad` still shows Dad's lost speech where the ears were closed.
public enum EventFamily: String, Sendable, CaseIterable {
    case guidance, talk, ears, dad, road, link

    /// The family of an event of `kind`.
    public init(_ kind: EventKind) {
        switch kind {
        case .guidanceRequested, .guidanceWaiting, .guidanceStarted, .guidanceEnded, .guidanceDropped:
            self = .guidance
        case .replyQueued, .replyBegan, .stretchStarted, .stretchEnded, .stretchCut, .replyEnded, .replyAbandoned:
            self = .talk
        case .earsClosed, .earsOpened:
            self = .ears
        case .dadStarted, .dadEnded:
            self = .dad
        case .roadReportSent, .roadReportDelivered, .roadReportDropped:
            self = .link
        case .roadFixArrived, .roadFixDropped, .roadOffRoute, .roadOnRoute, .roadTurnUpcoming, .roadTurnPassed,
            .roadTurnUnannounced, .roadStageSkipped, .roadMeasuringPaused, .roadMeasuringResumed, .roadSegmentStarted,
            .roadSegmentEnded, .roadRouteRequested, .roadRouteFailed, .roadRouteSwitched, .roadRouteKept,
            .roadHandoffDelivered,
            .roadHandoffTaken, .roadHandoffIgnored, .roadHandoffAcknowledged, .roadSwitchSkipped:
            self = .road
        }
    }

    /// The names, in order, as `--only` takes them.
    package static let names = allCases.map(\.rawValue)

    /// The family named `name`, in any case, or by the lane the pictures
    /// draw it in (`pippa`, `Pippa`: talk; `Dad`: dad); nil if none.
    public init?(named name: String) {
        let lower = name.lowercased()
        if let family = EventFamily(rawValue: lower) {
            self = family
            return
        }
        guard let lane = Lanes.Lane.allCases.first(where: { $0.title.lowercased() == lower }),
            let family = EventFamily.allCases.first(where: { EventFamily.drawn(in: lane) == EventFamilies($0) })
        else { return nil }
        self = family
    }

    /// Every name `init(named:)` takes in lower case: the families' and the lanes' (`pippa`), for suggestions.
    package static let namesAndLanes =
        names + Lanes.Lane.allCases.map { $0.title.lowercased() }.filter { !names.contains($0) }

    /// The families drawn in `lane` (the road lane holds the road's and the link's events; the view lane, Pippa's, the link's).
    static func drawn(in lane: Lanes.Lane) -> EventFamilies {
        switch lane {
        case .guidance: return [.guidance]
        case .pippa: return [.talk]
        case .ears: return [.ears]
        case .dad: return [.dad]
        case .road: return [.road, .link]
        case .view: return [.link]
        }
    }
}

/// A set of `EventFamily`s, as bits (so nothing depends on hashing).
public struct EventFamilies: OptionSet, Sendable, Equatable {
    /// One bit per `EventFamily`, in `EventFamily.allCases` order.
    public let rawValue: UInt8
    /// The families with these bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// One family.
    public init(_ family: EventFamily) {
        rawValue = 1 << UInt8(EventFamily.allCases.firstIndex(of: family) ?? 0)
    }

    /// `guidance.*` events.
    public static let guidance = EventFamilies(.guidance)
    /// `talk.*` events.
    public static let talk = EventFamilies(.talk)
    /// `ears.*` events.
    public static let ears = EventFamilies(.ears)
    /// `dad.*` events.
    public static let dad = EventFamilies(.dad)
    /// `road.*` events but the link's.
    public static let road = EventFamilies(.road)
    /// `road.report.*` events: the location link.
    public static let link = EventFamilies(.link)
    /// Every family: no `--only`.
    public static let all: EventFamilies = [.guidance, .talk, .ears, .dad, .road, .link]

    /// Whether an event of `kind` is in one of these families.
    public func contains(_ kind: EventKind) -> Bool { contains(EventFamilies(EventFamily(kind))) }

    /// The families of a comma-separated list (`guidance,talk`); the first
    /// name that is none, if any (an empty name included).
    package static func parse(_ list: String) -> Result<EventFamilies, UnknownFamily> {
        var families: EventFamilies = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let family = EventFamily(named: String(name)) else {
                return .failure(UnknownFamily(name: String(name)))
            }
            families.insert(EventFamilies(family))
        }
        return .success(families)
    }

    /// A name in an `--only` list that is no family.
    package struct UnknownFamily: Error, Sendable, Equatable {
        /// The name as given.
        package var name: String
    }
}
