import Road

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the line itself says where a service gives no bearings or no
/// maneuver codes: the bearings into and out of a point, and the turn a
/// change of heading is (GeoJSON lines, Apple's steps, Google's lane keeps,
/// waypoints where the route turns back).
extension RouteImporter {
    /// For each point of a line, the nearest point apart from it on each
    /// side (a run of repeated points shares them), found in one pass, so
    /// that the bearings at any number of points cost O(1) each.
    struct Neighbours {
        /// `before[i]`: the last index before `i` whose point differs from point `i` (-1: none).
        var before: [Int]
        /// `after[i]`: the first index after `i` whose point differs from point `i` (`count`: none).
        var after: [Int]

        /// The neighbours of every point of `points`.
        /// - Complexity: O(n).
        init(_ points: [GeoPoint]) {
            let n = points.count
            before = [Int](repeating: -1, count: n)
            after = [Int](repeating: n, count: n)
            var start = 0
            while start < n {
                var end = start + 1
                while end < n, points[end] == points[start] { end += 1 }
                for k in start..<end {
                    before[k] = start - 1
                    after[k] = end
                }
                start = end
            }
        }
    }

    /// The bearings into and out of point `i` of `points` (nil at an end),
    /// over the nearest point apart from it on each side: what OSRM gives
    /// as `bearing_before` and `bearing_after`.
    /// - Complexity: O(1) with `neighbours` of `points`.
    static func bearings(at i: Int, _ points: [GeoPoint], _ neighbours: Neighbours) -> (before: Double?, after: Double?)
    {
        let p = points[i]
        let back = neighbours.before[i]
        let ahead = neighbours.after[i]
        return (back >= 0 ? bearing(points[back], p) : nil, ahead < points.count ? bearing(p, points[ahead]) : nil)
    }

    /// How far back and ahead of a point the heading is measured for its
    /// turn (meters): a turn drawn as a curve of a few points is one turn.
    static let turnReach = 20.0
    /// The most points walked on each side when measuring a turn, so a
    /// line of points centimeters apart costs no more than a plain one.
    static let turnReachPoints = 40

    /// The change of heading at point `i` of `points`, degrees (positive to
    /// the left, -180...180), from about `turnReach` meters before it to as
    /// far after; nil at an end of the line.
    /// - Complexity: O(`turnReachPoints`).
    static func turnAngle(at i: Int, _ points: [GeoPoint], _ neighbours: Neighbours) -> Double? {
        let p = points[i]
        func reach(_ step: (Int) -> Int, _ inside: (Int) -> Bool) -> Int? {
            var k = step(i)
            var walked = 0
            var meters = 0.0
            var last = p
            guard inside(k) else { return nil }
            while walked < turnReachPoints {
                meters += greatCircleDistance(last, points[k])
                last = points[k]
                walked += 1
                let next = step(k)
                if meters >= turnReach || !inside(next) { break }
                k = next
            }
            return k
        }
        guard let back = reach({ neighbours.before[$0] }, { $0 >= 0 }),
            let ahead = reach({ neighbours.after[$0] }, { $0 < points.count })
        else { return nil }
        let inward = bearing(points[back], p)
        let outward = bearing(p, points[ahead])
        var change = inward - outward  // compass bearings grow clockwise: a left turn lowers them
        if change > 180 { change -= 360 }
        if change < -180 { change += 360 }
        return change
    }

    /// The turn a change of heading of `angle` degrees is (positive to the
    /// left): none up to `turnAngle` (30°), slight up to 45°, plain up to
    /// 135°, sharp up to 170°, beyond a U-turn.
    static func turn(forAngle angle: Double) -> Turn? {
        let size = abs(angle)
        let left = angle > 0
        guard size > turnAngle else { return nil }
        return size > 170
            ? .uTurn
            : size > 135
                ? (left ? .sharpLeft : .sharpRight)
                : size > 45 ? (left ? .left : .right) : (left ? .slightLeft : .slightRight)
    }

    /// The OSRM modifier that reads as `turn` (`plainTurn`'s inverse); nil for straight on.
    static func modifier(for turn: Turn) -> String? {
        switch turn {
        case .uTurn: return "uturn"
        case .sharpRight: return "sharp right"
        case .right: return "right"
        case .slightRight, .keepRight, .forkRight: return "slight right"
        case .slightLeft, .keepLeft, .forkLeft: return "slight left"
        case .left: return "left"
        case .sharpLeft: return "sharp left"
        default: return nil
        }
    }
}
