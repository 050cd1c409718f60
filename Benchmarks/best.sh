# Sourced by the benchmark scripts that time the release build's commands:
# `bin` is that build's drivesim, `dir` a scratch folder removed on exit, and
# `best COMMAND...` prints the best of three runs' wall-clock and user CPU
# seconds, "wall user".
bin=.build/release/drivesim
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
best() {
  b=""; u=""
  for _ in 1 2 3; do
    /usr/bin/time -o "$dir/time" -f '%e %U' "$@" > /dev/null 2> /dev/null
    out=$(tail -1 "$dir/time")
    t=${out% *}; c=${out#* }
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
    if [ -z "$u" ] || [ "$(echo "$c < $u" | bc)" = 1 ]; then u=$c; fi
  done
  echo "$b $u"
}
