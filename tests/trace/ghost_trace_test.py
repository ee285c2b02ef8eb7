#!/usr/bin/env python3
"""Traced amp-ghost agrees with itself: for one --comm_method, the DUMPI trace's point-to-point
message count and bytes (amp-trace stats --json) equal the proxy's own results (messages.total,
bytes.total) exactly, the trace validates, and the traced run's checksum equals the untraced one's.
Usage: ghost_trace_test.py MPIEXEC RANKS AMP_GHOST AMP_TRACE WORKDIR COMM_METHOD"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

MPIEXEC, RANKS, GHOST, AMP_TRACE, WORKDIR, METHOD = sys.argv[1:7]
PROBLEM = ["--nx", "12", "--ny", "12", "--nz", "12", "--num_vars", "3", "--num_tsteps", "6",
           "--stencil", "3d27pt", "--comm_method", METHOD]


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def run_ghost(work, name, extra):
    results = os.path.join(work, name + ".json")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("AMP_TRACE_DIR", None)
    run = subprocess.run([MPIEXEC, "-n", RANKS, GHOST] + PROBLEM + ["--results", results] + extra,
                         env=env, capture_output=True, text=True, timeout=100)
    if run.returncode != 0:
        fail(f"amp-ghost {name} run failed ({run.returncode}): {run.stderr.strip()}")
    with open(results) as f:
        return json.load(f)


def main():
    os.makedirs(WORKDIR, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"ghost-{METHOD}-np{RANKS}-", dir=WORKDIR)
    trace_dir = os.path.join(work, "trace")
    untraced = run_ghost(work, "untraced", [])
    traced = run_ghost(work, "traced", ["--trace", trace_dir])

    validate = subprocess.run([AMP_TRACE, "validate", trace_dir], capture_output=True, text=True, timeout=60)
    if validate.returncode != 0:
        fail("trace does not validate: " + validate.stderr.strip())
    stats = subprocess.run([AMP_TRACE, "stats", "--json", trace_dir], capture_output=True, text=True, timeout=60)
    if stats.returncode != 0:
        fail("amp-trace stats failed: " + stats.stderr.strip())
    totals = json.loads(stats.stdout)["point_to_point"]

    proxy = {"messages": traced["messages"]["total"], "bytes": traced["bytes"]["total"]}
    if totals != proxy:
        fail(f"{METHOD}: trace says {totals}, amp-ghost counted {proxy}")
    if proxy["messages"] == 0:
        fail("the traced region holds no messages; the test would prove nothing")
    if traced["checksum"] != untraced["checksum"]:
        fail(f"tracing changed the result: checksum {traced['checksum']} vs {untraced['checksum']}")
    if not traced["verification"]["passed"]:
        fail("traced run failed its own verification")
    shutil.rmtree(work)
    print(f"{METHOD} at {RANKS} ranks: {proxy['messages']} messages, {proxy['bytes']} bytes in both; checksums equal")


if __name__ == "__main__":
    main()
