#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A route: a polyline in the road's plane with the distance along it on
/// the earth at every vertex, and the maneuvers placed on it. Distances
/// and offsets are meters on the earth (the plane's scale divided out
/// along each segment's line, `LocalProjection.Line`).
public struct Route: Sendable {
    /// How far a maneuver's point may lie from the route, in meters.
    public static let maneuverTolerance = 15.0
    /// The longest route a scenario may give, in meters (10,000 km: more
    /// than a 24-hour drive at the highest speed). It bounds every distance,
    /// so times computed from distances stay far inside `Int64`.
    public static let maxLength = 10_000_000.0

    /// The plane the route is drawn in, centred on its first point.
    public let projection: LocalProjection
    /// The vertices, in plane meters.
    public let points: [Vector]
    /// The distance along the route at each vertex, meters on the earth; `cumulative[0] == 0`.
    public let cumulative: [Double]
    /// The maneuvers, in route order.
    public private(set) var maneuvers: [Maneuver] = []
    /// The plane's largest scale at a vertex: no point of the route (a
    /// segment's largest is at an end) is scaled more (`offsetBound`).
    let largestScale: Double

    /// Why a route or its maneuvers cannot be used.
    public enum Problem: Error, Equatable, Sendable {
        /// Fewer than two points.
        case tooFewPoints
        /// Maneuver `index` lies `meters` from the route (after the previous maneuver).
        case maneuverOffRoute(index: Int, meters: Double)
        /// Maneuver `index` lies on the route only before the previous maneuver.
        case maneuverOutOfOrder(index: Int)
    }

    /// A route through `points`, in the plane centred on the first.
    public init(points geo: [GeoPoint]) throws(Problem) {
        guard geo.count >= 2 else { throw .tooFewPoints }
        let projection = LocalProjection(origin: geo[0])
        self.init(plane: geo.map(projection.project), projection: projection)
    }

    /// A route through plane `points` (at least two) of `projection`: a road
    /// the drive changes onto, drawn in the first route's plane so that every
    /// position compares with every route's.
    public init(plane points: [Vector], projection: LocalProjection) {
        precondition(points.count >= 2, "a route has two points or more")
        self.projection = projection
        self.points = points
        var total = 0.0
        var cumulative = [0.0]
        cumulative.reserveCapacity(points.count)
        for i in 1..<points.count {
            total += projection.meters(from: points[i - 1], to: points[i])
            cumulative.append(total)
        }
        self.cumulative = cumulative
        largestScale = points.reduce(1) { max($0, projection.scale(at: $1)) }
    }

    /// The route `Route(plane: points(from: 0, to: b) + plane, projection:)`
    /// makes (no maneuvers), without measuring again the part before `b`:
    /// its vertices are this route's, so their sums are the same bits.
    /// A drive that changes road many times joins in time linear in its points.
    public func joined(at b: Double, to plane: [Vector]) -> Route {
        let head = points(from: 0, to: b)
        // `head` is this route's vertices from the last at distance 0 on, then the point at `b`.
        let first = segment(at: 0)
        let kept = head.count - 1
        var cumulative = Array(self.cumulative[first..<(first + kept)])
        let all = head + plane
        cumulative.reserveCapacity(all.count)
        var total = cumulative[kept - 1]
        for i in kept..<all.count {
            total += projection.meters(from: all[i - 1], to: all[i])
            cumulative.append(total)
        }
        return Route(projection: projection, points: all, cumulative: cumulative)
    }

    /// A route of points already measured.
    private init(projection: LocalProjection, points: [Vector], cumulative: [Double]) {
        self.projection = projection
        self.points = points
        self.cumulative = cumulative
        largestScale = points.reduce(1) { max($0, projection.scale(at: $1)) }
    }

    /// The polyline from distance `a` to `b` along the route (clamped, `a < b`):
    /// the point at `a`, the vertices between, the point at `b`.
    public func points(from a: Double, to b: Double) -> [Vector] {
        let a = min(max(a, 0), length)
        let b = min(max(b, a), length)
        var out = [location(at: a).point]
        var i = segment(at: a) + 1
        while i < points.count - 1, cumulative[i] < b {
            if cumulative[i] > a { out.append(points[i]) }
            i += 1
        }
        out.append(location(at: b).point)
        return out
    }

    /// Its length in meters.
    public var length: Double { cumulative[cumulative.count - 1] }

    /// Places each maneuver at the nearest point of the route after the
    /// previous maneuver (so a route that crosses itself keeps its order: a
    /// second maneuver at the crossing point is its second pass). Waypoints
    /// are numbered in route order (`ManeuverDetails.waypoint`).
    public mutating func place(_ specs: [(point: GeoPoint, maneuver: Maneuver)]) throws(Problem) {
        place(specs.map(\.maneuver), at: try placements(of: specs.map(\.point)))
    }

    /// Where maneuvers at `points` are placed (`place`'s rule), each the
    /// distance along the route, without placing them: what a check needs.
    /// - Complexity: O(points + segments) when every maneuver is on the route.
    public func placements(of points: [GeoPoint]) throws(Problem) -> [Double] {
        var from = 0.0
        var distances: [Double] = []
        distances.reserveCapacity(points.count)
        for (i, point) in points.enumerated() {
            let hit = try distance(ofManeuverAt: point, from: from, index: i)
            distances.append(hit)
            from = hit + 1
        }
        return distances
    }

    /// Places `list` at `distances` along the route (from `placements`),
    /// numbering the waypoints in route order.
    public mutating func place(_ list: [Maneuver], at distances: [Double]) {
        precondition(list.count == distances.count, "a distance for each maneuver")
        var waypoints = 0
        maneuvers = zip(list, distances).map { m, distance in
            var m = m
            m.distance = distance
            if m.turn == .waypoint {
                waypoints += 1
                m.details.waypoint = waypoints
            }
            return m
        }
    }

    /// Where a maneuver at `point` is placed when the one before it lies
    /// just before `from` (`place`'s step, for a caller that places
    /// maneuvers one at a time): the distance along the route, or why it
    /// cannot be placed there (`index` names it in the problem).
    /// - Complexity: O(k), k the segments from `from` to the place found
    ///   (the whole rest of the route when it is off it or out of order).
    public func distance(ofManeuverAt point: GeoPoint, from: Double, index i: Int) throws(Problem) -> Double {
        let target = projection.project(point)
        guard let hit = firstNear(target, from: from) else {
            if firstNear(target, from: 0) != nil { throw .maneuverOutOfOrder(index: i) }
            let best = nearest(to: target, from: from, to: length)
            throw .maneuverOffRoute(index: i, meters: best.offset)
        }
        return hit
    }

    /// The distance along the route of the first pass at or after `from`
    /// within the maneuver tolerance of `point`, nil if none.
    /// - Complexity: O(k), k the segments from `from` to the pass (the rest
    ///   of the route when there is none).
    public func firstPass(near point: GeoPoint, from: Double) -> Double? {
        firstNear(projection.project(point), from: from)
    }

    /// The distance along the route of the first stretch, at or after `from`,
    /// that passes within the tolerance of `target`: the nearest point of the
    /// run of segments that do.
    ///
    /// A segment beyond the tolerance is passed, or ends the run, without
    /// its distance along: past the first segment every distance is past
    /// `from` (the cumulative distances grow), and on the first no
    /// stretch has begun.
    func firstNear(_ target: Vector, from: Double) -> Double? {
        var best: (offset: Double, distance: Double)? = nil
        for i in segment(at: from)..<(points.count - 1) {
            guard let hit = projectOnSegment(target, i, within: Route.maneuverTolerance) else {
                if best != nil { break } else { continue }
            }
            if hit.distance < from - 1e-9 { continue }
            if best == nil || hit.offset < best!.offset { best = (hit.offset, hit.distance) }
        }
        return best?.distance
    }

    /// The segment index that holds distance `d` (clamped to the route).
    @inlinable public func segment(at d: Double) -> Int {
        var low = 0
        var high = cumulative.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if cumulative[mid] <= d { low = mid } else { high = mid }
        }
        return low
    }

    /// The position at distance `d` along the route, and the unit direction there.
    public func location(at d: Double) -> (point: Vector, direction: Vector) {
        let i = segment(at: min(max(d, 0), length))
        let a = points[i]
        let b = points[i + 1]
        let span = cumulative[i + 1] - cumulative[i]
        let plane = (b - a).length
        let direction = plane > 0 ? (b - a) * (1 / plane) : Vector(x: 1, y: 0)
        let u = LocalProjection.Line(from: a, to: b).fraction(at: min(max(d - cumulative[i], 0), span))
        return (a + (b - a) * min(max(u, 0), 1), direction)
    }

    /// How far apart two plane positions are on the earth, meters.
    @inlinable public func meters(_ a: Vector, _ b: Vector) -> Double { projection.meters(from: a, to: b) }

    /// Where `p` falls on segment `i` if it lies within `tolerance` meters
    /// of it: the distance along the route and how far off it lies; nil if
    /// farther. A foot plainly farther is refused in the plane, before any
    /// earth measure: the line's earth meters are at least its plane length
    /// over the largest scale on it, which is at an end (|v|² is convex
    /// along a line), and twice the tolerance in that measure leaves
    /// rounding far behind.
    func projectOnSegment(_ p: Vector, _ i: Int, within tolerance: Double) -> RouteMatch? {
        let a = points[i]
        let b = points[i + 1]
        let ab = b - a
        let ap = p - a
        let span2 = ab.x * ab.x + ab.y * ab.y
        let u = span2 > 0 ? min(max((ap.x * ab.x + ap.y * ab.y) / span2, 0), 1) : 0
        let foot = a + ab * u
        let off = p - foot
        let plainly = 2 * tolerance * max(projection.scale(at: p), projection.scale(at: foot))
        if off.x * off.x + off.y * off.y > plainly * plainly { return nil }
        let offset = meters(p, foot)
        guard offset <= tolerance else { return nil }
        let along = LocalProjection.Line(from: a, to: b).meters(to: u)
        return RouteMatch(distance: min(cumulative[i] + along, cumulative[i + 1]), offset: offset)
    }

    /// Where `p` falls on the part of segment `i` between distances `from`
    /// and `to`: the foot is clamped to that part *before* the offset is
    /// measured, so the offset is to a point the window holds, never to a
    /// part of the segment outside it (on a route with a vertex every 10 m
    /// and on one with two vertices alike).
    func projectOnSegment(_ p: Vector, _ i: Int, from: Double, to: Double) -> RouteMatch {
        let a = points[i]
        let b = points[i + 1]
        let start = cumulative[i]
        let span = cumulative[i + 1] - start
        let ab = b - a
        let ap = p - a
        let span2 = ab.x * ab.x + ab.y * ab.y
        let line = LocalProjection.Line(from: a, to: b)
        var u = span2 > 0 ? (ap.x * ab.x + ap.y * ab.y) / span2 : 0
        if from > start { u = max(u, line.fraction(at: min(from - start, span))) }
        if to < start + span { u = min(u, line.fraction(at: max(to - start, 0))) }
        u = min(max(u, 0), 1)
        let foot = a + ab * u
        return RouteMatch(distance: min(max(start + line.meters(to: u), from), to), offset: meters(p, foot))
    }

    /// The nearest point of the route to `p` between distances `from` and
    /// `to`, measured to the window's own points; on a tie, the earlier one.
    /// - Complexity: O(log n + k), k the segments in the window.
    public func nearest(to p: Vector, from: Double, to: Double) -> RouteMatch {
        nearest(to: p, from: from, to: to, heading: nil)
    }

    /// As `nearest(to:from:to:)`, but with the car heading along `course`
    /// (degrees clockwise from north) a segment pointing the other way (more
    /// than 135° off) is no candidate: where a route folds back on itself (a
    /// hairpin, a U-turn), the leg after the turn passes within meters of the
    /// leg before it, and a fix there must not skip the turn. When no segment
    /// in the window is a candidate, the nearest of all is taken.
    ///
    /// Where the route passes the position more than once in the same
    /// direction (it loops, or runs over itself), the nearest pass is not
    /// always the car's: noise decides which is nearer. So, given where the
    /// car is `expected` along the route, a pass within `tolerance` meters of
    /// the nearest one's offset is taken instead if it lies nearer `expected`.
    /// Another pass is a match so far along the route from the nearest that
    /// the route must have left and come back (`isOtherPass`); the two sides
    /// of one corner are not.
    public func nearest(
        to p: Vector, from: Double, to: Double, heading course: Double?,
        expected: Double? = nil, tolerance: Double = 0
    ) -> RouteMatch {
        nearest(to: p, from: from, to: to, heading: course, expected: expected, tolerance: tolerance, pruned: true)
    }

    /// `nearest(to:from:to:heading:expected:tolerance:)`, measuring every
    /// segment of the window on the earth unless `pruned` (the tests compare
    /// the two: the same match).
    package func nearest(
        to p: Vector, from: Double, to: Double, heading course: Double?,
        expected: Double?, tolerance: Double, pruned: Bool
    ) -> RouteMatch {
        var best = RouteMatch(distance: from, offset: .infinity)
        var anyway = best
        let first = segment(at: from)
        let last = segment(at: to)
        let heading = course.map { Vector(x: sin($0 * .pi / 180), y: cos($0 * .pi / 180)) }
        func candidate(_ i: Int) -> Bool {
            guard let heading else { return true }
            let d = points[i + 1] - points[i]
            let length = d.length
            return !(length > 0 && (d.x * heading.x + d.y * heading.y) / length < -0.7071)
        }
        // The candidates within `tolerance` of the nearest so far: a superset
        // of those within it of the nearest of all, in route order.
        let choosing = expected != nil && tolerance > 0
        // Only segments that can hold the result are measured on the earth
        // (`projectOnSegment`, two arctangents): the nearest of all, the
        // nearest candidate, and the candidates within `tolerance` of it,
        // each the first in route order, do not depend on the segments
        // farther than those. A segment's plane distance over the largest
        // scale near it bounds its offset from below (`offsetBound`); the
        // segment with the least bound, and the candidate with the least,
        // give offsets the nearest are no farther than; a segment whose
        // bound exceeds them is passed unmeasured.
        var near: [RouteMatch] = []
        withUnsafeTemporaryAllocation(of: Double.self, capacity: pruned ? last - first + 1 : 0) { bounds in
            var leastAny = (bound: Double.infinity, segment: first)
            var leastCandidate = leastAny
            if pruned {
                let shrink = (1 - 1e-9) / max(projection.scale(at: p), largestScale)
                for i in first...last {
                    let bound = offsetBound(p, i, shrink: shrink)
                    bounds[i - first] = bound
                    if bound < leastAny.bound { leastAny = (bound, i) }
                    if bound < leastCandidate.bound, candidate(i) { leastCandidate = (bound, i) }
                }
            }
            // The two segments measured first are not measured again (a segment's match is a pure function of it).
            let anyHit = pruned ? projectOnSegment(p, leastAny.segment, from: from, to: to) : nil
            let candidateHit =
                !leastCandidate.bound.isFinite
                ? nil
                : leastCandidate.segment == leastAny.segment
                    ? anyHit : projectOnSegment(p, leastCandidate.segment, from: from, to: to)
            let overall = anyHit?.offset ?? .infinity
            let nearestCandidate = candidateHit.map { $0.offset + (choosing ? tolerance : 0) } ?? .infinity
            func measured(_ i: Int) -> RouteMatch {
                if i == leastAny.segment, let anyHit { return anyHit }
                if i == leastCandidate.segment, let candidateHit { return candidateHit }
                return projectOnSegment(p, i, from: from, to: to)
            }
            for i in first...last {
                if pruned, bounds[i - first] > overall, !candidate(i) || bounds[i - first] > nearestCandidate {
                    continue
                }
                let hit = measured(i)
                if hit.offset < anyway.offset { anyway = hit }
                guard candidate(i) else { continue }
                if hit.offset < best.offset { best = hit }
                if choosing, hit.offset <= best.offset + tolerance { near.append(hit) }
            }
        }
        guard best.offset.isFinite else { return anyway }
        guard let expected, choosing else { return best }
        var chosen = best
        for hit in near
        where hit.offset <= best.offset + tolerance
            && abs(hit.distance - expected) < abs(chosen.distance - expected)
            && isOtherPass(hit.distance, best.distance, tolerance: tolerance)
        {
            chosen = hit
        }
        chosen.otherPass = near.contains {
            $0.offset <= best.offset + tolerance && isOtherPass($0.distance, chosen.distance, tolerance: tolerance)
        }
        return chosen
    }

    /// A lower bound of the offset `projectOnSegment(p, i, from:to:)`
    /// measures, whatever the window: the plane distance from `p` to the
    /// segment, times `shrink`, less a millionth of a meter for rounding.
    /// `shrink` is (1 − 10⁻⁹) over the largest scale on a line from `p` to
    /// a point of the segment: it is at `p` or at an end (|v|² is convex
    /// along a line), so `largestScale` and `p`'s bound it.
    /// - Complexity: O(1), no transcendental function.
    func offsetBound(_ p: Vector, _ i: Int, shrink: Double) -> Double {
        let a = points[i]
        let b = points[i + 1]
        let ab = b - a
        let ap = p - a
        let span2 = ab.x * ab.x + ab.y * ab.y
        let u = span2 > 0 ? min(max((ap.x * ab.x + ap.y * ab.y) / span2, 0), 1) : 0
        let off = p - (a + ab * u)
        return (off.x * off.x + off.y * off.y).squareRoot() * shrink - 1e-6
    }

    /// Whether distances `a` and `b` along the route are two passes of one
    /// place: the route between them is more than three times as long as the
    /// straight line between their points, plus twice `tolerance`. The two
    /// sides of a corner are not (a right angle gives 1.4 times); a loop
    /// back to the same road is.
    func isOtherPass(_ a: Double, _ b: Double, tolerance: Double) -> Bool {
        let along = abs(a - b)
        guard along > 2 * tolerance else { return false }
        return along > 3 * meters(location(at: a).point, location(at: b).point) + 2 * tolerance
    }
}

/// Where a position falls on the route.
public struct RouteMatch: Sendable, Equatable {
    /// Distance along the route, in meters.
    public var distance: Double
    /// How far from the route the position lies, in meters.
    public var offset: Double
    /// Whether another pass of the route over the position matched as well
    /// (within the tolerance, in the same direction): which one the car is
    /// on, only its progress so far can tell.
    public var otherPass = false

    /// A match `distance` meters along the route, `offset` meters from it.
    public init(distance: Double, offset: Double) {
        self.distance = distance
        self.offset = offset
    }
}
