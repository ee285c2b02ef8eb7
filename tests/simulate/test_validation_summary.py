#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The validation summary (amp_tools.validation_summary), on a tiny study run here as a user would: two
strategies of a small amp-ghost deck at 2 ranks, synthesized at 8 with one-step companions and a measured
compute model, replayed in SimGrid. Checked:
- the summary holds every simulated point with the numbers of its two simulation files (per step and set-up
  recomputed here from T_K and T_1), its deck, its compute model (compute_model.json's) and the run folder;
- the profile table it prints quotes those numbers;
- a markdown file whose marked table is the printed one passes the check; broken on purpose, it fails: a
  number changed, the marker taken away, a summary that no marker names;
- refused in one line (exit 2): --output through a symbolic link, a folder with nothing simulated.

Usage: test_validation_summary.py MPIEXEC BUILD ROOT WORKDIR
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_study_simulate import PYTHON, fail, study, arguments_and_workdir  # noqa: E402

from amp_tools import results, steady_state, validation_summary  # noqa: E402

K = 3
DECK = """nx = 8
ny = 8
nz = 8
num_vars = 3
num_tsteps = 3
stencil = "3d7pt"
num_spikes = 1
"""
STUDY = """name = "tiny-validation"
proxies = ["ghost"]
decks = ["{deck}"]
strategies = ["bspma", "svaf"]
ranks = [2]

[simulate]
simulators = ["simgrid"]
networks = ["{network}"]
synthesize_ranks = [8]
steady_state = true
"""


def tool(*arguments):
    return subprocess.run([PYTHON, "-m", "amp_tools.validation_summary", *arguments], capture_output=True, text=True)


def check_points(summary, folder, deck):
    models = results.load(os.path.join(folder, "compute_model.json"))["models"]
    if len(summary["points"]) != 2:
        fail(f"{len(summary['points'])} points, not bspma's and svaf's: {[p['id'] for p in summary['points']]}")
    for p, strategy in zip(summary["points"], ("bspma", "svaf")):
        if (p["proxy"], p["strategy"], p["simulator"], p["network"], p["ranks"], p["steps"]) != \
                ("ghost", strategy, "simgrid", "torus-4x4x4", 8, K):
            fail(f"point {p['id']}: not ghost {strategy} on torus-4x4x4 in simgrid at 8 ranks, {K} steps")
        sim_path = glob.glob(os.path.join(folder, p["id"] + ".trace", "simulation-*-simgrid.json"))[0]
        whole, first = results.load(sim_path), results.load(steady_state.companion(sim_path))
        per_step = (whole["predicted_seconds"] - first["predicted_seconds"]) / (K - 1)
        messages = (whole["messages"] - first["messages"]) / (K - 1)
        sent = (whole["bytes"] - first["bytes"]) / (K - 1)
        expected = {"steady": True, "per_step_seconds": per_step,
                    "setup_seconds": first["predicted_seconds"] - per_step,
                    "messages_per_step": messages, "bytes_per_step": sent, "mean_message_bytes": sent / messages,
                    "messages_per_minute_per_rank": messages / 8 / per_step * 60,
                    "replay_seconds": whole["simulation_wall_seconds"], "deck": deck, "block": [8, 8, 8], "num_vars": 3}
        for key, value in expected.items():
            got = p[key]
            if got != value and not (isinstance(value, float) and abs(got - value) <= 1e-12 * abs(value)):
                fail(f"{p['id']}: {key} {got!r}, the simulation files give {value!r}")
        shares = p["profile"]
        if abs(sum(shares.values()) - 1) > 0.02 or shares != {k: v for k, v in steady_state.steady(
                whole, first, K)["profile"].items() if k in ("compute", "p2p", "collective")}:
            fail(f"{p['id']}: profile {shares} is not the steady profile of its two simulations")
        model = results.load(os.path.join(folder, p["id"] + ".json"))["synthesis"]["compute_model"]
        if p["compute_model"] != model or model["steps"][0]["seconds"] not in [m["seconds"] for m in models.values()]:
            fail(f"{p['id']}: compute model {p['compute_model']} is not the synthesis's and compute_model.json's")
    return summary["points"]


def check_document(root, summary_path, printed):
    """The marker check on a markdown file in `root` (its docs/validation/ holding the summary), then broken."""
    marker = ("<!-- rows: python3 -m amp_tools.validation_summary docs/validation/tiny-validation.json --table "
              "profile --network torus-4x4x4 -->")
    page = os.path.join(root, "VALIDATION.md")

    def problems(text):
        with open(page, "w") as f:
            f.write(text)
        return validation_summary.check_document(page, root)[0]

    good = f"# Doc\n\nSome words.\n\n{marker}\n{printed}\n\nMore words.\n"
    if problems(good):
        fail(f"the marked table printed by the tool fails the check: {problems(good)}")
    row = printed.splitlines()[2]
    cells = row.split(" | ")
    cells[3] = f"{float(cells[3]) + 0.1:.1f}"  # the compute share, a tenth of a point off
    found = problems(good.replace(row, " | ".join(cells)))
    if len(found) != 1 or "the table below the marker is not docs/validation/tiny-validation.json's" not in found[0]:
        fail(f"a changed number was not found: {found}")
    found = problems(good.replace(marker + "\n", ""))
    if not any("no '<!-- rows: ... -->' marker" in p for p in found) or \
            not any("no table of VALIDATION.md is marked with it" in p for p in found):
        fail(f"a table without its marker, and the summary it leaves unnamed, were not found: {found}")
    other = os.path.join(root, "docs", "validation", "another.json")
    with open(summary_path) as f, open(other, "w") as g:
        g.write(f.read())
    found = problems(good)
    os.remove(other)
    if found != ["docs/validation/another.json: no table of VALIDATION.md is marked with it"]:
        fail(f"a summary no marker names was not found: {found}")


def main():
    mpiexec, build, root, workdir = arguments_and_workdir("validation-summary")
    deck = os.path.join(workdir, "tiny-deck.toml")
    with open(deck, "w") as f:
        f.write(DECK)
    path = os.path.join(workdir, "tiny.toml")
    with open(path, "w") as f:
        f.write(STUDY.format(deck=deck, network=os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")))
    done = study(root, build, mpiexec, path, workdir)
    if done.returncode != 0:
        fail(f"study exited {done.returncode}: {done.stdout[-1500:]} {done.stderr[-1500:]}")
    folder = glob.glob(os.path.join(workdir, "runs", "tiny-validation-*"))[0]

    out_root = os.path.join(workdir, "doc")
    os.makedirs(os.path.join(out_root, "docs", "validation"))
    summary_path = os.path.join(out_root, "docs", "validation", "tiny-validation.json")
    made = tool(folder, "--output", summary_path)
    if made.returncode != 0 or made.stderr:
        fail(f"validation_summary exited {made.returncode}: {made.stdout} {made.stderr}")
    summary = results.load(summary_path)
    name = os.path.basename(folder)
    if (summary["kind"], summary["study"], summary["run_folder"]) != ("validation-summary", "tiny-validation", name) \
            or summary["started"].replace("-", "").replace(":", "").replace("T", "-") != name[-15:]:
        fail(f"the summary names {summary['study']}, {summary['run_folder']}, {summary['started']}, not {name}")
    if os.path.getsize(summary_path) > 20000:
        fail(f"the summary of 2 points is {os.path.getsize(summary_path)} bytes: not small")
    points = check_points(summary, folder, deck)

    printed = tool(summary_path, "--table", "profile", "--network", "torus-4x4x4")
    lines = printed.stdout.splitlines()
    if printed.returncode != 0 or len(lines) != 4 or lines[0] != validation_summary.PROFILE_HEADER:
        fail(f"the profile table: exit {printed.returncode}: {printed.stdout} {printed.stderr}")
    for line, p in zip(lines[2:], points):
        shares = " | ".join(f"{100 * p['profile'][k]:.1f}" for k in ("compute", "p2p", "collective"))
        if not line.startswith(f"| ghost | {p['strategy']} | simgrid | {shares} | {p['per_step_seconds'] * 1e3:.2f} ms"
                               f" | {p['setup_seconds'] * 1e3:.2f} ms | "):
            fail(f"the row '{line}' does not quote {p['id']}'s summary")
    if tool(folder, "--table", "profile", "--network", "torus-4x4x4").stdout != printed.stdout:
        fail("the table from the run folder differs from the table from its summary")
    check_document(out_root, summary_path, printed.stdout.strip())

    link = os.path.join(workdir, "link.json")
    os.symlink(os.path.join(workdir, "elsewhere.json"), link)
    for arguments, needle in (((folder, "--output", link), "symbolic link"),
                              ((workdir, "--output", os.path.join(workdir, "x.json")), "no simulated point")):
        refused = tool(*arguments)
        if refused.returncode != 2 or len(refused.stderr.splitlines()) != 1 or needle not in refused.stderr:
            fail(f"{arguments}: exit {refused.returncode}, {refused.stderr!r}: not one line naming '{needle}'")
    if os.path.exists(os.path.join(workdir, "elsewhere.json")):
        fail("--output wrote through a symbolic link")
    os.remove(link)  # no dangling link left among the JSON files other tests read
    print(json.dumps(summary["points"][0], indent=1)[:600])
    print(f"ok: {len(points)} points summarized from {name}; the table and the document check hold and break")


if __name__ == "__main__":
    main()
