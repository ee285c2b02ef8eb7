#!/usr/bin/env python3
# The libraries' include graph (issue 23): every #include in comm/ and kernels/ is a file beside it
# ("x.hpp", "strategies/x.hpp"), a namespaced AMP path that the installed tree also has
# (<amp/comm/...>, <amp/kernels/...>; comm may use kernels, kernels never comm), or a header from
# outside the project. Never miniapps/, trace/, tests/ or a flat project path: the installed headers
# would not compile, and the layers would form a cycle. Prints each offending line; exit 1 if any.
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALLOWED = {"comm": ("amp/comm/", "amp/kernels/"), "kernels": ("amp/kernels/",)}
PROJECT_DIRS = ("comm/", "kernels/", "miniapps/", "trace/", "tests/", "bench/", "amp/")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def source_files(top):
    """The C++ files under ROOT/top, in a stable order (test fixtures left out)."""
    for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
        dirs[:] = sorted(d for d in dirs if d != "fixtures")
        for name in sorted(files):
            if name.endswith((".hpp", ".cpp", ".h", ".cc")):
                yield os.path.join(folder, name)


def includes(path):
    """(where, bracket, target) of each #include in the file at `path`; `where` names file, line and text."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if match:
                yield f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}", *match.groups()


def problems(library):
    for path in source_files(library):
        for where, bracket, target in includes(path):
            if target.startswith(ALLOWED[library]):
                continue
            if bracket == '"':
                if not os.path.isfile(os.path.join(os.path.dirname(path), target)):
                    yield f"{where}  (not a file beside it)"
            elif target.startswith(PROJECT_DIRS) or os.path.isfile(os.path.join(ROOT, library, target)):
                yield f"{where}  (use \"...\" for a file of the same library, <amp/...> for another)"


def main():
    found = [p for library in ALLOWED for p in problems(library)]
    for p in found:
        print(p)
    print(f"{len(found)} include(s) outside the libraries' rules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
