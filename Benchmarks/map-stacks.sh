#!/bin/sh
# Times `drivesim import-route` and `drivesim run` (whole process, release build)
# on generated Kakao Mobility routes of 250, 500, 1,000 and 2,000 guides over
# 2,000 km (Scenarios/routes/responses/services.py --generated N), best of
# three each. For docs/benchmarks.md ("The map stacks: Kakao").
#
#     swift build -c release --product drivesim && sh Benchmarks/map-stacks.sh
set -eu
. Benchmarks/best.sh
printf '| guides | response | maneuvers | import-route (wall / CPU) | run (wall / CPU) |\n|---|---|---|---|---|\n'
for n in 250 500 1000 2000; do
  python3 Scenarios/routes/responses/services.py --generated "$n" > "$dir/g.kakao"
  "$bin" import-route "$dir/g.kakao" --language ko --out "$dir/g.json" 2> /dev/null
  m=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['road']['route']['maneuvers']))" "$dir/g.json")
  kb=$(( $(wc -c < "$dir/g.kakao") / 1024 ))
  set -- $(best "$bin" import-route "$dir/g.kakao" --language ko --out "$dir/h.json"); iw=$1 iu=$2
  set -- $(best "$bin" run "$dir/g.json"); rw=$1 ru=$2
  printf '| %s | %s KB | %s | %s s / %s s | %s s / %s s |\n' "$n" "$kb" "$m" "$iw" "$iu" "$rw" "$ru"
done
