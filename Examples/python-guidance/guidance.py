#!/usr/bin/env python3
"""A complete, simple guidance engine in Python, speaking drivesim's guidance
protocol (docs/test-your-guidance.md) over standard input and output.

    drivesim check Scenarios/road --guidance "python3 Examples/python-guidance/guidance.py"
    drivesim fuzz --road --runs 200 --guidance "python3 Examples/python-guidance/guidance.py"

    --break fixed-distance
                 announce each stage at a fixed distance whatever the speed
                 (1000 m, 400 m, 60 m), judged only when a fix arrives: no dead
                 reckoning between fixes, no expiry. Fine in town; too late at
                 motorway speed, and silent through a tunnel.
    --break next-words
                 say the next maneuver's words for each maneuver (road line-words)
    --break late-lies
                 never say "now": skip it as late with the near line (road late-claim)
    --break silent-late
                 never say "now", and answer "late" when asked why a turn had
                 none (road late-claim)
    --break miles
                 say distances in miles whatever the voice's units (road line-words)
    --break no-revisions
                 never revise a waiting line: it says what was true when asked
                 (road spoken-distance, after a tunnel)
    --break old-distances
                 on a new route (protocol 3), keep counting from the old
                 route's start: its maneuvers seem as much farther as the car
                 had come (road spoken-distance, after a route change)
    --break switch-elsewhere
                 after a handoff, say the switch line a reroute says, never
                 naming where the new route goes (road switch-line)

Three stages per maneuver, as drivesim's own guidance has: far, near and
"now". Between fixes the car is predicted at the speed of the last one (dead
reckoning); a stage fires when what is left, less what the car covers while
the line is spoken and heard, reaches its lead (seconds at the current speed,
at least a distance: the route's `leads`). Distances are rounded down, and a
line expires before its words stop being true (a waiting line allows for
a car a quarter faster than known). A "now" line that the car as known can
no longer hear in time is skipped as `late`: drivesim judges that claim
against the truth (road late-claim), so it is never made while there is time.

Standard library only. One line of JSON in, at most one line of JSON out;
anything for a human goes to standard error.
"""

import json
import math
import sys

PROTOCOL = 3
STAGES = ("far", "near", "now")
METRIC = [50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000, 3000, 5000, 10000]
FEET = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1320, 2640, 3960, 5280, 7920, 10560, 15840, 26400, 52800]
FOOT = 0.3048
ARRIVED_WITHIN = 15.0   # meters: "you have arrived" is said this near the destination
FIXED = {"far": 1000.0, "near": 400.0, "now": 60.0}

EN = {"left": "turn left", "right": "turn right", "slight-left": "bear left", "slight-right": "bear right",
      "sharp-left": "turn sharp left", "sharp-right": "turn sharp right", "u-turn": "make a U-turn",
      "straight": "continue straight", "roundabout": "enter the roundabout", "merge": "merge",
      "on-ramp": "take the ramp", "off-ramp": "take the exit", "keep-left": "keep left", "keep-right": "keep right", "fork-left": "keep left at the fork",
      "fork-right": "keep right at the fork", "ferry": "take the ferry"}
KO = {"left": "좌회전", "right": "우회전", "u-turn": "유턴", "straight": "직진", "ferry": "페리에 탑승",
      "slight-left": "왼쪽 방향으로 진행", "slight-right": "오른쪽 방향으로 진행", "sharp-left": "급좌회전", "sharp-right": "급우회전",
      "keep-left": "왼쪽 차로를 유지", "keep-right": "오른쪽 차로를 유지", "fork-left": "갈림길에서 왼쪽 방향으로 진행",
      "fork-right": "갈림길에서 오른쪽 방향으로 진행", "merge": "본선으로 합류", "on-ramp": "진입로로 진입", "off-ramp": "출구로 진출",
      "roundabout": "회전교차로를 통과"}
# Points the car reaches and stops at: "now" is said on reaching them, within ARRIVED_WITHIN.
STOPS = ("arrive", "waypoint")


class Guidance:
    def __init__(self, route, broken):
        self.broken = broken
        self.fixed = broken == "fixed-distance"
        self.maneuvers = route["maneuvers"]
        self.language = route["language"]
        self.units = route["units"]
        self.latency = route["outputLatency"] / 1000
        self.margin = route["margin"] / 1000
        self.leads = route["leads"]
        self.change = route.get("change")   # protocol 3: the route change this route comes from, or None
        self.rates = route["rates"]
        self.done = [set() for _ in self.maneuvers]
        self.approached = [False for _ in self.maneuvers]
        self.next = 0
        # Lines asked for that may still wait behind Pippa: revised at each fix (protocol 2).
        self.waiting = []
        self.ids = set()
        # Where the car was last believed along this route, meters.
        self.reached = 0.0

    # -- words and how long they take --------------------------------------

    def spoken(self, left):
        """The distance to say for `left` meters, rounded down to a preset (nil: too near)."""
        presets = METRIC if self.units == "metric" else FEET
        unit = 1.0 if self.units == "metric" else FOOT
        said = [p for p in presets if p * unit <= left - 5]
        return (said[-1], said[-1] * unit) if said else None

    def distance_words(self, amount):
        if self.broken == "miles" and self.units == "metric":
            return f"{amount / 1609.344:.1f} miles"
        if self.units == "metric":
            if self.language == "ko":
                return f"{amount}미터" if amount < 1000 else f"{amount / 1000:g}킬로미터"
            if amount < 1000:
                return f"{amount} meters"
            return "1 kilometer" if amount == 1000 else f"{amount / 1000:g} kilometers"
        return f"{amount} feet" if amount < 1320 else f"{amount / 5280:.1f} miles"

    def text(self, stage, m, amount):
        turn = self.maneuvers[m]["turn"]
        street = self.maneuvers[m].get("street")
        if self.language == "ko":
            if turn == "waypoint":
                if self.maneuvers[m].get("uTurn"):
                    return "경유지에 도착했습니다. 유턴하세요." if stage == "now" else f"{self.distance_words(amount)} 앞 경유지에서 유턴하세요."
                return "경유지에 도착했습니다." if stage == "now" else f"{self.distance_words(amount)} 앞에 경유지가 있습니다."
            action = "목적지에 도착합니다" if turn == "arrive" else self.action_ko(self.maneuvers[m]) + "하세요"
            if stage == "now":
                return "목적지에 도착했습니다." if turn == "arrive" else f"지금 {action}."
            return f"{self.distance_words(amount)} 앞에서 {action}."
        if turn == "arrive":
            return "You have arrived." if stage == "now" else f"In {self.distance_words(amount)}, you will arrive."
        if turn == "waypoint":
            back = " Make a U-turn there." if self.maneuvers[m].get("uTurn") else ""
            return ("You have reached a waypoint." + back.replace(" there", "")) if stage == "now" else f"In {self.distance_words(amount)}, you will reach a waypoint.{back}"
        action = self.action_en(self.maneuvers[m])
        return f"Now {action}." if stage == "now" else f"In {self.distance_words(amount)}, {action}."

    @staticmethod
    def action_ko(maneuver):
        """What to do at a maneuver, in Korean, with its exit and side (protocol 2), before 하세요."""
        turn = maneuver["turn"]
        side = {"left": "왼쪽 ", "right": "오른쪽 "}.get(maneuver.get("side") or "", "")
        if turn == "roundabout" and maneuver.get("exit"):
            return f"회전교차로에서 {maneuver['exit']}번째 출구로 진출"
        if turn == "off-ramp" and maneuver.get("ref"):
            return f"{side}{maneuver['ref']}번 출구로 진출"
        if turn in ("off-ramp", "on-ramp") and side:
            return side + KO[turn]
        return KO.get(turn, "안내에 따라 진행")

    @staticmethod
    def action_en(maneuver):
        """What to do at a maneuver, in English, with its details (protocol 2): the exit, the side, the street, the toward."""
        turn, street = maneuver["turn"], maneuver.get("street")
        action = EN.get(turn, "follow the road")
        if turn == "roundabout" and maneuver.get("exit"):
            action = f"at the roundabout, take exit {maneuver['exit']}"
        elif turn == "off-ramp":
            ref, name = maneuver.get("ref"), maneuver.get("name")
            action = "take exit " + ref if ref else f"take the {name} exit" if name else action
            if maneuver.get("side") == "left":
                action += " on the left"
        action += f" onto {street}" if street else ""
        toward = maneuver.get("toward")
        return action + (f" toward {toward}" if toward else "")

    def duration(self, text):
        if self.language == "ko":
            units = sum(1 for c in text if "\uac00" <= c <= "\ud7a3") + sum(1 for c in text if c.isdigit())
            rate = self.rates["ko"]
        else:
            units = len(text.split()) + sum(1 for c in text if c.isdigit())
            rate = self.rates["en"]
        return max(500, int(math.ceil(units / rate * 1000)) + 200)

    # -- timing ------------------------------------------------------------

    def lead(self, stage, v):
        l = self.leads[stage]
        return max(l["minimum"], v * (l["seconds"] + l["growth"] * v))

    @staticmethod
    def progress(state, t):
        return state["progress"] + state["speed"] * (t - state["taken"]) / 1000

    def due(self, stage, m, state, t, length):
        """The first time >= t at which `stage` of `m` is due, or None."""
        v = state["speed"]
        left = self.maneuvers[m]["distance"] - self.progress(state, t)
        if self.maneuvers[m]["turn"] in STOPS and stage == "now":
            if not self.approached[m]:
                return None
            slack = left - v * self.latency - ARRIVED_WITHIN
        elif self.fixed:
            slack = left - FIXED[stage]
        else:
            slack = left - v * (self.latency + length / 1000) - self.lead(stage, v)
        if slack <= 0:
            return t
        if self.fixed or v < 0.1:
            return None
        return t + int(math.ceil(slack / v * 1000))

    def pass_time(self, m, state, t):
        """The earliest the car may pass `m`: a line that waits (its expiry is not
        revised at later fixes) must allow for a car a quarter faster than known."""
        left = self.maneuvers[m]["distance"] - self.progress(state, t)
        return t + int(left / max(state["speed"] * 1.25, 2.0) * 1000)

    # -- a span ------------------------------------------------------------

    def revise(self, state, t):
        """At a fix: each line that may still wait is kept true for where the car now is
        (new words for the distance now left, an earlier expiry), or withdrawn."""
        revised, kept = [], []
        for line in self.waiting:
            if line["expires"] is None or line["expires"] <= t:
                continue
            m, stage = line["maneuver"], line["stage"]
            left = self.maneuvers[m]["distance"] - self.progress(state, t)
            if stage == "now":
                if self.maneuvers[m]["turn"] in STOPS:
                    # "You have arrived" said too soon: withdrawn, and said again on arriving.
                    if left > ARRIVED_WITHIN + 5:
                        revised.append({"id": line["id"], "withdrawn": True})
                        self.done[m].discard("now")
                        continue
                    kept.append(line)
                    continue
                expires = self.pass_time(m, state, t) - int((self.latency + self.margin) * 1000) - line["duration"]
            else:
                said = self.spoken(left)
                if said is None:
                    revised.append({"id": line["id"], "withdrawn": True})
                    continue
                amount, meters = said
                words = self.text(stage, m, amount)
                length = self.duration(words)
                true_until = t + int((left - meters) / max(state["speed"] * 1.2, 15.0) * 1000)
                expires = min(true_until, self.pass_time(m, state, t) - int(self.latency * 1000) - length)
                if words != line["text"] and expires > t:
                    revised.append({"id": line["id"], "text": words, "duration": length})
                    line["text"], line["duration"] = words, length
            if expires <= t:
                revised.append({"id": line["id"], "withdrawn": True})
                continue
            if expires < line["expires"]:
                revised.append({"id": line["id"], "expires": expires})
                line["expires"] = expires
            kept.append(line)
        self.waiting = kept
        return revised

    def span(self, msg):
        state, start, until, segment_end = msg["state"], msg["from"], msg["until"], msg["segmentEnd"]
        lines, skipped = [], []
        self.reached = state["progress"]
        revised = self.revise(state, start) if msg["fixes"] and self.broken not in ("fixed-distance", "no-revisions") else []
        t = start
        while t < until:
            # Passed maneuvers: a "now" line never said is skipped as late (said too late to be said at all).
            while self.next < len(self.maneuvers) and self.maneuvers[self.next]["distance"] <= self.progress(state, t):
                m = self.next
                if "now" not in self.done[m] and not self.fixed:
                    skipped.append({"maneuver": m, "stage": "now", "reason": "late", "at": t})
                self.next += 1
            if self.next >= len(self.maneuvers):
                break
            m = self.next
            left = self.maneuvers[m]["distance"] - self.progress(state, t)
            if left > ARRIVED_WITHIN + 5:
                self.approached[m] = True
            fire, stage = None, None
            for s in STAGES:
                if s in self.done[m]:
                    continue
                guess = self.duration(self.text(s, m, 300))
                d = self.due(s, m, state, t, guess)
                if d is not None and (fire is None or d <= fire):
                    fire, stage = d, s
            v = state["speed"]
            passing = t + max(1, int(math.ceil(left / v * 1000))) if v >= 0.1 else None
            if fire is not None and fire < until and (passing is None or fire < passing):
                self.say(m, stage, state, fire, segment_end, lines, skipped)
                t = fire
            elif passing is not None and passing < until:
                t = passing
            else:
                break
            if self.fixed:
                break   # judged once, when the fix arrives
        return {"type": "lines", "lines": lines, "skipped": skipped, "revised": revised}

    def say(self, m, stage, state, t, segment_end, lines, skipped):
        # Earlier stages not yet said are late now.
        for s in STAGES[:STAGES.index(stage)]:
            if s not in self.done[m]:
                self.done[m].add(s)
                if s != "now":
                    skipped.append({"maneuver": m, "stage": s, "reason": "late", "at": t})
        self.done[m].add(stage)
        point = self.maneuvers[m]["distance"]
        left = point - self.progress(state, t)
        v = state["speed"]
        arrival = self.maneuvers[m]["turn"] in STOPS and stage == "now"
        amount = None
        if stage != "now":
            said = self.spoken(left)
            if said is None:
                skipped.append({"maneuver": m, "stage": stage, "reason": "late", "at": t})
                return
            amount, meters = said
        if self.broken == "late-lies" and stage == "near" and self.maneuvers[m]["turn"] not in STOPS:
            self.done[m].add("now")
            skipped.append({"maneuver": m, "stage": "now", "reason": "late", "at": t})
        if self.broken in ("late-lies", "silent-late") and stage == "now" and not arrival:
            return
        spoken_for = min(m + 1, len(self.maneuvers) - 1) if self.broken == "next-words" else m
        words = self.text(stage, spoken_for, amount)
        length = self.duration(words)
        if self.fixed:
            expires = None
        elif arrival:
            expires = t + 10_000
        elif stage == "now":
            expires = self.pass_time(m, state, t) - int((self.latency + self.margin) * 1000) - length
            # Too late only if even the car as known cannot hear it in time: then it may wait only as long as that allows.
            if expires <= t and v >= 0.1:
                expires = t + int(left / v * 1000) - int((self.latency + self.margin) * 1000) - length
        else:
            # True until the car is nearer than the words say; heard before the point.
            # (A car standing or slow may speed up: the words are kept true at no less than 15 m/s.)
            true_until = t + int((left - meters) / max(v * 1.2, 15.0) * 1000)
            expires = min(true_until, self.pass_time(m, state, t) - int(self.latency * 1000) - length)
        if segment_end is not None:
            if t + length >= segment_end:
                skipped.append({"maneuver": m, "stage": stage, "reason": "not-guiding", "at": t})
                return
            expires = segment_end - length if expires is None else min(expires, segment_end - length)
        if expires is not None and expires <= t:
            skipped.append({"maneuver": m, "stage": stage, "reason": "late", "at": t})
            return
        name = f"{self.maneuvers[m]['id']}.{stage}"
        while name in self.ids:   # said again after it was withdrawn
            name += ".again"
        self.ids.add(name)
        line = {"id": name, "maneuver": m, "stage": stage, "at": t,
                "text": words, "duration": length, "urgent": stage == "now", "expires": expires}
        lines.append(line)
        self.waiting.append(dict(line))


def final_sound(word):
    """A Korean word's last syllable: "vowel", "rieul" (ㄹ), "consonant", or None (not Hangul: its reading is not written)."""
    c = word[-1] if word else ""
    if not "\uac00" <= c <= "\ud7a3":
        return None
    final = (ord(c) - 0xAC00) % 28
    return "vowel" if final == 0 else "rieul" if final == 8 else "consonant"


def switch_words(change, language):
    """What to say as the drive changes onto a new route (protocol 3): after a
    reroute "The route has been recalculated.", after Pippa's handoff "Guiding
    you to …" (Korean: …로 or …으로 안내합니다, by the name's last sound)."""
    if not change["handoff"]:
        return "The route has been recalculated." if language == "en" else "새로운 경로로 안내합니다."
    name = change.get("destination")
    if language == "en":
        return f"Guiding you to {name or 'your destination'}."
    if not name:
        return "목적지로 안내합니다."
    sound = final_sound(name)
    if sound is None:
        return f"{name}, 목적지로 안내합니다."
    return f"{name}{'으로' if sound == 'consonant' else '로'} 안내합니다."


def main():
    args = sys.argv[1:]
    modes = ("fixed-distance", "next-words", "late-lies", "silent-late", "miles", "no-revisions", "old-distances", "switch-elsewhere")
    broken = None
    if len(args) == 2 and args[0] == "--break" and args[1] in modes:
        broken = args[1]
    elif args:
        sys.stderr.write(f"usage: guidance.py [--break {'|'.join(modes)}]\n")
        sys.exit(2)
    guidance = None
    for raw in sys.stdin:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "hello":
            answer = {"type": "hello", "guidance": PROTOCOL}
        elif kind == "route":
            before = guidance
            guidance = Guidance(msg, broken)
            if broken == "old-distances" and before is not None and guidance.change is not None:
                for maneuver in guidance.maneuvers:
                    maneuver["distance"] += before.reached
            continue   # no answer
        elif kind == "span":
            answer = guidance.span(msg)
        elif kind == "switching":
            # The route changed (protocol 3): `change` came with the route; say the switch line, urgent, kept 10 s.
            change = guidance.change
            words = switch_words(dict(change, handoff=False) if broken == "switch-elsewhere" else change, guidance.language)
            answer = {"type": "switching", "line": {"id": f"{change['id']}.switched", "text": words,
                                                    "duration": guidance.duration(words), "expires": msg["at"] + 10_000}}
        elif kind == "unannounced":
            # Passed without a "now" line of ours: whatever we last believed, it is too late for one.
            # (Broken, it judges only at fixes and cannot tell: it gives no reason.)
            answer = {"type": "unannounced", "reason": None if broken == "fixed-distance" else "late"}
        else:
            sys.stderr.write(f"unknown message {kind!r}\n")
            continue
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
