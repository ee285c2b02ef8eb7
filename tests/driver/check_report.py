#!/usr/bin/env python3
"""amp_tools.report on the fixture results (real amp-ghost and amp-sage runs, one traced): exactly the
expected PNG files, each non-blank, each figure with its panels; index.html shows every PNG; the
table gives the median and spread of the repeated point. Skips (77) without matplotlib.

Usage: check_report.py FIXTURE_DIR WORK_DIR   (tools/ on PYTHONPATH, as CTest sets it)
"""
import json
import os
import shutil
import sys

try:
    import matplotlib
    import matplotlib.image
except ImportError:
    print("SKIP: matplotlib is not installed for this python (the amp driver installs python3-matplotlib)")
    sys.exit(77)

fixtures, work = sys.argv[1:3]
from amp_tools import report  # noqa: E402

failures = []


def check(ok, message):
    print(f"{'ok  ' if ok else 'FAIL'} {message}")
    if not ok:
        failures.append(message)


shutil.rmtree(work, ignore_errors=True)
shutil.copytree(fixtures, work)
names, rows = report.report(work)

# ghost has two rank counts (scaling) and a traced run (matrix); sage one point, untraced.
expected = {"ghost-breakdown.png", "ghost-message_sizes.png", "ghost-imbalance.png", "ghost-scaling.png",
            "ghost-comm_matrix.png", "sage-breakdown.png", "sage-message_sizes.png", "sage-imbalance.png"}
written = set(os.listdir(os.path.join(work, "report")))
check(set(names) == expected, f"figures {sorted(names)} == {sorted(expected)}")
check(written == expected | {"index.html"}, f"report/ holds exactly those and index.html: {sorted(written)}")

for name in sorted(expected & written):
    pixels = matplotlib.image.imread(os.path.join(work, "report", name))[:, :, :3]
    non_white = float((pixels < 0.95).any(axis=2).mean())
    check(pixels.shape[0] > 300 and pixels.shape[1] > 400 and non_white > 0.02,
          f"{name}: {pixels.shape[1]}x{pixels.shape[0]} pixels, {non_white:.1%} not white")

# The panels of each figure: their titles, axis labels with units, and the series they draw.
proxies = report.group(report.load_runs(work))
figures = {name: fig for name, _, fig in report.figures(proxies)}


def panels(fig):
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


breakdown = panels(figures["ghost-breakdown.png"])
legend = [t.get_text() for t in breakdown[0].get_legend().get_texts()] if breakdown else []
check(len(breakdown) == 1 and "ms" in breakdown[0].get_ylabel()
      and all(c in legend for c in ("compute", "pack", "unpack", "MPI (post)", "wait", "collectives")),
      f"breakdown: one panel in ms with compute/pack/unpack/MPI/wait/collectives: {legend}")
ticks = [t.get_text() for t in breakdown[0].get_xticklabels()] if breakdown else []
check(ticks == ["bspma\n1 rank", "bspma\n2 ranks", "svcp\n1 rank", "svcp\n2 ranks"], f"breakdown bars {ticks}")
check("amp-ghost" in breakdown[0].get_title() and "num_vars=4" in breakdown[0].get_title(),
      "breakdown title gives the configuration")
sizes = panels(figures["ghost-message_sizes.png"])
check(len(sizes) == 1 and sizes[0].get_xlabel() == "message size (bytes)" and sizes[0].get_ylabel() == "messages per step per rank",
      "message sizes: one panel, size in bytes against messages per step per rank")
imbalance = panels(figures["ghost-imbalance.png"])
check([ax.get_title().split(":")[0] for ax in imbalance] == ["compute", "MPI post + wait", "collectives"]
      and all(ax.get_ylabel() == "ms per step" for ax in imbalance), "imbalance: compute, MPI, collectives panels in ms")
scaling = panels(figures["ghost-scaling.png"])
check([ax.get_ylabel() for ax in scaling] == ["time per step (ms)", "cell updates / s / rank"]
      and all(ax.get_xlabel() == "ranks" and len(ax.get_lines()) == 2 for ax in scaling),
      "scaling: time per step and FOM against ranks, one line per strategy")
matrix = panels(figures["ghost-comm_matrix.png"])
check(len(matrix) == 1 and matrix[0].get_images()[0].get_array().shape == (2, 2)
      and matrix[0].get_xlabel() == "receiving rank", "comm matrix: one 2x2 panel (the traced svcp run)")
check(len(panels(figures["sage-breakdown.png"])) == 1, "sage breakdown: one panel")

# Median and spread over the two repetitions of bspma at 2 ranks.
steps = [json.load(open(os.path.join(fixtures, f"ghost-bspma-np2-rep{i}.json")))["timing"]["per_step_seconds"] * 1e3
         for i in (1, 2)]
row = next(r for r in rows if r["proxy"] == "amp-ghost" and r["point"] == "bspma" and r["ranks"] == 2)
check(row["repetitions"] == 2 and abs(row["median_ms"] - sum(steps) / 2) < 1e-9
      and (row["min_ms"], row["max_ms"]) == (min(steps), max(steps)), f"bspma at 2 ranks: median and spread of {steps}")

page = open(os.path.join(work, "report", "index.html")).read()
check(all(f'src="{name}"' in page for name in expected), "index.html shows every figure")

print(f"{'FAILED' if failures else 'PASSED'}: report on the fixtures")
sys.exit(1 if failures else 0)
