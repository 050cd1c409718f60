import RouteImport
import SimRunner

/// One error's message and exit code, in the spirit of swift-argument-parser's
/// `MessageInfo`: the one place that words errors.
package struct MessageInfo: Sendable, Equatable {
    /// What goes to standard error, ending in a newline.
    package var message: String
    /// The process's exit code: always 2 for a `DrivesimError` (SPEC 8).
    package var exitCode: Int32

    /// The message for `error`, raised by `command` (for the usage lines), if known.
    package init(_ error: any Error, command: String? = nil) {
        exitCode = 2
        guard let error = error as? DrivesimError else {
            message = "Error: \(error)\n"
            return
        }
        message = "Error: \(error.reason)\n"
        if case .usage(let problem) = error {
            if case .unknownCommand = problem {
                message += "\(Drivesim.usage)\nSee 'drivesim --help'.\n"
            } else if case .unknownHelpTopic = problem {
                message += "\(Drivesim.usage)\nSee 'drivesim --help'.\n"
            } else if let command, let type = Drivesim.commands.first(where: { $0.name == command }) {
                message += "\(type.usage)\nSee 'drivesim \(command) --help'.\n"
            } else {
                message += "See 'drivesim --help'.\n"
            }
        }
    }
}

extension ImportProblem.Reason {
    /// The reason in words.
    var words: String {
        switch self {
        case .notJSON(let line, let column): return "not JSON (line \(line), column \(column))"
        case .notARouteResponse:
            return
                "not a route response: no \"routes\" (OSRM, Valhalla's osrm output, Mapbox; Kakao Mobility, Apple Maps Server, Google Routes v2 or Directions), \"trip\" (Valhalla), \"paths\" (GraphHopper), and not a GeoJSON LineString or Feature (--service names the format)"
        case .serviceError(let code, let message):
            return "the routing service answered with an error, code \"\(code)\"\(message.map { ": \($0)" } ?? "")"
        case .noRoutes: return "the response has no routes"
        case .noSteps:
            return
                "the leg has no steps, so no maneuver to announce: ask the service for them (OSRM and Mapbox: steps=true; "
                + "Valhalla: a directions_type other than none; GraphHopper: instructions=true)"
        case .unknownUnits(let units): return "units \"\(units)\" are neither kilometers nor miles"
        case .shapeIndexOutOfRange(let index, let count):
            return "point \(index) is beyond the line's \(count) points (0...\(max(0, count - 1)))"
        case .routeOutOfRange(let index, let count):
            return
                "there is no route \(index): the response has \(count) (use --route 0\(count > 1 ? "...\(count - 1)" : ""))"
        case .missingField(let key): return "missing \"\(key)\""
        case .wrongType(let expected): return "must be \(expected)"
        case .negative: return "must not be negative"
        case .numberOutOfRange(let literal): return "\(literal) is out of range (beyond ±1.8e308)"
        case .polylineDoesNotDecode(let offset): return "the encoded polyline does not decode (character \(offset))"
        case .polylineImplausible(let precision):
            return precision.map {
                "the polyline at precision \($0) gives coordinates beyond ±90° latitude or ±180° longitude"
            }
                ?? "the polyline gives no plausible coordinates at precision 5 or 6"
        case .coordinateOutOfRange: return "a coordinate beyond ±90° latitude or ±180° longitude"
        case .emptyPolyline: return "the encoded polyline is empty: the route has no points"
        case .reversedInterval(let first, let last):
            return "the interval [\(first), \(last)] is reversed: its last point comes before its first"
        case .projectedCoordinates(let value):
            return "\(value) is no longitude or latitude: the coordinates are on a projected grid (KATEC, WCONGNAMUL); "
                + "ask the service for WGS84 longitude and latitude"
        case .emptyAnswer:
            return
                "the answer is empty ({}): the service holds no route for this request (Google's Routes API answers so when it finds none)"
        case .repeatedStep(let index): return "step \(index) is listed a second time: each step is driven once"
        case .kakaoSummaryOnly:
            return
                "a summary of the route only (Kakao's multi-destination answer, or summary=true): no line and no guides to drive; "
                + "ask /v1/directions for the route"
        case .nothingDriven: return "every step is walked (Walking): there is nothing to drive"
        case .tooFewPoints: return "the geometry has fewer than two distinct points"
        case .routeTooLong(let km, let hours):
            return
                "the route is \(MeasuredValue.plain(km)) km long\(hours.map { ", about \($0) hours" } ?? ""), beyond the format's 10000 km"
        case .tooManyPoints(let count, let limit):
            return
                "the geometry has \(count) points (near-duplicates left out), more than the \(limit) a scenario file of at most 64 MiB holds"
        case .scenarioRefused(let path, let reason):
            return "the scenario it makes would be refused at \(path.isEmpty ? "its top level" : path): \(reason)"
        case .scenarioTooLarge(let bytes, let limit):
            return "the scenario would take \(bytes) bytes, more than the \(limit) a scenario file is read up to"
        case .driveTooLong(let hours, let km):
            return
                "at the response's speeds the drive\(km.map { " of \($0) km" } ?? "") would last about \(MeasuredValue.plain(hours)) hours, beyond 24"
        case .maneuverOffGeometry(let meters):
            return "the maneuver lies \(MeasuredValue.plain(meters)) m from the route's geometry (at most 15 m)"
        case .unsupportedGeoJSON(let type): return "GeoJSON \"\(type)\" is not a LineString or a Feature of one"
        case .routesApart(let meters, let reach):
            return
                "the route starts \(MeasuredValue.plain(meters)) m from the road before it (after the previous change's branch), beyond \(MeasuredValue.plain(reach)) m: "
                + "the car could not have asked for it from that road"
        }
    }
}

extension ImportWarning {
    /// The warning in words.
    var reason: String {
        switch kind {
        case .unknownManeuverType(let type, let kept):
            return "unknown maneuver type \"\(type)\"; kept as a plain turn (\(kept))"
        case .unknownModifier(let modifier, let kept):
            return "unknown modifier \"\(modifier)\"; read by its words as \(kept)"
        case .roundaboutWithoutExit(let kept):
            return "a roundabout without an exit from 1 to 12; kept as a plain turn (\(kept))"
        case .tooCloseToPrevious: return "less than a meter after the maneuver before; left out"
        case .lengthDiffers(let g, let r): return "the geometry is \(g) m long but the route's distance is \(r) m"
        case .speedClamped(let kmh): return "a speed of \(MeasuredValue.plain(kmh)) km/h, outside 3.6...250; clamped"
        case .promptWithoutManeuver: return "a voice instruction with no maneuver after it; not kept"
        case .walkingNotDriven: return "a walked step (Walking) is not driven: the drive ends where it begins"
        case .unknownGuideType(let type, let kept):
            return "unknown guide type \(type); kept as its guidance text reads (\(kept))"
        case .notAnnounced(let type): return "a \"\(type)\" step going straight on is no maneuver; not announced"
        case .cannotAnnounce(let meters):
            return
                "\(meters) m after the maneuver before, too close for a \"now\" line of its own at the response's speed; left out"
        case .cannotAnnounceAfterStart(let meters):
            return
                "\(meters) m after the start, too close to be announced before the car is there at the response's speed; left out"
        case .wordsNotRead:
            return
                "the instructions are in no language drivesim reads (en, ko, ja, zh, fr, de, es, pt, it): no street, toward or side is taken from their words"
        case .arrivalSideNotRead(let text):
            return "the destination's side in \"\(text)\" is in no words drivesim reads; no side is said"
        case .straightOn(let what): return "a \(what) going straight on is no maneuver; not announced"
        case .simplifiedGeometry:
            return "a simplified line (overview=simplified); the steps' own geometries are driven instead"
        case .overviewMismatch(let meters, let maneuver):
            return
                "the maneuver at \(maneuver) lies \(MeasuredValue.plain(meters)) m off this line, which does not match its steps; the steps' own geometries fit every maneuver and are driven instead"
        }
    }
}
