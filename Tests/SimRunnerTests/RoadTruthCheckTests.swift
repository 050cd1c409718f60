import Guidance
import Road
import SimClock
import TestSupport
import Testing

@testable import SimRunner

/// Each road truth check fires on a timeline broken on purpose, and stays
/// quiet on the timeline as recorded.
@Suite struct RoadTruthCheckTests {
    func checks(_ scenario: Scenario, _ run: Simulation) -> Set<RoadCheck> {
        Set(Invariants.checkRoadTruth(scenario, run).compactMap { if case .road(let c) = $0.check { c } else { nil } })
    }

    /// The scenario, its run, and a copy with `edit` applied to the timeline's events.
    func broken(_ name: String, _ edit: (inout [TimelineEvent]) -> Void) throws -> (Scenario, Simulation, Simulation) {
        let scenario = try Fixtures.scenario("road/\(name)")
        let run = try Simulation(scenario)
        var bad = run
        edit(&bad.timeline.events)
        return (scenario, run, bad)
    }

    @Test func aManeuverPassedWithoutANowLineOrAReasonIsNowLinesFaultNotAnnounceds() throws {
        let (s, run, bad) = try broken("tunnel-beyond-horizon") { events in
            events.removeAll { if case .road(.turnUnannounced) = $0.what { true } else { false } }
        }
        #expect(Invariants.checkRoad(s, run).isEmpty)
        #expect(checks(s, bad).isEmpty)
        #expect(Set(Invariants.checkRoad(s, bad).map(\.check)) == [.road(.nowLine)])
    }

    @Test func aManeuverNeverPassedInTheTimelineFiresAnnounced() throws {
        let (s, _, bad) = try broken("highway-120") { events in
            events.removeAll { if case .road(.turnPassed) = $0.what { true } else { false } }
        }
        #expect(checks(s, bad).contains(.announced))
    }

    @Test func aReportDeliveredThroughAnOutageFiresLinkHonest() throws {
        let (s, run, bad) = try broken("outage-report-in-flight") { events in
            let i = events.firstIndex {
                if case .road(.reportDropped(_, .interrupted)) = $0.what { true } else { false }
            }!
            guard case .road(.reportDropped(let f, _)) = events[i].what else { return }
            events[i] = TimelineEvent(t: SimTime(ms: 30_800), .road(.reportDelivered(f)))
        }
        #expect(!checks(s, run).contains(.linkHonest))
        #expect(checks(s, bad).contains(.linkHonest))
    }

    @Test func aReportBesideAFixNotUsedThatCarriesADistanceFiresLink() throws {
        // In the urban canyon the fixes are too inaccurate to use: their reports say no distance.
        let (s, run, bad) = try broken("urban-canyon-stretch") { events in
            let dropped = Set(
                events.compactMap { if case .road(.fixDropped(let f, .inaccurate)) = $0.what { f } else { nil } })
            let i = events.firstIndex {
                if case .road(.reportSent(let f, _, _, nil)) = $0.what { dropped.contains(f) } else { false }
            }!
            guard case .road(.reportSent(let f, let age, let onRoute, _)) = events[i].what else { return }
            events[i].what = .road(
                .reportSent(f, ageMs: age, onRoute: onRoute, next: .init(ManeuverIndex(0), distanceM: 699)))
        }
        #expect(Invariants.checkRoad(s, run).isEmpty)
        let found = Invariants.checkRoad(s, bad)
        #expect(found.map(\.check) == [.road(.link)])
        #expect(found.first?.message.contains("was dropped (inaccurate), but its report carries a distance") == true)
    }

    @Test func aReportSentStaleAndDeliveredIsTheSendersFaultNotTheLinks() throws {
        let (s, _, bad) = try broken("gps-gap") { events in
            let i = events.firstIndex { if case .road(.reportSent) = $0.what { true } else { false } }!
            guard case .road(.reportSent(let f, _, let onRoute, let next)) = events[i].what else { return }
            events[i].what = .road(.reportSent(f, ageMs: 2_500, onRoute: onRoute, next: next))
        }
        #expect(bad.timeline.events.contains { if case .road(.reportDelivered) = $0.what { true } else { false } })
        #expect(!checks(s, bad).contains(.linkHonest))
        #expect(Invariants.checkRoad(s, bad).map(\.check).contains(.road(.link)))
    }

    @Test func aReportDeliveredPastItsFreshnessFiresLinkHonest() throws {
        let (s, run, bad) = try broken("slow-link-timeout") { events in
            let i = events.firstIndex { if case .road(.reportDropped(_, .timeout)) = $0.what { true } else { false } }!
            guard case .road(.reportDropped(let f, _)) = events[i].what else { return }
            events[i] = TimelineEvent(t: events[i].t + SimTime(ms: 700), .road(.reportDelivered(f)))
        }
        #expect(!checks(s, run).contains(.linkHonest))
        #expect(checks(s, bad).contains(.linkHonest))
    }

    @Test func anOlderFixReportedAfterANewerOneFiresLinkHonest() throws {
        let (s, run, bad) = try broken("out-of-order-arrival") { events in
            let i = events.firstIndex {
                if case .road(.reportDropped(_, .outOfOrder)) = $0.what { true } else { false }
            }!
            guard case .road(.reportDropped(let f, _)) = events[i].what else { return }
            events[i] = TimelineEvent(t: events[i].t, .road(.reportSent(f, ageMs: 1_500, onRoute: true, next: nil)))
        }
        #expect(!checks(s, run).contains(.linkHonest))
        #expect(checks(s, bad).contains(.linkHonest))
    }

    @Test func aFixNeitherReportedNorDroppedFiresLinkHonest() throws {
        let (s, _, bad) = try broken("slow-link-timeout") { events in
            let i = events.firstIndex { if case .road(.reportDropped(_, .busy)) = $0.what { true } else { false } }!
            events.remove(at: i)
        }
        #expect(checks(s, bad).contains(.linkHonest))
    }

    @Test func aLineThatSaysMoreMetersThanAreLeftFiresSpokenDistance() throws {
        let (s, run, _) = try broken("dense-detour") { _ in }
        #expect(!checks(s, run).contains(.spokenDistance))
        // The truth has m1 80 m sooner than the run believed (a vertex every
        // 10 m): its far and near lines then say more meters than are left.
        #expect(checks(RoadTruthCheckTests.maneuverSooner(s, vertices: 8), run).contains(.spokenDistance))
    }

    /// `scenario` with its first maneuver moved `vertices` route points back.
    static func maneuverSooner(_ scenario: Scenario, vertices: Int) -> Scenario {
        maneuversSooner(scenario, vertices: vertices, only: 1)
    }

    /// `scenario` with its first `only` maneuvers (all by default) each moved `vertices` route points back.
    static func maneuversSooner(_ scenario: Scenario, vertices: Int, only: Int = .max) -> Scenario {
        var s = scenario
        guard var road = s.road else { return s }
        let points = road.points
        for (k, m) in road.maneuvers.enumerated().prefix(only) {
            func d2(_ p: GeoPoint) -> Double {
                let a = p.latitude - m.point.latitude
                let b = p.longitude - m.point.longitude
                return a * a + b * b
            }
            let at = points.indices.min { d2(points[$0]) < d2(points[$1]) } ?? 0
            road.maneuvers[k].point = points[max(0, at - vertices)]
        }
        s.road = road
        return s
    }

    @Test func aManeuverSaidToBeAnnouncedByThenWhoseLineNeverPlayedFiresNowLine() throws {
        // Mapbox's instructions route forks 121 m after its exit: the fork is
        // announced in the exit's "now" line (reason then). Without that
        // line's end, the reason is a lie.
        let scenario = try Fixtures.scenario("routes/real/mapbox-instructions")
        let run = try Simulation(scenario)
        func nowLine(_ run: Simulation) -> Bool {
            Invariants.checkRoad(scenario, run).contains { $0.check == .road(.nowLine) }
        }
        #expect(
            run.timeline.events.contains { if case .road(.turnUnannounced(_, .then)) = $0.what { true } else { false } }
        )
        #expect(!nowLine(run))
        var bad = run
        bad.timeline.events.removeAll {
            if case .guidanceEnded(let l) = $0.what { bad.timeline.roster.lines[l.int].id == "l0s5.now" } else { false }
        }
        #expect(nowLine(bad))
    }

    @Test func aTurnPassedBeforeTheTrueTrackFiresPassedTruth() throws {
        let (s, run, bad) = try broken("recorded-true-track") { events in
            let i = events.firstIndex { if case .road(.turnPassed) = $0.what { true } else { false } }!
            events[i].t = events[i].t - SimTime(ms: 1_700)  // where the biased fixes would put it
        }
        #expect(!checks(s, run).contains(.passedTruth))
        #expect(checks(s, bad).contains(.passedTruth))
    }

    @Test func anArrivalSaidBeforeTheCarIsThereFiresPassedTruth() throws {
        // "You have arrived" started 10 s sooner: the car is still some 100 m out.
        let (s, run, bad) = try broken("highway-120") { events in
            // The last line to start is the arrival's.
            guard let i = events.lastIndex(where: { if case .guidanceStarted = $0.what { true } else { false } }) else {
                return
            }
            events[i].t = events[i].t - SimTime(ms: 10_000)
        }
        #expect(!checks(s, run).contains(.passedTruth))
        let found = Invariants.checkRoadTruth(s, bad).filter { $0.check == .road(.passedTruth) }
        #expect(found.count == 1)
        #expect(found.first?.message.contains("says the car has arrived") == true, "\(found)")
    }

    /// The findings of `check` on scenario `name`'s timeline with line `id`'s start moved by
    /// `shift` (in the timeline's order too); the timeline as run passes every check.
    func moved(_ name: String, line id: String, by shift: Int64, _ check: RoadCheck) throws -> [Violation] {
        let s = try Fixtures.scenario("road/\(name)")
        let run = try Simulation(s)
        var bad = run
        let i = try #require(
            bad.timeline.events.firstIndex { e in
                if case .guidanceStarted(let l) = e.what { run.timeline.roster.lines[l.int].id == id } else { false }
            })
        var event = bad.timeline.events.remove(at: i)
        event.t = event.t + SimTime(ms: shift)
        bad.timeline.events.insert(
            event, at: bad.timeline.events.firstIndex { $0.t > event.t } ?? bad.timeline.events.count)
        #expect(Invariants.check(s, run).isEmpty)
        return Invariants.checkRoadTruth(s, bad).filter { $0.check == .road(check) }
    }

    @Test func aWaypointSaidReachedBeforeTheCarIsThereFiresPassedTruth() throws {
        // "You have reached your first waypoint" started 10 s sooner, some 130 m out.
        let found = try moved("waypoint-u-turn", line: "w1.now", by: -10_000, .passedTruth)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("line w1.now says the car has arrived") == true, "\(found)")
    }

    @Test func anArrivalSaidAgainBeforeTheCarIsThereFiresPassedTruth() throws {
        // The arrival said again (m1.now-again) moved 20 s sooner: the car is still standing 60 m out.
        let found = try moved("arrival-said-again", line: "m1.now-again", by: -20_000, .passedTruth)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("line m1.now-again says the car has arrived") == true, "\(found)")
    }

    @Test func aContinueLineSaidWithLessLeftThanItSaysFiresSpokenDistance() throws {
        // "Continue on Yongin-Seoul Expressway for 2 kilometers." started 40 s later, some 1.3 km on.
        let found = try moved("highway-120", line: "end.continue", by: 40_000, .spokenDistance)
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("line end.continue says 2000 m when") == true, "\(found)")
    }

    @Test func aJumpTheFixBeforeRulesOutThatIsUsedFiresJumpDropped() throws {
        let (s, run, bad) = try broken("corner-jump-slow-car") { events in
            events.removeAll { if case .road(.fixDropped(_, .implausible)) = $0.what { true } else { false } }
        }
        #expect(!checks(s, run).contains(.jumpDropped))
        let found = Invariants.checkRoadTruth(s, bad).filter { $0.check == .road(.jumpDropped) }
        #expect(
            found.map(\.message) == [
                "f63 was used, though it lies 40 m beyond both accuracies from f62 taken 1000 ms before, farther than the car could go (12 m)"
            ])
    }

    @Test func aJumpUsedAfterAsManyRefusalsAsAllowedIsExcused() throws {
        // The same jump four fixes in a row: the fourth is used (the earlier fix was the
        // wrong one, as far as the follower can tell), moving it past m1 42 m early.
        var s = try Fixtures.scenario("road/corner-jump-slow-car")
        guard case .generated(var g) = s.road?.fixes else {
            Issue.record("generated fixes")
            return
        }
        g.jumps = (60...63).map { FixGenerator.Jump(at: SimTime(ms: Int64($0) * 1000), along: 41, across: -60) }
        s.road?.fixes = .generated(g)
        s.expect = []
        let run = try Simulation(s)
        let dropped = run.timeline.events.filter {
            if case .road(.fixDropped(_, .implausible)) = $0.what { true } else { false }
        }
        // Three of the jump, then two true fixes as far from the fourth, used.
        #expect(dropped.count == 5)
        #expect(Invariants.check(s, run).isEmpty)
        // The pass is 42 m early, on a jump: passed-truth does not judge a jump, jump-dropped does.
        let road = try #require(s.road)
        let truth = try #require(Invariants.RoadTruth(road))
        #expect(!truth.honest(FixIndex(63)))
        #expect(truth.honest(FixIndex(59)) && truth.honest(FixIndex(64)))
    }

    @Test func theSpokenDistanceIsReadInBothLanguages() {
        #expect(Invariants.spokenMeters("In 300 meters, turn right.") == 300)
        #expect(Invariants.spokenMeters("In 1.5 kilometers, keep left.") == 1_500)
        #expect(Invariants.spokenMeters("500미터 앞에서 유턴하세요.") == 500)
        #expect(Invariants.spokenMeters("12번 출구로 나가세요. 2킬로미터 앞") == 2_000)
        #expect(Invariants.spokenMeters("Now turn right.") == nil)
        for (text, feet) in [
            ("In 900 feet, turn right.", 900.0), ("In a half mile, keep left.", 2640),
            ("In 1.5 miles, take exit 12.", 7920),
        ] {
            #expect(abs((Invariants.spokenMeters(text) ?? 0) - feet * 0.3048) < 1e-9, "\(text)")
        }
    }

    @Test func everyRoadScenarioPassesTheTruthChecks() throws {
        for name in ["dense-detour", "red-light-12m", "phone-like-fixes", "recorded-true-track", "tunnel-60s-170m"] {
            let s = try Fixtures.scenario("road/\(name)")
            #expect(Invariants.checkRoadTruth(s, try Simulation(s)).isEmpty, "\(name)")
        }
    }
}

/// The line checks' text search (`Invariants.says`) answers as `String.contains` does.
@Suite struct SaysTests {
    @Test func theByteSearchOfPlainTextAnswersAsCharacters() {
        let texts = [
            "In a quarter mile, turn left.", "500 m 앞에서 좌회전하세요", "Turn left onto Teheran-ro, then right.",
            "Take the Puttgarden - Rødby ferry", "cafe\u{301} ahead", "café ahead", "한\u{1100}\u{1161}",
            "line\r\nbreak", "", "mile", "milestone", "테헤란로 주유소로 안내합니다",
        ]
        let words = [
            "a quarter mile", "mile", "left", "좌회전", "테헤란로", "Rødby", "café", "cafe", "e", "\u{301}", "한", "가",
            "\n", "\r", "break", "", "주유소", "ahead", "milestone!",
        ]
        // What `String.contains` answers: a run of the text's characters equal to the word's (Foundation's
        // `contains`, which a test module may see instead, differs: it finds no empty word, and "cafe" in "cafe\u{301}").
        func contains(_ text: String, _ word: String) -> Bool {
            let t = Array(text)
            let w = Array(word)
            return w.count <= t.count
                && (0...(t.count - w.count)).contains { i in t[i..<(i + w.count)].elementsEqual(w) }
        }
        for text in texts {
            for word in words {
                #expect(
                    Invariants.says(text, word) == contains(text, word),
                    "\(text.debugDescription) ∋ \(word.debugDescription)")
            }
        }
        #expect(Invariants.isPlain("In 500 m, 좌회전") && !Invariants.isPlain("Rødby") && !Invariants.isPlain("a\r\nb"))
    }
}
