#!/usr/bin/env bash
# The libFuzzer target (docs/fuzzing.md, "libFuzzer"):
#
#   Fuzz/libfuzzer/run.sh build              build .build/libfuzzer/fuzz-drivesim
#   Fuzz/libfuzzer/run.sh fuzz [SECONDS] [LIBFUZZER FLAGS...]
#                                            fuzz for SECONDS (default 60); exit 1 on a finding
#   Fuzz/libfuzzer/run.sh repro FILE...      run inputs once (a crash file, a scenario, a GPX)
#   Fuzz/libfuzzer/run.sh dict               print the dictionary
#
# The package's modules are built by SwiftPM into their own build folder with
# coverage and AddressSanitizer (`-Xswiftc -sanitize=fuzzer,address`: it only
# instruments, SwiftPM links nothing there), then FuzzTarget.swift is linked
# against their objects with `swiftc -sanitize=fuzzer,address`, whose libFuzzer
# supplies `main`. Package.swift is not touched.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
# Swift's own backtracer must not take the crash signals from libFuzzer.
export SWIFT_BACKTRACE=enable=no
# The Swift runtime keeps caches alive until exit: not leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"

here=Fuzz/libfuzzer
build=.build/libfuzzer
target=$build/fuzz-drivesim
# Inputs longer than this are not tried: the corpus's largest scenario is under 3 KB.
max_len=8192

build() {
  # Rebuilt only when a source, the package or the entry file is newer.
  if [ -x "$target" ] && [ -z "$(find Sources Package.swift "$here/FuzzTarget.swift" -newer "$target" -print -quit)" ]; then
    return
  fi
  swift build -c release --build-path "$build" --target DrivesimCLI -Xswiftc -sanitize=fuzzer,address
  local bin
  bin=$(swift build -c release --build-path "$build" --show-bin-path)
  # Every library module's objects: not the tests', not the executable's (its main).
  local objects=()
  while IFS= read -r o; do objects+=("$o"); done < <(
    find "$bin/" -name '*.o' -path '*.build/*' \
      ! -path '*Tests.build/*' ! -path '*/TestSupport.build/*' ! -path '*/drivesim.build/*' | sort)
  # The target uses the package's `package` symbols, so it joins the package:
  # SwiftPM names it after the checkout's folder, as its build plan says.
  local package
  package=$(grep -o -- '-package-name","[^"]*' "$build/release.yaml" | head -1 | cut -d'"' -f3)
  swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -use-ld=lld \
    -package-name "$package" -I "$bin/Modules" "$here/FuzzTarget.swift" "${objects[@]}" -o "$target"
}

# The dictionary: every string literal of the decoder (the keys it allows and
# the values it names), the event vocabulary and field names, and the raw
# values of the enums the format spells out; then JSON and GPX tokens.
dict() {
  {
    grep -oh '"[A-Za-z][A-Za-z0-9.-]*"' \
      Sources/SimRunner/Format/ScenarioDecoder*.swift Sources/SimRunner/Core/EventKind.swift
    for f in Sources/Road/Maneuver.swift Sources/Guidance/Language.swift Sources/TalkArbiter/TalkArbiter.Types.swift; do
      sed -n 's/^ *case `\{0,1\}\([a-zA-Z]*\)`\{0,1\}$/"\1"/p; s/^ *case [a-zA-Z]* = \("[^"]*"\)$/\1/p' "$f"
    done
  } | sort -u | awk '{ printf "kw%d=\"\\\"%s\\\"\"\n", NR, substr($0, 2, length($0) - 2) }'
  cat "$here/tokens.dict"
}

# The seeds: every scenario of the corpus and the GPX tracks beside this script.
seeds() {
  local dir=$1
  rm -rf "$dir"; mkdir -p "$dir"
  find Scenarios -name '*.json' ! -name '*.timeline.json' | sort | while IFS= read -r f; do
    cp "$f" "$dir/$(echo "$f" | tr / _)"
  done
  cp "$here"/seeds/* "$dir/"
}

command=${1:-fuzz}
[ $# -gt 0 ] && shift
case "$command" in
  build) build ;;
  dict) dict ;;
  repro)
    build
    "$target" -timeout=60 -rss_limit_mb=4096 "$@"
    ;;
  fuzz)
    seconds=${1:-60}
    [ $# -gt 0 ] && shift
    build
    dict > "$build/drivesim.dict"
    seeds "$build/seeds"
    # The working corpus grows across local runs; findings go to artifacts/.
    mkdir -p "$build/corpus" "$build/artifacts"
    status=0
    # `timeout`: a hang in libFuzzer's own crash handling must not hang CI.
    timeout -k 10 $((seconds + 300)) "$target" "$build/corpus" "$build/seeds" \
      -dict="$build/drivesim.dict" -max_len=$max_len -timeout=30 -rss_limit_mb=2048 \
      -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/artifacts/" "$@" || status=$?
    if [ "$status" -ne 0 ]; then
      echo "libFuzzer found something (exit $status): $(ls "$build/artifacts")"
      echo "replay: $here/run.sh repro $build/artifacts/<file>  (or drivesim run / import-gpx <file>)"
      exit 1
    fi
    ;;
  *) echo "usage: $0 build | fuzz [SECONDS] [FLAGS...] | repro FILE... | dict" >&2; exit 2 ;;
esac
