#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""--ranks, --rank and --compute_seconds as a user types them, past what their types once held:
2^31 ranks and more, in --plan-only and --synthesize, are "at most 16777216" with the
number as given (not wrapped to -2147483648); --compute_seconds past the largest double is "at most 3600
seconds"; -0 synthesizes a model of 0 s (not "-0 s"); 1e-320, below the smallest normal double, is a
number (not "not a number") and synthesizes. Every refusal: exit 2, the one line, nothing written."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

TINY = ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--progress", "0"]
SYNTH = TINY + ["--synthesize", "{tmp}/s"]

# (what, proxy, arguments, the line): each run alone, as --plan-only and --synthesize are
REFUSALS = [
    ("2^31 ranks, plan", "amp-ghost", ["--plan-only", "--ranks", "2147483648", "--rank", "0"],
     "amp-ghost: error: --ranks must be at most 16777216 (got 2147483648)"),
    ("2^31 ranks, sage plan", "amp-sage", ["--plan-only", "--ranks", "2147483648", "--rank", "0"],
     "amp-sage: error: --ranks must be at most 16777216 (got 2147483648)"),
    ("2^31 ranks, synthesis", "amp-ghost", SYNTH + ["--ranks", "2147483648"],
     "amp-ghost: error: --ranks must be at most 16777216 (got 2147483648)"),
    ("2^32 ranks, nobel synthesis", "amp-nobel", ["--synthesize", "{tmp}/s", "--ranks", "4294967296"],
     "amp-nobel: error: --ranks must be at most 16777216 (got 4294967296)"),
    ("past 64 bits, synthesis", "amp-ghost", SYNTH + ["--ranks", "99999999999999999999"],
     "amp-ghost: error: --ranks must be at most 16777216 (got 99999999999999999999)"),
    ("below -2^63, synthesis", "amp-ghost", SYNTH + ["--ranks", "-99999999999999999999"],
     "amp-ghost: error: --ranks must be at least 1 (got -99999999999999999999)"),
    ("-2^31-1 ranks, synthesis", "amp-ghost", SYNTH + ["--ranks", "-2147483649"],
     "amp-ghost: error: --ranks must be at least 1 (got -2147483649)"),
    ("rank 2^31, plan", "amp-ghost", ["--plan-only", "--ranks", "4", "--rank", "2147483648"],
     "amp-ghost: error: --rank must be 0..3 for --ranks 4 (got 2147483648)"),
    ("compute past the largest double", "amp-ghost", SYNTH + ["--ranks", "2", "--compute_seconds", "1e400"],
     "amp-ghost: error: --compute_seconds must be at most 3600 seconds (got 1e400)"),
    ("negative compute below the smallest normal", "amp-ghost", SYNTH
     + ["--ranks", "2", "--compute_seconds", "-1e-320"],
     "amp-ghost: error: --compute_seconds must be >= 0 (got -1e-320)"),
]

# (--compute_seconds as given, the model's seconds, the summary's words)
ACCEPTED = [("-0", 0.0, "compute model: 0 s per"), ("1e-320", 1e-320, "compute model: 1e-320 s per")]


def refused(a, what, proxy, arguments, line):
    with tempfile.TemporaryDirectory() as tmp:
        done = fr.run(a, proxy, [x.format(tmp=tmp) for x in arguments], ranks=None, cwd=tmp)
        fr.expect_refusal(done, 2, line, what)
        fr.expect_files(tmp, [], f"{what}: nothing written")


def accepted(a, given, seconds, words):
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "s.json")
        done = fr.run(a, "amp-ghost", [x.format(tmp=tmp) for x in SYNTH] + ["--ranks", "2", "--compute_seconds", given,
                                                                          "--results", results], ranks=None, cwd=tmp)
        if done.returncode != 0 or words not in done.stdout:
            fr.fail(f"--compute_seconds {given}: exit {done.returncode}, {fr.lines_of(done)}, stdout {done.stdout!r}")
        with open(results) as f:
            steps = json.load(f)["synthesis"]["compute_model"]["steps"]
        if [s["seconds"] for s in steps] != [seconds] or "-0" in json.dumps(steps):
            fr.fail(f"--compute_seconds {given}: the compute model's steps are {steps}")


def main():
    a = fr.parser(__doc__).parse_args()
    for what, proxy, arguments, line in REFUSALS:
        refused(a, what, proxy, arguments, line)
    for given, seconds, words in ACCEPTED:
        accepted(a, given, seconds, words)
    print(f"OK: {len(REFUSALS)} refusals with the numbers as given; --compute_seconds -0 and 1e-320 synthesize")


if __name__ == "__main__":
    main()
