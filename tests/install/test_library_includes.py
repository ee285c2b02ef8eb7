#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The libraries' include graph (src/amp/comm/ and src/amp/kernels/): every #include is a namespaced AMP
# path that the installed tree also has (<amp/comm/...>, <amp/kernels/...>; comm may use kernels, kernels
# never comm), or a header from outside the project. Never miniapps/, trace/, tests/ or a flat project
# path: the installed headers would not compile, and the layers would form a cycle. A public header (the
# top of comm/ or kernels/, the ones installed) includes only public headers, never comm/impl/,
# comm/strategies/ or comm/transports/, which are not installed; each umbrella (src/amp/comm.hpp,
# kernels.hpp) includes exactly its library's public headers; and no source includes, directly or not, a
# header that includes its own header back (strategy_registry.cpp once included combination.hpp). Prints
# each offending line; exit 1 if any.
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(HERE, "..", ".."))
ALLOWED = {"comm": ("amp/comm/", "amp/kernels/"), "kernels": ("amp/kernels/",)}
PROJECT_DIRS = ("comm/", "kernels/", "miniapps/", "trace/", "tests/", "bench/", "amp/", "src/")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def library_dir(library):
    """Where a library's sources are: src/amp/<library>/ (the include root is src/)."""
    return os.path.join(ROOT, "src", "amp", library)


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
    for path in source_files(library_dir(library)):
        for where, bracket, target in includes(path):
            if target.startswith(ALLOWED[library]):
                continue
            if bracket == '"':
                if not os.path.isfile(os.path.join(os.path.dirname(path), target)):
                    yield f"{where}  (not a file beside it)"
            elif target.startswith(PROJECT_DIRS) or os.path.isfile(os.path.join(library_dir(library), target)):
                yield f"{where}  (use \"...\" for a file of the same library, <amp/...> for another)"


def installed_includes_private(library):
    """Includes of the uninstalled folders (comm/impl/, comm/strategies/, comm/transports/) by the installed
    headers, the ones at the top of the library: the installed tree would not compile."""
    for path in source_files(library_dir(library)):
        if os.path.dirname(path) == library_dir(library) and path.endswith(".hpp"):
            for where, _, target in includes(path):
                if target.startswith(("amp/comm/impl/", "amp/comm/strategies/", "amp/comm/transports/")):
                    yield f"{where}  (an installed header includes one that is not installed)"


def umbrella_problems(library):
    """The umbrella src/amp/<library>.hpp against the public headers at the top of src/amp/<library>/."""
    umbrella = os.path.join(ROOT, "src", "amp", library + ".hpp")
    if not os.path.isfile(umbrella):
        yield f"src/amp/{library}.hpp  (the umbrella header is missing)"
        return
    public = {f"amp/{library}/{name}" for name in os.listdir(library_dir(library)) if name.endswith(".hpp")}
    named = {target for _, _, target in includes(umbrella)}
    for target in sorted(public - named):
        yield f"src/amp/{library}.hpp  (does not include the public header <{target}>)"
    for target in sorted(named - public):
        yield f"src/amp/{library}.hpp  (includes <{target}>, which is not a public header)"


def project_header(path, target):
    """The file an include of `path` names when it is one of the libraries', else None."""
    if target.startswith(("amp/comm/", "amp/kernels/")):
        return os.path.join(ROOT, "src", target)
    beside = os.path.join(os.path.dirname(path), target)
    return beside if os.path.isfile(beside) else None


def arrows_back(library):
    """Sources x.cpp that include, directly or through other headers, a header that includes x.hpp."""
    for path in source_files(library_dir(library)):
        own = path[:-len(".cpp")] + ".hpp"
        if not path.endswith(".cpp") or not os.path.isfile(own):
            continue
        for where, _, target in includes(path):
            header = project_header(path, target)
            if header and os.path.realpath(header) != os.path.realpath(own) and reaches(header, own, set()):
                yield f"{where}  (that header includes {os.path.relpath(own, ROOT)} back: an arrow back up)"


def reaches(header, wanted, seen):
    """Whether `header` includes `wanted`, directly or through the libraries' headers."""
    if header in seen or not os.path.isfile(header):
        return False
    seen.add(header)
    for _, _, target in includes(header):
        found = project_header(header, target)
        if found and (os.path.realpath(found) == os.path.realpath(wanted) or reaches(found, wanted, seen)):
            return True
    return False


def main():
    found = [p for library in ALLOWED for p in problems(library)]
    found += [p for library in ALLOWED for p in installed_includes_private(library)]
    found += [p for library in ALLOWED for p in umbrella_problems(library)]
    found += [p for library in ALLOWED for p in arrows_back(library)]
    for p in found:
        print(p)
    print(f"{len(found)} include(s) outside the libraries' rules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
