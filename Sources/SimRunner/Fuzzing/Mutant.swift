import Road
import SimRunner
import TalkArbiter

/// A built-in mutant (`fuzz --mutant`, `run --mutant`): a deliberately broken
/// arbiter (`TalkArbiter.Fault`) or a deliberately broken road
/// (`RoadFault`: the link, the follower, the guidance or the planner). Named
/// on the command line by its raw value, the same in code.
package enum Mutant: Sendable, Hashable {
    /// A broken talk arbiter.
    case talk(TalkArbiter.Fault)
    /// A broken road.
    case road(RoadFault)

    /// Every mutant: the arbiter's, then the road's.
    package static let allCases: [Mutant] =
        TalkArbiter.Fault.allCases.map(Mutant.talk) + RoadFault.allCases.map(Mutant.road)

    /// The mutant called `name`, if any.
    package init?(name: String) {
        if let fault = TalkArbiter.Fault(rawValue: name) {
            self = .talk(fault)
        } else if let fault = RoadFault(rawValue: name) {
            self = .road(fault)
        } else {
            return nil
        }
    }

    /// Its name on the command line: the case name in kebab case.
    package var name: String {
        switch self {
        case .talk(let fault): return fault.rawValue
        case .road(let fault): return fault.rawValue
        }
    }

    /// The arbiter's fault, if this is one.
    package var talk: TalkArbiter.Fault? { if case .talk(let f) = self { return f } else { return nil } }
    /// The road's fault, if this is one.
    package var road: RoadFault? { if case .road(let f) = self { return f } else { return nil } }
    /// How a run plans its road under this mutant: broken for a road's, as it is (nil) for an arbiter's.
    package var roadPlan: RoadPlanning? { road.map(RoadPlanning.builtIn) }

    /// What it breaks: `rule stale` for an arbiter's mutant, the road check it should trip for a road's.
    package var breaks: String {
        switch self {
        case .talk(let fault): return fault.rule.rawValue
        case .road(let fault): return fault.check.description
        }
    }
}

extension RoadFault {
    /// The road check this mutant should trip first (docs/fuzzing.md#road-mutants).
    package var check: Check {
        switch self {
        case .linkThroughOutage, .linkNoTimeout: return .road(.linkHonest)
        case .linkQueuesBusy: return .road(.link)
        case .jumpTrusted: return .road(.jumpDropped)
        case .passedBelieved: return .road(.passedTruth)
        case .expiryIgnored: return .road(.lineAfterManeuver)
        case .nowSkippedSilently: return .road(.nowLine)
        case .distanceRoundedUp: return .road(.spokenDistance)
        case .segmentsIgnored: return .road(.whenInUse)
        case .passNeedsBelief, .trueTurnDropped: return .road(.announced)
        case .switchLineMisnamed: return .road(.switchLine)
        case .reportKeepsOldDistance: return .road(.pippaView)
        case .nowClaimedLate: return .road(.lateClaim)
        case .switchKeepsOldLines, .mapsThroughOutage: return .road(.routeSwitch)
        case .oldRouteDistances: return .road(.spokenDistance)
        case .handoffTakenTwice, .ackThroughOutage: return .road(.handoff)
        }
    }

    /// One line on what the mutant does.
    package var summary: String {
        switch self {
        case .linkThroughOutage: return "a report in flight lands through an outage that began"
        case .linkNoTimeout: return "a report in flight never times out, so it lands stale"
        case .linkQueuesBusy: return "a fix arriving while a report is in flight is queued and sent later"
        case .jumpTrusted: return "the follower uses a multipath jump (no plausibility gate)"
        case .expiryIgnored: return "generated lines never expire, so a waited line plays after its turn"
        case .nowSkippedSilently: return "a turn without a \"now\" line is not recorded as unannounced"
        case .distanceRoundedUp: return "far and near lines round the distance up, not down"
        case .segmentsIgnored: return "the guidance speaks outside Dad's guidance segments"
        case .passedBelieved: return "\"turn passed\" recorded where the guidance believes it, not the car"
        case .passNeedsBelief: return "a turn the guidance never believed passed is never recorded passed"
        case .switchKeepsOldLines: return "at a route switch the old route's waiting lines do not expire"
        case .oldRouteDistances:
            return "after a switch, distances count from where the new road left the old, not from the car"
        case .handoffTakenTwice: return "a handoff delivered again is taken again"
        case .ackThroughOutage: return "a handoff's acknowledgement lands through an outage"
        case .mapsThroughOutage: return "a route request is sent while the link is down and answered through an outage"
        case .reportKeepsOldDistance:
            return "a report carries the next maneuver's distance off the route, where the car left the road"
        case .switchLineMisnamed:
            return "the switch line says a reroute's words after a handoff, and a handoff's after a reroute"
        case .trueTurnDropped:
            return "a new route begins at its branch, so a turn the car makes before it is on no route"
        case .nowClaimedLate:
            return "a turn's \"now\" line is never said, and the turn is said to have come too late for one"
        }
    }
}
