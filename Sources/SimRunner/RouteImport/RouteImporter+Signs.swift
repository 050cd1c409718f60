import Guidance
import Road

/// A step's sign text as a navigator speaks it (docs/import.md, "Signs"):
/// one ref, not a list; the road's name without the refs services mix
/// into it; at most two destinations, never a sign's `REF:` prefix; a ramp
/// named by the road it joins; the side of a ramp only where it is not the
/// usual one.
extension RouteImporter {
    /// The most destinations a line says ("toward Frankfurt (Oder), Dresden").
    static let destinationsSaid = 2

    /// A step's signs: OSRM's `destinations` is "REF, REF: NAME, NAME" (refs
    /// before the colon), or names alone.
    struct Signs: Equatable {
        var refs: [String] = []
        var names: [String] = []

        init(_ destinations: String?) {
            guard let text = destinations else { return }
            func list(_ s: Substring) -> [String] {
                s.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            }
            if let colon = text.firstIndex(of: ":") {
                refs = list(text[..<colon])
                names = list(text[text.index(after: colon)...])
            } else {
                names = list(text[...])
            }
        }

        /// What "toward" says: the first destinations by name, else the first ref.
        var toward: String? {
            let said = names.isEmpty ? Array(refs.prefix(1)) : Array(names.prefix(RouteImporter.destinationsSaid))
            return said.isEmpty ? nil : said.joined(separator: ", ")
        }
    }

    /// The first of `;`-separated refs ("A 4; E 40; E 55" is "A 4").
    static func firstRef(_ ref: String?) -> String? {
        ref?.split(separator: ";").first.map { $0.trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The road a step is on, as said: its name without the refs a service
    /// mixes into it ("Central Parkway (US 127; I-75 Alt North)" is
    /// "Central Parkway"; a name that is its ref is the ref), the first of
    /// two names ("Admiralisild; Admiral Bridge"), else its first ref.
    static func street(name: String?, ref: String?) -> String? {
        var name = name?.trimmingSpaces() ?? ""
        if let ref, name == ref.trimmingSpaces() { name = "" }
        // A trailing "(…)" that holds the ref, or a list of refs.
        if name.hasSuffix(")"), let open = name.lastIndex(of: "(") {
            let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
            if inside.contains(";")
                || (ref.map { inside == $0[...] || inside == firstRef($0).map { $0[...] } } ?? false)
            {
                name = name[..<open].trimmingSpaces()
            }
        }
        // A road with two names ("Admiralisild; Admiral Bridge") is said by its first.
        name = firstRef(name) ?? ""
        return name.isEmpty ? firstRef(ref) : name
    }

    /// The street, direction and details a step's signs give its maneuver of
    /// kind `turn`, `next` the step after it (the road a ramp joins when
    /// its signs name none).
    static func signs(of step: Step, turn: Turn, next: Step?) -> (street: String?, details: ManeuverDetails) {
        let signs = Signs(step.destinations)
        var details = ManeuverDetails(toward: signs.toward)
        if step.fromWords {
            // The words said which name is which: kept apart as said (an off-ramp "onto
            // ON-427 S toward ON-401 W" is no "ON-401 W exit").
            if turn == .offRamp || turn == .onRamp {
                if turn == .offRamp, let e = step.exits, e.count <= RoadSetup.Limits.refCharacters {
                    details.exitNumber = e
                }
                details.exitName = step.exitName
                details.side = unusualSide(step)
            }
            return (step.name.map { String($0.prefix(RouteImporter.streetCharacters)) }, details)
        }
        var street = street(name: step.name, ref: step.ref)
        switch turn {
        case .offRamp, .onRamp:
            // A ramp's own name is where it leads or the road left behind:
            // what is said is its sign (the exit, the road it joins).
            street = nil
            if turn == .offRamp, let e = firstRef(step.exits), e.count <= RoadSetup.Limits.refCharacters {
                details.exitNumber = e
            }
            if let ref = signs.refs.first {
                details.exitName = ref
            } else if details.exitNumber == nil, signs.names.count == 1, turn == .offRamp {
                // "Take the Pendleton Roundabout exit": the one place it is signed to.
                details.exitName = signs.names[0]
                details.toward = nil
            } else if turn == .onRamp, details.toward == nil, let next {
                details.exitName = RouteImporter.street(name: next.name, ref: next.ref)
            }
            details.side = unusualSide(step)
        default:
            // "keep right toward NJ 495 West": a ref the signs spell out is not said twice.
            if let s = street, step.name?.trimmingSpaces().isEmpty ?? true,
                (signs.names + signs.refs).contains(where: { $0 == s || $0.hasPrefix(s + " ") })
            {
                street = nil
            }
        }
        return (street.map { String($0.prefix(RouteImporter.streetCharacters)) }, details)
    }

    /// The side a ramp leaves on when it is not the driving side's (a left
    /// exit where traffic drives on the right), nil otherwise.
    static func unusualSide(_ step: Step) -> ArrivalSide? {
        let usual: ArrivalSide = step.drivingSide == "left" ? .left : .right
        let side: ArrivalSide?
        switch step.modifier {
        case "left", "slight left", "sharp left": side = .left
        case "right", "slight right", "sharp right": side = .right
        default: side = nil
        }
        return side == usual ? nil : side
    }
}

extension StringProtocol {
    /// Without spaces at either end.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
