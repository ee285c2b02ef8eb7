#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks every JSON file the tests wrote under a build's tests/ folder against its schema (docs/schema/,
amp_tools.schemas): the CTest test schemas_validate_every_json_written, which runs after every other test.

Passed over: a file older than the newest of the --code paths (the binaries, amp_tools, the schemas: it
may be from before them, a stale output of an earlier build); a byte-for-byte copy of a file under a
--fixtures folder (older results a test gives a reader); a file under an --except folder (a test's own
hand-made or broken input, relative to --tree); and the one JSON file AMP keeps that is no results
(a simulation's machine.json). Every other file must be of a known kind and fit
its schema. With AMP_SCHEMAS_EVERY_KIND=1 in the environment (the whole suite ran) each --expect kind
must also have been seen at least once.

Usage: test_json_outputs.py --tree DIR --code PATH... [--fixtures DIR...] [--except DIR...] [--expect KIND...]
Prints one line per invalid file and a count per kind; exit 0 when all fit, 1 when not, 2 for bad usage.
"""
import argparse
import collections
import hashlib
import os
import sys

from amp_tools import command_line
from amp_tools import schemas

NOT_RESULTS = ("machine.json",)  # a simulation's machine.json: no results; an export's source.json has its kind


def newest(paths):
    """The newest modification time of the files at or under `paths` (Python's byte-code caches, which
    a test's import may write, left out)."""
    times = [0.0]
    for path in paths:
        for folder, _, names in os.walk(path) if os.path.isdir(path) else [("", [], [path])]:
            times += [os.path.getmtime(os.path.join(folder, n)) for n in names
                      if "__pycache__" not in folder and not n.endswith(".pyc")]
    return max(times)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def fixture_digests(folders):
    """The digests of every JSON file under a 'fixtures' folder below `folders`."""
    return {digest(os.path.join(folder, name)) for top in folders for folder, _, names in os.walk(top)
            if f"{os.sep}fixtures" in folder for name in names if name.endswith(".json")}


def written_files(tree, excepted):
    """The JSON files under `tree`, less those under an excepted folder (relative to tree) and CMake's own."""
    for folder, subfolders, names in os.walk(tree):
        relative = os.path.relpath(folder, tree)
        subfolders[:] = sorted(s for s in subfolders if s != "CMakeFiles"
                               and os.path.normpath(os.path.join(relative, s)) not in excepted)
        yield from (os.path.join(folder, n) for n in sorted(names) if n.endswith(".json"))


def check(opts):
    """(problem lines, count per kind, files passed over) of the tree."""
    since = newest(opts.code)
    fixtures = fixture_digests(opts.fixtures)
    excepted = {os.path.normpath(e) for e in opts.excepted}
    problems, kinds, passed_over = [], collections.Counter(), 0
    for path in written_files(opts.tree, excepted):
        if (os.path.basename(path) in NOT_RESULTS or os.path.getmtime(path) < since
                or digest(path) in fixtures):
            passed_over += 1
            continue
        try:
            kinds[schemas.checked(path)] += 1
        except (schemas.SchemaError, command_line.BadInput) as e:
            problems.append(str(e))
    if os.environ.get("AMP_SCHEMAS_EVERY_KIND") == "1":
        problems += [f"no {kind} file was written (the whole suite ran: AMP_SCHEMAS_EVERY_KIND=1)"
                     for kind in opts.expect if kinds[kind] == 0]
    return problems, kinds, passed_over


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", required=True, help="the build's tests/ folder")
    parser.add_argument("--code", nargs="+", required=True, help="what writes the files, and the schemas")
    parser.add_argument("--fixtures", nargs="*", default=[], help="source folders whose fixtures/ are copied")
    parser.add_argument("--except", dest="excepted", nargs="*", default=[], help="folders of hand-made inputs")
    parser.add_argument("--expect", nargs="*", default=[], choices=schemas.KINDS, help="kinds the suite writes")
    opts = parser.parse_args()
    problems, kinds, passed_over = check(opts)
    for line in problems:
        print(f"schemas: {line}")
    counts = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())) or "none"
    print(f"schemas: {sum(kinds.values())} files checked ({counts}); {passed_over} passed over; "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
