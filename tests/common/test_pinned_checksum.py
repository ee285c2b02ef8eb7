#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs a proxy once and checks that its run verified and that its JSON checksum is the pinned one: the
other checksum tests compare runs with each other, so only this one sees a change to every run alike
(a digest left out, a step lost). A new pin needs a reason in the commit that sets it (the values come
from an x86-64 build with AMP_NATIVE: a CPU whose floating point rounds otherwise may need its own)."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checked_run import failure, launcher_parser, parse_with_program_arguments  # noqa: E402
from amp_tools import launch

parser = launcher_parser(__doc__)
parser.add_argument("--expect", required=True, help="the pinned checksum, 16 hex digits")
args = parse_with_program_arguments(parser, "program_args")
fail = failure("test_pinned_checksum")

with tempfile.TemporaryDirectory() as folder:
    results = os.path.join(folder, "results.json")
    command = launch.mpiexec(args.mpiexec, args.np, [args.exe], args.mpiexec_flags)
    command += args.program_args + ["--progress", "0", "--results", results]
    done = subprocess.run(command, capture_output=True, text=True, timeout=100)
    if done.returncode != 0:
        fail(f"exit {done.returncode}: {(done.stdout + done.stderr).strip()[-2000:]}")
    with open(results) as f:
        r = json.load(f)
if not r["verification"]["passed"]:
    fail(f"verification failed: {r['verification']['failure']}")
if r["checksum"] != args.expect:
    fail(f"checksum {r['checksum']}, pinned {args.expect}")
print(f"test_pinned_checksum: OK: {r['proxy']} at {args.np} ranks, checksum {r['checksum']}")
