import SimClock

/// Follows the car along the route from its fixes: each trusted fix is
/// matched to the nearest point of the route *ahead of* the last progress
/// (within a window that grows with the time since progress was last
/// matched on the route, so a detour of any length is rejoined), so
/// progress never jumps back, even where the route crosses itself; where
/// it runs over itself, the pass nearer where the car should be by now is
/// taken (`Route.nearest(to:from:to:heading:expected:tolerance:)`); being
/// off route is decided with hysteresis. A fix that implies an impossible
/// speed is not used (`Change.implausible`), and progress does not move
/// while the car stands (its speed, or its displacement within the noise,
/// says so).
public struct RouteFollower: Sendable {
    /// The follower's settings.
    public struct Settings: Sendable, Equatable {
        /// Fixes whose accuracy is worse than this (meters) are not trusted for progress.
        public var accuracyLimit = 30.0
        /// A fix this far from the route (meters) counts towards leaving it.
        public var offRouteEnter = 40.0
        /// A fix this close (meters) counts towards rejoining it.
        public var offRouteExit = 20.0
        /// Consecutive fixes needed to change between on and off route.
        public var offRouteCount = 3
        /// How far behind the last progress a match may fall (then clamped), meters.
        public var searchBehind = 30.0
        /// The search reaches this far ahead of where the car could be, meters.
        public var searchAhead = 100.0
        /// The fastest the car is assumed to go when widening the search, m/s.
        public var searchSpeed = 70.0
        /// A fix farther from the last used one than this speed allows over
        /// the time between them (plus both fixes' accuracies) is
        /// implausible and not used, m/s (1...150; 70 m/s is 252 km/h).
        public var plausibleSpeed = 70.0
        /// A fix that reports its speed is implausible too if it lies farther
        /// from the last used one than the car itself could go: at the faster
        /// of its believed speed and the fix's own, gaining at most this, m/s² (0.5...20),
        /// beyond both fixes' accuracies (a jump of 80 m in a second is no
        /// car at 30 km/h, though it is under `plausibleSpeed`).
        public var plausibleAccel = 5.0
        /// After this many implausible fixes in a row the next one is used
        /// anyway: the earlier fix was the wrong one (0 turns the gate off).
        public var implausibleCount = 3
        /// A fix reporting a speed below this (m/s) says the car stands:
        /// progress holds (0...5).
        public var stoppedSpeed = 0.5

        /// The defaults of docs/scenario-format.md (`follow`).
        public init() {}
    }

    /// What one fix changed.
    public enum Change: Sendable, Equatable {
        case none
        case leftRoute(offset: Double)
        case rejoined
        /// Not used: it implies a speed over `Settings.plausibleSpeed`.
        case implausible
    }

    /// The thresholds it follows with.
    public let settings: Settings
    /// Progress along the route, meters, as of `lastTaken`.
    public private(set) var progress = 0.0
    /// The car's speed as the follower believes it, m/s.
    public private(set) var speed = 0.0
    /// The distance of the last fix from the route, meters.
    public private(set) var offset = 0.0

    /// Where the follower knows the car to be on the route.
    enum Placement: Equatable {
        /// No fix has matched the route yet: the car stands at the start.
        case start
        /// Measuring paused since progress last matched: until a fix
        /// matches one pass of the route only, where the car is is unknown.
        case lost
        /// Progress last matched the route at this time: the search
        /// reaches ahead from here, so it keeps growing through a detour.
        case matched(at: SimTime)
    }
    var placement = Placement.start

    /// On or off the route, with the fixes in a row that count towards changing.
    enum Side: Equatable {
        /// On it; `leaving` fixes in a row lay beyond `Settings.offRouteEnter`.
        case on(leaving: Int)
        /// Off it; `rejoining` fixes in a row lay within `Settings.offRouteExit`.
        case off(rejoining: Int)
    }
    var side = Side.on(leaving: 0)

    /// The last used fix, for the plausibility gate and the time since.
    var last: (taken: SimTime, position: Vector, accuracy: Double)? = nil
    /// Implausible fixes in a row.
    var implausibleStreak = 0
    /// Recent (time, progress) pairs, for a speed estimate when fixes carry none.
    var history: [(SimTime, Double)] = []
    /// Where the car was when progress last moved, for fixes without a speed.
    var anchor: Vector? = nil
    /// Whether the last used fix reported standing still (and before the
    /// first fix: the car is taken to stand at the start).
    var standing = true
    /// A deliberately broken follower, for mutation testing (nil: as documented).
    package var fault: RoadFault? = nil

    /// Whether the car is off the route (after `offRouteCount` fixes beyond `offRouteEnter`,
    /// until as many within `offRouteExit`).
    public var offRoute: Bool { if case .off = side { true } else { false } }
    /// When the last trusted fix was taken (nil before the first).
    public var lastTaken: SimTime? { last?.taken }
    /// How long after the last match a fix moves progress even with the car
    /// standing, when it matches farther along than its accuracy explains: 10 s.
    public static let relocateAfter = 10.0
    /// When progress last matched the route (nil before the first match and while lost).
    public var matchedAt: SimTime? { if case .matched(let t) = placement { t } else { nil } }

    /// A follower at the start of the route, nothing seen yet.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Whether a fix can be used for progress, and if not, why.
    public enum Admission: Sendable, Equatable {
        /// Accurate enough and newer than the last used: it is matched to the route.
        case usable
        /// Taken no later than the last used fix (it arrived late).
        case outOfOrder
        /// Its accuracy is worse than `Settings.accuracyLimit`.
        case inaccurate
    }

    /// Whether `fix` can be used for progress: newer than the last used, and accurate enough.
    public func admission(of fix: Fix) -> Admission {
        if let last = lastTaken, fix.taken <= last { return .outOfOrder }
        return fix.accuracy <= settings.accuracyLimit ? .usable : .inaccurate
    }

    /// Whether the fix implies a speed over the plausible one since the last used fix.
    func implausible(_ fix: Fix, on route: Route) -> Bool {
        guard fault != .jumpTrusted, let last else { return false }
        let seconds = Double((fix.taken - last.taken).ms) / 1000
        let moved = route.meters(fix.position, last.position)
        let slack = last.accuracy + fix.accuracy
        if moved - slack > settings.plausibleSpeed * seconds { return true }
        // A fix that reports its speed must also lie within what the car itself could go.
        guard let reported = fix.speed else { return false }
        let v = max(speed, reported)
        return moved - slack > (v + settings.plausibleAccel * seconds / 2) * seconds
    }

    /// Whether the fix moves progress: its own speed if it reports one, else
    /// a displacement from where progress last moved beyond its accuracy (at
    /// least 3 m). The first fix that reports standing still after one that
    /// reported moving moves it too: the car stopped somewhere between the
    /// two, and only this fix says where (the fixes between may have been
    /// lost). Later ones while it stands do not, so noise cannot ratchet.
    func moving(_ fix: Fix, on route: Route) -> Bool {
        if let v = fix.speed { return v >= settings.stoppedSpeed || !standing }
        guard let anchor else { return true }
        return route.meters(fix.position, anchor) > max(fix.accuracy, 3)
    }

    /// Measuring paused (the app went to the background): where the car is
    /// is unknown until a fix matches the route again. The search then
    /// reaches the whole route ahead, and the first fix to match locates the
    /// car, standing or not, as at the start.
    public mutating func measuringPaused() { placement = .lost }

    /// Takes one trusted fix.
    public mutating func observe(_ fix: Fix, on route: Route) -> Change {
        if implausible(fix, on: route) && implausibleStreak < settings.implausibleCount {
            implausibleStreak += 1
            return .implausible
        }
        implausibleStreak = 0
        let elapsed = matchedAt.map { Double((fix.taken - $0).ms) / 1000 } ?? .infinity
        let ahead = elapsed.isFinite ? settings.searchAhead + settings.searchSpeed * elapsed : route.length
        let since = lastTaken.map { Double((fix.taken - $0).ms) / 1000 } ?? 0
        let moves = moving(fix, on: route)
        let match = route.nearest(
            to: fix.position, from: max(0, progress - settings.searchBehind), to: min(route.length, progress + ahead),
            heading: moves ? fix.course : nil,
            expected: progress + max(0, fix.speed ?? speed) * since, tolerance: max(fix.accuracy, 1))
        offset = match.offset
        last = (fix.taken, fix.position, fix.accuracy)
        let change = sideAfter(offset: match.offset)
        // After a pause, a fix where the route passes twice does not say which pass the car is on.
        let placed = !(placement == .lost && match.otherPass)
        if placed && !offRoute && match.offset < settings.offRouteEnter {
            // The car is taken to stand at the start until a fix on the route says
            // otherwise: the first to match, standing or not, moves progress if it
            // matches farther along than its accuracy explains (measuring may
            // start mid-drive, or on a detour). So does the first after a gap of
            // `relocateAfter` or more: the car may have driven on and stopped since.
            let located =
                (matchedAt == nil || elapsed >= Self.relocateAfter)
                && match.distance > progress + max(fix.accuracy, 3)
            placement = .matched(at: fix.taken)
            if change == .rejoined || moves || located {
                progress = max(progress, match.distance)
                anchor = fix.position
            }
        }
        if let v = fix.speed { standing = v < settings.stoppedSpeed }
        history.append((fix.taken, progress))
        if history.count > 4 { history.removeFirst() }
        if let reported = fix.speed {
            speed = reported
        } else if let first = history.first, first.0 < fix.taken {
            speed = (progress - first.1) / (Double((fix.taken - first.0).ms) / 1000)
        }
        return change
    }

    /// Counts a fix `offset` meters from the route towards changing sides,
    /// and changes after `Settings.offRouteCount` in a row.
    mutating func sideAfter(offset: Double) -> Change {
        switch side {
        case .on(let leaving):
            let n = offset >= settings.offRouteEnter ? leaving + 1 : 0
            if n >= settings.offRouteCount {
                side = .off(rejoining: 0)
                return .leftRoute(offset: offset)
            }
            side = .on(leaving: n)
        case .off(let rejoining):
            let n = offset <= settings.offRouteExit ? rejoining + 1 : 0
            if n >= settings.offRouteCount {
                side = .on(leaving: 0)
                return .rejoined
            }
            side = .off(rejoining: n)
        }
        return .none
    }
}
