#!/usr/bin/env bash
# Strategy benchmark: time per step and messages per step of every strategy amp-ghost registered
# (its --list-combinations --json) on amp-ghost,
# 100^3 per rank x 40 variables x 3D27PT at 2 ranks (override with RANKS, NX, STEPS, STENCIL, and
# GRID="npx npy npz" for the process grid; default MPI_Dims_create).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ranks=${RANKS:-2} nx=${NX:-100} steps=${STEPS:-10} stencil=${STENCIL:-3d27pt}
read -r npx npy npz <<<"${GRID:-0 0 0}"
out=$(mktemp -d "${TMPDIR:-/tmp}/amp-bench-ghost.XXXXXX")
# The launcher the build was configured with (plain `mpiexec` follows Debian's alternatives link,
# which may name another MPI than the one build/ was compiled with).
mpiexec=$(sed -n 's/^MPIEXEC_EXECUTABLE:FILEPATH=//p' "$root/build/CMakeCache.txt")
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_PROC_BIND=${OMP_PROC_BIND:-false}
strategies=$("$root/build/bin/amp-ghost" --list-combinations --json |
  python3 -c 'import json, sys; print(" ".join(s["name"] for s in json.load(sys.stdin)["strategies"]))')
for strategy in $strategies; do
  "$mpiexec" -n "$ranks" "$root/build/bin/amp-ghost" --nx "$nx" --ny "$nx" --nz "$nx" --num_vars 40 \
    --num_tsteps "$steps" --stencil "$stencil" --comm_method "$strategy" --progress 0 --npx "$npx" --npy "$npy" --npz "$npz" \
    --results "$out/$strategy.json" >/dev/null
done
first=${strategies%% *}
echo "amp-ghost ${nx}^3 per rank x 40 vars x $stencil, $ranks ranks (grid $(python3 -c "import json;print('x'.join(map(str,json.load(open('$out/$first.json'))['config']['process_grid'])))")), $steps steps, OMP_NUM_THREADS=$OMP_NUM_THREADS"
results=()
for strategy in $strategies; do results+=("$out/$strategy.json"); done
PYTHONPATH="$root/tools${PYTHONPATH:+:$PYTHONPATH}" python3 -m amp_tools.compare_runs "${results[@]}"
