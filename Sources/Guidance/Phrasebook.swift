import Road

/// What a line says, in the language the user chose: "In 300 m, turn right"
/// or "300 m 앞에서 우회전".
public enum Phrasebook {
    /// The line for `stage` of a maneuver, with the spoken distance (far and
    /// near stages) and the maneuver that follows closely, if any.
    public static func line(
        _ stage: Stage, _ maneuver: Maneuver, distance: Int?, then next: Maneuver?, language: Language
    ) -> String {
        switch language {
        case .en:
            var action = english(maneuver.turn)
            if let street = maneuver.street { action += " onto \(street)" }
            if let next { action += ", then \(english(next.turn))" }
            if stage == .now || distance == nil { return "Now " + action }
            return "In \(SpokenDistance.written(distance!)), \(action)"
        case .ko:
            var action = korean(maneuver.turn)
            if let street = maneuver.street { action = "\(street) 방면 " + action }
            if let next { action += " 후 \(korean(next.turn))" }
            if stage == .now || distance == nil { return "지금 " + action }
            return "\(SpokenDistance.written(distance!)) 앞에서 \(action)"
        }
    }

    /// The urgent line when the car has left the route.
    public static func offRoute(_ language: Language) -> String {
        language == .en ? "You are off route. Recalculating." : "경로를 벗어났습니다. 경로를 재탐색합니다."
    }

    /// The urgent line when the car is back on a route.
    public static func recalculated(_ language: Language) -> String {
        language == .en ? "Route recalculated." : "경로를 다시 안내합니다."
    }

    static func english(_ turn: Turn) -> String {
        switch turn {
        case .left: return "turn left"
        case .right: return "turn right"
        case .slightLeft: return "bear left"
        case .slightRight: return "bear right"
        case .sharpLeft: return "turn sharp left"
        case .sharpRight: return "turn sharp right"
        case .keepLeft: return "keep left"
        case .keepRight: return "keep right"
        case .uTurn: return "make a U-turn"
        case .straight: return "continue straight"
        case .arrive: return "arrive at your destination"
        }
    }

    static func korean(_ turn: Turn) -> String {
        switch turn {
        case .left: return "좌회전"
        case .right: return "우회전"
        case .slightLeft: return "왼쪽 방향"
        case .slightRight: return "오른쪽 방향"
        case .sharpLeft: return "급좌회전"
        case .sharpRight: return "급우회전"
        case .keepLeft: return "왼쪽 길 유지"
        case .keepRight: return "오른쪽 길 유지"
        case .uTurn: return "유턴"
        case .straight: return "직진"
        case .arrive: return "목적지 도착"
        }
    }
}
