#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks the amp driver's answers that need no build: help lists the two commands; an unknown
# command, proxy or AMP_MPI, a missing study file or report folder, an AMP_RANKS or OMP_NUM_THREADS
# that is not a whole number in range ends non-zero with one "amp: error:" line naming it; each MPI has its
# own build folder (checked with `clean` on a copy of the driver, never on the real build folders).
set -u
amp=$1 case=$2
case "$case" in
  help)
    out=$("$amp" help) || { echo "help exited non-zero"; exit 1; }
    grep -q "./amp run" <<<"$out" && grep -q "./amp test" <<<"$out" \
      || { echo "help lacks the two commands"; exit 1; } ;;
  unknown_command)
    err=$("$amp" frobnicate 2>&1 >/dev/null) && { echo "unknown command accepted"; exit 1; }
    grep -q "^amp: error: unknown command 'frobnicate'" <<<"$err" || { echo "message was: $err"; exit 1; } ;;
  unknown_proxy)
    # The proxy name is checked before anything is installed or built.
    err=$("$amp" run frobnicate 2>&1 >/dev/null) && { echo "unknown proxy accepted"; exit 1; }
    grep -q "unknown proxy 'frobnicate'" <<<"$err" || { echo "message was: $err"; exit 1; } ;;
  study_needs_a_file)
    # Checked before anything is installed or built.
    err=$("$amp" study /nonexistent/s.toml 2>&1 >/dev/null) && { echo "missing study file accepted"; exit 1; }
    want="amp: error: study: give a study file (e.g. inputs/studies/strategies_ranks.toml);"
    want+=" '/nonexistent/s.toml' does not exist"
    [[ "$err" == "$want" ]] || { echo "message was: $err"; exit 1; } ;;
  report_needs_a_folder)
    err=$("$amp" report /nonexistent 2>&1 >/dev/null) && { echo "missing folder accepted"; exit 1; }
    [[ "$err" == "amp: error: report: '/nonexistent': no such folder" ]] || { echo "message was: $err"; exit 1; }
    err=$("$amp" report "$amp" 2>&1 >/dev/null) && { echo "a file accepted as the folder"; exit 1; }
    [[ "$err" == "amp: error: report: '$amp' is not a folder" ]] || { echo "message was: $err"; exit 1; }
    err=$("$amp" report 2>&1 >/dev/null) && { echo "no folder accepted"; exit 1; }
    [[ "$err" == "amp: error: report: give one results folder (e.g. runs/<stamp>)" ]] \
      || { echo "message was: $err"; exit 1; } ;;
  unknown_mpi)
    err=$(AMP_MPI=lam "$amp" build 2>&1 >/dev/null) && { echo "unknown AMP_MPI accepted"; exit 1; }
    [[ "$err" == "amp: error: unknown AMP_MPI 'lam' (use mpich or openmpi)" ]] \
      || { echo "message was: $err"; exit 1; } ;;
  build_folder_per_mpi)
    copy=$(mktemp -d) && trap 'rm -rf "$copy"' EXIT
    mkdir -p "$copy/cmake" "$copy/build/bin" "$copy/build-openmpi/bin"
    cp "$amp" "$copy/amp" && cp "$(dirname "$amp")/cmake/openmpi.env" "$copy/cmake/"
    out=$(AMP_MPI=openmpi "$copy/amp" clean) || { echo "clean failed: $out"; exit 1; }
    [[ "$out" == "amp: removed build-openmpi/" && -d "$copy/build" && ! -e "$copy/build-openmpi" ]] \
      || { echo "AMP_MPI=openmpi clean: '$out', left: $(ls "$copy")"; exit 1; }
    mkdir "$copy/build-openmpi"
    out=$(env -u AMP_MPI "$copy/amp" clean) || { echo "clean failed: $out"; exit 1; }
    [[ "$out" == "amp: removed build/" && -d "$copy/build-openmpi" && ! -e "$copy/build" ]] \
      || { echo "default clean: '$out', left: $(ls "$copy")"; exit 1; } ;;
  counts_checked_as_text)
    # AMP_RANKS and OMP_NUM_THREADS are checked as text before any arithmetic (which
    # would evaluate them: 'n[$(touch FILE)]' ran the command), before anything is built. The driver runs
    # as a copy beside no sources, so that a count let through fails at once in CMake, building nothing.
    scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
    cp "$amp" "$scratch/amp"
    export Kokkos_ROOT=$scratch
    unset AMP_MPI  # the copy has no cmake/openmpi.env beside it: the default MPI's path (the checks are the same)
    for value in 0 abc 3.5 -1 1+1 08 ' 2' 16777217 99999999999 "n[\$(touch $scratch/injected)]"; do
      err=$(AMP_RANKS=$value "$scratch/amp" run ghost 2>&1 >/dev/null); status=$?
      [[ $status == 2 && "$err" == "amp: error: AMP_RANKS must be a whole number from 1 to 16777216 (got '$value')" ]] \
        || { echo "AMP_RANKS='$value': exit $status, message: $err"; exit 1; }
    done
    [[ ! -e "$scratch/injected" ]] || { echo "AMP_RANKS was evaluated: the command in it ran"; exit 1; }
    err=$(OMP_NUM_THREADS=2x "$scratch/amp" run ghost 2>&1 >/dev/null); status=$?
    [[ $status == 2 && "$err" == "amp: error: OMP_NUM_THREADS must be a whole number from 1 to 4096 (got '2x')" ]] \
      || { echo "OMP_NUM_THREADS=2x: exit $status, message: $err"; exit 1; }
    # A good count passes the check and the driver goes on to configure (and fails there, without sources).
    err=$(AMP_RANKS=16777216 OMP_NUM_THREADS=4096 "$scratch/amp" run ghost 2>&1 >/dev/null)
    [[ "$err" != *"must be a whole number"* && "$err" == *"amp: error: CMake configure failed"* ]] \
      || { echo "AMP_RANKS=16777216 was not let through: $err"; exit 1; } ;;
  *) echo "unknown case $case"; exit 1 ;;
esac
echo "driver $case: ok"
