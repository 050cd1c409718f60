#!/usr/bin/env python3
"""Writes the native Valhalla (`trip`) and GraphHopper (`paths`) samples
beside this file from drivesim's own OSRM-shaped ones, so that each says
the same route in the other service's words (Tests/RouteImportTests/NativeImportTests
checks that they import into the same road). Also writes two OSRM-shaped
samples of its own first: a ferry crossing and a 2,100 km drive.

    python3 Scenarios/routes/responses/native.py

Deterministic: the same files every run. No third-party response is read.
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
R = 6371008.8


def decode(text, precision):
    points, i, lat, lon = [], 0, 0, 0
    while i < len(text):
        vals = []
        for _ in range(2):
            result, shift = 0, 0
            while True:
                b = ord(text[i]) - 63
                i += 1
                result |= (b & 0x1F) << shift
                shift += 5
                if b < 0x20:
                    break
            vals.append(~(result >> 1) if result & 1 else result >> 1)
        lat += vals[0]
        lon += vals[1]
        points.append((lat / 10 ** precision, lon / 10 ** precision))
    return points


def encode(points, precision):
    out, plat, plon = [], 0, 0
    for lat, lon in points:
        ilat, ilon = round(lat * 10 ** precision), round(lon * 10 ** precision)
        for d in (ilat - plat, ilon - plon):
            v = ~(d << 1) if d < 0 else d << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        plat, plon = ilat, ilon
    return "".join(out)


def haversine(a, b):
    f1, f2 = math.radians(a[0]), math.radians(b[0])
    df, dl = f2 - f1, math.radians(b[1] - a[1])
    h = math.sin(df / 2) ** 2 + math.cos(f1) * math.cos(f2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def route_points(route, precision):
    g = route["geometry"]
    if isinstance(g, str):
        return decode(g, precision)
    return [(c[1], c[0]) for c in g["coordinates"]]


def index_of(points, location, start):
    """The first point from `start` nearest the step's location (lat, lon)."""
    best, at = None, start
    for i in range(start, len(points)):
        d = haversine(points[i], location)
        if best is None or d < best - 1e-9:
            best, at = d, i
        if d < 0.01:
            return i
    return at


VALHALLA = {
    ("turn", "slight right"): 9, ("turn", "right"): 10, ("turn", "sharp right"): 11, ("turn", "uturn"): 12,
    ("turn", "sharp left"): 14, ("turn", "left"): 15, ("turn", "slight left"): 16,
    ("new name", "straight"): 7, ("continue", "straight"): 8, ("notification", "straight"): 8,
}
GRAPHHOPPER = {
    ("turn", "slight right"): 1, ("turn", "right"): 2, ("turn", "sharp right"): 3, ("turn", "uturn"): 8,
    ("turn", "sharp left"): -3, ("turn", "left"): -2, ("turn", "slight left"): -1,
    ("new name", "straight"): 0, ("continue", "straight"): 0, ("notification", "straight"): 0,
}


def steps_with_indices(route, points):
    """Each leg's steps with the index of their maneuver's point in `points`."""
    legs, start = [], 0
    for leg in route["legs"]:
        out = []
        for s in leg["steps"]:
            lon, lat = s["maneuver"]["location"]
            start = index_of(points, (lat, lon), start)
            out.append((s, start))
        legs.append(out)
    return legs


def valhalla(route, points, units):
    unit = 1609.344 if units == "miles" else 1000.0
    legs = []
    for steps in steps_with_indices(route, points):
        first, last = steps[0][1], steps[-1][1]
        shape = points[first:last + 1]
        maneuvers = []
        for s, i in steps:
            m = s["maneuver"]
            t, mod = m["type"], m.get("modifier")
            if t == "depart":
                code = 1
            elif t == "arrive":
                code = {"right": 5, "left": 6}.get(mod, 4)
            elif t == "roundabout":
                code = 26
            elif t == "exit roundabout":
                code = 27
            elif s.get("mode") == "ferry":
                code = 28
            else:
                code = VALHALLA[(t, mod or "straight")]
            item = {"type": code, "instruction": "", "time": round(s["duration"], 3),
                    "length": round(s["distance"] / unit, 6), "begin_shape_index": i - first,
                    "end_shape_index": (steps[steps.index((s, i)) + 1][1] - first) if (s, i) != steps[-1] else i - first,
                    "travel_mode": "drive", "travel_type": "car"}
            if s.get("name"):
                item["street_names"] = [s["name"]]
            if code == 26:
                item["roundabout_exit_count"] = m["exit"]
            if s.get("mode") == "ferry":
                item["ferry"] = True
            maneuvers.append(item)
        length = sum(s["distance"] for s, _ in steps) / unit
        time = sum(s["duration"] for s, _ in steps)
        legs.append({"maneuvers": maneuvers, "summary": {"length": round(length, 6), "time": round(time, 3)},
                     "shape": encode(shape, 6)})
    return {"trip": {"locations": [], "legs": legs,
                     "summary": {"length": round(route["distance"] / unit, 6), "time": round(route["duration"], 3)},
                     "status_message": "Found route between points", "status": 0, "units": units, "language": "en-US"},
            "id": "drivesim sample"}


def graphhopper(route, points, encoded, multiplier=1e5):
    instructions = []
    legs = steps_with_indices(route, points)
    flat = [(s, i, l == len(legs) - 1, k == len(steps) - 1) for l, steps in enumerate(legs) for k, (s, i) in enumerate(steps)]
    for n, (s, i, final_leg, last_of_leg) in enumerate(flat):
        m = s["maneuver"]
        t, mod = m["type"], m.get("modifier")
        # A leg's departure after a via point is the via instruction's own point: one instruction, not two.
        if t == "depart" and n > 0:
            continue
        if t == "arrive":
            sign = 4 if final_leg else 5
        elif t == "depart":
            sign = 0
        elif t == "roundabout":
            sign = 6
        elif t == "exit roundabout":
            sign = -6
        elif s.get("mode") == "ferry":
            sign = 9
        else:
            sign = GRAPHHOPPER[(t, mod or "straight")]
        nxt = flat[n + 1][1] if n + 1 < len(flat) else i
        item = {"distance": round(s["distance"], 3), "sign": sign, "interval": [i, nxt], "text": "",
                "time": round(s["duration"] * 1000), "street_name": s.get("name") or ""}
        if sign == 6:
            item["exit_number"] = m["exit"]
            item["exited"] = True
        # After a via point the next leg's departure gives the distance and time on.
        if t == "arrive" and not final_leg:
            dep = flat[n + 1][0]
            item["distance"], item["time"] = 0.0, 0
        instructions.append(item)
    # The departure after a via point starts the next leg: its step becomes the instruction after the via.
    out, n = [], 0
    for l, steps in enumerate(legs):
        for k, (s, i) in enumerate(steps):
            if l > 0 and k == 0:
                m = {"distance": round(s["distance"], 3), "sign": 0, "interval": [i, steps[1][1] if len(steps) > 1 else i],
                     "text": "", "time": round(s["duration"] * 1000), "street_name": s.get("name") or ""}
                out.append(m)
                continue
            out.append(instructions[n])
            n += 1
    path = {"distance": round(route["distance"], 3), "weight": round(route["duration"], 3), "time": round(route["duration"] * 1000),
            "transfers": 0, "points_encoded": encoded, "instructions": out, "legs": [], "details": {}, "ascend": 0, "descend": 0,
            "snapped_waypoints": encode([points[0], points[-1]], 5)}
    if encoded:
        path["points_encoded_multiplier"] = multiplier
        path["points"] = encode(points, 6 if multiplier == 1e6 else 5)
    else:
        path["points"] = {"type": "LineString", "coordinates": [[lon, lat] for lat, lon in points]}
    return {"hints": {"visited_nodes.sum": 0}, "info": {"copyrights": [], "took": 0}, "paths": [path]}


def osrm(points, steps, name):
    """An OSRM-shaped response over `points` (lat, lon): `steps` are (point index, type, modifier, name, seconds, extra)."""
    legs, leg = [], []
    for k, (i, t, mod, street, seconds, extra) in enumerate(steps):
        j = steps[k + 1][0] if k + 1 < len(steps) else i
        d = sum(haversine(points[a], points[a + 1]) for a in range(i, j))
        m = {"type": t, "location": [points[i][1], points[i][0]]}
        if mod:
            m["modifier"] = mod
        s = {"maneuver": m, "name": street, "distance": round(d, 1), "duration": round(seconds(d), 1), "mode": "driving"}
        s.update(extra)
        leg.append(s)
        if t == "arrive":
            legs.append({"steps": leg, "distance": round(sum(x["distance"] for x in leg), 1),
                         "duration": round(sum(x["duration"] for x in leg), 1)})
            leg = []
    distance = round(sum(l["distance"] for l in legs), 1)
    duration = round(sum(l["duration"] for l in legs), 1)
    return {"code": "Ok", "routes": [{"geometry": encode(points, 6), "legs": legs, "distance": distance, "duration": duration}],
            "waypoints": [], "_comment": name}


def ferry():
    # 2 km to the terminal, 12 km by ferry in 50 minutes (boarding and waiting included), 2 km on.
    pts = [(54.5, 11.0), (54.5, 11.030946), (54.5, 11.216623), (54.5, 11.247569)]
    kmh50 = lambda d: d / (50 / 3.6)
    return osrm(pts, [
        (0, "depart", None, "E 47", kmh50, {}),
        (1, "notification", "straight", "Puttgarden - Rødby", lambda d: 3000, {"mode": "ferry"}),
        (2, "notification", "straight", "E 47", kmh50, {}),
        (3, "arrive", None, "", lambda d: 0, {}),
    ], "a ferry crossing")


def long_drive():
    # Seville to Bordeaux to Hamburg, a point every ~10 km, a turn at each city, 100 km/h.
    cities = [(37.3891, -5.9845), (40.4168, -3.7038), (43.2630, -2.9350), (44.8378, -0.5792),
              (47.2184, -1.5536), (48.8566, 2.3522), (50.8503, 4.3517), (52.3676, 4.9041), (53.5511, 9.9937)]
    pts, steps = [], []
    for c, (a, b) in enumerate(zip(cities, cities[1:])):
        n = max(1, int(haversine(a, b) / 10000))
        start = len(pts)
        for k in range(n):
            u = k / n
            pts.append((round(a[0] + (b[0] - a[0]) * u, 6), round(a[1] + (b[1] - a[1]) * u, 6)))
        turn = ("depart", None) if c == 0 else ("turn", "right" if c % 2 else "left")
        steps.append((start, turn[0], turn[1], "E %d" % (5 + 10 * c), lambda d: d / (100 / 3.6), {}))
    pts.append(cities[-1])
    steps.append((len(pts) - 1, "arrive", None, "", lambda d: 0, {}))
    return osrm(pts, steps, "a 2,100 km drive")


def write(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    write("ferry.osrm", ferry())
    write("long-drive.osrm", long_drive())
    for base, source, precision in [("roundabout", "roundabout.osrm", 5), ("via-point", "via-point.valhalla", 6),
                                    ("ferry", "ferry.osrm", 6), ("long-drive", "long-drive.osrm", 6)]:
        with open(os.path.join(HERE, source), encoding="utf-8") as f:
            route = json.load(f)["routes"][0]
        points = route_points(route, precision)
        units = "miles" if base in ("roundabout", "long-drive") else "kilometers"
        write(base + ".trip.valhalla", valhalla(route, points, units))
        encoded = base != "via-point"
        write(base + ".paths.graphhopper", graphhopper(route, points, encoded, 1e5 if precision == 5 else 1e6))


if __name__ == "__main__":
    main()
