# SPDX-License-Identifier: BSD-3-Clause
"""Lines the report and the driver's load check print, each saying what is so: report in an environment
without matplotlib names what to install; report on a folder that does not exist says so; a results file
without a strategy is shown as '?', never 'None'; machine_load reads a run's results only where the run
wrote them (after a refused run, a file at that name is someone else's) and can name the run instead of a
scratch file the driver removes."""
import json
import os
import shutil
import subprocess
import sys

import pytest

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "schemas")


def run_module(module, *arguments, python=(sys.executable,)):
    done = subprocess.run([*python, "-m", module, *arguments], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=TOOLS))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def test_report_without_matplotlib_says_what_to_install(report_fixtures, tmp_path):
    # python3 -S: the standard library alone, no site-packages (where matplotlib lives), as a fresh venv
    shutil.copytree(report_fixtures, tmp_path / "results")
    code, lines = run_module("amp_tools.report", str(tmp_path / "results"), python=(sys.executable, "-S"))
    assert code == 2 and lines == [
        "report: error: the Python module matplotlib is missing, which draws the figures (pip install matplotlib, "
        "or pip install -e '.[report]'; Debian: apt-get install python3-matplotlib)"], lines


def test_report_on_a_folder_that_does_not_exist_says_so(tmp_path):
    pytest.importorskip("matplotlib")
    assert run_module("amp_tools.report", str(tmp_path / "nowhere")) == (
        2, [f"report: error: '{tmp_path}/nowhere': no such folder"])


def test_a_run_without_a_strategy_is_shown_as_a_question_mark(report_fixtures, tmp_path):
    from amp_tools import report_index, report_points, results
    folder = tmp_path / "results"
    folder.mkdir()
    for name in ("ghost-bspma-np2-rep1.json", "ghost-svcp-np2-rep1.json"):
        shutil.copy(os.path.join(report_fixtures, name), folder)
    path = folder / "ghost-svcp-np2-rep1.json"
    run = json.loads(path.read_text())
    run["config"].pop("strategy", None)
    run["config"].pop(results.OLD_STRATEGY, None)  # the fixture's: version 1, written before `strategy`
    path.write_text(json.dumps(run))
    rows = report_index.table_rows(report_points.group(report_points.load_runs(str(folder))))
    assert sorted(r["point"] for r in rows) == ["?", "bspma"]


def test_machine_load_reads_only_results_the_run_wrote(tmp_path):
    someone_elses = tmp_path / "r.json"
    someone_elses.write_text("my notes, not JSON")
    assert run_module("amp_tools.machine_load", str(someone_elses), "--exit-status", "2") == (0, [])
    code, lines = run_module("amp_tools.machine_load", str(someone_elses), "--exit-status", "0")
    assert code == 2 and len(lines) == 1 and "is not JSON" in lines[0]


def test_machine_load_names_the_run_instead_of_a_scratch_file(tmp_path):
    with open(os.path.join(FIXTURES, "results-ghost.json")) as f:
        run = json.load(f)
    run["machine_load"].update(other_cpu_seconds=10.0, wall_seconds=10.0, cores=2)  # half the node: shared
    path = tmp_path / "results.json"
    path.write_text(json.dumps(run))
    code, lines = run_module("amp_tools.machine_load", str(path), "--exit-status", "0", "--shown-as",
                             "this run (amp-ghost)")
    assert code == 0 and len(lines) == 1 and lines[0].startswith(
        "amp: warning: this run (amp-ghost): other work shared the cores"), lines
