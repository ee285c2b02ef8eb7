# SPDX-License-Identifier: BSD-3-Clause
"""tests/README.md's convention, followed by every file under tests/: a Python test is test_*.py
(pytest's in tests/python, CTest's scripts elsewhere) and every other Python file there is a module a
test imports; a C/C++ test is *_test.c(pp) (GoogleTest, or a program whose exit status is the verdict);
a program a test runs and judges from outside is *_program.c(pp); a shell test is test_*.sh and a
launcher it hands a run to is *_launcher.sh; every script CTest runs is a test_*; one folder per part of
the house, each listed in tests/README.md."""
import os
import re

import pytest

from tracked_files import ROOT, text, tracked_files

GTEST = re.compile(r"^\s*(TEST|TEST_F|TEST_P|TYPED_TEST)\(", re.MULTILINE)
MAIN = re.compile(r"\bint\s+main\s*\(")
WRONG_PYTHON = re.compile(r"^(check_\w*|\w+_tests?|\w+_check)\.py$")
IMPORT = re.compile(r"^\s*(?:from\s+(\w+)\s+import|import\s+(\w+))", re.MULTILINE)
# A script after the interpreter (or as a checker) in a test's command, from the CMake files under tests/.
COMMAND_SCRIPT = re.compile(r"(?:\$\{(?:Python3_EXECUTABLE|AMP_SCHEMAS_PYTHON|AMP_DEBIAN_PYTHON)\}|CHECKER|\bbash)"
                            r"\s+(\S+?\.(?:py|sh))\b")
OWN_FILES = {"CMakeLists.txt", "README.md", "conftest.py"}


def naming_problem(path, source, imported):
    """Why `path` (under tests/, holding `source`) breaks the convention, or None. `imported`: the
    module names some test imports."""
    name = os.path.basename(path)
    if name.endswith(".py"):
        if WRONG_PYTHON.match(name):
            return f"{path}: a Python test is named test_*.py"
        if name == "conftest.py" or name.startswith("test_") or name[:-3] in imported:
            return None
        return f"{path}: a Python file under tests/ is a test (test_*.py) or a module a test imports"
    if re.search(r"\.(c|cpp)$", name):
        gtest, main = GTEST.search(source), MAIN.search(source)
        if re.search(r"_test\.(c|cpp)$", name):
            return None if gtest or main else f"{path}: named as a test but holds no TEST() and no main"
        if re.search(r"_program\.(c|cpp)$", name):
            return None if main and not gtest else f"{path}: a *_program file is a program with a main, no TEST()"
        if gtest:
            return f"{path}: holds GoogleTest tests, so is named *_test.cpp"
        if main and not name.endswith("_test_main.cpp"):
            return f"{path}: has a main: a test (*_test.cpp) or a program a test runs (*_program.cpp)"
        return None  # a part compiled into tests (tests/comm/toy_strategy.cpp, tests/common/*_test_main.cpp)
    if name.endswith(".sh") and not (name.startswith("test_") or name.endswith("_launcher.sh")):
        return f"{path}: a shell test is test_*.sh, a launcher a test hands a run to *_launcher.sh"
    return None


def commands_not_tests(cmake_sources):
    """The scripts under tests/ that a CMake file runs as (part of) a test's command but that are not
    named test_*."""
    wrong = []
    for path, source in cmake_sources.items():
        for script in COMMAND_SCRIPT.findall(source):
            under_tests = "tests/" in script or script.startswith(("${CMAKE_CURRENT_SOURCE_DIR}",
                                                                   "${CMAKE_CURRENT_LIST_DIR}"))
            if under_tests and not os.path.basename(script).startswith("test_"):
                wrong.append(f"{path}: runs {script}, which is not named test_*")
    return wrong


def files_under_convention():
    """The files under tests/ that the convention names: all but tests/data/ and fixture folders."""
    return [p for p in tracked_files() if p.startswith("tests/") and not p.startswith("tests/data/")
            and "/fixtures/" not in p]


def imported_modules(paths):
    names = set()
    for path in paths:
        if path.endswith(".py"):
            names.update(a or b for a, b in IMPORT.findall(text(path)))
    return names


@pytest.mark.parametrize("path, source", [
    ("tests/trace/check_round_trip.py", ""),
    ("tests/trace/round_trip_test.py", ""),
    ("tests/trace/fault_tests.py", ""),
    ("tests/trace/round_trip_check.py", ""),
    ("tests/trace/helpers_nobody_imports.py", ""),
    ("tests/trace/round_trip.cpp", "TEST(RoundTrip, EveryCall) {}"),
    ("tests/trace/round_trip_check.cpp", "int main(int argc, char** argv) { return 0; }"),
    ("tests/trace/round_trip_test.cpp", "// names itself a test, holds none"),
    ("tests/trace/ring_program.cpp", "TEST(Ring, Sends) {}"),
    ("tests/driver/check_driver.sh", "#!/bin/sh"),
])
def test_a_misnamed_file_is_named_with_its_rule(path, source):
    assert naming_problem(path, source, imported={"checked_run"}).startswith(f"{path}: ")


@pytest.mark.parametrize("path, source", [
    ("tests/trace/test_round_trip.py", ""),
    ("tests/common/checked_run.py", ""),
    ("tests/python/conftest.py", ""),
    ("tests/trace/round_trip_test.cpp", "TEST(RoundTrip, EveryCall) {}"),
    ("tests/trace/trace_into_test.cpp", "int main() { return 0; }"),
    ("tests/trace/ring_program.c", "int main(int argc, char** argv) { return 0; }"),
    ("tests/common/mpi_test_main.cpp", "int main(int argc, char** argv) { return 0; }"),
    ("tests/comm/toy_strategy.cpp", "namespace amp {}"),
    ("tests/driver/test_driver.sh", ""),
    ("tests/faults/slow_launcher.sh", ""),
])
def test_a_well_named_file_passes(path, source):
    assert naming_problem(path, source, imported={"checked_run"}) is None


def test_every_file_under_tests_follows_the_convention():
    paths = files_under_convention()
    imported = imported_modules(paths)
    problems = [naming_problem(p, text(p), imported) for p in paths]
    assert [p for p in problems if p] == []


def test_a_command_script_not_named_as_a_test_is_found():
    cmake = {"tests/trace/CMakeLists.txt": "add_test(NAME x COMMAND ${Python3_EXECUTABLE} "
                                           "${CMAKE_CURRENT_SOURCE_DIR}/run_traced.py a b)\n"
                                           "add_test(NAME y COMMAND ${Python3_EXECUTABLE} "
                                           "${PROJECT_SOURCE_DIR}/bench/setup/plan_scaling.py)"}
    assert commands_not_tests(cmake) == ["tests/trace/CMakeLists.txt: runs "
                                         "${CMAKE_CURRENT_SOURCE_DIR}/run_traced.py, which is not named test_*"]


def test_every_script_ctest_runs_is_named_as_a_test():
    cmake = {p: text(p) for p in tracked_files()
             if (p.startswith("tests/") and (p.endswith(".cmake") or p.endswith("CMakeLists.txt")))
             or p == "cmake/AmpTesting.cmake"}
    assert commands_not_tests(cmake) == []


def test_one_folder_per_part_each_in_the_readme():
    readme = text("tests/README.md")
    listed = set(re.findall(r"^\| `(\w+)/` \|", readme, re.MULTILINE))
    paths = tracked_files()
    folders = {p.split("/")[1] for p in paths if p.startswith("tests/") and p.count("/") >= 2}
    loose = sorted(p for p in paths if p.startswith("tests/") and p.count("/") == 1
                   and os.path.basename(p) not in OWN_FILES)
    assert (sorted(folders - listed), sorted(listed - folders), loose) == ([], [], [])
    assert os.path.isdir(os.path.join(ROOT, "tests", "python"))
