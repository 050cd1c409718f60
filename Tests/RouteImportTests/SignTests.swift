import Guidance
import Road
import SimClock
import Testing

@testable import RouteImport

/// Sign text as a navigator speaks it (issue 23), on steps shaped like the
/// services' own (Mapbox, Valhalla's OSRM output; written here, not copied).
@Suite struct SignTests {
    func step(
        _ type: String, _ modifier: String? = nil, name: String? = nil, ref: String? = nil, destinations: String? = nil,
        exits: String? = nil, side: String? = nil
    ) -> RouteImporter.Step {
        RouteImporter.Step(
            path: "s", leg: 0, index: 1, lastOfLeg: false, type: type, modifier: modifier, exit: nil,
            location: GeoPoint(latitude: 52, longitude: 13), name: name, ref: ref, destinations: destinations,
            exits: exits, drivingSide: side, distance: 100, duration: 10, voice: [])
    }

    func said(_ s: RouteImporter.Step, _ turn: Turn, next: RouteImporter.Step? = nil, _ language: Language = .en)
        -> String
    {
        let (street, details) = RouteImporter.signs(of: s, turn: turn, next: next)
        return Phrasebook.line(
            .now, Maneuver(id: "m", turn: turn, street: street, details: details), distance: nil, then: nil,
            language: language)
    }

    @Test(
        "A ref list is its first ref; a name keeps no refs mixed into it",
        arguments: [
            (nil, "A 4; E 40; E 55", "A 4"),
            ("US 191", "US 191; US 6 East", "US 191"),
            (
                "Central Parkway (US 127; I-75 Alt North; US 27; US 52)", "US 127; I-75 Alt North; US 27; US 52",
                "Central Parkway"
            ),
            ("Seestraße (B 96)", "B 96", "Seestraße"),
            ("Nordring (Ost)", nil, "Nordring (Ost)"),
            ("Admiralisild; Admiral Bridge", nil, "Admiralisild"),
            ("", "", nil),
        ] as [(String?, String?, String?)])
    func streets(name: String?, ref: String?, street: String?) {
        #expect(RouteImporter.street(name: name, ref: ref) == street)
    }

    @Test(
        "Destinations: the first two names, never the REF: prefix; the first ref when no place is named",
        arguments: [
            ("A 10: Frankfurt (Oder), Dresden, BER, Magdeburg, Leipzig", "Frankfurt (Oder), Dresden"),
            ("O2: København C", "København C"),
            ("B588, A94: München, Altötting, Reischach, Oberthal", "München, Altötting"),
            ("US 101, I-80:", "US 101"),
            ("Bayshore Boulevard, Cesar Chavez Street East", "Bayshore Boulevard, Cesar Chavez Street East"),
        ])
    func toward(destinations: String, toward: String) {
        #expect(RouteImporter.Signs(destinations).toward == toward)
    }

    @Test func aRampNamesItsSignNotTheRoadItLeaves() {
        // Mapbox: "Take the A 10 ramp" where the step's own name is the road being left.
        let onRamp = step(
            "on ramp", "slight right", name: "B 101", ref: "B 101", destinations: "A 10: Frankfurt (Oder), Dresden, BER"
        )
        #expect(said(onRamp, .onRamp) == "Now take the A 10 ramp toward Frankfurt (Oder), Dresden.")
        // Valhalla: "Take the US 1 South/US 9 South exit toward Jersey City."
        let offRamp = step(
            "off ramp", "slight right", name: "Tonnelle Avenue", ref: "US 1; US 9",
            destinations: "US 1 South, US 9 South: Jersey City")
        #expect(said(offRamp, .offRamp) == "Now take the US 1 South exit toward Jersey City.")
        // Valhalla: "Take the Pendleton Roundabout exit." (left-hand traffic, a left exit: no side said).
        let pendleton = step(
            "off ramp", "slight left", name: "Pendleton Roundabout", ref: "A576", destinations: "Pendleton Roundabout",
            side: "left")
        #expect(said(pendleton, .offRamp) == "Now take the Pendleton Roundabout exit.")
        // Mapbox: "Take exit 432 towards Cesar Chavez Street".
        let numbered = step("off ramp", "slight right", name: "", destinations: "Cesar Chavez Street", exits: "432")
        #expect(said(numbered, .offRamp) == "Now take exit 432 toward Cesar Chavez Street.")
    }

    @Test func theSideOfARampIsSaidWhereItIsNotTheUsualOne() {
        // Mapbox: "Take the O2 exit on the left" (right-hand traffic).
        let left = step(
            "off ramp", "slight left", name: "Centrumforbindelsen", destinations: "O2: København C", side: "right")
        #expect(said(left, .offRamp) == "Now take the O2 exit on the left toward København C.")
        #expect(said(left, .offRamp, .ko) == "지금 København C 방면 왼쪽 O2로 나가세요.")
        // Valhalla: "Take the ramp on the left." Its road is the next step's.
        let ramp = step("on ramp", "slight left", name: "")
        let next = step("fork", "slight right", name: "", ref: "NJ 495", destinations: "NJ 495 West, NJTP West")
        #expect(said(ramp, .onRamp, next: next) == "Now take the NJ 495 ramp on the left.")
        #expect(said(ramp, .onRamp, next: next, .ko) == "지금 왼쪽 NJ 495 진입로로 들어가세요.")
        // Right-hand traffic, a right exit: nothing to say.
        #expect(RouteImporter.unusualSide(step("off ramp", "slight right")) == nil)
    }

    @Test func aStreetThatIsOnlyARefTheSignsSpellOutIsNotSaidTwice() {
        // Valhalla: "Keep right to take NJ 495 West/NJTP West."
        let fork = step("fork", "slight right", name: "", ref: "NJ 495", destinations: "NJ 495 West, NJTP West")
        #expect(said(fork, .forkRight) == "At the fork, keep right toward NJ 495 West, NJTP West.")
        // A ref that only starts like the street's is no repeat.
        let other = step("turn", "right", name: "", ref: "A 1", destinations: "A 10: Berlin")
        #expect(said(other, .right) == "Now turn right onto A 1 toward Berlin.")
    }
}

/// Mapbox's banner short text for a long name (issue 23), on banners written
/// here in Mapbox's shape.
@Suite struct BannerTests {
    typealias Component = (text: String, type: String?, abbreviation: String?, priority: Double)

    func banner(_ text: String, _ components: [Component]) -> RouteImporter.Banner {
        RouteImporter.Banner(text: text, components: components)
    }

    @Test func aLongNameIsSaidByTheBannersShortText() {
        let king = "Martin Luther King Junior Boulevard"
        // The banner's abbreviation, the lowest priority first, until it is short enough.
        #expect(RouteImporter.bannerName(king, banner(king, [(king, "text", "MLK Jr Blvd", 0)])) == "MLK Jr Blvd")
        let east = "Cesar Chavez Street East Frontage"
        #expect(
            RouteImporter.bannerName(
                east,
                banner(
                    "Cesar Chavez Street East",
                    [
                        ("Cesar Chavez Street", "text", "Cesar Chavez St", 0), ("East", "text", "E", 1),
                    ])) == "Cesar Chavez Street East")
        // A short name stays; a banner that is no name of the road ("Turn right", an exit) is not used.
        #expect(
            RouteImporter.bannerName("Page Street", banner("Page Street", [("Page Street", "text", "Page St", 0)]))
                == nil)
        #expect(RouteImporter.bannerName(king, banner("Turn right", [("Turn right", "text", nil, 0)])) == nil)
        #expect(
            RouteImporter.bannerName(
                king,
                banner(
                    "Exit 432 Martin Luther King Junior Boulevard",
                    [
                        ("Exit", "exit", nil, 0), ("432", "exit-number", nil, 0), (king, "text", "MLK Jr Blvd", 0),
                    ])) == nil)
        #expect(RouteImporter.bannerName(king, nil) == nil)
    }

    @Test func anImportedTurnTakesTheBannerOfTheStepBefore() throws {
        let json = #"""
            {"code":"Ok","routes":[{"distance":2000,"duration":150,"geometry":{"type":"LineString","coordinates":[[127,37.5],[127.01,37.5],[127.01,37.509]]},
             "legs":[{"distance":2000,"duration":150,"steps":[
              {"distance":885,"duration":70,"name":"","maneuver":{"type":"depart","location":[127,37.5]},
               "bannerInstructions":[{"distanceAlongGeometry":885,"primary":{"text":"Martin Luther King Junior Boulevard","type":"turn","modifier":"left",
                 "components":[{"text":"Martin Luther King Junior Boulevard","type":"text","abbr":"MLK Jr Blvd","abbr_priority":0}]}}]},
              {"distance":1000,"duration":80,"name":"Martin Luther King Junior Boulevard","maneuver":{"type":"turn","modifier":"left","location":[127.01,37.5]}},
              {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":[127.01,37.509]}}]}]}]}
            """#
        let imported = try RouteImporter.importRoute(
            Array(json.utf8), options: RouteImporter.Options(language: .en, source: "t.json"))
        #expect(imported.scenario.road?.maneuvers.first?.street == "MLK Jr Blvd")
    }
}
