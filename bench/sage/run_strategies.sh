#!/bin/sh
# Time per step of every strategy amp-sage registered (its --list-combinations --json) at 2 ranks on the same mesh, ratio against bspma measured
# in the same run. Usage: bench/sage/run_strategies.sh BUILD_DIR [amp-sage flags...]
set -e
build=${1:-build}; shift || true
out=$(mktemp -d)
mpiexec=$(sed -n 's/^MPIEXEC_EXECUTABLE:FILEPATH=//p' "$build/CMakeCache.txt")  # the build's own launcher
methods=$("$build/bin/amp-sage" --list-combinations --json |
  python3 -c 'import json, sys; print(" ".join(s["name"] for s in json.load(sys.stdin)["strategies"]))')
for method in $methods; do
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false "$mpiexec" -n 2 "$build/bin/amp-sage" --nx 64 --ny 64 --nz 64 --num_vars 8 \
    --num_tsteps 20 --progress 0 "$@" --comm_method $method --results "$out/$method.json" > /dev/null
done
python3 - "$out" $methods <<'PY'
import json, sys
runs = {m: json.load(open(f"{sys.argv[1]}/{m}.json")) for m in sys.argv[2:]}
base = runs["bspma"]["timing"]["per_step_seconds"]
for m, r in runs.items():
    t = r["timing"]
    print(f"{m:6s} {t['per_step_seconds']*1e3:8.3f} ms/step  x{t['per_step_seconds']/base:5.2f} vs bspma  "
          f"msgs/step/rank {r['messages']['per_step_per_rank']['avg']:8.1f}  gather+scatter {t['gather_scatter']['avg']:.4f} s  "
          f"wait {t['mpi_wait']['avg']:.4f} s  checksum {r['checksum']}")
PY
rm -rf "$out"
