#!/usr/bin/env bash
# The conformance suite (tests/simulate/conformance_test.py) on every shipped network file, the 4096-node
# ones and Trinity's (9600 nodes) included (left out of CTest: SimGrid 3.32 builds a 4096-node platform in
# 1.5-3.4 s and Trinity's in 25 s, twice a case, and SST-macro's replays grow with the nodes too; the 64
# ranks of a case sit in the first 1024 nodes of the 4096-node files, on the routes of the 1024-node ones).
# Prints each case's prediction in both simulators and their ratio. Needs AMP_SSTMAC for SST-macro.
# Usage: bench/simulate/conformance.sh [BUILD]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
export PYTHONPATH="$root/tools${PYTHONPATH:+:$PYTHONPATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/amp-conformance.XXXXXX")
trap 'rm -rf "$work"' EXIT
for file in "$root"/inputs/networks/{torus-4x4x4,torus-16x16x4,torus-16x16x16,fattree-2level-1024,dragonfly-1024,dragonfly-4096,xt6-seastar,xe6-gemini,cascade-dragonfly,trinity-haswell,trinity-knl}.toml; do
  name=$(basename "$file" .toml)
  for simulator in simgrid sstmac; do
    python3 "$root/tests/simulate/conformance_test.py" analytic "$simulator" "$build" "$root" "$work/$name" "$file"
  done
  [[ $name == fattree-* ]] || python3 "$root/tests/simulate/conformance_test.py" agree both "$build" "$root" "$work/$name" "$file"
done
