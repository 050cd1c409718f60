import Guidance
import Road
import SimClock
import Testing

@Suite struct SpokenDistanceTests {
    @Test func distancesAreRoundedDownNeverUp() {
        #expect(SpokenDistance.roundDown(299.9) == 250)
        #expect(SpokenDistance.roundDown(300) == 300)
        #expect(SpokenDistance.roundDown(399) == 300)
        #expect(SpokenDistance.roundDown(1_499) == 1_000)
        #expect(SpokenDistance.roundDown(49.9) == nil)
    }

    @Test func writtenFormsSpellTheUnitForTheVoice() {
        #expect(SpokenDistance.written(300, .en) == "300 meters")
        #expect(SpokenDistance.written(1_000, .en) == "1 kilometer")
        #expect(SpokenDistance.written(1_500, .en) == "1.5 kilometers")
        #expect(SpokenDistance.written(2_000, .en) == "2 kilometers")
        #expect(SpokenDistance.written(300, .ko) == "300미터")
        #expect(SpokenDistance.written(1_000, .ko) == "1킬로미터")
        #expect(SpokenDistance.written(1_500, .ko) == "1.5킬로미터")
    }
}

@Suite struct ImperialTests {
    @Test func feetAndMilesAreRoundedDownAsUSVoicesSayThem() {
        // 850 m is 2,789 ft: a half mile (2,640 ft), never three quarters.
        #expect(SpokenDistance.roundDown(850, .imperial) == 2640)
        #expect(SpokenDistance.roundDown(250, .imperial) == 800)
        #expect(SpokenDistance.roundDown(30, .imperial) == nil)
        #expect(SpokenDistance.roundDown(30.48, .imperial) == 100)
        #expect(SpokenDistance.roundDown(2_000, .imperial) == 5280)
        for feet in SpokenDistance.feetPresets {
            #expect(SpokenDistance.meters(feet, .imperial) == Double(feet) * 0.3048)
        }
    }

    @Test func imperialWordsAreFeetFractionsAndMiles() {
        let said = SpokenDistance.feetPresets.map { SpokenDistance.written($0, .en, .imperial) }
        #expect(
            said == [
                "100 feet", "200 feet", "300 feet", "400 feet", "500 feet", "600 feet", "700 feet", "800 feet",
                "900 feet",
                "1000 feet", "a quarter mile", "a half mile", "three quarters of a mile", "1 mile", "1.5 miles",
                "2 miles",
                "3 miles", "5 miles", "10 miles",
            ])
        let m = Maneuver(id: "m", turn: .right, street: "Main Street")
        #expect(
            Phrasebook.line(.far, m, distance: 2640, then: nil, language: .en, units: .imperial)
                == "In a half mile, turn right onto Main Street.")
    }

    @Test func koreanIsAlwaysMetric() {
        var settings = GuidanceSettings(language: .ko)
        settings.units = .imperial
        #expect(settings.spokenUnits == .metric)
        #expect(SpokenDistance.written(300, .ko) == "300미터")
    }
}

@Suite struct SpeechDurationTests {
    @Test func numbersAndUnitsAreSpelledOutFirst() {
        #expect(SpeechDuration.spelledOut("In 300 m, turn right", .en) == "In three hundred meters, turn right")
        #expect(SpeechDuration.spelledOut("In 1.5 km, keep left", .en) == "In one point five kilometers, keep left")
        #expect(SpeechDuration.spelledOut("300 m 앞에서 우회전", .ko) == "삼백 미터 앞에서 우회전")
        #expect(SpeechDuration.spelledOut("1150 m", .ko) == "천백오십 미터")
    }

    @Test func numbersGluedToAWordAreSpelledToo() {
        #expect(SpeechDuration.spelledOut("500미터 앞에서 유턴하세요.", .ko) == "오백미터 앞에서 유턴하세요.")
        #expect(SpeechDuration.spelledOut("1.5킬로미터 앞에서 12번 출구로 나가세요.", .ko) == "일점오킬로미터 앞에서 십이번 출구로 나가세요.")
        #expect(SpeechDuration.spelledOut("Now take exit 12A.", .en) == "Now take exit twelve A.")
        // A Korean road name with a number inside is read as a navigator reads it (issue 40).
        #expect(SpeechDuration.spelledOut("판교역로192번길로 우회전하세요.", .ko) == "판교역로백구십이번길로 우회전하세요.")
        #expect(SpeechDuration.spelledOut("남산1호터널 방면", .ko) == "남산일호터널 방면")
        #expect(SpeechDuration.spelledOut("경부고속도로 2", .ko) == "경부고속도로 이")
        #expect(SpeechDuration.spelledOut("A4", .en) == "A4", "English refs are kept as written")
        // "오백미터 앞에서 유턴하세요": 4 + 3 + 5 = 12 syllables at 5.5 per second.
        #expect(SpeechDuration.estimate("500미터 앞에서 유턴하세요.", .ko) == SimTime(ms: 2_182))
        // "In three hundred meters, turn right": 6 words.
        #expect(SpeechDuration.estimate("In 300 meters, turn right.", .en) == SimTime(ms: 2_308))
    }

    /// `spokenUnits` counts in place what spelling the text out and counting it would: the same number.
    @Test(arguments: [
        "In 300 m, turn right", "In 1.5 km, keep left.", "300 m 앞에서 우회전", "1150 m", "500미터 앞에서 유턴하세요.",
        "1.5킬로미터 앞에서 12번 출구로 나가세요.", "Now take exit 12A.", "판교역로192번길로 우회전하세요.", "남산1호터널 방면",
        "경부고속도로 2", "A4", "m", "km", "m,", "km!?", "m.", "mm", "kmm", "k m", "e.g. this", "Gangnam-daero", "A-4 - -",
        "a--b-", "AEIOU yay queue", "  leading and  double spaces ", "", " ", "Ünter den Linden", "x\r\ny",
        "é \u{301}a",
        "강남대로 Gangnam-daero로 가세요", "Then keep right onto 테헤란로.", "In 2 km, take the ferry (Han River).",
        "0 7. 19 20 21 99, 100 101 110 999 1000 1001 1010 1100 12000 20001 99999 100000 0100000 007 000000000000000000000001",
        "1.05 0.5 1.2.3 1. 1.. .5 5.! 12A3 12A-. 1.5km.x 3.5km 2-3 1.A 1..2미터 500미터, 12번 1.5킬로미터? 100000미터 1e3 m.",
        "1 10 11 100 1000 10000 11111 21212 30000 1.0 2.00 9.9999",
    ])
    func spokenUnitsCountAsSpellingOut(text: String) {
        for language in [Language.en, .ko] {
            let spelled = SpeechDuration.spelledOut(text, language)
            let expected = language == .en ? SpeechDuration.words(spelled) : SpeechDuration.syllables(spelled)
            #expect(SpeechDuration.spokenUnits(text, language) == expected, "\(language): \(text)")
        }
    }

    @Test func englishIsCountedInWordsAndKoreanInSyllables() {
        // "In three hundred meters, turn right": 6 words at 2.6 per second.
        #expect(SpeechDuration.estimate("In 300 m, turn right", .en) == SimTime(ms: 2_308))
        // "삼백 미터 앞에서 우회전": 2 + 2 + 3 + 3 = 10 syllables at 5.5 per second.
        #expect(SpeechDuration.estimate("300 m 앞에서 우회전", .ko) == SimTime(ms: 1_819))
    }

    @Test(arguments: [1e-300, 0, -0.0, .nan, .infinity, -1])
    func noRateMakesTheEstimateTrap(rate: Double) {
        var rates = SpeechRates()
        rates.englishWordsPerSecond = rate
        rates.koreanSyllablesPerSecond = rate
        for language in [Language.en, .ko] {
            let d = SpeechDuration.estimate("In 300 m, turn right", language, rates: rates)
            #expect(d >= SpeechDuration.minimum && d <= SpeechDuration.maximum, "\(rate) \(language): \(d)")
        }
        rates.englishWordsPerSecond = 1e-300
        #expect(SpeechDuration.estimate("In 300 m, turn right", .en, rates: rates) == SpeechDuration.maximum)
    }

    @Test func ratesAreConfigurable() {
        var rates = SpeechRates()
        rates.englishWordsPerSecond = 2
        #expect(SpeechDuration.estimate("In 300 m, turn right", .en, rates: rates) == SimTime(ms: 3_000))
    }
}

@Suite struct AnnouncerTests {
    /// A straight run to one right turn `distance` meters ahead, at `speed` m/s.
    func announce(distance: Double, speed: Double, language: Language = .en, maneuvers extra: [Maneuver] = [])
        -> [Announcement]
    {
        var announcer = Announcer(
            settings: GuidanceSettings(language: language),
            maneuvers: [Maneuver(id: "m1", turn: .right, distance: distance)] + extra)
        var out: [Announcement] = []
        let state = RoadState(progress: 0, taken: .zero, speed: speed)
        announcer.announce(state, from: .zero, until: SimTime(ms: 3_600_000), into: &out)
        return out
    }

    func lines(_ out: [Announcement]) -> [(GuidanceLine, Stage)] {
        out.compactMap { if case .line(let l, _, let s) = $0 { return (l, s) } else { return nil } }
    }

    @Test(arguments: [30.0 / 3.6, 50.0 / 3.6, 90.0 / 3.6, 130.0 / 3.6])
    func everyLineFinishesBeforeItsPointEvenAt130(speed: Double) throws {
        let out = announce(distance: 5_000, speed: speed)
        let spoken = lines(out)
        #expect(spoken.map(\.1) == [.far, .near, .now])
        let pass = SimTime(ms: Int64((5_000 / speed * 1000).rounded(.down)))
        for (line, stage) in spoken {
            let end = line.at + line.duration
            // A "now" line is heard to its end (the output latency after it
            // ends) at its lead distance (to the millisecond's rounding); far
            // and near lines are timed by a guess of their text (the spoken
            // distance is known only when they fire), so within a word.
            let heard = end + GuidanceSettings(language: .en).outputLatency
            let left = 5_000 - speed * Double(heard.ms) / 1000
            #expect(heard < pass, "\(stage) is heard until \(heard), the turn is at \(pass)")
            let lead = GuidanceSettings(language: .en).lead(stage).distance(at: speed)
            let slack = stage == .now ? speed * 0.002 + 0.01 : speed * 0.5
            #expect(abs(left - lead) < slack, "\(stage): \(left) m left, lead \(lead) m")
            #expect(line.expires! > line.at)
        }
        #expect(spoken.last!.0.urgent && !spoken.first!.0.urgent)
    }

    @Test func aLateStageIsSkippedForTheMostImminentOne() {
        // 60 m ahead at 50 km/h: far is past, and "In 50 m" could not finish
        // before "now" comes due; only "now" is valid.
        let out = announce(distance: 60, speed: 50 / 3.6)
        #expect(lines(out).map(\.1) == [.now])
        #expect(out.contains(.skipped(maneuver: 0, stage: .far, reason: .late, at: .zero)))
        #expect(out.contains(.skipped(maneuver: 0, stage: .near, reason: .late, at: .zero)))
    }

    @Test func aNowLineThatCannotFinishIsNeverSpoken() {
        let out = announce(distance: 10, speed: 50 / 3.6)
        #expect(lines(out).isEmpty)
        #expect(out.contains { if case .skipped(0, .now, .late, _) = $0 { return true } else { return false } })
    }

    @Test func closeManeuversAreAnnouncedTogether() {
        let out = announce(
            distance: 2_000, speed: 40 / 3.6, maneuvers: [Maneuver(id: "m2", turn: .left, distance: 2_150)])
        let texts = lines(out).map(\.0.text!)
        #expect(texts.contains("Now turn right, then turn left."))
        #expect(out.contains { if case .skipped(1, .far, .then, _) = $0 { return true } else { return false } })
        #expect(texts.contains("Now turn left."))
    }

    @Test func aManeuverExactlyThenWithinAfterTheOneBeforeIsJoinedOneCentimeterFartherIsNot() {
        // At 40 km/h, thenSeconds (12 s) covers 133 m: thenWithin (200 m) decides.
        let speed = 40 / 3.6
        #expect(speed * GuidanceSettings(language: .en).thenSeconds < GuidanceSettings(language: .en).thenWithin)
        func joined(_ gap: Double) -> Bool {
            let out = announce(
                distance: 2_000, speed: speed, maneuvers: [Maneuver(id: "m2", turn: .left, distance: 2_000 + gap)])
            return lines(out).contains { $0.0.text == "Now turn right, then turn left." }
        }
        #expect(joined(200))
        #expect(!joined(200.01))
    }

    @Test func oneLinePerStagePerManeuver() {
        let spoken = lines(announce(distance: 3_000, speed: 60 / 3.6, language: .ko))
        #expect(Set(spoken.map(\.0.id)).count == spoken.count)
        #expect(spoken.allSatisfy { $0.0.language == .ko && $0.0.maneuver == "m1" })
    }
}

@Test func aRerouteLineIDIsRerouteAPositiveNumberAndOffOrBack() {
    for id in ["reroute1.off", "reroute1.back", "reroute20.off", "reroute907.back"] {
        #expect(RoadPlan.isRerouteLineID(id), "\(id)")
    }
    for id in [
        "reroute", "reroute.", "reroute.off", "reroute0.off", "reroute01.off", "reroute1.", "reroute1.offf",
        "reroute1.of",
        "reroute1x.off", "reroute1.off.off", "Reroute1.off", "rerout1.off", "r0", "", "reroute１.off", "m1.far",
    ] {
        #expect(!RoadPlan.isRerouteLineID(id), "\(id)")
    }
    // Text that is not native UTF-8 in memory reads the same.
    #expect(RoadPlan.isRerouteLineID(String(Substring("xreroute12.back").dropFirst())))
}
