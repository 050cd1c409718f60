import SimClock
import SimRunner

/// The road's optional `servicePrompts` (docs/import.md): a routing service's
/// own voice prompts, kept for comparison; they never change the run.
extension Decoding {
    /// The longest prompt text, in characters.
    static let servicePromptCharacters = 1000

    /// `road.servicePrompts`, each naming one of the road's maneuvers; empty when absent.
    func servicePrompts(_ road: JSONNode, _ path: String) throws(ScenarioError) -> [ServicePrompt] {
        guard let value = road["servicePrompts"] else { return [] }
        let listPath = JSONPath.join(path, "servicePrompts")
        var maneuverIDs: [String] = []
        if let items = road["route"]?["maneuvers"]?.items {
            for item in items { if let id = item["id"]?.string { maneuverIDs.append(id) } }
        }
        var out: [ServicePrompt] = []
        for (i, item) in try array(value, listPath).enumerated() {
            let p = try object(item, Location(base: listPath, index: i), allowed: ScenarioKeys.servicePrompt)
            let idValue = try required(p, "maneuver")
            let id = try nonEmptyString(idValue, p.path("maneuver"))
            if !maneuverIDs.contains(id) {
                throw fail(
                    .unknownValue(id, allowed: maneuverIDs, suggestion: suggestion(for: id, among: maneuverIDs)),
                    p.path("maneuver"), idValue)
            }
            // Without `before`, a display text (no announcement distance).
            var before: Double? = nil
            if let beforeValue = p.optional("before") {
                let meters = try number(beforeValue, p.path("before"))
                if meters < 0 { throw fail(.invalid(.negative), p.path("before"), beforeValue) }
                if !(meters <= 10_000_000) { throw fail(.outOfRange("0...10000000"), p.path("before"), beforeValue) }
                before = meters
            }
            let textValue = try required(p, "text")
            let text = try nonEmptyString(textValue, p.path("text"))
            if text.count > Decoding.servicePromptCharacters {
                throw fail(.stringTooLong(maxCharacters: Decoding.servicePromptCharacters), p.path("text"), textValue)
            }
            out.append(ServicePrompt(maneuver: id, before: before, text: text))
        }
        return out
    }
}
