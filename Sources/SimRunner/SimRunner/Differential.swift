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
///
/// The instant is the earlier of the two sides' decisions where the logs
/// part: when one side stays silent where the other acts (an input left
/// unwired), it is the instant of the side that acted, and the silent side's
/// next decision is kept (`arbiterNext`, `referenceNext`) so that a message
/// can say where it went instead.
public struct Divergence: Sendable, Equatable {
    /// The first instant where the two part.
    public var t: SimTime
    /// The input the two answered differently at `t`: the reference's, or the
    /// arbiter's when the reference decided nothing then. Nil if neither
    /// decided anything at `t` (never, for logs that part).
    public var input: ArbiterInput?
    /// The arbiter's input at `t`, when it decided on another input than the reference.
    public var arbiterInput: ArbiterInput?
    /// What the reference decided at `t` on `input`, wake-ups left out (empty: nothing).
    public var reference: [TalkArbiter.Action]
    /// What the arbiter decided at `t`, wake-ups left out (empty: nothing).
    public var arbiter: [TalkArbiter.Action]
    /// Whether the arbiter was silent at `t`: it decided nothing there (no decision in its log at `t`).
    public var arbiterSilent = false
    /// Whether the reference was silent at `t`.
    public var referenceSilent = false
    /// The arbiter's next decision when it was silent at `t` (nil: its run had ended).
    public var arbiterNext: Decision?
    /// The reference's next decision when it was silent at `t` (nil: its run had ended).
    public var referenceNext: Decision?

    /// The first divergence of two decision logs (the arbiter's, the reference's), if any.
    package static func first(_ arbiter: [Decision], reference: [Decision]) -> Divergence? {
        // Equal logs (the same log, for a run served from the reference's forecast) part nowhere.
        if arbiter == reference { return nil }
        let a = arbiter.compactMap(comparable)
        let b = reference.compactMap(comparable)
        for i in 0..<max(a.count, b.count) {
            let mine = i < a.count ? a[i] : nil
            let theirs = i < b.count ? b[i] : nil
            if mine == theirs { continue }
            // The earlier side's instant: the later one's decision there is "nothing".
            let t = [mine?.t, theirs?.t].compactMap { $0 }.min() ?? .zero
            let atT = (
                arbiter: mine.flatMap { $0.t == t ? $0 : nil }, reference: theirs.flatMap { $0.t == t ? $0 : nil }
            )
            let input = atT.reference?.input ?? atT.arbiter?.input
            return Divergence(
                t: t, input: input,
                arbiterInput: atT.arbiter.flatMap { $0.input == input ? nil : $0.input },
                reference: atT.reference?.actions ?? [], arbiter: atT.arbiter?.actions ?? [],
                arbiterSilent: atT.arbiter == nil, referenceSilent: atT.reference == nil,
                arbiterNext: atT.arbiter == nil ? mine : nil, referenceNext: atT.reference == nil ? theirs : nil)
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
        func rule(_ r: some TalkArbiter.ActionRule) -> String { " (\(r.rule.rawValue))" }
        switch action {
        case .lineWaiting(let l, let r, let s):
            return "lineWaiting \(line(l))\(rule(r))" + (s.map { " for \(stretch($0))" } ?? "")
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
    /// The divergence as a violation, naming the first instant where the
    /// two part and each side's input there: `at 00:04.000, on lineRequested
    /// g2, the reference decided [...]; the arbiter decided [...]`; a side
    /// that decided nothing then is followed to its next decision.
    func violation(_ roster: Roster) -> Violation {
        func next(_ decision: Decision?) -> String {
            guard let decision else { return " (its run ended there)" }
            return
                " (its next decision: at \(decision.t), on \(roster.describe(decision.input)), \(roster.describe(decision.actions)))"
        }
        let on = input.map { "on \(roster.describe($0))" } ?? "after the end of the run"
        var text = "at \(t), \(on), the reference decided \(roster.describe(reference))"
        if referenceSilent { text += next(referenceNext) }
        text += "; the arbiter decided "
        if let other = arbiterInput { text += "on \(roster.describe(other)) " }
        text += roster.describe(arbiter)
        if arbiterSilent { text += next(arbiterNext) }
        return Violation(check: .arbiter(.divergence), t: t, message: text)
    }
}

extension ImpossibleAction {
    /// The impossible action as a violation, naming the action, the input and the instant.
    func violation(_ roster: Roster) -> Violation {
        Violation(
            check: .arbiter(.impossibleAction), t: t,
            message:
                "at \(t), on \(roster.describe(input)), the arbiter returned \(roster.describe(action)): \(reason.rawValue)"
        )
    }
}
