#!/usr/bin/env bash
# The libFuzzer targets (docs/fuzzing.md, "libFuzzer"):
#
#   Fuzz/libfuzzer/run.sh build              build .build/libfuzzer/fuzz-drivesim, fuzz-arbiter, fuzz-route, fuzz-guidance
#   Fuzz/libfuzzer/run.sh fuzz [SECONDS] [LIBFUZZER FLAGS...]
#                                            the scenario target for SECONDS (default 60), then the
#                                            arbiter, route and guidance targets for EXTRA_SECONDS each
#                                            (default 40); exit 1 on a finding
#   Fuzz/libfuzzer/run.sh fuzz-arbiter|fuzz-route|fuzz-guidance [SECONDS] [FLAGS...]
#                                            one of the new targets alone (default 60 s)
#   Fuzz/libfuzzer/run.sh repro FILE...      run inputs once (a crash file, a scenario, a GPX)
#   Fuzz/libfuzzer/run.sh repro-arbiter|repro-route|repro-guidance FILE...
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
# The entry file of each target, and its binary.
targets="FuzzTarget:fuzz-drivesim FuzzArbiter:fuzz-arbiter FuzzRoute:fuzz-route FuzzGuidance:fuzz-guidance"
# Inputs longer than this are not tried: the corpus's largest scenario is under 3 KB.
max_len=8192

build() {
  # Rebuilt only when a source, the package or the entry file is newer.
  local fresh=1 pair
  for pair in $targets; do
    local exe=$build/${pair#*:}
    if [ ! -x "$exe" ] || [ -n "$(find Sources Package.swift "$here/${pair%%:*}.swift" -newer "$exe" -print -quit)" ]; then fresh=0; fi
  done
  [ "$fresh" -eq 1 ] && return
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
  for pair in $targets; do
    swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -use-ld=lld \
      -package-name "$package" -I "$bin/Modules" "$here/${pair%%:*}.swift" "${objects[@]}" -o "$build/${pair#*:}"
  done
}

# The route target's dictionary: the OSRM response's keys and maneuver words.
route_dict() {
  grep -oh '"[a-z][A-Za-z_ ]*"' Sources/SimRunner/RouteImport/RouteImporter*.swift | sort -u \
    | awk '{ printf "kw%d=\"\\\"%s\\\"\"\n", NR, substr($0, 2, length($0) - 2) }'
  cat "$here/tokens.dict"
}

# The arbiter target's dictionary: the protocol's words (actions, rules, keys).
arbiter_dict() {
  { grep -oh '"[a-zA-Z][A-Za-z-]*"' Sources/SimRunner/ExternalProcess/{ArbiterProtocol+*,ArbiterProcess,LineChannel,ExternalArbiter,ProcessFailure}.swift
    sed -n 's/^ *case [a-zA-Z]* = \("[^"]*"\)$/\1/p' Sources/TalkArbiter/TalkArbiter.Types.swift
  } | sort -u | awk '{ printf "kw%d=\"\\\"%s\\\"\"\n", NR, substr($0, 2, length($0) - 2) }'
  cat "$here/tokens.dict"
}

# Fuzzes the binary $1 with seeds from folder $2 and dictionary $3 for $4 seconds; further flags after.
campaign() {
  local exe=$1 seeds=$2 dictionary=$3 seconds=$4 name
  shift 4
  name=$(basename "$exe")
  mkdir -p "$build/corpus-$name" "$build/artifacts"
  local status=0
  timeout -k 10 $((seconds + 300)) "$exe" "$build/corpus-$name" "$seeds" \
    -dict="$dictionary" -max_len=$max_len -timeout=30 -rss_limit_mb=2048 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/artifacts/$name-" "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "libFuzzer ($name) found something (exit $status): $(ls "$build/artifacts")"
    echo "replay: $here/run.sh repro${name#fuzz-drivesim} $build/artifacts/<file>"
    exit 1
  fi
}

# The arbiter target's seeds: answers drivesim's own arbiter gives (a scenario number, then lines).
arbiter_seeds() {
  local dir=$1
  rm -rf "$dir"; mkdir -p "$dir"
  printf '\000{"type":"actions","instants":[]}\n{"type":"actions","each":[[]]}\n{"type":"actions","each":[],"end":[],"idle":true}\n' > "$dir/empty"
  printf '\001x\n{"type":"actions","each":[[{"do":"lineStarted","line":0,"endsAt":3000}]]}\n{"type":"actions","each":[],"end":[{"do":"earsClosed"},{"do":"wake","at":9223372036854775807}],"idle":false}\n' > "$dir/wake"
  printf '\002x\n{"type":"actions","each":[[{"do":"replyBegan","reply":0}]]}\n{"type":"actions","each":[[{"do":"stretchStarted","reply":0,"stretch":0,"endsAt":5000,"held":null}]]}\n{"type":"actions","each":[],"end":[],"idle":true}\n' > "$dir/reply"
}

# The guidance target's dictionary: the protocol's words (keys, stages, skip reasons).
guidance_dict() {
  { grep -oh '"[a-zA-Z][A-Za-z-]*"' Sources/SimRunner/ExternalProcess/ExternalGuidance.swift
    printf '"%s"\n' far near now late then repeated not-guiding lines skipped unannounced
  } | sort -u | awk '{ printf "kw%d=\"\\\"%s\\\"\"\n", NR, substr($0, 2, length($0) - 2) }'
  cat "$here/tokens.dict"
}

# The guidance target's seeds: a scenario number, then answers as the Python example would give.
guidance_seeds() {
  local dir=$1
  rm -rf "$dir"; mkdir -p "$dir"
  printf '\000{"type":"lines"}\n{"type":"lines","lines":[{"id":"a","maneuver":0,"stage":"far","at":200,"text":"In 500 meters, turn right."}]}\n{"type":"unannounced","reason":"late"}\n' > "$dir/line"
  printf '\004{"type":"lines","lines":[{"id":"b","maneuver":0,"stage":"now","at":86399000,"text":"Now.","duration":3600000,"expires":86400000,"then":1}],"skipped":[{"maneuver":1,"stage":"now","reason":"not-guiding","at":0}]}\n' > "$dir/midnight"
  printf '\001{"type":"unannounced","reason":null}\n{"type":"lines","skipped":[{"maneuver":0,"stage":"now","reason":"late","at":200}]}\n' > "$dir/skips"
}

# The route target's seeds: the sample responses.
route_seeds() {
  local dir=$1
  rm -rf "$dir"; mkdir -p "$dir"
  cp Scenarios/routes/responses/* "$dir/"
}

# The dictionary: every string literal of the decoder (the keys it allows and
# the values it names), the event vocabulary and field names, and the raw
# values of the enums the format spells out; then JSON and GPX tokens.
dict() {
  {
    grep -oh '"[A-Za-z][A-Za-z0-9.-]*"' \
      Sources/SimRunner/ScenarioFormat/ScenarioDecoder*.swift Sources/SimRunner/SimRunner/EventKind.swift
    for f in Sources/Road/Maneuver.swift Sources/Clock/Language.swift Sources/TalkArbiter/TalkArbiter.Types.swift; do
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
  repro-arbiter|repro-route|repro-guidance)
    build
    "$build/fuzz-${command#repro-}" -timeout=60 -rss_limit_mb=4096 "$@"
    ;;
  fuzz-arbiter|fuzz-route|fuzz-guidance)
    seconds=${1:-60}
    [ $# -gt 0 ] && shift
    build
    kind=${command#fuzz-}
    "${kind}_dict" > "$build/$kind.dict"
    "${kind}_seeds" "$build/seeds-$kind"
    campaign "$build/fuzz-$kind" "$build/seeds-$kind" "$build/$kind.dict" "$seconds" "$@"
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
    # The arbiter's and the guidance's answers and route responses, a shorter campaign each.
    extra=${EXTRA_SECONDS:-40}
    for kind in arbiter route guidance; do
      "${kind}_dict" > "$build/$kind.dict"
      "${kind}_seeds" "$build/seeds-$kind"
      campaign "$build/fuzz-$kind" "$build/seeds-$kind" "$build/$kind.dict" "$extra"
    done
    ;;
  *) echo "usage: $0 build | fuzz [SECONDS] [FLAGS...] | fuzz-arbiter|fuzz-route|fuzz-guidance [SECONDS] [FLAGS...] | repro[-arbiter|-route|-guidance] FILE... | dict" >&2; exit 2 ;;
esac
