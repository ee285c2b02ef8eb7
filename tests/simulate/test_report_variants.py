#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The report's spread of the seeds (tools/amp_tools/report_variants.py, report_simulation.py), on simulations written
by the test: the three valiant seeds of one variant are one point (median, min-max bar) in
<proxy>-simulated.png and one bar per strategy in <proxy>-variants.png, minimal is a bar of its own without
spread, and a folder whose networks have no variants gets no variants figure. Skips (77) without matplotlib.

Usage: test_report_variants.py ROOT WORKDIR
"""
import json
import os
import shutil
import sys

ROOT, WORKDIR = sys.argv[1], os.path.join(sys.argv[2], "report-variants")
try:
    from amp_tools import report_simulation  # noqa: E402
except ImportError as e:  # matplotlib: Debian's python3-matplotlib
    print(f"skipped: {e}")
    sys.exit(77)

STEPS = 2


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def write(path, data):
    with open(path, "w") as f:
        json.dump(data, f)


def folder_with(name, strategies, simulations):
    """A folder of one synthesized run per strategy, each simulated as `simulations` says: (overrides, seconds)."""
    folder = os.path.join(WORKDIR, name)
    os.makedirs(folder)
    for strategy, scale in strategies.items():
        base = os.path.join(folder, f"ghost-{strategy}-synth64")
        write(base + ".json", {"proxy": "amp-ghost", "mode": "synthesis",
                               "config": {"num_tsteps": STEPS, "strategy": strategy, "transport": "isend"}})
        os.makedirs(base + ".trace")
        for i, (overrides, seconds) in enumerate(simulations):
            write(os.path.join(base + ".trace", f"simulation-torus-4x4x4-{i:08x}-sstmac.json"),
                  {"ranks": 64, "network": "torus-4x4x4", "simulator": "sstmac", "network_overrides": overrides,
                   "predicted_seconds": seconds * scale, "measured_seconds": None})
    return folder


def error_bars(container):
    """(x, low, high) of each error bar of an errorbar container."""
    return sorted((s[0][0], min(s[0][1], s[1][1]), max(s[0][1], s[1][1])) for s in container.lines[2][0].get_segments())


def near(a, b):
    return abs(a - b) < 1e-9 * max(1.0, abs(b))


def main():
    shutil.rmtree(WORKDIR, ignore_errors=True)
    os.makedirs(WORKDIR)
    valiant = [({"routing": "valiant", "seed": seed}, seconds)
               for seed, seconds in ((1, 0.012), (2, 0.016), (3, 0.014))]
    folder = folder_with("seeds", {"bspma": 1.0, "svcp": 2.0}, [({"routing": "minimal"}, 0.010), *valiant])
    figures = {name: fig for name, _, fig in report_simulation.figures(folder)}
    if "ghost-variants.png" not in figures:
        fail(f"no variants figure among {sorted(figures)}")

    # <proxy>-simulated.png: one panel per variant, the seeds in one point: median 7 ms, 6 to 8 ms (bspma)
    panels = {ax.get_title(): ax for ax in figures["ghost-simulated.png"].axes if ax.get_visible()}
    if sorted(panels) != ["torus-4x4x4 routing=minimal (sstmac)", "torus-4x4x4 routing=valiant (sstmac)"]:
        fail(f"simulated panels {sorted(panels)}; wanted one per variant, seeds together")
    bspma = panels["torus-4x4x4 routing=valiant (sstmac)"].containers[0]
    median = list(bspma.lines[0].get_ydata())
    spread = error_bars(bspma)
    if len(median) != 1 or not near(median[0], 7.0) or len(spread) != 1 or not (near(spread[0][1], 6.0)
                                                                               and near(spread[0][2], 8.0)):
        fail(f"valiant's three seeds drawn as {median} with bars {spread}; wanted one point at 7 ms, 6-8 ms")

    # <proxy>-variants.png: per strategy, minimal without spread and valiant's median with its seeds' min-max
    ax = figures["ghost-variants.png"].axes[0]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    if ticks != ["routing=minimal", "routing=valiant\n3 seeds"]:
        fail(f"variants named {ticks}")
    wanted = {"bspma/isend (synthesized)": ([5.0, 7.0], [(5.0, 5.0), (6.0, 8.0)]),
              "svcp/isend (synthesized)": ([10.0, 14.0], [(10.0, 10.0), (12.0, 16.0)])}
    bars = {c.get_label(): c for c in ax.containers if hasattr(c, "errorbar")}
    if sorted(bars) != sorted(wanted):
        fail(f"variants figure series {sorted(bars)}")
    for strategy, (heights, ranges) in wanted.items():
        drawn = [patch.get_height() for patch in bars[strategy].patches]
        drawn_ranges = [(low, high) for _, low, high in error_bars(bars[strategy].errorbar)]
        if not all(map(near, drawn, heights)) or not all(near(a, b) for got, want in zip(drawn_ranges, ranges)
                                                        for a, b in zip(got, want)):
            fail(f"{strategy}: bars {drawn} with spreads {drawn_ranges}; wanted {heights} with {ranges}")

    plain = folder_with("plain", {"bspma": 1.0}, [({}, 0.010)])
    names = [name for name, _, _ in report_simulation.figures(plain)]
    if "ghost-variants.png" in names or "ghost-simulated.png" not in names:
        fail(f"a folder without variants drew {names}")
    print("three seeds drawn as one point and one bar with their min-max; minimal apart; no variants, no figure")


if __name__ == "__main__":
    main()
