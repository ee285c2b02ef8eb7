#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes into OUT the JSON kinds the other tests only read from a pipe or a scratch folder, so that
schemas_validate_every_json_written checks them too: each proxy's --list-combinations --json and
--plan-only --results, and amp-trace check --json and stats --json of a small synthesized trace.
Each command must exit 0. One process each, no launcher: a second or so in all.

Usage: test_printed_json_written.py BUILD OUT
"""
import os
import shutil
import subprocess
import sys

SMALL = {"ghost": ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2", "--num_tsteps", "2"],
         "sage": ["--nx", "16", "--num_tsteps", "2"],
         "nobel": ["--nbx", "2", "--nby", "2", "--nbz", "2", "--max_level", "1", "--num_tsteps", "2"]}


def run(command, stdout_path=None):
    """Runs `command` (its output into stdout_path, if given); ends the test in one line if it fails."""
    with open(stdout_path or os.devnull, "w") as out:
        status = subprocess.call(command, stdout=out)
    if status != 0:
        sys.exit(f"test_printed_json_written: {' '.join(command)} exited {status}")


def main(build, out):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    binary = lambda name: os.path.join(build, "bin", name)  # noqa: E731
    for proxy, flags in SMALL.items():
        run([binary(f"amp-{proxy}"), "--list-combinations", "--json"], os.path.join(out, f"combinations-{proxy}.json"))
        run([binary(f"amp-{proxy}"), *flags, "--plan-only", "--ranks", "4", "--rank", "1",
             "--results", os.path.join(out, f"plan-only-{proxy}.json")])
    trace = os.path.join(out, "ghost-synth4.trace")
    run([binary("amp-ghost"), *SMALL["ghost"], "--synthesize", trace, "--ranks", "4", "--compute_seconds", "0.001",
         "--results", os.path.join(out, "ghost-synth4.json")])
    run([binary("amp-trace"), "check", "--json", trace], os.path.join(out, "ghost-synth4.check.json"))
    run([binary("amp-trace"), "stats", "--json", trace], os.path.join(out, "ghost-synth4.trace-stats.json"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: test_printed_json_written.py BUILD OUT")
    sys.exit(main(*sys.argv[1:]))
