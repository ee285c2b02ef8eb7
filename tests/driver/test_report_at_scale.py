#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`./amp run`'s last step and its report, small: amp_tools.predict_at_scale synthesizes bspma and svaf at 8
ranks (3 steps, and one step in first-step/, with the compute model it measures from one-step syntheses)
from a recorded bspma/isend run (a fixture) and predicts them in SimGrid on the 4x4x4 torus; the report then
draws those 8-rank points in ghost-simulated.png and lists them in index.html's summary (the syntheses leave
their results files beside their traces, which is where the report looks). Checked: the time per step
printed and drawn is the steady step, (T_3 - T_1) / 2 from the two simulation files; what the printed
table, the figure's label and the summary say was synthesized (block, variables, steps) is what the
syntheses' own results files say, and the table says the deck's own size differs (never the deck's name
on a smaller problem). Skips (77) without matplotlib.

Usage: test_report_at_scale.py ROOT BUILD WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tomllib

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("SKIP: matplotlib is not installed for this python (the amp driver installs python3-matplotlib)")
    sys.exit(77)

root, build, work = sys.argv[1:4]
from amp_tools import report, report_simulation  # noqa: E402


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


if not os.access(os.path.join(build, "bin", "amp-ghost"), os.X_OK):
    fail(f"no amp-ghost in {build}/bin: build first")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# The study's baseline run, as `./amp run` names it.
shutil.copy(os.path.join(root, "tests", "driver", "fixtures", "report", "ghost-bspma-np2-rep1.json"),
            os.path.join(work, "ghost-bspma-isend.json"))
done = subprocess.run([sys.executable, "-m", "amp_tools.predict_at_scale", work,
                       "--deck", os.path.join(root, "inputs", "ghost", "cth.toml"), "--build", build, "--root", root,
                       "--ranks", "8", "--networks", "torus-4x4x4"], capture_output=True, text=True, timeout=240)
if done.returncode != 0:
    fail(f"predict_at_scale exited {done.returncode}: {done.stderr.strip()}")
printed = [line for line in done.stdout.splitlines() if line.startswith("amp: 8 ranks, torus-4x4x4: svaf ")]
if len(printed) != 1:
    fail(f"no line of svaf against bspma in {done.stdout!r}")

# What was synthesized, read back from the syntheses' own results (not from predict_at_scale's constants).
configs = {}
for strategy in ("bspma", "svaf"):
    with open(os.path.join(work, f"ghost-{strategy}-synth8.json")) as f:
        configs[strategy] = json.load(f)["config"]
    with open(os.path.join(work, "first-step", f"ghost-{strategy}-synth8.json")) as f:
        if json.load(f)["config"]["num_tsteps"] != 1:
            fail(f"{strategy}'s one-step companion is not one step")
block = "x".join(str(n) for n in configs["bspma"]["local_block"])
variables, steps, stencil = (configs["bspma"][k] for k in ("num_vars", "num_tsteps", "stencil"))
with open(os.path.join(root, "inputs", "ghost", "cth.toml"), "rb") as f:
    deck = tomllib.load(f)
header = next((line for line in done.stdout.splitlines() if line.startswith("amp: predicted at ")), "")
said = f"synthesized: a {block} block, {variables} variables, {stencil}, {steps} steps"
if not header.startswith(f"amp: predicted at 8 ranks ({said} (not the deck's {deck['nx']}x{deck['ny']}x{deck['nz']} "
                         f"block and {deck['num_vars']} variables); a steady step, steps 2-{steps}"):
    fail(f"the table's first line does not say what was synthesized ({said}): {header!r}")
if not printed[0].endswith(f"(synthesized: {block} block, {variables} variables)"):
    fail(f"the svaf line does not say what was synthesized: {printed[0]!r}")

names, _ = report.report(work)
if "ghost-simulated.png" not in names:
    fail(f"no simulated figure among {names}")
figure = {name: fig for name, _, fig in report_simulation.figures(work)}["ghost-simulated.png"]
drawn = {(ax.get_title(), c.get_label()): list(c.lines[0].get_ydata()) for ax in figure.axes if ax.get_visible()
         for c in ax.containers}
labels = [ax.get_xlabel() for ax in figure.axes if ax.get_visible() and ax.get_title()]
if labels != [f"at 8 ranks (synthesized: {block} block, {variables} variables, {stencil}, steady steps 2-{steps})"]:
    fail(f"the figure's label does not say what was synthesized: {labels}")
predicted = {}
for strategy in ("bspma", "svaf"):
    seconds = []
    for trace in (os.path.join(work, f"ghost-{strategy}-synth8.trace"),
                  os.path.join(work, "first-step", f"ghost-{strategy}-synth8.trace")):
        simulations = [f for f in os.listdir(trace) if f.startswith("simulation-torus-4x4x4-")]
        with open(os.path.join(trace, simulations[0])) as f:
            seconds.append(json.load(f)["predicted_seconds"])
    predicted[("torus-4x4x4 (simgrid)", f"{strategy}/isend")] = [(seconds[0] - seconds[1]) / (steps - 1) * 1e3]
if drawn.keys() != predicted.keys() or any(abs(drawn[k][0] - v[0]) > 1e-9 for k, v in predicted.items()):
    fail(f"simulated figure drew {drawn}; wanted the 8-rank steady steps {predicted}")
ratio = predicted[("torus-4x4x4 (simgrid)", "svaf/isend")][0] / predicted[("torus-4x4x4 (simgrid)", "bspma/isend")][0]
if f"svaf {ratio:.2f}x bspma" not in printed[0]:
    fail(f"the printed ratio is not the steady steps' ({ratio:.2f}): {printed[0]!r}")
with open(os.path.join(work, "report", "index.html")) as f:
    page = f.read()
if f"<td>torus-4x4x4 (simgrid)</td><td>8 (synthesized: {block} block, {variables} variables, {stencil}, steady " \
        f"steps 2-{steps})</td>" not in page:
    fail("index.html's summary does not list the 8-rank predictions with what was synthesized")
print(f"ok   predict_at_scale's 8-rank points drawn and summarized: {printed[0]}")
