#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The four readers of the one RecordStream agree on communicators made by Comm_dup, Comm_split,
Comm_create and Cart_create: on communicators_trace's 4-rank trace (whose communicator ranks differ
from world ranks), `amp-trace stats` places every message in the exact rank-to-rank matrix, `check`
matches all 11 and finds only the Cart_create SST-macro cannot replay, `otf2` names each communicator
for its creation call with its exact members and puts every send and receive between the expected
world ranks, and `simgrid` writes every send and receive between the same world ranks.
Usage: test_communicators_agree.py GENERATOR AMP_TRACE WORKDIR"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

GENERATOR, AMP_TRACE, WORKDIR = sys.argv[1:4]

DUP = "Comm_dup #1 of MPI_COMM_WORLD"
SPLIT = "Comm_split #2 of MPI_COMM_WORLD colour {}"
CREATED = "Comm_create #3 of MPI_COMM_WORLD"
CART = "Cart_create #1 of " + SPLIT
# Every message of the trace: (sender, receiver) as world ranks, tag, bytes, communicator.
MESSAGES = collections.Counter(
    [(r, (r + 1) % 4, 11, 4, DUP) for r in range(4)]
    + [(2, 0, 12, 16, SPLIT.format(0)), (3, 1, 12, 16, SPLIT.format(1))]
    + [(1, 3, 13, 12, CREATED)] * 2 + [(3, 2, 13, 12, CREATED)]
    + [(0, 2, 14, 5, CART.format(0)), (1, 3, 14, 5, CART.format(1))])
MEMBERS = {DUP: [0, 1, 2, 3], SPLIT.format(0): [2, 0], SPLIT.format(1): [3, 1], CREATED: [1, 2, 3],
           CART.format(0): [2, 0], CART.format(1): [3, 1]}


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def run(command, expect_rc=0):
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != expect_rc:
        fail(f"{' '.join(command)}: exit {done.returncode}, wanted {expect_rc}: {done.stderr.strip()[-500:]}")
    return done.stdout


def between_world_ranks():
    """(sender, receiver, bytes) of every message: what a reader without communicator names can show."""
    return collections.Counter((s, r, b) for (s, r, _, b, _), n in MESSAGES.items() for _ in range(n))


def check_stats(trace):
    stats = json.loads(run([AMP_TRACE, "stats", "--json", trace]))
    matrix_bytes = [[0] * 4 for _ in range(4)]
    for (sender, receiver, bytes_), n in between_world_ranks().items():
        matrix_bytes[sender][receiver] += bytes_ * n
    got = (stats["point_to_point"], stats["unplaced_messages"], stats["matrix_bytes"])
    want = ({"messages": 11, "bytes": 94}, 0, matrix_bytes)
    if got != want:
        fail(f"stats: (point_to_point, unplaced, matrix_bytes) = {got}, expected {want}")
    print("stats: 11 messages, 94 bytes, every one placed in the exact rank-to-rank matrix")


def check_check(trace):
    report = json.loads(run([AMP_TRACE, "check", "--json", trace], expect_rc=1))
    findings = [(f["kind"], f["rank"], f["call"]) for f in report["findings"]]
    expected = [("unreplayable_call", rank, "MPI_Cart_create") for rank in range(4)]
    got = (report["messages"], report["matched"], report["total"], findings)
    if got != (11, 11, 4, expected):
        fail(f"check: (messages, matched, findings total, findings) = {got}, expected {(11, 11, 4, expected)}")
    print("check: all 11 messages matched; the only findings are the 4 Cart_create calls SST-macro cannot replay")


def otf2_print(*args):
    return run(["otf2-print", *args])


def check_otf2(trace, work):
    out = os.path.join(work, "otf2")
    run([AMP_TRACE, "otf2", trace, out])
    anchor = os.path.join(out, "traces.otf2")
    groups, comms = {}, {}
    for line in otf2_print("-G", anchor).splitlines():
        if line.startswith("GROUP ") and "Type: COMM_GROUP" in line:
            groups[int(line.split()[1])] = [int(x) for x in re.findall(r'(\d+) \("', line.split("Members:", 1)[1])]
        elif line.startswith("COMM "):
            name = re.search(r'Name: "(.*?)" <', line).group(1)
            group = int(re.search(r'Group: ".*?" <(\d+)>', line).group(1))
            comms[int(line.split()[1])] = (name, group)
    members = {name: groups.get(group) for name, group in comms.values()}
    for name, expected in MEMBERS.items():
        if members.get(name) != expected:
            fail(f"otf2: communicator {name!r} has members {members.get(name)}, expected {expected}; all: {members}")
    event = re.compile(r'^(MPI_I?SEND|MPI_I?RECV)\s+(\d+)\s+\d+\s+(?:Receiver|Sender): (\d+) .*'
                       r'Communicator: ".*?" <(\d+)>, Tag: (\d+), Length: (\d+)')
    sends, receives = collections.Counter(), collections.Counter()
    for line in otf2_print(anchor).splitlines():
        m = event.match(line)
        if not m:
            continue
        kind, location, peer, comm, tag, length = m.group(1), *(int(x) for x in m.groups()[1:])
        name, group = comms[comm]
        peer_world = groups[group][peer]
        if "SEND" in kind:
            sends[(location, peer_world, tag, length, name)] += 1
        else:
            receives[(peer_world, location, tag, length, name)] += 1
    if sends != MESSAGES or receives != MESSAGES:
        fail(f"otf2: sends {dict(sends)}, receives {dict(receives)}, expected both {dict(MESSAGES)}")
    print("otf2: 6 communicators named for their creation calls with exact members; "
          "11 sends and 11 receives between the expected world ranks on them")


def check_simgrid(trace, work):
    out = os.path.join(work, "ti")
    run([AMP_TRACE, "simgrid", trace, out])
    sends, receives = collections.Counter(), collections.Counter()
    for rank in range(4):
        with open(os.path.join(out, f"rank-{rank}.txt")) as f:
            for words in (line.split() for line in f):
                if words[1] in ("send", "isend"):
                    sends[(rank, int(words[2]), int(words[4]))] += 1
                elif words[1] in ("recv", "irecv"):
                    receives[(int(words[2]), rank, int(words[4]))] += 1
    if sends != between_world_ranks() or receives != between_world_ranks():
        fail(f"simgrid: sends {dict(sends)}, receives {dict(receives)}, expected both {dict(between_world_ranks())}")
    print("simgrid: 11 sends and 11 receives between the expected world ranks")


def main():
    os.makedirs(WORKDIR, exist_ok=True)
    work = tempfile.mkdtemp(prefix="communicators-", dir=WORKDIR)
    trace = os.path.join(work, "trace")
    os.makedirs(trace)
    run([GENERATOR, trace, "comms"])
    check_stats(trace)
    check_check(trace)
    check_otf2(trace, work)
    check_simgrid(trace, work)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
