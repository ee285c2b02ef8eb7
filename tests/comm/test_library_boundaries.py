#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Boundaries of the library, read from its sources: nothing under src/amp/comm/ or
src/amp/kernels/ reads an environment variable (the caller decides everything and hands it over in
comm::ExchangeContext), and no file under src/amp/comm/transports/ names a strategy (transports declare what
they need of a strategy's messages; src/amp/comm/combination.cpp's fits() matches them by capability). Prints
each offending line.

Usage: test_library_boundaries.py SOURCE_ROOT"""
import os
import re
import sys

RULES = [(("src/amp/comm", "src/amp/kernels"), re.compile(r"\b(secure_)?getenv\b"), "reads the environment"),
         (("src/amp/comm/transports",), re.compile(r"\"(bspma|onebyone|svaf|svcp)\""), "names a strategy")]


def sources(root, folder):
    for directory, _, files in os.walk(os.path.join(root, folder)):
        for name in sorted(files):
            if name.endswith((".cpp", ".hpp", ".h")):
                yield os.path.join(directory, name)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1])
        return 2
    root, found, scanned = sys.argv[1], [], 0
    for folders, pattern, what in RULES:
        for folder in folders:
            for path in sources(root, folder):
                scanned += 1
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        if pattern.search(line):
                            found.append(f"{os.path.relpath(path, root)}:{number}: {what}: {line.strip()}")
    if scanned == 0:
        print(f"FAIL: no sources under {root}/src/amp/comm or {root}/src/amp/kernels")
        return 1
    for line in found:
        print("FAIL:", line)
    print("FAILED" if found else f"test_library_boundaries: OK: {scanned} files")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
