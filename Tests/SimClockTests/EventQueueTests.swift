import Testing

@testable import SimClock

@Suite struct EventQueueTests {
    @Test func entriesComeOutByTimeThenPhaseThenSchedulingOrder() {
        var queue = EventQueue<String>()
        queue.schedule("late", at: SimTime(ms: 20))
        queue.schedule("arrival-1", at: SimTime(ms: 10), phase: 5)
        queue.schedule("completion", at: SimTime(ms: 10), phase: 0)
        queue.schedule("arrival-2", at: SimTime(ms: 10), phase: 5)
        var out: [String] = []
        while let entry = queue.popFirst() { out.append(entry.event) }
        #expect(out == ["completion", "arrival-1", "arrival-2", "late"])
    }

    @Test func eventsScheduledWhileRunningMergeWithTheAgendaInOrder() {
        var queue = EventQueue<Int>()
        for t in [30, 10, 20] { queue.schedule(t, at: SimTime(ms: Int64(t)), phase: 1) }
        #expect(queue.popFirst()?.event == 10)
        queue.schedule(15, at: SimTime(ms: 15))
        queue.schedule(20_0, at: SimTime(ms: 20), phase: 0)
        queue.schedule(20_2, at: SimTime(ms: 20), phase: 1)
        var out: [Int] = []
        while let entry = queue.popFirst() { out.append(entry.event) }
        #expect(out == [15, 200, 20, 202, 30])
        #expect(queue.isEmpty)
    }

    @Test func aSeededSweepAgreesWithANaiveReference() {
        for seed in UInt64(0)..<300 {
            var random = SplitMix64(seed: seed)
            var queue = EventQueue<Int>()
            // The reference: every pending (time, phase, id), the minimum taken each time.
            var pending: [(Int64, UInt8, Int)] = []
            var next = 0
            func schedule(at t: Int64) {
                let phase = UInt8(random.below(4))
                queue.schedule(next, at: SimTime(ms: t), phase: phase)
                pending.append((t, phase, next))
                next += 1
            }
            for _ in 0..<Int(random.int(in: 0...60)) { schedule(at: random.int(in: 0...50)) }
            while let entry = queue.popFirst() {
                let i = pending.indices.min {
                    (pending[$0].0, pending[$0].1, pending[$0].2) < (pending[$1].0, pending[$1].1, pending[$1].2)
                }!
                #expect(entry.event == pending[i].2, "seed \(seed)")
                pending.remove(at: i)
                if random.chance(45) { schedule(at: entry.time.ms + random.int(in: 0...20)) }
            }
            #expect(pending.isEmpty, "seed \(seed)")
        }
    }

    @Test func theLoopHandsOverOneInstantAtATime() {
        var loop = SimLoop<String>()
        loop.schedule("b", at: SimTime(ms: 5))
        loop.schedule("a", at: SimTime(ms: 0))
        var instants: [[String]] = []
        while let now = loop.advance() {
            var batch: [String] = []
            while let event = loop.nextEvent() {
                batch.append(event)
                if event == "a" { loop.schedule("a-again", at: now, phase: 1) }
            }
            instants.append(batch)
        }
        #expect(instants == [["a", "a-again"], ["b"]])
        #expect(loop.now == SimTime(ms: 5))
    }

    @Test func splitMixIsTheReferenceSequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        var bounded = SplitMix64(seed: 9)
        for _ in 0..<1_000 { #expect((5...9).contains(bounded.int(in: 5...9))) }
    }

    @Test func timesPrintAsMinutesSecondsAndMilliseconds() {
        #expect(SimTime(ms: 2_000).description == "00:02.000")
        #expect(SimTime(ms: 3_723_004).description == "1:02:03.004")
    }
}
