import SimClock
import Testing

@testable import AudioBus

private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

@Suite struct AudioBusTests {
    @Test func dadIsHeardOnlyWhileTheEarsAreOpen() {
        var bus = AudioBus()
        bus.startSpeech(0, at: ms(1_000))
        bus.setEars(open: false, at: ms(1_400))
        bus.setEars(open: true, at: ms(2_000))
        let (heard, lost) = bus.endSpeech(at: ms(2_500))
        #expect(heard == ms(900) && lost == ms(600))
    }

    @Test func speechStartingAsTheEarsCloseIsWhollyLost() {
        var bus = AudioBus()
        bus.startSpeech(0, at: ms(500))
        bus.setEars(open: false, at: ms(500))
        #expect(bus.endSpeech(at: ms(800)) == (ms(0), ms(300)))
    }

    @Test func theBusKnowsWhoIsAudibleAndRecordsEveryOverlap() {
        var bus = AudioBus()
        #expect(bus.audible == nil)
        bus.startStretch(4, at: ms(0))
        #expect(bus.audible == .pippa)
        bus.stopStretch(at: ms(1_000), cut: true)
        bus.startGuidance(2, at: ms(1_000))
        #expect(bus.audible == .guidance)
        #expect(bus.overlaps.isEmpty)
        bus.startStretch(5, at: ms(1_500))
        #expect(bus.overlaps == [AudioBus.Overlap(at: ms(1_500), line: 2, stretch: 5)])
        #expect(bus.played.map(\.voice) == [.pippa, .guidance, .pippa])
        #expect(bus.played[0].cut && bus.played[0].end == ms(1_000))
    }
}

@Suite struct AudioBusIntervalTests {
    @Test func earsClosingAndOpeningInOneInstantLoseNothing() {
        var bus = AudioBus()
        bus.startSpeech(0, at: ms(0))
        bus.setEars(open: false, at: ms(300))
        bus.setEars(open: true, at: ms(300))
        #expect(bus.endSpeech(at: ms(1_000)) == (ms(1_000), ms(0)))
    }

    @Test func speechEndingAsTheEarsCloseIsWhollyHeard() {
        var bus = AudioBus()
        bus.setEars(open: false, at: ms(100))
        bus.setEars(open: true, at: ms(200))
        bus.startSpeech(0, at: ms(200))
        bus.setEars(open: false, at: ms(700))
        #expect(bus.endSpeech(at: ms(700)) == (ms(500), ms(0)))
    }

    @Test func eachVoicesIntervalsComeFromWhatPlayed() {
        var bus = AudioBus()
        bus.startStretch(0, at: ms(0))
        bus.stopStretch(at: ms(1_000), cut: true)
        bus.startGuidance(0, at: ms(1_000))
        bus.endGuidance(at: ms(2_000))
        bus.startStretch(0, at: ms(2_000))
        #expect(bus.intervals(of: .pippa).intervals == [SimInterval(ms(0), ms(1_000))])
        #expect(bus.intervals(of: .guidance).intervals == [SimInterval(ms(1_000), ms(2_000))])
        #expect(bus.soundedTogether.isEmpty)
        bus.startGuidance(1, at: ms(2_500))
        bus.stopStretch(at: ms(3_000), cut: false)
        bus.endGuidance(at: ms(3_500))
        #expect(bus.soundedTogether.intervals == [SimInterval(ms(2_500), ms(3_000))])
        #expect(bus.overlaps == [AudioBus.Overlap(at: ms(2_500), line: 1, stretch: 0)])
    }
}
