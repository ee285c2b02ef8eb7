#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""AMP's sweeps against a plain loop: runs bench_stencil_bandwidth's "AMP against a plain loop"
section for every size and thread count, in rounds, and prints one table: per stencil, sweep, size and
thread count, AMP's and the plain loop's Gcell/s and the ratio AMP / plain (medians over the rounds,
the ratio with its min-max). With --before OTHER_BUILD, each round runs OTHER_BUILD's
bench_stencil_bandwidth right before this build's (alternated), and the table adds its ratio.

Usage: PYTHONPATH=tools python3 bench/kernels/against_plain.py [--build build] [--before OTHER_BUILD] [--sizes
16,24,32,40,64]
       [--threads 1,2] [--rounds 3] [--repetitions 300]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

from amp_tools import command_line
ROW = re.compile(r"^\s+(\S+)\s+(\+sum|\+outflow 5 sides\+face)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s.*\s(same|DIFF)")
HEADER = re.compile(r"^AMP against a plain loop: (\d+)\^3")


def one_run(build, sizes, threads, repetitions):
    """{(size, stencil, sweep): (amp, plain, ratio, bits)} of one bench_stencil_bandwidth run."""
    exe = os.path.join(build, "bin", "bench_stencil_bandwidth")
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="false")
    done = subprocess.run([exe, sizes, str(repetitions), "1"], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"against_plain: {exe} failed ({done.returncode}): {done.stderr.strip()}")
    rows, size = {}, None
    for line in done.stdout.splitlines():
        if m := HEADER.match(line):
            size = int(m.group(1))
        elif (m := ROW.match(line)) and size is not None:
            rows[(size, m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(4)), float(m.group(5)), m.group(6))
    return rows


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                parents=[command_line.common_options(launcher=False)])
    p.add_argument("--before")
    p.add_argument("--sizes", default="16,24,32,40,64")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repetitions", type=int, default=300)
    a = p.parse_args()
    builds = ([("before", a.before)] if a.before else []) + [("after", a.build)]
    threads = [int(t) for t in a.threads.split(",")]
    runs = {(label, t): [] for label, _ in builds for t in threads}
    loads = []
    for t in threads:
        for _ in range(a.rounds):
            for label, build in builds:
                loads.append(load())
                runs[(label, t)].append(one_run(build, a.sizes, t, a.repetitions))
    print(f"AMP against a plain loop: medians of {a.rounds} rounds "
          f"({'before and after alternated, ' if a.before else ''}"
          f"best of {a.repetitions} each), 1 variable, load average {min(loads):.1f}-{max(loads):.1f}")
    before = "| before: AMP/plain " if a.before else ""
    print(f"| stencil | sweep | block | threads | AMP Gcell/s | plain Gcell/s | AMP/plain (min-max) {before}| bits |")
    print("|---|---|---|---:|---:|---:|---:|" + ("---:|" if a.before else "") + "---|")
    keys = list(runs[("after", threads[0])][0].keys())
    order = sorted(keys, key=lambda k: (["2d5pt", "2d9pt", "3d7pt", "3d27pt"].index(k[1]), k[2], k[0]))
    for key in order:
        for t in threads:
            after = [r[key] for r in runs[("after", t)] if key in r]
            ratios = [x[2] for x in after]
            cells = (f"| {key[1]} | {key[2]} | {key[0]}³ | {t} | {statistics.median(x[0] for x in after):.2f} | "
                     f"{statistics.median(x[1] for x in after):.2f} | {statistics.median(ratios):.2f} "
                     f"({min(ratios):.2f}-{max(ratios):.2f}) |")
            if a.before:
                old = [r[key][2] for r in runs[("before", t)] if key in r]
                cells += f" {statistics.median(old):.2f} ({min(old):.2f}-{max(old):.2f}) |"
            bits = {x[3] for x in after}
            print(cells + f" {'same' if bits == {'same'} else 'DIFF'} |")


if __name__ == "__main__":
    main()
