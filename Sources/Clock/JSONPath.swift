/// A place inside a JSON document, from its root: the keys and indices that
/// lead to a value, written the one way every message about a file's content
/// shows it (`replies[0].stretches[1].duration`). The scenario decoder, the
/// checks of a scenario and of a road, the JSON parser and the route
/// importers all name places with it.
public enum JSONPath {
    /// One step of a path.
    public enum Step: Sendable, Equatable {
        /// An object's key, as the file spells it (`drive`, `speeds`, `kmh`).
        case key(String)
        /// A position in an array, from 0.
        case index(Int)
    }

    /// `steps` as written in messages, after `root` (none: from the document's top).
    public static func render(_ steps: [Step], from root: String = "") -> String {
        var out = root
        for step in steps {
            switch step {
            case .key(let key): out = join(out, key)
            case .index(let index): out = join(out, index)
            }
        }
        return out
    }

    /// `path.key`, or `key` at the top.
    public static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// `path[index]`.
    public static func join(_ path: String, _ index: Int) -> String { path + "[\(index)]" }
}
