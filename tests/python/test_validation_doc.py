# SPDX-License-Identifier: BSD-3-Clause
"""Every AMP number of docs/VALIDATION.md's profile and swap tables comes from a committed summary
(docs/validation/<study>.json, written by amp_tools.validation_summary from the study's run folder): each such
table is marked with the command that prints it, and is exactly what that command prints from the summary;
every summary is quoted. Skipped only while docs/validation/ holds no summary at all."""
import os

import pytest

from amp_tools import validation_summary


def summaries(repo):
    return validation_summary.summary_files(repo)


def test_validation_tables_are_their_summaries(repo):
    if not summaries(repo):
        pytest.skip("docs/validation/ holds no summary yet (python3 -m amp_tools.validation_summary RUN_DIR "
                    "--output docs/validation/NAME.json writes one): VALIDATION.md's tables are not checked")
    problems, named = validation_summary.check_document(os.path.join(repo, "docs", "VALIDATION.md"), repo)
    assert not problems, "\n".join(problems)
    assert named == {os.path.normpath(p) for p in summaries(repo)}


def test_every_summary_is_small_and_names_its_run_folder(repo):
    if not summaries(repo):
        pytest.skip("docs/validation/ holds no summary yet")
    for path in summaries(repo):
        assert os.path.getsize(path) < 200_000, f"{path}: a summary should be small"
        summary = validation_summary.load_summary(path)
        assert summary["run_folder"].startswith(summary["study"] + "-") and summary["points"], path
