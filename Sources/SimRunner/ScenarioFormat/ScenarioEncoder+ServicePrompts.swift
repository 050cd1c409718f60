import SimRunner

/// The road's optional `servicePrompts`, written beside the road's own keys.
extension ScenarioEncoder {
    /// The road section with the service's prompts, if there are any.
    static func road(_ r: Scenario.Road, servicePrompts: [ServicePrompt]) -> JSONValue {
        let value = road(r)
        guard !servicePrompts.isEmpty, case .object(var members) = value.kind else { return value }
        members.append(
            (
                "servicePrompts",
                .array(
                    servicePrompts.map { p in
                        .object(
                            [("maneuver", .string(p.maneuver))] + (p.before.map { [("before", number($0))] } ?? []) + [
                                ("text", .string(p.text))
                            ])
                    })
            ))
        return .object(members)
    }
}
