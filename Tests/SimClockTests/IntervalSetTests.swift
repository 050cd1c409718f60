import Testing

@testable import SimClock

private func iv(_ start: Int64, _ end: Int64) -> SimInterval { SimInterval(SimTime(ms: start), SimTime(ms: end)) }
private func set(_ pairs: (Int64, Int64)...) -> IntervalSet { IntervalSet(pairs.map { iv($0.0, $0.1) }) }
private func ms(_ n: Int64) -> SimTime { SimTime(ms: n) }

@Suite struct SimIntervalTests {
    @Test func anIntervalHoldsItsStartAndNotItsEnd() {
        let a = iv(10, 20)
        #expect(!a.contains(ms(9)) && a.contains(ms(10)) && a.contains(ms(19)) && !a.contains(ms(20)))
        #expect(a.duration == ms(10) && !a.isEmpty)
    }

    @Test func touchingIntervalsDoNotOverlap() {
        #expect(!iv(0, 10).overlaps(iv(10, 20)))
        #expect(!iv(10, 20).overlaps(iv(0, 10)))
        #expect(iv(0, 10).intersection(iv(10, 20)) == nil)
        #expect(iv(0, 11).intersection(iv(10, 20)) == iv(10, 11))
    }

    @Test func aZeroLengthIntervalHoldsNothingAndOverlapsNothing() {
        let empty = iv(5, 5)
        #expect(empty.isEmpty && !empty.contains(ms(5)))
        #expect(!empty.overlaps(iv(0, 10)) && !iv(0, 10).overlaps(empty))
        #expect(iv(0, 10).intersection(empty) == nil)
    }
}

@Suite struct IntervalSetTests {
    @Test func touchingAndOverlappingIntervalsCoalesceAndEmptyOnesVanish() {
        #expect(set((10, 20), (0, 10)).intervals == [iv(0, 20)])
        #expect(set((0, 5), (3, 8), (20, 30), (25, 26), (40, 40)).intervals == [iv(0, 8), iv(20, 30)])
        #expect(set((7, 7)).isEmpty && IntervalSet().isEmpty)
        #expect(set((0, 1), (2, 3)).intervals.count == 2)
    }

    @Test func theSameTimesMakeEqualSets() {
        #expect(set((0, 10), (10, 20)) == set((0, 20)))
        #expect(set((0, 10), (5, 20)) == set((5, 20), (0, 6)))
    }

    @Test func containsAtTheBoundaries() {
        let s = set((0, 10), (20, 30))
        #expect(s.contains(ms(0)) && s.contains(ms(9)) && !s.contains(ms(10)))
        #expect(!s.contains(ms(19)) && s.contains(ms(20)) && !s.contains(ms(30)) && !s.contains(ms(-1)))
        #expect(!IntervalSet().contains(ms(0)))
    }

    @Test func overlapsNeedsSharedTimeNotATouch() {
        let s = set((0, 10), (20, 30))
        #expect(!s.overlaps(iv(10, 20)) && s.overlaps(iv(9, 20)) && s.overlaps(iv(10, 21)))
        #expect(!s.overlaps(iv(5, 5)) && !IntervalSet().overlaps(iv(0, 100)))
        #expect(!s.overlaps(set((10, 20), (30, 40))) && s.overlaps(set((29, 31))))
    }

    @Test func unionMergesTouchingPiecesOfBothSides() {
        #expect(set((0, 10)).union(set((10, 20))) == set((0, 20)))
        #expect(set((0, 2), (8, 10)).union(set((2, 8))).intervals == [iv(0, 10)])
        #expect(set((0, 1), (5, 6)).union(set((2, 3))).intervals == [iv(0, 1), iv(2, 3), iv(5, 6)])
        #expect(set((0, 1)).union(IntervalSet()) == set((0, 1)) && IntervalSet().union(set((0, 1))) == set((0, 1)))
    }

    @Test func intersectionOfTouchingSetsIsEmpty() {
        #expect(set((0, 10)).intersection(set((10, 20))).isEmpty)
        #expect(set((0, 10), (20, 30)).intersection(set((5, 25))).intervals == [iv(5, 10), iv(20, 25)])
        #expect(set((0, 100)).intersection(set((1, 2), (3, 4))).intervals == [iv(1, 2), iv(3, 4)])
        #expect(set((0, 10)).intersection(IntervalSet()).isEmpty)
        #expect(set((0, 10), (20, 30)).intersection(iv(9, 21)).intervals == [iv(9, 10), iv(20, 21)])
        #expect(set((0, 10)).intersection(iv(10, 10)).isEmpty)
    }

    @Test func measureIsTheTotalAndWithinAWindowCountsOnlyTheWindow() {
        let s = set((0, 10), (20, 30))
        #expect(s.measure == ms(20) && IntervalSet().measure == .zero)
        #expect(s.measure(within: iv(5, 25)) == ms(10))
        #expect(s.measure(within: iv(10, 20)) == .zero)
        #expect(s.measure(within: iv(9, 10)) == ms(1) && s.measure(within: iv(20, 21)) == ms(1))
        #expect(s.measure(within: iv(5, 5)) == .zero)
        #expect(set((0, SimTime.endOfTime.ms)).measure(within: iv(100, 250)) == ms(150))
    }

    @Test func insertAndRemoveKeepTheSetSortedAndCoalesced() {
        var s = set((0, 10), (20, 30), (40, 50))
        s.insert(iv(10, 20))
        #expect(s.intervals == [iv(0, 30), iv(40, 50)])
        s.insert(iv(32, 35))
        #expect(s.intervals == [iv(0, 30), iv(32, 35), iv(40, 50)])
        s.remove(iv(5, 45))
        #expect(s.intervals == [iv(0, 5), iv(45, 50)])
        s.remove(iv(46, 47))
        #expect(s.intervals == [iv(0, 5), iv(45, 46), iv(47, 50)])
        s.remove(iv(5, 45))
        s.remove(iv(3, 3))
        #expect(s.intervals == [iv(0, 5), iv(45, 46), iv(47, 50)])
        s.remove(iv(0, 100))
        #expect(s.isEmpty)
    }

    @Test func subtractingLeavesWhatTheOtherDoesNotHold() {
        #expect(set((0, 10)).subtracting(set((10, 20))) == set((0, 10)))
        #expect(set((0, 10)).subtracting(set((2, 3), (5, 6))).intervals == [iv(0, 2), iv(3, 5), iv(6, 10)])
        #expect(set((0, 10), (20, 30)).subtracting(set((5, 25))).intervals == [iv(0, 5), iv(25, 30)])
        #expect(set((0, 10)).subtracting(set((0, 10))).isEmpty)
    }

    /// Every operation against a reference that keeps one flag per millisecond.
    @Test func aSeededSweepAgreesWithAMillisecondReference() {
        let span = 48
        func randomSet(_ random: inout SplitMix64) -> ([SimInterval], [Bool]) {
            var flags = [Bool](repeating: false, count: span)
            var pieces: [SimInterval] = []
            for _ in 0..<Int(random.below(6)) {
                let start = random.int(in: 0...Int64(span))
                let end = random.int(in: start...Int64(span))
                pieces.append(iv(start, end))
                for t in start..<end { flags[Int(t)] = true }
            }
            return (pieces, flags)
        }
        func flags(of s: IntervalSet) -> [Bool] { (0..<span).map { s.contains(ms(Int64($0))) } }
        func isCanonical(_ s: IntervalSet) -> Bool {
            s.intervals.allSatisfy { !$0.isEmpty }
                && zip(s.intervals, s.intervals.dropFirst()).allSatisfy { $0.end < $1.start }
        }
        for seed in UInt64(0)..<500 {
            var random = SplitMix64(seed: seed)
            let (pa, fa) = randomSet(&random)
            let (pb, fb) = randomSet(&random)
            let a = IntervalSet(pa)
            let b = IntervalSet(pb)
            var inserted = IntervalSet()
            var removed = a
            for piece in pb {
                inserted.insert(piece)
                removed.remove(piece)
            }
            for s in [a, b, a.union(b), a.intersection(b), a.subtracting(b), inserted, removed] {
                #expect(isCanonical(s), "seed \(seed): \(s)")
            }
            #expect(flags(of: a) == fa, "seed \(seed)")
            #expect(flags(of: a.union(b)) == zip(fa, fb).map { $0 || $1 }, "seed \(seed)")
            #expect(flags(of: a.intersection(b)) == zip(fa, fb).map { $0 && $1 }, "seed \(seed)")
            #expect(flags(of: a.subtracting(b)) == zip(fa, fb).map { $0 && !$1 }, "seed \(seed)")
            #expect(inserted == b && removed == a.subtracting(b), "seed \(seed)")
            #expect(a.overlaps(b) == zip(fa, fb).contains { $0 && $1 }, "seed \(seed)")
            #expect(a.measure.ms == Int64(fa.filter { $0 }.count), "seed \(seed)")
            let w0 = random.int(in: 0...Int64(span))
            let w1 = random.int(in: w0...Int64(span))
            let window = iv(w0, w1)
            let inWindow = (Int(w0)..<Int(w1)).filter { fa[$0] }.count
            #expect(a.measure(within: window).ms == Int64(inWindow), "seed \(seed)")
            #expect(a.intersection(window) == a.intersection(IntervalSet([window])), "seed \(seed)")
            #expect(a.overlaps(window) == (inWindow > 0), "seed \(seed)")
        }
    }
}
