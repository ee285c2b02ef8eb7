#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The SimGrid path at scale: a synthesized amp-ghost svaf trace (default 4096 ranks, 64^3
# cells and 40 variables per rank, 3d7pt, 10 steps), exported to SimGrid's time-independent form
# (goal <= 60 s, <= 1 GiB) and replayed with smpirun on a 16x16x16 torus (goal <= 10 min, <= 8 GiB).
# Prints wall time and peak memory (GNU time's maximum resident set) of each step, and the sizes.
# Usage: PYTHONPATH=tools python3 bench/simulate/scale.py [--build DIR] [--ranks 4096] [--size 64] [--vars 40] [--steps
# 10]
#        [--method svaf] [--network inputs/networks/torus-16x16x16.toml] [--workdir DIR] [--keep]
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import amp_tools
from amp_tools import command_line
from amp_tools import results
from amp_tools import networks
from amp_tools.simulators import simgrid_machine
from amp_tools import proxy_command
from amp_tools import simulate
from amp_tools.simulators import simgrid

ROOT = amp_tools.REPOSITORY


def timed(label, command, cwd=None, timeout=None, env=None):
    """(seconds, peak MiB) of one command, through GNU time. Past the timeout its whole process group (smpirun
    and the replayer it starts) is killed and TimeoutExpired raised."""
    process = subprocess.Popen(["/usr/bin/time", "-f", "AMP_TIME %e %M", *command], cwd=cwd, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    done = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    if done.returncode != 0:
        sys.exit(f"{label} failed: {done.stderr.strip()[-800:]}")
    seconds, kib = re.search(r"AMP_TIME ([0-9.]+) ([0-9]+)", done.stderr).groups()
    return float(seconds), int(kib) / 1024, done


def replay_settings(export_dir):
    """The --cfg settings every replay of the export needs (its export.json's smpirun_cfg)."""
    return results.read(os.path.join(export_dir, "export.json"))["smpirun_cfg"]


def du(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files) / 2**20


def main():
    p = argparse.ArgumentParser(parents=[command_line.common_options(launcher=False)])
    p.add_argument("--ranks", type=int, default=4096)
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--vars", type=int, default=40)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--method", default="svaf")
    p.add_argument("--network", default=os.path.join(ROOT, "inputs", "networks", "torus-16x16x16.toml"))
    p.add_argument("--workdir")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--replay-timeout", type=float, default=3600)
    p.add_argument("--compute-seconds", type=float, default=2.6e-4,
                   help="seconds per variable step given to the synthesis (default: a 64^3 3d7pt step at about "
                        "1 Gcell/s), so that every run replays the same trace; 0 measures it on this machine")
    a = p.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="amp-simulate-scale-")
    trace, ti = os.path.join(work, "trace"), os.path.join(work, "ti")
    shutil.rmtree(trace, ignore_errors=True)
    shutil.rmtree(ti, ignore_errors=True)
    flags = {"nx": a.size, "ny": a.size, "nz": a.size, "num_vars": a.vars, "num_tsteps": a.steps, "stencil": "3d7pt",
             "strategy": a.method, "synthesize": trace, "ranks": a.ranks,
             "compute_seconds": a.compute_seconds if a.compute_seconds > 0 else None}
    s, mib, _ = timed("synthesis", proxy_command.command("ghost", flags, build=a.build))
    print(f"synthesis  {a.ranks} ranks {a.method} {a.size}^3 x {a.vars} vars x {a.steps} steps: {s:7.1f} s, "
          f"{mib:7.0f} MiB peak, trace {du(trace):.0f} MiB")
    s, mib, done = timed("export", [os.path.join(a.build, "bin", "amp-trace"), "simgrid", trace, ti])
    print(f"export     amp-trace simgrid: {s:7.1f} s, {mib:7.0f} MiB peak, TI files {du(ti):.0f} MiB "
          f"(goal <= 60 s, <= 1024 MiB); {done.stdout.splitlines()[0]}")
    network = networks.load(a.network)
    platform, env = simgrid.platform(network, a.build, work)  # as ./amp simulate gives it
    with open(os.path.join(work, "hosts.txt"), "w") as f:
        f.write(simgrid_machine.hostfile(network, a.ranks))
    try:
        s, mib, done = timed("replay", ["smpirun", "-np", str(a.ranks), "-platform", platform,
                                        "-hostfile", os.path.join(work, "hosts.txt"), "-replay", "ranks.txt",
                                        simgrid.SMPIREPLAY,
                                        *replay_settings(ti), *simgrid_machine.simgrid_config(network)], cwd=ti,
                                       timeout=a.replay_timeout, env=env)
    except subprocess.TimeoutExpired:
        print(f"replay     smpirun on {network.name}: not finished in {a.replay_timeout:.0f} s (goal <= 600 s)")
        return
    predicted = re.findall(r"Simulation time ([0-9.eE+-]+)", done.stderr)
    print(f"replay     smpirun on {network.name}: {s:7.1f} s, {mib:7.0f} MiB peak (goal <= 600 s, <= 8192 MiB); "
          f"predicted {predicted[-1] if predicted else '?'} s")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
