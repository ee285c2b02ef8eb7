#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""CODES replays a trace on one simulator rank (ROSS sequential) and on two (ROSS optimistic, through the
launcher that runs the proxies) with the same prediction to the last digit: `./amp simulate TRACE --network
FILE --simulator codes --sim-ranks 1` and `--sim-ranks 2`, on a trace of amp-ghost recorded at 2 ranks and
on one synthesized at RANKS ranks (8^3 blocks, 2 variables, 1 step: small). Each simulation JSON fits the
schema and records the engine, its simulator ranks and the replay's wall time, and holds what the report
draws: a profile of every rank and the network figures (bytes over links of the network's classes, and every
NIC's payload equal to the trace's bytes between nodes). Exit 77 (skipped) without AMP_CODES.

Usage: test_codes_parallel.py MPIEXEC BUILD ROOT WORKDIR NETWORK_FILE recorded|RANKS
"""
import glob
import json
import os
import shutil
import subprocess
import sys

import amp_tools
from amp_tools import launch
from amp_tools import networks
from amp_tools import schemas
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import checked, failure  # noqa: E402

fail = failure(None)
run = checked(fail)


def make_trace(mpiexec, build, folder, kind):
    """A trace of amp-ghost: recorded at 2 ranks, or synthesized at `kind` ranks."""
    ghost = os.path.join(build, "bin", "amp-ghost")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    if kind == "recorded":
        run(launch.mpiexec(mpiexec, 2, [ghost, "--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "2",
                                        "--num_tsteps", "2", "--strategy", "svaf", "--trace", folder]), env=env)
    else:
        run([ghost, "--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2", "--num_tsteps", "1", "--strategy",
             "svaf", "--synthesize", folder, "--ranks", kind, "--compute_seconds", "1e-5"], env=env)


def simulate(mpiexec, build, root, trace, network_file, sim_ranks):
    """The simulation JSON of one replay on `sim_ranks` simulator ranks (a fresh one: the last is removed)."""
    for old in glob.glob(os.path.join(trace, "simulation-*-codes.json")):
        os.remove(old)
    command = [sys.executable, "-m", "amp_tools.simulate", trace, "--network", network_file, "--simulator",
               "codes", "--sim-ranks", str(sim_ranks), "--build", build, "--root", root, "--mpiexec", mpiexec]
    done = subprocess.run(command, capture_output=True, text=True, env=amp_tools.module_environment())
    if done.returncode != 0:
        fail(f"--sim-ranks {sim_ranks}: exit {done.returncode}: {done.stderr.strip()[-600:]}")
    (path,) = glob.glob(os.path.join(trace, "simulation-*-codes.json"))
    try:
        schemas.checked(path)
    except schemas.SchemaError as e:
        fail(str(e))
    with open(path) as f:
        return json.load(f)


def check_figures(result, network):
    """The figures the report draws: every rank's profile, the network's link classes, each NIC's payload."""
    ranks = result["ranks"]
    if len(result["per_rank_finish_seconds"]) != ranks or len(result["profile"]["per_rank"]["compute"]) != ranks:
        fail(f"the profile and finish times do not cover the trace's {ranks} ranks")
    if max(result["per_rank_finish_seconds"]) > result["predicted_seconds"] * (1 + 1e-9):
        fail("a rank finished after the prediction (CODES' slowest rank)")
    classes = set(network.link_classes()) | {"node"}
    if not set(result["links"]) <= classes or not any(v["bytes"] for v in result["links"].values()):
        fail(f"link classes {sorted(result['links'])} are not the network's ({sorted(classes)}), or carry nothing")
    if result["nics"]["injected_bytes"]["total"] + result["nics"]["intra_node_bytes"] != result["bytes"]:
        fail(f"the NICs' payload ({result['nics']['injected_bytes']['total']}) and the bytes within nodes "
             f"({result['nics']['intra_node_bytes']}) are not the trace's {result['bytes']} bytes")


def main():
    mpiexec, build, root, workdir, network_file, kind = sys.argv[1:7]
    if not os.environ.get("AMP_CODES"):
        print("skipped: set AMP_CODES (CODES' model-net-mpi-replay) for CODES' replays")
        sys.exit(77)
    network = networks.load(network_file)
    folder = os.path.join(workdir, f"codes-parallel-{kind}-{network.name}")
    shutil.rmtree(folder, ignore_errors=True)
    make_trace(mpiexec, build, folder, kind)
    one, two = (simulate(mpiexec, build, root, folder, network_file, n) for n in (1, 2))
    for result, n, engine in ((one, 1, "ROSS sequential"), (two, 2, "ROSS optimistic (2 simulator ranks)")):
        if result["sim_ranks"] != n or result["engine"] != engine or not result["simulation_wall_seconds"] > 0:
            fail(f"--sim-ranks {n}: the JSON records sim_ranks {result['sim_ranks']}, engine {result['engine']!r}, "
                 f"wall time {result['simulation_wall_seconds']}")
        check_figures(result, network)
    if one["predicted_seconds"] != two["predicted_seconds"]:
        fail(f"{kind} trace on {network.name}: {one['predicted_seconds']!r} s on one simulator rank, "
             f"{two['predicted_seconds']!r} s on two")
    if one["per_rank_finish_seconds"] != two["per_rank_finish_seconds"]:
        fail("the ranks' finish times differ between one simulator rank and two")
    print(f"{kind} trace ({one['ranks']} ranks) on {network.name}: {one['predicted_seconds']!r} s on 1 and 2 "
          f"simulator ranks ({one['codes_events']} events; {one['codes_replay_wall_seconds']} s and "
          f"{two['codes_replay_wall_seconds']} s)")


if __name__ == "__main__":
    main()
