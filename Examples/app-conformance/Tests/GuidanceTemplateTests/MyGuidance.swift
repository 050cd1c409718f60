import Foundation
import Guidance
import Road
import SimClock

/// The smallest complete `Guidance` (docs/test-your-guidance.md, "Start from
/// the reference"): drivesim's own `Announcer` wrapped, every requirement
/// delegated to it. Copy this file and MyGuidanceTests.swift into your test
/// target and change one thing; `sayMiles` is the template's own change,
/// off as shipped (with `true` every distance is said in miles to a metric
/// voice, and `road line-words` fails).
struct MyGuidance: Guidance {
    /// The template's one deliberate change, off as shipped.
    static let sayMiles = false

    /// The reference guidance everything is delegated to.
    var reference: Announcer

    /// Made for each road's route, as drivesim makes its own.
    init(_ route: GuidanceRoute) { reference = Announcer(route) }

    /// When the guidance segment being spoken in ends (nil: never): no line may play past it. Set before each `announce`.
    var segmentEnd: SimTime? {
        get { reference.segmentEnd }
        set { reference.segmentEnd = newValue }
    }

    /// Per maneuver, whether a "now" line of its own was made for it.
    var nowSpoken: [Bool] { reference.nowSpoken }

    /// Everything to say in `[from, until)`: lines, stages skipped, maneuvers believed passed, lines revised.
    mutating func announce(_ state: RoadState, from: SimTime, until: SimTime, into out: inout [Announcement]) {
        let first = out.count
        reference.announce(state, from: from, until: until, into: &out)
        guard Self.sayMiles else { return }
        for i in out.indices[first...] {
            guard case .line(var line, let m, let stage) = out[i] else { continue }
            line.text = line.text?.replacingOccurrences(of: " meters", with: " miles")
            out[i] = .line(line, maneuver: m, stage: stage)
        }
    }

    /// A fix reached the app; `state` is what the follower made of it (nil: it did not move the car).
    mutating func fixArrived(_ fix: Fix, state: RoadState?, onRoute: Bool) {
        reference.fixArrived(fix, state: state, onRoute: onRoute)
    }

    /// The urgent line when the car leaves the route (`back` false) or rejoins it; nil says nothing.
    mutating func rerouteLine(at t: SimTime, back: Bool) -> GuidanceLine? { reference.rerouteLine(at: t, back: back) }

    /// A line of no stage as maneuver `m` is believed passed ("Continue for 5 kilometers."); nil says nothing.
    mutating func linePassing(_ m: Int, _ state: RoadState, at t: SimTime) -> GuidanceLine? {
        reference.linePassing(m, state, at: t)
    }

    /// The line as the drive starts ("Head north."); nil says nothing.
    mutating func lineDeparting(_ state: RoadState, at t: SimTime) -> GuidanceLine? { reference.lineDeparting(state, at: t) }

    /// Why maneuver `m`, passed without a "now" line of its own, got none (`then`, `late`); nil does not say.
    func unannounced(_ m: Int) -> RoadEvent.UnannouncedReason? { reference.unannounced(m) }
    func unannounced(_ m: Int, passedAt pass: SimTime) -> RoadEvent.UnannouncedReason? {
        reference.unannounced(m, passedAt: pass)
    }

    /// Waiting lines are re-phrased and withdrawn as the reference's are.
    var reviser: Announcer? { reference }

    /// The line as the drive changes onto this route (a reroute, or Pippa's handoff); nil says nothing.
    mutating func lineSwitching(to change: String, handoff: Bool, destination: String?, at t: SimTime) -> GuidanceLine? {
        reference.lineSwitching(to: change, handoff: handoff, destination: destination, at: t)
    }
}
