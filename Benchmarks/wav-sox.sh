#!/usr/bin/env bash
# Listening with sox (`drivesim run --format wav`): the urgent-cut and
# dad-partly-heard scenarios' channels are loud where their timelines say a
# voice plays and silent where none does, a cut stretch stops at its cut,
# and, with espeak-ng, a Korean and an English line render through --voice.
#
#   Benchmarks/wav-sox.sh [DRIVESIM] [OUT-FOLDER]
#
# Skips (exit 0) when no `sox` is on the PATH (Debian: apt-get install sox
# espeak-ng); skips the --voice part when no `espeak-ng` is.
set -euo pipefail
cd "$(dirname "$0")/.."
drivesim="${1:-.build/release/drivesim}"
out="${2:-$(mktemp -d)}"
mkdir -p "$out"

if ! command -v sox > /dev/null; then
  echo "wav-sox: skipped, no sox on the PATH"
  exit 0
fi
status=0
# expect FILE CHANNEL FROM LENGTH loud|silent: sox's RMS amplitude over that part of the channel.
expect() {
  local rms
  rms=$(sox "$1" -n remix "$2" trim "$3" "$4" stat 2>&1 | awk '/RMS +amplitude/ { print $3 }')
  if [ "$5" = loud ] && awk "BEGIN { exit !($rms > 0.01) }"; then return; fi
  if [ "$5" = silent ] && awk "BEGIN { exit !($rms < 0.0001) }"; then return; fi
  echo "wav-sox: $1 channel $2 from $3 s for $4 s should be $5, RMS amplitude $rms"
  status=1
}

"$drivesim" run Scenarios/urgent-cut.json --format wav --out "$out/urgent-cut.wav"
# Pippa's stretch 0-2 s, cut by g1 2-3.5 s, repeated 3.5-6.5 s: the speaker never rests; no one speaks to Pippa.
for part in "0.01 1.98" "2.01 1.48" "3.51 2.98"; do expect "$out/urgent-cut.wav" 1 $part loud; done
expect "$out/urgent-cut.wav" 2 0 6.5 silent
# Pippa alone: her stretch stops within 10 ms of its cut at 2 s, and resumes at 3.5 s.
"$drivesim" run Scenarios/urgent-cut.json --format wav --only talk --out "$out/urgent-cut-pippa.wav"
expect "$out/urgent-cut-pippa.wav" 1 1.9 0.09 loud
expect "$out/urgent-cut-pippa.wav" 1 2.01 1.48 silent

"$drivesim" run Scenarios/dad-partly-heard.json --format wav --out "$out/dad-partly-heard.wav"
# Dad speaks 1-3 s; the ears close at 2 s: Pippa hears him 1-2 s only.
expect "$out/dad-partly-heard.wav" 2 0 0.99 silent
expect "$out/dad-partly-heard.wav" 2 1.01 0.98 loud
expect "$out/dad-partly-heard.wav" 2 2.01 2.19 silent
expect "$out/dad-partly-heard.wav" 1 2.01 0.48 loud
expect "$out/dad-partly-heard.wav" 1 3.21 0.98 loud

if command -v espeak-ng > /dev/null; then
  # s1 is Korean ("세 번째 출구입니다"), g1 English ("Turn left now").
  "$drivesim" run Scenarios/urgent-cut.json --format wav --out "$out/urgent-cut-espeak.wav" --voice "espeak-ng -v {lang} --stdout"
  expect "$out/urgent-cut-espeak.wav" 1 0.3 1.4 loud
  expect "$out/urgent-cut-espeak.wav" 1 2.3 0.9 loud
  expect "$out/urgent-cut-espeak.wav" 2 0 6.5 silent
  cmp -s "$out/urgent-cut.wav" "$out/urgent-cut-espeak.wav" && { echo "wav-sox: --voice changed nothing"; status=1; }
else
  echo "wav-sox: --voice not checked, no espeak-ng on the PATH"
fi
[ "$status" = 0 ] && echo "wav-sox: every channel sounds where the timeline says"
exit "$status"
