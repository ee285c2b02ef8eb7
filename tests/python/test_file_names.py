# SPDX-License-Identifier: BSD-3-Clause
"""amp_tools.file_names, the one sanitizer of names from data that become file names: no
'..', separator, NUL, newline or over-long name gets through, distinct names stay distinct, and an
output path stays inside its folder."""
import os

import pytest

from amp_tools import file_names

HOSTILE = ["..", ".", "", "../../../victim", "a/b", "/etc/passwd", "a\0b", "a\nb", "\n", "x" * 300, ".hidden",
           "-", "a b", "\udc80", "ü", "C:\\x", "a/../../b"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_component_is_one_plain_name(name):
    safe = file_names.component(name)
    assert safe and safe not in (".", "..") and not safe.startswith(".")
    assert os.sep not in safe and "\0" not in safe and all(c.isprintable() and c != " " for c in safe)
    assert len(safe) <= file_names.MAX_LENGTH
    assert safe.isascii()


def test_a_plain_name_is_kept_as_it_is():
    for name in ("ghost", "amp-ghost", "torus-4x4x4", "ghost-breakdown.png", "a_b+c.d", "x" * file_names.MAX_LENGTH):
        assert file_names.component(name) == name


def test_a_changed_name_never_meets_a_plain_one():
    assert file_names.component("a/b") != file_names.component("a_b") == "a_b"
    assert file_names.component("a\nb") != file_names.component("a\0b")
    assert file_names.component("..") != file_names.component("_.")


def test_two_long_names_that_differ_at_their_end_stay_apart():
    first, second = "x" * 299 + "1", "x" * 299 + "2"
    assert file_names.component(first) != file_names.component(second)
    assert len(file_names.component(first)) == file_names.MAX_LENGTH
    assert file_names.component(first) == file_names.component(first)  # the same name, the same file


def test_a_value_of_another_kind_is_taken_as_text():
    assert file_names.component(42) == "42"
    assert file_names.component(None) == "None"
    assert "/" not in file_names.component(["a/b"])


@pytest.mark.parametrize("name", HOSTILE)
def test_an_output_path_stays_inside_its_folder(tmp_path, name):
    folder = str(tmp_path / "report")
    path = file_names.output_path(folder, name, name + ".png")
    assert os.path.dirname(os.path.dirname(path)) == folder
    inside = os.path.realpath(folder)
    assert os.path.commonpath([inside, os.path.realpath(path)]) == inside


def test_an_output_path_keeps_a_plain_name(tmp_path):
    folder = str(tmp_path)
    assert file_names.output_path(folder, "ghost-breakdown.png") == os.path.join(folder, "ghost-breakdown.png")
