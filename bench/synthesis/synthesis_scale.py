#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Trace synthesis at scale (docs/TRACE_FORMAT.md): amp-ghost writes the DUMPI traces of thousands
# of virtual ranks in one process with --synthesize. For each case it prints the wall time, the peak
# memory, the trace size and the cost per virtual rank, beside a baseline measured in the same run: a
# real traced run of the same per-rank problem at 2 ranks (one per core), i.e. what one rank of that
# trace costs to record for real. The traces are deleted after each case (they are large).
#   4096-svaf:   4096 ranks, 64^3 cells per rank, 40 variables, 3d7pt, svaf, 10 steps (goal <= 60 s, 2 GiB)
#   65536-bspma: 65536 ranks, the same per-rank problem with bspma (goal <= 10 min)
# Usage: PYTHONPATH=tools python3 bench/synthesis/synthesis_scale.py [--build DIR] [--cases 4096-svaf,65536-bspma]
# [--workdir DIR]
#        [--size 64] [--vars 40] [--steps 10] [--mpiexec mpiexec.mpich]
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from amp_tools import command_line
from amp_tools import proxy_command

GOALS = {"4096-svaf": (60.0, 2048.0), "65536-bspma": (600.0, None)}


def per_rank_problem(a, strategy, **more):
    """amp-ghost's flags for the per-rank problem under `strategy`, and `more` of them."""
    return {"scaling": "weak", "nx": a.size, "ny": a.size, "nz": a.size, "num_vars": a.vars, "num_tsteps": a.steps,
            "stencil": "3d7pt", "strategy": strategy, "progress": 0, **more}


def baseline_seconds(a, strategy, folder):
    """Wall seconds of a real 2-rank traced run of the per-rank problem: what recording one rank costs."""
    command = proxy_command.command("ghost", per_rank_problem(a, strategy, trace=os.path.join(folder, "real")),
                                    ranks=2, build=a.build, mpiexec=a.mpiexec, mpiexec_flags=a.mpiexec_flags)
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"synthesis_scale: the baseline run failed: {done.stderr.strip()[-400:]}")
    shutil.rmtree(os.path.join(folder, "real"))
    return seconds


def main():
    p = argparse.ArgumentParser(description="trace synthesis at scale", parents=[command_line.common_options()])
    p.add_argument("--cases", default="4096-svaf,65536-bspma")
    p.add_argument("--workdir", default=None, help="where the traces are written (default: a temporary folder)")
    p.add_argument("--size", type=int, default=64, help="cells per rank along each axis")
    p.add_argument("--vars", type=int, default=40)
    p.add_argument("--steps", type=int, default=10)
    a = p.parse_args()
    folder = tempfile.mkdtemp(prefix="amp-synthesis-", dir=a.workdir)
    try:
        print(f"{'case':<14} {'ranks':>6} {'seconds':>8} {'ms/rank':>8} {'vs real':>8} {'peak MiB':>9} "
              f"{'trace MiB':>10} {'goal':>12}")
        for case in a.cases.split(","):
            ranks, strategy = case.split("-")
            baseline = baseline_seconds(a, strategy, folder)
            traces = os.path.join(folder, case)
            command = proxy_command.command("ghost", per_rank_problem(a, strategy, synthesize=traces, ranks=ranks),
                                            build=a.build)
            done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
            if done.returncode != 0:
                sys.exit(f"synthesis_scale: {case} failed: {done.stderr.strip()[-400:]}")
            found = re.search(r"synthesized (\d+) ranks in ([0-9.]+) s, peak memory (\d+) MiB: .* \(([0-9.]+) MiB\)",
                              done.stdout)
            if not found:
                sys.exit(f"synthesis_scale: {case}: no summary line in {done.stdout!r}")
            seconds, peak, size = float(found.group(2)), float(found.group(3)), float(found.group(4))
            per_rank = seconds / int(ranks)
            goal_seconds, goal_mib = GOALS.get(case, (None, None))
            goal = ""
            if goal_seconds:
                goal = f"{seconds / goal_seconds:.2f}x of {goal_seconds:.0f} s"
                if goal_mib:
                    goal += f", {peak / goal_mib:.2f}x of {goal_mib / 1024:.0f} GiB"
            print(f"{case:<14} {ranks:>6} {seconds:>8.1f} {1e3 * per_rank:>8.2f} {per_rank / baseline:>8.3f} "
                  f"{peak:>9.0f} {size:>10.0f} {goal:>12}")
            print(f"  {done.stdout.strip().splitlines()[-1]}; baseline: a real traced 2-rank run {baseline:.2f} s")
            shutil.rmtree(traces)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
