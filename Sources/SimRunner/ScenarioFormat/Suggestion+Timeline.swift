import SimRunner

/// Suggestions for a matcher's typos (issue 52): a field the event does not
/// carry, an event name that is none.
enum TimelineSuggestion {
    /// The kinds of item whose id a field holds: `by` holds a line's or an
    /// utterance's, so a matcher that asks `talk.stretch.cut` for `line` means `by`.
    static func items(namedBy field: String) -> [String] {
        switch field {
        case "line": return ["line"]
        case "by": return ["line", "utterance"]
        case "utterance": return ["utterance"]
        case "stretch": return ["stretch"]
        case "reply": return ["reply"]
        case "maneuver": return ["maneuver"]
        default: return []
        }
    }

    /// The field of `event` that `key` (a field it does not carry) most
    /// likely meant: first the one field that holds the same kind of id
    /// (`line` → `by` on `talk.stretch.cut`, `by` → `line` on
    /// `guidance.started`), else the nearest by spelling among the event's
    /// fields and a matcher's keys (`suggestion(for:among:)`).
    static func field(for key: String, event: EventKind, matcherKeys: [String]) -> String? {
        let wanted = items(namedBy: key)
        if !wanted.isEmpty {
            let holding = event.fields.map(\.rawValue).filter { field in
                items(namedBy: field).contains { wanted.contains($0) }
            }
            if holding.count == 1 { return holding[0] }
        }
        return suggestion(for: key, among: event.fields.map(\.rawValue) + matcherKeys)
    }

    /// The event name `name` most likely meant: the nearest by spelling
    /// (`suggestion(for:among:)`), else the one name that starts the word
    /// or that the word starts (`talk.stretch.cutted` → `talk.stretch.cut`,
    /// `ears.close` → `ears.closed`), the longest such if several.
    static func event(for name: String) -> String? {
        let names = EventKind.allCases.map(\.rawValue)
        if let near = suggestion(for: name, among: names) { return near }
        let prefixed = names.filter { name.hasPrefix($0) || ($0.hasPrefix(name) && name.contains(".")) }
        guard let longest = prefixed.max(by: { $0.count < $1.count }) else { return nil }
        // Two of one length (`ears.` starts both ears events) are no typo of either.
        return prefixed.filter { $0.count == longest.count }.count == 1 ? longest : nil
    }

    /// The events of the family `name` names (`talk.stretch.cutted` → the
    /// `talk.` events), or nil when its first word is no family's.
    static func family(of name: String) -> (family: String, names: [String])? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let family = String(name[..<dot])
        let names = EventKind.allCases.map(\.rawValue).filter { $0.hasPrefix(family + ".") }
        return names.isEmpty ? nil : (family, names)
    }
}
