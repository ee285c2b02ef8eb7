#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs a command under mpiexec with AMP_TRACE_DIR set to a fresh directory, then a checker on it.
Usage: test_traced_run.py MPIEXEC RANKS WORKDIR -- PROGRAM [ARGS...] -- CHECKER [ARGS...]
The checker gets the trace directory appended (and {dir} in its arguments is replaced by it)."""
import os
import shutil
import subprocess
import sys
import tempfile

from amp_tools import launch


def main():
    mpiexec, ranks, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    rest = sys.argv[4:]
    first = rest.index("--")
    second = rest.index("--", first + 1)
    program, checker = rest[first + 1:second], rest[second + 1:]
    os.makedirs(workdir, exist_ok=True)
    trace_dir = tempfile.mkdtemp(prefix="trace-", dir=workdir)
    env = dict(os.environ, AMP_TRACE_DIR=trace_dir, OMP_NUM_THREADS="1")
    run = subprocess.run(launch.mpiexec(mpiexec, ranks, program), env=env, timeout=100)
    if run.returncode != 0:
        print(f"traced program failed with status {run.returncode}", file=sys.stderr)
        return 1
    check = subprocess.run([a.replace("{dir}", trace_dir) for a in checker], timeout=100)
    if check.returncode == 0:
        shutil.rmtree(trace_dir)
    return check.returncode


if __name__ == "__main__":
    sys.exit(main())
