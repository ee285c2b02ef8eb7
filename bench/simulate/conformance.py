#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The conformance suite (tests/simulate/test_conformance.py) on every shipped network file, the 4096-node
ones and Trinity's (9600 nodes) included (left out of CTest: SimGrid 3.32 builds a 4096-node platform in
1.5-3.4 s and Trinity's in 25 s, twice a case, and SST-macro's replays grow with the nodes too; the 64
ranks of a case sit in the first 1024 nodes of the 4096-node files, on the routes of the 1024-node ones).
Prints each case's prediction in both simulators and their ratio. Needs AMP_SSTMAC for SST-macro (without
it, its cases are skipped). Exit 1 when a case failed.

Usage: PYTHONPATH=tools python3 bench/simulate/conformance.py [--build build] [--networks NAME,...]
       [--simulators simgrid,sstmac]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import amp_tools
from amp_tools import command_line

NETWORKS = ("torus-4x4x4,torus-16x16x4,torus-16x16x16,fattree-2level-1024,dragonfly-1024,dragonfly-4096,"
            "xt6-seastar,xe6-gemini,cascade-dragonfly,trinity-haswell,trinity-knl")
SKIPPED = 77


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[command_line.common_options(launcher=False)])
    p.add_argument("--networks", default=NETWORKS, help="names of inputs/networks/*.toml, comma-separated")
    p.add_argument("--simulators", default="simgrid,sstmac",
                   help="the analytic cases' simulators; both give the agreement cases too")
    a = p.parse_args()
    suite = os.path.join(amp_tools.REPOSITORY, "tests", "simulate", "test_conformance.py")
    simulators = a.simulators.split(",")
    env = amp_tools.module_environment()
    failed = []
    with tempfile.TemporaryDirectory(prefix="amp-conformance-") as work:
        for name in a.networks.split(","):
            network = os.path.join(amp_tools.REPOSITORY, "inputs", "networks", f"{name}.toml")
            cases = [("analytic", simulator) for simulator in simulators]
            if not name.startswith("fattree-") and {"simgrid", "sstmac"} <= set(simulators):
                cases.append(("agree", "both"))
            for mode, simulator in cases:
                done = subprocess.run([sys.executable, suite, mode, simulator, a.build, amp_tools.REPOSITORY,
                                       os.path.join(work, name), network], env=env)
                if done.returncode not in (0, SKIPPED):
                    failed.append(f"{name} {mode} {simulator}")
    if failed:
        print(f"conformance: failed: {'; '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
