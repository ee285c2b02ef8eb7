# SPDX-License-Identifier: BSD-3-Clause
"""A point's steady state from its K-step simulation and one-step companion (amp_tools.steady_state): a
steady step that is not positive is no steady state (NotSteady, with the two times), and a malformed
companion (times as text, shorter per-rank lists, a results file whose config is null) is one line, never
a traceback, in steady_state and in the report, which keeps the point without a steady state."""
import copy
import json
import os
import shutil
import subprocess
import sys

import pytest

from amp_tools import steady_state
from amp_tools.steady_state import NotSteady

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "schemas")
SIMULATION = "simulation-torus-4x4x4-8b192a7b-simgrid.json"


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


@pytest.fixture
def pair():
    """(the 3-step simulation, its one-step companion at a third of its time and counts)."""
    whole = fixture(SIMULATION)
    first = copy.deepcopy(whole)
    for key in ("predicted_seconds", "messages", "bytes"):
        first[key] = whole[key] / 3
    profile = first["profile"]
    for kind in profile["per_rank"]:
        profile["per_rank"][kind] = [v / 3 for v in profile["per_rank"][kind]]
    profile["per_rank_finish"] = [v / 3 for v in profile["per_rank_finish"]]
    return whole, first


def test_a_well_formed_pair_has_its_steady_step(pair):
    whole, first = pair
    state = steady_state.steady(whole, first, 3)
    assert state["per_step_seconds"] == pytest.approx(whole["predicted_seconds"] / 3)
    assert state["setup_seconds"] == pytest.approx(0.0, abs=1e-12) and state["profile"] is not None


@pytest.mark.parametrize("companion_seconds", [0.5, 1.0])  # slower than, or as slow as, the 3 steps
def test_a_steady_step_that_is_not_positive_is_not_steady(pair, companion_seconds):
    whole, first = pair
    first["predicted_seconds"] = whole["predicted_seconds"] * (1 + companion_seconds)
    with pytest.raises(NotSteady, match="is not faster than the 3-step run .*: no positive steady step"):
        steady_state.steady(whole, first, 3)


@pytest.mark.parametrize("break_it, words", [
    (lambda s: s.update(predicted_seconds="0.002"), "the companion's predicted_seconds is not a number ('0.002')"),
    (lambda s: s.update(messages=None), "the companion's messages is not a number (None)"),
    (lambda s: s["profile"]["per_rank"].update(compute=[0.0]), "the companion's profile has no list of 8 numbers"),
    (lambda s: s["profile"].update(per_rank_finish=[0.0] * 7), "the companion's profile has no list of 8 numbers"),
    (lambda s: s["profile"].update(per_rank=[1, 2]), "the companion's profile has no per_rank table"),
])
def test_a_malformed_companion_is_not_steady_with_one_line(pair, break_it, words):
    whole, first = pair
    break_it(first)
    with pytest.raises(NotSteady) as refused:
        steady_state.steady(whole, first, 3)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def study_folder(tmp_path, companion_edit=None, run_edit=None):
    """A study folder with one synthesized 3-step point, its simulation and its one-step companion's."""
    folder = tmp_path / "study"
    trace = folder / "ghost-bspma-np8-rep1.trace"
    first = folder / steady_state.FIRST_STEP_FOLDER / "ghost-bspma-np8-rep1.trace"
    trace.mkdir(parents=True)
    first.mkdir(parents=True)
    run = fixture("results-synthesis.json")
    if run_edit:
        run_edit(run)
    (folder / "ghost-bspma-np8-rep1.json").write_text(json.dumps(run))
    whole = fixture(SIMULATION)
    (trace / SIMULATION).write_text(json.dumps(whole))
    companion = copy.deepcopy(whole)
    companion["predicted_seconds"] = whole["predicted_seconds"] / 3
    if companion_edit:
        companion_edit(companion)
    (first / SIMULATION).write_text(json.dumps(companion))
    return folder


def run_module(module, *arguments):
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=TOOLS))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize("companion_edit, run_edit, words", [
    (lambda s: s.update(predicted_seconds="0.002"), None, "predicted_seconds is not a number"),
    (lambda s: s["profile"].update(per_rank_finish=[0.0]), None, "profile has no list of 8 numbers"),
    (lambda s: s.update(predicted_seconds=1.0), None, "no positive steady step"),
    (None, lambda r: r.update(config=None), "gives no whole number of steps"),
])
def test_steady_state_names_a_malformed_pair_in_one_line(tmp_path, companion_edit, run_edit, words):
    folder = study_folder(tmp_path, companion_edit, run_edit)
    code, lines = run_module("amp_tools.steady_state", str(folder))
    assert code == 1 and len(lines) == 2 and words in lines[0], lines  # the point's line, then "no point ..."
    assert not any("Traceback" in line for line in lines)


def test_steady_state_on_a_missing_folder_says_so(tmp_path):
    code, lines = run_module("amp_tools.steady_state", str(tmp_path / "nowhere"))
    assert code == 2 and lines == [f"steady_state: error: '{tmp_path}/nowhere' is not a folder (give a study folder, "
                                   f"runs/<name>-<stamp>)"], lines


@pytest.mark.parametrize("companion_edit, words", [
    (lambda s: s.update(predicted_seconds="0.002"), "predicted_seconds is not a number"),
    (lambda s: s["profile"]["per_rank"].update(p2p=[0.0]), "profile has no list of 8 numbers"),
    (lambda s: s.update(predicted_seconds=1.0), "no positive steady step"),
])
def test_the_report_warns_once_and_keeps_the_point_without_a_steady_state(tmp_path, companion_edit, words):
    report_simulation = pytest.importorskip("amp_tools.report_simulation")
    folder = study_folder(tmp_path, companion_edit)
    warned = []
    original = report_simulation.warn
    report_simulation.warn = warned.append
    try:
        rows = report_simulation.load(str(folder))
    finally:
        report_simulation.warn = original
    assert len(warned) == 1 and "no steady state" in warned[0] and words in warned[0], warned
    assert len(rows) == 1 and "steady" not in rows[0][6]
