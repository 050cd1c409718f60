import Guidance
import SimClock
import SimRunner
import TalkArbiter

/// Every small talk scenario on a grid of the rules' boundaries
/// (`drivesim explore --scope N`, docs/explore.md), in the manner of
/// SmallCheck and bounded model checking: where `Fuzzer` samples, this
/// enumerates, so that "scope 3: N scenarios, 0 failures" means none is left
/// on the grid.
///
/// A scenario of the grid is a settings variant and up to `scope` items in
/// canonical order. The first item is at 0 (a scenario shifted in time is
/// the same collision); each next item goes at an instant of the reference
/// arbiter's run of the items before it plus an offset of `Explorer.grid`
/// (a stretch's end less `waitLimit` ± 1 ms, the ears' reopening ± 1 ms, the
/// same instant, …), never before the item before it. Items in the order
/// (time, piece, expiry) are generated once each, so the same multiset is
/// never run twice; a settings variant is run only where it can change
/// something (`Variant.needs`). Pure and deterministic: the same counts on
/// every machine.
package enum Explorer {
    // MARK: The grid

    /// What an item is: the grid's alphabet. At one instant, items go in this
    /// order (a scenario lists its lines, replies and utterances by time, then this).
    package enum Piece: Int, CaseIterable, Sendable, Comparable {
        /// An ordinary guidance line.
        case line
        /// An urgent guidance line.
        case urgentLine
        /// An ordinary line for maneuver `m1` (a later one supersedes it while it is pending).
        case lineForManeuver
        /// An urgent line for maneuver `m1`.
        case urgentLineForManeuver
        /// An ordinary line that expires (`expires` from the grid's `.expires` rows).
        case expiringLine
        /// A reply of one stretch.
        case reply
        /// A reply of two stretches, the second's chunk ready 1 ms before the first would end.
        case replyChunkBefore
        /// The same, the chunk ready the instant the first would end.
        case replyChunkAt
        /// The same, the chunk ready 1 ms after (the reply waits for it).
        case replyChunkAfter
        /// Dad speaks, and gets no answer.
        case utterance
        /// Dad speaks, and Pippa answers the instant he stops (one stretch), if she heard him.
        case answeredUtterance

        /// In declaration order.
        package static func < (a: Piece, b: Piece) -> Bool { a.rawValue < b.rawValue }

        /// Its name in reports, in kebab case.
        package var name: String {
            switch self {
            case .line: return "line"
            case .urgentLine: return "urgent-line"
            case .lineForManeuver: return "line-for-m1"
            case .urgentLineForManeuver: return "urgent-line-for-m1"
            case .expiringLine: return "expiring-line"
            case .reply: return "reply"
            case .replyChunkBefore: return "reply-chunk-before"
            case .replyChunkAt: return "reply-chunk-at"
            case .replyChunkAfter: return "reply-chunk-after"
            case .utterance: return "utterance"
            case .answeredUtterance: return "answered-utterance"
            }
        }

        var isLine: Bool { rawValue <= Piece.expiringLine.rawValue }
        var isUtterance: Bool { self == .utterance || self == .answeredUtterance }
        var hasReply: Bool { (Piece.reply...Piece.replyChunkAfter).contains(self) || self == .answeredUtterance }
    }

    /// Every guidance line lasts this long.
    package static let lineDuration = SimTime(ms: 1_000)
    /// Every stretch lasts this long: more than the default `waitLimit` + 1 ms,
    /// so both sides of the limit fall inside one.
    package static let stretchDuration = SimTime(ms: 4_000)
    /// Every utterance lasts this long.
    package static let utteranceDuration = SimTime(ms: 1_000)

    /// An instant of the run of the items placed so far, that a placement counts from.
    package enum Anchor: String, Sendable {
        /// An item's `at` (a line requested, a reply begins, Dad starts).
        case begins = "an item's at"
        /// A stretch's end as scheduled when it started (its start plus its duration).
        case stretchEnds = "a stretch's end"
        /// A guidance line ends.
        case lineEnds = "a line's end"
        /// An utterance ends (Dad's reply begins).
        case utteranceEnds = "an utterance's end"
    }

    /// What a placement gives: the next item's `at`, or an expiring line's `expires`.
    package enum Use: String, Sendable {
        /// Where the next item goes.
        case at
        /// Where an expiring line's `expires` goes (later than its `at`).
        case expires
    }

    /// An offset in the settings' units: `waitLimits × waitLimit + earsTails × earsTail + ms`.
    package struct Offset: Sendable, Equatable {
        /// How many wait limits.
        package var waitLimits: Int64 = 0
        /// How many ears' tails.
        package var earsTails: Int64 = 0
        /// And milliseconds.
        package var ms: Int64 = 0

        /// The offset under `settings`.
        package func value(_ settings: Scenario.Settings) -> SimTime {
            SimTime(ms: waitLimits * settings.waitLimit.ms + earsTails * settings.earsTail.ms + ms)
        }

        /// `-waitLimit+1ms`, `+earsTail-1ms`, `0`.
        package var description: String {
            var out = ""
            if waitLimits != 0 {
                out += (waitLimits < 0 ? "-" : "+") + (abs(waitLimits) == 1 ? "" : "\(abs(waitLimits))×") + "waitLimit"
            }
            if earsTails != 0 {
                out += (earsTails < 0 ? "-" : "+") + (abs(earsTails) == 1 ? "" : "\(abs(earsTails))×") + "earsTail"
            }
            if ms != 0 || out.isEmpty { out += (ms < 0 ? "-" : out.isEmpty ? "" : "+") + "\(abs(ms))ms" }
            return out
        }
    }

    /// One row of the grid.
    package struct Placement: Sendable {
        /// What it places.
        package var use: Use
        /// What it counts from.
        package var anchor: Anchor
        /// How far from it.
        package var offset: Offset
        /// The rule's boundary it puts an item on.
        package var probes: String
    }

    /// The grid: every instant where the next item may go, or an expiring
    /// line may expire, as an offset from an instant of the reference's run
    /// of the items before it. Each row is one boundary of SPEC 4.1 (its
    /// `≤`/`>` or its tie of step 4.2), with the millisecond either side where
    /// the rule is written with a comparison.
    package static let grid: [Placement] = [
        // use       anchor          offset                                  the boundary it probes
        .init(
            use: .at, anchor: .begins, offset: Offset(),
            probes: "the same instant: superseded, reply-queue, file order, guidance vs Pippa"),
        .init(
            use: .at, anchor: .stretchEnds, offset: Offset(waitLimits: -1, ms: -1),
            probes: "waitLimit + 1 ms left: long-cut"),
        .init(
            use: .at, anchor: .stretchEnds, offset: Offset(waitLimits: -1), probes: "exactly waitLimit left: short-wait"
        ),
        .init(
            use: .at, anchor: .stretchEnds, offset: Offset(waitLimits: -1, ms: 1),
            probes: "waitLimit - 1 ms left: short-wait"),
        .init(
            use: .at, anchor: .stretchEnds, offset: Offset(),
            probes: "the millisecond a stretch ends: the bus is free; a chunk awaited"),
        .init(
            use: .at, anchor: .lineEnds, offset: Offset(),
            probes: "the millisecond a line ends: held, guidance-queue, ears"),
        .init(
            use: .at, anchor: .lineEnds, offset: Offset(earsTails: 1, ms: -1),
            probes: "1 ms before the ears reopen: Dad lost"),
        .init(
            use: .at, anchor: .lineEnds, offset: Offset(earsTails: 1), probes: "the instant the ears reopen: Dad heard"),
        .init(use: .at, anchor: .lineEnds, offset: Offset(earsTails: 1, ms: 1), probes: "1 ms after the ears reopen"),
        .init(use: .at, anchor: .utteranceEnds, offset: Offset(), probes: "the instant Dad's answer begins"),
        .init(
            use: .expires, anchor: .stretchEnds, offset: Offset(),
            probes: "expires the instant short-wait would start it: stale"),
        .init(use: .expires, anchor: .stretchEnds, offset: Offset(ms: 1), probes: "1 ms later: it plays"),
        .init(
            use: .expires, anchor: .lineEnds, offset: Offset(),
            probes: "expires the instant guidance-queue would start it: stale"),
        .init(use: .expires, anchor: .lineEnds, offset: Offset(ms: 1), probes: "1 ms later: it plays"),
    ]

    /// What a settings variant can change, so it is run only on scenarios that have it.
    package enum Feature: Sendable {
        /// A guidance line.
        case line
        /// A reply (Pippa's, or an answer to Dad).
        case reply
    }

    /// One of the settings the grid is run under.
    package struct Variant: Sendable {
        /// Its name in reports.
        package var name: String
        /// The settings.
        package var settings: Scenario.Settings
        /// What a scenario must have for these settings to differ from the defaults' run of it.
        package var needs: [Feature]
    }

    /// The settings variants: SPEC 3's defaults, each other `afterCut`, and
    /// each numeric setting at 0 (the ears reopen the instant a line ends;
    /// no stretch is short enough to wait for).
    package static let variants: [Variant] = [
        Variant(name: "defaults", settings: Scenario.Settings(), needs: []),
        Variant(name: "afterCut skip", settings: Scenario.Settings(afterCut: .skip), needs: [.line, .reply]),
        Variant(name: "afterCut drop", settings: Scenario.Settings(afterCut: .drop), needs: [.line, .reply]),
        Variant(name: "earsTail 0", settings: Scenario.Settings(earsTail: .zero), needs: [.line]),
        Variant(name: "waitLimit 0", settings: Scenario.Settings(waitLimit: .zero), needs: [.line, .reply]),
    ]

    // MARK: Points

    /// One item placed on the grid.
    package struct Item: Sendable, Equatable, Comparable {
        /// What it is.
        package var piece: Piece
        /// When.
        package var at: SimTime
        /// An expiring line's expiry.
        package var expires: SimTime?

        /// The canonical order: by time, then piece, then expiry.
        package static func < (a: Item, b: Item) -> Bool {
            (a.at.ms, a.piece.rawValue, a.expires?.ms ?? -1) < (b.at.ms, b.piece.rawValue, b.expires?.ms ?? -1)
        }
    }

    /// A scenario of the grid: a settings variant and items in canonical order.
    package struct Point: Sendable, Equatable {
        /// Its index into `variants`.
        package var variant: Int
        /// Its items, in canonical order.
        package var items: [Item]

        /// Whether its settings variant can change anything in it.
        package var isRelevant: Bool {
            Explorer.variants[variant].needs.allSatisfy { feature in
                switch feature {
                case .line: return items.contains { $0.piece.isLine }
                case .reply: return items.contains { $0.piece.hasReply }
                }
            }
        }

        /// The scenario: lines `g1…`, replies `r1…` (stretches `s1…`),
        /// utterances `u1…` (answers `a1…`), each list in canonical order.
        package func scenario(name: String) -> Scenario {
            var scenario = Scenario(name: name, settings: Explorer.variants[variant].settings)
            var stretches = 0
            func stretch(ready: SimTime = .zero) -> Scenario.Stretch {
                stretches += 1
                return Scenario.Stretch(id: "s\(stretches)", duration: Explorer.stretchDuration, ready: ready)
            }
            for item in items {
                let line = "g\(scenario.guidance.count + 1)"
                let reply = "r\(scenario.replies.count + 1)"
                switch item.piece {
                case .line, .urgentLine, .lineForManeuver, .urgentLineForManeuver, .expiringLine:
                    scenario.guidance.append(
                        GuidanceLine(
                            id: line, at: item.at, duration: Explorer.lineDuration,
                            urgent: item.piece == .urgentLine || item.piece == .urgentLineForManeuver,
                            maneuver: item.piece == .lineForManeuver || item.piece == .urgentLineForManeuver
                                ? "m1" : nil,
                            expires: item.expires))
                case .reply:
                    scenario.replies.append(Scenario.Reply(id: reply, at: item.at, stretches: [stretch()]))
                case .replyChunkBefore, .replyChunkAt, .replyChunkAfter:
                    let shift: Int64 = item.piece == .replyChunkBefore ? -1 : item.piece == .replyChunkAt ? 0 : 1
                    let first = stretch()
                    scenario.replies.append(
                        Scenario.Reply(
                            id: reply, at: item.at,
                            stretches: [first, stretch(ready: Explorer.stretchDuration + SimTime(ms: shift))]))
                case .utterance, .answeredUtterance:
                    let n = scenario.dad.count + 1
                    let answer =
                        item.piece == .answeredUtterance ? Scenario.DadReply(id: "a\(n)", stretches: [stretch()]) : nil
                    scenario.dad.append(
                        Scenario.Utterance(
                            id: "u\(n)", at: item.at, duration: Explorer.utteranceDuration, language: .ko, reply: answer
                        ))
                }
            }
            return scenario
        }
    }

    /// The points of no items, one per settings variant: the root of the search.
    package static var roots: [Point] { variants.indices.map { Point(variant: $0, items: []) } }

    /// Every valid point of one more item than `parent` whose first items
    /// are `parent`'s, in canonical order (relevant to its settings or not:
    /// a point is a parent whatever its settings).
    /// - Complexity: one simulation of `parent`, and O(g·p) candidates, g
    ///   the grid's instants in that run and p the pieces.
    package static func children(of parent: Point) -> [Point] {
        let settings = variants[parent.variant].settings
        let last = parent.items.last
        // The first item is at 0; the next ones at the grid's instants of the run so far.
        let instants = last == nil ? Instants() : Instants(parent.scenario(name: "parent"))
        let times = last.map { instants.times(.at, settings: settings, from: $0.at) } ?? [.zero]
        let expiries = instants.times(.expires, settings: settings, from: .zero)
        var out: [Point] = []
        for t in times {
            for piece in Piece.allCases {
                let candidates: [SimTime?] = piece == .expiringLine ? expiries.filter { $0 > t } : [nil]
                for expires in candidates {
                    let item = Item(piece: piece, at: t, expires: expires)
                    if let last, item < last { continue }
                    guard dadIsFree(for: item, after: parent.items) else { continue }
                    var child = parent
                    child.items.append(item)
                    out.append(child)
                }
            }
        }
        return out
    }

    /// Whether Dad can say `item` after `items` (in canonical order): he has
    /// one voice, so an utterance may not start before the one before it
    /// ends. The only way a grid point could be invalid (SPEC 3), checked
    /// here without building the scenario.
    static func dadIsFree(for item: Item, after items: [Item]) -> Bool {
        guard item.piece.isUtterance, let previous = items.last(where: { $0.piece.isUtterance }) else { return true }
        return item.at >= previous.at + utteranceDuration
    }

    /// The instants of the reference arbiter's run of some items that the grid counts from.
    struct Instants {
        var begins: [SimTime] = []
        var stretchEnds: [SimTime] = []
        var lineEnds: [SimTime] = []
        var utteranceEnds: [SimTime] = []

        init() {}

        init(_ scenario: Scenario) {
            begins = scenario.guidance.map(\.at) + scenario.replies.map(\.at) + scenario.dad.map(\.at)
            let timeline = Simulation(scenario, fault: nil).timeline
            for event in timeline.events {
                switch event.what {
                case .stretchStarted(_, let stretch, _):
                    stretchEnds.append(event.t + timeline.roster.stretches[stretch.int].duration)
                case .guidanceEnded: lineEnds.append(event.t)
                case .dadEnded: utteranceEnds.append(event.t)
                default: continue
                }
            }
        }

        /// The grid's instants for `use`, at or after `from`, sorted, each once.
        func times(_ use: Use, settings: Scenario.Settings, from: SimTime) -> [SimTime] {
            var out: [SimTime] = []
            for row in Explorer.grid where row.use == use {
                let anchors: [SimTime]
                switch row.anchor {
                case .begins: anchors = begins
                case .stretchEnds: anchors = stretchEnds
                case .lineEnds: anchors = lineEnds
                case .utteranceEnds: anchors = utteranceEnds
                }
                out += anchors.map { $0 + row.offset.value(settings) }.filter { $0 >= from && $0 >= .zero }
            }
            var seen: [SimTime] = []
            for t in out.sorted() where seen.last != t { seen.append(t) }
            return seen
        }
    }
}
