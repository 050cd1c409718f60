import Guidance
import Road

/// The road's entries of a timeline: their fields, read from the roster's
/// side table of road records, and their text.
extension Timeline {
    /// A field of a road record, or nil if its kind does not carry it.
    func roadValue(of field: String, in record: RoadRecord) -> FieldValue? {
        let road = roster.road
        switch field {
        case "fix": return record.fix < 0 ? nil : .string("f\(record.fix)")
        case "maneuver": return record.maneuver < 0 ? nil : .string(road.maneuvers[Int(record.maneuver)].id)
        case "after": return record.after < 0 ? nil : .string(road.maneuvers[Int(record.after)].id)
        case "turn": return record.maneuver < 0 ? nil : .string(road.maneuvers[Int(record.maneuver)].turn.rawValue)
        case "reason": return record.reason.map(FieldValue.string)
        case "stage": return record.stage.map { .string($0.rawValue) }
        case "reporter": return .string(LocationLink.reporter)
        case "ageMs": return .int(record.ms)
        case "etaMs": return record.ms < 0 ? nil : .int(record.ms)
        case "distanceM": return record.maneuver < 0 ? nil : .int(record.meters)
        case "offsetM", "progressM": return .int(record.meters)
        case "afterDistanceM": return record.after < 0 ? nil : .int(record.meters2)
        case "trusted", "onRoute": return .bool(record.flag)
        default: return nil
        }
    }

    /// One road event's details for the text timeline.
    package func roadDetail(of event: TimelineEvent) -> String {
        let record = roster.road.records[Int(event.subject)]
        func field(_ name: String) -> String {
            switch roadValue(of: name, in: record) {
            case .string(let s)?: return s
            case .int(let i)?: return String(i)
            case .bool(let b)?: return String(b)
            case nil: return "?"
            }
        }
        switch record.kind {
        case .roadFixArrived: return "\(field("fix")) \(record.ms) ms old" + (record.flag ? "" : ", not trusted")
        case .roadFixDropped, .roadReportDropped, .roadReportDelivered: return field("fix")
        case .roadReportSent:
            let next = record.maneuver < 0 ? "" : ", \(field("maneuver")) in \(record.meters) m"
            return "\(field("fix")) by \(LocationLink.reporter), \(record.ms) ms old" + (record.flag ? "" : ", off route") + next
        case .roadOffRoute: return "\(record.meters) m from the route"
        case .roadOnRoute: return "at \(record.meters) m"
        case .roadTurnUpcoming:
            let eta = record.ms < 0 ? "" : ", \(record.ms / 1000) s"
            let after = record.after < 0 ? "" : ", then \(field("after")) at \(record.meters2) m"
            return "\(field("maneuver")) \(field("turn")) in \(record.meters) m\(eta)\(after)"
        case .roadTurnPassed, .roadTurnUnannounced: return field("maneuver")
        case .roadStageSkipped: return "\(field("maneuver")) \(field("stage"))"
        default: return ""
        }
    }
}
