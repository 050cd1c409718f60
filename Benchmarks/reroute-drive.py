#!/usr/bin/env python3
"""A drive of HOURS hours at 50 km/h that changes road every 10 minutes: a
reroute each time (issue 41's speed target: 24 h ÷ 6 h at most 4.4).

The first road goes east; every 8,333 m (10 minutes) the car turns north
onto the next change's road, 200 m up, then east again for 10 km, where the
next branch lies. Points every 50 m, fixes every second.

    python3 Benchmarks/reroute-drive.py HOURS > drive.json
"""
import json
import math
import sys

hours = float(sys.argv[1])
lat0, lon0 = 37.0, 127.0
m_lat = 111_320.0
m_lon = 111_320.0 * math.cos(math.radians(lat0))
leg = 8_333.0          # meters driven between two changes (10 min at 50 km/h)
up = 200.0             # each change's road goes this far north first
east = 10_000.0        # then this far east
changes_count = max(0, int(hours * 6) - 1)


def point(x, y):
    return {"lat": round(lat0 + y / m_lat, 7), "lon": round(lon0 + x / m_lon, 7)}


def line(x0, y0, x1, y1, step=50.0):
    n = max(1, int(math.hypot(x1 - x0, y1 - y0) // step))
    return [point(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1)]


route = [point(0, 0)] + line(0, 0, leg + 2_000, 0)
maneuvers = [{"id": "m1", **point(leg + 2_000, 0), "turn": "arrive"}]
changes = []
bx, by = leg, 0.0
for k in range(changes_count):
    cx, cy = bx, by + up
    points = [point(bx, by)] + line(bx, by, cx, cy) + line(cx, cy, cx + east, cy)
    ms = [{"id": f"c{k}m0", **point(bx, by), "turn": "left"},
          {"id": f"c{k}m1", **point(cx, cy), "turn": "right"}]
    if k == changes_count - 1:
        ms.append({"id": f"c{k}m2", **point(cx + east, cy), "turn": "arrive"})
    changes.append({"id": f"c{k}", "points": points, "maneuvers": ms})
    bx, by = cx + (leg - up), cy

scenario = {
    "drivesim": 1,
    "name": f"a {hours:g} h drive rerouted every 10 minutes",
    "road": {
        "language": "en",
        "route": {"points": route, "maneuvers": maneuvers},
        "drive": {"speeds": [{"from": 0, "kmh": 50}]},
        "fixes": {"seed": 1, "every": 1.0},
        "changes": changes,
    },
}
json.dump(scenario, sys.stdout, indent=1)
