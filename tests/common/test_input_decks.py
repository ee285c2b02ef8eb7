#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every input deck of a proxy parses and verifies: each deck under DECKS runs through mpiexec with
the given override flags (few steps, to stay quick) and must exit 0 with verification.passed.
Usage: test_input_decks.py MPIEXEC RANKS PROXY DECKS WORKDIR [override flags...]"""
import os
import subprocess
import sys

from amp_tools import launch
from amp_tools import results


def main():
    mpiexec, ranks, proxy, decks, workdir = sys.argv[1:6]
    overrides = sys.argv[6:]
    os.makedirs(workdir, exist_ok=True)
    failures = []
    names = sorted(n for n in os.listdir(decks) if n.endswith(".toml"))
    for name in names:
        results_path = os.path.join(workdir, name + ".json")
        if os.path.exists(results_path):
            os.remove(results_path)
        run = subprocess.run(launch.mpiexec(mpiexec, ranks,
                                            [proxy, "--input", os.path.join(decks, name), "--results", results_path]
                                           + overrides), capture_output=True, text=True, timeout=240)
        passed = run.returncode == 0 and results.finished(results_path)
        print(f"{'ok  ' if passed else 'FAIL'} {name}: exit {run.returncode} {run.stderr.strip()}")
        if not passed:
            failures.append(name)
    if not names:
        failures.append(f"no decks in {decks}")
    print(f"{'FAILED' if failures else 'PASSED'}: {len(names) - len(failures)} of {len(names)} decks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
