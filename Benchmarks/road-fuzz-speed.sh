#!/bin/sh
# Times `drivesim fuzz --road` on one core (`taskset -c 0`, `--jobs 1`) at
# 5,000, 20,000 and 80,000 runs of seeds 1 and 3, for each drivesim binary
# given (release builds: say, this branch's and one built at eed2029, the
# road campaign before route changes were drawn), so the figures stand side
# by side. Prints a Markdown table of runs/s as drivesim reports them
# ("N runs in X s (R runs/s)"). For docs/benchmarks.md ("Road fuzz with
# route changes").
#
#     swift build -c release
#     git worktree add /tmp/perf-old eed2029 && (cd /tmp/perf-old && swift build -c release)
#     sh Benchmarks/road-fuzz-speed.sh /tmp/perf-old/.build/release/drivesim .build/release/drivesim
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DRIVESIM [DRIVESIM ...]" >&2; exit 2; }
pin=""
command -v taskset > /dev/null && pin="taskset -c 0"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '| binary | seed | 5,000 runs | 20,000 runs | 80,000 runs |\n|---|---|---|---|---|\n'
for bin in "$@"; do
  for seed in 1 3; do
    row="| \`$bin\` | $seed |"
    for runs in 5000 20000 80000; do
      line=$($pin "$bin" fuzz --road --seed "$seed" --runs "$runs" --jobs 1 --out "$dir/failures" 2>&1 | grep ' runs in ')
      # "80000 runs in 52.1 s (1535 runs/s)" -> "52.1 s (1535 runs/s)"
      row="$row ${line#* runs in } |"
    done
    echo "$row"
  done
done
