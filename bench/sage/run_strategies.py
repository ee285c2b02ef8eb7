#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Time per step of every strategy amp-sage registered (its --list-combinations --json) at 2 ranks on the
same mesh (64^3, 8 variables, 20 steps unless the amp-sage flags after -- say otherwise), with its ratio
against bspma measured in the same run.

Usage: PYTHONPATH=tools python3 bench/sage/run_strategies.py [--build build] [--mpiexec mpiexec.mpich]
       [-- amp-sage flags...]
"""
import argparse
import os
import subprocess
import tempfile

from amp_tools import combinations
from amp_tools import command_line
from amp_tools import proxy_command
from amp_tools import results

MESH = {"nx": 64, "ny": 64, "nz": 64, "num_vars": 8, "num_tsteps": 20, "progress": 0}


def line(strategy, run, base):
    per_step = results.step_seconds(run)
    return (f"{strategy:6s} {per_step * 1e3:8.3f} ms/step  x{per_step / base:5.2f} vs bspma  "
            f"msgs/step/rank {results.messages_per_step_per_rank(run):8.1f}  "
            f"gather+scatter {results.timing(run, 'gather_scatter'):.4f} s  "
            f"wait {results.timing(run, 'mpi_wait'):.4f} s  checksum {results.checksum(run)}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[command_line.common_options()])
    p.add_argument("sage_flags", nargs="*", metavar="-- FLAGS", help="amp-sage flags (after --)")
    a = p.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    strategies, _ = combinations.names(proxy_command.executable("sage", a.build))
    runs = {}
    with tempfile.TemporaryDirectory(prefix="amp-bench-sage-") as out:
        for strategy in strategies:
            path = os.path.join(out, f"{strategy}.json")
            flags = proxy_command.flag_words(MESH) + a.sage_flags + ["--strategy", strategy, "--results", path]
            subprocess.run(proxy_command.command("sage", flags, ranks=2, build=a.build, mpiexec=a.mpiexec,
                                                 mpiexec_flags=a.mpiexec_flags),
                           check=True, stdout=subprocess.DEVNULL, env=env)
            runs[strategy] = results.load(path)
    base = results.step_seconds(runs["bspma"])
    for strategy, run in runs.items():
        print(line(strategy, run, base))


if __name__ == "__main__":
    main()
