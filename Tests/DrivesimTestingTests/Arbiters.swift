import SimClock
import TalkArbiter

/// The reference arbiter, or one of its mutants, behind the protocol from
/// another module: what a user's Swift arbiter looks like to drivesim.
struct Wrapped<Mutation: MutationChoice>: Arbiter {
    var inner: TalkArbiter
    init(_ tables: ArbiterTables) { inner = TalkArbiter(tables, fault: Mutation.fault) }
    mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.lineEnded(i, at: t, into: &a) }
    mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.stretchEnded(i, at: t, into: &a) }
    mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.dadEnded(i, at: t, into: &a) }
    mutating func earsTimer(at t: SimTime, into a: inout [Action]) { inner.earsTimer(at: t, into: &a) }
    mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.lineExpired(i, at: t, into: &a) }
    mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.lineRequested(i, at: t, into: &a) }
    mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.replyBegan(i, at: t, into: &a) }
    mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.chunkReady(i, at: t, into: &a) }
    mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) { inner.dadStarted(i, at: t, into: &a) }
    mutating func endInstant(at t: SimTime, into a: inout [Action]) { inner.endInstant(at: t, into: &a) }
    var isIdle: Bool { inner.isIdle }
}

protocol MutationChoice { static var fault: TalkArbiter.Fault? { get } }
enum Faithful: MutationChoice { static var fault: TalkArbiter.Fault? { nil } }
/// `short-wait` compared with `<`: a line waits only for a stretch with less than waitLimit left.
enum StrictWait: MutationChoice { static var fault: TalkArbiter.Fault? { .waitLimitStrict } }

/// An arbiter that answers every request by starting a line that does not exist.
struct Impossible: Arbiter {
    let lines: Int
    init(_ tables: ArbiterTables) { lines = tables.lines.count }
    mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func earsTimer(at t: SimTime, into a: inout [Action]) {}
    mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {
        a.append(.lineStarted(line: lines + 7, endsAt: t + SimTime(ms: 1_000)))
    }
    mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func endInstant(at t: SimTime, into a: inout [Action]) {}
    var isIdle: Bool { true }
}

/// An arbiter that cuts a reply's first stretch, by Dad, the moment the reply begins: nothing plays yet.
struct PhantomCut: Arbiter {
    let replies: [TalkArbiter.Reply]
    init(_ tables: ArbiterTables) { replies = tables.replies }
    mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func earsTimer(at t: SimTime, into a: inout [Action]) {}
    mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {
        a.append(.replyBegan(reply: i))
        a.append(.stretchCut(reply: i, stretch: replies[i].stretches.lowerBound, rule: .bargeIn, by: .utterance(0), played: .zero, then: nil))
    }
    mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    mutating func endInstant(at t: SimTime, into a: inout [Action]) {}
    var isIdle: Bool { true }
}
