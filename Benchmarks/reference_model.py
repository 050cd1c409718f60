#!/usr/bin/env python3
"""A reference model of drivesim's talk arbiter, written from /work/shared/SPEC.md.

    python3 Benchmarks/reference_model.py SCENARIO.json

prints the same bytes as `drivesim run SCENARIO.json --format json` and exits
0 when every expectation (SPEC 6), invariant 1-6 (SPEC 7) and the golden
timeline hold, 1 (failures on standard error) when one does not, 2 when the
scenario cannot be used.

It covers the core scenario format (SPEC 3: settings, guidance, replies, dad,
expect; a `road` section is refused), the arbiter to the millisecond (SPEC 4,
with the instant's steps of 4.2), the timeline JSON (SPEC 5) and drivesim's
documented extras and readings (docs/rules.md, docs/timeline.md).

It is deliberately straightforward: plain classes, one heapq event queue,
no optimisation. It is the Python baseline of issue 8's speed target and an
independent model for differential checks. Standard library only.
"""

import bisect
import heapq
import json
import os
import sys
from collections import deque
from decimal import Decimal
from fractions import Fraction

# ---------------------------------------------------------------------------
# Vocabulary

RULES = ["ears-closed", "urgent-cut", "short-wait", "long-cut", "guidance-queue", "superseded",
         "stale", "held", "after-cut", "barge-in", "reply-queue"]
LANGUAGES = ["ko", "en"]
AFTER_CUT = ["repeat", "skip", "drop"]

# Every talk event and the fields it may carry (SPEC 5 and docs/timeline.md's extras).
EVENT_FIELDS = {
    "guidance.requested": ["line", "urgent", "maneuver", "stage", "text", "language"],
    "guidance.waiting": ["line", "rule", "stretch"],
    "guidance.started": ["line", "text", "language"],
    "guidance.ended": ["line"],
    "guidance.dropped": ["line", "rule"],
    "talk.reply.queued": ["reply", "rule"],
    "talk.reply.began": ["reply"],
    "talk.stretch.started": ["reply", "stretch", "rule", "heldMs", "text", "language"],
    "talk.stretch.ended": ["reply", "stretch"],
    "talk.stretch.cut": ["reply", "stretch", "rule", "by", "playedMs", "afterCut"],
    "talk.reply.ended": ["reply"],
    "talk.reply.abandoned": ["reply", "rule"],
    "ears.closed": ["rule"],
    "ears.opened": [],
    "dad.started": ["utterance", "language", "text"],
    "dad.ended": ["utterance", "heardMs", "lostMs"],
}
# The fields SPEC 5 names; golden timelines are compared on these only.
SPEC_FIELDS = {
    "guidance.requested": ["line", "urgent"],
    "guidance.waiting": ["line", "rule", "stretch"],
    "guidance.started": ["line"],
    "guidance.ended": ["line"],
    "guidance.dropped": ["line", "rule"],
    "talk.reply.queued": ["reply", "rule"],
    "talk.reply.began": ["reply"],
    "talk.stretch.started": ["reply", "stretch"],
    "talk.stretch.ended": ["reply", "stretch"],
    "talk.stretch.cut": ["reply", "stretch", "rule", "by", "playedMs"],
    "talk.reply.ended": ["reply"],
    "talk.reply.abandoned": ["reply", "rule"],
    "ears.closed": [],
    "ears.opened": [],
    "dad.started": ["utterance", "language"],
    "dad.ended": ["utterance", "heardMs", "lostMs"],
}
INTEGER_FIELDS = {"playedMs", "heardMs", "lostMs", "heldMs"}
BOOLEAN_FIELDS = {"urgent"}

MAX_TIME_MS = 86_400_000      # a drive lasts at most 24 h
MAX_DURATION_MS = 3_600_000   # a single duration at most 1 h

# The phases of one instant (SPEC 4.2): completions, then arrivals.
LINE_ENDS, STRETCH_ENDS, DAD_ENDS, EARS_TIMER, LINE_STALE, LINE_REQUESTED, ARRIVAL = range(7)


class BadScenario(Exception):
    """The scenario cannot be used: `path` inside the file and the reason."""

    def __init__(self, path, reason):
        super().__init__(f"{path}: {reason}" if path else reason)


# ---------------------------------------------------------------------------
# The scenario (SPEC 3)

class Line:
    def __init__(self, index, id, at, duration, urgent, text, language, maneuver, expires):
        self.index, self.id, self.at, self.duration = index, id, at, duration
        self.urgent, self.text, self.language = urgent, text, language
        self.maneuver, self.expires = maneuver, expires
        self.state = "new"            # new, pending, playing, ended, dropped


class Stretch:
    def __init__(self, id, duration, ready, text, language):
        self.id, self.duration, self.ready = id, duration, ready
        self.text, self.language = text, language


class Reply:
    def __init__(self, id, at, stretches):
        self.id, self.at, self.stretches = id, at, stretches
        self.next = 0                 # index of the next stretch to play
        self.over_at = None           # when the previous stretch ended, or the reply became active


class Utterance:
    def __init__(self, id, at, duration, language, text, reply, after):
        self.id, self.at, self.duration = id, at, duration
        self.language, self.text = language, text
        self.reply, self.after = reply, after     # reply: a Reply without `at` yet
        self.heard = 0
        self.since = 0                # the start of the stretch of time not yet counted
        self.since_open = False       # the ears' state over it


class Matcher:
    def __init__(self, path, event, fields, at, between, count):
        self.path, self.event, self.fields = path, event, fields
        self.at, self.between, self.count = at, between, count

    def window_contains(self, t):
        if self.at is not None:
            return t == self.at
        if self.between is not None:
            return self.between[0] <= t <= self.between[1]
        return True

    def distance(self, t):
        if self.at is not None:
            return abs(t - self.at)
        if self.between is not None:
            a, b = self.between
            return a - t if t < a else (t - b if t > b else 0)
        return 0

    def describe(self):
        parts = [self.event]
        if self.at is not None:
            parts.append(f"at {fmt_time(self.at)}")
        if self.between is not None:
            parts.append(f"between {fmt_time(self.between[0])} and {fmt_time(self.between[1])}")
        parts += [f"{k}={json_value(v)}" for k, v in self.fields]
        if self.count is not None:
            parts.append(f"count {self.count}")
        return " ".join(parts)


class Scenario:
    def __init__(self):
        self.name = ""
        self.ears_tail, self.wait_limit, self.after_cut = 500, 3000, "repeat"
        self.lines, self.replies, self.utterances, self.matchers = [], [], [], []
        self.golden = None


def reject_duplicates(pairs):
    keys = set()
    for key, _ in pairs:
        if key in keys:
            raise BadScenario("", f"duplicate key \"{key}\"")
        keys.add(key)
    return dict(pairs)


def reject_constant(name):
    raise BadScenario("", f"{name} is not a JSON number")


def is_number(v):
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def check_keys(obj, path, allowed, required=()):
    if not isinstance(obj, dict):
        raise BadScenario(path, "expected an object")
    for key in obj:
        if key not in allowed:
            raise BadScenario(f"{path}.{key}" if path else key, "unknown key")
    for key in required:
        if key not in obj:
            raise BadScenario(path, f"missing required key \"{key}\"")


def milliseconds(value, path, limit):
    """Seconds as exact whole milliseconds; refused if negative, over `limit` or not whole."""
    if not is_number(value):
        raise BadScenario(path, "expected a number of seconds")
    seconds = Fraction(value)
    if seconds < 0:
        raise BadScenario(path, "must not be negative")
    ms = seconds * 1000
    if ms > limit:
        raise BadScenario(path, f"more than {limit // 1000} s")
    if ms.denominator != 1:
        raise BadScenario(path, "not a whole number of milliseconds")
    return int(ms)


def string(obj, key, path, choices=None, required=False):
    if key not in obj:
        if required:
            raise BadScenario(path, f"missing required key \"{key}\"")
        return None
    value = obj[key]
    if not isinstance(value, str):
        raise BadScenario(f"{path}.{key}", "expected a string")
    if choices is not None and value not in choices:
        raise BadScenario(f"{path}.{key}", f"unknown value \"{value}\"")
    return value


def identifier(obj, path, ids):
    value = string(obj, "id", path, required=True)
    if value == "":
        raise BadScenario(f"{path}.id", "an id must not be empty")
    if value in ids:
        raise BadScenario(f"{path}.id", f"duplicate id \"{value}\"")
    ids.add(value)
    return value


def a_list(obj, key, path):
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise BadScenario(f"{path}{key}", "expected a list")
    return value


def parse_stretches(obj, path, ids):
    items = obj.get("stretches")
    if not isinstance(items, list) or not items:
        raise BadScenario(f"{path}.stretches", "a reply needs at least one stretch")
    stretches = []
    for i, s in enumerate(items):
        p = f"{path}.stretches[{i}]"
        check_keys(s, p, ["id", "duration", "ready", "text", "language"], ["id", "duration"])
        duration = milliseconds(s["duration"], f"{p}.duration", MAX_DURATION_MS)
        if duration == 0:
            raise BadScenario(f"{p}.duration", "must be greater than zero")
        ready = milliseconds(s.get("ready", 0), f"{p}.ready", MAX_DURATION_MS)
        stretches.append(Stretch(identifier(s, p, ids), duration, ready,
                                 string(s, "text", p), string(s, "language", p, LANGUAGES)))
    return stretches


def load_scenario(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
        doc = json.loads(text, parse_float=Decimal, parse_int=int, parse_constant=reject_constant,
                         object_pairs_hook=reject_duplicates)
    except UnicodeDecodeError:
        raise BadScenario("", "not UTF-8")
    except json.JSONDecodeError as e:
        raise BadScenario("", f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}")
    if not isinstance(doc, dict):
        raise BadScenario("", "expected an object")
    if "drivesim" not in doc:
        raise BadScenario("", "missing required key \"drivesim\"")
    version = doc["drivesim"]
    if is_number(version) and isinstance(version, int) and version > 1:
        raise BadScenario("drivesim", f"this file is written for a newer drivesim (format {version}); "
                                      "this drivesim reads format 1")
    if version != 1 or not isinstance(version, int) or isinstance(version, bool):
        raise BadScenario("drivesim", "expected the integer 1")
    if "road" in doc:
        raise BadScenario("road", "the reference model simulates talk only, not the road")
    check_keys(doc, "", ["drivesim", "name", "description", "settings", "guidance", "replies",
                         "dad", "expect", "golden"], ["name"])
    sc = Scenario()
    sc.name = string(doc, "name", "", required=True)
    if sc.name == "":
        raise BadScenario("name", "must not be empty")
    string(doc, "description", "")
    sc.golden = string(doc, "golden", "")

    settings = doc.get("settings", {})
    check_keys(settings, "settings", ["earsTail", "waitLimit", "afterCut"])
    if "earsTail" in settings:
        sc.ears_tail = milliseconds(settings["earsTail"], "settings.earsTail", MAX_DURATION_MS)
    if "waitLimit" in settings:
        sc.wait_limit = milliseconds(settings["waitLimit"], "settings.waitLimit", MAX_DURATION_MS)
    sc.after_cut = string(settings, "afterCut", "settings", AFTER_CUT) or "repeat"

    ids = set()
    for i, g in enumerate(a_list(doc, "guidance", "")):
        p = f"guidance[{i}]"
        check_keys(g, p, ["id", "at", "duration", "urgent", "text", "language", "maneuver", "expires"],
                   ["id", "at", "duration"])
        line_id = identifier(g, p, ids)
        at = milliseconds(g["at"], f"{p}.at", MAX_TIME_MS)
        duration = milliseconds(g["duration"], f"{p}.duration", MAX_DURATION_MS)
        if duration == 0:
            raise BadScenario(f"{p}.duration", "must be greater than zero")
        urgent = g.get("urgent", False)
        if not isinstance(urgent, bool):
            raise BadScenario(f"{p}.urgent", "expected true or false")
        maneuver = string(g, "maneuver", p)
        if maneuver == "":
            raise BadScenario(f"{p}.maneuver", "must not be empty")
        expires = None
        if "expires" in g:
            expires = milliseconds(g["expires"], f"{p}.expires", MAX_TIME_MS)
            if expires <= at:
                raise BadScenario(f"{p}.expires", "must be later than at")
        sc.lines.append(Line(i, line_id, at, duration, urgent, string(g, "text", p),
                             string(g, "language", p, LANGUAGES), maneuver, expires))

    for i, r in enumerate(a_list(doc, "replies", "")):
        p = f"replies[{i}]"
        check_keys(r, p, ["id", "at", "stretches"], ["id", "at", "stretches"])
        reply_id = identifier(r, p, ids)
        at = milliseconds(r["at"], f"{p}.at", MAX_TIME_MS)
        sc.replies.append(Reply(reply_id, at, parse_stretches(r, p, ids)))

    for i, u in enumerate(a_list(doc, "dad", "")):
        p = f"dad[{i}]"
        check_keys(u, p, ["id", "at", "duration", "language", "text", "reply"],
                   ["id", "at", "duration", "language"])
        utterance_id = identifier(u, p, ids)
        at = milliseconds(u["at"], f"{p}.at", MAX_TIME_MS)
        duration = milliseconds(u["duration"], f"{p}.duration", MAX_DURATION_MS)
        if duration == 0:
            raise BadScenario(f"{p}.duration", "must be greater than zero")
        language = string(u, "language", p, LANGUAGES, required=True)
        reply, after = None, 0
        if "reply" in u:
            rp = f"{p}.reply"
            check_keys(u["reply"], rp, ["id", "after", "stretches"], ["id", "stretches"])
            reply_id = identifier(u["reply"], rp, ids)
            after = milliseconds(u["reply"].get("after", 0), f"{rp}.after", MAX_DURATION_MS)
            reply = Reply(reply_id, None, parse_stretches(u["reply"], rp, ids))
        sc.utterances.append(Utterance(utterance_id, at, duration, language, string(u, "text", p), reply, after))
    spoken = sorted(sc.utterances, key=lambda u: u.at)
    for a, b in zip(spoken, spoken[1:]):
        if a.at + a.duration > b.at:
            raise BadScenario(f"dad[{sc.utterances.index(b)}].at", f"overlaps utterance \"{a.id}\": Dad has one voice")

    known = {
        "line": {l.id for l in sc.lines},
        "reply": {r.id for r in sc.replies} | {u.reply.id for u in sc.utterances if u.reply},
        "utterance": {u.id for u in sc.utterances},
        "maneuver": {l.maneuver for l in sc.lines if l.maneuver is not None},
    }
    known["stretch"] = {s.id for r in sc.replies for s in r.stretches} | \
                       {s.id for u in sc.utterances if u.reply for s in u.reply.stretches}
    known["by"] = known["line"] | known["utterance"]
    for i, m in enumerate(a_list(doc, "expect", "")):
        sc.matchers.append(parse_matcher(m, f"expect[{i}]", known))
    return sc


def parse_matcher(m, path, known):
    if not isinstance(m, dict):
        raise BadScenario(path, "expected an object")
    event = string(m, "event", path, required=True)
    if event not in EVENT_FIELDS:
        raise BadScenario(f"{path}.event", f"unknown event \"{event}\"")
    at = between = count = None
    if "at" in m and "between" in m:
        raise BadScenario(path, "\"at\" and \"between\" together")
    if "at" in m:
        at = milliseconds(m["at"], f"{path}.at", MAX_TIME_MS)
    if "between" in m:
        b = m["between"]
        if not isinstance(b, list) or len(b) != 2:
            raise BadScenario(f"{path}.between", "expected [from, to]")
        between = (milliseconds(b[0], f"{path}.between[0]", MAX_TIME_MS),
                   milliseconds(b[1], f"{path}.between[1]", MAX_TIME_MS))
        if between[0] > between[1]:
            raise BadScenario(f"{path}.between", "from is after to")
    if "count" in m:
        count = m["count"]
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BadScenario(f"{path}.count", "expected an integer >= 0")
    fields = []
    for key in sorted(m):
        if key in ("event", "at", "between", "count"):
            continue
        p, value = f"{path}.{key}", m[key]
        if key not in EVENT_FIELDS[event]:
            raise BadScenario(p, f"{event} has no field \"{key}\"")
        if key in INTEGER_FIELDS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadScenario(p, "expected an integer number of milliseconds")
        elif key in BOOLEAN_FIELDS:
            if not isinstance(value, bool):
                raise BadScenario(p, "expected true or false")
        elif not isinstance(value, str):
            raise BadScenario(p, "expected a string")
        elif key in known and value not in known[key]:
            raise BadScenario(p, f"\"{value}\" names no {key} of the scenario")
        elif key == "rule" and value not in RULES:
            raise BadScenario(p, f"unknown rule \"{value}\"")
        elif key == "language" and value not in LANGUAGES:
            raise BadScenario(p, f"unknown language \"{value}\"")
        elif key == "afterCut" and value not in AFTER_CUT:
            raise BadScenario(p, f"unknown afterCut \"{value}\"")
        elif key == "stage" and value not in ("far", "near", "now"):
            raise BadScenario(p, f"unknown stage \"{value}\"")
        fields.append((key, value))
    return Matcher(path, event, fields, at, between, count)


# ---------------------------------------------------------------------------
# The run (SPEC 4)

class Simulation:
    def __init__(self, sc):
        self.sc = sc
        self.now = 0
        self.queue = []               # heap of (t, phase, sequence, handler, item)
        self.sequence = 0
        self.events = []              # the timeline, in order
        # Guidance: at most one line plays; pending lines wait, urgent ones first.
        self.playing_line = None
        self.pending_urgent = deque()
        self.pending_ordinary = deque()
        self.pending_by_maneuver = {}
        self.reopen_at = 0            # the ears reopen then, if no line plays
        self.ears_recorded_open = True
        # Talk: one active reply, the replies queued behind it, at most one playing stretch.
        self.active = None
        self.reply_queue = deque()
        self.playing = None           # (reply, stretch, started at, ends at, play number)
        self.plays = 0
        # Dad: at most one utterance at a time.
        self.speaking = None

    # -- the queue

    def schedule(self, t, phase, handler, item):
        heapq.heappush(self.queue, (t, phase, self.sequence, handler, item))
        self.sequence += 1

    def record(self, event, **fields):
        fields["event"] = event
        fields["t"] = self.now
        self.events.append(fields)

    def run(self):
        # Everything in the file, in file order: guidance, replies with their chunks, Dad.
        for line in self.sc.lines:
            self.schedule(line.at, LINE_REQUESTED, self.line_requested, line)
            if line.expires is not None:
                self.schedule(line.expires, LINE_STALE, self.line_stale, line)
        for reply in self.sc.replies:
            self.schedule_reply(reply)
        for u in self.sc.utterances:
            self.schedule(u.at, ARRIVAL, self.dad_started, u)
            self.schedule(u.at + u.duration, DAD_ENDS, self.dad_ended, u)
        while self.queue:
            self.now = self.queue[0][0]
            while self.queue and self.queue[0][0] == self.now:
                _, _, _, handler, item = heapq.heappop(self.queue)
                handler(item)
            self.settle()
            self.observe()
        return self.events

    def schedule_reply(self, reply):
        self.schedule(reply.at, ARRIVAL, self.reply_begins, reply)
        for s in reply.stretches:
            if s.ready > 0:
                self.schedule(reply.at + s.ready, ARRIVAL, self.chunk_ready, s)

    # -- state

    def guidance_pending(self):
        return bool(self.pending_urgent) or bool(self.pending_ordinary)

    def ears_open(self):
        return self.playing_line is None and self.now >= self.reopen_at

    def nothing_plays(self):
        return self.playing_line is None and self.playing is None

    # -- completions

    def line_ended(self, line):
        self.record("guidance.ended", line=line.id)
        line.state = "ended"
        self.playing_line = None
        self.reopen_at = self.now + self.sc.ears_tail
        self.schedule(self.reopen_at, EARS_TIMER, self.ears_timer, None)

    def stretch_ended(self, play):
        if self.playing is None or self.playing[4] != play:
            return                    # that play was cut
        reply, stretch = self.playing[0], self.playing[1]
        self.record("talk.stretch.ended", reply=reply.id, stretch=stretch.id)
        self.playing = None
        reply.next += 1
        reply.over_at = self.now
        if reply.next == len(reply.stretches):
            self.record("talk.reply.ended", reply=reply.id)
            self.next_reply()

    def dad_ended(self, u):
        if u.since_open:
            u.heard += self.now - u.since
        self.speaking = None
        self.record("dad.ended", utterance=u.id, heardMs=u.heard, lostMs=u.duration - u.heard)
        if u.heard > 0 and u.reply is not None:
            u.reply.at = self.now + u.after
            self.schedule_reply(u.reply)

    def ears_timer(self, _):
        pass                          # an instant in which the ears may reopen

    # -- arrivals

    def line_stale(self, line):
        if line.state == "pending":
            self.unqueue(line)
            line.state = "dropped"
            self.record("guidance.dropped", line=line.id, rule="stale")

    def line_requested(self, line):
        fields = {"line": line.id, "urgent": line.urgent}
        for key, value in (("maneuver", line.maneuver), ("text", line.text), ("language", line.language)):
            if value is not None:
                fields[key] = value
        self.record("guidance.requested", **fields)
        if line.maneuver is not None and line.maneuver in self.pending_by_maneuver:
            old = self.pending_by_maneuver[line.maneuver]
            self.unqueue(old)
            old.state = "dropped"
            self.record("guidance.dropped", line=old.id, rule="superseded")
        if self.playing is not None:
            ends_at = self.playing[3]
            if line.urgent:
                self.cut_by_line(line, "urgent-cut")
                self.start_line(line)
            elif ends_at - self.now > self.sc.wait_limit:
                self.cut_by_line(line, "long-cut")
                self.start_line(line)
            else:
                self.enqueue(line)
                self.record("guidance.waiting", line=line.id, rule="short-wait", stretch=self.playing[1].id)
        elif self.playing_line is not None or self.guidance_pending():
            self.enqueue(line)
            self.record("guidance.waiting", line=line.id, rule="guidance-queue")
        else:
            self.enqueue(line)        # starts in the settle step

    def reply_begins(self, reply):
        if self.active is not None:
            self.reply_queue.append(reply)
            self.record("talk.reply.queued", reply=reply.id, rule="reply-queue")
        else:
            self.activate(reply)

    def chunk_ready(self, _):
        pass                          # readiness is read from the clock in the settle step

    def dad_started(self, u):
        fields = {"utterance": u.id, "language": u.language}
        if u.text is not None:
            fields["text"] = u.text
        self.record("dad.started", **fields)
        self.speaking = u
        u.since, u.since_open = self.now, False

    # -- guidance

    def enqueue(self, line):
        line.state = "pending"
        (self.pending_urgent if line.urgent else self.pending_ordinary).append(line)
        if line.maneuver is not None:
            self.pending_by_maneuver[line.maneuver] = line

    def unqueue(self, line):
        (self.pending_urgent if line.urgent else self.pending_ordinary).remove(line)
        if line.maneuver is not None:
            del self.pending_by_maneuver[line.maneuver]

    def start_line(self, line):
        line.state = "playing"
        self.playing_line = line
        fields = {"line": line.id}
        if line.text is not None:
            fields["text"] = line.text
        if line.language is not None:
            fields["language"] = line.language
        self.record("guidance.started", **fields)
        self.schedule(self.now + line.duration, LINE_ENDS, self.line_ended, line)

    # -- talk

    def activate(self, reply):
        self.active = reply
        reply.over_at = self.now
        self.record("talk.reply.began", reply=reply.id)

    def next_reply(self):
        self.active = None
        if self.reply_queue:
            self.activate(self.reply_queue.popleft())

    def stop_stretch(self):
        reply, stretch, started, _, _ = self.playing
        self.playing = None
        return reply, stretch, self.now - started

    def cut_by_line(self, line, rule):
        reply, stretch, played = self.stop_stretch()
        after_cut = self.sc.after_cut
        self.record("talk.stretch.cut", reply=reply.id, stretch=stretch.id, rule=rule, by=line.id,
                    playedMs=played, afterCut=after_cut)
        reply.over_at = self.now
        if after_cut == "skip":
            reply.next += 1
            if reply.next == len(reply.stretches):
                self.record("talk.reply.ended", reply=reply.id)
                self.next_reply()
        elif after_cut == "drop":
            self.record("talk.reply.abandoned", reply=reply.id, rule="after-cut")
            self.next_reply()
        # repeat: the same stretch is next, from its start

    def barge_in(self):
        reply = self.active
        if self.playing is not None:
            _, stretch, played = self.stop_stretch()
            self.record("talk.stretch.cut", reply=reply.id, stretch=stretch.id, rule="barge-in",
                        by=self.speaking.id, playedMs=played)
        self.record("talk.reply.abandoned", reply=reply.id, rule="barge-in")
        self.next_reply()

    def start_stretch(self):
        reply = self.active
        stretch = reply.stretches[reply.next]
        ready_at = reply.at + stretch.ready
        if self.now < ready_at:
            return False
        self.plays += 1
        self.playing = (reply, stretch, self.now, self.now + stretch.duration, self.plays)
        fields = {"reply": reply.id, "stretch": stretch.id}
        held = self.now - max(ready_at, reply.over_at)
        if held > 0:
            fields["rule"] = "held"
            fields["heldMs"] = held
        if stretch.text is not None:
            fields["text"] = stretch.text
        if stretch.language is not None:
            fields["language"] = stretch.language
        self.record("talk.stretch.started", **fields)
        self.schedule(self.now + stretch.duration, STRETCH_ENDS, self.stretch_ended, self.plays)
        return True

    # -- settle and observe (SPEC 4.2 steps 3 and 4)

    def settle(self):
        while True:
            if self.nothing_plays() and self.guidance_pending():
                line = (self.pending_urgent or self.pending_ordinary)[0]
                self.unqueue(line)
                self.start_line(line)
                continue
            if self.speaking is not None and self.ears_open() and self.active is not None:
                self.barge_in()
                continue
            if self.nothing_plays() and not self.guidance_pending() and self.active is not None:
                if self.start_stretch():
                    continue
            return

    def observe(self):
        is_open = self.ears_open()
        if is_open != self.ears_recorded_open:
            if is_open:
                self.record("ears.opened")
            else:
                self.record("ears.closed", rule="ears-closed")
            self.ears_recorded_open = is_open
        u = self.speaking
        if u is not None:             # the ears keep this state until the next instant
            if u.since_open:
                u.heard += self.now - u.since
            u.since, u.since_open = self.now, is_open


# ---------------------------------------------------------------------------
# The timeline as JSON (SPEC 5)

def json_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v, ensure_ascii=False)


def timeline_json(name, events):
    out = ["{\n  \"events\": ["]
    for i, e in enumerate(events):
        out.append("\n    " if i == 0 else ",\n    ")
        out.append("{" + ", ".join(f"{json_value(k)}: {json_value(e[k])}" for k in sorted(e)) + "}")
    out.append("],\n" if not events else "\n  ],\n")
    out.append(f"  \"scenario\": {json_value(name)}\n}}\n")
    return "".join(out)


def fmt_time(ms):
    return f"{ms // 1000}.{ms % 1000:03d} s"


def describe(e):
    fields = " ".join(f"{k}={json_value(e[k])}" for k in sorted(e) if k not in ("t", "event"))
    return f"{fmt_time(e['t'])}  {e['event']}  {fields}".rstrip()


# ---------------------------------------------------------------------------
# Expectations (SPEC 6)

def matches(m, e):
    return e["event"] == m.event and m.window_contains(e["t"]) and \
        all(k in e and type(e[k]) is type(v) and e[k] == v for k, v in m.fields)


def check_expectations(sc, events):
    failures = []
    for m in sc.matchers:
        found = sum(1 for e in events if matches(m, e))
        if (found == m.count) if m.count is not None else (found > 0):
            continue
        same = [e for e in events if e["event"] == m.event] or events

        def score(e):
            wrong = sum(1 for k, v in m.fields if not (k in e and type(e[k]) is type(v) and e[k] == v))
            return (wrong, m.distance(e["t"]), e["t"])
        nearest = sorted(same, key=score)[:3]
        text = f"{m.path}: expected {m.describe()}; found {found}"
        for e in nearest:
            wrong = [k for k, v in m.fields if not (k in e and type(e[k]) is type(v) and e[k] == v)]
            text += f"\n    nearest: {describe(e)}" + (f"  (differs in {', '.join(wrong)})" if wrong else "")
        failures.append(text)
    return failures


# ---------------------------------------------------------------------------
# Invariants 1-6 (SPEC 7), read from the timeline

def overlap_measure(intervals, starts, a, b):
    """How many ms of [a, b) the sorted, disjoint `intervals` cover."""
    total = 0
    i = max(0, bisect.bisect_right(starts, a) - 1)
    while i < len(intervals) and intervals[i][0] < b:
        s, e = intervals[i][0], intervals[i][1]
        total += max(0, min(e, b) - max(s, a))
        i += 1
    return total


def around(events, t):
    return "".join(f"\n    {describe(e)}" for e in events if abs(e["t"] - t) <= 1000)


def check_invariants(sc, events):
    failures = []

    def fail(number, t, text):
        failures.append(f"invariant {number} broken at {fmt_time(t)}: {text}{around(events, t)}")

    lines = {l.id: l for l in sc.lines}
    stretch_duration = {}
    replies = list(sc.replies) + [u.reply for u in sc.utterances if u.reply]
    for r in replies:
        for s in r.stretches:
            stretch_duration[s.id] = s.duration
    line_plays, stretch_plays = [], []           # (start, end, id)
    line_started, stretch_started = {}, {}
    requested, waited_until = {}, {}
    closed, closed_since = [], None               # the ears' closed intervals
    stretch_done, reply_done, reply_seen, line_done = set(), set(), set(), set()
    dad_ends = {}
    for e in events:
        kind, t = e["event"], e["t"]
        if kind == "guidance.requested":
            requested[e["line"]] = t
        elif kind == "guidance.started":
            line_started[e["line"]] = t
            waited_until[e["line"]] = t
        elif kind == "guidance.ended":
            line_plays.append((line_started.pop(e["line"], t), t, e["line"]))
            line_done.add(e["line"])
        elif kind == "guidance.dropped":
            waited_until[e["line"]] = t
            line_done.add(e["line"])
        elif kind == "talk.stretch.started":
            stretch_started[e["stretch"]] = t
        elif kind in ("talk.stretch.ended", "talk.stretch.cut"):
            stretch_plays.append((stretch_started.pop(e["stretch"], t), t, e["stretch"]))
            stretch_done.add(e["stretch"])
            if kind == "talk.stretch.cut" and e["rule"] in ("urgent-cut", "long-cut"):
                line = lines.get(e["by"])
                left = stretch_duration.get(e["stretch"], 0) - e["playedMs"]
                if line is None or not (line.urgent or left > sc.wait_limit):
                    fail(5, t, f"stretch {e['stretch']} was cut by ordinary line {e['by']} with only {left} ms left")
        elif kind in ("talk.reply.began", "talk.reply.queued"):
            reply_seen.add(e["reply"])
        elif kind in ("talk.reply.ended", "talk.reply.abandoned"):
            reply_done.add(e["reply"])
        elif kind == "ears.closed":
            closed_since = t
        elif kind == "ears.opened":
            if closed_since is not None:
                closed.append((closed_since, t))
            closed_since = None
        elif kind == "dad.ended":
            dad_ends[e["utterance"]] = e
    if closed_since is not None:
        closed.append((closed_since, float("inf")))

    # 1. One voice at a time.
    line_plays.sort()
    stretch_plays.sort()
    i = j = 0
    while i < len(line_plays) and j < len(stretch_plays):
        a, b = line_plays[i], stretch_plays[j]
        if max(a[0], b[0]) < min(a[1], b[1]):
            fail(1, max(a[0], b[0]), f"line {a[2]} and stretch {b[2]} play at once")
        if a[1] <= b[1]:
            i += 1
        else:
            j += 1

    # 2. The ears are closed during every line and for earsTail after it.
    closed_starts = [c[0] for c in closed]
    for start, end, line_id in line_plays:
        k = bisect.bisect_right(closed_starts, start) - 1
        if k < 0 or closed[k][1] < end + sc.ears_tail:
            fail(2, start, f"the ears are open during line {line_id} or within earsTail after it")

    # 3 and 4. No urgent line waits while a stretch plays; no ordinary one longer than waitLimit.
    stretch_starts = [s[0] for s in stretch_plays]
    last_t = events[-1]["t"] if events else 0
    for line_id, t in requested.items():
        waited = overlap_measure(stretch_plays, stretch_starts, t, waited_until.get(line_id, last_t))
        line = lines[line_id]
        if line.urgent and waited > 0:
            fail(3, t, f"urgent line {line_id} waited {waited} ms for Pippa")
        elif not line.urgent and waited > sc.wait_limit:
            fail(4, t, f"line {line_id} waited {waited} ms for Pippa, more than waitLimit {sc.wait_limit} ms")

    # 6. Nothing vanishes.
    for line in sc.lines:
        if line.id not in requested:
            fail(6, line.at, f"line {line.id} was never requested")
        elif line.id not in line_done:
            fail(6, line.at, f"line {line.id} neither ended nor was dropped")
    for stretch_id, t in stretch_started.items():
        fail(6, t, f"stretch {stretch_id} started but never ended nor was cut")
    abandoned = {e["reply"] for e in events if e["event"] == "talk.reply.abandoned"}
    file_replies = {r.id for r in sc.replies}
    for r in replies:
        if r.id in file_replies and r.id not in reply_seen:
            fail(6, r.at, f"reply {r.id} never began")
        if r.id in reply_seen:
            if r.id not in reply_done:
                fail(6, last_t, f"reply {r.id} neither ended nor was abandoned")
            for s in r.stretches:
                if s.id not in stretch_done and r.id not in abandoned:
                    fail(6, last_t, f"stretch {s.id} was neither played, cut nor abandoned")
    for u in sc.utterances:
        e = dad_ends.get(u.id)
        if e is None:
            fail(6, u.at, f"utterance {u.id} never ended")
        elif e["heardMs"] < 0 or e["lostMs"] < 0 or e["heardMs"] + e["lostMs"] != u.duration:
            fail(6, e["t"], f"utterance {u.id}: heard {e['heardMs']} + lost {e['lostMs']} is not {u.duration} ms")
    return failures


# ---------------------------------------------------------------------------
# The golden timeline: compared on t, event and the SPEC's fields

def spec_lines(events):
    return [json.dumps([e.get("t"), e.get("event")] +
                       [[k, e[k]] for k in SPEC_FIELDS.get(e.get("event"), []) if k in e], ensure_ascii=False)
            for e in events]


def check_golden(sc, scenario_path, events):
    path = os.path.join(os.path.dirname(scenario_path), sc.golden)
    try:
        with open(path, "rb") as f:
            golden = json.loads(f.read().decode("utf-8"))
        expected = spec_lines(golden["events"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise BadScenario("golden", f"{path}: not a usable golden timeline ({e})")
    actual = spec_lines(events)
    if expected == actual:
        return []
    n = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    return [f"golden {sc.golden}: event {n} differs\n    expected: "
            f"{expected[n] if n < len(expected) else '(end)'}\n    actual:   {actual[n] if n < len(actual) else '(end)'}"]


# ---------------------------------------------------------------------------

def main(argv):
    if len(argv) != 2:
        print("usage: reference_model.py SCENARIO.json", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        sc = load_scenario(path)
    except OSError as e:
        print(f"Error: {path}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    except BadScenario as e:
        print(f"Error: {path}: {e}", file=sys.stderr)
        return 2
    events = Simulation(sc).run()
    sys.stdout.buffer.write(timeline_json(sc.name, events).encode("utf-8"))
    sys.stdout.flush()
    failures = check_expectations(sc, events) + check_invariants(sc, events)
    if sc.golden is not None:
        try:
            failures += check_golden(sc, path, events)
        except BadScenario as e:
            print(f"Error: {path}: {e}", file=sys.stderr)
            return 2
    for text in failures:
        print(text, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
