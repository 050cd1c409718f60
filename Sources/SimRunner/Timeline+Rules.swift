import TalkArbiter

extension Timeline {
    /// How often each rule fired, indexed like `Rule.allCases`: every event
    /// that names a rule counts once for it, and a cut by guidance counts
    /// once more for `after-cut` (what followed it).
    public var ruleCounts: [Int] {
        var counts = [Int](repeating: 0, count: Rule.allCases.count)
        for event in events {
            if let rule = event.rule { counts[rule.index] += 1 }
            if event.afterCut != nil { counts[Rule.afterCut.index] += 1 }
        }
        return counts
    }
}
