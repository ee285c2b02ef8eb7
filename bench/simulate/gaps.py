#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Where SimGrid and SST-macro still differ on one network file (docs/TRACE_SIMULATORS.md), measured:
- MPI_Init and MPI_Finalize alone (a barrier) at 64 ranks on torus-4x4x4, in both;
- amp-ghost's strategies at 64 ranks on a bigger problem (32^3 per rank, 8 variables, 3 steps), in both;
- the conformance suite's 3-D halo on dragonfly-1024 in SST-macro with its default 64 KB credits and
  with 16 MB (`switch.credits`, `node.nic.credits`), against SimGrid;
- how long SimGrid 3.32 takes to build AMP's platform of 1024, 4096 and 9600 nodes (tools/amp_tools/
  simgrid_routes.py loading it, one route asked).
Needs AMP_SSTMAC.

Usage: PYTHONPATH=tools python3 bench/simulate/gaps.py [--build BUILD] [--workdir DIR]
"""
import argparse
import json  # the routes tool's input
import os
import re
import subprocess
import sys
import tempfile
import time

import amp_tools  # noqa: E402
ROOT = amp_tools.REPOSITORY
from amp_tools import command_line  # noqa: E402
from amp_tools import results  # noqa: E402
from amp_tools import networks  # noqa: E402
from amp_tools.simulators import sstmac_machine  # noqa: E402
from amp_tools import proxy_command  # noqa: E402
from amp_tools import simgrid_export  # noqa: E402
from amp_tools.simulators import simgrid  # noqa: E402

NETWORKS = os.path.join(ROOT, "inputs", "networks")


def predicted(build, trace, network, simulator):
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network,
                           "--simulator", simulator, "--build", build], capture_output=True, text=True, check=True)
    return results.read(done.stdout.strip().rsplit(" -> ", 1)[1])["predicted_seconds"]


def sstmac_seconds(build, trace, network_path, extra):
    """SST-macro's prediction with `extra` -p settings on top of what ./amp simulate gives it."""
    network = networks.load(network_path)
    ranks = len(results.read(os.path.join(trace, "simgrid-ti-1e+09", "export.json"))["ranks"])
    command = [os.environ["AMP_SSTMAC"], "-f", os.path.join(ROOT, "tools", "sstmac", f"{network.topology}.ini"),
               "-p", f"node.app1.dumpi_metaname={simgrid_export.trace_meta(trace)}", "-p", f"node.app1.size={ranks}",
               "-p", f"node.app1.launch_cmd={sstmac_machine.sstmac_launch(network, ranks)}"]
    for key, value in {**sstmac_machine.sstmac_overrides(network), **extra}.items():
        command += ["-p", f"{key}={value}"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tempfile.mkdtemp())
    return float(re.search(r"Estimated total runtime of\s+(\S+) seconds", done.stdout).group(1))


def main():
    p = argparse.ArgumentParser(parents=[command_line.common_options(launcher=False)])
    p.add_argument("--workdir")
    a = p.parse_args()
    if not os.environ.get("AMP_SSTMAC"):
        sys.exit("gaps: set AMP_SSTMAC to SST-macro's sstmac")
    work = a.workdir or tempfile.mkdtemp(prefix="amp-gaps-")
    torus = os.path.join(NETWORKS, "torus-4x4x4.toml")
    dragonfly = os.path.join(NETWORKS, "dragonfly-1024.toml")

    empty = os.path.join(work, "empty64")
    os.makedirs(empty)
    subprocess.run([os.path.join(a.build, "tests", "simulate_conformance_traces"), empty, "empty", "0", "64"],
                   check=True, stdout=subprocess.DEVNULL)
    sg, sst = (predicted(a.build, empty, torus, s) for s in ("simgrid", "sstmac"))
    print(f"MPI_Init + MPI_Finalize, 64 ranks, torus-4x4x4: SimGrid {sg * 1e6:.2f} us, SST-macro {sst * 1e6:.2f} us")

    for strategy in ("bspma", "svaf", "svcp"):
        trace = os.path.join(work, f"ghost-{strategy}")
        flags = {"nx": 32, "ny": 32, "nz": 32, "num_vars": 8, "num_tsteps": 3, "strategy": strategy,
                 "synthesize": trace, "ranks": 64, "compute_seconds": "2e-5"}
        subprocess.run(proxy_command.command("ghost", flags, build=a.build), check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
        sg, sst = (predicted(a.build, trace, torus, s) for s in ("simgrid", "sstmac"))
        print(f"ghost {strategy}, 64 ranks of 32^3 x 8 variables x 3 steps, torus-4x4x4: SimGrid {sg * 1e6:.1f} us, "
              f"SST-macro {sst * 1e6:.1f} us, ratio {max(sg, sst) / min(sg, sst):.2f}")

    halo = os.path.join(work, "halo")
    os.makedirs(halo)
    subprocess.run([os.path.join(a.build, "tests", "simulate_conformance_traces"), halo, "halo3d", "65536", "4", "4",
                    "4"], check=True, stdout=subprocess.DEVNULL)
    sg = predicted(a.build, halo, dragonfly, "simgrid")
    default = sstmac_seconds(a.build, halo, dragonfly, {})
    deep = sstmac_seconds(a.build, halo, dragonfly, {"switch.credits": "16MB", "node.nic.credits": "16MB"})
    print(f"3-D halo, 64 ranks, dragonfly-1024: SimGrid {sg * 1e6:.1f} us; SST-macro {default * 1e6:.1f} us with "
          f"64 KB credits, {deep * 1e6:.1f} us with 16 MB ({(deep - default) / default * 100:+.1f} %)")

    for name in ("torus-16x16x4", "torus-16x16x16", "dragonfly-4096", "trinity-haswell"):
        network = networks.load(os.path.join(NETWORKS, f"{name}.toml"))
        folder = tempfile.mkdtemp(dir=work)
        platform, env = simgrid.platform(network, a.build, folder)
        started = time.monotonic()
        subprocess.run(["/usr/bin/python3", "-m", "amp_tools.simgrid_routes"], check=True, env=env,
                       input=json.dumps({"platform": platform, "pairs": [["n0", "n1"]]}), capture_output=True,
                       text=True)
        print(f"SimGrid builds AMP's platform of {name} ({network.nodes} nodes) in "
              f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
