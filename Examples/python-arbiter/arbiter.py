#!/usr/bin/env python3
"""A complete talk arbiter of SPEC 4 in Python, speaking drivesim's arbiter
protocol (docs/arbiter-protocol.md) over standard input and output.

    drivesim check Scenarios --arbiter "python3 Examples/python-arbiter/arbiter.py"
    drivesim fuzz --runs 500 --arbiter "python3 Examples/python-arbiter/arbiter.py"

    --break short-wait   wait for a stretch only with strictly less than waitLimit
                         left (SPEC says at most), to see what a wrong arbiter gets
    --break eager-stretch
                         start a waiting stretch on its chunkReady input instead of
                         in the settle step: the timeline mostly looks right, the
                         decisions do not (only the differential sees it)

Standard library only. One line of JSON in, at most one line of JSON out
(an instant's inputs in one message, their actions in one answer; a whole
run's instants in one `run` message, their answers in one line); anything
for a human goes to standard error.
"""

import json
import os
import sys

PROTOCOL = 4


class Arbiter:
    """SPEC 4.1's rules and 4.2's instant; a port of drivesim's TalkArbiter."""

    def __init__(self, tables, broken):
        s = tables["settings"]
        self.ears_tail = s["earsTail"]
        self.wait_limit = s["waitLimit"]
        self.after_cut = s["afterCut"]
        self.lines = tables["lines"]
        self.replies = tables["replies"]          # [first, end) stretch index ranges
        self.durations = tables["stretches"]
        self.broken = broken
        self.talk = None            # None | ["waiting", r, next] | ["held", r, next, since] | ["playing", r, k, start, end]
        self.playing_line = None
        self.urgent = []            # pending urgent lines, in order
        self.ordinary = []          # pending ordinary lines, in order
        self.ears = "open"          # "open" | "closed" | until (an int: the tail's end)
        self.ears_recorded_open = True
        self.waiting_replies = []
        self.dad = None
        self.progress = ["idle"] * len(self.lines)
        self.ready = [False] * len(self.durations)

    # -- helpers
    def busy(self):
        return self.playing_line is not None or bool(self.urgent or self.ordinary)

    def ears_open(self, now):
        return self.ears == "open" or (self.ears != "closed" and now >= self.ears)

    def queues_as_urgent(self, line):
        return self.lines[line]["urgent"]

    def unqueue(self, line):
        (self.urgent if self.queues_as_urgent(line) else self.ordinary).remove(line)

    def waits(self, remaining):
        if self.broken == "short-wait":
            return remaining < self.wait_limit
        return remaining <= self.wait_limit

    def start_line(self, line, now, out):
        self.playing_line = line
        self.ears = "closed"
        self.progress[line] = "playing"
        out.append({"do": "lineStarted", "line": line, "endsAt": now + self.lines[line]["duration"]})

    def start_stretch(self, stretch, reply, now, out):
        end = now + self.durations[stretch]
        held = now - self.talk[3] if self.talk[0] == "held" else None
        self.talk = ["playing", reply, stretch, now, end]
        out.append({"do": "stretchStarted", "reply": reply, "stretch": stretch, "endsAt": end, "held": held})

    def cut_stretch(self, by, rule, now, out):
        if not self.talk or self.talk[0] != "playing":
            return
        _, reply, stretch, start, _ = self.talk
        self.talk = ["waiting", reply, stretch]
        by_line = "line" in by
        out.append({"do": "stretchCut", "reply": reply, "stretch": stretch, "rule": rule, "by": by,
                    "played": now - start, "then": self.after_cut if by_line else None})
        if not by_line:
            return
        if self.after_cut == "skip":
            self.advance(reply, stretch, out)
        elif self.after_cut == "drop":
            self.finish(reply, "replyAbandoned", "after-cut", out)

    def advance(self, reply, stretch, out):
        if stretch + 1 == self.replies[reply][1]:
            self.finish(reply, "replyEnded", None, out)
        else:
            self.talk = ["waiting", reply, stretch + 1]

    def finish(self, reply, how, rule, out):
        action = {"do": how, "reply": reply}
        if rule:
            action["rule"] = rule
        out.append(action)
        self.talk = None
        if self.waiting_replies:
            nxt = self.waiting_replies.pop(0)
            self.talk = ["waiting", nxt, self.replies[nxt][0]]
            out.append({"do": "replyBegan", "reply": nxt})

    # -- inputs, step 1: completions
    def lineEnded(self, line, now, out):
        if self.playing_line != line:
            return
        self.playing_line = None
        self.progress[line] = "done"
        out.append({"do": "lineEnded", "line": line})
        reopen = now + self.ears_tail
        if reopen > now:
            self.ears = reopen
            out.append({"do": "wake", "at": reopen})
        else:
            self.ears = "open"

    def stretchEnded(self, stretch, now, out):
        t = self.talk
        if not t or t[0] != "playing" or t[2] != stretch or t[4] != now:
            return
        out.append({"do": "stretchEnded", "reply": t[1], "stretch": stretch})
        self.advance(t[1], stretch, out)

    def dadEnded(self, utterance, now, out):
        if self.dad == utterance:
            self.dad = None

    def earsTimer(self, _, now, out):
        self.reopen_if_due(now)

    # -- inputs, step 2: arrivals
    def lineExpired(self, line, now, out):
        if self.progress[line] != "pending" or self.lines[line]["expires"] != now:
            return
        self.unqueue(line)
        self.progress[line] = "done"
        out.append({"do": "lineDropped", "line": line, "rule": "stale"})

    def lineRequested(self, line, now, out):
        if self.progress[line] != "idle":
            return
        request = self.lines[line]
        maneuver = request["maneuver"]
        if maneuver is not None:
            for queue in (self.urgent, self.ordinary):
                for queued in list(queue):
                    if self.lines[queued]["maneuver"] == maneuver:
                        queue.remove(queued)
                        self.progress[queued] = "done"
                        out.append({"do": "lineDropped", "line": queued, "rule": "superseded"})
        self.progress[line] = "pending"
        t = self.talk
        if t and t[0] == "playing":
            if request["urgent"]:
                self.cut_stretch({"line": line}, "urgent-cut", now, out)
                self.start_line(line, now, out)
            elif self.waits(t[4] - now):
                self.ordinary.append(line)
                out.append({"do": "lineWaiting", "line": line, "rule": "short-wait", "stretch": t[2]})
            else:
                self.cut_stretch({"line": line}, "long-cut", now, out)
                self.start_line(line, now, out)
        else:
            queues = self.busy()
            (self.urgent if request["urgent"] else self.ordinary).append(line)
            if queues:
                out.append({"do": "lineWaiting", "line": line, "rule": "guidance-queue", "stretch": None})

    def replyBegan(self, reply, now, out):
        if self.talk is None:
            self.talk = ["waiting", reply, self.replies[reply][0]]
            out.append({"do": "replyBegan", "reply": reply})
        else:
            self.waiting_replies.append(reply)
            out.append({"do": "replyQueued", "reply": reply})

    def chunkReady(self, stretch, now, out):
        self.ready[stretch] = True
        t = self.talk
        if self.broken == "eager-stretch" and t and t[0] == "waiting" and t[2] == stretch and not self.busy():
            self.start_stretch(stretch, t[1], now, out)

    def dadStarted(self, utterance, now, out):
        self.dad = utterance

    # -- steps 3 and 4
    def end_instant(self, now, out):
        while True:
            playing = self.talk is not None and self.talk[0] == "playing"
            if not playing and self.playing_line is None and (self.urgent or self.ordinary):
                line = (self.urgent or self.ordinary).pop(0)
                self.start_line(line, now, out)
                continue
            if self.dad is not None and self.talk is not None and self.ears_open(now):
                reply = self.talk[1]
                self.cut_stretch({"utterance": self.dad}, "barge-in", now, out)
                self.finish(reply, "replyAbandoned", "barge-in", out)
                continue
            t = self.talk
            if t and t[0] in ("waiting", "held") and not self.busy() and self.ready[t[2]]:
                self.start_stretch(t[2], t[1], now, out)
                continue
            break
        t = self.talk
        if t and t[0] == "waiting" and self.busy() and self.ready[t[2]]:
            self.talk = ["held", t[1], t[2], now]
        self.reopen_if_due(now)
        is_open = self.ears_open(now)
        if is_open != self.ears_recorded_open:
            self.ears_recorded_open = is_open
            out.append({"do": "earsOpened" if is_open else "earsClosed"})

    def reopen_if_due(self, now):
        if self.ears not in ("open", "closed") and now >= self.ears:
            self.ears = "open"

    def idle(self):
        return not self.busy() and self.talk is None and not self.waiting_replies


INPUTS = {"lineEnded", "stretchEnded", "dadEnded", "earsTimer", "lineExpired", "lineRequested",
          "replyBegan", "chunkReady", "dadStarted"}


def instant(arbiter, message):
    """An instant's revisions, inputs and maybe its end: one answer for all
    (its `each`, and `end` and `idle` if it ended the instant)."""
    now = message["t"]
    for line, duration in message.get("revise", ()):
        # A waiting line re-phrased for the position now: it lasts this long if it starts from now on.
        if arbiter.progress[line] not in ("playing", "done"):
            arbiter.lines[line]["duration"] = duration
    each = []
    for kind, index in message["inputs"]:
        if kind not in INPUTS:
            raise ValueError("unknown input %r" % kind)
        actions = []
        getattr(arbiter, kind)(index, now, actions)
        each.append(actions)
    answer = {"each": each}
    if message.get("end", True):
        actions = []
        arbiter.end_instant(now, actions)
        answer["end"] = actions
        answer["idle"] = arbiter.idle()
    return answer


def compact_encoder():
    """json.dumps(o, separators=(",", ":")), with the C encoder made once
    rather than once a call (a third of this arbiter's time otherwise).
    With the keys in the order the protocol lists them (as every dict here
    is built), that is the canonical answer, which drivesim checks without
    parsing it (docs/arbiter-protocol.md)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return json.JSONEncoder(separators=(",", ":")).encode

    def default(o):
        raise TypeError("cannot encode %r" % (o,))
    encode = make(None, default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    return lambda o: "".join(encode(o, 0))


def main():
    broken = None
    args = sys.argv[1:]
    if args[:1] == ["--break"] and len(args) == 2 and args[1] in ("short-wait", "eager-stretch"):
        broken = args[1]
    elif args:
        sys.stderr.write("usage: arbiter.py [--break short-wait|eager-stretch]\n")
        return 2
    arbiter = None
    decode = json.JSONDecoder().raw_decode
    encode = compact_encoder()
    pending = b""
    while True:
        # Every message that has come in, then their answers in one write:
        # drivesim may send a whole run at once (docs/arbiter-protocol.md).
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return 0
        *lines, pending = (pending + chunk).split(b"\n")
        answers = []
        for raw in lines:
            message = decode(raw.decode())[0]
            kind = message["type"]
            if kind == "instant":
                answers.append(encode({"type": "actions", **instant(arbiter, message)}))
            elif kind == "run":
                # A whole run's instants, in order, each as if it came alone: their answers in one line.
                answers.append(encode({"type": "actions", "instants": [instant(arbiter, m) for m in message["instants"]]}))
            elif kind == "tables":
                arbiter = Arbiter(message, broken)
            elif kind == "hello":
                answers.append(encode({"type": "hello", "protocol": PROTOCOL}))
            else:
                sys.stderr.write("arbiter.py: unknown message %r\n" % raw)
                return 1
        if answers:
            out = ("\n".join(answers) + "\n").encode()
            while out:
                out = out[os.write(1, out):]


if __name__ == "__main__":
    sys.exit(main())
