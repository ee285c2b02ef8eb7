#!/usr/bin/env bash
# amp-trace check and amp-trace otf2 on hand-made 1024-rank ring traces (tests/trace/replay_ring_trace:
# Isend/Irecv/Waitall to both neighbours every step) of growing length: wall time and peak RSS of
# each, so that bounded memory (check streams every rank's file) shows as a flat RSS column.
# Usage: bench/trace/check_scaling.sh [BUILD_DIR] [RANKS] [STEPS...]   (default: build 1024 200 2000)
set -euo pipefail
build=${1:-build}
ranks=${2:-1024}
shift $(( $# > 2 ? 2 : $# ))
steps=("$@")
(( ${#steps[@]} )) || steps=(200 2000)
work=$(mktemp -d "${TMPDIR:-/tmp}/amp-check-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%6s %6s %10s %10s | %10s %9s | %10s %9s\n' ranks steps records "trace MB" "check s" "check MB" "otf2 s" "otf2 MB"
for n in "${steps[@]}"; do
  dir="$work/ring-$n"
  mkdir -p "$dir"
  "$build/tests/trace_replay_ring_trace" "$dir" ring "$ranks" "$n" >/dev/null
  records=$("$build/bin/amp-trace" check --json "$dir" | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])')
  mb=$(du -sm "$dir" | cut -f1)
  read -r check_s check_kb < <(/usr/bin/time -f '%e %M' "$build/bin/amp-trace" check "$dir" 2>&1 >/dev/null | tail -1)
  read -r otf2_s otf2_kb < <(/usr/bin/time -f '%e %M' "$build/bin/amp-trace" otf2 "$dir" "$work/otf2-$n" 2>&1 >/dev/null | tail -1)
  rm -rf "$work/otf2-$n"
  printf '%6d %6d %10d %10d | %10s %9d | %10s %9d\n' "$ranks" "$n" "$records" "$mb" "$check_s" $((check_kb / 1024)) \
         "$otf2_s" $((otf2_kb / 1024))
  rm -rf "$dir"
done
