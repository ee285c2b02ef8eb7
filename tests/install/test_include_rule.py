#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The one include rule (docs/BUILDING.md, Layout): a header's include path is where it lives, and it has one
# name. A header of the libraries and proxies is included as <amp/...>, which is the file src/amp/... (src/
# is the one include root); the tests', benchmarks' and examples' own headers, never installed, are included
# quoted, by their path from the including file ("../common/x.hpp"). No link in the source tree gives a
# header a second name, and there is no include/ folder of links. Prints each include that breaks the rule
# and each link; exit 1 if any.
import os
import sys

import test_library_includes as scan

LIBRARY_ROOT = "src"                                  # the include root: <amp/x> is src/amp/x
OWN_HEADERS = ("tests", "bench", "examples")          # folders whose headers are included quoted
FOLDERS = (LIBRARY_ROOT, *OWN_HEADERS, "tools")


def links():
    """Every symbolic link under the scanned folders, and an include/ folder at the top."""
    if os.path.lexists(os.path.join(scan.ROOT, "include")):
        yield "include/  (a folder of second names: headers are included from src/)"
    for top in FOLDERS:
        for folder, dirs, files in os.walk(os.path.join(scan.ROOT, top)):
            for name in dirs + files:
                path = os.path.join(folder, name)
                if os.path.islink(path):
                    yield f"{os.path.relpath(path, scan.ROOT)}  (a link: a second name for what it points to)"


def problem(path, bracket, target, headers):
    """What is wrong with one include of the file at `path`, or None."""
    top = os.path.relpath(path, scan.ROOT).split(os.sep)[0]
    if bracket == "<" and target.startswith("amp/"):
        if not os.path.isfile(os.path.join(scan.ROOT, LIBRARY_ROOT, target)):
            return f"does not resolve under {LIBRARY_ROOT}/"
        return None
    if bracket == '"':
        if top not in OWN_HEADERS:
            return "a header of the libraries or proxies: include it as <amp/...>"
        beside = os.path.normpath(os.path.join(os.path.dirname(path), target))
        if not os.path.isfile(beside):
            return "does not resolve from the including file"
        if os.path.relpath(beside, scan.ROOT).split(os.sep)[0] not in OWN_HEADERS:
            return "reaches into the libraries by a relative path: include it as <amp/...>"
        return None
    if os.path.basename(target) in headers:
        return "a project header: include it as <amp/...>, or quoted by its path if it is a test's"
    return None


def main():
    scan.ROOT = sys.argv[1]
    sources = [p for top in FOLDERS for p in scan.source_files(top)]
    headers = {os.path.basename(p) for p in sources if p.endswith((".hpp", ".h"))}
    bad = list(links())
    for path in sources:
        for where, bracket, target in scan.includes(path):
            why = problem(path, bracket, target, headers)
            if why:
                bad.append(f"{where}  ({why})")
    for line in bad:
        print(line)
    print(f"{len(bad)} includes or links break the rule" if bad else "every header is included by the path it lives at")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
