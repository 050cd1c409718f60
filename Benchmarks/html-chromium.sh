#!/usr/bin/env bash
# The HTML page (`drivesim run --format html`) in headless Chromium: for a
# small scenario and a generated 2-hour drive, a screenshot of each, then the
# page's own self-test (PAGE#selftest zooms in 16 times, pans 16 times, zooms
# out 16 times, timing every drawing), read back with --dump-dom. Fails if the
# page did not parse every event of the timeline or a drawing stalled.
#
#   Benchmarks/html-chromium.sh [DRIVESIM] [OUT-FOLDER]
#
# Skips (exit 0) when no `chromium` is on the PATH (Debian: apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
drivesim="${1:-.build/release/drivesim}"
out="${2:-$(mktemp -d)}"
stall_ms="${HTML_STALL_MS:-1000}"   # one drawing slower than this is a stall
mkdir -p "$out"

if ! command -v chromium > /dev/null; then
  echo "html-chromium: skipped, no chromium on the PATH"
  exit 0
fi
browser() {
  # --no-sandbox: CI runs as root in a container. The D-Bus complaints are noise.
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,560 "$@" 2> /dev/null
}

"$drivesim" generate --hours 2 --out "$out/drive-2h.json" > /dev/null
status=0
for name in urgent-cut drive-2h; do
  scenario="Scenarios/$name.json"
  [ "$name" = drive-2h ] && scenario="$out/drive-2h.json"
  "$drivesim" run "$scenario" --format html --out "$out/$name.html" || [ $? -eq 1 ]
  events=$("$drivesim" run "$scenario" --format json | grep -c '"event": ' || true)
  start=$(date +%s%N)
  browser --screenshot="$out/$name.png" "file://$(realpath "$out/$name.html")" > /dev/null
  shot_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  # And zoomed to a collision (PAGE#collision=K), as a person stepping through them sees it.
  browser --virtual-time-budget=5000 --screenshot="$out/$name-collision.png" "file://$(realpath "$out/$name.html")#collision=1" > /dev/null
  start=$(date +%s%N)
  report=$(browser --virtual-time-budget=20000 --dump-dom "file://$(realpath "$out/$name.html")#selftest" \
    | sed -n '/<pre id="selftest">/,/<\/pre>/p')
  test_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  seen=$(sed -n 's/.*events \([0-9]*\).*/\1/p' <<< "$report" | head -1)
  max=$(sed -n 's/^max ms \([0-9.]*\).*/\1/p' <<< "$report")
  echo "$name: $events events, page $(( $(wc -c < "$out/$name.html") / 1024 )) KiB;" \
    "screenshot $shot_ms ms (whole browser run); self-test $test_ms ms;" \
    "$(tr '\n' ';' <<< "$report" | sed 's/<[^>]*>//g; s/;each ms.*//')"
  if [ "$seen" != "$events" ]; then
    echo "html-chromium: $name: the page parsed ${seen:-no} events, the timeline has $events"
    status=1
  fi
  if [ -z "$max" ] || awk -v m="$max" -v l="$stall_ms" 'BEGIN { exit !(m > l) }'; then
    echo "html-chromium: $name: a drawing took ${max:-?} ms (limit $stall_ms ms)"
    status=1
  fi
done
echo "screenshots: $out/urgent-cut.png $out/drive-2h.png, zoomed to a collision: $out/urgent-cut-collision.png $out/drive-2h-collision.png"
exit $status
