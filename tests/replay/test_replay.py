#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Replays a proxy's trace in the real clients: runs `mpiexec -n NP EXE ARGS --trace DIR`, then
sst-dumpi's dumpi2ascii must read every rank's file (and print exactly what `amp-trace dump --dumpi2ascii`
prints), `amp-trace check` must find nothing and SST-macro
must replay the trace on a torus (exit 0, "Estimated total runtime").
With --unreplayable CALL[,CALL...] the trace holds calls SST-macro does not implement: `amp-trace check`
must name every CALL as unreplayable (exit 1) and SST-macro must refuse the first ("... CALL not
implemented"), the first it meets.
With --unrecorded CALL[,CALL...] the run makes calls that have no DUMPI record (partitioned and
neighbourhood transports): the traced run must say so in one stderr line naming each CALL, the .meta
must count them (amp_unrecorded_total), and what was recorded must still pass all of the above.
The real clients come from the environment: AMP_SSTMAC (the sstmac binary) and AMP_DUMPI2ASCII;
without them the test is skipped (exit 77).
Usage: test_replay.py --mpiexec M --mpiexec-flags F --np N --exe EXE --amp-trace T --params DIR
                       --workdir W [--unreplayable CALL] [--unrecorded CALL] [PROXY ARGS...]"""
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
fail = failure("test_replay")


def run(command, what, timeout=200, **kwargs):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not finish in {timeout} s: {' '.join(command)}")


def last_lines(text, n=6):
    return "\n".join(text.strip().splitlines()[-n:])


def main():
    parser = launcher_parser()
    for option in ("--amp-trace", "--params", "--workdir"):
        parser.add_argument(option, required=True)
    parser.add_argument("--unreplayable", default=None)
    parser.add_argument("--unrecorded", default=None)
    parser.add_argument("--synthesize", action="store_true",
                        help="write the NP-rank trace with --synthesize in one process instead of mpiexec")
    args, proxy_args = parser.parse_known_args()

    sstmac, dumpi2ascii = os.environ.get("AMP_SSTMAC"), os.environ.get("AMP_DUMPI2ASCII")
    if not sstmac or not dumpi2ascii:
        print("skipped: set AMP_SSTMAC (sstmac) and AMP_DUMPI2ASCII (dumpi2ascii) to run the replay tests")
        return SKIP
    for tool in (sstmac, dumpi2ascii):
        if not os.access(tool, os.X_OK):
            fail(f"{tool} is not an executable")

    name = os.path.basename(args.exe)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"{name}-np{args.np}-", dir=args.workdir)
    trace = os.path.join(work, "trace")
    command = launch.mpiexec(args.mpiexec, args.np, [args.exe] + proxy_args + ["--trace", trace], args.mpiexec_flags)
    if args.synthesize:
        command = [args.exe] + proxy_args + ["--synthesize", trace, "--ranks", str(args.np)]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("AMP_TRACE_DIR", None)
    traced = run(command, "the traced run", env=env)
    if traced.returncode != 0:
        fail(f"traced run failed ({traced.returncode}): {last_lines(traced.stderr)}")

    bins = sorted(glob.glob(os.path.join(trace, "*.bin")))
    metas = glob.glob(os.path.join(trace, "*.meta"))
    if len(bins) != args.np or len(metas) != 1:
        fail(f"expected {args.np} .bin files and one .meta in {trace}, found {len(bins)} and {len(metas)}")
    if args.unrecorded:
        notes = [l for l in traced.stderr.splitlines() if "with no DUMPI record are not in the trace" in l]
        missing = [c for c in args.unrecorded.split(",") if not notes or f"{c} " not in notes[0]]
        if len(notes) != 1 or missing:
            fail(f"expected one stderr line naming the unrecorded {args.unrecorded}, got {notes} (missing {missing})")
        with open(metas[0]) as f:
            total = re.search(r"^amp_unrecorded_total=(\d+)$", f.read(), re.M)
        if not total or int(total.group(1)) == 0:
            fail(f"{metas[0]} does not count the unrecorded calls (amp_unrecorded_total)")
    for path in bins:
        read = run([dumpi2ascii, path], "dumpi2ascii")
        if read.returncode != 0:
            fail(f"dumpi2ascii cannot read {path} ({read.returncode}): {last_lines(read.stderr)}")
        ours = run([args.amp_trace, "dump", "--dumpi2ascii", path], "amp-trace dump")
        if ours.stdout != read.stdout:
            theirs_lines, our_lines = read.stdout.splitlines(), ours.stdout.splitlines()
            line = next((i for i, (a, b) in enumerate(zip(theirs_lines, our_lines)) if a != b),
                        min(len(theirs_lines), len(our_lines)))
            fail(f"amp-trace dump --dumpi2ascii differs from dumpi2ascii on {path} at line {line + 1}")

    check = run([args.amp_trace, "check", "--json", trace], "amp-trace check")
    replay = run([sstmac, "-f", "torus.ini", "-p", f"node.app1.dumpi_metaname={metas[0]}",
                  "-p", f"node.app1.size={args.np}"], "SST-macro", cwd=args.params)
    replay_output = replay.stdout + replay.stderr

    if args.unreplayable:
        calls = args.unreplayable.split(",")
        findings = json.loads(check.stdout)["findings"] if check.returncode == 1 else []
        unreplayable = {f["call"] for f in findings if f["kind"] == "unreplayable_call"}
        named = [c for c in calls if c in unreplayable]
        others = [f for f in findings if f["kind"] != "unreplayable_call"]
        if check.returncode != 1 or named != calls or others:
            fail(f"amp-trace check should name {', '.join(calls)} as unreplayable (exit 1) and find nothing else, "
                 f"got exit {check.returncode}, naming {named}, other findings {others[:3]}: {check.stderr.strip()}")
        if replay.returncode == 0 or f"{calls[0]} not implemented" not in replay_output:
            fail(f"SST-macro was expected to refuse {calls[0]}: exit {replay.returncode}, {last_lines(replay_output)}")
        print(f"{name} {' '.join(proxy_args)} at {args.np} ranks: read alike by dumpi2ascii and amp-trace; amp-trace "
              f"check names {', '.join(calls)} as unreplayable and SST-macro stops at {calls[0]}")
    else:
        if check.returncode != 0:
            found = json.loads(check.stdout)["findings"] if check.returncode == 1 else []
            lines = [f"rank {f['rank']} record {f['record']} {f['call']}: {f['message']}" for f in found[:8]]
            fail(f"amp-trace check found problems (exit {check.returncode}): {check.stderr.strip()}\n"
                 + "\n".join(lines))
        estimate = re.search(r"Estimated total runtime of\s+(\S+) seconds", replay_output)
        if replay.returncode != 0 or estimate is None:
            fail(f"SST-macro replay failed (exit {replay.returncode}):\n{last_lines(replay_output)}")
        print(f"{name} {' '.join(proxy_args)} at {args.np} ranks: read alike by dumpi2ascii and amp-trace, clean in "
              "amp-trace check, "
              f"SST-macro torus estimate {estimate.group(1)} s")
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
