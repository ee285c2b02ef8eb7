#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The calibration's validation check: the default study's isend runs (amp-ghost, the CTH
# deck, one rank per core on this machine), each traced and then replayed in SimGrid on the network
# file `./amp simulate --calibrate` measured. Prints, per strategy and repetition, the trace's own time of
# its traced region (measured) beside SimGrid's prediction, and per strategy the median error and its
# spread over the repetitions. Goal: |predicted - measured| <= 15 % of measured for each strategy.
# Alternate the strategies within a repetition so that drift over minutes touches all of them alike.
# Usage: PYTHONPATH=tools python3 bench/simulate/validation.py [--build DIR] [--network FILE] [--repetitions 5]
#        [--ranks 2] [--mpiexec mpiexec.mpich] [--workdir DIR]
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import amp_tools  # noqa: E402
ROOT = amp_tools.REPOSITORY
from amp_tools import command_line  # noqa: E402
from amp_tools import proxy_command  # noqa: E402
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
from amp_tools import simulate  # noqa: E402
from amp_tools import results


def main():
    p = argparse.ArgumentParser(parents=[command_line.common_options()])
    p.add_argument("--network", help="network file (default: calibrate anew into the work folder)")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--strategies", default="bspma,svaf,svcp")
    p.add_argument("--workdir")
    a = p.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="amp-validation-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    network = a.network
    if not network:
        network = os.path.join(work, "this-machine.toml")
        subprocess.run([PYTHON, "-m", "amp_tools.simulate", "--calibrate", "--output", network,
                        "--replace", "--build", a.build, "--mpiexec", a.mpiexec, "--cores", str(a.ranks)], check=True)
    name = os.path.splitext(os.path.basename(network))[0]
    strategies = a.strategies.split(",")
    errors = {s: [] for s in strategies}
    print(f"{'strategy':8s} {'rep':>3s} {'run ms/step':>12s} {'trace ms/step':>14s} {'predicted':>10s} {'error':>8s}")
    for rep in range(1, a.repetitions + 1):
        for strategy in strategies:
            base = os.path.join(work, f"{strategy}-rep{rep}")
            shutil.rmtree(base + ".trace", ignore_errors=True)
            for leftover in (base + ".json",):
                if os.path.exists(leftover):
                    os.remove(leftover)
            flags = {"strategy": strategy, "transport": "isend", "results": base + ".json", "trace": base + ".trace"}
            subprocess.run(proxy_command.command("ghost", flags, os.path.join(ROOT, "inputs", "ghost", "cth.toml"),
                                                 a.ranks, a.build, a.mpiexec, a.mpiexec_flags),
                           check=True, env=env, stdout=subprocess.DEVNULL)
            subprocess.run([PYTHON, "-m", "amp_tools.simulate", base + ".trace", "--network", network,
                            "--build", a.build], check=True, stdout=subprocess.DEVNULL)
            run = results.load(base + ".json")
            sim = results.read(simulate.simulation_file(base + ".trace", network, "simgrid"))
            steps = results.steps(run)
            error = (sim["predicted_seconds"] - sim["measured_seconds"]) / sim["measured_seconds"] * 100
            errors[strategy].append(error)
            print(f"{strategy:8s} {rep:3d} {results.step_seconds(run) * 1e3:12.2f} "
                  f"{sim['measured_seconds'] / steps * 1e3:14.2f} {sim['predicted_seconds'] / steps * 1e3:10.2f} "
                  f"{error:+7.1f}%")
    print()
    print(f"{'strategy':8s} {'median error':>13s} {'range':>18s}  within 15 %")
    for strategy in strategies:
        e = errors[strategy]
        print(f"{strategy:8s} {statistics.median(e):+12.1f}% {min(e):+8.1f}% .. {max(e):+.1f}%  "
              f"{'yes' if abs(statistics.median(e)) <= 15 else 'NO'} ({sum(abs(x) <= 15 for x in e)}/{len(e)} runs)")
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
