#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks of `amp-trace otf2`, one per invocation, on a trace made for the test or given:
  stats      : otf2-print reads the archive without warnings; per location times never go back, Enter = Leave = the
               rank's
               records, MpiSend+MpiIsend count and bytes = `amp-trace stats --json` point_to_point,
               every send pairs with a receive (sender, receiver, communicator, tag, bytes), the
               rank-to-rank bytes on every communicator whose members the trace tells (world, self and
               those recorded calls made) = the stats matrix, and the sends on the others = stats'
               unplaced messages
  threads    : stats for an MPI_THREAD_MULTIPLE trace, whose threads share their rank's location (times
               must never go back); every operation of both threads gets its completion
  every_call : stats, plus the Comm_dup/Comm_split communicators of every_call_program (split by
               rank % 2) and the exact bytes of every collective on every rank
  refuse     : a second export to the same directory (and one to an existing empty directory) exits
               2 with one line and changes nothing
  corrupt    : truncated, garbled and non-DUMPI input exit 2 with one line and leave nothing behind
Usage: test_otf2_export.py CHECK AMP_TRACE WORKDIR (--trace-dir DIR | --proxy MPIEXEC N EXE ARGS... |
                                                    --traced MPIEXEC N EXE ARGS...)
--proxy passes `--trace DIR` to EXE; --traced sets AMP_TRACE_DIR."""
import collections
import glob
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from amp_tools import launch

CHECK, AMP_TRACE, WORKDIR = sys.argv[1:4]
SOURCE = sys.argv[4:]


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs)


def make_trace(work):
    kind = SOURCE[0]
    if kind == "--trace-dir":
        return SOURCE[1]
    mpiexec, ranks, program = SOURCE[1], SOURCE[2], SOURCE[3:]
    trace_dir = os.path.join(work, "trace")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("AMP_TRACE_DIR", None)
    if kind == "--proxy":
        program = program + ["--trace", trace_dir]
    elif kind == "--traced":
        os.makedirs(trace_dir)
        env["AMP_TRACE_DIR"] = trace_dir
    else:
        fail("unknown trace source " + kind)
    made = run(launch.mpiexec(mpiexec, ranks, program), env=env)
    if made.returncode != 0:
        fail(f"traced run failed ({made.returncode}): {made.stderr.strip()[-500:]}")
    return trace_dir


def export(trace, out):
    done = run([AMP_TRACE, "otf2", trace, out])
    if done.returncode != 0:
        fail(f"amp-trace otf2 failed ({done.returncode}): {done.stderr.strip()}")
    print(done.stdout.strip().splitlines()[0])
    return os.path.join(out, "traces.otf2")


def otf2_print(*args):
    printed = run(["otf2-print"] + list(args))
    if printed.returncode != 0:
        fail(f"otf2-print {' '.join(args)} failed: {printed.stderr.strip()[-500:]}")
    return printed.stdout


EVENT = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s*(.*)$")
PEER = re.compile(r'(?:Receiver|Sender): (\d+) .*Communicator: ".*?" <(\d+)>, Tag: (\d+), Length: (\d+)')
UNKNOWN_MEMBERS = re.compile(r"^comm \d+ of rank \d+ \((creation not recorded|members unknown)\)$")
COLLECTIVE = re.compile(r'Operation: (\w+), Communicator: ".*?" <(\d+)>, Root: (\w+|\d+).*Sent: (\d+), Received: (\d+)')


def read_events(anchor):
    events = collections.defaultdict(list)  # location -> [(name, attributes)]
    last_time = {}
    for line in otf2_print(anchor).splitlines():
        m = EVENT.match(line)
        if m and m.group(1).isupper() and m.group(1) not in ("EVENT", "==="):
            location, time = int(m.group(2)), int(m.group(3))
            if time < last_time.get(location, 0):
                fail(f"location {location}: time goes back to {time} after {last_time[location]}")
            last_time[location] = time
            events[location].append((m.group(1), m.group(4)))
    return events


def read_communicators(anchor):
    """comm id -> (name, world ranks in comm-rank order, or None for MPI_COMM_SELF)."""
    groups, comms = {}, {}
    for line in otf2_print("-G", anchor).splitlines():
        if line.startswith("GROUP "):
            gid = int(line.split()[1])
            if "Type: COMM_SELF" in line:
                groups[gid] = None
            elif "Type: COMM_GROUP" in line:
                groups[gid] = [int(x) for x in re.findall(r'(\d+) \("', re.split(r"Members?:", line, 1)[1])]
        elif line.startswith("COMM "):
            cid = int(line.split()[1])
            name = re.search(r'Name: "(.*?)" <', line).group(1)
            gid = int(re.search(r'Group: ".*?" <(\d+)>', line).group(1))
            comms[cid] = (name, gid)
    return {cid: (name, groups[gid]) for cid, (name, gid) in comms.items()}


def check_against_stats(trace, anchor):
    if run(["otf2-print", "-Werror", "--silent", anchor]).returncode != 0:
        fail("otf2-print -Werror --silent rejects the archive")
    stats_run = run([AMP_TRACE, "stats", "--json", trace])
    if stats_run.returncode != 0:
        fail("amp-trace stats failed: " + stats_run.stderr.strip())
    stats = json.loads(stats_run.stdout)
    events, comms = read_events(anchor), read_communicators(anchor)
    world = range(stats["ranks"])
    sent, received = [0, 0], [0, 0]
    sends, receives = collections.Counter(), collections.Counter()  # (from, to, comm, tag, bytes)
    matrix = [[0] * len(world) for _ in world]
    unplaced = 0
    for per_rank in stats["per_rank"]:
        rank = per_rank["rank"]
        names = collections.Counter(name for name, _ in events[rank])
        if not names["ENTER"] == names["LEAVE"] == per_rank["records"]:
            fail(f"rank {rank}: {names['ENTER']} Enter / {names['LEAVE']} Leave events for {per_rank['records']} "
                 "records")
        for name, attributes in events[rank]:
            if name not in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
                continue
            peer, comm, tag, length = (int(x) for x in PEER.search(attributes).groups())
            totals = sent if name in ("MPI_SEND", "MPI_ISEND") else received
            totals[0] += 1
            totals[1] += length
            members = comms[comm][1] or [rank]  # MPI_COMM_SELF: the rank itself
            ends = (rank, members[peer]) if totals is sent else (members[peer], rank)
            (sends if totals is sent else receives)[ends + (comm, tag, length)] += 1
            if totals is sent:  # in the matrix, like stats: every communicator whose members are known
                if UNKNOWN_MEMBERS.match(comms[comm][0]):
                    unplaced += 1
                else:
                    matrix[rank][members[peer]] += length
    expected = [stats["point_to_point"]["messages"], stats["point_to_point"]["bytes"]]
    if sent != expected:
        fail(f"MpiSend+MpiIsend: {sent[0]} messages, {sent[1]} bytes; amp-trace stats: {expected[0]}, {expected[1]}")
    if received != sent:
        fail(f"MpiRecv+MpiIrecv: {received[0]} messages, {received[1]} bytes; sent: {sent[0]}, {sent[1]}")
    elif sends != receives:
        fail(f"sends and receives do not pair up by (sender, receiver, communicator, tag, bytes): "
             f"unmatched sends {dict(sends - receives)}, unmatched receives {dict(receives - sends)}")
    if matrix != stats["matrix_bytes"]:
        fail(f"rank-to-rank bytes {matrix} differ from amp-trace stats' {stats['matrix_bytes']}")
    if unplaced != stats["unplaced_messages"]:
        fail(f"{unplaced} sends on communicators of unknown members; stats: {stats['unplaced_messages']}")
    if sent[0] == 0:
        fail("the trace holds no messages; the comparison would prove nothing")
    print(f"{len(stats['per_rank'])} ranks: records, {sent[0]} messages and {sent[1]} bytes agree with amp-trace stats")
    return events, comms


def expected_collectives(n, rank):
    """every_call_program's collectives: (op, root, sent, received) on MPI_COMM_WORLD, in call order."""
    def rooted(op, at_root, elsewhere):
        return (op, "0", *(at_root if rank == 0 else elsewhere))
    return [("BARRIER", "NONE", 0, 0),
            rooted("BCAST", (n * 16, 16), (0, 16)),             # 4 ints
            rooted("REDUCE", (16, n * 16), (16, 0)),            # 2 doubles
            ("ALLREDUCE", "NONE", n * 16, n * 16),
            ("ALLGATHER", "NONE", n * 8, n * 8),                # 2 ints each
            ("ALLGATHERV", "NONE", n * 8, n * 8),
            ("ALLTOALL", "NONE", n * 8, n * 8),
            ("ALLTOALLV", "NONE", n * 8, n * 8),
            rooted("GATHER", (8, n * 8), (8, 0)),
            rooted("SCATTER", (n * 8, 8), (0, 8)),
            ("BARRIER", "NONE", 0, 0)]                          # on the split communicator


def check_every_call(events, comms):
    n = len(events)
    by_name = {name: members for name, members in comms.values()}
    dup = by_name.get("Comm_dup #1 of MPI_COMM_WORLD")
    if dup != list(range(n)):
        fail(f"the Comm_dup of MPI_COMM_WORLD has members {dup}")
    for color in range(min(n, 2)):
        members = by_name.get(f"Comm_split #1 of Comm_dup #1 of MPI_COMM_WORLD colour {color}")
        if members != list(range(color, n, 2)):
            fail(f"Comm_split colour {color} has members {members}, expected {list(range(color, n, 2))}")
    if by_name.get("MPI_COMM_SELF", 0) is not None:
        fail("MPI_COMM_SELF is not defined with the COMM_SELF group")
    for rank, rank_events in events.items():
        ends = [COLLECTIVE.search(a) for name, a in rank_events if name == "MPI_COLLECTIVE_END"]
        got = [(m.group(1), m.group(3), int(m.group(4)), int(m.group(5))) for m in ends]
        if got != expected_collectives(n, rank):
            fail(f"rank {rank}: collectives {got}, expected {expected_collectives(n, rank)}")
        split_comm = comms[int(ends[-1].group(2))]
        if split_comm[1] != list(range(rank % 2, n, 2)):
            fail(f"rank {rank}: the last Barrier is on {split_comm}, not its Comm_split communicator")
    print(f"communicators (dup, split by rank % 2) and {len(expected_collectives(n, 0))} collectives per rank exact")


def tree_digest(directory):
    digest = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(directory)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, directory).encode())
            with open(path, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()


def expect_refusal(trace, out, what):
    done = run([AMP_TRACE, "otf2", trace, out])
    lines = done.stderr.strip().splitlines()
    if done.returncode != 2 or len(lines) != 1 or done.stdout.strip():
        fail(f"{what}: exit {done.returncode}, stdout {done.stdout!r}, stderr {done.stderr!r}; wanted exit 2 and one "
             "line")
    return lines[0]


def no_leftovers(out, what):
    parent = os.path.dirname(out)
    left = [p for p in os.listdir(parent) if os.path.basename(out) in p]
    if left:
        fail(f"{what}: left {left} behind")


def check_refusal(trace, work):
    out = os.path.join(work, "archive")
    export(trace, out)
    before = tree_digest(out)
    line = expect_refusal(trace, out, "second export to the same directory")
    if "already exists" not in line or tree_digest(out) != before:
        fail(f"second export: {line!r}; archive changed: {tree_digest(out) != before}")
    empty = os.path.join(work, "empty")
    os.mkdir(empty)
    line = expect_refusal(trace, empty, "export to an existing empty directory")
    if os.listdir(empty):
        fail("export to an existing empty directory wrote into it")
    print("refused twice with one line each, nothing changed: " + line)


def bin_files(trace_dir):
    return sorted(glob.glob(os.path.join(trace_dir, "*.bin")))


def check_corrupt(trace, work):
    cases = []
    truncated = shutil.copytree(trace, os.path.join(work, "truncated"))
    last = bin_files(truncated)[-1]
    with open(last, "r+b") as f:
        f.truncate(os.path.getsize(last) // 2)
    cases.append(("truncated last rank", truncated, "index"))

    garbled = shutil.copytree(trace, os.path.join(work, "garbled"))
    last = bin_files(garbled)[-1]
    with open(last, "r+b") as f:  # the first record of the last rank gets function id 0xFFFF
        f.seek(-64 + 8 * 5, os.SEEK_END)
        body = struct.unpack(">Q", f.read(8))[0]
        f.seek(body + 8)
        f.write(b"\xff\xff")
    cases.append(("garbled first record of the last rank", garbled, "invalid function id"))

    not_dumpi = os.path.join(work, "notdumpi-0000.bin")
    with open(not_dumpi, "wb") as f:
        f.write(b"this is not a DUMPI trace\n" * 10)
    cases.append(("a file that is not DUMPI", not_dumpi, "not a DUMPI trace"))

    for what, source, phrase in cases:
        out = os.path.join(work, "out-" + what.split()[0])
        line = expect_refusal(source, out, what)
        if phrase not in line:
            fail(f"{what}: message {line!r} does not say '{phrase}'")
        if os.path.exists(out):
            fail(f"{what}: {out} was created")
        no_leftovers(out, what)
        print(f"{what}: exit 2, {line}")


def main():
    os.makedirs(WORKDIR, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"otf2-{CHECK}-", dir=WORKDIR)
    trace = make_trace(work)
    if CHECK in ("stats", "threads", "every_call"):
        anchor = export(trace, os.path.join(work, "archive"))
        events, comms = check_against_stats(trace, anchor)
        if CHECK == "every_call":
            check_every_call(events, comms)
    elif CHECK == "refuse":
        check_refusal(trace, work)
    elif CHECK == "corrupt":
        check_corrupt(trace, work)
    else:
        fail("unknown check " + CHECK)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
