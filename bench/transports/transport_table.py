#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The strategy x transport table: every valid combination at one rank per core (2 ranks by default),
amp-ghost 64^3 x 40 variables x 3D27PT on process grids 2x1x1 and 1x1x2, and amp-nobel's default deck.
Runs alternate (one round = every combination once, --rounds rounds) and each row gives the median
time per step and its spread (min-max over the rounds), its ratio to bspma/isend of the same case
measured in the same rounds, the compute /
pack+unpack / MPI (post+wait) / collective split per step (average rank) and messages per step and
rank. Prints a Markdown table.

Usage: PYTHONPATH=tools python3 bench/transports/transport_table.py [--build build] [--mpiexec mpiexec.mpich] [--ranks
2]
                                           [--rounds 3] [--steps 10] [--ghost-size 64]
                                           [--cases ghost-2x1x1,ghost-1x1x2,nobel-default]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import amp_tools
from amp_tools import command_line
from amp_tools import combinations  # the binary's --list-combinations --json
from amp_tools import proxy_command
from amp_tools import results


def cases(steps, size):
    """name -> (proxy, deck or None, flags)."""
    ghost = {"nx": size, "ny": size, "nz": size, "num_vars": 40, "stencil": "3d27pt", "num_tsteps": steps,
             "num_spikes": 1, "report_diffusion": 0}
    return {
        "ghost-2x1x1": ("ghost", None, {**ghost, "npx": 2, "npy": 1, "npz": 1}),
        "ghost-1x1x2": ("ghost", None, {**ghost, "npx": 1, "npy": 1, "npz": 2}),
        "nobel-default": ("nobel", os.path.join(amp_tools.REPOSITORY, "inputs/nobel/default.toml"), {}),
    }


def run(a, case, strategy, transport, folder):
    proxy, deck, flags = case
    results_path = os.path.join(folder, f"{strategy}-{transport}.json")
    if os.path.exists(results_path):
        os.remove(results_path)
    flags = {**flags, "progress": 0, "strategy": strategy, "transport": transport, "results": results_path}
    command = proxy_command.command(proxy, flags, deck, a.ranks, a.build, a.mpiexec, a.mpiexec_flags)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return None if done.returncode == combinations.COMBINATION_REFUSED else sys.exit(
            f"amp-{proxy} {strategy}/{transport} failed: {done.stderr}")
    return results.load(results_path)


def per_step(r, key):
    return results.per_step_ms(r, key)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[command_line.common_options()])
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=10, help="amp-ghost time steps (nobel: its deck's)")
    p.add_argument("--ghost-size", type=int, default=64, help="amp-ghost cells per rank and axis")
    p.add_argument("--cases", default="ghost-2x1x1,ghost-1x1x2,nobel-default")
    a = p.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OMP_PROC_BIND", "false")
    table = cases(a.steps, a.ghost_size)
    print(f"| case | strategy | transport | ms/step | min-max | vs bspma/isend | compute | pack+unpack | MPI "
          f"| of which wait | collectives | msgs/step/rank | checksum |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name in a.cases.split(","):
            listed = combinations.listing(proxy_command.executable(table[name][0], a.build))
            fits = combinations.pairs(listed)
            fitting = [(s["name"], t["name"]) for s in listed["strategies"] for t in listed["transports"]
                       if fits[(s["name"], t["name"])]["fits"]]
            times, last = {}, {}
            for _ in range(a.rounds):
                for s, t in fitting:
                    r = run(a, table[name], s, t, folder)
                    if r is None:
                        continue
                    times.setdefault((s, t), []).append(results.step_seconds(r) * 1e3)
                    last[(s, t)] = r
            checksums = {results.checksum(r) for r in last.values()}
            if len(checksums) != 1:
                sys.exit(f"{name}: checksums differ across combinations: {sorted(checksums)}")
            base = statistics.median(times[("bspma", "isend")])
            for (s, t), values in times.items():
                r, ms = last[(s, t)], statistics.median(values)
                print(f"| {name} | {s} | {t} | {ms:.2f} | {min(values):.1f}-{max(values):.1f} | {ms / base:.2f}x "
                      f"| {per_step(r, 'compute'):.2f} "
                      f"| {per_step(r, 'pack') + per_step(r, 'unpack'):.2f} | {per_step(r, 'mpi'):.2f} "
                      f"| {per_step(r, 'mpi_wait'):.2f} | {per_step(r, 'collective'):.2f} "
                      f"| {results.messages_per_step_per_rank(r):.0f} | {results.checksum(r)} |", flush=True)
    print(f"\n{a.ranks} ranks, medians of {a.rounds} alternated rounds; split columns in ms per step, average rank.")


if __name__ == "__main__":
    main()
