# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of the amp_tools unit tests: the repository's folders and a writer of study files."""
import os

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


@pytest.fixture
def repo():
    """The repository root (inputs/, tests/driver/fixtures/)."""
    return ROOT


@pytest.fixture
def network_file(repo):
    """The path of inputs/networks/NAME.toml."""
    return lambda name: os.path.join(repo, "inputs", "networks", f"{name}.toml")


@pytest.fixture
def report_fixtures(repo):
    """Real amp-ghost and amp-sage results (tests/driver/fixtures/report)."""
    return os.path.join(repo, "tests", "driver", "fixtures", "report")


@pytest.fixture
def study_file(tmp_path):
    """Writes a study file's text under tmp_path and returns its path."""
    def write(text, name="study.toml"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write
