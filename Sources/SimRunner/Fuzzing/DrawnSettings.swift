import SimRunner

extension Check {
    /// The settings a fuzz run draws that this check depends on, as the
    /// run drew them (`waitLimit 1.807 s`), for its failure's line: a
    /// message such as "cut a stretch with only 1807 ms left" then says
    /// why that was too little without opening the reproducer. Nil when
    /// the check depends on none of them.
    package func drawn(in settings: Scenario.Settings) -> String? {
        var said: [String] = []
        if dependsOn.contains("earsTail") { said.append("earsTail \(Matcher.seconds(settings.earsTail))") }
        if dependsOn.contains("waitLimit") { said.append("waitLimit \(Matcher.seconds(settings.waitLimit))") }
        if dependsOn.contains("afterCut") { said.append("afterCut \(settings.afterCut.rawValue)") }
        return said.isEmpty ? nil : "this run drew " + said.joined(separator: ", ")
    }

    /// The names of the settings the check reads (SPEC 4.1 and 7).
    var dependsOn: [String] {
        switch self {
        case .invariant(2): return ["earsTail"]
        case .invariant(4), .invariant(5), .decision(.shortWait), .decision(.longCut): return ["waitLimit"]
        case .rule(.afterCut): return ["afterCut"]
        // Dad is heard once the ears reopen, `earsTail` after the last line.
        case .rule(.bargeIn), .decision(.bargeIn): return ["earsTail"]
        case .arbiter(.divergence): return ["earsTail", "waitLimit", "afterCut"]
        default: return []
        }
    }
}
