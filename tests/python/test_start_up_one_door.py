# SPDX-License-Identifier: BSD-3-Clause
"""Start-up has one door: a proxy's command line is read once, by
src/amp/miniapps/common/start_request.cpp (one CLI11 pass, through command_line.cpp); the rest of src/amp/miniapps/
only passes argc/argv on (to that parser, MPI_Init, the trace's MPI_Init record). The strategy and
transport names are checked in one place (comm::checked_combination, through check_combination), and
the proxy hands its --trace folder to the tracing library with amp_dumpi_trace_into, not by setting
AMP_TRACE_DIR in its own environment."""
import os
import re

MINIAPPS = os.path.join("src", "amp", "miniapps")
PARSER = {os.path.join(MINIAPPS, "common", name)
          for name in ("start_request.hpp", "start_request.cpp", "command_line.cpp")}


def sources(repo):
    assert os.path.isdir(os.path.join(repo, MINIAPPS)), "the proxies' sources moved: scan where they are"
    for folder, _, names in os.walk(os.path.join(repo, MINIAPPS)):
        for name in names:
            if name.endswith((".cpp", ".hpp")):
                path = os.path.join(folder, name)
                with open(path) as f:
                    yield os.path.relpath(path, repo), f.read()


def test_only_the_parser_reads_argv(repo):
    reading = re.compile(r"\bargv\s*(\[|\+\+|\+ )|prescanned_|strn?cmp\(\s*argv")
    readers = [path for path, text in sources(repo) if path not in PARSER and reading.search(text)]
    assert readers == []


def test_the_configuration_leaves_the_names_to_checked_combination(repo):
    lookup = re.compile(r"\b(is_strategy|find_strategy|find_transport)\s*\(")
    assert [path for path, text in sources(repo) if lookup.search(text)] == []


def test_the_trace_folder_goes_through_the_library_api(repo):
    assert [path for path, text in sources(repo) if re.search(r'setenv\(\s*"AMP_TRACE', text)] == []
    with open(os.path.join(repo, MINIAPPS, "common", "environment.cpp")) as f:
        assert "amp_dumpi_trace_into(" in f.read()
