#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The tables of docs/VALIDATION.md sections 1-3, printed from a study folder's simulations by
amp_tools.validation_summary (the one place that computes their rows; it also writes the committed summary,
docs/validation/<study>.json, that VALIDATION.md quotes them from).

  bench/simulate/seed_tables.py profile runs/cielo-profile-<stamp>
  bench/simulate/seed_tables.py swap runs/cielo-network-swap-<stamp>
  bench/simulate/seed_tables.py aces runs/aces-routing-<stamp>
(with the report's Python and matplotlib: /usr/bin/python3 on Debian). It reads the folder as `./amp
report` does (report_simulation.load) and groups the routing study's variants as its figure does.

Where the study made one-step companions (steady_state) every time is a steady step's (steps 2..K).
profile: per proxy, strategy and simulator, the steady profile (compute / point-to-point / collectives,
percent), the time per step and the set-up, the point-to-point messages per minute per rank (over the
simulated time) and their mean size, and the replays' wall time.
swap: per proxy, strategy, rank count and simulator, the predicted time per step on xt6-seastar and on
xe6-gemini (the files' own machines) and the speed-up, with the replays' wall time; a Gemini with its two
link widths (--set dimension_bandwidth, SST-macro) where one was simulated; a time marked (FIFO) came from
SST-macro's FIFO NIC queue, its round-robin replay having stopped short (docs/TRACE_SIMULATORS.md).
aces: per strategy, ranks per NIC and global links per pair, minimal's time and valiant's and UGAL's (median
[min - max] over seeds), their mean hops per byte, the busiest variant's mean utilization of the global and
node links, and SST-macro's start-up left out.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from amp_tools import validation_summary  # noqa: E402


def profile(folder):
    """The profile table, printed as the summary tool prints it (amp_tools.validation_summary: the one place
    that computes its rows; VALIDATION.md quotes it from the study's committed summary)."""
    print("\n".join(validation_summary.profile_rows(validation_summary.summarize(folder), "xt6-seastar")))


def swap(folder):
    """The swap table, as amp_tools.validation_summary prints it."""
    print("\n".join(validation_summary.swap_rows(validation_summary.summarize(folder))))


def aces(folder):
    """The routing table, as amp_tools.validation_summary prints it."""
    print("\n".join(validation_summary.aces_rows(validation_summary.summarize(folder))))


if __name__ == "__main__":
    {"profile": profile, "swap": swap, "aces": aces}[sys.argv[1]](sys.argv[2])
