#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The strategy x transport matrix of one proxy at one rank count, through mpiexec: every valid
combination gives the checksum of bspma over isend bit for bit, with the strategy's own message and
byte counts (a transport moves the messages a strategy cuts, it does not recut them), and says in its
JSON whether its trace can be replayed; every invalid combination is refused at start-up with exit 6
(kCombinationRefused) and one line, the refusal its --list-combinations --json gives. The strategies,
transports and what fits are read from that listing, so a new one registered in src/amp/comm/ is checked too.

With --staged, every run stages MPI's buffers through host memory (AMP_MPI_BUFFERS=host, which the proxy turns
into its exchange context: src/amp/miniapps/common/mpi_buffers_setting.hpp; src/amp/comm/mpi_buffers.hpp; the
path a device build without GPU-aware MPI takes): each run must still give the checksum of bspma/isend run
without staging, must say in its JSON that it staged (timing.staged_elements, where there is a peer), and
in-place transports are refused; without --staged, no run may stage."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../common")
from checked_run import failure, launcher_parser, parse_with_program_arguments, refusal_line  # noqa: E402
from amp_tools import launch
from amp_tools import combinations  # noqa: E402

fail = failure("test_transports")


def registry(a):
    """The binary's strategies, transports, replayable transports and (strategy, transport) -> None when
    the pair must run, else the exact refusal line; the listing's MPI must be the one CMake found."""
    found = combinations.listing(a.exe)
    if int(found["mpi"]["version"].split(".")[0]) != a.mpi_version:
        fail(f"the listing's MPI {found['mpi']['version']} is not CMake's MPI {a.mpi_version}")
    strategies = [s["name"] for s in found["strategies"]]
    transports = [t["name"] for t in found["transports"]]
    replayable = {t["name"] for t in found["transports"] if t["replayable"]}
    proxy = found["proxy"]
    refusals = {pair: None if c["fits"] else f"{proxy}: error: {c['refusal']}"
                for pair, c in combinations.pairs(found).items()}
    if len(refusals) != len(strategies) * len(transports):
        fail(f"the listing's matrix has {len(refusals)} pairs for {len(strategies)} x {len(transports)}")
    return strategies, transports, replayable, refusals


def run(a, arguments, results=None):
    command = launch.mpiexec(a.mpiexec, a.np, [a.exe, "--progress", "0"] + arguments, a.mpiexec_flags)
    if results:
        command += ["--results", results]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        fail(f"did not finish in {a.timeout} s: {' '.join(command)}")


def unstaged_checksum(a, arguments, folder, label):
    """bspma over isend's checksum without staging (the reference for staged runs), then staging on."""
    os.environ.pop("AMP_MPI_BUFFERS", None)
    results = os.path.join(folder, "unstaged.json")
    done = run(a, arguments + ["--strategy", "bspma", "--transport", "isend"], results)
    if done.returncode != 0:
        fail(f"bspma/isend without staging at {label}: exit {done.returncode}: {done.stderr[-1500:]}")
    with open(results) as f:
        checksum = json.load(f)["checksum"]
    os.remove(results)
    os.environ["AMP_MPI_BUFFERS"] = "host"
    return checksum


def main():
    p = launcher_parser(description=__doc__)
    p.add_argument("--mpi-version", type=int, required=True, help="the MPI standard's major version of this MPI")
    p.add_argument("--grids", default="", help="amp-ghost process grids, e.g. 2x1x1,1x1x2 (default: the proxy's)")
    p.add_argument("--timeout", type=int, default=60)
    p.add_argument("--staged", action="store_true", help="stage MPI's buffers through host memory in every run")
    a = parse_with_program_arguments(p, "proxy_arguments")
    os.environ.pop("AMP_MPI_BUFFERS", None)
    grids = [g.split("x") for g in a.grids.split(",") if g] or [None]
    if a.staged:
        os.environ["AMP_MPI_BUFFERS"] = "host"  # the listing says what staging refuses
    STRATEGIES, TRANSPORTS, replayable, refusals = registry(a)
    os.environ.pop("AMP_MPI_BUFFERS", None)
    runs = refused = 0
    with tempfile.TemporaryDirectory() as folder:
        for grid in grids:
            where = ["--npx", grid[0], "--npy", grid[1], "--npz", grid[2]] if grid else []
            label = f"{a.np} ranks" + (f", grid {'x'.join(grid)}" if grid else "")
            baseline = {}
            if a.staged:
                baseline["checksum"] = unstaged_checksum(a, a.proxy_arguments + where, folder, label)
            for strategy in STRATEGIES:
                for transport in TRANSPORTS:
                    name = f"{strategy}/{transport} at {label}"
                    arguments = a.proxy_arguments + where + ["--strategy", strategy, "--transport", transport]
                    expected_refusal = refusals[(strategy, transport)]
                    if expected_refusal:
                        refusal_line(run(a, arguments), "^" + re.escape(expected_refusal) + "$",
                                     lambda why: fail(f"{name}: {why}"), combinations.COMBINATION_REFUSED)
                        refused += 1
                        continue
                    results = os.path.join(folder, f"{strategy}-{transport}-{len(baseline)}.json")
                    done = run(a, arguments, results)
                    if done.returncode != 0:
                        fail(f"{name}: exit {done.returncode}: {done.stdout[-1500:]} {done.stderr[-1500:]}")
                    with open(results) as f:
                        r = json.load(f)
                    os.remove(results)
                    c = r["config"]
                    if (c["strategy"], c["transport"]) != (strategy, transport):
                        fail(f"{name}: the JSON says {c['strategy']}/{c['transport']}")
                    if c["replayable"] != (transport in replayable):
                        fail(f"{name}: replayable is {c['replayable']}")
                    if not r["verification"]["passed"]:
                        fail(f"{name}: verification failed: {r['verification']}")
                    staged = r["timing"]["staged_elements"]["max"]
                    if a.staged and a.np > 1 and staged == 0:
                        fail(f"{name}: staged through host memory, but timing.staged_elements is 0")
                    if not a.staged and staged != 0:
                        fail(f"{name}: not staged, but timing.staged_elements is {staged}")
                    counts = (r["messages"]["total"], r["bytes"]["total"])
                    baseline.setdefault("checksum", r["checksum"])
                    baseline.setdefault(strategy, counts)
                    if r["checksum"] != baseline["checksum"]:
                        fail(f"{name}: checksum {r['checksum']} != {baseline['checksum']} of bspma/isend"
                             + (" without staging" if a.staged else ""))
                    if counts != baseline[strategy]:
                        fail(f"{name}: {counts[0]} messages, {counts[1]} bytes; {strategy}/isend sent "
                             f"{baseline[strategy][0]}, {baseline[strategy][1]}")
                    runs += 1
            print(f"ok: {label}: checksum {baseline['checksum']}, messages (bytes) per strategy: "
                  + ", ".join(f"{s} {baseline[s][0]} ({baseline[s][1]})" for s in STRATEGIES))
    print(f"test_transports: OK: {runs} runs identical{' (staged through host memory)' if a.staged else ''}, "
          f"{refused} invalid combinations refused")


if __name__ == "__main__":
    main()
