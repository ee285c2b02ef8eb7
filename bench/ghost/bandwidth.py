#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-ghost against the memory-bandwidth limit: every figure beside the STREAM baseline
measured in the same run, at one rank per core (2 ranks by default, OMP_NUM_THREADS=1 each).

One round measures, in this order:
  - STREAM copy and triad, GB/s per rank with every rank running (amp-micro stream, 4x the L3);
  - the 3D7PT and 3D27PT kernels alone as amp-ghost runs them (in place where kernels::sweeps_in_place;
    bench_stencil_bandwidth, one copy per rank at once, sweeping --kernel-bytes of blocks in turn so that
    they come from memory), GB/s counting 2 x 8 B per cell, as a share of that triad;
  - the real amp-ghost (bspma/isend, 40 variables) for each block size and stencil on process grid
    2x1x1 (yz faces: strided rows) and 1x1x2 (xy planes: contiguous):
      loop    = triad bound / loop time, where triad bound = cells x variables x steps x 16 B / triad;
      compute = triad bound / compute time (the stencil sweeps alone, inside the loop);
      pack, unpack = 2 x 8 B per element they copied / their time, as a share of STREAM copy;
      by sweep = the share of sent elements the sweep wrote into the send slots itself (its yz faces,
                 Strategy::send_slot_to_fill), which pack then does not copy.
Rounds alternate; each figure printed is the median over the rounds (min-max beside it).

Usage: PYTHONPATH=tools python3 bench/ghost/bandwidth.py [--build build] [--mpiexec mpiexec.mpich] [--ranks 2] [--rounds
3]
                                [--sizes 32,64,128] [--vars 40] [--steps 10] [--kernel-size 128]
                                [--kernel-bytes 134217728] [--stream-elements 16777216]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

from amp_tools import command_line
from amp_tools import launch
from amp_tools import proxy_command
from amp_tools import results
STENCILS = ["3d7pt", "3d27pt"]


def process_grids(ranks):
    """The split in x (yz faces: strided rows) and the split in z (xy planes: contiguous)."""
    n = str(ranks)
    return {f"{n}x1x1": {"npx": n, "npy": 1, "npz": 1}, f"1x1x{n}": {"npx": 1, "npy": 1, "npz": n}}


def run_proxy(a, proxy, flags):
    """Runs amp-PROXY with these flags at a.ranks ranks; its output."""
    return run(proxy_command.command(proxy, flags, ranks=a.ranks, build=a.build, mpiexec=a.mpiexec,
                                     mpiexec_flags=a.mpiexec_flags))


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bandwidth: {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def stream(a, folder):
    """Per-rank GB/s (best repetition, slowest rank) of copy and triad, every rank at once."""
    stream_path = os.path.join(folder, "stream.json")
    if os.path.exists(stream_path):
        os.remove(stream_path)
    run_proxy(a, "micro", ["stream", "--array-size", str(a.stream_elements), "--results", stream_path])
    rows = results.load(stream_path)["rows"]
    by_kernel = {row["kernel"]: row for row in rows}
    return {k: by_kernel[k]["GBps_per_rank_best"] for k in ("copy", "triad")}


def kernels(a):
    """GB/s of each stencil alone (2 x 8 B per cell), slowest of the ranks running at once, sweeping
    enough blocks in turn (as amp-ghost sweeps its variables) that they come from memory."""
    block_bytes = 2 * 8 * (a.kernel_size + 2) ** 3
    variables = max(1, -(-a.kernel_bytes // block_bytes))
    out = run(launch.mpiexec(a.mpiexec, a.ranks, [os.path.join(a.build, "bin", "bench_stencil_bandwidth"),
                                                 str(a.kernel_size), "10", str(variables)], a.mpiexec_flags))
    rates = {}
    for name, gbs in re.findall(r"^\s+(3d7pt|3d27pt)\s+([0-9.]+) GB/s .*of triad", out, re.M):
        rates[name.upper()] = min(rates.get(name.upper(), 1e30), float(gbs))
    if set(rates) != {"3D7PT", "3D27PT"}:
        sys.exit(f"bandwidth: bench_stencil_bandwidth printed no rate for {sorted({'3D7PT', '3D27PT'} - set(rates))}")
    return rates


def ghost(a, folder, size, stencil, grid):
    """One amp-ghost run: cells per rank, the loop and compute seconds (slowest rank / average rank),
    pack and unpack seconds (average rank), the elements each copied and those the sweep wrote into the
    send slots itself (average rank)."""
    results_path = os.path.join(folder, "ghost.json")
    if os.path.exists(results_path):
        os.remove(results_path)
    run_proxy(a, "ghost", {"nx": size, "ny": size, "nz": size, "num_vars": a.vars, "num_tsteps": a.steps,
                           "stencil": stencil, "strategy": "bspma", "transport": "isend", "progress": 0,
                           "report_diffusion": 0, "results": results_path, **process_grids(a.ranks)[grid]})
    r = results.load(results_path)
    if not results.verified(r):
        sys.exit(f"bandwidth: amp-ghost {size}^3 {stencil} {grid} failed its verification")
    if results.timing(r, "packed_elements") is not None:
        packed, unpacked, filled = (results.timing(r, f"{k}_elements") for k in ("packed", "unpacked", "filled"))
    else:  # a build from before the counts (a "before" of docs/PERFORMANCE.md): bspma/isend copies all it sends
        packed = unpacked = results.bytes_per_step_per_rank(r) * a.steps / 8
        filled = 0.0
    return {"cells": size ** 3 * a.vars * a.steps, "loop": results.loop_seconds(r),
            "compute": results.timing(r, "compute"), "pack": results.timing(r, "pack"),
            "unpack": results.timing(r, "unpack"), "packed": packed,
            "unpacked": unpacked, "filled": filled, "checksum": results.checksum(r)}


def median_cell(values, percent=True):
    m = statistics.median(values)
    if percent:
        return f"{100 * m:.0f}% ({100 * min(values):.0f}-{100 * max(values):.0f})"
    return f"{m:.2f} ({min(values):.2f}-{max(values):.2f})"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[command_line.common_options()])
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--sizes", default="32,64,128", help="amp-ghost cells per rank and axis, comma-separated")
    p.add_argument("--vars", type=int, default=40)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--kernel-size", type=int, default=128, help="bench_stencil_bandwidth's block, per axis")
    p.add_argument("--kernel-bytes", type=int, default=128 << 20,
                   help="bytes of input and output blocks the kernel sweeps in turn per rank (4x the L3)")
    p.add_argument("--stream-elements", type=int, default=1 << 24, help="doubles per STREAM array per rank")
    a = p.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OMP_PROC_BIND", "false")
    try:
        sizes = [int(s) for s in a.sizes.split(",")]
    except ValueError:
        p.error(f"--sizes {a.sizes!r} is not a comma-separated list of integers")
    if min(sizes + [a.ranks, a.rounds, a.vars, a.steps, a.kernel_size, a.kernel_bytes, a.stream_elements]) < 1:
        p.error("sizes, --ranks, --rounds, --vars, --steps, --kernel-size, --kernel-bytes and --stream-elements must "
                "be >= 1")
    rows = {}  # (figure label) -> list of ratios over rounds
    baselines = {"copy": [], "triad": []}
    checksums = {}

    def record(label, value):
        rows.setdefault(label, []).append(value)

    with tempfile.TemporaryDirectory() as folder:
        for _ in range(a.rounds):
            base = stream(a, folder)
            for k in baselines:
                baselines[k].append(base[k])
            triad, copy = base["triad"] * 1e9, base["copy"] * 1e9
            for name, gbs in kernels(a).items():
                record(("kernel", name, f"{a.kernel_size}^3", "alone"), gbs * 1e9 / triad)
            for size in sizes:
                for stencil in STENCILS:
                    for grid in process_grids(a.ranks):
                        g = ghost(a, folder, size, stencil, grid)
                        checksums.setdefault((size, stencil, grid), set()).add(g["checksum"])
                        bound = g["cells"] * 16 / triad
                        key = ("amp-ghost", stencil.upper(), f"{size}^3", grid)
                        record(key + ("loop",), bound / g["loop"])
                        record(key + ("compute",), bound / g["compute"])
                        for part, elements in (("pack", g["packed"]), ("unpack", g["unpacked"])):
                            record(key + (part,), elements * 16 / copy / g[part] if g[part] > 0 else 0.0)
                        sent = g["packed"] + g["filled"]
                        record(key + ("by sweep",), g["filled"] / sent if sent > 0 else 0.0)
    for (size, stencil, grid), sums in checksums.items():
        if len(sums) != 1:
            sys.exit(f"bandwidth: amp-ghost {size}^3 {stencil} {grid}: checksums differ across rounds: {sums}")
    print(f"STREAM per rank ({a.ranks} ranks at once, {a.stream_elements} doubles per array): "
          f"copy {median_cell(baselines['copy'], False)} GB/s, triad {median_cell(baselines['triad'], False)} GB/s")
    print(f"amp-ghost: bspma/isend, {a.vars} variables, {a.steps} steps, {a.ranks} ranks, "
          f"OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}; medians of {a.rounds} alternated rounds (min-max)\n")
    for key, values in rows.items():
        if key[0] == "kernel":
            print(f"{key[1]} kernel alone, {key[2]} block: {median_cell(values)} of triad")
    print("\n| stencil | block per rank | process grid | loop / triad bound | compute / triad bound "
          "| pack / copy | unpack / copy | by sweep | checksum |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (size, stencil, grid), sums in checksums.items():
        key = ("amp-ghost", stencil.upper(), f"{size}^3", grid)
        cells = " | ".join(median_cell(rows[key + (figure,)])
                           for figure in ("loop", "compute", "pack", "unpack", "by sweep"))
        print(f"| {stencil.upper()} | {size}^3 | {grid} | {cells} | {next(iter(sums))} |")

if __name__ == "__main__":
    main()
