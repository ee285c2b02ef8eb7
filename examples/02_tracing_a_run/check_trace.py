#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Example 02's test: the trace the traced svaf run wrote holds exactly its messages, and every one of them
matches a receive when amp-trace replays the point-to-point traffic. Each rank sends its neighbour one
24-byte size check at start-up and then svaf's three 16-byte messages (one per variable): 8 messages,
144 bytes, 72 each way.

Usage: check_trace.py AMP_TRACE TRACE_FOLDER"""
import json
import subprocess
import sys

EXPECTED_STATS = {"ranks": 2, "point_to_point": {"messages": 8, "bytes": 144}, "matrix_bytes": [[0, 72], [72, 0]]}
EXPECTED_CHECK = {"ranks": 2, "messages": 8, "matched": 8, "findings": []}


def printed_json(amp_trace, command, trace):
    done = subprocess.run([amp_trace, command, trace, "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check_trace: amp-trace {command} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    amp_trace, trace = sys.argv[1:]
    wrong = []
    for command, expected in (("stats", EXPECTED_STATS), ("check", EXPECTED_CHECK)):
        found = printed_json(amp_trace, command, trace)
        wrong += [f"amp-trace {command}: {key} is {found.get(key)!r}, expected {value!r}"
                  for key, value in expected.items() if found.get(key) != value]
    for line in wrong:
        print(line)
    print("check_trace: " + ("FAIL" if wrong else "ok: 8 messages, 144 bytes, every one matched"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
