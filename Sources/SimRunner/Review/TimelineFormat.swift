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
    /// The drive as sound: what Dad hears (left) and what Pippa hears (right), a 16-bit WAV.
    case wav

    /// Whether the format draws the road alone (`geojson`): a talk-only drive
    /// gives it nothing to draw, so `bench` times it on a road drive.
    package var drawsOnlyTheRoad: Bool {
        switch self {
        case .geojson: return true
        case .text, .json, .lanes, .svg, .trace, .html, .wav: return false
        }
    }

    /// Whether the format is sound (`wav`): binary, as long as the drive
    /// (64,000 bytes a second), so `bench` leaves it to docs/benchmarks.md's
    /// whole-process figures and `run` refuses it on a terminal.
    package var isSound: Bool { self == .wav }

    /// `timeline` of `scenario` in this format, showing `window` (all but
    /// `geojson`, which draws the whole drive); `width` in columns for
    /// `lanes` (default 80), pixels for `svg` (default `Timeline.defaultSVGWidth`).
    /// (`wav` is bytes, not text: read it with `write`.)
    public func render(
        _ timeline: Timeline, of scenario: Scenario, width: Int? = nil, window: ReviewWindow = ReviewWindow()
    ) -> String {
        String(chunks: { write(timeline, of: scenario, width: width, window: window, to: $0) })
    }

    /// `render`'s UTF-8 as `run` writes it, handed to `emit` in chunks as it
    /// is made (a chunk is valid only during the call): a long drive's
    /// picture, trace, page or JSON is never held whole. The pictures, the
    /// trace and GeoJSON are made as bytes, never checked again as a string.
    public func write(
        _ timeline: Timeline, of scenario: Scenario, width: Int? = nil, window: ReviewWindow = ReviewWindow(),
        to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        func whole(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer(emit) }
        func whole(_ text: String) {
            var text = text
            text.withUTF8(emit)
        }
        switch self {
        case .text: whole(window.folded ? window.selecting(timeline).story : window.selecting(timeline).text)
        case .json: window.selecting(timeline).writeJSON(emit)
        case .lanes: whole(timeline.lanesChart(width: width ?? 80, window: window))
        case .svg: timeline.writeSVG(width: width ?? Timeline.defaultSVGWidth, window: window, to: emit)
        case .trace: timeline.writeTrace(window: window, to: emit)
        case .html: timeline.writeHTML(window: window, to: emit)
        case .geojson: whole(timeline.geoJSONBytes(scenario))
        case .wav: timeline.writeWAV(window: window, to: emit)
        }
    }
}
