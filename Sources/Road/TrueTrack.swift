import SimClock

/// Where the car really was at known times (a recorded drive's `true`
/// positions), and when it passed each maneuver by them: the truth the road
/// checks compare the timeline with. It matches each true position forward
/// along the route, as the follower does, but without noise to guard
/// against: the positions are the truth.
public struct TrueTrack: Sendable, Equatable {
    /// Times and true positions, in time order.
    public var points: [(t: SimTime, position: Vector)]

    /// A track through `points` (in time order, positions in the route's plane).
    public init(points: [(t: SimTime, position: Vector)]) { self.points = points }

    /// Whether two tracks have the same times and positions.
    public static func == (a: TrueTrack, b: TrueTrack) -> Bool {
        a.points.map(\.t) == b.points.map(\.t) && a.points.map(\.position) == b.points.map(\.position)
    }

    /// When the true track first reached each of the route's maneuvers
    /// (interpolated between the points, rounded up), nil for one never reached.
    /// - Complexity: O(points × window + maneuvers).
    public func passTimes(on route: Route) -> [SimTime?] {
        var out = [SimTime?](repeating: nil, count: route.maneuvers.count)
        var progress = 0.0
        var previous: SimTime? = nil
        var next = 0
        for (t, position) in points {
            let ahead = previous.map { 100 + 70 * Double((t - $0).ms) / 1000 } ?? route.length
            let match = route.nearest(
                to: position, from: max(0, progress - 30), to: min(route.length, progress + ahead))
            let before = progress
            if match.distance > progress { progress = match.distance }
            defer { previous = t }
            guard let from = previous else {
                while next < route.maneuvers.count, route.maneuvers[next].distance <= progress {
                    out[next] = t
                    next += 1
                }
                continue
            }
            while next < route.maneuvers.count, route.maneuvers[next].distance <= progress {
                let u = progress > before ? max(0, (route.maneuvers[next].distance - before) / (progress - before)) : 1
                out[next] = from + SimTime(ms: Int64((u * Double((t - from).ms)).rounded(.up)))
                next += 1
            }
        }
        return out
    }
}
