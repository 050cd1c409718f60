import Road
import SimClock
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Route.firstPass` as it was written before a segment beyond the
/// tolerance was refused without its earth measures: every segment's
/// distance along and offset measured. The route must give the same bits.
private func referenceFirstPass(_ route: Route, near point: GeoPoint, from: Double) -> Double? {
    let target = route.projection.project(point)
    var best: (offset: Double, distance: Double)? = nil
    for i in route.segment(at: from)..<(route.points.count - 1) {
        let a = route.points[i]
        let b = route.points[i + 1]
        let ab = b - a
        let ap = target - a
        let span2 = ab.x * ab.x + ab.y * ab.y
        let u = span2 > 0 ? min(max((ap.x * ab.x + ap.y * ab.y) / span2, 0), 1) : 0
        let foot = a + ab * u
        let along = LocalProjection.Line(from: a, to: b).meters(to: u)
        let distance = min(route.cumulative[i] + along, route.cumulative[i + 1])
        let offset = route.meters(target, foot)
        if distance < from - 1e-9 { continue }
        if offset <= Route.maneuverTolerance {
            if best == nil || offset < best!.offset { best = (offset, distance) }
        } else if best != nil {
            break
        }
    }
    return best?.distance
}

/// A random route: a walk of 2 to 60 legs of 0 m (a repeated point) to
/// 3 km, turning any way (folding back on itself at times), starting at
/// the plane's centre or up to 5,000 km from it (where the scale is 1.15),
/// at any latitude.
private func randomRoute(_ random: inout SplitMix64) -> [GeoPoint] {
    func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(random.int(in: 0...1_000_000)) / 1_000_000
    }
    let projection = LocalProjection(origin: GeoPoint(latitude: uniform(-80, 80), longitude: uniform(-180, 180)))
    let far = random.int(in: 0...2) == 0 ? uniform(0, 5_000_000) : 0
    var position = Vector(x: far * 0.6, y: far * -0.8)
    var heading = uniform(0, 2 * .pi)
    var points = [projection.unproject(position)]
    for _ in 0..<random.int(in: 1...59) {
        heading += random.int(in: 0...5) == 0 ? .pi : uniform(-2, 2)
        let leg = random.int(in: 0...9) == 0 ? 0 : uniform(1, 3_000)
        position = position + Vector(x: sin(heading), y: cos(heading)) * leg
        points.append(projection.unproject(position))
    }
    return points
}

@Test func aManeuverIsPlacedAsWhenEverySegmentWasMeasured() throws {
    var random = SplitMix64(seed: 21)
    func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(random.int(in: 0...1_000_000)) / 1_000_000
    }
    var found = 0
    var boundary = 0
    for _ in 0..<400 {
        let route = try Route(points: randomRoute(&random))
        var from = 0.0
        for _ in 0..<40 {
            // A point on the route, then moved up to 40 m off it (often within a meter of the tolerance).
            let i = Int(random.int(in: 0...Int64(route.points.count - 2)))
            let a = route.points[i]
            let b = route.points[i + 1]
            let on = a + (b - a) * (random.int(in: 0...3) == 0 ? 1 : uniform(0, 1))
            let angle = uniform(0, 2 * .pi)
            let off = random.int(in: 0...1) == 0 ? uniform(14, 16) : uniform(0, 40)
            let point = route.projection.unproject(on + Vector(x: sin(angle), y: cos(angle)) * off)
            if random.int(in: 0...2) == 0 { from = uniform(0, route.length) }
            let placed = route.firstPass(near: point, from: from)
            let reference = referenceFirstPass(route, near: point, from: from)
            #expect(placed?.bitPattern == reference?.bitPattern, "\(route.points) \(point) from \(from)")
            if let reference {
                found += 1
                from = reference + 1
            }
            if abs(route.meters(route.projection.project(point), on) - Route.maneuverTolerance) < 1 { boundary += 1 }
        }
    }
    // The comparison reached both sides of the tolerance, and its edge.
    #expect(found > 2_000 && found < 14_000 && boundary > 1_000, "\(found) found, \(boundary) near the edge")
}
