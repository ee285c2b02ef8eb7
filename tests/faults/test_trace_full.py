#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A trace on a filesystem that fills up (a 64 KiB tmpfs, smaller than the trace): the run's answer is
good and its results file is written, but the trace is not, so the exit is 5 and every line on stderr
is the tracing library's one line per rank naming its file. The incomplete trace (.meta and .bin
files) is left. Real run at 2 ranks. A synthesis of 2 ranks writes into a staging folder beside its
DIR: it exits 5 with one more line from the proxy and leaves nothing (no DIR, no staging folder, no
results file), since a synthesis can simply be run again."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

RUN = ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2", "--num_tsteps", "300", "--strategy", "svcp",
       "--progress", "0"]
LIBRARY_LINE = (r"amp_dumpi: writing trace file '{}/dumpi-[0-9.]+-000[01]\.bin' failed: "
                r"No space left on device; the trace is incomplete")


def check(done, traces, results, extra_lines, what):
    if done.returncode != 5:
        fr.fail(f"{what}: expected exit 5, got {done.returncode}: {fr.lines_of(done)}")
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    library = [line for line in errors if re.fullmatch(LIBRARY_LINE.format(re.escape(traces)), line)]
    if not library or len(errors) != len(library) + len(extra_lines) or any(e not in errors for e in extra_lines):
        fr.fail(f"{what}: expected the library's line per failed "
                f"rank{' and ' + str(extra_lines) if extra_lines else ''}, got {errors}")
    names = os.listdir(traces)
    if not any(n.endswith(".meta") for n in names) or not any(n.endswith(".bin") for n in names):
        fr.fail(f"{what}: the incomplete trace was not left: {names}")
    with open(results) as f:
        json.load(f)
    print(f"{what}: exit 5, {len(library)} library line(s), results written, incomplete trace left")


def main():
    a = fr.parser(__doc__).parse_args()
    with fr.small_filesystem() as mount, tempfile.TemporaryDirectory() as folder:
        traces = os.path.join(mount, "real")
        results = os.path.join(folder, "real.json")
        done = fr.run(a, "amp-ghost", RUN + ["--trace", traces, "--results", results], ranks=2)
        check(done, traces, results, [], "real run")
    with fr.small_filesystem() as mount, tempfile.TemporaryDirectory() as folder:
        traces = os.path.join(mount, "synthesis")
        results = os.path.join(folder, "synthesis.json")
        done = fr.run(a, "amp-ghost", RUN + ["--synthesize", traces, "--ranks", "2", "--compute_seconds", "0.001",
                                             "--results", results], ranks=None)
        staged = re.escape(mount) + r"/\.synthesis\.partial-[0-9]+"
        errors = [line for line in done.stderr.splitlines() if line.strip()]
        library = [line for line in errors if re.fullmatch(LIBRARY_LINE.format(staged), line)]
        line = (f"amp-ghost: error: the synthesized trace is incomplete (see the amp_dumpi lines above); nothing was "
                f"left under '{traces}'")
        if done.returncode != 5 or not library or errors != library + [line]:
            fr.fail(f"synthesis: expected exit 5, the library's line per failed rank and {line!r}; got exit "
                    f"{done.returncode}: {errors}")
        fr.expect_files(mount, [], "synthesis: nothing left on the full filesystem")
        fr.expect_files(folder, [], "synthesis: no results file")
        print(f"synthesis: exit 5, {len(library)} library line(s), nothing left")

if __name__ == "__main__":
    main()
