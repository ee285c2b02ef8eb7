#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The onebyone strategy exchanges with one neighbour at a time, read from a trace of the MPI calls.

amp-ghost runs traced (--trace) on each given process grid under onebyone and under bspma; `amp-trace dump`
gives each rank's calls in order. Over the data messages (tags from 64: src/amp/comm/impl/message_tags.hpp):
- onebyone: no receive or send is ever posted while a request with another neighbour is in flight
  (the receive from and the send to one neighbour, then a wait that completes exactly those two,
  then the next neighbour); a rank's neighbours come in the order of the key
  (d = |rank - peer|, (min / d) mod 2, min) that src/amp/comm/strategies/onebyone.cpp gives (one phase here);
  the ranks with two neighbours or more are checked (at least two per grid, so there is an order to see);
- bspma: every such rank does post to a second neighbour while the first is in flight (so the check above
  can tell the two apart);
- both give the same checksum, messages and bytes.

Usage: test_one_neighbour_at_a_time.py --mpiexec M --np N --exe AMP-GHOST --amp-trace AMP-TRACE
                                        --grids 2x2x1,4x1x1 -- amp-ghost arguments..."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../common")
from checked_run import failure, launcher_parser, parse_with_program_arguments  # noqa: E402
from amp_tools import launch  # noqa: E402

fail = failure("test_one_neighbour_at_a_time")
FIRST_DATA_TAG = 64
POSTS = {"MPI_Isend": "dest", "MPI_Irecv": "source"}


def run(a, arguments, timeout=120):
    command = launch.mpiexec(a.mpiexec, a.np, [a.exe, "--progress", "0"] + arguments, a.mpiexec_flags)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    env.pop("AMP_TRACE_DIR", None)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        fail(f"did not finish in {timeout} s (a deadlock?): {' '.join(command)}")
    if done.returncode != 0:
        fail(f"exit {done.returncode}: {' '.join(command)}\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return done


def field(record, name):
    """The value of `name=` in one dump line ('int dest=3 | ...')."""
    found = re.search(r"\b" + re.escape(name) + r"=([^|]*)", record)
    return found.group(1).strip() if found else None


def exchanges(amp_trace, rank_file):
    """The rank's data calls, in order: ('post', kind, peer, request) and ('wait', [requests])."""
    dump = subprocess.run([amp_trace, "dump", rank_file], capture_output=True, text=True, timeout=60)
    if dump.returncode != 0:
        fail(f"amp-trace dump {rank_file}: exit {dump.returncode}: {dump.stderr[-500:]}")
    calls = []
    for line in dump.stdout.splitlines():
        name = line.split(" ", 1)[0]
        if name in POSTS:
            if int(field(line, "tag")) < FIRST_DATA_TAG:
                continue  # a strategy's start-up size check
            calls.append(("post", name, int(field(line, POSTS[name])), field(line, "MPI_Request request").strip("[]")))
        elif name.startswith("MPI_Wait"):
            listed = re.search(r"MPI_Request requests?(?:\[\d+\])?=\[([^\]]*)\]", line)
            calls.append(("wait", [r.strip() for r in listed.group(1).split(",")] if listed else []))
    return calls


def key(rank, peer):
    d, low = abs(rank - peer), min(rank, peer)
    return (d, (low // d) % 2, low)


def read_trace(a, folder):
    files = sorted(glob.glob(os.path.join(folder, "*.bin")))
    if len(files) != a.np:
        fail(f"{folder}: {len(files)} rank files for {a.np} ranks")
    return {int(re.search(r"-(\d+)\.bin$", f).group(1)): exchanges(a.amp_trace, f) for f in files}


def one_at_a_time(calls):
    """(True, neighbours in order of their first exchange) when no post ever overlaps a request with another
    neighbour and each wait completes one neighbour's receive and send; else (False, why)."""
    in_flight = {}  # request -> peer
    order = []
    for call in calls:
        if call[0] == "post":
            _, kind, peer, request = call
            others = {p for p in in_flight.values() if p != peer}
            if others:
                return False, f"{kind} with {peer} posted while requests with {sorted(others)} were in flight"
            in_flight[request] = peer
            if peer not in order:
                order.append(peer)
        else:
            done = [in_flight.pop(r) for r in call[1] if r in in_flight]
            if done and len(done) != 2:
                return False, f"a wait completed {len(done)} requests ({done}), not one neighbour's receive and send"
    if in_flight:
        return False, f"requests never completed: {in_flight}"
    return True, order


def main():
    p = launcher_parser(description=__doc__)
    p.add_argument("--amp-trace", required=True)
    p.add_argument("--grids", required=True, help="process grids, e.g. 2x2x1,4x1x1")
    a = parse_with_program_arguments(p, "proxy_arguments")
    with tempfile.TemporaryDirectory() as work:
        for grid in a.grids.split(","):
            sizes = grid.split("x")
            results = {}
            for strategy in ("onebyone", "bspma"):
                folder = os.path.join(work, f"{strategy}-{grid}")
                out = os.path.join(work, f"{strategy}-{grid}.json")
                run(a, a.proxy_arguments + ["--npx", sizes[0], "--npy", sizes[1], "--npz", sizes[2],
                                            "--strategy", strategy, "--trace", folder, "--results", out])
                with open(out) as f:
                    r = json.load(f)
                results[strategy] = (r["checksum"], r["messages"]["total"], r["bytes"]["total"])
                ordered = 0
                for rank, calls in sorted(read_trace(a, folder).items()):
                    serial, detail = one_at_a_time(calls)
                    where = f"{grid} rank {rank} under {strategy}"
                    neighbours = len({c[2] for c in calls if c[0] == "post"})
                    if neighbours < 2:
                        continue  # one neighbour (an end of a row): always one at a time
                    ordered += 1
                    if strategy == "bspma":
                        if serial:
                            fail(f"{where}: never two neighbours in flight at once; the check cannot tell")
                        continue
                    if not serial:
                        fail(f"{where}: {detail}")
                    if detail != sorted(detail, key=lambda peer: key(rank, peer)):
                        fail(f"{where}: neighbours in the order {detail}, the key gives "
                             f"{sorted(detail, key=lambda peer: key(rank, peer))}")
                    posts = sum(1 for c in calls if c[0] == "post")
                    print(f"ok: {where}: {posts} posts, one neighbour at a time, in the order {detail}")
                if ordered < 2:
                    fail(f"{grid} under {strategy}: {ordered} rank(s) with two neighbours or more; "
                         "the grid shows nothing")
            if results["onebyone"] != results["bspma"]:
                fail(f"{grid}: onebyone (checksum, messages, bytes) {results['onebyone']} "
                     f"!= bspma's {results['bspma']}")
            print(f"ok: {grid}: bspma posts to two neighbours at once; the same checksum, messages and bytes "
                  f"{results['bspma']}")
    print("test_one_neighbour_at_a_time: OK")


if __name__ == "__main__":
    main()
