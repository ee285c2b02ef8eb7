#!/usr/bin/env python3
"""The strategy x transport matrix of one proxy at one rank count, through mpiexec: every valid
combination gives the checksum of bspma over isend bit for bit, with the strategy's own message and
byte counts (a transport moves the messages a strategy cuts, it does not recut them), and says in its
JSON whether its trace can be replayed; every invalid combination is refused at start-up with one
line that names the transports that fit."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../common")
from checked_run import failure, launcher_parser, parse_with_program_arguments, refusal_line  # noqa: E402

STRATEGIES = ["bspma", "svaf", "svcp"]
TRANSPORTS = ["isend", "persistent", "partitioned", "rma", "neighbor", "datatype"]
UNREPLAYABLE = {"partitioned", "neighbor"}  # no DUMPI record for their calls

fail = failure("check_transports")


def why_invalid(strategy, transport, mpi_major):
    """None when the combination must run; else what the refusal must say."""
    if transport == "partitioned" and mpi_major < 4:
        return r"transport 'partitioned' needs MPI 4\.0, this MPI is 3\.\d+ \(with \w+ use isend, persistent, rma"
    if transport == "neighbor" and strategy == "svcp":
        return (r"transport 'neighbor' does not fit strategy 'svcp' \(neighbor fits bspma, svaf; "
                r"svcp fits isend, persistent, (partitioned, )?rma, datatype\)")
    return None


def run(a, arguments, results=None):
    command = [a.mpiexec] + a.mpiexec_flags.split() + ["-n", str(a.np), a.exe, "--progress", "0"] + arguments
    if results:
        command += ["--results", results]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        fail(f"did not finish in {a.timeout} s: {' '.join(command)}")


def main():
    p = launcher_parser(description=__doc__)
    p.add_argument("--mpi-version", type=int, required=True, help="the MPI standard's major version of this MPI")
    p.add_argument("--grids", default="", help="amp-ghost process grids, e.g. 2x1x1,1x1x2 (default: the proxy's)")
    p.add_argument("--timeout", type=int, default=60)
    a = parse_with_program_arguments(p, "proxy_arguments")
    grids = [g.split("x") for g in a.grids.split(",") if g] or [None]
    runs = refused = 0
    with tempfile.TemporaryDirectory() as folder:
        for grid in grids:
            where = ["--npx", grid[0], "--npy", grid[1], "--npz", grid[2]] if grid else []
            label = f"{a.np} ranks" + (f", grid {'x'.join(grid)}" if grid else "")
            baseline = {}
            for strategy in STRATEGIES:
                for transport in TRANSPORTS:
                    name = f"{strategy}/{transport} at {label}"
                    arguments = a.proxy_arguments + where + ["--comm_method", strategy, "--transport", transport]
                    expected_refusal = why_invalid(strategy, transport, a.mpi_version)
                    if expected_refusal:
                        refusal_line(run(a, arguments), expected_refusal, lambda why: fail(f"{name}: {why}"))
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
                    if (c["comm_method"], c["transport"]) != (strategy, transport):
                        fail(f"{name}: the JSON says {c['comm_method']}/{c['transport']}")
                    if c["replayable"] != (transport not in UNREPLAYABLE):
                        fail(f"{name}: replayable is {c['replayable']}")
                    if not r["verification"]["passed"]:
                        fail(f"{name}: verification failed: {r['verification']}")
                    counts = (r["messages"]["total"], r["bytes"]["total"])
                    baseline.setdefault("checksum", r["checksum"])
                    baseline.setdefault(strategy, counts)
                    if r["checksum"] != baseline["checksum"]:
                        fail(f"{name}: checksum {r['checksum']} != {baseline['checksum']} of bspma/isend")
                    if counts != baseline[strategy]:
                        fail(f"{name}: {counts[0]} messages, {counts[1]} bytes; {strategy}/isend sent "
                             f"{baseline[strategy][0]}, {baseline[strategy][1]}")
                    runs += 1
            print(f"ok: {label}: checksum {baseline['checksum']}, messages (bytes) per strategy: "
                  + ", ".join(f"{s} {baseline[s][0]} ({baseline[s][1]})" for s in STRATEGIES))
    print(f"check_transports: OK: {runs} runs identical, {refused} invalid combinations refused")


if __name__ == "__main__":
    main()
