#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traces one transport's calls (trace_transport_calls_program MODE) and checks the trace exactly:
records per function and rank (amp-trace dump), the .meta counts of the calls DUMPI cannot record and
the one stderr line about them, point-to-point messages and bytes (amp-trace stats, derived types
included), amp-trace check (clean, or only the calls SST-macro 16.0 does not implement). With
AMP_DUMPI2ASCII: sst-dumpi's dumpi2ascii reads every rank exactly as `amp-trace dump --dumpi2ascii`
prints it; datatype: a rank file cut short and repaired keeps its message bytes. With AMP_SSTMAC: SST-macro replays the
trace, or aborts on the call this test expects.
Exit 77 when the MPI lacks the mode (partitioned needs MPI 4).
Usage: test_transport_trace.py MODE --mpiexec M [--mpiexec-flags F] --np N --exe PROGRAM
                               --amp-trace T --params SSTMAC_PARAMS_DIR --workdir W"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import failure, launcher_parser  # noqa: E402
from amp_tools import launch

SKIP = 77
fail = failure("test_transport_trace")
COMMON = {"MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Finalize": 1}

# Records per rank, by mode (the program's fixed call counts).
RECORDS = {
    "persistent": {"MPI_Send_init": 4, "MPI_Recv_init": 4, "MPI_Startall": 4, "MPI_Waitall": 4,
                   "MPI_Request_free": 8},
    "pscw": {"MPI_Win_create": 2, "MPI_Comm_group": 1, "MPI_Group_incl": 1, "MPI_Win_post": 6, "MPI_Win_start": 6,
             "MPI_Put": 12, "MPI_Win_complete": 6, "MPI_Win_wait": 6, "MPI_Group_free": 2, "MPI_Win_free": 2},
    "datatype": {"MPI_Type_vector": 1, "MPI_Type_create_hvector": 1, "MPI_Type_indexed": 1,
                 "MPI_Type_create_indexed_block": 1, "MPI_Type_create_hindexed": 1, "MPI_Type_create_resized": 1,
                 "MPI_Get_address": 2, "MPI_Type_create_struct": 1, "MPI_Type_commit": 7, "MPI_Isend": 14,
                 "MPI_Irecv": 14, "MPI_Waitall": 2, "MPI_Type_free": 7},
    "indexed": {"MPI_Type_vector": 1, "MPI_Type_indexed": 1, "MPI_Type_commit": 2, "MPI_Isend": 2, "MPI_Irecv": 2,
                "MPI_Waitall": 1, "MPI_Type_free": 2},
    "partitioned": {"MPI_Recv_init": 1, "MPI_Send_init": 1, "MPI_Startall": 2, "MPI_Waitall": 2,
                    "MPI_Request_free": 2},
    "neighbor": {},
}
# Calls with no DUMPI record, per rank, in the order libamp_dumpi lists them; None = the polls the
# program reports.
UNRECORDED_ORDER = ["MPI_Psend_init", "MPI_Precv_init", "MPI_Pready", "MPI_Pready_range", "MPI_Parrived",
                    "MPI_Dist_graph_create_adjacent", "MPI_Ineighbor_alltoallv", "MPI_Win_lock_all",
                    "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_sync", "MPI_Start", "MPI_Startall",
                    "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Testall",
                    "MPI_Testany", "MPI_Testsome", "MPI_Request_free", "MPI_Comm_free"]
UNRECORDED = {
    "partitioned": {"MPI_Psend_init": 1, "MPI_Precv_init": 1, "MPI_Pready": 8, "MPI_Parrived": None,
                    "MPI_Start": 2, "MPI_Wait": 1, "MPI_Test": None, "MPI_Request_free": 2},
    "neighbor": {"MPI_Dist_graph_create_adjacent": 1, "MPI_Ineighbor_alltoallv": 3, "MPI_Wait": 3,
                 "MPI_Comm_free": 1},
}
# Point-to-point messages and bytes per rank (amp-trace stats): persistent 2 x 4 exchanges x 16
# doubles; datatype 7 types x 2 exchanges, 53 doubles per exchange; indexed 8 + 6 doubles;
# partitioned: the recorded pair.
MESSAGES = {"persistent": (8, 8 * 128), "pscw": (0, 0), "datatype": (14, 2 * 53 * 8), "indexed": (2, 14 * 8),
            "partitioned": (2, 2 * 128),
            "neighbor": (0, 0)}
# What SST-macro 16.0 does with the trace: None = replays it; else the first call it aborts on
# ("DUMPI callback on_<call> not implemented"). amp-trace check must name exactly UNREPLAYABLE's calls.
REPLAY_STOPS_AT = {"persistent": None, "pscw": "MPI_Win_create", "datatype": "MPI_Type_create_hvector", "indexed": None,
                   "partitioned": None, "neighbor": None}
UNREPLAYABLE = {
    "pscw": {"MPI_Win_create", "MPI_Win_post", "MPI_Win_start", "MPI_Put", "MPI_Win_complete", "MPI_Win_wait",
             "MPI_Win_free"},
    "datatype": {"MPI_Type_create_hvector", "MPI_Type_create_indexed_block", "MPI_Type_create_hindexed",
                 "MPI_Type_create_resized", "MPI_Type_create_struct"},
}


def run(command, what, timeout=100, **kwargs):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not finish in {timeout} s: {' '.join(command)}")


def record_counts(amp_trace, path):
    dump = run([amp_trace, "dump", path], "amp-trace dump")
    if dump.returncode != 0:
        fail(f"amp-trace dump {path} failed: {dump.stderr.strip()}")
    return collections.Counter(line.split(" ", 1)[0] for line in dump.stdout.splitlines()), dump.stdout


def main():
    parser = launcher_parser()
    parser.add_argument("mode", choices=sorted(RECORDS))
    for option in ("--amp-trace", "--params", "--workdir"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    mode, np = args.mode, args.np

    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"transport-{mode}-np{np}-", dir=args.workdir)
    trace = os.path.join(work, "trace")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("AMP_TRACE_DIR", None)
    command = launch.mpiexec(args.mpiexec, np, [args.exe, mode, "--trace", trace], args.mpiexec_flags)
    traced = run(command, "the traced run", env=env)
    if traced.returncode == SKIP or "skipped:" in traced.stdout:
        print(traced.stdout.strip())
        shutil.rmtree(work)
        return SKIP
    if traced.returncode != 0:
        fail(f"traced run failed ({traced.returncode}): {traced.stdout.strip()[-400:]} {traced.stderr.strip()[-800:]}")

    bins = sorted(glob.glob(os.path.join(trace, "*.bin")))
    metas = glob.glob(os.path.join(trace, "*.meta"))
    if len(bins) != np or len(metas) != 1:
        fail(f"expected {np} .bin files and one .meta in {trace}, found {len(bins)} and {len(metas)}")

    # Records per function and rank, exactly.
    expected_records = dict(COMMON, **RECORDS[mode])
    for rank, path in enumerate(bins):
        counts, text = record_counts(args.amp_trace, path)
        if dict(counts) != expected_records:
            fail(f"rank {rank}: records {dict(sorted(counts.items()))}, expected "
                 f"{dict(sorted(expected_records.items()))}")
        if mode == "partitioned":  # the mixed calls: Startall lists the recorded pair, Waitall nulls the rest
            startalls = re.findall(r"MPI_Request requests\[(\d+)\]=\[([^\]]*)\]", text)
            waitall = [m for m in re.findall(r"^MPI_Waitall .*$", text, re.M)]
            if not all("int count=2 " in line for line in re.findall(r"^MPI_Startall .*$", text, re.M)):
                fail(f"rank {rank}: a mixed MPI_Startall is not recorded with the 2 recorded requests only")
            if not re.search(r"requests\[4\]=\[\d+, \d+, 1, 1\]", waitall[0]):
                fail(f"rank {rank}: the mixed MPI_Waitall should list the partitioned requests as 1: {waitall[0]}")
            del startalls

    # Unrecorded calls: .meta lines (sums over ranks) and the stderr line.
    polls = {"MPI_Parrived": 0, "MPI_Test": 0}
    for match in re.finditer(r"rank \d+ polls: parrived=(\d+) test=(\d+)", traced.stdout):
        polls["MPI_Parrived"] += int(match.group(1))
        polls["MPI_Test"] += int(match.group(2))
    expected_unrecorded = {name: (polls[name] if n is None else n * np)
                           for name, n in UNRECORDED.get(mode, {}).items()}
    expected_unrecorded = {name: n for name, n in expected_unrecorded.items() if n != 0}
    meta = dict(line.split("=", 1) for line in open(metas[0]).read().splitlines() if "=" in line)
    got_unrecorded = {key[len("amp_unrecorded_"):]: int(v) for key, v in meta.items()
                      if key.startswith("amp_unrecorded_") and key != "amp_unrecorded_total"}
    total = sum(expected_unrecorded.values())
    if got_unrecorded != expected_unrecorded or meta.get("amp_unrecorded_total") != str(total):
        fail(f".meta unrecorded counts {got_unrecorded} total {meta.get('amp_unrecorded_total')}, "
             f"expected {expected_unrecorded} total {total}")
    lines = [line for line in traced.stderr.splitlines() if line.startswith("amp-dumpi:")]
    listed = ", ".join(f"{name} {expected_unrecorded[name]}" for name in UNRECORDED_ORDER
                       if name in expected_unrecorded)
    expected_lines = [f"amp-dumpi: {total} calls with no DUMPI record are not in the trace ({listed})"] if total else []
    if lines != expected_lines:
        fail(f"stderr lines {lines}, expected {expected_lines}")

    info = run([args.amp_trace, "info", trace], "amp-trace info")
    shown = re.search(r"calls with no DUMPI record, not in the trace \(all ranks, from the .meta\): (\d+)", info.stdout)
    if info.returncode != 0 or (int(shown.group(1)) if shown else 0) != total:
        fail(f"amp-trace info does not show the {total} unrecorded calls: {info.stdout.strip()[-300:]}")

    # Messages and bytes, derived datatypes sized from the sizes block.
    stats = run([args.amp_trace, "stats", "--json", trace], "amp-trace stats")
    p2p = json.loads(stats.stdout)["point_to_point"] if stats.returncode == 0 else None
    messages, message_bytes = MESSAGES[mode]
    if p2p is None or (p2p["messages"], p2p["bytes"]) != (messages * np, message_bytes * np):
        fail(f"amp-trace stats: {p2p or stats.stderr.strip()}, expected {messages * np} messages, {message_bytes * np} "
             "bytes")

    if mode == "datatype":  # repair rebuilds the derived types' sizes from their constructor records
        cut = os.path.join(work, "cut")
        shutil.copytree(trace, cut)
        damaged = sorted(glob.glob(os.path.join(cut, "*.bin")))[0]
        with open(damaged, "r+b") as f:  # lose the tail (footer, sizes, index) and the last records
            f.truncate(os.path.getsize(damaged) - 2700)
        repaired = run([args.amp_trace, "repair", damaged], "amp-trace repair")
        again = run([args.amp_trace, "stats", "--json", cut], "amp-trace stats")
        both_ran = repaired.returncode == 0 and again.returncode == 0
        p2p_again = json.loads(again.stdout)["point_to_point"] if both_ran else None
        if p2p_again is None or (p2p_again["messages"], p2p_again["bytes"]) != (p2p["messages"], p2p["bytes"]):
            fail(f"after amp-trace repair: {p2p_again or repaired.stdout + repaired.stderr}, expected {p2p}")

    # amp-trace check: clean, or exactly the calls SST-macro does not implement.
    check = run([args.amp_trace, "check", "--json", trace], "amp-trace check")
    findings = json.loads(check.stdout)["findings"] if check.returncode in (0, 1) else None
    if findings is None:
        fail(f"amp-trace check could not read the trace: {check.stderr.strip()}")
    # One unreplayable_call finding per call and rank; the JSON lists at most 20 per kind, counts all.
    expected_calls = UNREPLAYABLE.get(mode, set())
    counts = {kind: n for kind, n in json.loads(check.stdout)["counts"].items() if n}
    named = {f["call"] for f in findings if f["kind"] == "unreplayable_call"}
    expected_counts = {"unreplayable_call": len(expected_calls) * np} if expected_calls else {}
    if (counts != expected_counts or not named <= expected_calls
            or (len(expected_calls) * np <= 20 and named != expected_calls)):
        fail(f"amp-trace check: finding counts {counts} (expected {expected_counts}), unreplayable {sorted(named)} "
             f"(expected {sorted(expected_calls)}), first findings {[(f['kind'], f['message']) for f in findings[:3]]}")

    notes = []
    dumpi2ascii, sstmac = os.environ.get("AMP_DUMPI2ASCII"), os.environ.get("AMP_SSTMAC")
    if dumpi2ascii:
        for path in bins:
            theirs = run([dumpi2ascii, path], "dumpi2ascii")
            ours = run([args.amp_trace, "dump", "--dumpi2ascii", path], "amp-trace dump --dumpi2ascii")
            if theirs.returncode != 0 or theirs.stdout != ours.stdout:
                a, b = theirs.stdout.splitlines(), ours.stdout.splitlines()
                at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                fail(f"dumpi2ascii (exit {theirs.returncode}) and amp-trace dump --dumpi2ascii differ on {path} "
                     f"at line {at + 1}: {a[at] if at < len(a) else '<end>'!r} "
                     f"vs {b[at] if at < len(b) else '<end>'!r}")
        notes.append("dumpi2ascii reads it as amp-trace does")
    if sstmac:
        replay = run([sstmac, "-f", "torus.ini", "-p", f"node.app1.dumpi_metaname={metas[0]}",
                      "-p", f"node.app1.size={np}"], "SST-macro", timeout=200, cwd=args.params)
        output = replay.stdout + replay.stderr
        stops_at = REPLAY_STOPS_AT[mode]
        estimate = re.search(r"Estimated total runtime of\s+(\S+) seconds", output)
        if stops_at is None and (replay.returncode != 0 or estimate is None):
            fail(f"SST-macro replay failed (exit {replay.returncode}): {output.strip()[-600:]}")
        if stops_at is not None and (replay.returncode == 0 or f"on_{stops_at} not implemented" not in output):
            fail(f"SST-macro should stop at {stops_at}: exit {replay.returncode}, {output.strip()[-600:]}")
        notes.append(f"SST-macro replays it ({estimate.group(1)} s)" if stops_at is None
                     else f"SST-macro stops at {stops_at} (not implemented)")
    print(f"{mode} at {np} ranks: records, .meta, stderr, stats and check as expected" +
          ("; " + "; ".join(notes) if notes else ""))
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
