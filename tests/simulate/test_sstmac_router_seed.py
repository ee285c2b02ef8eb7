#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SST-macro's valiant and UGAL routers draw from one stream seeded by a wall clock that AMP stops at the
network's `seed` (simulators/sstmac_machine.py, sstmac_environment): SST-macro's own seeded mode
(switch.router.seed) draws anew from the simulated time and the attempt, and its loop for an intermediate
group can then never end. A 3-D halo of 64 KiB on 64 ranks (tests/simulate/conformance_traces_program.cpp
`halo3d`) on cascade-dragonfly with valiant routing:
- seed 1 twice: the same prediction to the last digit (the stream is the seed's, not the wall clock's);
- seed 2: another prediction (the seed reaches the routers);
- the JSON gives SST-macro no switch.router.seed and says how the routers were seeded; minimal routing, which
  draws nothing, replays without the stopped clock.

Usage: test_sstmac_router_seed.py BUILD ROOT WORKDIR    (exit 77 without AMP_SSTMAC)
"""
import json
import os
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def halo(build, workdir):
    """The 64-rank halo trace's folder, made once."""
    trace = os.path.join(workdir, "sstmac-router-seed-halo3d")
    shutil.rmtree(trace, ignore_errors=True)
    os.makedirs(trace)
    made = subprocess.run([os.path.join(build, "tests", "simulate_conformance_traces"), trace, "halo3d", "65536",
                           "4", "4", "4"], capture_output=True, text=True)
    if made.returncode != 0:
        fail(f"making the halo: {made.stderr.strip()}")
    return trace


def simulate(build, root, trace, given):
    """The simulation JSON of the halo on cascade-dragonfly with `given` network keys; removed after reading,
    so that the next replay of the same machine writes its own."""
    network = os.path.join(root, "inputs", "networks", "cascade-dragonfly.toml")
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network, "--simulator",
                           "sstmac", "--build", build, "--root", root, *[f"--set={key}" for key in given]],
                          capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{given}: exit {done.returncode}: {done.stderr.strip()}")
    outputs = [f for f in os.listdir(trace) if f.startswith("simulation-") and f.endswith("-sstmac.json")]
    if len(outputs) != 1:
        fail(f"{given}: expected one SST-macro simulation, found {outputs}")
    path = os.path.join(trace, outputs[0])
    with open(path) as f:
        result = json.load(f)
    os.remove(path)
    return result


def main():
    build, root, workdir = sys.argv[1:4]
    if not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac)")
        sys.exit(77)
    trace = halo(build, workdir)
    first, again, other = (simulate(build, root, trace, ["routing=valiant", f"seed={seed}"]) for seed in (1, 1, 2))
    minimal = simulate(build, root, trace, ["routing=minimal"])
    times = [r["predicted_seconds"] for r in (first, again, other)]
    print(f"valiant: seed 1 {times[0] * 1e6:.3f} us, again {times[1] * 1e6:.3f} us, seed 2 {times[2] * 1e6:.3f} us; "
          f"minimal {minimal['predicted_seconds'] * 1e6:.3f} us")
    if times[0] != times[1]:
        fail(f"seed 1 replayed twice gave {times[0]!r} and {times[1]!r}: the routers' stream is not the seed's")
    if times[0] == times[2]:
        fail(f"seeds 1 and 2 gave the same {times[0]!r}: the seed does not reach the routers")
    for result in (first, minimal):
        given = result["simulated_network"]
        if "switch.router.seed" in given["parameters"]:
            fail("SST-macro was given switch.router.seed, whose draws can loop forever")
    if "libfaketime" not in (first["simulated_network"].get("router_seed") or ""):
        fail(f"the JSON does not say how valiant's routers were seeded: "
             f"{first['simulated_network'].get('router_seed')}")
    if minimal["simulated_network"].get("router_seed") is not None:
        fail("minimal routing draws nothing, yet the JSON names a seeded stream")
    print("ok: one seed, one prediction; another seed, another")


if __name__ == "__main__":
    main()
