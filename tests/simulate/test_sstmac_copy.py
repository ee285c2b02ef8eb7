#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The copy of a recorded trace that SST-macro replays (`amp-trace sstmac`, src/amp/trace/sstmac/unpaused_copy.cpp):
amp-ghost traced for real at 2 ranks on 32^3 blocks (it pauses tracing for its set-up, milliseconds of it:
2.5-6 ms here; on 8^3 blocks it took 0.94-1.0 ms, and 9 of 25 runs fell under the 1 ms checked). The copy must
hold every record of the original with the same arguments, and the same wall times before the first
pause; inside each pause and just ahead of it (the set-up's calls that move no data) no time between
records, nor between the last resume and MPI_Finalize (the wait for the other rank's tear-down); between
the pauses, the original gaps to the nanosecond. sst-dumpi's dumpi2ascii must read it
(with AMP_DUMPI2ASCII). A copy into an existing folder is refused in one line and writes nothing.
With `both` (AMP_SSTMAC), SimGrid and SST-macro predict the recorded run within 1.25x of each other (the
set-up counted as compute made SST-macro's 8.5 ms against SimGrid's 0.1 ms before the copy).

Usage: test_sstmac_copy.py MPIEXEC BUILD ROOT WORKDIR [both]
"""
import json
import os
import re
import shutil
import subprocess
import sys

from amp_tools import launch
from amp_tools import simulate
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import checked, failure  # noqa: E402

DUMP_LINE = re.compile(r"(MPI_\w+) wall ([0-9]+)\.([0-9]{9})\.\.([0-9]+)\.([0-9]{9}) (.*)")
PCONTROL = "uint64_t fn=0x50434f4e0000000"  # MPI_Pcontrol(level) as amp-trace dump shows it

fail = failure(None)
run = checked(fail)


def records(amp_trace, path):
    """[(name, start ns, stop ns, the rest of the line)] of one .bin, from amp-trace dump."""
    out = []
    for line in run([amp_trace, "dump", path]).splitlines():
        match = DUMP_LINE.match(line)
        if match:
            start = int(match.group(2)) * 10**9 + int(match.group(3))
            stop = int(match.group(4)) * 10**9 + int(match.group(5))
            out.append((match.group(1), start, stop, match.group(6)))
    return out


NO_DATA = ("MPI_Comm_rank", "MPI_Comm_size", "MPI_Function_enter")  # amp-ghost's calls that move no data


def taken_out(recs):
    """Per record: is the gap before it to be taken out? (paused, a Pcontrol(0), or a call that moves no
    data right ahead of a Pcontrol(0) since MPI_Init; and MPI_Finalize with the calls before it back to the
    resume, where that region moved no data: amp-ghost resumes only to record MPI_Finalize)."""
    out, paused, region_start = [], False, 0
    for i, (name, _, _, rest) in enumerate(recs):
        pcontrol = PCONTROL in rest
        pause = pcontrol and rest.rstrip().endswith("0")
        out.append(paused or pause)
        if pause and not paused:
            j = i - 1
            while j >= 0 and recs[j][0] in NO_DATA:
                out[j] = True
                j -= 1
        if name == "MPI_Init" or (pcontrol and paused and not pause):
            region_start = i
        if pcontrol:
            paused = pause
        if name == "MPI_Finalize" and not paused and all(r[0] in NO_DATA for r in recs[region_start + 1:i]):
            out[region_start + 1:i + 1] = [True] * (i - region_start)
    return out


def check_copy(amp_trace, original, copy):
    bins = sorted(f for f in os.listdir(original) if f.endswith(".bin"))
    if sorted(f for f in os.listdir(copy) if f.endswith((".bin", ".meta"))) != sorted(
            bins + [f for f in os.listdir(original) if f.endswith(".meta")]):
        fail(f"the copy holds {sorted(os.listdir(copy))}")
    total_removed = 0
    for name in bins:
        before, after = records(amp_trace, os.path.join(original, name)), records(amp_trace, os.path.join(copy, name))
        if [(r[0], r[3]) for r in before] != [(r[0], r[3]) for r in after] or len(before) < 10:
            fail(f"{name}: the copy's records or arguments differ from the original's ({len(before)} records)")
        removed = 0
        for i, (out, old, new) in enumerate(zip(taken_out(before), before, after)):
            gap_old = old[1] - before[i - 1][2] if i else 0
            gap_new = new[1] - after[i - 1][2] if i else 0
            if out:
                removed += max(gap_old, 0)
                if gap_new != min(gap_old, 0):
                    fail(f"{name} record {i} ({old[0]}): gap {gap_new} ns in the copy, taken out of {gap_old}")
            elif gap_new != gap_old:
                fail(f"{name} record {i} ({old[0]}): gap {gap_new} ns in the copy, {gap_old} in the original")
            if new[2] - new[1] != old[2] - old[1] or new[1] != old[1] - removed:
                fail(f"{name} record {i} ({old[0]}): moved by {old[1] - new[1]} ns, {removed} taken out before it")
        if removed < 10**6:
            fail(f"{name}: only {removed} ns of paused set-up: amp-ghost's set-up takes milliseconds")
        total_removed += removed
    dumpi2ascii = os.environ.get("AMP_DUMPI2ASCII")
    if dumpi2ascii:
        for name in bins:
            done = subprocess.run([dumpi2ascii, os.path.join(copy, name)], capture_output=True, text=True)
            if done.returncode != 0 or "MPI_Finalize entering" not in done.stdout:
                fail(f"dumpi2ascii {name} of the copy exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return total_removed


def refuses_an_existing_folder(amp_trace, original, workdir):
    existing = os.path.join(workdir, "copy-exists")
    os.makedirs(existing, exist_ok=True)
    done = subprocess.run([amp_trace, "sstmac", original, existing], capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    if done.returncode != 2 or len(lines) != 1 or os.listdir(existing):
        fail(f"a copy into an existing folder: exit {done.returncode}, {lines}, {os.listdir(existing)}")


def both_simulators_agree(build, root, trace):
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    predicted = {}
    for simulator in ("simgrid", "sstmac"):
        run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network, "--simulator", simulator,
             "--build", build, "--root", root])
        with open(simulate.simulation_file(trace, network, simulator)) as f:
            result = json.load(f)
        predicted[simulator] = result["predicted_seconds"]
        if simulator == "sstmac" and not result["sstmac_paused_seconds_removed"] > 1e-3:
            fail(f"SST-macro's copy took out {result['sstmac_paused_seconds_removed']} s of set-up")
    ratio = max(predicted.values()) / min(predicted.values())
    print(f"recorded ghost at 2 ranks on torus-4x4x4: SimGrid {predicted['simgrid'] * 1e6:.1f} us, "
          f"SST-macro {predicted['sstmac'] * 1e6:.1f} us ({ratio:.2f}x)")
    if ratio > 1.25:
        fail(f"the recorded run's predictions are {ratio:.2f}x apart: {predicted}")


def main():
    mpiexec, build, root, workdir = sys.argv[1:5]
    both = sys.argv[5:] == ["both"]
    if both and not os.environ.get("AMP_SSTMAC"):
        print("SKIP: AMP_SSTMAC is not set")
        sys.exit(77)
    amp_trace = os.path.join(build, "bin", "amp-trace")
    base = os.path.join(workdir, "sstmac-copy-both" if both else "sstmac-copy")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    original = os.path.join(base, "recorded")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    run(launch.mpiexec(mpiexec, 2, [os.path.join(build, "bin", "amp-ghost"), "--nx", "32", "--ny", "32", "--nz", "32",
                                    "--num_vars", "3", "--num_tsteps", "3", "--trace", original]), env=env)
    if both:
        both_simulators_agree(build, root, original)
        return
    copy = os.path.join(base, "copy")
    out = run([amp_trace, "sstmac", original, copy])
    removed = check_copy(amp_trace, original, copy)
    print(out.strip(), f"(checked: {removed / 1e9:.6f} s taken out over both ranks)")
    refuses_an_existing_folder(amp_trace, original, base)


if __name__ == "__main__":
    main()
