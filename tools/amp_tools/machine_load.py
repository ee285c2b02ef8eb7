#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Says, in one line per run, when other work shared the cores during a proxy run, from the results
JSON's `machine_load` (older results without it are passed over in silence: nothing was measured).

Rule: a run shared its cores when other processes took more than a tenth of the node's CPU time
during it, i.e. other_cpu_seconds > 0.1 x wall_seconds x cores. The load average is only reported:
at the start of a study's run it still holds the previous run's ranks, so it cannot tell others apart.

Prints the warnings and exits 0; a file that is missing or not JSON is one line and exit 2.
"""
import sys

from amp_tools import command_line
from amp_tools import results

SHARE = 0.1  # of the node's CPU time (wall_seconds x cores) that other processes may take unremarked
WROTE_RESULTS = (0, 1, 5)  # a proxy's exit codes after which its results file is its own: ok, not verified, no trace


def shared_cores(run):
    """The warning text when the run shared its cores with other work, else None."""
    load = results.machine_load(run)
    if load is None:
        return None
    try:
        other, wall, cores = float(load["other_cpu_seconds"]), float(load["wall_seconds"]), int(load["cores"])
    except (KeyError, TypeError, ValueError):
        return None
    if wall <= 0 or cores <= 0 or other <= SHARE * wall * cores:
        return None
    start = load.get("load_average_start")
    at_start = f", load average {start:.2f} at the start" if isinstance(start, (int, float)) else ""
    return (f"other work shared the cores: other processes took {other:.2f} s of CPU during the "
            f"{wall:.2f} s run on {cores} cores ({other / (wall * cores):.0%} of the node{at_start}); "
            f"its times are noisy")


def warn(path, prefix="amp"):
    """Prints '<prefix>: warning: <path>: ...' when the run at `path` shared its cores; returns the text or None."""
    try:
        text = shared_cores(results.read(path))
    except command_line.BadInput:
        return None
    say(path, text, prefix)
    return text


def say(path, text, prefix="amp"):
    """Prints the warning `text` of the run at `path`, if any."""
    if text:
        print(f"{prefix}: warning: {path}: {text}", file=sys.stderr)


def main():
    parser = command_line.Parser("machine_load", __doc__)
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="a proxy's results file")
    parser.add_argument("--shown-as", metavar="NAME", help="the name a warning gives the run instead of its file "
                                                           "(a results file that is removed afterwards)")
    parser.add_argument("--exit-status", type=int, metavar="N",
                        help="the run's exit status: its results are read only where it wrote them (0, 1, 5); a run "
                             "refused at start-up wrote none, and a file at that name is someone else's")
    options = parser.parse_args()
    if options.exit_status is not None and options.exit_status not in WROTE_RESULTS:
        return 0
    for path in options.results:
        try:
            say(options.shown_as or path, shared_cores(results.read(path)))
        except command_line.BadInput as e:
            command_line.refuse("machine_load", e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
