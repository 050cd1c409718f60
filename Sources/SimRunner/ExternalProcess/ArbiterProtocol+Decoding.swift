import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// The protocol's answers read: an `instant` answer's action lists, each
/// action decoded (docs/arbiter-protocol.md); what is not one is the
/// process's failure, named for what is wrong.
extension ArbiterProcess {
    /// The action lists of an `instant` answer, one per input, and the
    /// end's actions and `idle` when the message ended the instant; nil (and
    /// the failure recorded) if it is not that. Not `typed`: an instant's answer
    /// within a `run`'s, an object without `type`.
    package func answer(_ answer: JSONValue, inputs: Int, ends: Bool, for what: String, typed: Bool = true) -> Answer? {
        guard !typed || answer["type"]?.text == "actions", case .object = answer.kind,
            case .array(let lists)? = answer["each"]?.kind
        else {
            fail(typed ? .outOfTurn(what, answer) : .notAnInstantAnswer(what, answer))
            return nil
        }
        guard lists.count == inputs else {
            fail(.actionListCount(what, lists: lists.count, inputs: inputs, answer))
            return nil
        }
        var each: [[TalkArbiter.Action]] = []
        each.reserveCapacity(inputs)
        for list in lists {
            guard let actions = self.actions(list, for: what) else { return nil }
            each.append(actions)
        }
        guard ends else { return (each, [], false) }
        guard let endList = answer["end"], let idle = answer["idle"]?.boolean else {
            fail(.noEnd(what, answer))
            return nil
        }
        guard let end = actions(endList, for: what) else { return nil }
        return (each, end, idle)
    }

    private func actions(_ list: JSONValue, for what: String) -> [TalkArbiter.Action]? {
        guard case .array(let items) = list.kind else {
            fail(.actionListNotArray(what, list))
            return nil
        }
        var out: [TalkArbiter.Action] = []
        out.reserveCapacity(items.count)
        for item in items {
            var unfit: UnfitRule?
            guard let action = Self.decode(item, unfit: &unfit) else {
                if let key = Self.integerOutOfRange(in: item) {
                    fail(.integerTooLarge(what, key: key, item))
                    return nil
                }
                if let unfit {
                    fail(.unfitRule(what, unfit, item))
                    return nil
                }
                fail(.unknownAction(what, item))
                return nil
            }
            out.append(action)
        }
        return out
    }

    /// The first member of the action `o` (or of its `by`) that is a whole
    /// number too large for a 64-bit integer (an index or a time), if any.
    package static func integerOutOfRange(in o: JSONValue) -> String? {
        guard case .object(let members) = o.kind else { return nil }
        for (key, value) in members {
            if case .number(let literal) = value.kind, Int(literal) == nil,
                literal.drop(while: { $0 == "-" }).allSatisfy(\.isNumber)
            {
                return key
            }
            if key == "by", let inner = integerOutOfRange(in: value) { return "by." + inner }
        }
        return nil
    }

    /// A rule of the SPEC's that an action named but cannot carry: `lineDropped` with `short-wait`.
    package struct UnfitRule: Sendable, Equatable {
        /// The action's `do`, the rule it named, and the rules it can carry.
        var action: String, rule: Rule, fits: [Rule]
    }

    /// The action `o`, or nil if it is not one; `unfit` says so when only its rule does not fit it.
    package static func decode(_ o: JSONValue, unfit: inout UnfitRule?) -> TalkArbiter.Action? {
        func int(_ key: String) -> Int? { o[key]?.integer }
        func time(_ key: String) -> SimTime? { int(key).map { SimTime(ms: Int64($0)) } }
        func isNull(_ key: String) -> Bool { o[key].map { $0.kind == .null } ?? true }
        /// A value that may be null (or absent): `.some(nil)` then, `.some(value)` when `read` reads it, else nil.
        func nullable<T>(_ key: String, _ read: (String) -> T?) -> T?? {
            isNull(key) ? .some(nil) : read(key).map { .some($0) }
        }
        guard case .object = o.kind, let kind = o["do"]?.text else { return nil }
        func rule<R: TalkArbiter.ActionRule>(_: R.Type) -> R? {
            guard let rule = o["rule"]?.text.flatMap(Rule.init(rawValue:)) else { return nil }
            guard let fitting = R(rule) else {
                unfit = UnfitRule(action: kind, rule: rule, fits: R.allCases.map(\.rule))
                return nil
            }
            return fitting
        }
        switch kind {
        case "lineWaiting":
            guard let line = int("line"), let rule = rule(TalkArbiter.WaitRule.self),
                let stretch = nullable("stretch", int)
            else { return nil }
            return .lineWaiting(line: line, rule: rule, stretch: stretch)
        case "lineStarted":
            guard let line = int("line"), let end = time("endsAt") else { return nil }
            return .lineStarted(line: line, endsAt: end)
        case "lineEnded": return int("line").map { .lineEnded(line: $0) }
        case "lineDropped":
            guard let line = int("line"), let rule = rule(TalkArbiter.DropRule.self) else { return nil }
            return .lineDropped(line: line, rule: rule)
        case "replyQueued": return int("reply").map { .replyQueued(reply: $0) }
        case "replyBegan": return int("reply").map { .replyBegan(reply: $0) }
        case "stretchStarted":
            guard let reply = int("reply"), let stretch = int("stretch"), let end = time("endsAt"),
                let held = nullable("held", time)
            else { return nil }
            return .stretchStarted(reply: reply, stretch: stretch, endsAt: end, held: held)
        case "stretchEnded":
            guard let reply = int("reply"), let stretch = int("stretch") else { return nil }
            return .stretchEnded(reply: reply, stretch: stretch)
        case "stretchCut":
            guard let reply = int("reply"), let stretch = int("stretch"), let rule = rule(TalkArbiter.CutRule.self),
                let played = time("played"), let by = o["by"]
            else { return nil }
            let cause: TalkArbiter.Cause
            if let n = by["line"]?.integer {
                cause = .line(n)
            } else if let n = by["utterance"]?.integer {
                cause = .utterance(n)
            } else {
                return nil
            }
            guard let then = nullable("then", { o[$0]?.text.flatMap(TalkArbiter.AfterCut.init(rawValue:)) }) else {
                return nil
            }
            return .stretchCut(reply: reply, stretch: stretch, rule: rule, by: cause, played: played, then: then)
        case "replyEnded": return int("reply").map { .replyEnded(reply: $0) }
        case "replyAbandoned":
            guard let reply = int("reply"), let rule = rule(TalkArbiter.AbandonRule.self) else { return nil }
            return .replyAbandoned(reply: reply, rule: rule)
        case "earsClosed": return .earsClosed
        case "earsOpened": return .earsOpened
        case "wake": return time("at").map { .wake(at: $0) }
        default: return nil
        }
    }
}

extension JSONValue {
    /// The string, if the value is one.
    package var text: String? { if case .string(let s) = kind { s } else { nil } }
    /// The integer, if the value is a number written as one that fits.
    package var integer: Int? { if case .number(let n) = kind { Int(n) } else { nil } }
    /// The boolean, if the value is one.
    package var boolean: Bool? { if case .bool(let b) = kind { b } else { nil } }
}
