#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-trace check and amp-trace otf2 on hand-made ring traces (tests/trace/replay_ring_trace_program.cpp: Isend/Irecv/
Waitall to both neighbours every step, 1024 ranks by default) of growing length: wall time and peak RSS
of each, so that bounded memory (check streams every rank's file) shows as a flat RSS column.

Usage: PYTHONPATH=tools python3 bench/trace/trace_check_scaling.py [--build build] [--ranks 1024] [--steps 200 2000]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from amp_tools import command_line


def measured(command):
    """(wall seconds, peak RSS in MiB) of one run of `command` (its output dropped; exit 1 if it fails)."""
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"trace_check_scaling: {' '.join(command)} failed ({child.returncode})")
    return time.monotonic() - start, usage.ru_maxrss // 1024


def folder_mib(folder):
    """Disk use of a folder in MiB, rounded up as `du -sm` does."""
    total = sum(os.stat(os.path.join(d, f)).st_blocks * 512 for d, _, files in os.walk(folder) for f in files)
    return -(-total // (1024 * 1024))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[command_line.common_options(launcher=False)])
    p.add_argument("--ranks", type=int, default=1024)
    p.add_argument("--steps", type=int, nargs="+", default=[200, 2000])
    a = p.parse_args()
    trace_tool = os.path.join(a.build, "bin", "amp-trace")
    print(f"{'ranks':>6} {'steps':>6} {'records':>10} {'trace MB':>10} | {'check s':>10} {'check MB':>9} | "
          f"{'otf2 s':>10} {'otf2 MB':>9}")
    with tempfile.TemporaryDirectory(prefix="amp-check-bench-") as work:
        for steps in a.steps:
            trace = os.path.join(work, f"ring-{steps}")
            os.makedirs(trace)
            subprocess.run([os.path.join(a.build, "tests", "trace_replay_ring_trace"), trace, "ring", str(a.ranks),
                            str(steps)], check=True, stdout=subprocess.DEVNULL)
            summary = subprocess.run([trace_tool, "check", "--json", trace], check=True, capture_output=True, text=True)
            records = json.loads(summary.stdout)["records"]
            mib = folder_mib(trace)
            check_s, check_mib = measured([trace_tool, "check", trace])
            otf2 = os.path.join(work, f"otf2-{steps}")
            otf2_s, otf2_mib = measured([trace_tool, "otf2", trace, otf2])
            shutil.rmtree(otf2, ignore_errors=True)
            print(f"{a.ranks:6d} {steps:6d} {records:10d} {mib:10d} | {check_s:10.2f} {check_mib:9d} | "
                  f"{otf2_s:10.2f} {otf2_mib:9d}", flush=True)
            shutil.rmtree(trace)


if __name__ == "__main__":
    main()
