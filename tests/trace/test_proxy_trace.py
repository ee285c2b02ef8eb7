#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A traced proxy agrees with itself: for one --strategy, the DUMPI trace's point-to-point
message count and bytes (amp-trace stats --json) equal the proxy's own results (messages.total,
bytes.total) exactly, the trace validates, and the traced run's checksum equals the untraced one's.
Usage: test_proxy_trace.py MPIEXEC RANKS PROXY AMP_TRACE WORKDIR STRATEGY PROBLEM_FLAGS..."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from amp_tools import launch

MPIEXEC, RANKS, PROXY, AMP_TRACE, WORKDIR, METHOD = sys.argv[1:7]
PROBLEM = sys.argv[7:] + ["--strategy", METHOD]
NAME = os.path.basename(PROXY)


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def run_proxy(work, name, extra):
    results = os.path.join(work, name + ".json")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("AMP_TRACE_DIR", None)
    run = subprocess.run(launch.mpiexec(MPIEXEC, RANKS, [PROXY] + PROBLEM + ["--results", results] + extra),
                         env=env, capture_output=True, text=True, timeout=100)
    if run.returncode != 0:
        fail(f"{NAME} {name} run failed ({run.returncode}): {run.stderr.strip()}")
    with open(results) as f:
        return json.load(f)


def main():
    os.makedirs(WORKDIR, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"{NAME}-{METHOD}-np{RANKS}-", dir=WORKDIR)
    trace_dir = os.path.join(work, "trace")
    untraced = run_proxy(work, "untraced", [])
    traced = run_proxy(work, "traced", ["--trace", trace_dir])

    validate = subprocess.run([AMP_TRACE, "validate", trace_dir], capture_output=True, text=True, timeout=60)
    if validate.returncode != 0:
        fail("trace does not validate: " + validate.stderr.strip())
    stats = subprocess.run([AMP_TRACE, "stats", "--json", trace_dir], capture_output=True, text=True, timeout=60)
    if stats.returncode != 0:
        fail("amp-trace stats failed: " + stats.stderr.strip())
    totals = json.loads(stats.stdout)["point_to_point"]

    proxy = {"messages": traced["messages"]["total"], "bytes": traced["bytes"]["total"]}
    amr = traced.get("amr")  # amp-nobel: migration and the size checks of the strategies an AMR step builds
    if amr is not None:
        if amr["messages"] == 0:
            fail("no block migrated in the traced region; the AMR part of the test would prove nothing")
        proxy["messages"] += amr["messages"] + amr["setup_messages"]
        proxy["bytes"] += amr["migrated_bytes"] + amr["setup_bytes"]
    if totals != proxy:
        fail(f"{METHOD}: trace says {totals}, {NAME} counted {proxy}")
    if proxy["messages"] == 0:
        fail("the traced region holds no messages; the test would prove nothing")
    if traced["checksum"] != untraced["checksum"]:
        fail(f"tracing changed the result: checksum {traced['checksum']} vs {untraced['checksum']}")
    if not traced["verification"]["passed"]:
        fail("traced run failed its own verification")
    shutil.rmtree(work)
    print(f"{NAME} {METHOD} at {RANKS} ranks: {proxy['messages']} messages, {proxy['bytes']} bytes in both; checksums "
          "equal")


if __name__ == "__main__":
    main()
