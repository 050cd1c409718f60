import Guidance
import SimRunner

/// `Scenario.validate()`'s problems placed in the file: the path rendered
/// as the decoder's paths are, the line and column of the value it names
/// (or of the nearest enclosing one), and the reason worded as a
/// `ScenarioError.Reason`, with a did-you-mean where one is close.
extension Decoding {
    func error(for problem: ScenarioProblem, in root: JSONNode) -> ScenarioError {
        fail(Decoding.reason(problem.reason), ScenarioProblem.render(problem.path), Decoding.value(at: problem.path, in: root))
    }

    /// The value `path` names in `root`, or the nearest enclosing one there is.
    static func value(at path: [ScenarioProblem.Step], in root: JSONNode) -> JSONNode {
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
        case .duplicateID(let id, let first): return .duplicateID(id, firstAt: ScenarioProblem.render(first))
        case .fieldNotCarried(let field, let event): return .unknownField(field.rawValue, event: event.rawValue, suggestion: nil)
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
        case .road(let road): return roadReason(road)
        case .emptyString, .emptyID, .generatedLineID, .negative, .notPositive, .tooLarge, .expiresNotAfterAt, .emptyStretches,
             .overlappingUtterance, .reversedWindow, .invalidPattern, .emptyRange, .reversedRange, .withinWithoutSince,
             .notInAnchor, .testedTwice:
            return .invalid(reason)
        }
    }

    /// A road problem in the decoder's words: the decoder reads the road's
    /// shape, and `validate()` (`RoadSetup.validate()`) judges its values.
    static func roadReason(_ reason: RoadSetup.Problem.Reason) -> ScenarioError.Reason {
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }
        switch reason {
        case .route(.tooFewPoints): return .routeTooShort
        case .route(.maneuverOffRoute(_, let meters)): return .maneuverOffRoute(meters: Int(meters.rounded(.down)))
        case .route(.maneuverOutOfOrder): return .maneuverOutOfOrder
        case .routeTooLong(let meters): return .routeTooLong(kilometers: Int(meters / 1000))
        case .coordinateOutOfRange: return .coordinateOutOfRange
        case .outOfRange(let r): return .outOfRange("\(number(r.lowerBound))...\(number(r.upperBound))")
        case .countOutOfRange(let r): return .outOfRange("\(r.lowerBound)...\(r.upperBound)")
        case .timeOutOfRange(let r):
            return .outOfRange("\(Seconds.literal(milliseconds: r.lowerBound.ms))...\(Seconds.literal(milliseconds: r.upperBound.ms))")
        case .emptyWindow: return .emptyWindow
        case .negative: return .invalid(.negative)
        case .notPositive: return .invalid(.notPositive)
        case .textEmpty: return .invalid(.emptyString)
        case .textTooLong(let most): return .stringTooLong(maxCharacters: most)
        case .courseOutOfRange: return .outOfRange("0...<360")
        case .arrivalNotLast: return .arrivalNotLast
        case .exitMissing: return .missingField("exit")
        case .driveMissing: return .driveMissing
        case .driveWithRecordedFixes: return .driveWithRecordedFixes
        case .driveTooLong: return .driveTooLong
        case .stepsOutOfOrder: return .speedStepsOutOfOrder
        case .fixTimeBackwards: return .fixTimeBackwards
        case .arrivesBeforeTaken: return .arrivesBeforeTaken
        case .exitBeyondEnter(let enter): return .outOfRange("0...offRouteEnter (\(number(enter)))")
        }
    }
}
