import ScenarioFormat

/// The kinds of document `import-route` reads, told apart by their
/// structure (`RouteFormat.detect`) or named with `--service`. Raw values
/// are the option's words.
package enum RouteFormat: String, Sendable, Equatable, CaseIterable {
    /// OSRM's route response (OSRM, Mapbox Directions, Valhalla's `format=osrm`): `routes[].legs[].steps[].maneuver`.
    case osrm
    /// Valhalla's own answer: `trip.legs[].maneuvers[]`.
    case valhalla
    /// GraphHopper's answer: `paths[].instructions[]`.
    case graphhopper
    /// A GeoJSON `LineString`, or a `Feature` of one.
    case geojson
    /// Kakao Mobility directions (`/v1/directions`, `/v1/waypoints/directions`,
    /// `/v1/future/directions`): `trans_id`, `routes[].sections[].roads/guides`.
    case kakao
    /// The Apple Maps Server API's `/v1/directions`: `routes[].stepIndexes`, `steps`, `stepPaths`.
    case apple
    /// Google's Routes API v2 `computeRoutes`: `routes[].legs[].steps[].navigationInstruction`, durations as `"102s"`.
    case google
    /// Google's legacy Directions API: `status`, `routes[].legs[].steps[].html_instructions`.
    case googleLegacy = "google-legacy"

    /// The format in words, as refusals name it.
    package var title: String {
        switch self {
        case .osrm: return "an OSRM route response"
        case .valhalla: return "a Valhalla trip"
        case .graphhopper: return "a GraphHopper path"
        case .geojson: return "GeoJSON"
        case .kakao: return "a Kakao Mobility directions response"
        case .apple: return "an Apple Maps Server directions response"
        case .google: return "a Google Routes API v2 response"
        case .googleLegacy: return "a Google Directions API (legacy) response"
        }
    }

    /// The format `root` (a JSON object) has, by its keys; nil for none.
    /// The map stacks are told before OSRM, which they share `routes` with.
    /// - Complexity: O(1): only the first route, leg and step are looked at.
    package static func detect(_ root: JSONValue) -> RouteFormat? {
        guard case .object(let members) = root.kind else { return nil }
        let route = root["routes"].flatMap { v -> JSONValue? in
            if case .array(let items) = v.kind { return items.first }
            return nil
        }
        let firstLeg = route?["legs"].flatMap { v -> JSONValue? in
            if case .array(let l) = v.kind { return l.first } else { return nil }
        }
        let firstStep = firstLeg?["steps"].flatMap { v -> JSONValue? in
            if case .array(let s) = v.kind { return s.first } else { return nil }
        }
        if root["trans_id"] != nil || route?["sections"] != nil || route?["result_code"] != nil { return .kakao }
        if route?["stepIndexes"] != nil || (root["stepPaths"] != nil && root["steps"] != nil) { return .apple }
        if let error = root["error"], case .object = error.kind, root["routes"] == nil {
            // Google's error carries a `status` ("INVALID_ARGUMENT"); Apple's a `message` and `details`.
            return error["status"] != nil || error["code"] != nil ? .google : .apple
        }
        if firstStep?["navigationInstruction"] != nil || firstStep?["staticDuration"] != nil
            || route?["distanceMeters"] != nil
            || route?["polyline"].map({ if case .object = $0.kind { true } else { false } }) == true
        {
            return .google
        }
        if root["error_code"] != nil, root["routes"] == nil { return .valhalla }
        if firstStep?["html_instructions"] != nil || root["geocoded_waypoints"] != nil
            || (root["status"].map { if case .string = $0.kind { true } else { false } } == true && root["trip"] == nil)
        {
            return .googleLegacy
        }
        // An empty answer is what Routes v2 sends when it finds no route.
        if members.isEmpty { return .google }
        if root["routes"] != nil || root["code"] != nil { return .osrm }
        if root["trip"] != nil { return .valhalla }
        if root["paths"] != nil { return .graphhopper }
        if root["hints"] != nil, root["message"] != nil { return .graphhopper }
        if root["type"] != nil { return .geojson }
        return nil
    }
}
