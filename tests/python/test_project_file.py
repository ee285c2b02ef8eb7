# SPDX-License-Identifier: BSD-3-Clause
"""The root's pyproject.toml: pip builds and installs amp_tools from it, and `python3 -m pytest`
at the root collects the Python tests alone (tests/python), without a collection error."""
import os
import shutil
import subprocess
import sys

import pytest


def has_pip():
    return subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0


@pytest.mark.skipif(not has_pip(), reason="no pip for this python3 (Debian: python3-pip)")
def test_pip_installs_every_module_of_amp_tools(repo, tmp_path):
    """Built from a copy (setuptools builds in the project's own build/, which here is CMake's), offline, with
    the setuptools at hand."""
    source = tmp_path / "source"
    os.makedirs(source / "tools")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(repo, name), source / name)
    shutil.copytree(os.path.join(repo, "tools", "amp_tools"), source / "tools" / "amp_tools",
                    ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
                           "--no-index", "--target", str(tmp_path / "site"), str(source)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = {n for n in os.listdir(os.path.join(repo, "tools", "amp_tools")) if n.endswith(".py")}
    assert modules and modules <= set(os.listdir(tmp_path / "site" / "amp_tools"))


def test_pytest_at_the_root_collects_the_python_tests_alone(repo):
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=repo,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert collected and all(line.startswith("tests/python/test_") for line in collected), collected[:5]
    assert any(line.startswith("tests/python/test_project_file.py::") for line in collected)
