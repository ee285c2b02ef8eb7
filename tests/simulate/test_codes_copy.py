#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The copy CODES replays (`amp-trace codes`, src/amp/trace/codes/) of real traces: amp-ghost and amp-sage recorded at 2
ranks, amp-nobel at 4 (its communicators made with Comm_split and Comm_dup, its messages on them), and amp-ghost
synthesized at 8 ranks. Each copy must hold the original's point-to-point messages and bytes (`amp-trace stats` of
the original), be a valid DUMPI trace whose every message is matched (`amp-trace check` of the copy: clean), and
hold those messages plus the collectives' as the printed line counts them (`amp-trace stats` of the copy). A copy
into an existing folder is refused in one line, exit 2, writing nothing.

With `replay` (AMP_CODES naming model-net-mpi-replay, else skipped): CODES replays every copy with the sequential
command docs/TRACE_SIMULATORS.md shows (CODES) on a 2x2x2 torus (tests/simulate/fixtures/codes-torus-2x2x2.conf),
exit 0, no unmatched message, its `Total bytes sent` the line's messages and collectives together; the synthesized
trace with the documented optimistic command on 2 simulator ranks gives the sequential `max runtime` to the last
digit.

Usage: test_codes_copy.py MPIEXEC BUILD ROOT WORKDIR [replay]
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from amp_tools import launch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import checked, failure  # noqa: E402

LINE = re.compile(r"wrote .*: (\d+) rank files, (\d+) records \(from \d+\): (\d+) messages of (\d+) bytes, (\d+) "
                  r"collectives as (\d+) messages of (\d+) bytes; paused time taken out: up to ([0-9.]+) s per rank; "
                  r"replay with --num_net_traces=(\d+) --workload_file=(\S+)$")
SMALL = {"ghost": ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "3", "--num_tsteps", "2"],
         "sage": ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "3", "--num_tsteps", "2"],
         "nobel": ["--nbx", "4", "--nby", "4", "--nbz", "2", "--block", "4", "--max_level", "1", "--num_vars", "2",
                   "--num_tsteps", "4", "--amr_interval", "2"]}

fail = failure(None)
run = checked(fail)


def point_to_point(amp_trace, trace):
    stats = json.loads(run([amp_trace, "stats", "--json", trace]))
    return stats["point_to_point"]["messages"], stats["point_to_point"]["bytes"]


def copied(amp_trace, original, copy, label):
    """The copy's counts from its line, checked against the original and against the copy itself."""
    line = run([amp_trace, "codes", original, copy]).strip()
    match = LINE.match(line)
    if not match:
        fail(f"{label}: amp-trace codes printed {line!r}")
    ranks, _, messages, size, collectives, collective_messages, collective_bytes = map(int, match.groups()[:7])
    if (messages, size) != point_to_point(amp_trace, original) or messages == 0:
        fail(f"{label}: the copy holds {messages} messages of {size} bytes, the original "
             f"{point_to_point(amp_trace, original)}")
    if point_to_point(amp_trace, copy) != (messages + collective_messages, size + collective_bytes):
        fail(f"{label}: the copy's own records hold {point_to_point(amp_trace, copy)} messages and bytes, its line "
             f"{messages} + {collective_messages} and {size} + {collective_bytes}")
    checked_copy = json.loads(run([amp_trace, "check", "--json", copy]))
    if checked_copy["total"] != 0 or checked_copy["matched"] != checked_copy["messages"]:
        fail(f"{label}: amp-trace check of the copy: {checked_copy['counts']}, {checked_copy['matched']} of "
             f"{checked_copy['messages']} matched")
    if collectives == 0:
        fail(f"{label}: no collective in the copy (every proxy makes communicators and reduces)")
    print(f"{label}: {line}")
    return {"ranks": ranks, "bytes": size + collective_bytes, "prefix": match.group(10), "label": label}


def documented_commands(root):
    """{synch: the words of the replay command docs/TRACE_SIMULATORS.md shows for it} (the CODES section's block)."""
    with open(os.path.join(root, "docs", "TRACE_SIMULATORS.md")) as f:
        text = f.read()
    section = text[text.index("## CODES (`model-net-mpi-replay`"):]
    block = section[section.index("```sh") + 5:section.index("```", section.index("```sh") + 5)]
    commands = {}
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if "model-net-mpi-replay" in words:
            synch = next(int(w.split("=")[1]) for w in words if w.startswith("--synch="))
            commands[synch] = words
    if sorted(commands) != [1, 3]:
        fail(f"docs/TRACE_SIMULATORS.md's CODES block shows replay commands for --synch {sorted(commands)}, "
             "not 1 and 3")
    return commands


def replayed(command, codes, mpiexec, conf, workdir, copy):
    """CODES' `max runtime` (ns) of a copy run with a documented command (N, PREFIX and CONF filled in), after
    checking its exit, its matching and its bytes."""
    fill = {"model-net-mpi-replay": codes, "mpiexec": mpiexec, "CONF": conf,
            "--num_net_traces=N": f"--num_net_traces={copy['ranks']}",
            "--workload_file=PREFIX": f"--workload_file={copy['prefix']}"}
    command = [fill.get(word, word) for word in command]
    if any(word in ("N", "PREFIX") or word.endswith(("=N", "=PREFIX")) for word in command):
        fail(f"a placeholder of the documented command was not filled: {command}")
    where = os.path.join(workdir, f"replay-{os.path.basename(os.path.dirname(copy['prefix']))}-{len(command)}")
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    done = subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    sent = re.search(r"Total bytes sent (\d+) recvd (\d+)", out)
    runtime = re.search(r"max runtime ([0-9.]+) ns", out)
    if done.returncode != 0 or not sent or not runtime or "unmatched" in out:
        fail(f"{copy['label']}: {' '.join(command)} exited {done.returncode}: {out.strip()[-400:]}")
    if int(sent.group(1)) != copy["bytes"] or int(sent.group(2)) != copy["bytes"]:
        fail(f"{copy['label']}: CODES sent {sent.group(1)} and received {sent.group(2)} bytes, the copy holds "
             f"{copy['bytes']}")
    return runtime.group(1)


def main():
    mpiexec, build, root, workdir = sys.argv[1:5]
    replay = sys.argv[5:] == ["replay"]
    codes = os.environ.get("AMP_CODES")
    if replay and not codes:
        print("SKIP: AMP_CODES is not set")
        sys.exit(77)
    amp_trace = os.path.join(build, "bin", "amp-trace")
    base = os.path.join(workdir, "codes-copy-replay" if replay else "codes-copy")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    copies = []
    for proxy, ranks in (("ghost", 2), ("sage", 2), ("nobel", 4)):
        original = os.path.join(base, f"{proxy}-recorded")
        run(launch.mpiexec(mpiexec, ranks, [os.path.join(build, "bin", f"amp-{proxy}"), *SMALL[proxy], "--strategy",
                                            "svaf", "--trace", original]), env=env)
        copies.append(copied(amp_trace, original, os.path.join(base, f"{proxy}-recorded-codes"),
                             f"{proxy} recorded at {ranks} ranks"))
    synthesized = os.path.join(base, "ghost-synthesized")
    run([os.path.join(build, "bin", "amp-ghost"), *SMALL["ghost"], "--strategy", "svaf", "--synthesize", synthesized,
         "--ranks", "8", "--compute_seconds", "1e-4"], env=env)
    copies.append(copied(amp_trace, synthesized, os.path.join(base, "ghost-synthesized-codes"),
                         "ghost synthesized at 8 ranks"))
    if not replay:
        existing = os.path.join(base, "exists")
        os.makedirs(existing)
        done = subprocess.run([amp_trace, "codes", synthesized, existing], capture_output=True, text=True)
        lines = done.stderr.strip().splitlines()
        if done.returncode != 2 or len(lines) != 1 or os.listdir(existing):
            fail(f"a copy into an existing folder: exit {done.returncode}, {lines}, {os.listdir(existing)}")
        return
    conf = os.path.join(root, "tests", "simulate", "fixtures", "codes-torus-2x2x2.conf")
    commands = documented_commands(root)
    for copy in copies:
        print(f"{copy['label']}: CODES max runtime {replayed(commands[1], codes, mpiexec, conf, base, copy)} ns")
    sequential = replayed(commands[1], codes, mpiexec, conf, base, copies[-1])
    optimistic = replayed(commands[3], codes, mpiexec, conf, base, copies[-1])
    if optimistic != sequential:
        fail(f"{copies[-1]['label']}: optimistic on 2 ranks {optimistic} ns, sequential {sequential} ns")
    print(f"{copies[-1]['label']}: sequential and optimistic on 2 simulator ranks both {sequential} ns")


if __name__ == "__main__":
    main()
