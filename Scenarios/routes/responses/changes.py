#!/usr/bin/env python3
"""Writes drivesim's own samples of a drive whose route changes twice, three
responses in three services' words, beside this file (docs/import.md,
"Route changes"):

- `gangnam.kakao` (Kakao Mobility): east on 테헤란로, right onto 선릉로;
- `gangnam-reroute.routes.google` (Google Routes v2): the car turned north
  at 500 m instead; the app asks from 120 m up that road: north on 언주로,
  right onto 도산대로;
- `gangnam-handoff.apple` (Apple Maps Server): Pippa's petrol station, asked
  from 도산대로: right onto 학동로, the station on the right.

    python3 Scenarios/routes/responses/changes.py
    drivesim import-route Scenarios/routes/responses/gangnam.kakao --language ko \\
        --reroute Scenarios/routes/responses/gangnam-reroute.routes.google \\
        --handoff Scenarios/routes/responses/gangnam-handoff.apple --sent 142,143.5 --destination "학동로 주유소"

With `--generated N DIR`, the benchmarks' pair instead (docs/benchmarks.md,
"Route changes"): `DIR/first.kakao`, services.py's route of N guides over
2,000 km, and `DIR/reroute.kakao`, N/2 guides over 1,000 km asked 100 m
west of the first's middle corner, zigzagging north and west away from it.

Shaped like each service's documented responses, as services.py writes them.
Deterministic: the same files every run. No service's response is read or copied.
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("services", os.path.join(HERE, "services.py"))
services = importlib.util.module_from_spec(spec)
spec.loader.exec_module(services)

# One leg each: roads in order, each (corners in local meters, name, km/h, guide at its start or None),
# a guide as services.py's: (kakao type, kakao name, kakao guidance, Google maneuver, English instruction).
FIRST = [[
    ([(0, 0), (1200, 0)], "테헤란로", 40, None),
    ([(1200, 0), (1200, -600)], "선릉로", 40, (2, "선릉역사거리", "선릉역 방면으로 우회전", "TURN_RIGHT", "Turn right onto Seolleung-ro")),
]]
REROUTE = [[
    ([(500, 120), (500, 700)], "언주로", 40, None),
    ([(500, 700), (1500, 700)], "도산대로", 40, (2, "", "우회전", "TURN_RIGHT", "Turn right onto 도산대로")),
]]
HANDOFF = [[
    ([(900, 700), (1100, 700)], "도산대로", 40, None),
    ([(1100, 700), (1100, 400)], "학동로", 30, (2, "", "우회전", "TURN_RIGHT", "Turn right onto 학동로. The destination is on your right.")),
]]


def apple(legs):
    """The Apple Maps Server shape of one leg, every step driven."""
    steps, paths = [], []
    for points, maneuver, text, meters, secs in services.service_steps(legs)[0]:
        paths.append([{"latitude": p[0], "longitude": p[1]} for p in points])
        steps.append({"stepPathIndex": len(paths) - 1, "distanceMeters": round(meters), "durationSeconds": round(secs),
                      "instructions": "" if maneuver == "DEPART" else text, "transportType": "AUTOMOBILE"})
    return {"origin": {"coordinate": paths[0][0]}, "destination": {"coordinate": paths[-1][-1]},
            "routes": [{"name": "Hakdong-ro", "distanceMeters": sum(s["distanceMeters"] for s in steps),
                        "durationSeconds": sum(s["durationSeconds"] for s in steps), "transportType": "AUTOMOBILE",
                        "stepIndexes": list(range(len(steps))), "hasTolls": False}],
            "steps": steps, "stepPaths": paths}


def generated_pair(n, folder):
    first = services.generated(n)
    spacing, x, y = 2_000_000.0 / n, 0.0, 0.0
    for k in range(n // 2):
        x, y = (x, y + spacing) if k % 2 == 0 else (x + spacing, y)
    leg, x, heading = [], x - 100, 0
    for k in range(n // 2):
        dx, dy = [(0, 1), (-1, 0)][heading]
        corners = [(x, y), (x + dx * spacing, y + dy * spacing)]
        guide = None if k == 0 else ((2, "", "우회전", None, "") if heading == 0 else (1, "", "좌회전", None, ""))
        leg.append((corners, f"우회로{k}", 100, guide))
        x, y = corners[-1]
        heading = 1 - heading
    for name, doc in (("first.kakao", first), ("reroute.kakao", services.kakao([leg], f"reroute-{n}"))):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--generated":
        generated_pair(int(sys.argv[2]), sys.argv[3])
        return
    services.write("gangnam.kakao", services.kakao(FIRST, "gangnam"))
    services.write("gangnam-reroute.routes.google", services.google(REROUTE))
    services.write("gangnam-handoff.apple", apple(HANDOFF))


if __name__ == "__main__":
    main()
