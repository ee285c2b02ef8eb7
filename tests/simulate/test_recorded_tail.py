#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A recorded run's tear-down is neither predicted nor measured: slow_tear_down_program at
2 ranks, traced, whose rank 1 spends 1 s in its paused tear-down while rank 0 waits for it in MPI_Finalize
(once exported as 1 s of compute, unmeasured). `./amp simulate` on torus-4x4x4 must measure the loop alone
(20 steps of 1 ms; under 0.5 s on a loaded machine) and predict less than half the tear-down above it, in
SimGrid, and in SST-macro where AMP_SSTMAC is set; without it, SST-macro's copy (`amp-trace sstmac`) must
leave rank 0 no gap before MPI_Finalize. (Predicted and measured differ by more where the two ranks shared
busy cores: the trace's waits are communication time, which the replay models anew.)

Usage: test_recorded_tail.py MPIEXEC BUILD ROOT WORKDIR PROGRAM
"""
import json
import os
import re
import shutil
import subprocess
import sys

from amp_tools import launch
from amp_tools import simulate

TEAR_DOWN = 1.0  # slow_tear_down_program's, seconds


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs)
    if done.returncode != 0:
        fail(f"{' '.join(command)}: exit {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
    return done.stdout


def gap_before_finalize(amp_trace, copy):
    """Rank 0's nanoseconds from the record before its MPI_Finalize to MPI_Finalize, in the copy."""
    rank0 = next(os.path.join(copy, n) for n in sorted(os.listdir(copy)) if n.endswith("-0000.bin"))
    stamps = re.findall(r"^(MPI_\w+) wall ([0-9]+)\.([0-9]{9})\.\.([0-9]+)\.([0-9]{9})",
                        run([amp_trace, "dump", rank0]), re.M)
    if len(stamps) < 2 or stamps[-1][0] != "MPI_Finalize":
        fail(f"rank 0's copy does not end with MPI_Finalize: {stamps[-2:]}")
    before, last = stamps[-2], stamps[-1]
    return (int(last[1]) * 10**9 + int(last[2])) - (int(before[3]) * 10**9 + int(before[4]))


def main():
    mpiexec, build, root, workdir, program = sys.argv[1:6]
    base = os.path.join(workdir, "recorded-tail")
    shutil.rmtree(base, ignore_errors=True)
    trace = os.path.join(base, "trace")
    os.makedirs(trace)
    run(launch.mpiexec(mpiexec, 2, [program]), env=dict(os.environ, AMP_TRACE_DIR=trace))
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    simulators = ["simgrid"] + (["sstmac"] if os.environ.get("AMP_SSTMAC") else [])
    for simulator in simulators:
        run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network, "--simulator", simulator,
             "--build", build, "--root", root])
        with open(simulate.simulation_file(trace, network, simulator)) as f:
            result = json.load(f)
        predicted, measured = result["predicted_seconds"], result["measured_seconds"]
        print(f"{simulator}: predicted {predicted:.6f} s, measured {measured:.6f} s")
        if not 0.015 < measured < TEAR_DOWN / 2:
            fail(f"measured {measured} s: not the 20 steps of 1 ms (the {TEAR_DOWN} s tear-down measured?)")
        if not 0.015 < predicted < measured + TEAR_DOWN / 2:
            fail(f"{simulator} predicts {predicted} s for the measured {measured} s: the tear-down's wait predicted")
    amp_trace = os.path.join(build, "bin", "amp-trace")
    copy = os.path.join(base, "copy")
    run([amp_trace, "sstmac", trace, copy])
    gap = gap_before_finalize(amp_trace, copy)
    if gap > 0:
        fail(f"SST-macro's copy leaves rank 0 {gap} ns of compute before MPI_Finalize (its wait for rank 1)")
    print("the tear-down's wait is in neither prediction nor measurement" +
          ("" if len(simulators) > 1 else "; SST-macro's copy leaves none of it (AMP_SSTMAC unset: not replayed)"))


if __name__ == "__main__":
    main()
