#!/usr/bin/env python3
"""Writes drivesim's own samples of how Google words a route, beside this
file: the names a navigator reads out of each instruction (issue 50).
Each is shaped like the examples in Google's documentation (legacy
Directions: `html_instructions` with `<b>` runs and a `<div>` for the
destination's side; Routes v2: `navigationInstruction.instructions` with
the side on its last line); the places are real, the lines and the words
made up here. No service's response is read or copied.

    python3 Scenarios/routes/responses/words.py

Deterministic: the same files every run.
"""
import importlib.util
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("native", os.path.join(HERE, "native.py"))
native = importlib.util.module_from_spec(spec)
spec.loader.exec_module(native)

LEGACY = {"TURN_RIGHT": "turn-right", "TURN_LEFT": "turn-left", "RAMP_RIGHT": "ramp-right", "RAMP_LEFT": "ramp-left",
          "FORK_LEFT": "fork-left", "FORK_RIGHT": "fork-right", "KEEP_LEFT": "keep-left", "KEEP_RIGHT": "keep-right",
          "MERGE": "merge", "ROUNDABOUT_RIGHT": "roundabout-right", "ROUNDABOUT_LEFT": "roundabout-left",
          "TURN_SLIGHT_LEFT": "turn-slight-left", "TURN_SLIGHT_RIGHT": "turn-slight-right", "STRAIGHT": "straight"}


def points_of(origin, corners, step=50.0):
    lat0, lon0 = origin
    out = [corners[0]]
    for (ax, ay), (bx, by) in zip(corners, corners[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay) // step))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(1, n + 1)]
    return [(round(lat0 + y / 111_195.0, 6), round(lon0 + x / (111_195.0 * math.cos(math.radians(lat0))), 6)) for x, y in out]


def length(points):
    return sum(native.haversine(a, b) for a, b in zip(points, points[1:]))


def steps_of(origin, route):
    """Each step: (points, km/h, maneuver, words); a step's line runs from its corner to the next step's."""
    out = []
    for corners, kmh, maneuver, words in route:
        points = points_of(origin, corners)
        meters = length(points)
        out.append((points, meters, meters / (kmh / 3.6), maneuver, words))
    return out


def legacy(origin, route):
    """Google Directions (legacy): `words` is the step's `html_instructions`."""
    steps = []
    for points, meters, secs, maneuver, html in steps_of(origin, route):
        step = {"distance": {"text": f"{meters / 1000:.1f} km", "value": round(meters)},
                "duration": {"text": f"{max(1, round(secs / 60))} mins", "value": round(secs)},
                "end_location": {"lat": points[-1][0], "lng": points[-1][1]},
                "html_instructions": html, "polyline": {"points": native.encode(points, 5)},
                "start_location": {"lat": points[0][0], "lng": points[0][1]}, "travel_mode": "DRIVING"}
        if maneuver in LEGACY:
            step["maneuver"] = LEGACY[maneuver]
        steps.append(step)
    leg = {"distance": {"value": sum(s["distance"]["value"] for s in steps)},
           "duration": {"value": sum(s["duration"]["value"] for s in steps)}, "steps": steps}
    return {"geocoded_waypoints": [{"geocoder_status": "OK"}] * 2,
            "routes": [{"legs": [leg], "overview_polyline": {"points": ""}, "summary": ""}], "status": "OK"}


def routes_v2(origin, route):
    """Google Routes v2: `words` is the step's `navigationInstruction.instructions`."""
    steps = []
    for points, meters, secs, maneuver, text in steps_of(origin, route):
        step = {"distanceMeters": round(meters), "staticDuration": f"{round(secs)}s",
                "polyline": {"encodedPolyline": native.encode(points, 5)},
                "startLocation": {"latLng": {"latitude": points[0][0], "longitude": points[0][1]}},
                "endLocation": {"latLng": {"latitude": points[-1][0], "longitude": points[-1][1]}},
                "travelMode": "DRIVE"}
        if maneuver:
            step["navigationInstruction"] = {"maneuver": maneuver, "instructions": text}
        steps.append(step)
    total = sum(s["distanceMeters"] for s in steps)
    secs = sum(int(s["staticDuration"][:-1]) for s in steps)
    return {"routes": [{"distanceMeters": total, "duration": f"{secs}s", "legs": [{"distanceMeters": total, "steps": steps}],
                        "staticDuration": f"{secs}s"}]}


# Downtown Boston, in Korean (legacy, language=ko): the street and the toward in Google's own <b> runs.
BOSTON_KO = [
    ([(0, 0), (0, 300)], 30, None, "<b>Summer St</b>에서 <b>북쪽</b>으로 향하기"),
    ([(0, 300), (400, 300)], 30, "TURN_RIGHT", "<b>우회전</b>하여 <b>Otis St</b>에 진입"),
    ([(400, 300), (400, 700)], 30, "TURN_LEFT", "<b>Franklin St</b> 방면으로 <b>Devonshire St</b>(으)로 <b>좌회전</b>"),
    ([(400, 700), (800, 700)], 30, "TURN_RIGHT",
     "<b>우회전</b>하여 <b>State St</b>에 진입<div style=\"font-size:0.9em\">목적지는 오른쪽에 있습니다.</div>"),
]

# Toronto, in English (legacy): "/" lists, "stay on", "follow signs for", an exit's number, name and toward apart.
TORONTO = [
    ([(0, 0), (0, 500)], 50, None, "Head <b>north</b> on <b>Keele St</b> toward <b>Finch Ave W</b>"),
    ([(0, 500), (-600, 500)], 50, "TURN_LEFT", "Turn <b>left</b> onto <b>Steeles Ave W</b>"),
    ([(-600, 500), (-640, 800), (-640, 1300)], 50, "KEEP_RIGHT", "Keep <b>right</b> to stay on <b>Steeles Ave W</b>"),
    ([(-640, 1300), (-1240, 1300)], 50, "TURN_LEFT", "Turn <b>left</b> toward <b>Jane St/York Regional Rd 55</b>"),
    ([(-1240, 1300), (-1260, 1500), (-1260, 2000)], 60, "RAMP_RIGHT", "Take the ramp onto <b>ON-407 ETR</b>"),
    ([(-1260, 2000), (-1260, 5000)], 100, "MERGE", "Merge onto <b>ON-407 ETR</b>"),
    ([(-1260, 5000), (-1300, 5200), (-1300, 5700)], 100, "RAMP_LEFT",
     "Take the exit onto <b>ON-427 S</b> toward <b>ON-401 W</b>"),
    ([(-1300, 5700), (-1300, 8700)], 100, "FORK_LEFT",
     "Keep <b>left</b> at the fork to continue on <b>ON-427 S</b>, follow signs for <b>Toronto Pearson Airport</b>"),
    ([(-1300, 8700), (-1260, 8900), (-1260, 9400)], 50, "RAMP_RIGHT",
     "Take exit <b>38</b> for <b>Dixon Rd</b> toward <b>Airport</b>"),
    ([(-1260, 9400), (-1760, 9400)], 50, "TURN_LEFT",
     "Turn <b>left</b> onto <b>Dixon Rd</b><div style=\"font-size:0.9em\">Destination will be on the left</div>"),
]

# Aveiro, Routes v2 in English: an abbreviation with its dot, a street and a toward in plain text.
AVEIRO = [
    ([(0, 0), (400, 0)], 40, "DEPART", "Head east on R. de Viseu toward Av. Artur Ravara"),
    ([(400, 0), (400, 500)], 40, "TURN_LEFT", "Turn left onto Av. Artur Ravara"),
    ([(400, 500), (900, 500)], 40, "TURN_RIGHT", "Turn right onto R. Cap. Sousa Pizarro toward Praia da Barra/Ílhavo"),
    ([(900, 500), (900, 900)], 40, "TURN_LEFT", "Turn left to stay on R. Cap. Sousa Pizarro\nDestination will be on the right"),
]


def write(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    write("boston-ko.directions.google", legacy((42.3552, -71.0605), BOSTON_KO))
    write("toronto.directions.google", legacy((43.7800, -79.4900), TORONTO))
    write("aveiro.routes.google", routes_v2((40.6405, -8.6538), AVEIRO))


if __name__ == "__main__":
    main()
