import Guidance
import Road
import ScenarioFormat
import SimClock

/// The Apple Maps Server API's `/v1/directions` (the data MapKit's `MKRoute`
/// holds, as JSON): `routes[N].stepIndexes` name the `steps`, each step's
/// `instructions` apply at the start of its `stepPaths[stepPathIndex]`.
/// Apple sends no maneuver codes: the kinds come from the line
/// (docs/import.md, "Apple Maps").
extension RouteImporter.Reader {
    // MARK: Apple Maps Server

    /// Apple's `routes[N]` (`--route N`): its steps up to the first walked one.
    mutating func apple(_ root: JSONValue, options: RouteImporter.Options) throws(ImportProblem)
        -> RouteImporter.Imported
    {
        if let error = root["error"] {
            throw ImportProblem(
                .serviceError(code: "Apple", message: try string(error, "message", "error")), at: "error")
        }
        let (route, path) = try chosen("routes", of: root, options)
        let indexesPath = JSONPath.join(path, "stepIndexes")
        let indexes = try array(try member(route, "stepIndexes", path), indexesPath)
        let steps = try array(try member(root, "steps", ""), "steps")
        let paths = try array(try member(root, "stepPaths", ""), "stepPaths")
        if indexes.isEmpty { throw ImportProblem(.noSteps, at: indexesPath) }
        var read: [RouteImporter.ServiceStep] = []
        var warnings: [ImportWarning] = []
        var walked = false
        var listed = Set<Int>()
        for (i, value) in indexes.enumerated() {
            let iPath = JSONPath.join(indexesPath, i)
            let k = try integer(value, iPath)
            guard k >= 0, k < steps.count else {
                throw ImportProblem(.shapeIndexOutOfRange(index: k, count: steps.count), at: iPath)
            }
            // Its maneuver is named by its number (`s<k>`): a step listed twice is refused where it repeats.
            guard listed.insert(k).inserted else { throw ImportProblem(.repeatedStep(index: k), at: iPath) }
            let p = "steps[\(k)]"
            let step = steps[k]
            guard case .object = step.kind else { throw ImportProblem(.wrongType(expected: "an object"), at: p) }
            // A walked step (from where the car is parked) is not driven: the drive ends where the first begins.
            if let mode = try string(step, "transportType", p), mode.lowercased() == "walking" {
                warnings.append(ImportWarning(.walkingNotDriven, at: JSONPath.join(p, "transportType")))
                walked = true
                continue
            }
            if walked { continue }
            let pPath = JSONPath.join(p, "stepPathIndex")
            let pathIndex = try integer(try member(step, "stepPathIndex", p), pPath)
            guard pathIndex >= 0, pathIndex < paths.count else {
                throw ImportProblem(.shapeIndexOutOfRange(index: pathIndex, count: paths.count), at: pPath)
            }
            let linePath = "stepPaths[\(pathIndex)]"
            var points: [GeoPoint] = []
            for (n, item) in try array(paths[pathIndex], linePath).enumerated() {
                points.append(
                    try point(item, JSONPath.join(linePath, n), latitude: "latitude", longitude: "longitude"))
            }
            let meters =
                try step["distanceMeters"].map { v throws(ImportProblem) in
                    try distance(v, JSONPath.join(p, "distanceMeters"))
                } ?? 0
            let seconds =
                try step["durationSeconds"].map { v throws(ImportProblem) in
                    try distance(v, JSONPath.join(p, "durationSeconds"))
                } ?? 0
            let text = try string(step, "instructions", p) ?? ""
            read.append(
                RouteImporter.ServiceStep(
                    path: p, maneuver: RouteImporter.fromGeometry, text: text, side: text, points: points,
                    distance: meters, duration: seconds, number: k))
        }
        if read.isEmpty { throw ImportProblem(.nothingDriven, at: indexesPath) }
        // An MKRoute written out has no step durations (MKRoute.Step holds none): the route's time, shared by distance.
        let routeSeconds =
            try route["durationSeconds"].map { v throws(ImportProblem) in
                try distance(v, JSONPath.join(path, "durationSeconds"))
            } ?? 0
        let readMeters = read.reduce(0) { $0 + $1.distance }
        if read.allSatisfy({ $0.duration == 0 }), routeSeconds > 0, readMeters > 0 {
            for k in read.indices { read[k].duration = routeSeconds * read[k].distance / readMeters }
        }
        // The arrival's side is in the last driven step's words ("The destination is on your right").
        for k in read.indices.dropLast() { read[k].side = nil }
        let points = RouteImporter.joined(read.map(\.points))
        let stepList = RouteImporter.steps(
            google: [read], legPaths: [read[read.count - 1].path], keys: .apple, warnings: &warnings)
        // The length check compares the driven part: the route's own distance only when nothing is walked.
        let driven = read.reduce(0) { $0 + $1.distance }
        let total =
            walked
            ? driven
            : try route["distanceMeters"].map { v throws(ImportProblem) in
                try distance(v, JSONPath.join(path, "distanceMeters"))
            } ?? driven
        let seconds = read.reduce(0) { $0 + $1.duration }
        return try native(
            stepList, points: points, precision: nil, total: total, seconds: seconds > 0 ? seconds : nil,
            geometryPath: "stepPaths", options: options, warnings: warnings)
    }
}
