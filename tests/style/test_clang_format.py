#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every C and C++ file of the repository is as `clang-format` (version 14, the repository's
.clang-format) writes it: `clang-format --dry-run --Werror` on each, and a list of the files that differ.
tests/data/dumpi-reference/ is passed over: sst-dumpi's source of the reference traces, kept as it came.
Exit 77 (skipped) when the clang-format given is not version 14, whose output the files follow.

Usage: test_clang_format.py --clang-format PATH --root REPOSITORY"""
import argparse
import os
import re
import subprocess
import sys

SOURCE = re.compile(r"\.(c|cc|cpp|cxx|h|hh|hpp)$")
KEPT_AS_IT_CAME = ("tests/data/dumpi-reference/",)
SKIPPED_FOLDERS = {".git", "__pycache__"}


def source_files(root):
    """The repository's C and C++ files: git's list where the tree is a checkout, else the files on disk
    outside build folders (a folder holding CMakeCache.txt)."""
    listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True)
    if listed.returncode == 0:
        paths = [p for p in listed.stdout.decode().split("\0") if p]
    else:
        paths = []
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = [s for s in subfolders if s not in SKIPPED_FOLDERS
                             and not os.path.exists(os.path.join(folder, s, "CMakeCache.txt"))]
            paths += [os.path.relpath(os.path.join(folder, n), root) for n in names]
    return sorted(p for p in paths if SOURCE.search(p) and not p.startswith(KEPT_AS_IT_CAME)
                  and os.path.isfile(os.path.join(root, p)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang-format", required=True)
    parser.add_argument("--root", required=True)
    a = parser.parse_args()
    version = subprocess.run([a.clang_format, "--version"], capture_output=True, text=True).stdout
    if not re.search(r"version 14\.", version):
        print(f"test_clang_format: {a.clang_format} is not clang-format 14 ({version.strip()}): skipped")
        return 77
    files = source_files(a.root)
    if not files:
        print(f"test_clang_format: no C or C++ file found under {a.root}")
        return 1
    differ = []
    for start in range(0, len(files), 100):
        batch = files[start:start + 100]
        run = subprocess.run([a.clang_format, "--dry-run", "--Werror", *batch], cwd=a.root, capture_output=True,
                             text=True)
        if run.returncode != 0:
            differ += sorted({line.split(":", 1)[0] for line in run.stderr.splitlines()
                              if re.match(r"^[^:\s]+:\d+:\d+: error:", line)} or {f"{batch[0]}..."})
    if differ:
        print(f"{len(differ)} of {len(files)} C/C++ files differ from what clang-format writes "
              f"(run `clang-format -i FILE`): {', '.join(differ)}")
        return 1
    print(f"{len(files)} C/C++ files as clang-format writes them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
