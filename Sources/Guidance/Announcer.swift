import Road
import SimClock

/// What the guidance knows of the road at one moment: the progress as of
/// the last trusted fix, when that fix was taken, and the believed speed.
/// Between fixes the progress is predicted at that speed (dead reckoning).
public struct RoadState: Sendable, Equatable {
    /// Meters along the route when `taken`.
    public var progress: Double
    /// When the last trusted fix was taken: the instant `progress` holds for.
    public var taken: SimTime
    /// m/s.
    public var speed: Double

    /// A state: `progress` meters along the route as of the fix taken at `taken`, driving at `speed` m/s.
    public init(progress: Double, taken: SimTime, speed: Double) {
        self.progress = progress
        self.taken = taken
        self.speed = speed
    }

    /// The predicted progress at `t`.
    @inlinable public func progress(at t: SimTime) -> Double {
        progress + speed * Double((t - taken).ms) / 1000
    }
}

/// What the guidance decided.
public enum Announcement: Sendable, Equatable {
    /// Speak this line for stage `stage` of maneuver `maneuver` (an index).
    case line(GuidanceLine, maneuver: Int, stage: Stage)
    /// A stage of a maneuver will not be spoken.
    case skipped(maneuver: Int, stage: Stage, reason: SkipReason, at: SimTime)
    /// The guidance believes the car has passed a maneuver.
    case passed(maneuver: Int, at: SimTime)
    /// A line asked for in an earlier span (by its id), if it still waits
    /// at `at`: from then on it says `revision`'s words (nil: as before), and
    /// it expires by `expires` (nil: as before; only ever earlier: at `at`
    /// itself withdraws it). A guidance other than drivesim's own revises
    /// its waiting lines this way (drivesim's are revised by the planner:
    /// `RoadPlan.revisions`).
    case revised(line: String, at: SimTime, revision: LineRevision?, expires: SimTime?)
}

/// Why a stage is not spoken. Raw values are the timeline's words.
public enum SkipReason: String, Sendable, Equatable, CaseIterable {
    /// A more imminent stage was already due, or a "now" line could no longer finish in time.
    case late
    /// The previous maneuver's lines announced this one ("…, then turn left").
    case then
    /// It would say word for word what the line before it for the maneuver
    /// said (a near line with the far line's spoken distance).
    case repeated
    /// It could not be spoken to its end before Dad's guidance segment ends.
    case notGuiding = "not-guiding"
}

/// The guidance: given the road state, the settings and a span of time, it
/// decides which line to speak when. One line per stage per maneuver; a
/// stage fires when the distance left, minus what the car covers while the
/// line is spoken, reaches the stage's lead distance; a late stage is skipped
/// for the most imminent one still valid; a stale line is never spoken.
public struct Announcer: Sendable {
    /// Speeds below this (m/s) are taken as standing still: no prediction.
    package static let standing = 0.1
    /// When predicting when a maneuver is passed, the car is taken to go at least this fast (m/s).
    package static let predictionFloor = 2.0
    /// How long after the arrival its "now" line may still start ("You have
    /// arrived" said later is news to nobody).
    package static let arrivalWindow = SimTime(ms: 10_000)
    /// An arrival's "now" line is heard from when the car is this near the
    /// destination (meters; `Route.maneuverTolerance`): where it stops, at
    /// the kerb, is rarely its point to the meter.
    package static let arrivedWithin = Route.maneuverTolerance

    /// The language, the stages' leads, the margin and the speech rates it speaks with.
    public let settings: GuidanceSettings
    /// The route's maneuvers in route order, placed (`Maneuver.distance` set).
    public let maneuvers: [Maneuver]
    /// The first maneuver the guidance believes is still ahead.
    package private(set) var next = 0
    /// Per maneuver, the stages spoken or skipped.
    var done: [UInt8]
    /// Per maneuver, whether a "now" line of its own was made for it.
    public private(set) var nowSpoken: [Bool]
    /// Per maneuver, whether the maneuver before's "now" line announced it ("…, then turn left").
    package private(set) var thenSpoken: [Bool]
    /// Per maneuver, when the maneuver before's "now" line that announced it was made.
    var thenAt: [SimTime?]
    /// Per maneuver, whether its "now" stage was skipped because it could not end inside the guidance segment.
    package private(set) var nowOutsideSegment: [Bool]
    /// Per maneuver, the words of the last line spoken for it.
    var lastWords: [String?]
    /// Per maneuver, whether the car was seen on its way there: farther than
    /// `arrivedWithin` from it, or passing the maneuver before while that one
    /// was being announced (an arrival's "now" line needs it).
    var approached: [Bool]
    var reroutes = 0
    /// When the guidance segment being spoken in ends (nil: it never does):
    /// no line may play past it.
    public var segmentEnd: SimTime? = nil
    /// Per maneuver and stage, the spoken distance and "then" of the last
    /// duration guess, and its duration: texts are built only when either changes.
    var guesses: [(spoken: Int, joined: Bool, length: SimTime)]
    /// A deliberately broken guidance, for mutation testing (nil: as documented).
    package var fault: RoadFault? = nil
    /// Per maneuver said on reaching it, when its "now" line starts and
    /// expires, while it may still be tried again (`retryReached`).
    var reachedLines: [Int: (at: SimTime, expires: SimTime)] = [:]
    /// Per maneuver, whether its "now" line was tried again (once at most).
    package private(set) var retried: [Bool] = []
    /// The compass bearing the route sets off in (`GuidanceRoute.heading`), for the departure line.
    package var heading: Double? = nil

    /// An announcer for `maneuvers` (in route order, placed on the route) that nothing has been said for yet.
    package init(settings: GuidanceSettings, maneuvers: [Maneuver]) {
        self.settings = settings
        self.maneuvers = maneuvers
        done = Array(repeating: 0, count: maneuvers.count)
        nowSpoken = Array(repeating: false, count: maneuvers.count)
        thenSpoken = nowSpoken
        nowOutsideSegment = nowSpoken
        thenAt = Array(repeating: nil, count: maneuvers.count)
        lastWords = Array(repeating: nil, count: maneuvers.count)
        approached = nowSpoken
        retried = nowSpoken
        guesses = Array(repeating: (-1, false, .zero), count: maneuvers.count * Stage.allCases.count)
    }

    /// The duration of `text` in the guidance's language. Estimated afresh
    /// each time: counting a sentence's words and syllables in place costs
    /// less than hashing it (a Korean one is normalized to be hashed).
    func duration(_ text: String) -> SimTime {
        SpeechDuration.estimate(text, settings.language, rates: settings.rates)
    }

    /// The maneuver announced together with `m` at `v` m/s, if it follows
    /// within `thenWithin` meters or within `thenSeconds` at that speed. A
    /// waypoint's lines are its own: none announces what follows it.
    func then(_ m: Int, speed v: Double) -> Int? {
        guard m + 1 < maneuvers.count, maneuvers[m].turn != .waypoint else { return nil }
        let gap = maneuvers[m + 1].distance - maneuvers[m].distance
        return gap <= max(settings.thenWithin, v * settings.thenSeconds) ? m + 1 : nil
    }

    /// The text of stage `stage` of maneuver `m` at `distance` meters and `v` m/s.
    func text(_ stage: Stage, _ m: Int, distance: Double, speed v: Double) -> String? {
        let units = settings.spokenUnits
        let spoken =
            stage == .now
            ? nil
            : fault == .distanceRoundedUp
                ? SpokenDistance.presets(units).first { SpokenDistance.meters($0, units) >= distance }
                : SpokenDistance.roundDown(distance, units)
        if stage != .now && spoken == nil { return nil }
        let next = stage == .far ? nil : then(m, speed: v).map { maneuvers[$0] }
        return Phrasebook.line(
            stage, maneuvers[m], distance: spoken, then: next, language: settings.language, units: units)
    }

    /// The time from a line's start until it has been heard to its end: the output latency, then the line.
    func heard(_ length: SimTime) -> Double { Double((settings.outputLatency + length).ms) / 1000 }

    /// Whether stage `stage` of `m` is due at distance `left` and speed `v` for a line of `length`.
    func due(_ stage: Stage, _ m: Int, left: Double, speed v: Double, length: SimTime) -> Bool {
        ahead(stage, m)
            ? left - v * heard(length) <= settings.lead(stage).distance(at: v) : arriving(m, left: left, speed: v)
    }

    /// Whether a line started now would be heard with the car within `arrivedWithin` of `m`.
    func arriving(_ m: Int, left: Double, speed v: Double) -> Bool {
        left - v * heard(.zero) <= Announcer.arrivedWithin
    }

    /// The earliest time in `[from, ∞)` at which `stage` of `m` is due, or nil if never at this speed.
    mutating func dueTime(_ stage: Stage, _ m: Int, _ state: RoadState, from: SimTime) -> SimTime? {
        let left = maneuvers[m].distance - state.progress(at: from)
        // The line's length is guessed from its text at the lead distance.
        let units = settings.spokenUnits
        let smallest = SpokenDistance.presets(units)[0]
        let spoken =
            stage == .now
            ? 0 : SpokenDistance.roundDown(settings.lead(stage).distance(at: state.speed), units) ?? smallest
        let slot = m * Stage.allCases.count + Stage.allCases.firstIndex(of: stage)!
        let joined = then(m, speed: state.speed) != nil
        if guesses[slot].spoken != spoken || guesses[slot].joined != joined {
            let guess =
                text(stage, m, distance: SpokenDistance.meters(spoken, units), speed: state.speed)
                ?? text(stage, m, distance: SpokenDistance.meters(smallest, units), speed: state.speed)!
            guesses[slot] = (spoken, joined, duration(guess))
        }
        let length = guesses[slot].length
        if due(stage, m, left: left, speed: state.speed, length: length) { return from }
        guard state.speed > Announcer.standing else { return nil }
        let v = state.speed
        let seconds =
            ahead(stage, m)
            ? (left - v * heard(length) - settings.lead(stage).distance(at: v)) / v
            : (left - v * heard(.zero) - Announcer.arrivedWithin) / v
        return from + SimTime(ms: Int64((seconds * 1000).rounded(.up)))
    }

    /// When the car is predicted to pass distance `d`, going at least `predictionFloor`.
    func passTime(_ d: Double, _ state: RoadState, from: SimTime) -> SimTime {
        let left = max(0, d - state.progress(at: from))
        return from + SimTime(ms: Int64((left / max(state.speed, Announcer.predictionFloor) * 1000).rounded(.down)))
    }

    /// The latest start at which a line of `duration` is still heard to its
    /// end before `point`, by `state`'s prediction from `t`: the rule its
    /// expiry had at the request (a "now" line also keeps `margin`).
    func latestStart(_ stage: Stage, point: Double, _ state: RoadState, from t: SimTime, duration: SimTime) -> SimTime {
        let margin = stage == .now ? settings.margin : .zero
        return passTime(point, state, from: t) - settings.outputLatency - duration - margin
    }

    /// Whether stage `stage` of `m` is timed like a stage, ahead of the point:
    /// all are but the "now" line of an arrival or a waypoint, said as the car reaches it.
    func ahead(_ stage: Stage, _ m: Int) -> Bool { !(stage == .now && maneuvers[m].turn.saidOnReaching) }

    /// Everything to say in `[from, until)` given `state`, appended to `out`.
    /// - Complexity: O(stages + maneuvers passed) per call.
    public mutating func announce(_ state: RoadState, from: SimTime, until: SimTime, into out: inout [Announcement]) {
        var t = from
        while t < until {
            // Maneuvers the car is believed to have passed.
            while next < maneuvers.count, maneuvers[next].distance <= state.progress(at: t) {
                out.append(.passed(maneuver: next, at: t))
                // Passing a maneuver the guidance was announcing is on the way to the next.
                if next + 1 < maneuvers.count, done[next] != 0 { approached[next + 1] = true }
                next += 1
            }
            guard next < maneuvers.count else { return }
            let m = next
            // "You have arrived" only after the guidance saw the car on its way
            // there: not when a first fix, or guidance that only starts, finds it already there.
            if !approached[m], !arriving(m, left: maneuvers[m].distance - state.progress(at: t), speed: state.speed) {
                approached[m] = true
            }
            var fire: SimTime? = nil
            var firing = Stage.far
            for stage in Stage.allCases where done[m] & stage.bit == 0 && (ahead(stage, m) || approached[m]) {
                if let due = dueTime(stage, m, state, from: t), due <= (fire ?? .init(ms: .max)) {
                    fire = due
                    firing = stage
                }
            }
            let pass =
                state.speed > Announcer.standing
                ? t
                    + SimTime(
                        ms: max(
                            1,
                            Int64(((maneuvers[m].distance - state.progress(at: t)) / state.speed * 1000).rounded(.up))))
                : SimTime(ms: .max)
            if let fire, fire < until, fire < pass {
                speak(m, firing, state, at: fire, into: &out)
                t = fire
            } else if pass < until {
                t = pass
            } else {
                return
            }
        }
    }

    /// Speaks the most imminent due stage of `m` at `t` (at least `firing`),
    /// skipping the ones before it.
    mutating func speak(_ m: Int, _ firing: Stage, _ state: RoadState, at t: SimTime, into out: inout [Announcement]) {
        let left = maneuvers[m].distance - state.progress(at: t)
        let v = state.speed
        // The most imminent stage that is due.
        var stage = firing
        for s in Stage.allCases.reversed() where s > firing && done[m] & s.bit == 0 && (ahead(s, m) || approached[m]) {
            let smallest = SpokenDistance.meters(SpokenDistance.presets(settings.spokenUnits)[0], settings.spokenUnits)
            let length = duration(text(s, m, distance: left, speed: v) ?? text(s, m, distance: smallest, speed: v)!)
            if due(s, m, left: left, speed: v, length: length) {
                stage = s
                break
            }
        }
        for earlier in Stage.allCases where earlier < stage && done[m] & earlier.bit == 0 && ahead(earlier, m) {
            out.append(.skipped(maneuver: m, stage: earlier, reason: .late, at: t))
            done[m] |= earlier.bit
        }
        done[m] |= stage.bit
        // The mutant: silent where the turn's "now" line is due; `unannounced` then answers `late`.
        if fault == .nowClaimedLate, stage == .now, ahead(stage, m) { return }
        guard let words = text(stage, m, distance: left, speed: v) else {
            out.append(.skipped(maneuver: m, stage: stage, reason: .late, at: t))
            return
        }
        guard words != lastWords[m] else {
            out.append(.skipped(maneuver: m, stage: stage, reason: .repeated, at: t))
            return
        }
        let length = duration(words)
        var expires: SimTime
        switch stage {
        case .now where !ahead(stage, m):
            expires = t + Announcer.arrivalWindow
        case .now:
            expires = latestStart(stage, point: maneuvers[m].distance, state, from: t, duration: length)
        case .far, .near:
            let following: Stage = stage == .far ? .near : .now
            let nextDue =
                dueTime(following, m, state, from: t + SimTime(ms: 1))
                ?? passTime(maneuvers[m].distance, state, from: t)
            expires = min(nextDue, latestStart(stage, point: maneuvers[m].distance, state, from: t, duration: length))
        }
        // Still valid only if it can finish before its content stops being
        // true (the next stage, or the point itself, comes due).
        guard expires > t, stage == .now || expires >= t + length else {
            out.append(.skipped(maneuver: m, stage: stage, reason: .late, at: t))
            return
        }
        // When In Use: it must end within the segment, and never start so late that it would not.
        if let end = segmentEnd {
            // SPEC 3: `expires` is later than `at`, so it must be able to start before `end - length`.
            guard t + length < end else {
                out.append(.skipped(maneuver: m, stage: stage, reason: .notGuiding, at: t))
                if stage == .now { nowOutsideSegment[m] = true }
                return
            }
            expires = min(expires, end - length)
        }
        if !ahead(stage, m) { reachedLines[m] = (t, expires) }
        let id =
            stage == .now && retried[m]
            ? RoadPlan.retryLineID(maneuver: maneuvers[m].id) : RoadPlan.lineID(maneuver: maneuvers[m].id, stage: stage)
        let line = GuidanceLine(
            id: id, at: t, duration: length, urgent: stage == .now, text: words,
            language: settings.language, maneuver: maneuvers[m].id, expires: fault == .expiryIgnored ? nil : expires)
        out.append(.line(line, maneuver: m, stage: stage))
        lastWords[m] = words
        if stage == .now {
            nowSpoken[m] = true
            if let n = then(m, speed: v) {
                thenSpoken[n] = true
                thenAt[n] = thenAt[n] ?? t
            }
        }
        if stage != .far, let n = then(m, speed: v), done[n] & Stage.far.bit == 0 {
            done[n] |= Stage.far.bit
            out.append(.skipped(maneuver: n, stage: .far, reason: .then, at: t))
        }
    }

    /// A fix (`state`, arriving at `t`) that shows the car standing (below
    /// `predictionFloor`) more than twice `arrivedWithin` (30 m) short of the
    /// maneuver it is heading for, whose "You have arrived" (or "You have
    /// reached …") line started before `t` and is still valid: that line is
    /// ended (`RoadPlan.revisions` ends it at `t`) and its stage is open
    /// again, so that it is said when the car truly gets there, as
    /// `<maneuver>.now-again` (once; a second such fix only ends it).
    /// Returns whether it was opened again.
    package mutating func retryReached(_ state: RoadState, at t: SimTime) -> Bool {
        let m = next
        // Standing well short of it, not braking or creeping towards it: a car
        // that gets there within moments heard the first line as it arrived.
        guard m < maneuvers.count, !retried[m], let line = reachedLines[m], line.at < t, t < line.expires,
            state.speed < Announcer.predictionFloor,
            maneuvers[m].distance - state.progress(at: t) > 2 * Announcer.arrivedWithin
        else { return false }
        retried[m] = true
        done[m] &= ~Stage.now.bit
        lastWords[m] = nil
        reachedLines[m] = nil
        return true
    }

    /// After a maneuver, the next one at least this far ahead (meters) is
    /// announced first by "Continue for 5 kilometers."
    package static let continueBeyond = 2_000.0
    /// How long after the maneuver a "continue" line may still start.
    package static let continueWindow = SimTime(ms: 10_000)

    /// The "continue" line when the car, at `state`, has just passed
    /// maneuver `m` at `t` and the next is `continueBeyond` or more ahead:
    /// "Continue on Gangnam-daero for 5 kilometers." (the street `m` led
    /// onto; none after a ferry, an arrival or a waypoint), its distance
    /// rounded down. It belongs to the next maneuver (`<next>.continue`),
    /// and expires within `continueWindow`, before that maneuver's far
    /// stage comes due. Nil when there is no such maneuver.
    package mutating func continueLine(after m: Int, _ state: RoadState, at t: SimTime) -> GuidanceLine? {
        let n = m + 1
        guard n < maneuvers.count else { return nil }
        let left = maneuvers[n].distance - state.progress(at: t)
        let units = settings.spokenUnits
        guard left >= Announcer.continueBeyond, let spoken = SpokenDistance.roundDown(left, units) else { return nil }
        let street = [.ferry, .waypoint, .arrive].contains(maneuvers[m].turn) ? nil : maneuvers[m].street
        let words = Phrasebook.continueLine(
            SpokenDistance.written(spoken, settings.language, units), on: street, settings.language)
        let length = duration(words)
        let expires = min(
            t + Announcer.continueWindow, dueTime(.far, n, state, from: t) ?? t + Announcer.continueWindow)
        guard expires > t else { return nil }
        return GuidanceLine(
            id: RoadPlan.continueLineID(maneuver: maneuvers[n].id), at: t, duration: length, urgent: false, text: words,
            language: settings.language, maneuver: maneuvers[n].id, expires: fault == .expiryIgnored ? nil : expires)
    }

    /// The departure line when the drive starts with the car at `state`
    /// at `t`, before the first maneuver: "Head north." / "북쪽 방향으로
    /// 출발하세요.", or, when the first maneuver is `continueBeyond` or more
    /// ahead, "Head north for 5 kilometers." / "북쪽 방향으로 출발해
    /// 5킬로미터 직진하세요." (rounded down, as every spoken distance). It
    /// belongs to the first maneuver (`<first>.depart`), and like a
    /// "continue" line expires within `continueWindow`, before that
    /// maneuver's far stage comes due: a drive whose first maneuver is
    /// already due hears that instead. Nil without a heading, or with the
    /// first maneuver passed.
    package mutating func departureLine(_ state: RoadState, at t: SimTime) -> GuidanceLine? {
        guard let heading, let first = maneuvers.first, first.distance > state.progress(at: t) else { return nil }
        let left = first.distance - state.progress(at: t)
        let units = settings.spokenUnits
        let spoken = left >= Announcer.continueBeyond ? SpokenDistance.roundDown(left, units) : nil
        let words = Phrasebook.departure(
            heading: heading, for: spoken.map { SpokenDistance.written($0, settings.language, units) },
            settings.language)
        let expires = min(
            t + Announcer.continueWindow, dueTime(.far, 0, state, from: t) ?? t + Announcer.continueWindow)
        guard expires > t else { return nil }
        return GuidanceLine(
            id: RoadPlan.departureLineID(maneuver: first.id), at: t, duration: duration(words), urgent: false,
            text: words,
            language: settings.language, maneuver: first.id, expires: fault == .expiryIgnored ? nil : expires)
    }

    /// The urgent line when the car leaves the route; superseded by the next reroute line.
    package mutating func offRouteLine(at t: SimTime) -> GuidanceLine {
        reroutes += 1
        let words = Phrasebook.offRoute(settings.language)
        return GuidanceLine(
            id: RoadPlan.rerouteLineID(reroutes, back: false), at: t, duration: duration(words), urgent: true,
            text: words,
            language: settings.language, maneuver: "reroute", expires: t + SimTime(ms: 10_000))
    }

    /// The urgent line when the car is back on the route.
    package mutating func recalculatedLine(at t: SimTime) -> GuidanceLine {
        let words = Phrasebook.backOnRoute(settings.language)
        return GuidanceLine(
            id: RoadPlan.rerouteLineID(reroutes, back: true), at: t, duration: duration(words), urgent: true,
            text: words,
            language: settings.language, maneuver: "reroute", expires: t + SimTime(ms: 10_000))
    }
}
