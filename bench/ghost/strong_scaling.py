#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-ghost strong scaling: one global problem (96^3 cells x 40 variables, 3D7PT by default)
run for real at 1, 2 and 4 ranks, then synthesized at 64, 512 and 4096 ranks and simulated on a network.

Real runs (OMP_NUM_THREADS=1, one rank per core; more ranks than cores are oversubscribed and marked
so): ms per step of the loop and of the compute (average rank), and the rest (loop - compute). Rounds
alternate over the rank counts; figures are medians over the rounds, with the loop's min-max.

Synthesized runs (`amp-ghost --synthesize DIR --ranks N`, docs/TRACE_FORMAT.md): each virtual
rank's compute is the model amp-ghost measures on this machine for its block (24^3 at 64 ranks, 12^3
at 512, 6^3 at 4096: the small-block sweeps, docs/PERFORMANCE.md), and `python3 -m amp_tools.simulate DIR --network
FILE`
predicts the run on that network (SimGrid). Printed: the compute model per variable step, compute per
step (x variables), the predicted time per step, and the share of it that is not compute.

Usage: PYTHONPATH=tools python3 bench/ghost/strong_scaling.py [--build build] [--mpiexec mpiexec.mpich] [--size 96]
       [--vars 40] [--stencil 3d7pt] [--strategies bspma,svaf] [--real-ranks 1,2,4] [--steps 20] [--rounds 3]
       [--synthesized 64:torus-4x4x4,512:torus-16x16x4,4096:torus-16x16x16] [--synthesized-steps 4]
       [--simulate-timeout 600]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import amp_tools
from amp_tools import command_line
from amp_tools import proxy_command
from amp_tools import results


def problem(a, strategy, steps, **more):
    """amp-ghost's flags for the global problem under `strategy`, and `more` of them."""
    return {"scaling": "strong", "nx": a.size, "ny": a.size, "nz": a.size, "num_vars": a.vars, "num_tsteps": steps,
            "stencil": a.stencil, "strategy": strategy, "progress": 0, **more}


def network_file(name):
    return os.path.join(amp_tools.REPOSITORY, "inputs", "networks", name + ".toml")


def checked(command, timeout=None):
    env = amp_tools.module_environment(OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        sys.exit(f"strong_scaling: {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-600:]}")
    return done.stdout


def real_run(a, folder, strategy, ranks):
    results_path = os.path.join(folder, "real.json")
    if os.path.exists(results_path):
        os.remove(results_path)
    checked(proxy_command.command("ghost", problem(a, strategy, a.steps, results=results_path), ranks=ranks,
                                  build=a.build, mpiexec=a.mpiexec, mpiexec_flags=a.mpiexec_flags))
    run = results.load(results_path)
    return results.step_seconds(run) * 1e3, results.per_step_ms(run, "compute")


def synthesized_run(a, folder, strategy, ranks, network):
    traces = os.path.join(folder, f"syn-{strategy}-{ranks}")
    results_path = traces + ".json"
    checked(proxy_command.command("ghost", problem(a, strategy, a.synthesized_steps, synthesize=traces, ranks=ranks,
                                                   results=results_path), build=a.build))
    seconds = results.synthesized_compute_seconds(results.load(results_path))
    out = checked(amp_tools.module_command("simulate") + [traces, "--network", network_file(network),
                                                          "--build", a.build,
                                                          "--mpiexec", a.mpiexec], timeout=a.simulate_timeout)
    predicted = None
    if out is not None:
        m = re.search(r"predicted ([0-9.eE+-]+) s", out)
        predicted = float(m.group(1)) / a.synthesized_steps * 1e3 if m else None
    subprocess.run(["rm", "-rf", traces])
    return seconds, predicted


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], parents=[command_line.common_options()])
    p.add_argument("--size", type=int, default=96)
    p.add_argument("--vars", type=int, default=40)
    p.add_argument("--stencil", default="3d7pt")
    p.add_argument("--strategies", default="bspma,svaf")
    p.add_argument("--real-ranks", default="1,2,4")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--synthesized", default="64:torus-4x4x4,512:torus-16x16x4,4096:torus-16x16x16")
    p.add_argument("--synthesized-steps", type=int, default=4)
    p.add_argument("--simulate-timeout", type=int, default=600)
    a = p.parse_args()
    strategies = a.strategies.split(",")
    real_ranks = [int(r) for r in a.real_ranks.split(",") if r]
    cores = os.cpu_count()
    print(f"amp-ghost strong scaling: {a.size}^3 global x {a.vars} variables, {a.stencil}, OMP_NUM_THREADS=1, "
          f"{cores} cores")
    with tempfile.TemporaryDirectory(prefix="amp-strong-scaling-") as folder:
        if real_ranks:
            runs = {(strategy, r): [] for strategy in strategies for r in real_ranks}
            for _ in range(a.rounds):
                for strategy in strategies:
                    for r in real_ranks:
                        runs[(strategy, r)].append(real_run(a, folder, strategy, r))
            print(f"Real runs, {a.steps} steps, medians of {a.rounds} alternated rounds, ms per step (average rank):")
            print("| strategy | ranks | block per rank | loop (min-max) | compute | loop - compute "
                  "| speed-up over 1 rank |")
            print("|---|---:|---|---:|---:|---:|---:|")
            for strategy in strategies:
                base = None
                for r in real_ranks:
                    loops = [x[0] for x in runs[(strategy, r)]]
                    loop, compute = statistics.median(loops), statistics.median(x[1] for x in runs[(strategy, r)])
                    base = base if base is not None else loop * r / real_ranks[0]
                    note = " (oversubscribed)" if r > cores else ""
                    print(f"| {strategy} | {r}{note} | {block(a.size, r)} | "
                          f"{loop:.2f} ({min(loops):.2f}-{max(loops):.2f}) | "
                          f"{compute:.2f} | {loop - compute:.2f} | {base / loop:.2f} |")
        synthesized = [s.split(":") for s in a.synthesized.split(",") if s]
        if synthesized:
            print(f"Synthesized runs ({a.synthesized_steps} steps), compute measured on this machine per block, "
                  "predicted by SimGrid:")
            print("| strategy | ranks | block per rank | network | compute model per variable step | compute per step "
                  "| predicted per step | not compute |")
            print("|---|---:|---|---|---:|---:|---:|---:|")
            for strategy in strategies:
                for ranks, network in synthesized:
                    seconds, predicted = synthesized_run(a, folder, strategy, int(ranks), network)
                    compute = seconds * a.vars * 1e3
                    shown = (f"{predicted:.3f} ms" if predicted is not None
                             else f"over {a.simulate_timeout} s to simulate")
                    share = f"{100 * (1 - compute / predicted):.0f}%" if predicted else "-"
                    print(f"| {strategy} | {ranks} | {block(a.size, int(ranks))} | {network} | "
                          f"{seconds * 1e6:.2f} us | "
                          f"{compute:.3f} ms | {shown} | {share} |")


def block(size, ranks):
    """The block per rank of MPI_Dims_create's grid for `ranks` (as amp-ghost picks it for a cube)."""
    dims = [1, 1, 1]
    n, f = ranks, 2
    factors = []
    while n > 1:
        while n % f == 0:
            factors.append(f)
            n //= f
        f += 1
    for f in sorted(factors, reverse=True):
        dims[dims.index(min(dims))] *= f
    dims.sort(reverse=True)
    return "x".join(str(size // d) if size % d == 0 else f"{size / d:.1f}" for d in dims)


if __name__ == "__main__":
    main()
