#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How long SST-macro takes to replay synthesized amp-ghost traces at scale through `./amp simulate`
(tools/amp_tools/simulate.py: the export, the replay and the network figures), at one rank per node:
- every strategy at 1024 ranks on torus-16x16x4 (32^3 per rank, 10 variables, 5 steps);
- SVAF at 4096 ranks on torus-16x16x16 (64^3 per rank, 40 variables, 10 steps), against a bound of 10 min.
Prints the synthesis, the simulation's wall time and the prediction per point. Needs AMP_SSTMAC.

Usage: PYTHONPATH=tools python3 bench/simulate/scale_sstmac.py [--build BUILD] [--workdir DIR] [--only 1024|4096]
[--timeout S]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import amp_tools  # noqa: E402
ROOT = amp_tools.REPOSITORY
from amp_tools import command_line  # noqa: E402
from amp_tools import results  # noqa: E402
from amp_tools import proxy_command  # noqa: E402
from amp_tools import simulate  # noqa: E402

POINTS = [  # (ranks, strategy, per-rank block, variables, steps, network)
    (1024, "bspma", 32, 10, 5, "torus-16x16x4"),
    (1024, "svaf", 32, 10, 5, "torus-16x16x4"),
    (1024, "svcp", 32, 10, 5, "torus-16x16x4"),
    (4096, "svaf", 64, 40, 10, "torus-16x16x16"),
]


def main():
    p = argparse.ArgumentParser(parents=[command_line.common_options(launcher=False)])
    p.add_argument("--workdir")
    p.add_argument("--only", type=int, choices=[1024, 4096])
    p.add_argument("--timeout", type=float, default=1800, help="seconds SST-macro may run per point")
    a = p.parse_args()
    if not os.environ.get("AMP_SSTMAC"):
        sys.exit("scale_sstmac: set AMP_SSTMAC to SST-macro's sstmac")
    work = a.workdir or tempfile.mkdtemp(prefix="amp-scale-")
    print(f"{'ranks':>5} {'strategy':8} {'deck':>16} {'network':15} {'synthesis s':>11} {'simulate s':>10} "
          f"{'predicted s':>11} {'actions':>10}")
    for ranks, strategy, n, variables, steps, network in POINTS:
        if a.only and ranks != a.only:
            continue
        trace = os.path.join(work, f"ghost-{strategy}-{ranks}")
        shutil.rmtree(trace, ignore_errors=True)
        started = time.monotonic()
        flags = {"nx": n, "ny": n, "nz": n, "num_vars": variables, "num_tsteps": steps, "strategy": strategy,
                 "synthesize": trace, "ranks": ranks, "compute_seconds": "1e-4"}
        subprocess.run(proxy_command.command("ghost", flags, build=a.build), check=True,
                       stdout=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="1"))
        synthesis = time.monotonic() - started
        path = os.path.join(ROOT, "inputs", "networks", f"{network}.toml")
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", path,
                               "--simulator", "sstmac", "--build", a.build, "--timeout", str(a.timeout)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        simulated = time.monotonic() - started
        if done.returncode != 0:
            print(f"{ranks:5d} {strategy:8} {f'{n}^3 x{variables} x{steps}':>16} {network:15} {synthesis:11.1f} "
                  f"{simulated:10.1f} not simulated: {done.stderr.strip()}", flush=True)
            shutil.rmtree(trace, ignore_errors=True)
            continue
        result = results.read(simulate.simulation_file(trace, path, "sstmac"))
        print(f"{ranks:5d} {strategy:8} {f'{n}^3 x{variables} x{steps}':>16} {network:15} {synthesis:11.1f} "
              f"{simulated:10.1f} {result['predicted_seconds']:11.4g} {result['actions']:10d}", flush=True)
        shutil.rmtree(trace, ignore_errors=True)


if __name__ == "__main__":
    main()
