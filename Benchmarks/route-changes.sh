#!/bin/sh
# Times `drivesim import-route` of a generated Kakao route alone and with a
# reroute from a second response (`--reroute`), and `drivesim run` of the
# result (whole process, release build, best of three each), for routes of
# 250, 500, 1,000 and 2,000 guides over 2,000 km with a reroute of half as
# many over 1,000 km from the middle (Scenarios/routes/responses/changes.py
# --generated N). For docs/benchmarks.md ("Route changes from responses").
#
#     swift build -c release --product drivesim && sh Benchmarks/route-changes.sh
set -eu
. Benchmarks/best.sh
printf '| guides (first + reroute) | import-route alone (wall / CPU) | with --reroute (wall / CPU) | run (wall / CPU) |\n|---|---|---|---|\n'
for n in 250 500 1000 2000; do
  python3 Scenarios/routes/responses/changes.py --generated "$n" "$dir"
  set -- $(best "$bin" import-route "$dir/first.kakao" --language ko --out "$dir/a.json"); aw=$1 au=$2
  set -- $(best "$bin" import-route "$dir/first.kakao" --language ko --reroute "$dir/reroute.kakao" --out "$dir/g.json"); iw=$1 iu=$2
  set -- $(best "$bin" run "$dir/g.json"); rw=$1 ru=$2
  printf '| %s + %s | %s s / %s s | %s s / %s s | %s s / %s s |\n' "$n" "$((n / 2))" "$aw" "$au" "$iw" "$iu" "$rw" "$ru"
done
