#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-ghost's per-step overhead at small blocks: the loop time that is not the stencil
sweeps, and what it is made of, for every strategy over isend and persistent.

For each strategy x transport, one round runs amp-ghost (2 ranks, 24^3 cells and 40 variables per rank,
3D7PT, 200 steps by default, OMP_NUM_THREADS=1) and reads its results JSON (average rank):
  loop, compute               timing.per_step_seconds and timing.compute / steps;
  overhead = loop - compute   and its share of the loop;
  pack, unpack                the strategy's copies (Kokkos launches, a fence after each copy);
  post, wait                  MPI_Isend / MPI_Irecv / MPI_Start* and MPI_Wait*;
  allreduce                   timing.collective: the conservation check's MPI_Allreduce every step;
  other                       the rest: the loop's own bookkeeping, timers, the strategy's calls.
Rounds alternate over the configurations (and, with --before, over the two builds); each figure is the
median over the rounds, the overhead share with its min-max. Then, once per configuration, the Kokkos
launches per step and rank, counted with the launch-counter tools library (the difference between
runs of `steps` and `steps/2` steps, so set-up is not counted), and the cost of one empty launch and of
a fence (bench_kokkos_launch, run under mpiexec as the proxy is, so both ranks compete for the cores).

Usage: PYTHONPATH=tools python3 bench/ghost/step_overhead.py [--build build] [--before OTHER_BUILD] [--mpiexec
mpiexec.mpich]
       [--ranks 2] [--size 24] [--vars 40] [--steps 200] [--stencil 3d7pt] [--grid 2x1x1] [--rounds 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from amp_tools import command_line
from amp_tools import launch
from amp_tools import proxy_command
from amp_tools import results
STRATEGIES = ["bspma", "svaf", "svcp"]
TRANSPORTS = ["isend", "persistent"]


def run(command, env=None):
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"step_overhead: {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def ghost_command(a, build, strategy, transport, steps, results_path):
    npx, npy, npz = a.grid.split("x")
    flags = {"nx": a.size, "ny": a.size, "nz": a.size, "num_vars": a.vars, "num_tsteps": steps, "stencil": a.stencil,
             "strategy": strategy, "transport": transport, "npx": npx, "npy": npy, "npz": npz, "progress": 0,
             "results": results_path}
    return proxy_command.command("ghost", flags, ranks=a.ranks, build=build, mpiexec=a.mpiexec,
                                 mpiexec_flags=a.mpiexec_flags)


def environment(**extra):
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    env.update(extra)
    return env


def one_run(a, folder, build, strategy, transport):
    """Per-step milliseconds of one run (average rank) and its checksum."""
    results_path = os.path.join(folder, "ghost.json")
    if os.path.exists(results_path):
        os.remove(results_path)
    run(ghost_command(a, build, strategy, transport, a.steps, results_path), environment())
    r = results.load(results_path)
    ms = lambda key: results.per_step_ms(r, key)  # noqa: E731
    row = {"loop": results.step_seconds(r) * 1e3, "compute": ms("compute"), "pack": ms("pack"), "unpack": ms("unpack"),
           "post": ms("mpi_post"), "wait": ms("mpi_wait"), "allreduce": ms("collective"),
           "messages": results.messages_per_step_per_rank(r)}
    row["overhead"] = row["loop"] - row["compute"]
    row["share"] = row["overhead"] / row["loop"]
    row["other"] = row["overhead"] - sum(row[k] for k in ("pack", "unpack", "post", "wait", "allreduce"))
    return row, results.checksum(r)


def launches_per_step(a, folder, build, strategy, transport):
    """Kokkos launches per step and rank, by kind (sweep, pack, unpack, other), from the counter library."""
    library = os.path.join(build, "lib", "libamp-kokkos-launch-counter.so")
    if not os.path.exists(library):
        return None
    totals = []
    for steps in (a.steps, a.steps // 2):
        counts = os.path.join(folder, f"launches-{steps}.jsonl")
        if os.path.exists(counts):
            os.remove(counts)
        run(ghost_command(a, build, strategy, transport, steps, os.path.join(folder, f"l{steps}.json")),
            environment(KOKKOS_PROFILE_LIBRARY=library, AMP_LAUNCH_COUNTS=counts))
        os.remove(os.path.join(folder, f"l{steps}.json"))
        by_kind = {"sweep": 0, "pack": 0, "unpack": 0, "other": 0}
        with open(counts) as f:
            ranks = [json.loads(line) for line in f if line.strip()]
        for per_rank in ranks:
            for name, n in per_rank.items():
                kind = ("sweep" if "stencil" in name or "outflow" in name else "pack" if "pack_" in name and
                        "unpack" not in name else "unpack" if "unpack_" in name else "other")
                by_kind[kind] += n / len(ranks)
        totals.append(by_kind)
    return {k: (totals[0][k] - totals[1][k]) / (a.steps - a.steps // 2) for k in totals[0]}


def launch_cost(a, build):
    exe = os.path.join(build, "bin", "bench_kokkos_launch")
    if not os.path.exists(exe):
        return ""
    return run(launch.mpiexec(a.mpiexec, a.ranks, [exe, "20000"], a.mpiexec_flags), environment())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], parents=[command_line.common_options()])
    p.add_argument("--before", help="another build to alternate with (its numbers are printed first)")
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--size", type=int, default=24)
    p.add_argument("--vars", type=int, default=40)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--stencil", default="3d7pt")
    p.add_argument("--grid", default="2x1x1", help="process grid, e.g. 2x1x1 (yz faces) or 1x1x2 (xy planes)")
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    builds = ([("before", a.before)] if a.before else []) + [("after" if a.before else "", a.build)]
    configs = [(strategy, transport) for strategy in STRATEGIES for transport in TRANSPORTS]
    rows = {(b, c, t): [] for b, _ in builds for c, t in configs}
    checksums = {}
    with tempfile.TemporaryDirectory(prefix="amp-step-overhead-") as folder:
        for _ in range(a.rounds):
            for strategy, transport in configs:
                for label, build in builds:
                    row, checksum = one_run(a, folder, build, strategy, transport)
                    rows[(label, strategy, transport)].append(row)
                    checksums.setdefault(checksum, []).append(f"{label} {strategy}/{transport}".strip())
        launches = {(c, t): launches_per_step(a, folder, a.build, c, t) for c, t in configs}
    print(f"amp-ghost per-step overhead: {a.ranks} ranks, {a.size}^3 x {a.vars} variables per rank, {a.stencil}, "
          f"grid {a.grid}, {a.steps} steps, OMP_NUM_THREADS=1; medians of {a.rounds} alternated rounds, "
          f"ms per step (average rank)")
    print("| build | strategy | transport | loop | compute | loop - compute | share of loop (min-max) | pack | unpack "
          "| MPI post | MPI wait | allreduce | other | messages/step/rank |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (label, strategy, transport), runs in rows.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        shares = [r["share"] for r in runs]
        print(f"| {label or 'this'} | {strategy} | {transport} | {med['loop']:.3f} | {med['compute']:.3f} | "
              f"{med['overhead']:.3f} | {100 * med['share']:.0f}% ({100 * min(shares):.0f}-{100 * max(shares):.0f}%) | "
              f"{med['pack']:.3f} | {med['unpack']:.3f} | {med['post']:.3f} | {med['wait']:.3f} | "
              f"{med['allreduce']:.3f} | {med['other']:.3f} | {med['messages']:.0f} |")
    print(f"checksums: {len(checksums)} distinct" + ("" if len(checksums) == 1 else f": {checksums}"))
    if any(v is not None for v in launches.values()):
        print("Kokkos launches per step and rank (build " + a.build + "):")
        print("| strategy | transport | sweeps | pack | unpack | other |")
        print("|---|---|---:|---:|---:|---:|")
        for (strategy, transport), n in launches.items():
            if n is not None:
                print(f"| {strategy} | {transport} | {n['sweep']:.1f} | {n['pack']:.1f} | {n['unpack']:.1f} "
                      f"| {n['other']:.1f} |")
    print(launch_cost(a, a.build), end="")


if __name__ == "__main__":
    main()
