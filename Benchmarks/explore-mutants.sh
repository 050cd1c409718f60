#!/usr/bin/env bash
# `drivesim explore` with teeth: scope 3 with the reference must find nothing,
# and every built-in talk mutant at SCOPE must fail, each reproducer replaying
# (docs/explore.md). Scope 2 catches every mutant but reply-queue-lifo, which
# needs three replies and is always run at scope 3 or more. CI runs SCOPE 2
# (about 15 s); SCOPE 3, the whole sweep, took 48-77 s on 2 shared cores.
#
#   Benchmarks/explore-mutants.sh [DRIVESIM] [SCOPE] [OUT-FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
drivesim="${1:-.build/release/drivesim}"
scope="${2:-3}"
out="${3:-$(mktemp -d)}"
mkdir -p "$out"
start=$SECONDS
"$drivesim" explore --scope 3 --out "$out/reference" > "$out/reference.log" 2>&1 || { cat "$out/reference.log"; echo "explore --scope 3 failed with the reference"; exit 1; }
grep '^scope' "$out/reference.log"
for mutant in $("$drivesim" fuzz --list-mutants | awk '$3 != "road" {print $1}'); do
  at=$scope
  if [ "$mutant" = reply-queue-lifo ] && [ "$at" -lt 3 ]; then at=3; fi
  status=0
  "$drivesim" explore --scope "$at" --mutant "$mutant" --out "$out/$mutant" > "$out/$mutant.log" 2>&1 || status=$?
  if [ "$status" -ne 1 ]; then
    cat "$out/$mutant.log"
    echo "mutant $mutant survived explore --scope $at (exit $status)"
    exit 1
  fi
  for file in "$out/$mutant"/*.json; do
    if "$drivesim" run "$file" --mutant "$mutant" > /dev/null 2>&1; then
      echo "the reproducer $file does not replay mutant $mutant"
      exit 1
    fi
  done
  echo "explore --scope $at caught $mutant: $(grep "^scope $at:" "$out/$mutant.log" | sed 's/^scope [0-9]*: //'), $(grep -c 'shrunk to' "$out/$mutant.log") reproducer(s)"
done
echo "$((SECONDS - start)) s"
