# SPDX-License-Identifier: BSD-3-Clause
"""The repository's own files, for the tests of its names and text: git's list where the tree is a
checkout, else the files on disk outside build folders (a folder holding CMakeCache.txt) and caches."""
import os
import subprocess

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SKIPPED_FOLDERS = {".git", "__pycache__", ".pytest_cache"}


def tracked_files():
    """Paths relative to the repository root, '/'-separated, of regular files (links left out)."""
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        paths = [p for p in listed.stdout.decode().split("\0") if p]
    else:
        paths = []
        for folder, subfolders, names in os.walk(ROOT):
            subfolders[:] = [s for s in subfolders if s not in SKIPPED_FOLDERS
                             and not os.path.exists(os.path.join(folder, s, "CMakeCache.txt"))]
            paths += [os.path.relpath(os.path.join(folder, n), ROOT).replace(os.sep, "/") for n in names]
    full = {p: os.path.join(ROOT, p) for p in paths}
    return sorted(p for p, f in full.items() if os.path.isfile(f) and not os.path.islink(f))


def text(path):
    """The file's text (UTF-8; undecodable bytes replaced)."""
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        return f.read()
