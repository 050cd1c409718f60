import ScenarioFormat
import SimClock
import SimRunner
import TalkArbiter

/// The protocol's messages, written straight into one byte buffer (no
/// string per message), and the canonical form of an answer
/// (docs/arbiter-protocol.md, "The canonical answer"): an answer line
/// byte for byte equal to the canonical form of the answer drivesim
/// foretold is that answer, and is not parsed.
extension ArbiterProcess {
    /// The `tables` message of a run.
    package static func encode(_ tables: ArbiterTables, into out: inout [UInt8]) {
        let s = tables.settings
        out.append(utf8: "{\"type\":\"tables\",\"settings\":{\"afterCut\":\"")
        out.append(utf8: s.afterCut.rawValue)
        out.append(utf8: "\",\"earsTail\":")
        out.append(int: s.earsTail.ms)
        out.append(utf8: ",\"waitLimit\":")
        out.append(int: s.waitLimit.ms)
        out.append(utf8: "},\"lines\":[")
        for (i, line) in tables.lines.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(utf8: "{\"duration\":")
            out.append(int: line.duration.ms)
            out.append(utf8: ",\"expires\":")
            if let expires = line.expires { out.append(int: expires.ms) } else { out.append(utf8: "null") }
            out.append(utf8: ",\"maneuver\":")
            if let maneuver = line.maneuver { out.append(int: Int64(maneuver)) } else { out.append(utf8: "null") }
            out.append(utf8: line.urgent ? ",\"urgent\":true}" : ",\"urgent\":false}")
        }
        out.append(utf8: "],\"replies\":[")
        for (i, reply) in tables.replies.enumerated() {
            out.append(utf8: i > 0 ? ",[" : "[")
            out.append(int: Int64(reply.stretches.lowerBound))
            out.append(UInt8(ascii: ","))
            out.append(int: Int64(reply.stretches.upperBound))
            out.append(UInt8(ascii: "]"))
        }
        out.append(utf8: "],\"stretches\":[")
        for (i, duration) in tables.stretchDurations.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(int: duration.ms)
        }
        out.append(utf8: "],\"utterances\":")
        out.append(int: Int64(tables.utterances))
        out.append(UInt8(ascii: "}"))
    }

    /// An `instant` message: `revise` only when there are revisions,
    /// `"end":false` only when the instant does not end with it. Not
    /// `typed`: the same without `type`, an instant of a `run` message.
    package static func encode(_ message: BatchMessage, typed: Bool = true, into out: inout [UInt8]) {
        out.append(utf8: typed ? "{\"type\":\"instant\",\"t\":" : "{\"t\":")
        out.append(int: message.t.ms)
        if !message.revisions.isEmpty {
            out.append(utf8: ",\"revise\":[")
            for (i, r) in message.revisions.enumerated() {
                out.append(utf8: i > 0 ? ",[" : "[")
                out.append(int: Int64(r.line))
                out.append(UInt8(ascii: ","))
                out.append(int: r.duration.ms)
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(utf8: ",\"inputs\":[")
        for (i, input) in message.inputs.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            encode(input, into: &out)
        }
        out.append(utf8: message.ends ? "]}" : "],\"end\":false}")
    }

    /// A `run` message: every instant of a run foretold, in order, each
    /// as its own `instant` message would say it (without `type`).
    package static func encodeRun(_ messages: [BatchMessage], into out: inout [UInt8]) {
        encodeInstants(of: "run", messages, into: &out) { encode($0, typed: false, into: &$1) }
    }

    /// The canonical answer to a `run` message of `messages`: each
    /// instant's canonical answer without `type`, in order.
    package static func encodeRunAnswer(_ messages: [BatchMessage], into out: inout [UInt8]) {
        encodeInstants(of: "actions", messages, into: &out) { encodeAnswer($0, typed: false, into: &$1) }
    }

    /// `{"type":TYPE,"instants":[...]}`, one item per message, written by `item`.
    private static func encodeInstants(
        of type: String, _ messages: [BatchMessage], into out: inout [UInt8],
        _ item: (BatchMessage, inout [UInt8]) -> Void
    ) {
        out.append(utf8: "{\"type\":\"\(type)\",\"instants\":[")
        for (i, message) in messages.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            item(message, &out)
        }
        out.append(utf8: "]}")
    }

    /// `["kind",index]`, index null for the ears' timer.
    package static func encode(_ input: ArbiterInput, into out: inout [UInt8]) {
        func indexed(_ kind: String, _ i: Int) {
            out.append(utf8: "[\"")
            out.append(utf8: kind)
            out.append(utf8: "\",")
            out.append(int: Int64(i))
            out.append(UInt8(ascii: "]"))
        }
        switch input {
        case .lineEnded(let i): indexed("lineEnded", i)
        case .stretchEnded(let i): indexed("stretchEnded", i)
        case .dadEnded(let i): indexed("dadEnded", i)
        case .earsTimer: out.append(utf8: "[\"earsTimer\",null]")
        case .lineExpired(let i): indexed("lineExpired", i)
        case .lineRequested(let i): indexed("lineRequested", i)
        case .replyBegan(let i): indexed("replyBegan", i)
        case .chunkReady(let i): indexed("chunkReady", i)
        case .dadStarted(let i): indexed("dadStarted", i)
        case .endOfInstant: out.append(utf8: "[\"endInstant\",null]")
        }
    }

    /// `["kind",index]` as text, for failure reports.
    package static func encode(_ input: ArbiterInput) -> String {
        var out: [UInt8] = []
        encode(input, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The canonical answer to `message` (its `each`, and `end` and `idle`
    /// when it ends the instant): compact, keys in the documented order.
    /// Not `typed`: without `type`, an instant's answer within a run's.
    package static func encodeAnswer(_ message: BatchMessage, typed: Bool = true, into out: inout [UInt8]) {
        out.append(utf8: typed ? "{\"type\":\"actions\",\"each\":[" : "{\"each\":[")
        for (i, list) in message.each.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            encode(list, into: &out)
        }
        guard message.ends else {
            out.append(utf8: "]}")
            return
        }
        out.append(utf8: "],\"end\":")
        encode(message.end, into: &out)
        out.append(utf8: message.idle ? ",\"idle\":true}" : ",\"idle\":false}")
    }

    /// An action list, canonical.
    package static func encode(_ actions: [TalkArbiter.Action], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, action) in actions.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            encode(action, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// One action, canonical: `do` first, then its fields in the documented order.
    package static func encode(_ action: TalkArbiter.Action, into out: inout [UInt8]) {
        func start(_ kind: String) {
            out.append(utf8: "{\"do\":\"")
            out.append(utf8: kind)
            out.append(UInt8(ascii: "\""))
        }
        func field(_ key: String, _ value: Int64?) {
            out.append(utf8: ",\"")
            out.append(utf8: key)
            out.append(utf8: "\":")
            if let value { out.append(int: value) } else { out.append(utf8: "null") }
        }
        func field(_ key: String, text: String?) {
            out.append(utf8: ",\"")
            out.append(utf8: key)
            out.append(utf8: "\":")
            if let text {
                out.append(UInt8(ascii: "\""))
                out.append(utf8: text)
                out.append(UInt8(ascii: "\""))
            } else {
                out.append(utf8: "null")
            }
        }
        func int(_ i: Int) -> Int64 { Int64(i) }
        switch action {
        case .lineWaiting(let line, let rule, let stretch):
            start("lineWaiting")
            field("line", int(line))
            field("rule", text: rule.rule.rawValue)
            field("stretch", stretch.map(int))
        case .lineStarted(let line, let end):
            start("lineStarted")
            field("line", int(line))
            field("endsAt", end.ms)
        case .lineEnded(let line):
            start("lineEnded")
            field("line", int(line))
        case .lineDropped(let line, let rule):
            start("lineDropped")
            field("line", int(line))
            field("rule", text: rule.rule.rawValue)
        case .replyQueued(let reply):
            start("replyQueued")
            field("reply", int(reply))
        case .replyBegan(let reply):
            start("replyBegan")
            field("reply", int(reply))
        case .stretchStarted(let reply, let stretch, let end, let held):
            start("stretchStarted")
            field("reply", int(reply))
            field("stretch", int(stretch))
            field("endsAt", end.ms)
            field("held", held?.ms)
        case .stretchEnded(let reply, let stretch):
            start("stretchEnded")
            field("reply", int(reply))
            field("stretch", int(stretch))
        case .stretchCut(let reply, let stretch, let rule, let by, let played, let then):
            start("stretchCut")
            field("reply", int(reply))
            field("stretch", int(stretch))
            field("rule", text: rule.rule.rawValue)
            switch by {
            case .line(let n):
                out.append(utf8: ",\"by\":{\"line\":")
                out.append(int: int(n))
            case .utterance(let n):
                out.append(utf8: ",\"by\":{\"utterance\":")
                out.append(int: int(n))
            }
            out.append(UInt8(ascii: "}"))
            field("played", played.ms)
            field("then", text: then?.rawValue)
        case .replyEnded(let reply):
            start("replyEnded")
            field("reply", int(reply))
        case .replyAbandoned(let reply, let rule):
            start("replyAbandoned")
            field("reply", int(reply))
            field("rule", text: rule.rule.rawValue)
        case .earsClosed: start("earsClosed")
        case .earsOpened: start("earsOpened")
        case .wake(let at):
            start("wake")
            field("at", at.ms)
        }
        out.append(UInt8(ascii: "}"))
    }
}
