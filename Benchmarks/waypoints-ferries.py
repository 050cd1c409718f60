#!/usr/bin/env python3
# Writes an OSRM-shaped response of N legs (argv[1]) to stdout: 3 km east to each
# waypoint, a 6 km ferry of 15 minutes every 8th leg. For docs/benchmarks.md
# ("Waypoints and ferries"): time `drivesim import-route` and `drivesim run` on it.
import json, sys, math
n = int(sys.argv[1])
lat = 37.5; m_lon = 1 / (111320 * math.cos(math.radians(lat)))
coords = []; legs = []; lon = 127.0; total = 0; dur = 0
def pt(lo, la): return [round(lo, 7), round(la, 7)]
la = lat
for i in range(n):
    ferry = i % 8 == 7
    d1 = 3000
    a = pt(lon, la); b = pt(lon + d1 * m_lon, la)
    steps = []
    if ferry:
        c = pt(lon + (d1 + 6000) * m_lon, la)
        steps.append({"distance": d1, "duration": d1 / 27.8, "name": "Road %d" % i, "mode": "driving", "maneuver": {"type": "depart", "bearing_after": 90, "location": a}})
        steps.append({"distance": 6000, "duration": 900, "name": "Ferry %d" % i, "mode": "ferry", "maneuver": {"type": "notification", "modifier": "straight", "location": b}})
        steps.append({"distance": 0, "duration": 0, "name": "", "mode": "driving", "maneuver": {"type": "arrive", "bearing_before": 90, "location": c}})
        seg = [a, b, c]; lon += (d1 + 6000) * m_lon; length = d1 + 6000; t = d1 / 27.8 + 900
    else:
        steps.append({"distance": d1, "duration": d1 / 27.8, "name": "Road %d" % i, "maneuver": {"type": "depart", "bearing_after": 90, "location": a}})
        steps.append({"distance": 0, "duration": 0, "name": "", "maneuver": {"type": "arrive", "bearing_before": 90, "location": b}})
        seg = [a, b]; lon += d1 * m_lon; length = d1; t = d1 / 27.8
    coords += seg if not coords else seg[1:]
    legs.append({"distance": length, "duration": t, "steps": steps}); total += length; dur += t
print(json.dumps({"code": "Ok", "routes": [{"distance": total, "duration": dur, "geometry": {"type": "LineString", "coordinates": coords}, "legs": legs}]}))
