#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SST-macro's clock holds less than 1844 s of simulated time (uint64 ticks of 100 as), past which it
wraps round without a word; `./amp simulate --simulator sstmac` never reports such a time as a prediction.
Two ranks of amp-ghost synthesized with 2 steps of compute:
- 2 x 900 s (just under): predicted between 1800 s and the bound;
- 2 x 950 s (just over, SST-macro alone predicted 950 s): refused before the replay, exit 2, one line;
- 2 x 900 s with 30 s per message header (the compute under the bound, the run past it): the replay's
  wrapped time is refused, exit 3, one line;
- a network time past the bound (--set nic_message_overhead=1e4, which SST-macro aborts on): exit 2.

Usage: test_sstmac_clock.py BUILD ROOT WORKDIR    (exit 77 without AMP_SSTMAC)
"""
import json
import os
import shutil
import subprocess
import sys

BOUND = 1844


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def synthesize(build, workdir, compute):
    trace = os.path.join(workdir, f"sstmac-clock-{compute:g}")
    shutil.rmtree(trace, ignore_errors=True)
    made = subprocess.run([os.path.join(build, "bin", "amp-ghost"), "--nx", "4", "--ny", "4", "--nz", "4",
                           "--num_tsteps", "2", "--num_spikes", "1", "--num_vars", "1", "--progress", "0",
                           "--synthesize", trace, "--ranks", "2",
                           "--compute_seconds", f"{compute:g}"], capture_output=True, text=True,
                          env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
    if made.returncode != 0:
        fail(f"synthesizing {compute:g} s steps: {made.stderr.strip()}")
    return trace


def simulate(build, root, trace, *extra):
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network, "--simulator",
                           "sstmac", "--build", build, "--root", root, *extra], capture_output=True, text=True)
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def main():
    build, root, workdir = sys.argv[1:4]
    if not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac)")
        sys.exit(77)
    os.makedirs(workdir, exist_ok=True)
    under = synthesize(build, workdir, 900)
    code, lines = simulate(build, root, under)
    outputs = [f for f in os.listdir(under) if f.startswith("simulation-") and f.endswith("-sstmac.json")]
    if code != 0 or len(outputs) != 1:
        fail(f"2 x 900 s: exit {code}: {lines}")
    with open(os.path.join(under, outputs[0])) as f:
        predicted = json.load(f)["predicted_seconds"]
    if not 1800 <= predicted < BOUND:
        fail(f"2 x 900 s predicted {predicted} s, not between 1800 s and {BOUND} s")
    over = synthesize(build, workdir, 950)
    code, lines = simulate(build, root, over)
    if code != 2 or len(lines) != 1 or "computes 1900 s, and SST-macro's clock holds less than 1844 s" not in lines[0]:
        fail(f"2 x 950 s: exit {code}: {lines}")
    for name in os.listdir(under):
        if name.startswith("simulation-"):
            os.remove(os.path.join(under, name))
    code, lines = simulate(build, root, under, "--set", "nic_message_overhead=30")
    if code != 3 or len(lines) != 1 or "sstmac's clock passed its 1844 s bound and wrapped round" not in lines[0]:
        fail(f"2 x 900 s with 30 s per header: exit {code}: {lines}")
    code, lines = simulate(build, root, under, "--set", "nic_message_overhead=1e4")
    if code != 2 or len(lines) != 1 or "nic_message_overhead = 10000 s cannot be given to it" not in lines[0]:
        fail(f"nic_message_overhead=1e4: exit {code}: {lines}")
    print(f"ok: 2 x 900 s predicted {predicted:.6g} s; 1900 s of compute, a wrapped replay and a 1e4 s overhead "
          f"refused")


if __name__ == "__main__":
    main()
