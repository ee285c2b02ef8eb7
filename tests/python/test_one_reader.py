# SPDX-License-Identifier: BSD-3-Clause
"""Every reader of results goes through results.py: no module of amp_tools parses a JSON file
itself but results.py; what the others parse is text a process handed them, never a file. results.read, the
checked reader for a file named on the command line, says what is wrong in one line."""
import glob
import os
import re

import pytest

import amp_tools
from amp_tools import command_line
from amp_tools import results

PACKAGE = os.path.join(amp_tools.REPOSITORY, "tools", "amp_tools")
# Modules that parse JSON that is no file, and what it is.
NOT_FILES = {
    "combinations.py": "the proxy's --list-combinations --json on its standard output",
    "simulators/simgrid_figures.py": "the SimGrid platform library's answer on a pipe",
    "simgrid_routes.py": "a request read from standard input",
    "schemas.py": "the schema checker: any JSON file, with its own rule for NaN",
}


def test_only_results_py_parses_json_files():
    parsers = re.compile(r"\bjson\.loads?\(")
    found = []
    for path in sorted(glob.glob(os.path.join(PACKAGE, "**", "*.py"), recursive=True)):
        name = os.path.relpath(path, PACKAGE)
        with open(path) as f:
            if parsers.search(f.read()) and name not in NOT_FILES and name != "results.py":
                found.append(name)
    assert not found, f"parse JSON files themselves instead of results.load/results.read: {found}"


def test_read_says_what_is_wrong_in_one_line(tmp_path):
    missing, folder, broken = tmp_path / "missing.json", tmp_path / "folder.json", tmp_path / "broken.json"
    folder.mkdir()
    broken.write_bytes(b"{\"config\": \xff}")
    for path, words in ((missing, "no such file"), (folder, "is not a regular file"), (broken, "is not JSON")):
        with pytest.raises(command_line.BadInput, match=words) as raised:
            results.read(str(path))
        assert "\n" not in str(raised.value) and str(path) in str(raised.value)


def test_a_file_named_on_the_command_line_is_read_by_results_read_alone(tmp_path):
    """One name for the one reader: results.read (command_line keeps no second name for it, and imports no
    results module: no import circle)."""
    run = tmp_path / "run.json"
    run.write_text('{"config": {"strategy": "svaf"}}')
    assert results.read(str(run)) == results.load(str(run))
    assert not hasattr(command_line, "read_json")
    with open(command_line.__file__) as f:
        assert "import results" not in f.read()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(command_line.BadInput, match="is not a regular file"):
        results.read(str(fifo))
