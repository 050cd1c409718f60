import Guidance
import SimClock
import SimRunner

/// `Scenario.validate()`'s problems placed in the file: the path rendered
/// as the decoder's paths are, the line and column of the value it names
/// (or of the nearest enclosing one), and the reason worded as a
/// `ScenarioError.Reason`, with a did-you-mean where one is close.
extension Decoding {
    func error(for problem: ScenarioProblem, in root: JSONNode) -> ScenarioError {
        fail(
            Decoding.reason(problem.reason), JSONPath.render(problem.path),
            Decoding.value(at: problem.path, in: root))
    }

    /// The value `path` names in `root`, or the nearest enclosing one there is.
    static func value(at path: [JSONPath.Step], in root: JSONNode) -> JSONNode {
        var value = root
        for step in path {
            let next: JSONNode?
            switch step {
            case .key(let k): next = value[k]
            case .index(let i): next = value.items?.item(i)
            }
            guard let next else { break }
            value = next
        }
        return value
    }

    static func reason(_ reason: ScenarioProblem.Reason) -> ScenarioError.Reason {
        switch reason {
        case .duplicateID(let id, let first): return .duplicateID(id, firstAt: JSONPath.render(first))
        case .fieldNotCarried(let field, let event):
            let hint = TimelineSuggestion.field(
                for: field.rawValue, event: event, matcherKeys: ScenarioKeys.matcher.names)
            return .unknownField(field.rawValue, event: event.rawValue, suggestion: hint)
        case .wrongType(let type):
            switch type {
            case .string: return .wrongType(expected: .string)
            case .int: return .wrongType(expected: .integer)
            case .bool: return .wrongType(expected: .boolean)
            }
        case .unknownID(let id, let kind, let known):
            return .unknownID(id, kind: kind.rawValue, suggestion: suggestion(for: id, among: known))
        case .unknownValue(let value, let allowed):
            return .unknownValue(value, allowed: allowed, suggestion: suggestion(for: value, among: allowed))
        case .emptyString, .road, .emptyID, .generatedLineID, .negative, .notPositive, .tooLarge, .expiresNotAfterAt,
            .emptyStretches,
            .overlappingUtterance, .reversedWindow, .invalidPattern, .emptyRange, .reversedRange, .withinWithoutSince,
            .pippaWithoutRoad,
            .notInAnchor, .testedTwice:
            return .invalid(reason)
        }
    }
}
