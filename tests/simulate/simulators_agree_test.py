#!/usr/bin/env python3
"""Two simulators, one answer: amp-ghost's bspma and svcp traces, synthesized at 16 ranks with one
compute time per step (so that only communication differs), replayed in SimGrid (the TI export) and in
SST-macro (the DUMPI trace itself) on the same 4x4x4 torus. Each cut's two predictions must be within a
factor of 2 of each other, and both simulators must rank bspma against svcp the same way.

Usage: simulators_agree_test.py BUILD ROOT WORKDIR    (exit 77 without AMP_SSTMAC)
"""
import json
import os
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    build, root, workdir = sys.argv[1:4]
    if not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac) to compare the two simulators")
        sys.exit(77)
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    predicted = {}
    for cut in ("bspma", "svcp"):
        trace = os.path.join(workdir, f"agree-{cut}")
        shutil.rmtree(trace, ignore_errors=True)
        done = subprocess.run([os.path.join(build, "bin", "amp-ghost"), "--nx", "32", "--ny", "32", "--nz", "32",
                               "--num_vars", "8", "--num_tsteps", "5", "--comm_method", cut, "--synthesize", trace,
                               "--ranks", "16", "--compute_seconds", "1e-5"], capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"synthesis of {cut} failed: {done.stderr.strip()}")
        for simulator in ("simgrid", "sstmac"):
            done = subprocess.run([sys.executable, os.path.join(root, "tools", "simulate.py"), trace, "--network",
                                   network, "--simulator", simulator, "--build", build], capture_output=True, text=True)
            if done.returncode != 0:
                fail(f"{cut} in {simulator}: {done.stderr.strip()}")
            with open(os.path.join(trace, f"simulation-torus-4x4x4-{simulator}.json")) as f:
                predicted[(cut, simulator)] = json.load(f)["predicted_seconds"]
            print(f"{cut:6s} {simulator:8s} {predicted[(cut, simulator)]:.6g} s")
    for cut in ("bspma", "svcp"):
        a, b = predicted[(cut, "simgrid")], predicted[(cut, "sstmac")]
        if not (0.5 <= a / b <= 2.0):
            fail(f"{cut}: SimGrid predicts {a:.6g} s, SST-macro {b:.6g} s: more than a factor of 2 apart")
    order = {s: predicted[("bspma", s)] < predicted[("svcp", s)] for s in ("simgrid", "sstmac")}
    if order["simgrid"] != order["sstmac"]:
        fail(f"the simulators rank bspma against svcp differently: {predicted}")
    print(f"agree: within a factor of 2 per cut; both say bspma is {'faster' if order['simgrid'] else 'slower'} "
          f"than svcp")


if __name__ == "__main__":
    main()
