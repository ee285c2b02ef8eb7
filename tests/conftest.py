# SPDX-License-Identifier: BSD-3-Clause
"""pytest's part of tests/: tests/python alone. The test_*.py files of the other folders are CTest's
scripts (each runs a real program, with the arguments tests/<folder>/CMakeLists.txt gives it), so a
`pytest tests` collects nothing from them rather than importing them without their arguments."""
from pathlib import Path

PYTEST_FOLDER = Path(__file__).resolve().parent / "python"


def pytest_ignore_collect(collection_path, config):
    path = Path(collection_path).resolve()
    if path == PYTEST_FOLDER or PYTEST_FOLDER in path.parents or path in PYTEST_FOLDER.parents:
        return None
    return True
