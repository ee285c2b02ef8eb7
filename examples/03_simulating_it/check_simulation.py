#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Example 03's test: runs the simulation command it is given on example 02's trace, then reads the JSON it
wrote beside the trace (simulation-<network>-<key>-simgrid.json): SimGrid replayed the 2 ranks' 8 messages
(144 bytes) on that network and predicts a positive time.

Usage: check_simulation.py TRACE_FOLDER NETWORK_FILE -- COMMAND..."""
import glob
import json
import os
import subprocess
import sys

EXPECTED = {"ranks": 2, "simulator": "simgrid", "messages": 8, "bytes": 144, "synthesized": False}


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__.strip().splitlines()[-1])
    trace, network, command = sys.argv[1], sys.argv[2], sys.argv[4:]
    name = os.path.splitext(os.path.basename(network))[0]
    pattern = os.path.join(trace, f"simulation-{name}-*-simgrid.json")
    for stale in glob.glob(pattern):
        os.remove(stale)
    done = subprocess.run(command)
    if done.returncode != 0:
        sys.exit(f"check_simulation: the simulation exited {done.returncode}")
    written = glob.glob(pattern)
    if len(written) != 1:
        sys.exit(f"check_simulation: expected one {pattern}, found {written}")
    with open(written[0]) as f:
        result = json.load(f)
    wrong = [f"{key} is {result.get(key)!r}, expected {value!r}" for key, value in EXPECTED.items()
             if result.get(key) != value]
    if result.get("network") != name:
        wrong.append(f"network is {result.get('network')!r}, expected {name!r}")
    predicted = result.get("predicted_seconds")
    if not isinstance(predicted, (int, float)) or not predicted > 0:
        wrong.append(f"predicted_seconds is {predicted!r}, expected a positive number")
    for line in wrong:
        print(f"check_simulation: {written[0]}: {line}")
    if not wrong:
        print(f"check_simulation: ok: {name}, predicted {predicted:g} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
