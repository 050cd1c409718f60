#!/usr/bin/env bash
# Every output byte drivesim makes, recorded, so that a refactoring can show it
# changed none: the corpus in every format, the demo, check, every mutant's
# campaign and fuzz --road seeds 1-20 with their reproducers.
#
#   Benchmarks/compare.sh DRIVESIM OUT_DIR      # record into OUT_DIR
#   diff -r BEFORE_DIR AFTER_DIR                 # compare two recordings
set -uo pipefail
drivesim=${1:?usage: compare.sh DRIVESIM OUT_DIR}
out=${2:?usage: compare.sh DRIVESIM OUT_DIR}
mkdir -p "$out/formats" "$out/fuzz"
cd "$(dirname "$0")/.."
for file in $(find Scenarios -name '*.json' ! -name '*.timeline.json' | sort); do
  name=$(echo "$file" | tr '/' '_')
  for format in text json lanes svg trace html geojson; do
    "$drivesim" run "$file" --format "$format" > "$out/formats/$name.$format" 2> "$out/formats/$name.$format.err"
    echo "exit $?" >> "$out/formats/$name.$format.err"
  done
done
"$drivesim" > "$out/demo.txt" 2>&1; echo "exit $?" >> "$out/demo.txt"
"$drivesim" check Scenarios > "$out/check.txt" 2>&1; echo "exit $?" >> "$out/check.txt"
# Campaign output without its timing line (runs/s) and with the recording's folder as OUT.
campaign() {
  local dir=$1; shift
  "$drivesim" fuzz --jobs 2 --out "$out/fuzz/$dir" "$@" 2>&1 | grep -v ' runs/s)' | sed "s|$out|OUT|g" > "$out/fuzz/$dir.log"
}
mutants=$("$drivesim" fuzz --list-mutants)
for mutant in $(echo "$mutants" | awk '{print $1}'); do
  runs=2000
  if echo "$mutants" | grep -q "^$mutant  *breaks road "; then runs=300; fi
  campaign "mutant-$mutant" --seed 1 --runs "$runs" --mutant "$mutant"
done
for seed in $(seq 1 20); do campaign "road-$seed" --seed "$seed" --runs 500 --road; done
echo "recorded in $out: $(find "$out" -type f | wc -l) files"
