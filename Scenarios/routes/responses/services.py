#!/usr/bin/env python3
"""Writes drivesim's own samples of the app's map stacks beside this file,
one drive through Seoul (Gangnam to the Namsan side) in each service's
words: Kakao Mobility directions (`seoul.kakao`), Google Routes v2
(`seoul.routes.google`), Google Directions legacy
(`seoul.directions.google`) and the Apple Maps Server API (`seoul.apple`),
shaped like each service's documented responses; and, with `--generated N`, a route of N
guides over 2,000 km on standard output for the benchmarks (`generated`;
`--generated N FORMAT` the same route as google, google-legacy, apple or osrm).

    python3 Scenarios/routes/responses/services.py

Deterministic: the same files every run. No service's response is read or copied.
"""
import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("native", os.path.join(HERE, "native.py"))
native = importlib.util.module_from_spec(spec)
spec.loader.exec_module(native)

LAT0, LON0 = 37.5, 127.03


def geo(x, y):
    """Local meters (east, north) from near 역삼역 as (lat, lon)."""
    return (round(LAT0 + y / 111_195.0, 6), round(LON0 + x / (111_195.0 * math.cos(math.radians(LAT0))), 6))


def length(points):
    return sum(native.haversine(a, b) for a, b in zip(points, points[1:]))


def dense(corners, step=100.0):
    """The corners (local meters) with a point every `step` meters between them."""
    out = [corners[0]]
    for (ax, ay), (bx, by) in zip(corners, corners[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay) // step))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(1, n + 1)]
    return [geo(x, y) for x, y in out]


# Each leg: roads in order, each (corners, name, km/h, guide at its start or None).
# A guide: (kakao type, kakao name, kakao guidance, Google maneuver, English instruction).
# Kakao types other than 0-6, 100, 101 and 1000 are placeholders (not checked against
# Kakao's table): drivesim reads those guides by their words (docs/import.md).
SEOUL = [
    [
        ([(0, 0), (600, 0)], "테헤란로", 36, None),
        ([(600, 0), (600, -500)], "선릉로", 40,
         (2, "역삼역사거리", "역삼역 방면으로 우회전", "TURN_RIGHT", "Turn right onto Seolleung-ro")),
        ([(600, -500), (1000, -500)], "", 30,
         (1, "선정릉사거리", "삼성,코엑스 방면으로 좌회전", "TURN_LEFT", "Turn left toward Samseong")),
    ],
    [
        ([(1000, -500), (700, -500)], "", 30, None),
        ([(700, -500), (700, 1000)], "언주로", 40, (12, "", "2시 방향", "TURN_RIGHT", "Turn right onto Eonju-ro")),
        ([(700, 1000), (760, 1100), (760, 1400)], "서초IC", 50,
         (61, "서초IC", "서초IC에서 부산,대전 방면으로 오른쪽 고속도로 진입", "RAMP_RIGHT", "Take the ramp onto Gyeongbu Expressway")),
        ([(760, 1400), (760, 6400)], "경부고속도로", 100, None),
        ([(760, 6400), (760, 9400)], "경부고속도로", 100,
         (17, "", "서울 방면으로 12시 방향", "STRAIGHT", "Continue straight to stay on Gyeongbu Expressway")),
        ([(760, 9400), (700, 9500), (700, 11500)], "강변북로", 80,
         (5, "한남JC", "한남JC 강변북로,구리 방면으로 왼쪽 방향", "FORK_LEFT", "Keep left at the fork toward Gangbyeonbuk-ro")),
        ([(700, 11500), (760, 11600), (760, 11900)], "", 40,
         (72, "한남IC", "한남IC 이태원,남산 방면으로 오른쪽 출구", "RAMP_RIGHT", "Take the exit toward Itaewon")),
        ([(760, 11900), (760, 12300)], "", 36, (88, "남산1호터널 요금소", "남산1호터널 요금소 (통행료 2,000원)", None, "")),
        ([(760, 12300), (740, 12320), (700, 12320), (400, 12320)], "", 27,
         (39, "", "회전교차로에서 9시 방향", "ROUNDABOUT_LEFT", "At the roundabout, take the 3rd exit")),
        ([(400, 12320), (188, 12108)], "판교역로192번길", 30,
         (8, "", "8시 방향 좌회전", "TURN_SHARP_LEFT", "Turn sharp left onto Pangyoyeok-ro 192beon-gil\nDestination will be on the right")),
    ],
]


def kakao(legs, name):
    sections, total, seconds = [], 0, 0
    for l, leg in enumerate(legs):
        roads, guides = [], []
        at_guide_m, at_guide_s = 0, 0
        first = dense(leg[0][0])[0]
        guides.append({"name": "출발지" if l == 0 else "경유지", "x": first[1], "y": first[0], "distance": 0, "duration": 0,
                       "type": 100 if l == 0 else 1000, "guidance": "출발지" if l == 0 else "경유지", "road_index": 0})
        for r, (corners, road_name, kmh, guide) in enumerate(leg):
            points = dense(corners)
            meters = round(length(points))
            secs = round(meters / (kmh / 3.6))
            if guide and r > 0:
                code, gname, guidance, _, _ = guide
                guides.append({"name": gname, "x": points[0][1], "y": points[0][0], "distance": at_guide_m, "duration": at_guide_s,
                               "type": code, "guidance": guidance, "road_index": r})
                at_guide_m, at_guide_s = 0, 0
            at_guide_m += meters
            at_guide_s += secs
            roads.append({"name": road_name, "distance": meters, "duration": secs, "traffic_speed": float(kmh), "traffic_state": 4,
                          "vertexes": [v for p in points for v in (p[1], p[0])]})
        end = dense(leg[-1][0])[-1]
        last = l == len(legs) - 1
        guides.append({"name": "목적지" if last else "경유지", "x": end[1], "y": end[0], "distance": at_guide_m, "duration": at_guide_s,
                       "type": 101 if last else 1000, "guidance": "목적지" if last else "경유지", "road_index": -1})
        meters, secs = sum(r["distance"] for r in roads), sum(r["duration"] for r in roads)
        total += meters
        seconds += secs
        sections.append({"distance": meters, "duration": secs, "roads": roads, "guides": guides})
    start, end = dense(legs[0][0][0])[0], dense(legs[-1][-1][0])[-1]
    return {"trans_id": "drivesim-" + name, "routes": [{
        "result_code": 0, "result_msg": "길찾기 성공",
        "summary": {"origin": {"name": "", "x": start[1], "y": start[0]}, "destination": {"name": "", "x": end[1], "y": end[0]},
                    "waypoints": [], "priority": "RECOMMEND", "fare": {"taxi": 0, "toll": 2000}, "distance": total, "duration": seconds},
        "sections": sections}]}


def service_steps(legs):
    """Each leg as steps: (points, maneuver, instruction, meters, seconds); a step from each guide to the next."""
    out = []
    for leg in legs:
        steps = []
        for r, (corners, road_name, kmh, guide) in enumerate(leg):
            points = dense(corners)
            meters = length(points)
            if r == 0 or (guide and guide[3] is not None):
                maneuver, text = ("DEPART", "Head east") if r == 0 else (guide[3], guide[4])
                steps.append([points, maneuver, text, meters, meters / (kmh / 3.6)])
            else:
                s = steps[-1]
                s[0] = s[0] + points[1:]
                s[3] += meters
                s[4] += meters / (kmh / 3.6)
        out.append(steps)
    return out


def google(legs):
    glegs, all_points = [], []
    for steps in service_steps(legs):
        gsteps = []
        for points, maneuver, text, meters, secs in steps:
            all_points += points if not all_points else points[1:]
            miles = meters / 1609.344
            gsteps.append({
                "distanceMeters": round(meters), "staticDuration": f"{round(secs)}s",
                "polyline": {"encodedPolyline": native.encode(points, 5)},
                "startLocation": {"latLng": {"latitude": points[0][0], "longitude": points[0][1]}},
                "endLocation": {"latLng": {"latitude": points[-1][0], "longitude": points[-1][1]}},
                "navigationInstruction": {"maneuver": maneuver, "instructions": text},
                "localizedValues": {"distance": {"text": f"{miles:.1f} mi"}, "staticDuration": {"text": f"{max(1, round(secs / 60))} min"}},
                "travelMode": "DRIVE"})
        glegs.append({"distanceMeters": sum(s["distanceMeters"] for s in gsteps), "steps": gsteps})
    total = sum(l["distanceMeters"] for l in glegs)
    secs = sum(int(s["staticDuration"][:-1]) for l in glegs for s in l["steps"])
    # No route polyline (a field mask without it): the legs' are joined.
    return {"routes": [{"legs": glegs, "distanceMeters": total, "duration": f"{secs}s", "staticDuration": f"{secs}s"}]}


LEGACY = {"TURN_RIGHT": "turn-right", "TURN_LEFT": "turn-left", "RAMP_RIGHT": "ramp-right", "FORK_LEFT": "fork-left",
          "ROUNDABOUT_LEFT": "roundabout-left", "TURN_SHARP_LEFT": "turn-sharp-left"}


def legacy(legs):
    glegs = []
    for steps in service_steps(legs):
        gsteps = []
        for points, maneuver, text, meters, secs in steps:
            lines = text.split("\n")
            html = lines[0].replace(" onto ", " onto <b>").replace(" toward ", " toward <b>")
            html += "</b>" if "<b>" in html else ""
            if len(lines) > 1:
                html += f'<div style="font-size:0.9em">{lines[1]}</div>'
            step = {"distance": {"text": f"{meters / 1000:.1f} km", "value": round(meters)},
                    "duration": {"text": f"{max(1, round(secs / 60))} mins", "value": round(secs)},
                    "start_location": {"lat": points[0][0], "lng": points[0][1]},
                    "end_location": {"lat": points[-1][0], "lng": points[-1][1]},
                    "html_instructions": html, "polyline": {"points": native.encode(points, 5)}, "travel_mode": "DRIVING"}
            # The straight-on step has no maneuver, as Google leaves it out on some.
            if maneuver in LEGACY:
                step["maneuver"] = LEGACY[maneuver]
            gsteps.append(step)
        glegs.append({"distance": {"value": sum(s["distance"]["value"] for s in gsteps)},
                      "duration": {"value": sum(s["duration"]["value"] for s in gsteps)}, "steps": gsteps})
    return {"geocoded_waypoints": [{"geocoder_status": "OK"}] * (len(legs) + 1),
            "routes": [{"legs": glegs, "summary": "Gyeongbu Expressway", "overview_polyline": {"points": ""}}], "status": "OK"}


def apple(legs):
    """One leg (Apple has no waypoints): the second leg's drive, then a walk from where the car is parked."""
    steps, paths = [], []
    for points, maneuver, text, meters, secs in service_steps(legs)[1]:
        paths.append([{"latitude": p[0], "longitude": p[1]} for p in points])
        words = text.split("\n")
        steps.append({"stepPathIndex": len(paths) - 1, "distanceMeters": round(meters), "durationSeconds": round(secs),
                      "instructions": words[-1] if maneuver == "TURN_SHARP_LEFT" else words[0] if maneuver != "DEPART" else "",
                      "transportType": "AUTOMOBILE"})
    end = paths[-1][-1]
    walk = [end, {"latitude": round(end["latitude"] + 0.0003, 6), "longitude": end["longitude"]}]
    paths.append(walk)
    steps.append({"stepPathIndex": len(paths) - 1, "distanceMeters": 33, "durationSeconds": 25, "instructions": "Walk to your destination",
                  "transportType": "WALKING"})
    return {"origin": {"coordinate": paths[0][0]}, "destination": {"coordinate": walk[-1]},
            "routes": [{"name": "Gyeongbu Expressway", "distanceMeters": sum(s["distanceMeters"] for s in steps),
                        "durationSeconds": sum(s["durationSeconds"] for s in steps), "transportType": "AUTOMOBILE",
                        "stepIndexes": list(range(len(steps))), "hasTolls": True}],
            "steps": steps, "stepPaths": paths}


def generated(n, kilometers=2000):
    """A Kakao route of `n` guides over `kilometers` (a zigzag north and east of Seoul,
    a left and a right by turns), driven at 100 km/h: the benchmarks' routes."""
    leg, x, y, heading, spacing = [], 0.0, 0.0, 0, kilometers * 1000.0 / n
    for k in range(n):
        dx, dy = [(0, 1), (1, 0)][heading]
        corners = [(x, y), (x + dx * spacing, y + dy * spacing)]
        guide = None if k == 0 else ((1, "", "좌회전", "TURN_LEFT", f"Turn left onto Road {k}") if heading == 0
                                     else (2, "", "우회전", "TURN_RIGHT", f"Turn right onto Road {k}"))
        leg.append((corners, f"도로{k}", 100, guide))
        x, y = corners[-1]
        heading = 1 - heading
    return kakao([leg], f"generated-{n}")


def generated_as(n, form):
    """The route `generated(n)` says, in `form`'s words: kakao, google, google-legacy, apple or osrm (the benchmarks)."""
    if form == "kakao":
        return generated(n)
    legs = [[]]
    spacing, x, y, heading = 2_000_000.0 / n, 0.0, 0.0, 0
    for k in range(n):
        dx, dy = [(0, 1), (1, 0)][heading]
        corners = [(x, y), (x + dx * spacing, y + dy * spacing)]
        guide = None if k == 0 else ((1, "", "좌회전", "TURN_LEFT", f"Turn left onto Road {k}") if heading == 0
                                     else (2, "", "우회전", "TURN_RIGHT", f"Turn right onto Road {k}"))
        legs[0].append((corners, f"Road {k}", 100, guide))
        x, y = corners[-1]
        heading = 1 - heading
    if form == "google":
        return google(legs)
    if form == "google-legacy":
        return legacy(legs)
    steps, paths = [], []
    for points, maneuver, text, meters, secs in service_steps(legs)[0]:
        paths.append(points)
        steps.append((points, maneuver, text, meters, secs))
    if form == "apple":
        return {"routes": [{"distanceMeters": round(sum(s[3] for s in steps)), "durationSeconds": round(sum(s[4] for s in steps)),
                            "stepIndexes": list(range(len(steps))), "transportType": "AUTOMOBILE"}],
                "steps": [{"stepPathIndex": k, "distanceMeters": round(s[3]), "durationSeconds": round(s[4]),
                           "instructions": "" if k == 0 else s[2], "transportType": "AUTOMOBILE"} for k, s in enumerate(steps)],
                "stepPaths": [[{"latitude": p[0], "longitude": p[1]} for p in path] for path in paths]}
    # OSRM: the steps' lines joined, a turn at each step's start.
    points, at = [], []
    for path in paths:
        at.append(len(points) - 1 if points else 0)
        points += path if not points else path[1:]
    kinds = [(at[0], "depart", None)] + [(at[k], "turn", "left" if s[1] == "TURN_LEFT" else "right") for k, s in enumerate(steps) if k > 0]
    kinds.append((len(points) - 1, "arrive", None))
    return native.osrm(points, [(i, t, m, "", lambda d: d / (100 / 3.6), {}) for i, t, m in kinds], f"generated-{n}")


def write(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--generated":
        json.dump(generated_as(int(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else "kakao"), sys.stdout, ensure_ascii=False)
        return
    write("seoul.kakao", kakao(SEOUL, "seoul"))
    write("seoul.routes.google", google(SEOUL))
    write("seoul.directions.google", legacy(SEOUL))
    write("seoul.apple", apple(SEOUL))


if __name__ == "__main__":
    main()
