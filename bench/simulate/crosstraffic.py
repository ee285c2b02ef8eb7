#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SimGrid's `network/crosstraffic` (its model of TCP's acknowledgements) on and off, on the conformance
suite's traces (amp_tools.conformance_traces makes them, as for tests/simulate/test_conformance.py)
replayed on torus-4x4x4 through AMP's platform library with everything else as ./amp simulate
gives it. Prints both predictions, their ratio and the replays' wall times. AMP leaves it off
(docs/TRACE_SIMULATORS.md).

Usage: PYTHONPATH=tools python3 bench/simulate/crosstraffic.py [--build BUILD] [--workdir DIR]
"""
import argparse
import os
import subprocess
import tempfile
import time

import amp_tools
from amp_tools import command_line
from amp_tools import conformance_traces
from amp_tools import networks
from amp_tools import results
from amp_tools.simgrid_export import export
from amp_tools.simulators import simgrid
from amp_tools.simulators import simgrid_machine

ROOT = amp_tools.REPOSITORY

CASES = ("pingpong-1MiB", "ring-64KiB", "halo3d-64KiB", "bspma", "svcp")


def replay(network, export_dir, ranks, platform, env, workdir, crosstraffic):
    hosts = os.path.join(workdir, "hosts.txt")
    with open(hosts, "w") as f:
        f.write(simgrid_machine.hostfile(network, ranks))
    exported = results.read(os.path.join(export_dir, "export.json"))  # the replay's settings, then the network's
    config = [c for c in exported["smpirun_cfg"] + simgrid_machine.simgrid_config(network) if "crosstraffic" not in c]
    command = ["smpirun", "-np", str(ranks), "-platform", platform, "-hostfile", hosts, "-replay", "ranks.txt",
               simgrid.SMPIREPLAY, *config, f"--cfg=network/crosstraffic:{crosstraffic}",
               "--log=smpi_replay.fmt:[%h:%a:(%i)_%.9d]_[%c/%p]_%m%n"]
    started = time.monotonic()
    done = subprocess.run(command, cwd=export_dir, env=env, capture_output=True, text=True, check=True)
    wall = time.monotonic() - started
    line = [l for l in done.stderr.splitlines() if "Simulation time" in l][-1]
    return float(line.split("]")[0].rsplit("_", 1)[1]), wall


def main():
    p = argparse.ArgumentParser(parents=[command_line.common_options(launcher=False)])
    p.add_argument("--workdir")
    a = p.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="amp-crosstraffic-")
    path = os.path.join(ROOT, "inputs", "networks", "torus-4x4x4.toml")
    network = networks.load(path)
    platform, env = simgrid.platform(network, a.build, work)
    print(f"{'trace':16s} {'off (us)':>10s} {'on (us)':>10s} {'on/off':>7s} {'wall off/on (s)':>16s}")
    for case in CASES:
        trace = conformance_traces.trace(a.build, os.path.join(work, "conformance"), case)
        _, summary = export(trace, os.path.join(a.build, "bin", "amp-trace"), network.host_speed)
        export_dir = os.path.join(trace, f"simgrid-ti-{network.host_speed:g}")
        (off, wall_off), (on, wall_on) = (replay(network, export_dir, len(summary["ranks"]), platform, env, work, c)
                                          for c in (0, 1))
        print(f"{case:16s} {off * 1e6:10.2f} {on * 1e6:10.2f} {on / off:7.4f} {wall_off:7.2f} / {wall_on:.2f}")


if __name__ == "__main__":
    main()
