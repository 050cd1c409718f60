/// Why a route response (or a GeoJSON line) cannot be imported, and where
/// inside it: `routes[0].legs[1].steps[4].maneuver.type`. Typed; the CLI
/// words it (`MessageInfo`). Tests compare cases, never prose.
package struct ImportProblem: Error, Sendable, Equatable {
    /// Where in the document (`routes[0].geometry`); empty at the top level.
    package var path: String
    /// What is wrong.
    package var reason: Reason

    /// A problem at `path`.
    package init(_ reason: Reason, at path: String) {
        self.reason = reason
        self.path = path
    }

    /// What is wrong, as a case.
    package enum Reason: Sendable, Equatable {
        /// The bytes are not one JSON value; 1-based line and column.
        case notJSON(line: Int, column: Int)
        /// Neither an OSRM-style response (`routes`) nor a GeoJSON `LineString` or `Feature`.
        case notARouteResponse
        /// The service answered with an error (`code` other than `Ok`).
        case serviceError(code: String, message: String?)
        /// `routes` is empty.
        case noRoutes
        /// A leg's `steps` (Valhalla: `maneuvers`, GraphHopper: `instructions`)
        /// is empty or missing: the service was asked without them (`steps=false`).
        case noSteps
        /// A Kakao answer with a route's summary only (the multi-destination
        /// `/v1/destinations/directions`, or `summary=true`): no line, no
        /// guides. `/v1/directions` answers with the route.
        case kakaoSummaryOnly
        /// Apple's `stepIndexes` lists step `index` a second time (a maneuver is named by its step).
        case repeatedStep(index: Int)
        /// A Valhalla trip's `units` other than kilometers or miles.
        case unknownUnits(String)
        /// A point index (Valhalla's `begin_shape_index`, GraphHopper's
        /// `interval`) beyond the `count` points of its line.
        case shapeIndexOutOfRange(index: Int, count: Int)
        /// `--route` asked for a route the response does not have.
        case routeOutOfRange(index: Int, count: Int)
        /// A required member is missing.
        case missingField(String)
        /// A member of the wrong JSON type; `expected` in words ("a number").
        case wrongType(expected: String)
        /// A number below zero where only zero or more makes sense.
        case negative
        /// A number literal (`1e400`) beyond the range of a double.
        case numberOutOfRange(String)
        /// An encoded polyline that does not decode: a bad character or a
        /// value cut short at `offset` (0-based, in characters).
        case polylineDoesNotDecode(offset: Int)
        /// The polyline decodes to no plausible latitude and longitude at the
        /// asked precision (or at neither 5 nor 6).
        case polylineImplausible(precision: Int?)
        /// A latitude beyond ±90° or a longitude beyond ±180°.
        case coordinateOutOfRange
        /// An encoded polyline of no characters: no point at all.
        case emptyPolyline
        /// A GraphHopper `interval` whose last point comes before its first.
        case reversedInterval(first: Int, last: Int)
        /// A coordinate (`value`) far beyond any degree: a projected grid
        /// (KATEC, WCONGNAMUL, TM), not longitude and latitude.
        case projectedCoordinates(value: Int)
        /// An empty answer (`{}`): what Google's Routes API sends when it finds no route.
        case emptyAnswer
        /// Every step is walked (Apple's `Walking`): nothing to drive.
        case nothingDriven
        /// Fewer than two distinct points.
        case tooFewPoints
        /// Longer than the scenario format's limit (`Route.maxLength`): the
        /// response's own `distance` (the geometry's length when it gives
        /// none), and its `duration` in hours when it gives one.
        case routeTooLong(kilometers: Double, hours: Int? = nil)
        /// More points (after near-duplicates are thinned) than a scenario
        /// file read back can hold (`RouteImporter.maxPoints`).
        case tooManyPoints(count: Int, limit: Int)
        /// The scenario made would be refused by the decoder: the place in
        /// it (`road.route.maneuvers[3].street`) and the decoder's reason.
        case scenarioRefused(path: String, reason: String)
        /// The scenario's JSON would be `bytes` long, over the `limit` a scenario file is read up to.
        case scenarioTooLarge(bytes: Int, limit: Int)
        /// The drive at the response's speeds would last beyond 24 hours:
        /// about `hours`, over the response's own `distance` when it gives one.
        case driveTooLong(hours: Double, kilometers: Int? = nil)
        /// A step's maneuver lies `meters` from the route's geometry.
        case maneuverOffGeometry(meters: Double)
        /// A GeoJSON `type` that is not a `LineString` (or a `Feature` of one).
        case unsupportedGeoJSON(String)
        /// A route change's route starts `meters` from the road before it,
        /// beyond `reach` (`RouteImporter.branchReach`): the routes never meet.
        case routesApart(meters: Double, reach: Double)
    }
}

/// Something the import did not take as given, and where; the import goes on.
package struct ImportWarning: Sendable, Equatable {
    /// Where in the document (`routes[0].legs[0].steps[3].maneuver.type`).
    package var path: String
    /// What was done instead.
    package var kind: Kind

    /// A warning at `path`.
    package init(_ kind: Kind, at path: String) {
        self.kind = kind
        self.path = path
    }

    /// What was done instead, as a case.
    package enum Kind: Sendable, Equatable {
        /// A maneuver type not in OSRM's list: kept as a plain turn by its modifier (`turn`).
        case unknownManeuverType(String, keptAs: String)
        /// A modifier not in OSRM's list: read by its words as the nearest turn (the maneuver `keptAs`).
        case unknownModifier(String, keptAs: String)
        /// A roundabout without a usable `exit` (absent or beyond 1...12): kept as a plain turn by its modifier.
        case roundaboutWithoutExit(keptAs: String)
        /// A maneuver less than a meter after the one before: left out.
        case tooCloseToPrevious
        /// The geometry's length differs from the route's `distance` by more than 3%.
        case lengthDiffers(geometryMeters: Int, responseMeters: Int)
        /// A step's speed (`distance / duration`) outside 3.6...250 km/h: clamped.
        case speedClamped(kmh: Double)
        /// A voice instruction whose maneuver was left out: not kept.
        case promptWithoutManeuver
        /// A step the service says is walked (Apple's `transportType` `Walking`): the drive ends before it.
        case walkingNotDriven
        /// A Kakao guide `type` drivesim does not know, kept as read from its `guidance` text (`keptAs`).
        case unknownGuideType(Int, keptAs: String)
        /// A step that is no decision for the driver (`new name`, `continue`,
        /// `notification` or `use lane` going straight on): not announced.
        case notAnnounced(type: String)
        /// A maneuver so soon after the one before (`metersAfterPrevious`)
        /// that the road cannot give it a "now" line of its own at the
        /// response's speed: left out (the one before is announced).
        case cannotAnnounce(metersAfterPrevious: Int)
        /// A maneuver so soon after the start (`meters`) that the road cannot
        /// announce it before the car is there: left out.
        case cannotAnnounceAfterStart(meters: Int)
        /// A step that is no decision for the driver, in the service's own
        /// terms (`what`: "step whose line does not turn" for Apple, "STRAIGHT
        /// step" for Google): not announced.
        case straightOn(what: String)
        /// The instructions' words are in no language drivesim reads (docs/import.md, "Words"): no street, toward or side is taken from them.
        case wordsNotRead
        /// The service's line about the destination (`text`) names no side drivesim reads: no side is said.
        case arrivalSideNotRead(String)
        /// The route's own line has fewer points than its steps' lines joined
        /// (OSRM's default `overview=simplified`): the steps' lines are driven.
        case simplifiedGeometry
        /// A maneuver (at the path `maneuver`) lies `meters` off the route's
        /// own line, where the steps' lines joined fit every maneuver: those are driven.
        case overviewMismatch(meters: Double, maneuver: String)
    }
}
