/// The app's talk referee (SPEC 4), in the app's own shape: a class that is
/// told events and reports its decisions through a callback. It knows
/// nothing of drivesim; the tests adapt it to drivesim's `Arbiter`.
public final class TalkReferee {
    /// A guidance line as the app describes it.
    public struct Line {
        public var durationMs: Int64
        public var urgent: Bool
        public var maneuver: Int?
        public var expiresMs: Int64?
        public init(durationMs: Int64, urgent: Bool, maneuver: Int?, expiresMs: Int64?) {
            self.durationMs = durationMs; self.urgent = urgent; self.maneuver = maneuver; self.expiresMs = expiresMs
        }
    }

    /// What happens to the bus, as the app's audio layer reports it.
    public enum Event {
        case lineFinished(Int), stretchFinished(Int), micReleased(Int), timer
        case lineExpired(Int), lineRequested(Int), replyArrived(Int), chunkCached(Int), micPressed(Int)
    }

    /// What to cut a stretch for.
    public enum Cutter { case line(Int), dad(Int) }

    /// What the referee decided; `rule` is SPEC 4.1's name.
    public enum Decision {
        case lineWaits(Int, rule: String, forStretch: Int?)
        case playLine(Int, untilMs: Int64)
        case lineDone(Int)
        case dropLine(Int, rule: String)
        case queueReply(Int)
        case activateReply(Int)
        case playStretch(reply: Int, stretch: Int, untilMs: Int64, heldMs: Int64?)
        case stretchDone(reply: Int, stretch: Int)
        case cutStretch(reply: Int, stretch: Int, rule: String, by: Cutter, playedMs: Int64, afterCut: String?)
        case replyDone(Int)
        case abandonReply(Int, rule: String)
        case earsChanged(open: Bool)
        case wakeMe(atMs: Int64)
    }

    /// Called with each decision, in order.
    public var onDecision: (Decision) -> Void = { _ in }

    var lines: [Line]
    let replies: [Range<Int>]
    let stretchMs: [Int64]
    let earsTailMs: Int64, waitLimitMs: Int64
    let afterCut: String

    private enum LineState { case idle, pending, playing, done }
    private var lineState: [LineState]
    private var urgentQueue: [Int] = [], ordinaryQueue: [Int] = []
    private var pendingByManeuver: [Int: Int] = [:]
    private var playingLine: Int?
    private var reopenAtMs: Int64 = 0
    private var earsRecordedOpen = true
    private var active: Int?
    private var nextStretch: [Int]
    private var overAtMs: [Int64]
    private var replyQueue: [Int] = []
    private var playing: (reply: Int, stretch: Int, start: Int64, end: Int64)?
    private var readyAtMs: [Int64?]
    private var speaking: Int?
    private var now: Int64 = 0

    /// A referee for one drive.
    public init(lines: [Line], replies: [Range<Int>], stretchMs: [Int64], earsTailMs: Int64, waitLimitMs: Int64, afterCut: String) {
        self.lines = lines; self.replies = replies; self.stretchMs = stretchMs
        self.earsTailMs = earsTailMs; self.waitLimitMs = waitLimitMs; self.afterCut = afterCut
        lineState = Array(repeating: .idle, count: lines.count)
        nextStretch = replies.map(\.lowerBound)
        overAtMs = Array(repeating: 0, count: replies.count)
        readyAtMs = Array(repeating: nil, count: stretchMs.count)
    }

    /// Whether nothing plays, waits or is active.
    public var isQuiet: Bool {
        playingLine == nil && urgentQueue.isEmpty && ordinaryQueue.isEmpty && active == nil && replyQueue.isEmpty && playing == nil
    }

    /// The navigation re-phrased a waiting line for where the car is now:
    /// if it starts from now on, it lasts `durationMs`.
    public func lineReworded(_ line: Int, durationMs: Int64) {
        guard lineState[line] == .idle || lineState[line] == .pending else { return }
        lines[line].durationMs = durationMs
    }

    /// One event at `ms`.
    public func handle(_ event: Event, atMs ms: Int64) {
        now = ms
        switch event {
        case .lineFinished(let line):
            guard playingLine == line else { return }
            onDecision(.lineDone(line))
            lineState[line] = .done
            playingLine = nil
            reopenAtMs = now + earsTailMs
            if reopenAtMs > now { onDecision(.wakeMe(atMs: reopenAtMs)) }
        case .stretchFinished(let stretch):
            guard let p = playing, p.stretch == stretch, p.end == now else { return }
            onDecision(.stretchDone(reply: p.reply, stretch: stretch))
            playing = nil
            moveOn(p.reply)
        case .micReleased(let u): if speaking == u { speaking = nil }
        case .timer: break
        case .lineExpired(let line):
            guard lineState[line] == .pending, lines[line].expiresMs == now else { return }
            unqueue(line)
            lineState[line] = .done
            onDecision(.dropLine(line, rule: "stale"))
        case .lineRequested(let line): request(line)
        case .replyArrived(let reply):
            if active != nil {
                replyQueue.append(reply)
                onDecision(.queueReply(reply))
            } else {
                activate(reply)
            }
        case .chunkCached(let stretch): readyAtMs[stretch] = now
        case .micPressed(let u): speaking = u
        }
    }

    /// The instant is over: settle, then report the ears if they changed.
    public func instantOver(atMs ms: Int64) {
        now = ms
        while true {
            if nothingPlays, let line = urgentQueue.first ?? ordinaryQueue.first {
                unqueue(line)
                startLine(line)
                continue
            }
            if let u = speaking, earsOpen, let reply = active {
                if let p = playing {
                    playing = nil
                    onDecision(.cutStretch(reply: reply, stretch: p.stretch, rule: "barge-in", by: .dad(u), playedMs: now - p.start, afterCut: nil))
                }
                onDecision(.abandonReply(reply, rule: "barge-in"))
                nextReply()
                continue
            }
            if nothingPlays, !guidancePending, let reply = active, startStretch(of: reply) { continue }
            break
        }
        if earsOpen != earsRecordedOpen {
            earsRecordedOpen = earsOpen
            onDecision(.earsChanged(open: earsOpen))
        }
    }

    private var guidancePending: Bool { !urgentQueue.isEmpty || !ordinaryQueue.isEmpty }
    private var nothingPlays: Bool { playingLine == nil && playing == nil }
    private var earsOpen: Bool { playingLine == nil && now >= reopenAtMs }

    private func request(_ line: Int) {
        guard lineState[line] == .idle else { return }
        if let m = lines[line].maneuver, let old = pendingByManeuver[m] {
            unqueue(old)
            lineState[old] = .done
            onDecision(.dropLine(old, rule: "superseded"))
        }
        if let p = playing {
            if lines[line].urgent {
                cut(p, by: line, rule: "urgent-cut")
                startLine(line)
            } else if p.end - now > waitLimitMs {
                cut(p, by: line, rule: "long-cut")
                startLine(line)
            } else {
                enqueue(line)
                onDecision(.lineWaits(line, rule: "short-wait", forStretch: p.stretch))
            }
        } else if playingLine != nil || guidancePending {
            enqueue(line)
            onDecision(.lineWaits(line, rule: "guidance-queue", forStretch: nil))
        } else {
            enqueue(line)
        }
    }

    private func enqueue(_ line: Int) {
        lineState[line] = .pending
        if lines[line].urgent { urgentQueue.append(line) } else { ordinaryQueue.append(line) }
        if let m = lines[line].maneuver { pendingByManeuver[m] = line }
    }

    private func unqueue(_ line: Int) {
        urgentQueue.removeAll { $0 == line }
        ordinaryQueue.removeAll { $0 == line }
        if let m = lines[line].maneuver, pendingByManeuver[m] == line { pendingByManeuver[m] = nil }
    }

    private func startLine(_ line: Int) {
        lineState[line] = .playing
        playingLine = line
        onDecision(.playLine(line, untilMs: now + lines[line].durationMs))
    }

    private func activate(_ reply: Int) {
        active = reply
        overAtMs[reply] = now
        onDecision(.activateReply(reply))
    }

    private func nextReply() {
        active = nil
        if !replyQueue.isEmpty { activate(replyQueue.removeFirst()) }
    }

    /// Past the stretch just over: the next one, or the reply is done.
    private func moveOn(_ reply: Int) {
        nextStretch[reply] += 1
        overAtMs[reply] = now
        if nextStretch[reply] == replies[reply].upperBound {
            onDecision(.replyDone(reply))
            nextReply()
        }
    }

    private func cut(_ p: (reply: Int, stretch: Int, start: Int64, end: Int64), by line: Int, rule: String) {
        playing = nil
        onDecision(.cutStretch(reply: p.reply, stretch: p.stretch, rule: rule, by: .line(line), playedMs: now - p.start, afterCut: afterCut))
        overAtMs[p.reply] = now
        switch afterCut {
        case "skip": moveOn(p.reply)
        case "drop":
            onDecision(.abandonReply(p.reply, rule: "after-cut"))
            nextReply()
        default: break  // repeat: the same stretch again, from its start
        }
    }

    private func startStretch(of reply: Int) -> Bool {
        let stretch = nextStretch[reply]
        guard let readyAt = readyAtMs[stretch] else { return false }
        let end = now + stretchMs[stretch]
        playing = (reply, stretch, now, end)
        let held = now - max(readyAt, overAtMs[reply])
        onDecision(.playStretch(reply: reply, stretch: stretch, untilMs: end, heldMs: held > 0 ? held : nil))
        return true
    }
}
