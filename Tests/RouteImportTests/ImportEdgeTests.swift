import Road
import Testing

@testable import RouteImport

/// Issue 38's import points: repeated points cost no more than others,
/// and an empty polyline or a reversed interval is named for what it is.
@Suite struct ImportEdgeTests {
    static func problem(_ json: String) -> ImportProblem? {
        do {
            _ = try RouteImporter.importRoute(
                Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t"))
            return nil
        } catch { return error }
    }

    /// A Valhalla trip whose shape is `repeated` copies of one point, then
    /// one more, with a "continue" maneuver every `every` points of the run.
    static func repeatedPoints(_ repeated: Int, every: Int) -> String {
        let a = GeoPoint(latitude: 37.5, longitude: 127)
        let b = GeoPoint(latitude: 37.51, longitude: 127)
        let shape = Polyline.encode([GeoPoint](repeating: a, count: repeated) + [b], precision: 6)
        var maneuvers = [#"{"type":1,"begin_shape_index":0,"length":1.1,"time":80}"#]
        for k in stride(from: every, to: repeated, by: every) {
            maneuvers.append(#"{"type":8,"begin_shape_index":\#(k),"length":0,"time":0}"#)
        }
        maneuvers.append(#"{"type":4,"begin_shape_index":\#(repeated),"length":0,"time":0}"#)
        return
            #"{"trip":{"status":0,"units":"kilometers","legs":[{"shape":"\#(shape)","maneuvers":[\#(maneuvers.joined(separator: ","))]}]}}"#
    }

    @Test func bearingsOnRepeatedPointsAreLinear() throws {
        // 4,000 maneuvers on a run of 100,000 equal points: each bearing scanned the run
        // (RouteImporter.bearings(at:) took 25 s here, debug build); one pass over the line now.
        let json = Self.repeatedPoints(100_000, every: 25)
        let clock = ContinuousClock()
        var imported: RouteImporter.Imported? = nil
        let took = try clock.measure {
            imported = try RouteImporter.importRoute(
                Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t"))
        }
        #expect(imported?.scenario.road?.maneuvers.map(\.turn) == [.arrive])
        #expect(took < .seconds(4), "\(took)")
    }

    @Test func neighboursSkipRunsOfEqualPoints() {
        let a = GeoPoint(latitude: 1, longitude: 1)
        let b = GeoPoint(latitude: 1, longitude: 1.001)
        let c = GeoPoint(latitude: 1.001, longitude: 1.001)
        let n = RouteImporter.Neighbours([a, b, b, b, c])
        #expect(n.before == [-1, 0, 0, 0, 3])
        #expect(n.after == [1, 4, 4, 4, 5])
        let (before, after) = RouteImporter.bearings(at: 2, [a, b, b, b, c], n)
        #expect(abs((before ?? 0) - 90) < 0.1 && abs((after ?? 0) - 0) < 0.1)
    }

    @Test func anEmptyPolylineSaysItIsEmpty() {
        let json =
            #"{"code":"Ok","routes":[{"distance":100,"geometry":"","legs":[{"steps":[{"maneuver":{"type":"depart","location":[127,37.5]},"distance":100,"duration":10}]}]}]}"#
        #expect(Self.problem(json) == ImportProblem(.emptyPolyline, at: "routes[0].geometry"))
        #expect(
            Self.problem(#"{"trip":{"legs":[{"shape":"","maneuvers":[]}]}}"#)
                == ImportProblem(.emptyPolyline, at: "trip.legs[0].shape"))
    }

    @Test func aReversedGraphHopperIntervalSaysItIsReversed() {
        let go = #"{"sign":0,"interval":[0,1],"distance":1100,"time":80000,"street_name":"A"}"#
        let json =
            #"{"paths":[{"distance":1100,"time":80000,"points":"_t`B_t`B?o}@","instructions":[\#(go),{"sign":4,"interval":[1,0],"distance":0,"time":0}]}]}"#
        #expect(
            Self.problem(json)
                == ImportProblem(.reversedInterval(first: 1, last: 0), at: "paths[0].instructions[1].interval"))
    }
}
