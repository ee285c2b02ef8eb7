# SPDX-License-Identifier: BSD-3-Clause
"""Docs a reader can finish: no Markdown file over 500 lines, docs/PERFORMANCE.md (the current numbers)
at most 400; the dated history lives under docs/history/, whose files say so in their first lines and
may be long. Every relative link of a doc names a file that exists."""
import os
import re

import pytest

from tracked_files import ROOT, text, tracked_files

LIMIT, PERFORMANCE_LIMIT = 500, 400
HISTORY = "docs/history/"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def length_problem(path, source):
    lines = len(source.splitlines())
    if path.startswith(HISTORY):
        head = "\n".join(source.splitlines()[:6]).lower()
        return None if "history" in head else f"{path}: a file of docs/history/ says in its first lines it is history"
    limit = PERFORMANCE_LIMIT if path == "docs/PERFORMANCE.md" else LIMIT
    return f"{path}: {lines} lines, more than {limit}" if lines > limit else None


def broken_links(path, source):
    broken = []
    for target in LINK.findall(source):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue  # a URL or an anchor in the same file
        local = os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))
        if not os.path.exists(os.path.join(ROOT, local)):
            broken.append(f"{path}: {target}")
    return broken


def docs():
    return [p for p in tracked_files() if p.endswith(".md") and not p.startswith("tests/data/")]


@pytest.mark.parametrize("path, source", [
    ("docs/USAGE.md", "line\n" * 501),
    ("docs/PERFORMANCE.md", "line\n" * 401),
    ("docs/history/old.md", "# Old numbers\n\nA diary.\n"),
])
def test_each_limit_finds_what_breaks_it(path, source):
    assert length_problem(path, source)


def test_a_link_to_a_missing_doc_is_found():
    assert broken_links("README.md", "[tracing](docs/TRACING.md) [x](https://example.org) [y](#local)") == [
        "README.md: docs/TRACING.md"]


def test_no_doc_over_its_limit():
    assert [p for p in (length_problem(d, text(d)) for d in docs()) if p] == []


def test_every_relative_link_names_a_file_that_exists():
    assert [b for d in docs() for b in broken_links(d, text(d))] == []
