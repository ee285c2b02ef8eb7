# SPDX-License-Identifier: BSD-3-Clause
"""What the tools' JSON readers do with files they cannot use: one line, never a traceback. JSON nested
about 100,000 deep (schemas, compare_runs, results --verified, the report), a proxy results file whose
"mode" is a list or a table (schemas), a file of a newer schema_version than this AMP reads (refused by
compare_runs, left out by the report with one warning), and a study's compute_model.json cut short (kept
aside on resume, the models measured again)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from amp_tools import results
from amp_tools import schemas
from amp_tools.study_compute_model import ComputeModels

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "schemas")
DEEP = "[" * 100_000 + "]" * 100_000


def run_module(module, *arguments):
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=TOOLS))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def newer(tmp_path):
    with open(os.path.join(FIXTURES, "results-ghost.json")) as f:
        run = json.load(f)
    run["schema_version"] = 3
    path = tmp_path / "ghost-bspma-np2-rep1.json"
    path.write_text(json.dumps(run))
    return str(path)


def test_deep_json_is_one_line_in_every_reader(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    with pytest.raises(ValueError, match="nested more deeply than AMP reads"):
        results.load(str(deep))
    assert run_module("amp_tools.schemas", str(deep)) == (
        1, [f"schemas: '{deep}' is nested more deeply than AMP reads"])
    assert run_module("amp_tools.compare_runs", str(deep)) == (
        2, [f"compare_runs: error: '{deep}' is not JSON (nested more deeply than AMP reads)"])
    assert run_module("amp_tools.results", "--verified", str(deep)) == (1, [])


@pytest.mark.parametrize("mode", [["synthesis"], {"a": 1}])
def test_a_mode_that_is_no_name_is_told_apart_not_crashed_on(tmp_path, mode):
    assert schemas.kind_of({"proxy": "amp-ghost", "mode": mode}) == "results"
    path = tmp_path / "odd.json"
    with open(os.path.join(FIXTURES, "results-synthesis.json")) as f:
        doc = json.load(f)
    doc["mode"] = mode
    path.write_text(json.dumps(doc))
    code, lines = run_module("amp_tools.schemas", str(path))
    assert code == 1 and len(lines) == 1 and lines[0].startswith(f"schemas: {path}: not a valid results file"), lines


def test_a_newer_schema_version_is_refused_by_compare_runs(tmp_path):
    path = newer(tmp_path)
    with pytest.raises(results.NewerSchema, match="schema_version 3 is newer than this AMP reads \\(2\\)"):
        results.load(path)
    assert run_module("amp_tools.compare_runs", path) == (
        2, [f"compare_runs: error: '{path}': schema_version 3 is newer than this AMP reads (2)"])


def test_the_report_leaves_out_deep_and_newer_files_with_one_line_each(tmp_path, report_fixtures):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copy(os.path.join(report_fixtures, "ghost-bspma-np1-rep1.json"), folder)
    (folder / "deep.json").write_text(DEEP)
    path = newer(folder)
    code, lines = run_module("amp_tools.report", str(folder))
    warnings = [line for line in lines if line.startswith("report: warning:")]
    assert code == 0 and warnings == [
        f"report: warning: {folder}/deep.json is not readable JSON (nested more deeply than AMP reads); left out",
        f"report: warning: {path}: schema_version 3 is newer than this AMP reads (2); left out"], lines


@pytest.mark.parametrize("text", ['{"models": {"ghost": {"seconds": 1.0', '[1, 2]',
                                  '{"models": {"x": {"seconds": "1"}}}'])
def test_a_compute_model_file_cut_short_is_kept_aside_and_measured_again(tmp_path, capsys, text):
    path = tmp_path / "compute_model.json"
    path.write_text(text)
    models = ComputeModels(str(tmp_path), None, "/b")
    assert models.data == {"node": None, "models": {}}
    assert (tmp_path / "compute_model.json.attempt-1").read_text() == text and not path.exists()
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith(f"study: {path} is unreadable (") and "measured again" in out[0]


def test_a_whole_compute_model_file_is_read(tmp_path):
    shutil.copy(os.path.join(FIXTURES, "compute_model.json"), tmp_path)
    models = ComputeModels(str(tmp_path), None, "/b")
    assert models.data["models"] and not (tmp_path / "compute_model.json.attempt-1").exists()
