# SPDX-License-Identifier: BSD-3-Clause
"""A study's runs are what their names say: `flags` may not give a flag the study sets itself (it would
override the axis under the axis's name), a study's name makes no hidden folder, and a finished run made
from another deck or other flags than now is run again on resume (what it was made from is recorded by
content in its outcome)."""
import json
import os
import shutil

import pytest

from amp_tools import study_runs
from amp_tools.study import Study, StudyError

BASE = 'name = "s"\nproxies = ["ghost"]\nranks = [1]\nstrategies = ["bspma", "svaf"]\n'
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "schemas")


@pytest.mark.parametrize("flags, flag, key", [
    ("--comm_method svcp", "--comm_method", "the key 'strategies'"),
    ("--num_vars 2 --strategy=svcp", "--strategy", "the key 'strategies'"),
    ("--transport rma", "--transport", "the key 'transports'"),
    ("--input other.toml", "--input", "the key 'decks'"),
    ("--results r.json", "--results", "the study's own (each run's results file)"),
    ("--trace t", "--trace", "the key 'trace'"),
    ("--ranks 4", "--ranks", "the key 'ranks'"),
    ("--synthesize s --compute_seconds 1", "--synthesize", "the key '[simulate]'"),
])
def test_flags_that_the_study_sets_itself_are_refused(study_file, repo, flags, flag, key):
    path = study_file(BASE + f'flags = ["{flags}"]\n')
    with pytest.raises(StudyError) as refused:
        Study(path, repo)
    assert str(refused.value) == (f"{path} line 5: 'flags' value {flags!r} gives {flag}, which the study sets "
                                  f"itself: use {key} instead")


def test_other_flags_are_kept(study_file, repo):
    study = Study(study_file(BASE + 'flags = ["--num_vars 2 --trace-setup"]\n'), repo)
    assert study.runs("/b")[0]["args"][-3:] == ["--num_vars", "2", "--trace-setup"]


@pytest.mark.parametrize("name", [".", ".x", "-x"])
def test_a_study_name_makes_no_hidden_folder(study_file, repo, name):
    path = study_file(BASE.replace('"s"', f'"{name}"'))
    with pytest.raises(StudyError, match="not starting with '.' or '-'"):
        Study(path, repo)


@pytest.fixture
def finished_run(tmp_path, repo):
    """(the study's one run, its base path) with verified results and an outcome recording what it was made
    from, as run_locally leaves them."""
    deck = tmp_path / "deck.toml"
    deck.write_text("nx = 8\n")
    study_path = tmp_path / "study.toml"
    study_path.write_text(BASE + f'decks = ["{deck}"]\nflags = ["--num_vars 2"]\n')
    run = Study(str(study_path), repo).runs("/b")[0]
    base = str(tmp_path / run["id"])
    shutil.copy(os.path.join(FIXTURES, "results-ghost.json"), base + ".json")
    study_runs.record_outcome(base, 0, "none", None, run=run)
    return run, base, deck


def test_a_finished_run_of_the_same_deck_and_flags_is_kept(finished_run):
    run, base, _ = finished_run
    assert study_runs.finished(base) and not study_runs.made_from_another(base, run)
    with open(base + ".outcome.json") as f:
        recorded = json.load(f)["made_from"]
    assert recorded["arguments"] == run["args"][1:] and len(recorded["deck_sha256"]) == 64


def test_a_changed_deck_makes_the_run_again(finished_run):
    run, base, deck = finished_run
    deck.write_text("nx = 16\n")  # the same name, other contents
    assert study_runs.made_from_another(base, run)


def test_changed_flags_make_the_run_again(finished_run):
    run, base, _ = finished_run
    assert study_runs.made_from_another(base, dict(run, args=run["args"][:-1] + ["3"]))


def test_the_binarys_own_path_changes_nothing(finished_run):
    run, base, _ = finished_run
    assert not study_runs.made_from_another(base, dict(run, args=["/elsewhere/amp-ghost"] + run["args"][1:]))
