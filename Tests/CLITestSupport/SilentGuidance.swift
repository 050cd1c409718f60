import TestSupport

extension Fixtures {
    /// A silent guidance process in Python, for tests of the protocol, as a
    /// command line: it says the hello of `version`, appends every message it
    /// gets to `log`, says no line in a span, gives `unannounced` (JSON) as its
    /// reason for a turn unannounced, and answers `switching` with the line
    /// `switching` as it is, JSON or not.
    public static func silentGuidance(
        version: Int, log: String, unannounced: String = "null",
        switching: String = #"{"type": "switching", "line": null}"#
    ) throws -> String {
        let folder = try temporaryFolder()
        return "python3 "
            + write(
                """
                import json, sys
                log = open(\(String(reflecting: log)), "a")
                for raw in sys.stdin:
                    log.write(raw); log.flush()
                    m = json.loads(raw)
                    if m["type"] == "hello": print(json.dumps({"type": "hello", "guidance": \(version)}), flush=True)
                    elif m["type"] == "span": print(json.dumps({"type": "lines"}), flush=True)
                    elif m["type"] == "unannounced": print(json.dumps({"type": "unannounced", "reason": \(unannounced)}), flush=True)
                    elif m["type"] == "switching": print(\(String(reflecting: switching)), flush=True)
                """, "silent.py", in: folder)
    }
}
