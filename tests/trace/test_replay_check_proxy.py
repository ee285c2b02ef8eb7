#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A traced proxy run, checked by `amp-trace check`: runs PROXY under MPI with --trace, then asserts
the check's exit status (0 = replays clean, 1 = findings) and, with --kind, that findings of each
named kind are among them. Prints every finding either way.
Usage: test_replay_check_proxy.py MPIEXEC RANKS PROXY AMP_TRACE WORKDIR EXPECTED_EXIT [--kind KIND]... -- PROXY_ARGS...
e.g.   test_replay_check_proxy.py mpiexec.mpich 4 build/bin/amp-nobel build/bin/amp-trace /tmp/w 0 -- \\
           --input inputs/nobel/default.toml --num_tsteps 4 --amr_interval 2 --strategy svcp"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from amp_tools import launch


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    if "--" not in sys.argv:
        fail(__doc__)
    split = sys.argv.index("--")
    head, proxy_args = sys.argv[1:split], sys.argv[split + 1:]
    if len(head) < 6:
        fail(__doc__)
    mpiexec, ranks, proxy, amp_trace, workdir, expected = head[:6]
    kinds = [head[i + 1] for i in range(6, len(head) - 1) if head[i] == "--kind"]
    os.makedirs(workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"check-{os.path.basename(proxy)}-", dir=workdir)
    trace = os.path.join(work, "trace")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("AMP_TRACE_DIR", None)
    run = subprocess.run(launch.mpiexec(mpiexec, ranks, [proxy, *proxy_args, "--trace", trace]), env=env,
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        fail(f"{proxy} failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    check = subprocess.run([amp_trace, "check", "--json", trace], capture_output=True, text=True, timeout=300)
    if check.returncode not in (0, 1):
        fail(f"amp-trace check failed ({check.returncode}): {check.stderr.strip()}")
    report = json.loads(check.stdout)
    for f in report["findings"]:
        print(f"rank {f['rank']} record {f['record']} {f['call']}: [{f['kind']}] {f['message']}")
    counts = {k: n for k, n in report["counts"].items() if n}
    print(f"{os.path.basename(proxy)} {' '.join(proxy_args)}: exit {check.returncode}, "
          f"{report['messages']} messages ({report['matched']} matched), findings {counts or 'none'}")
    if check.returncode != int(expected):
        fail(f"amp-trace check exited {check.returncode}, expected {expected}")
    missing = [k for k in kinds if report["counts"].get(k, 0) == 0]
    if missing:
        fail(f"no finding of kind {', '.join(missing)}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
