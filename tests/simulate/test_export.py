#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One proxy and strategy over every exportable transport (isend, persistent, datatype), traced for real at
2 ranks and synthesized at 8: `amp-trace simgrid` must give each rank the messages and bytes that
`amp-trace stats` counts, every TI send must pair with a TI receive of the same (source, destination,
tag, bytes), and `tools/amp_tools/simulate.py` must replay it in smpirun on a torus (a prediction and a finish
time for every rank, exit 0); an export older than amp-trace is made again.

Usage: test_export.py MPIEXEC BUILD ROOT WORKDIR PROXY CUT
"""
import collections
import json
import os
import shutil
import subprocess
import sys

from amp_tools import simgrid_export  # noqa: E402
from amp_tools import simulate  # noqa: E402
from amp_tools import launch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import checked, failure  # noqa: E402

PROBLEMS = {
    "ghost": ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "3", "--num_tsteps", "3"],
    "sage": ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "3", "--num_tsteps", "3"],
    "nobel": ["--nbx", "4", "--nby", "4", "--nbz", "2", "--block", "4", "--max_level", "1", "--num_vars", "2",
              "--num_tsteps", "4", "--amr_interval", "2"],
}

fail = failure(None)
run = checked(fail)


def ti_pairs(directory, ranks):
    """(source, dest, tag, bytes) of every TI send and every TI receive."""
    sends, receives = collections.Counter(), collections.Counter()
    for rank in ranks:
        with open(os.path.join(directory, f"rank-{rank}.txt")) as f:
            for line in f:
                words = line.split()
                if int(words[0]) != rank:
                    fail(f"rank-{rank}.txt has a line of rank {words[0]}: {line.strip()}")
                if words[1] in ("send", "isend"):
                    sends[(rank, int(words[2]), int(words[3]), int(words[4]))] += 1
                elif words[1] in ("recv", "irecv"):
                    receives[(int(words[2]), rank, int(words[3]), int(words[4]))] += 1
    return sends, receives


def check(trace, build, root, network, label):
    amp_trace = os.path.join(build, "bin", "amp-trace")
    stats = json.loads(run([amp_trace, "stats", "--json", trace]))
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network,
                           "--build", build], capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{label}: simulate.py exited {done.returncode}: {done.stderr.strip()}")
    export_dir = os.path.join(trace, "simgrid-ti-1e+09")
    with open(os.path.join(export_dir, "export.json")) as f:
        exported = json.load(f)
    for per_rank, summary in zip(stats["per_rank"], exported["per_rank"]):
        got = (summary["messages_sent"], summary["bytes_sent"], summary["receives"])
        want = (per_rank["messages"], per_rank["bytes"], per_rank["receives_posted"])
        if got != want:
            fail(f"{label} rank {per_rank['rank']}: export (messages, bytes, receives) {got}, amp-trace stats {want}")
    if exported["messages"] == 0:
        fail(f"{label}: no messages; the comparison would prove nothing")
    sends, receives = ti_pairs(export_dir, exported["ranks"])
    if sends != receives:
        fail(f"{label}: TI sends and receives do not pair up: {dict(list((sends - receives).items())[:3])} / "
             f"{dict(list((receives - sends).items())[:3])}")
    with open(simulate.simulation_file(trace, network, "simgrid")) as f:
        simulated = json.load(f)
    finish = simulated["per_rank_finish_seconds"]
    if not simulated["predicted_seconds"] > 0 or not finish or None in finish or len(finish) != len(exported["ranks"]):
        fail(f"{label}: prediction {simulated['predicted_seconds']}, per-rank finish times {finish}")
    # The prediction ends after MPI_Finalize's barrier (a few network latencies) behind the last action.
    barrier = simulated["predicted_seconds"] - max(finish)
    if not 0 <= barrier <= 1e-4:
        fail(f"{label}: the last rank finishes at {max(finish)}, the prediction is {simulated['predicted_seconds']}: "
             f"not a finalize barrier behind it")
    print(f"{label}: {exported['messages']} messages, {exported['bytes']} bytes per stats; replayed in "
          f"{simulated['simulator']} {simulated['simulator_version']}: {simulated['predicted_seconds']:.6g} s")


def made_again_when_older_than_amp_trace(trace, build):
    """The export kept beside a trace is AMP's cache: one older than amp-trace (an older exporter's) is made
    again, one newer is kept."""
    amp_trace = os.path.join(build, "bin", "amp-trace")
    export_dir = os.path.join(trace, "simgrid-ti-1e+09")
    marker = os.path.join(export_dir, "marker")
    open(marker, "w").close()
    simgrid_export.export(trace, amp_trace, 1e9)
    if not os.path.exists(marker):
        fail("an export newer than amp-trace was made again")
    os.utime(os.path.join(export_dir, "export.json"), (0, 0))
    simgrid_export.export(trace, amp_trace, 1e9)
    if os.path.exists(marker) or os.path.getmtime(os.path.join(export_dir,
                                                               "export.json")) < os.path.getmtime(amp_trace):
        fail("an export older than amp-trace was kept")


def main():
    mpiexec, build, root, workdir, proxy, strategy = sys.argv[1:7]
    exe = os.path.join(build, "bin", f"amp-{proxy}")
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    for transport in ("isend", "persistent", "datatype"):
        base = os.path.join(workdir, f"export-{proxy}-{strategy}-{transport}")
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
        flags = PROBLEMS[proxy] + ["--strategy", strategy, "--transport", transport]
        recorded = os.path.join(base, "recorded")
        run(launch.mpiexec(mpiexec, 2, [exe, *flags, "--trace", recorded]), env=env)
        check(recorded, build, root, network, f"{proxy} {strategy} {transport} recorded at 2 ranks")
        if transport == "isend":
            made_again_when_older_than_amp_trace(recorded, build)
        synthesized = os.path.join(base, "synthesized")
        run([exe, *flags, "--synthesize", synthesized, "--ranks", "8", "--compute_seconds", "1e-4"], env=env)
        check(synthesized, build, root, network, f"{proxy} {strategy} {transport} synthesized at 8 ranks")


if __name__ == "__main__":
    main()
