#!/bin/sh
# Times `drivesim import-route` and `drivesim run` (whole process, release build)
# on the same generated route of 250, 500, 1,000 and 2,000 steps over about
# 2,000 km in each map stack's format: Kakao Mobility, Google Routes v2,
# Google Directions (legacy), Apple and OSRM
# (Scenarios/routes/responses/services.py --generated N FORMAT), best of
# three each. For docs/benchmarks.md ("The map stacks").
#
#     swift build -c release --product drivesim && sh Benchmarks/map-stacks.sh [FORMAT...]
set -eu
. Benchmarks/best.sh
formats=${*:-kakao google google-legacy apple osrm}
printf '| format | steps | response | maneuvers | import-route (wall / CPU) | run (wall / CPU) |\n|---|---|---|---|---|---|\n'
for f in $formats; do
  for n in 250 500 1000 2000; do
    python3 Scenarios/routes/responses/services.py --generated "$n" "$f" > "$dir/g.$f"
    "$bin" import-route "$dir/g.$f" --language ko --out "$dir/g.json" 2> /dev/null
    m=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['road']['route']['maneuvers']))" "$dir/g.json")
    kb=$(( $(wc -c < "$dir/g.$f") / 1024 ))
    set -- $(best "$bin" import-route "$dir/g.$f" --language ko --out "$dir/h.json"); iw=$1 iu=$2
    set -- $(best "$bin" run "$dir/g.json"); rw=$1 ru=$2
    printf '| %s | %s | %s KB | %s | %s s / %s s | %s s / %s s |\n' "$f" "$n" "$kb" "$m" "$iw" "$iu" "$rw" "$ru"
  done
done
