import SimRunner

/// The forms a timeline is printed in (`run --format`), one case each, so
/// that every place that lists, parses or renders them (the CLI, its
/// completions, `bench`) is led by the compiler to every format.
public enum TimelineFormat: String, CaseIterable, Sendable {
    /// The text timeline (docs/timeline.md).
    case text
    /// SPEC 5's JSON: `{"scenario": NAME, "events": [...]}`.
    case json
    /// A text chart, one lane per voice.
    case lanes
    /// A picture.
    case svg
    /// The Trace Event format, for Perfetto or chrome://tracing.
    case trace
    /// A page that zooms, with the picture and the table.
    case html
    /// The road: the route, the fixes and where each line was heard, for a map.
    case geojson

    /// Whether the format draws the road alone (`geojson`): a talk-only drive
    /// gives it nothing to draw, so `bench` times it on a road drive.
    public var drawsOnlyTheRoad: Bool {
        switch self {
        case .geojson: return true
        case .text, .json, .lanes, .svg, .trace, .html: return false
        }
    }

    /// `timeline` of `scenario` in this format, showing `window` (all but
    /// `geojson`, which draws the whole drive); `width` in columns for
    /// `lanes` (default 80), pixels for `svg` (default `Timeline.defaultSVGWidth`).
    public func render(_ timeline: Timeline, of scenario: Scenario, width: Int? = nil, window: ReviewWindow = ReviewWindow()) -> String {
        String(decoding: bytes(timeline, of: scenario, width: width, window: window), as: UTF8.self)
    }

    /// `render`'s UTF-8, as `run` writes it: the pictures, the trace and
    /// GeoJSON are made as bytes, never checked again as a string.
    public func bytes(_ timeline: Timeline, of scenario: Scenario, width: Int? = nil, window: ReviewWindow = ReviewWindow()) -> [UInt8] {
        switch self {
        case .text: return Array((window.folded ? window.selecting(timeline).story : window.selecting(timeline).text).utf8)
        case .json: return Array(window.selecting(timeline).json.utf8)
        case .lanes: return Array(timeline.lanesChart(width: width ?? 80, window: window).utf8)
        case .svg: return timeline.svgBytes(width: width ?? Timeline.defaultSVGWidth, window: window)
        case .trace: return timeline.traceBytes(window: window)
        case .html: return timeline.htmlBytes(window: window)
        case .geojson: return timeline.geoJSONBytes(scenario)
        }
    }
}
