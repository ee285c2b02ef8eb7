#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Strategy benchmark: time per step and messages per step of every strategy amp-ghost registered (its
--list-combinations --json), 100^3 per rank x 40 variables x 3D27PT at 2 ranks, one results file per
strategy, compared by amp_tools.compare_runs. The process grid is MPI_Dims_create's unless --grid.

Usage: PYTHONPATH=tools python3 bench/ghost/strategies.py [--build build] [--mpiexec mpiexec.mpich]
       [--ranks 2] [--nx 100] [--steps 10] [--stencil 3d27pt] [--grid NPX NPY NPZ]
"""
import argparse
import os
import subprocess
import sys
import tempfile

from amp_tools import combinations
from amp_tools import command_line
from amp_tools import compare_runs
from amp_tools import proxy_command
from amp_tools import results


def ghost_flags(a, strategy, results_path):
    npx, npy, npz = a.grid
    return {"nx": a.nx, "ny": a.nx, "nz": a.nx, "num_vars": 40, "num_tsteps": a.steps, "stencil": a.stencil,
            "strategy": strategy, "progress": 0, "npx": npx, "npy": npy, "npz": npz, "results": results_path}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[command_line.common_options()])
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--nx", type=int, default=100, help="cells per rank and axis")
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--stencil", default="3d27pt")
    p.add_argument("--grid", type=int, nargs=3, default=[0, 0, 0], metavar=("NPX", "NPY", "NPZ"),
                   help="process grid (default 0 0 0: MPI_Dims_create's)")
    a = p.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OMP_PROC_BIND", "false")
    strategies, _ = combinations.names(proxy_command.executable("ghost", a.build))
    with tempfile.TemporaryDirectory(prefix="amp-bench-ghost-") as out:
        paths = [os.path.join(out, f"{strategy}.json") for strategy in strategies]
        for strategy, path in zip(strategies, paths):
            subprocess.run(proxy_command.command("ghost", ghost_flags(a, strategy, path), ranks=a.ranks,
                                                 build=a.build, mpiexec=a.mpiexec, mpiexec_flags=a.mpiexec_flags),
                           check=True, stdout=subprocess.DEVNULL)
        grid = "x".join(map(str, results.load(paths[0])["config"]["process_grid"]))
        print(f"amp-ghost {a.nx}^3 per rank x 40 vars x {a.stencil}, {a.ranks} ranks (grid {grid}), {a.steps} steps, "
              f"OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}")
        lines, ok = compare_runs.table(paths)
        print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
