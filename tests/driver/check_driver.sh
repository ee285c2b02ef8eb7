#!/usr/bin/env bash
# Checks the amp driver's answers that need no build: help lists the two commands; an unknown
# command, proxy or AMP_MPI, a missing study file or report folder ends non-zero with one
# "amp: error:" line naming it; each MPI has its
# own build folder (checked with `clean` on a copy of the driver, never on the real build folders).
set -u
amp=$1 case=$2
case "$case" in
  help)
    out=$("$amp" help) || { echo "help exited non-zero"; exit 1; }
    grep -q "./amp run" <<<"$out" && grep -q "./amp test" <<<"$out" || { echo "help lacks the two commands"; exit 1; } ;;
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
    [[ "$err" == "amp: error: study: give a study file (e.g. inputs/studies/strategies_ranks.toml); '/nonexistent/s.toml' does not exist" ]] \
      || { echo "message was: $err"; exit 1; } ;;
  report_needs_a_folder)
    err=$("$amp" report /nonexistent 2>&1 >/dev/null) && { echo "missing folder accepted"; exit 1; }
    [[ "$err" == "amp: error: report: give one results folder (e.g. runs/<stamp>)" ]] || { echo "message was: $err"; exit 1; } ;;
  unknown_mpi)
    err=$(AMP_MPI=lam "$amp" build 2>&1 >/dev/null) && { echo "unknown AMP_MPI accepted"; exit 1; }
    [[ "$err" == "amp: error: unknown AMP_MPI 'lam' (use mpich or openmpi)" ]] || { echo "message was: $err"; exit 1; } ;;
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
  *) echo "unknown case $case"; exit 1 ;;
esac
echo "driver $case: ok"
