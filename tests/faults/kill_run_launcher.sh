#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Stands in for mpiexec in the study fault test: runs the real launcher ($AMP_REAL_MPIEXEC) and, once the
# proxy has reserved its results file (NAME.json.partial exists), sends $AMP_KILL_SIGNAL to
# $AMP_KILL_TARGET: "rank" (SIGKILL, as the OOM killer would: the proxy cannot remove its .partial, the
# launcher reports the rank's signal) or "launcher" (SIGINT to mpiexec alone, which passes it on).
results=""
for arg in "$@"; do [[ "$previous" == --results ]] && results=$arg; previous=$arg; done
"$AMP_REAL_MPIEXEC" "$@" &
launcher=$!
until [[ -e "$results.partial" ]] || ! kill -0 "$launcher" 2>/dev/null; do sleep 0.02; done
if [[ "$AMP_KILL_TARGET" == launcher ]]; then
  target=$launcher
else
  target=$(pgrep -f -- "--results $results" | grep -vx "$launcher" | while read -r pid; do
             [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == amp-* ]] && echo "$pid"; done)
fi
[[ -n "$target" ]] && kill -"$AMP_KILL_SIGNAL" $target
wait "$launcher"
