# SPDX-License-Identifier: BSD-3-Clause
"""The rules of the tree's text (tests/README.md): lines of at most 120 columns in code, an SPDX line on
every file that can carry a comment, and no tracker numbers in code or docs, since a reader outside the
team has no tracker to look them up in."""
import re

import pytest

from tracked_files import text, tracked_files

LIMIT = 120
KEPT_AS_IT_CAME = "tests/data/"  # sst-dumpi's reference traces and their source
CODE = re.compile(r"(\.(c|cc|cpp|h|hpp|py|cmake|cmake\.in|sh|toml)|/CMakeLists\.txt|^CMakeLists\.txt|^amp|^\.ci/run)$")
CAN_CARRY_A_COMMENT = re.compile(CODE.pattern[:-2] + r"|\.md)$")
# A study resumes only from a folder made by the same study file's bytes (study_folder.open_folder) and
# keeps a finished run only if its deck's bytes are the same (study_runs.made_from): a line added to a
# study file or a deck starts its studies again, so those carry no SPDX line.
DECKS = re.compile(r"^inputs/(ghost|sage|nobel|studies)/[^/]+\.toml$")
TRACKER = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def long_lines(path, source):
    return [f"{path}:{n}: {len(line)} columns" for n, line in enumerate(source.splitlines(), 1) if len(line) > LIMIT]


def lacks_spdx(path, source):
    return "SPDX-License-Identifier: BSD-3-Clause" not in "\n".join(source.splitlines()[:3])


def tracker_numbers(path, source):
    return [f"{path}:{n}: {m.group(0)}" for n, line in enumerate(source.splitlines(), 1)
            for m in TRACKER.finditer(line)]


def own_files(pattern):
    return [p for p in tracked_files() if pattern.search(p) and not p.startswith(KEPT_AS_IT_CAME)]


@pytest.mark.parametrize("rule, path, source", [
    (long_lines, "x.py", "a = 1\n" + "b" * 121 + "\n"),
    (lacks_spdx, "x.cmake", "# CMake without a licence line\n"),
    (lacks_spdx, "x.md", "# Title\n\nProse, and no licence line.\n"),
    (tracker_numbers, "x.cpp", "// as " + "Issue" + " 31 asked\n"),  # split, so that this file holds none
    (tracker_numbers, "x.md", "see " + "issue" + " #7\n"),
])
def test_each_rule_finds_what_breaks_it(rule, path, source):
    assert rule(path, source)


def test_lines_of_code_are_at_most_120_columns():
    assert [line for p in own_files(CODE) for line in long_lines(p, text(p))] == []


def test_every_file_that_can_carry_a_comment_has_an_spdx_line():
    assert [p for p in own_files(CAN_CARRY_A_COMMENT) if not DECKS.match(p) and lacks_spdx(p, text(p))] == []


def test_no_tracker_numbers_in_code_or_docs():
    checked = [p for p in own_files(re.compile(r"")) if not p.endswith(".png")]
    assert [hit for p in checked for hit in tracker_numbers(p, text(p))] == []
