# SPDX-License-Identifier: BSD-3-Clause
"""Reading a proxy's results JSON (amp_tools.results, the one reader of its layout), checking its shape
(amp_tools.results_shape), and the comparison table built from it (amp_tools.compare_runs), on real runs."""
import copy
import json
import os

import pytest

from amp_tools import compare_runs, results, results_shape


@pytest.fixture
def ghost(report_fixtures):
    return results.load(os.path.join(report_fixtures, "ghost-bspma-np2-rep1.json"))


def test_the_run_is_read_as_the_proxy_wrote_it(ghost):
    assert (results.strategy(ghost), results.transport(ghost), results.checksum(ghost)) == ("bspma", "isend",
                                                                                      "43f2770443547255")
    assert results.verified(ghost)
    assert results.step_seconds(ghost) == pytest.approx(0.0139805645)


def test_timings_per_step_in_ms_and_missing_entries_as_zero(ghost):
    steps = ghost["config"]["num_tsteps"]
    assert results.steps(ghost) == steps
    assert results.per_step_ms(ghost, "compute") == pytest.approx(ghost["timing"]["compute"]["avg"] / steps * 1e3)
    assert results.per_step_ms(ghost, "compute", "max") >= results.per_step_ms(ghost, "compute", "min")
    assert results.per_step_ms(ghost, "no_such_entry") == 0.0


def test_messages_and_bytes(ghost):
    assert results.average_message_bytes(ghost) == pytest.approx(ghost["bytes"]["total"] / ghost["messages"]["total"])
    assert results.messages_per_step_per_rank(ghost) == 1.0


def test_finished_means_written_and_verified(report_fixtures, tmp_path, ghost):
    assert results.finished(os.path.join(report_fixtures, "ghost-bspma-np2-rep1.json"))
    assert not results.finished(str(tmp_path / "missing.json"))
    failed = copy.deepcopy(ghost)
    failed["verification"]["passed"] = False
    (tmp_path / "failed.json").write_text(json.dumps(failed))
    (tmp_path / "torn.json").write_text(json.dumps(ghost)[:100])
    assert not results.finished(str(tmp_path / "failed.json")) and not results.finished(str(tmp_path / "torn.json"))


@pytest.mark.parametrize("change, problem", [
    (lambda r: r.pop("proxy"), "'proxy' is not a name"),
    (lambda r: r.update(ranks=0), "'ranks' is not a positive integer"),
    (lambda r: r["timing"].update(per_step_seconds="fast"), "'timing.per_step_seconds' is not a number"),
    (lambda r: r["config"].update(num_tsteps=0), "'config.num_tsteps' is not a positive integer"),
    (lambda r: r["verification"].update(passed="yes"), "'verification.passed' is not true or false"),
])
def test_a_results_file_of_another_shape_is_named_by_its_first_problem(ghost, change, problem):
    assert results_shape.results_problem(ghost) is None
    broken = copy.deepcopy(ghost)
    change(broken)
    assert results_shape.results_problem(broken).startswith(problem)


def test_the_table_compares_runs_against_the_first(report_fixtures):
    paths = [os.path.join(report_fixtures, n) for n in ("ghost-bspma-np2-rep1.json", "ghost-svcp-np2-rep1.json")]
    lines, agree = compare_runs.table(paths)
    assert agree
    assert lines[0].split()[:3] == ["strategy", "transport", "ms/step"]
    assert lines[1].split()[:4] == ["bspma", "isend", "13.98", "1.00x"]
    assert lines[2].split()[:4] == ["svcp", "isend", "14.99", "1.07x"]
    assert lines[-1] == "checksums identical across 2 runs"


def test_the_table_says_when_checksums_differ(report_fixtures):
    paths = [os.path.join(report_fixtures, n) for n in ("ghost-bspma-np2-rep1.json", "ghost-bspma-np1-rep1.json")]
    lines, agree = compare_runs.table(paths)
    assert not agree and lines[-1] == "checksums DIFFER across 2 runs"


def test_machine_load_is_none_for_older_results_and_other_files(ghost):
    assert results.machine_load({"proxy": "amp-ghost"}) is None
    assert results.machine_load(["not", "a", "run"]) is None
    assert results.machine_load({"machine_load": 3}) is None
    assert results.machine_load({"machine_load": {"cores": 2}}) == {"cores": 2}


def test_verified_on_the_command_line_is_the_exit_code(report_fixtures, tmp_path):
    assert results.main(["--verified", os.path.join(report_fixtures, "ghost-bspma-np2-rep1.json")]) == 0
    assert results.main(["--verified", str(tmp_path / "missing.json")]) == 1
    assert results.main(["--what"]) == 2
