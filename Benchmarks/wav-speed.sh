#!/usr/bin/env bash
# How fast `drivesim run FILE --format wav` is with the built-in voices, as
# a whole process (start-up, decoding, both runs, every check, the sound):
# generated talk drives of 1, 2 and 8 hours (seed 1), each written to a file
# (then removed) and to /dev/null (the disk left out), best of RUNS (3).
# Prints CPU (user + sys) and wall seconds, the times real time on one core
# (hours of drive per CPU second), the peak memory, and per hour ÷ 1 h.
#
#   Benchmarks/wav-speed.sh [DRIVESIM] [OUT-FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
drivesim="${1:-.build/release/drivesim}"
out="${2:-$(mktemp -d)}"
runs="${RUNS:-3}"
mkdir -p "$out"
printf "%-6s %-10s %9s %8s %8s %10s %9s\n" hours target "CPU s" "wall s" "×real" "peak MB" "CPU/h÷1h"
for hours in 1 2 8; do
  "$drivesim" generate --hours "$hours" --out "$out/drive-$hours.json" > /dev/null
  for target in file /dev/null; do
    best_cpu=""; best_wall=""; peak=0
    for _ in $(seq "$runs"); do
      dest=$([ "$target" = file ] && echo "$out/drive-$hours.wav" || echo /dev/null)
      line=$( { /usr/bin/time -f "%U %S %e %M" "$drivesim" run "$out/drive-$hours.json" --format wav --out "$dest" > /dev/null; } 2>&1 | tail -1)
      rm -f "$out/drive-$hours.wav"
      read -r user sys wall rss <<< "$line"
      cpu=$(awk "BEGIN { print $user + $sys }")
      if [ -z "$best_cpu" ] || awk "BEGIN { exit !($cpu < $best_cpu) }"; then best_cpu=$cpu; fi
      if [ -z "$best_wall" ] || awk "BEGIN { exit !($wall < $best_wall) }"; then best_wall=$wall; fi
      [ "$rss" -gt "$peak" ] && peak=$rss
    done
    [ "$hours" = 1 ] && { [ "$target" = file ] && base_file=$best_cpu || base_null=$best_cpu; }
    base=$([ "$target" = file ] && echo "$base_file" || echo "$base_null")
    awk -v h="$hours" -v t="$target" -v c="$best_cpu" -v w="$best_wall" -v m="$peak" -v b="$base" 'BEGIN {
      printf "%-6s %-10s %9.2f %8.2f %8.0f %10.1f %9.2f\n", h, t, c, w, h * 3600 / (c > 0 ? c : 0.01), m / 1024, (c / h) / (b > 0 ? b : 0.01) }'
  done
done
