#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the trace of wildcard_receive_program: each blocking receive from
MPI_ANY_SOURCE or with MPI_ANY_TAG recorded the status MPI returned although the program ignored it,
so `amp-trace simgrid` exports the trace with the real source and tag of each receive. With
AMP_DUMPI2ASCII (sst-dumpi's dumpi2ascii), that reader shows the same statuses.
Usage: test_wildcard_receive_status.py AMP_TRACE TRACE_DIR RANKS"""
import os
import re
import subprocess
import sys
import tempfile


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    amp_trace, trace, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "ti")
        done = subprocess.run([amp_trace, "simgrid", trace, out], capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"amp-trace simgrid refused the trace: exit {done.returncode} {done.stderr.strip()}")
        with open(os.path.join(out, "rank-0.txt")) as f:
            receives = [line.split() for line in f if line.split()[1] in ("recv", "irecv")]
    # rank 0: one recv per other rank (any order), rank 1's second message, then Sendrecv's irecv from 1.
    sources = sorted(int(r[2]) for r in receives[:ranks - 1])
    after_wildcards = [r[:3] for r in receives[ranks - 1:]]
    if sources != list(range(1, ranks)) or after_wildcards != [["0", "recv", "1"], ["0", "irecv", "1"]]:
        fail(f"rank 0's exported receives do not name the senders: {receives}")
    bin0 = next(os.path.join(trace, n) for n in sorted(os.listdir(trace)) if n.endswith("-0000.bin"))
    dumpi2ascii = os.environ.get("AMP_DUMPI2ASCII")
    readers = [("amp-trace dump --dumpi2ascii", [amp_trace, "dump", "--dumpi2ascii", bin0])]
    if dumpi2ascii:
        readers.append(("dumpi2ascii", [dumpi2ascii, bin0]))
    for name, command in readers:
        done = subprocess.run(command, capture_output=True, text=True)
        statuses = re.findall(r"MPI_Status status=\[\{bytes=(-?\d+), cancelled=0, source=(-?\d+), tag=(-?\d+)",
                              done.stdout)
        expected = sorted([("4", str(r), "7") for r in range(1, ranks)] + [("4", "1", "9"), ("4", "1", "5")])
        if done.returncode != 0 or sorted(statuses) != expected:
            fail(f"{name} (exit {done.returncode}) shows statuses {statuses}, expected {expected}")
    print(f"{ranks} ranks: every wildcard receive's status recorded and exported"
          + ("; dumpi2ascii reads them" if dumpi2ascii else " (set AMP_DUMPI2ASCII to check sst-dumpi's reader too)"))


if __name__ == "__main__":
    main()
