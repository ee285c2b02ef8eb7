#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp_tools.report on the fixture results (real amp-ghost and amp-sage runs, one traced, and `./amp run`'s
two 1024-rank syntheses with their SimGrid predictions on a torus and a dragonfly, trimmed to what the
report reads): exactly the expected PNG files, each non-blank, each figure with its panels; the
breakdown's bars grouped by strategy with the time outside compute in a panel of its own; every predicted
rank count drawn; index.html opens with the summary and shows every PNG; the table gives the median
and spread of the repeated point. Skips (77) without matplotlib.

Usage: test_report.py WORK_DIR FIXTURE_DIR...   (the fixture folders are drawn as one; tools/ on PYTHONPATH,
as CTest sets it)
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

work, fixtures = sys.argv[1], sys.argv[2:]
from amp_tools import report, report_figures, report_points, report_simulation  # noqa: E402

failures = []


def check(ok, message):
    print(f"{'ok  ' if ok else 'FAIL'} {message}")
    if not ok:
        failures.append(message)


shutil.rmtree(work, ignore_errors=True)
for folder in fixtures:
    shutil.copytree(folder, work, dirs_exist_ok=True)
# One run measured while other work took the cores (as tools/machine_load.py judges it).
noisy_run = os.path.join(work, "ghost-svcp-np2-rep1.json")
with open(noisy_run) as f:
    noisy = json.load(f)
noisy["machine_load"] = {"other_cpu_seconds": 2.0, "wall_seconds": 1.0, "cores": 2, "load_average_start": 1.0}
with open(noisy_run, "w") as f:
    json.dump(noisy, f)
names, rows = report.report(work)

# ghost has two rank counts (scaling) and a traced run (matrix); sage one point, untraced.
expected = {"ghost-breakdown.png", "ghost-message_sizes.png", "ghost-imbalance.png", "ghost-scaling.png",
            "ghost-comm_matrix.png", "ghost-simulated.png", "sage-breakdown.png", "sage-message_sizes.png",
            "sage-imbalance.png"}
written = set(os.listdir(os.path.join(work, "report")))
check(set(names) == expected, f"figures {sorted(names)} == {sorted(expected)}")
check(written == expected | {"index.html"}, f"report/ holds exactly those and index.html: {sorted(written)}")

for name in sorted(expected & written):
    pixels = matplotlib.image.imread(os.path.join(work, "report", name))[:, :, :3]
    non_white = float((pixels < 0.95).any(axis=2).mean())
    check(pixels.shape[0] > 300 and pixels.shape[1] > 400 and non_white > 0.02,
          f"{name}: {pixels.shape[1]}x{pixels.shape[0]} pixels, {non_white:.1%} not white")

# The panels of each figure: their titles, axis labels with units, and the series they draw.
proxies = report_points.group(report_points.load_runs(work))
figures = {name: fig for name, _, fig in report_figures.figures(proxies)}


def panels(fig):
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


# The breakdown: the whole step above (compute and the rest), the time outside compute below, stacked by
# component; bars grouped by strategy, the strategy written once over its group; 'spread unknown' never on a bar.
breakdown_figure = figures["ghost-breakdown.png"]
breakdown = panels(breakdown_figure)
whole, outside = (breakdown + [None, None])[:2]


def legend_of(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()] if ax and ax.get_legend() else []


check(len(breakdown) == 2 and legend_of(whole) == ["compute", "not compute (panel below)"]
      and "ms" in whole.get_ylabel() and "ms" in outside.get_ylabel(),
      f"breakdown: two panels in ms, the whole step in compute and the rest: {legend_of(whole)}")
check(all(c in legend_of(outside) for c in ("pack", "unpack", "MPI (post)", "wait", "collectives", "other"))
      and "compute" not in legend_of(outside), f"breakdown: outside compute by component: {legend_of(outside)}")
ticks = [t.get_text() for t in outside.get_xticklabels()] if outside else []
check(ticks == ["1 rank", "2 ranks", "1 rank", "2 ranks"], f"breakdown bars within their strategy {ticks}")
strategies = [t.get_text() for t in whole.child_axes[0].get_xticklabels()] if whole and whole.child_axes else []
check(strategies == ["bspma", "svcp"], f"breakdown: each strategy named once over its group: {strategies}")
gap = [p.get_x() for p in outside.patches][:4] if outside else []
check(len(gap) == 4 and gap[2] - gap[1] > gap[1] - gap[0], f"breakdown: a gap between the strategies' groups: {gap}")
on_bars = [t.get_text() for ax in breakdown for t in ax.texts]
check(not any("spread unknown" in t for t in on_bars) and "points with 1 repetition have none"
      in breakdown_figure._suptitle.get_text(),
      f"breakdown: 'spread unknown' on no bar, the title says it once: {on_bars}")
marked = [t.get_text().endswith("*") for t in outside.texts] if outside else []
check(marked == [False, False, False, True]
      and "*: other work shared the cores" in breakdown_figure._suptitle.get_text(),
      f"breakdown: only svcp at 2 ranks, which shared its cores, is marked *: {marked}")
check("amp-ghost" in breakdown_figure._suptitle.get_text() and "num_vars=4" in breakdown_figure._suptitle.get_text(),
      "breakdown title gives the configuration")
# The bars outside compute: each the run's time per step less its compute (median repetition).
runs = {(p.label, p.ranks): p.median_run() for p in report_points.group(report_points.load_runs(work))["amp-ghost"]}
svcp2 = runs[("svcp", 2)]
wanted = (svcp2["timing"]["per_step_seconds"] * 1e3
          - svcp2["timing"]["compute"]["avg"] / svcp2["config"]["num_tsteps"] * 1e3)
stacks = {}
for patch in (outside.patches if outside else []):
    stacks[patch.get_x()] = max(stacks.get(patch.get_x(), 0.0), patch.get_y() + patch.get_height())
check(abs(stacks[max(stacks)] - wanted) < 1e-9 if stacks else False,
      f"breakdown: svcp at 2 ranks stacks to {wanted:.4f} ms outside compute")
sizes = panels(figures["ghost-message_sizes.png"])
check(len(sizes) == 1 and sizes[0].get_xlabel() == "message size (bytes)"
      and sizes[0].get_ylabel() == "messages per step per rank",
      "message sizes: one panel, size in bytes against messages per step per rank")
imbalance = panels(figures["ghost-imbalance.png"])
check([ax.get_title().split(":")[0] for ax in imbalance] == ["compute", "MPI post + wait", "collectives"]
      and all(ax.get_ylabel() == "ms per step" for ax in imbalance),
      "imbalance: compute, MPI, collectives panels in ms")
scaling = panels(figures["ghost-scaling.png"])
check([ax.get_ylabel() for ax in scaling] == ["time per step (ms)", "cell updates / s / rank"]
      and all(ax.get_xlabel() == "ranks" and len(ax.get_lines()) == 2 for ax in scaling),
      "scaling: time per step and FOM against ranks, one line per strategy")
matrix = panels(figures["ghost-comm_matrix.png"])
check(len(matrix) == 1 and matrix[0].get_images()[0].get_array().shape == (2, 2)
      and matrix[0].get_xlabel() == "receiving rank", "comm matrix: one 2x2 panel (the traced svcp run)")
check(len(panels(figures["sage-breakdown.png"])) == 2, "sage breakdown: two panels")

# Every predicted rank count is drawn: the 1024-rank points of bspma and svaf on each network, at the
# time per step their simulation predicts, svaf relative to bspma.
simulated = {name: fig for name, _, fig in report_simulation.figures(work)}["ghost-simulated.png"]
drawn = {}
for ax in panels(simulated):
    for container in ax.containers:
        drawn[(ax.get_title(), container.get_label())] = (list(container.lines[0].get_ydata()), ax.get_xlabel())
predicted = {}
for strategy in ("bspma", "svaf"):
    for network in ("torus-16x16x4", "dragonfly-1024"):
        sim = json.load(open(next(os.path.join(work, f"ghost-{strategy}-synth1024.trace", f) for f in
                                  os.listdir(os.path.join(work, f"ghost-{strategy}-synth1024.trace")) if network in f)))
        predicted[(f"{network} (simgrid)", f"{strategy}/isend")] = sim["predicted_seconds"] / 2 * 1e3
# The label says what was synthesized, as the synthesis's own results say it (these have no one-step companion).
config = json.load(open(os.path.join(work, "ghost-bspma-synth1024.json")))["config"]
said = (f"at 1024 ranks (synthesized: {'x'.join(str(n) for n in config['local_block'])} block, {config['num_vars']} "
        f"variables, {config['stencil']}, {config['num_tsteps']} steps)")
check(sorted(drawn) == sorted(predicted) and all(
    abs(drawn[k][0][0] - v) < 1e-9 and drawn[k][1] == said for k, v in predicted.items()),
      f"simulated: the 1024-rank predictions on both networks {sorted(drawn)}")

# Median and spread over the two repetitions of bspma at 2 ranks.
steps = [json.load(open(os.path.join(work, f"ghost-bspma-np2-rep{i}.json")))["timing"]["per_step_seconds"] * 1e3
         for i in (1, 2)]
row = next(r for r in rows if r["proxy"] == "amp-ghost" and r["point"] == "bspma" and r["ranks"] == 2)
check(row["repetitions"] == 2 and abs(row["median_ms"] - sum(steps) / 2) < 1e-9
      and (row["min_ms"], row["max_ms"]) == (min(steps), max(steps)), f"bspma at 2 ranks: median and spread of {steps}")

page = open(os.path.join(work, "report", "index.html")).read()
check(all(f'src="{name}"' in page for name in expected), "index.html shows every figure")
# The page opens with the summary: per proxy the fastest point, and per network the fastest prediction.
summary = page[page.find("<h2>Summary</h2>"):page.find("<h2>Every point</h2>")]
fastest = min((p for p in report_points.group(report_points.load_runs(work))["amp-ghost"] if p.ranks == 2),
              key=lambda p: p.median(report_points.step_ms))
ratio = predicted[("torus-16x16x4 (simgrid)", "svaf/isend")] / predicted[("torus-16x16x4 (simgrid)", "bspma/isend")]
check(page.find("<h2>Summary</h2>") < page.find("<h2>Every point</h2>") < page.find("<img")
      and (f"<td>amp-ghost</td><td>2</td><td>{fastest.label}</td>"
           f"<td>{fastest.median(report_points.step_ms):.3f}</td>") in summary
      and (f"<td>torus-16x16x4 (simgrid)</td><td>1024 ({said[len('at 1024 ranks ('):]}</td>"
           "<td>bspma/isend</td>") in summary
      and f"svaf/isend {ratio:.2f}x" in summary, "index.html opens with the summary of the fastest and the predictions")

print(f"{'FAILED' if failures else 'PASSED'}: report on the fixtures")
sys.exit(1 if failures else 0)
