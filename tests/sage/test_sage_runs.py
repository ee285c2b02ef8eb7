#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs amp-sage and checks its JSON results: the checksum of every strategy at N ranks equals that of a
1-rank run, message and byte counts equal their formulas, or (--expect-failure) a one-line error."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import failure, launcher_parser  # noqa: E402
from amp_tools import launch


def run(args, np, extra, results=None):
    command = launch.mpiexec(args.mpiexec, np, [args.exe], args.mpiexec_flags)
    command += extra + ["--progress", "0"]
    if results:
        command += ["--results", results]
    return subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)


fail = failure(None)


def check_failure(args, extra):
    done = run(args, args.np, extra)
    if done.returncode == 0:
        fail("expected a non-zero exit, got 0")
    # Bad input prints nothing else; a failed verification follows the summary (whose header says amp-sage:).
    lines = [l for l in (done.stdout + done.stderr).splitlines() if "error:" in l or "Error" in l]
    if len(lines) != 1 or not re.search(args.expect_failure, lines[0]):
        fail(f"expected one error line matching '{args.expect_failure}', got: {lines}")
    print(f"ok: exit {done.returncode}, '{lines[0]}'")


def results_of(args, np, extra, folder, name):
    path = os.path.join(folder, name + ".json")
    done = run(args, np, extra, path)
    if done.returncode != 0:
        fail(f"{name}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    with open(path) as f:
        return json.load(f)


def check_runs(args, extra):
    with tempfile.TemporaryDirectory() as folder:
        reference_args = args.reference_args.split() if args.reference_args else extra
        reference = results_of(args, 1, reference_args + ["--strategy", "bspma"], folder, "reference")
        steps, nvars = reference["config"]["num_tsteps"], reference["config"]["num_vars"]
        for method in ("bspma", "onebyone", "svaf", "svcp"):
            r = results_of(args, args.np, extra + ["--strategy", method], folder, method)
            if not r["verification"]["passed"]:
                fail(f"{method}: verification failed: {r['verification']}")
            if r["checksum"] != reference["checksum"]:
                fail(f"{method} at {args.np} ranks: checksum {r['checksum']} != {reference['checksum']} at 1 rank")
            p = r["partition"]
            per_message = {"bspma": steps * p["links_total"], "onebyone": steps * p["links_total"],
                           "svaf": steps * nvars * p["links_total"],
                           "svcp": steps * nvars * p["send_runs_total"]}[method]
            if r["messages"]["total"] != per_message:
                fail(f"{method}: {r['messages']['total']} messages, formula gives {per_message} ({p})")
            if r["bytes"]["total"] != steps * nvars * p["send_cells_total"] * 8:
                fail(f"{method}: {r['bytes']['total']} bytes != steps*vars*send_cells*8 ({p})")
            if sum(row["count"] for row in r["messages"]["size_histogram"]) != per_message:
                fail(f"{method}: histogram does not add up to the message count")
            if args.expect_links is not None and (p["links_total"], p["send_runs_total"]) != tuple(args.expect_links):
                fail(f"{method}: links and runs {p['links_total']}, {p['send_runs_total']} != {args.expect_links}")
            if args.np > 1 and p["neighbour_ranks"]["min"] < 1:
                fail(f"{method}: a rank without neighbours at {args.np} ranks")
            print(f"ok: {method} at {args.np} ranks: checksum {r['checksum']}, {per_message} messages, "
                  f"neighbours {p['neighbour_ranks']}")


def main():
    parser = launcher_parser(description=__doc__)
    parser.add_argument("--timeout", type=int, default=100)
    parser.add_argument("--expect-failure", help="regex the single error line must match")
    parser.add_argument("--reference-args", help="amp-sage arguments of the 1-rank reference (default: the same)")
    parser.add_argument("--expect-links", type=int, nargs=2, help="expected links_total and send_runs_total")
    args, extra = parser.parse_known_args()
    if extra and extra[0] == "--":
        extra = extra[1:]
    if args.expect_failure:
        check_failure(args, extra)
    else:
        check_runs(args, extra)


if __name__ == "__main__":
    main()
