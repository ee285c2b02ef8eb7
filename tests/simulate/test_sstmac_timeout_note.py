#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`./amp simulate --simulator sstmac` says at the start when a trace's packets will take SST-macro longer
than --timeout, and what to give instead: a burst of 400 messages of 1 MiB
(tests/simulate/conformance_traces_program.cpp
`burst`) in packets of 64 bytes (`--set packet_size=64`: 6.6 million packets, about 3 minutes here) with
--timeout 2 gives one note naming the timeout and a larger one, then stops at 2 s: exit 3, one error line,
no simulation JSON.

Usage: test_sstmac_timeout_note.py BUILD ROOT WORKDIR    (exit 77 without AMP_SSTMAC)
"""
import os
import re
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    build, root, workdir = sys.argv[1:4]
    if not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac)")
        sys.exit(77)
    trace = os.path.join(workdir, "sstmac-timeout-note-burst")
    shutil.rmtree(trace, ignore_errors=True)
    os.makedirs(trace)
    made = subprocess.run([os.path.join(build, "tests", "simulate_conformance_traces"), trace, "burst", str(1 << 20),
                           "400"], capture_output=True, text=True)
    if made.returncode != 0:
        fail(f"making the burst: {made.stderr.strip()}")
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network, "--simulator",
                           "sstmac", "--build", build, "--root", root, "--set", "packet_size=64", "--timeout", "2"],
                          capture_output=True, text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    notes = [line for line in lines if line.startswith("amp simulate: note: SST-macro moves")]
    asked = r"past --timeout 2 s, which stops it: give --timeout \d+ to be safe$"
    if len(notes) != 1 or not re.search(asked, notes[0]):
        fail(f"expected one note naming --timeout 2 and a larger one, got {lines}")
    errors = [line for line in lines if line.startswith("amp simulate: error:")]
    if done.returncode != 3 or errors != ["amp simulate: error: sstmac ran past 2 s"]:
        fail(f"expected exit 3 and 'sstmac ran past 2 s', got exit {done.returncode}: {lines}")
    if [f for f in os.listdir(trace) if f.startswith("simulation-")]:
        fail(f"a stopped replay wrote a simulation: {os.listdir(trace)}")
    print(f"ok: {notes[0]}")


if __name__ == "__main__":
    main()
