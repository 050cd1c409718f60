import SimClock
import TalkArbiter

/// The reference arbiter, or one of its mutants, behind the protocol from
/// another module: what a user's Swift arbiter looks like to drivesim.
package struct Wrapped<Mutation: MutationChoice>: Arbiter {
    var inner: TalkArbiter
    public init(_ tables: ArbiterTables) { inner = TalkArbiter(tables, fault: Mutation.fault) }
    public mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.lineEnded(i, at: t, into: &a)
    }
    public mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.stretchEnded(i, at: t, into: &a)
    }
    public mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.dadEnded(i, at: t, into: &a)
    }
    public mutating func earsTimer(at t: SimTime, into a: inout [Action]) { inner.earsTimer(at: t, into: &a) }
    public mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.lineExpired(i, at: t, into: &a)
    }
    public mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.lineRequested(i, at: t, into: &a)
    }
    public mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) {
        inner.lineRevised(i, duration: duration, at: t)
    }
    public mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.replyBegan(i, at: t, into: &a)
    }
    public mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.chunkReady(i, at: t, into: &a)
    }
    public mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {
        inner.dadStarted(i, at: t, into: &a)
    }
    public mutating func endInstant(at t: SimTime, into a: inout [Action]) { inner.endInstant(at: t, into: &a) }
    public var isIdle: Bool { inner.isIdle }
}

package protocol MutationChoice { static var fault: TalkArbiter.Fault? { get } }
package enum Faithful: MutationChoice { package static var fault: TalkArbiter.Fault? { nil } }
/// `short-wait` compared with `<`: a line waits only for a stretch with less than waitLimit left.
package enum StrictWait: MutationChoice { package static var fault: TalkArbiter.Fault? { .waitLimitStrict } }
/// `long-cut` 1 ms late: a line waits for a stretch with waitLimit + 1 ms left.
package enum LooseWait: MutationChoice { package static var fault: TalkArbiter.Fault? { .waitLimitLoose } }
/// `ears-closed` 1 ms short: the ears reopen 1 ms before the tail has passed.
package enum EarsEarly: MutationChoice { package static var fault: TalkArbiter.Fault? { .earsEarly } }

/// An arbiter that answers every request by starting a line that does not exist.
public struct Impossible: Arbiter {
    let lines: Int
    public init(_ tables: ArbiterTables) { lines = tables.lines.count }
    public mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func earsTimer(at t: SimTime, into a: inout [Action]) {}
    public mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) {}
    public mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {
        a.append(.lineStarted(line: lines + 7, endsAt: t + SimTime(ms: 1_000)))
    }
    public mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func endInstant(at t: SimTime, into a: inout [Action]) {}
    public var isIdle: Bool { true }
}

/// An arbiter that cuts a reply's first stretch, by Dad, the moment the reply begins: nothing plays yet.
public struct PhantomCut: Arbiter {
    let replies: [TalkArbiter.Reply]
    public init(_ tables: ArbiterTables) { replies = tables.replies }
    public mutating func lineEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func stretchEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func dadEnded(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func earsTimer(at t: SimTime, into a: inout [Action]) {}
    public mutating func lineExpired(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func lineRequested(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func lineRevised(_ i: Int, duration: SimTime, at t: SimTime) {}
    public mutating func replyBegan(_ i: Int, at t: SimTime, into a: inout [Action]) {
        a.append(.replyBegan(reply: i))
        a.append(
            .stretchCut(
                reply: i, stretch: replies[i].stretches.lowerBound, rule: .bargeIn, by: .utterance(0), played: .zero,
                then: nil))
    }
    public mutating func chunkReady(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func dadStarted(_ i: Int, at t: SimTime, into a: inout [Action]) {}
    public mutating func endInstant(at t: SimTime, into a: inout [Action]) {}
    public var isIdle: Bool { true }
}
