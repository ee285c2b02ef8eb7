#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Stands in for mpiexec in the study fault test: waits $AMP_LAUNCH_DELAY seconds (a run in progress that
# another call or a signal can meet), then runs the real launcher ($AMP_REAL_MPIEXEC). SIGTERM while it
# waits ends it by that signal, as it would end mpiexec, leaving no sleep behind.
sleep "$AMP_LAUNCH_DELAY" &
trap 'kill "$!"; trap - TERM; kill -TERM $$' TERM
wait "$!"
exec "$AMP_REAL_MPIEXEC" "$@"
