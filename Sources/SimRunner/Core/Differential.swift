import SimClock
import TalkArbiter

/// The checks of an arbiter that the timeline alone cannot make. Raw values
/// are their names in reports.
public enum ArbiterCheck: String, Sendable, CaseIterable, Comparable {
    /// The arbiter returned an action that cannot be carried out (`ImpossibleAction`).
    case impossibleAction = "impossible-action"
    /// Differential mode: the arbiter decided otherwise than the reference (`Divergence`).
    case divergence
    /// An arbiter in another process (`--arbiter`) crashed, hung, printed garbage or answered out of turn.
    case process

    /// Table order.
    public static func < (a: ArbiterCheck, b: ArbiterCheck) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The first decision where an arbiter and the reference part, on one scenario.
///
/// Both runs get the same inputs until then (the inputs follow from the
/// decisions), so the first difference is one input, at one instant, that
/// drew different actions. The ears' timer is left out of the comparison when
/// it draws nothing, and so are wake-ups: when an arbiter asks to be woken is
/// its own business, what it decides then is not.
public struct Divergence: Sendable, Equatable {
    /// The instant.
    public var t: SimTime
    /// The input the arbiter answered differently, nil if its run went on
    /// after the reference's had ended, or stopped before.
    public var input: ArbiterInput?
    /// The reference's input there, when it differs (the arbiter decided on another input).
    public var referenceInput: ArbiterInput?
    /// What the reference decided, wake-ups left out.
    public var reference: [TalkArbiter.Action]
    /// What the arbiter decided, wake-ups left out.
    public var arbiter: [TalkArbiter.Action]

    /// The first divergence of two decision logs (the arbiter's, the reference's), if any.
    public static func first(_ arbiter: [Decision], reference: [Decision]) -> Divergence? {
        // Equal logs (the same log, for a run served from the reference's forecast) part nowhere.
        if arbiter == reference { return nil }
        let a = arbiter.compactMap(comparable), b = reference.compactMap(comparable)
        for i in 0..<max(a.count, b.count) {
            let mine = i < a.count ? a[i] : nil, theirs = i < b.count ? b[i] : nil
            if mine == theirs { continue }
            let t = mine?.t ?? theirs?.t ?? .zero
            let input = mine?.input ?? nil
            return Divergence(
                t: t, input: input ?? theirs?.input,
                referenceInput: theirs.flatMap { $0.input == mine?.input ? nil : $0.input },
                reference: theirs?.actions ?? [], arbiter: mine?.actions ?? [])
        }
        return nil
    }

    /// A decision as compared: wake-ups dropped; an ears' timer or an end of
    /// an instant that drew nothing dropped.
    static func comparable(_ decision: Decision) -> Decision? {
        var d = decision
        d.actions.removeAll { if case .wake = $0 { return true } else { return false } }
        if d.actions.isEmpty, d.input == .earsTimer || d.input == .endOfInstant { return nil }
        return d
    }
}

extension Roster {
    /// An input in words, with ids: `lineRequested g2`.
    package func describe(_ input: ArbiterInput) -> String {
        switch input {
        case .lineEnded(let i): return "lineEnded \(line(i))"
        case .stretchEnded(let i): return "stretchEnded \(stretch(i))"
        case .dadEnded(let i): return "dadEnded \(utterance(i))"
        case .earsTimer: return "earsTimer"
        case .lineExpired(let i): return "lineExpired \(line(i))"
        case .lineRequested(let i): return "lineRequested \(line(i))"
        case .replyBegan(let i): return "replyBegan \(reply(i))"
        case .chunkReady(let i): return "chunkReady \(stretch(i))"
        case .dadStarted(let i): return "dadStarted \(utterance(i))"
        case .endOfInstant: return "endInstant"
        }
    }

    /// An action in words, with ids and its rule: `stretchCut r1/s1 (long-cut) by g2`.
    /// An index outside the tables is shown as `#n`.
    package func describe(_ action: TalkArbiter.Action) -> String {
        func rule(_ r: Rule?) -> String { r.map { " (\($0.rawValue))" } ?? "" }
        switch action {
        case .lineWaiting(let l, let r, let s): return "lineWaiting \(line(l))\(rule(r))" + (s.map { " for \(stretch($0))" } ?? "")
        case .lineStarted(let l, let end): return "lineStarted \(line(l)) until \(end)"
        case .lineEnded(let l): return "lineEnded \(line(l))"
        case .lineDropped(let l, let r): return "lineDropped \(line(l))\(rule(r))"
        case .replyQueued(let r): return "replyQueued \(reply(r)) (reply-queue)"
        case .replyBegan(let r): return "replyBegan \(reply(r))"
        case .stretchStarted(let r, let s, let end, let held):
            return "stretchStarted \(reply(r))/\(stretch(s)) until \(end)" + (held.map { " (held \($0.ms) ms)" } ?? "")
        case .stretchEnded(let r, let s): return "stretchEnded \(reply(r))/\(stretch(s))"
        case .stretchCut(let r, let s, let cutRule, let by, let played, _):
            let who: String
            switch by {
            case .line(let l): who = line(l)
            case .utterance(let u): who = utterance(u)
            }
            return "stretchCut \(reply(r))/\(stretch(s))\(rule(cutRule)) by \(who) after \(played.ms) ms"
        case .replyEnded(let r): return "replyEnded \(reply(r))"
        case .replyAbandoned(let r, let abandonRule): return "replyAbandoned \(reply(r))\(rule(abandonRule))"
        case .earsClosed: return "earsClosed (ears-closed)"
        case .earsOpened: return "earsOpened"
        case .wake(let t): return "wake at \(t)"
        }
    }

    /// A list of actions in words: `[lineStarted g1 until 00:05.000]`, `nothing`.
    package func describe(_ actions: [TalkArbiter.Action]) -> String {
        actions.isEmpty ? "nothing" : "[" + actions.map(describe).joined(separator: ", ") + "]"
    }

    private func line(_ i: Int) -> String { i >= 0 && i < lines.count ? lines[i].id : "#\(i)" }
    private func reply(_ i: Int) -> String { i >= 0 && i < replyIDs.count ? replyIDs[i] : "#\(i)" }
    private func stretch(_ i: Int) -> String { i >= 0 && i < stretches.count ? stretches[i].id : "#\(i)" }
    private func utterance(_ i: Int) -> String { i >= 0 && i < utterances.count ? utterances[i].id : "#\(i)" }
}

extension Divergence {
    /// The divergence as a violation: `at 00:04.000, on lineRequested g2, the
    /// reference decided [...]; the arbiter decided [...]`.
    func violation(_ roster: Roster) -> Violation {
        var on = input.map { "on \(roster.describe($0))" } ?? "after the end of the run"
        if let other = referenceInput { on += " (the reference: on \(roster.describe(other)))" }
        return Violation(
            check: .arbiter(.divergence), t: t,
            message: "at \(t), \(on), the reference decided \(roster.describe(reference)); the arbiter decided \(roster.describe(arbiter))")
    }
}

extension ImpossibleAction {
    /// The impossible action as a violation, naming the action, the input and the instant.
    func violation(_ roster: Roster) -> Violation {
        Violation(
            check: .arbiter(.impossibleAction), t: t,
            message: "at \(t), on \(roster.describe(input)), the arbiter returned \(roster.describe(action)): \(reason.rawValue)")
    }
}
