#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# A synthesis beside one busy core: amp-ghost synthesizes a 4096-rank svaf trace
# (64^3 cells, 40 variables, 10 steps, --compute_seconds given, so no kernel runs) on a quiet machine and
# while a `python3 -c 'while 1: pass'` started here keeps one core busy. "before" runs Kokkos with one
# host thread per core (OMP_NUM_THREADS=<cores>, the old default of a synthesis); "after" with the
# synthesis's default now (OMP_NUM_THREADS unset: one thread). Prints the wall seconds of each and the
# before/after ratio beside the busy core. The traces are deleted after each case.
# Usage: PYTHONPATH=tools python3 bench/synthesis/busy_core.py [--build DIR] [--ranks 4096] [--size 64] [--vars 40]
# [--steps 10]
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from amp_tools import command_line
from amp_tools import proxy_command


def synthesis_seconds(a, folder, threads):
    command = proxy_command.command("ghost", {
        "scaling": "weak", "nx": a.size, "ny": a.size, "nz": a.size, "num_vars": a.vars, "num_tsteps": a.steps,
        "stencil": "3d7pt", "strategy": "svaf", "compute_seconds": a.compute_seconds, "progress": 0,
        "synthesize": os.path.join(folder, "trace"), "ranks": a.ranks}, build=a.build)
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    shutil.rmtree(os.path.join(folder, "trace"), ignore_errors=True)
    if done.returncode != 0:
        sys.exit(f"busy_core: the synthesis failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return seconds


def main():
    p = argparse.ArgumentParser(description="a synthesis beside one busy core, timed before and after a change",
                                parents=[command_line.common_options(launcher=False)])
    p.add_argument("--ranks", type=int, default=4096)
    p.add_argument("--size", type=int, default=64, help="cells per rank along each axis")
    p.add_argument("--vars", type=int, default=40)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--compute-seconds", type=float, default=2.6e-4)
    a = p.parse_args()
    cores = os.cpu_count()
    cases = [("before", cores), ("after", None)]
    times = {}
    with tempfile.TemporaryDirectory() as folder:
        for load in ("quiet", "busy core"):
            busy = subprocess.Popen([sys.executable, "-c", "while 1: pass"]) if load == "busy core" else None
            try:
                for name, threads in cases:
                    times[(load, name)] = synthesis_seconds(a, folder, threads)
            finally:
                if busy is not None:
                    busy.kill()
                    busy.wait()
    print(f"{a.ranks}-rank svaf synthesis, {a.size}^3 x {a.vars} vars x {a.steps} steps, --compute_seconds "
          f"{a.compute_seconds}, {cores} cores")
    print("case    host threads      quiet s  busy core s")
    for name, threads in cases:
        print(f"{name:7} {threads if threads else '1 (default)':<16} {times[('quiet', name)]:8.1f} "
              f"{times[('busy core', name)]:12.1f}")
    print(f"beside a busy core: before/after = {times[('busy core', 'before')] / times[('busy core', 'after')]:.1f}x")


if __name__ == "__main__":
    main()
