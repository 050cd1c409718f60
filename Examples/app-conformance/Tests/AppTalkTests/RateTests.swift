#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Fuzzing
import SimClock
import TalkArbiter
import Testing

/// drivesim's own arbiter behind the protocol, from this package: the cost
/// of the protocol alone.
struct ThinWrapper: Arbiter {
    var inner: TalkArbiter
    init(_ tables: ArbiterTables) { inner = TalkArbiter(tables) }
    mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.lineEnded(i, at: t, into: &a) }
    mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.stretchEnded(i, at: t, into: &a) }
    mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.dadEnded(i, at: t, into: &a) }
    mutating func earsTimer(at t: SimTime, into a: inout [Action]) { inner.earsTimer(at: t, into: &a) }
    mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.lineExpired(i, at: t, into: &a) }
    mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.lineRequested(i, at: t, into: &a) }
    mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) { inner.lineRevised(i, duration: duration, at: t) }
    mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.replyBegan(i, at: t, into: &a) }
    mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.chunkReady(i, at: t, into: &a) }
    mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.dadStarted(i, at: t, into: &a) }
    mutating func endInstant(at t: SimTime, into a: inout [Action]) { inner.endInstant(at: t, into: &a) }
    var isIdle: Bool { inner.isIdle }
}

/// Fuzz rates, printed, not asserted; only when DRIVESIM_RATE is set, in a
/// release build: `DRIVESIM_RATE=1 swift test -c release --filter Rate`.
@Test(.enabled(if: getenv("DRIVESIM_RATE") != nil))
func printsFuzzRates() {
    let runs = 20_000
    func rate(_ arbiter: ArbiterUnderTest) -> Int {
        let elapsed = ContinuousClock().measure {
            _ = Campaign.run(Fuzzer.Settings(seed: 1, runs: runs, arbiter: arbiter), jobs: 1) { _ in true }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Int(Double(runs) / seconds)
    }
    for _ in 0..<3 {
        let builtIn = rate(.reference)
        let thin = rate(.swift(ThinWrapper.self, differential: false))
        let app = rate(.swift(AppArbiter.self, differential: false))
        let appDifferential = rate(.swift(AppArbiter.self))
        print("RATE built-in \(builtIn)/s; through the protocol: TalkArbiter \(thin)/s (\(thin * 100 / builtIn)%), app referee \(app)/s (\(app * 100 / builtIn)%), app referee differential \(appDifferential)/s")
    }
}
