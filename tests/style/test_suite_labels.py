#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every CTest test carries the label of its suite (tests/README.md): a test registered under
tests/FOLDER/ has the label FOLDER, so `ctest -L FOLDER` runs that folder whole; a test registered in
tests/CMakeLists.txt itself, or outside tests/ (examples), has a label. Read from
`ctest --show-only=json-v1` of the build, where each test's backtrace names the file that registered it.

Usage: test_suite_labels.py --ctest CTEST --build BUILD --root REPOSITORY"""
import argparse
import json
import os
import subprocess
import sys


def registering_folder(test, graph, tests_root):
    """The folder under tests/ whose CMake file registered `test` ("" for tests/CMakeLists.txt itself),
    following the backtrace out of helper functions (cmake/AmpTesting.cmake) to their caller."""
    node = test.get("backtrace")
    while node is not None:
        path = os.path.realpath(graph["files"][graph["nodes"][node]["file"]])
        if path.startswith(tests_root + os.sep):
            relative = os.path.relpath(path, tests_root)
            return relative.split(os.sep)[0] if os.sep in relative else ""
        node = graph["nodes"][node].get("parent")
    return None


def unlabelled(listing, tests_root):
    """'name: what is missing' for each test without its suite's label."""
    graph = listing["backtraceGraph"]
    missing = []
    for test in listing["tests"]:
        labels = [v for p in test.get("properties", []) if p["name"] == "LABELS" for v in p["value"]]
        folder = registering_folder(test, graph, tests_root)
        if folder is None and not labels:
            missing.append(f"{test['name']}: registered outside tests/, with no label")
        elif folder and folder not in labels:
            missing.append(f"{test['name']}: no label {folder} (has {labels or 'none'})")
        elif not folder and not labels:
            missing.append(f"{test['name']}: no label")
    return missing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ctest", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--root", required=True)
    a = parser.parse_args()
    shown = subprocess.run([a.ctest, "--show-only=json-v1"], cwd=a.build, capture_output=True, text=True)
    if shown.returncode != 0:
        print(f"test_suite_labels: ctest --show-only failed in {a.build}: {shown.stderr.strip()}")
        return 1
    listing = json.loads(shown.stdout)
    missing = unlabelled(listing, os.path.realpath(os.path.join(a.root, "tests")))
    if missing:
        print(f"{len(missing)} of {len(listing['tests'])} tests lack their suite's label: " + "; ".join(missing))
        return 1
    print(f"all {len(listing['tests'])} tests carry their suite's label")
    return 0


if __name__ == "__main__":
    sys.exit(main())
