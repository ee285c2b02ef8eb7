#!/usr/bin/env python3
# The one include rule (README, Layout): every header of the project is included as <amp/...>, which
# include/amp/ of the source tree resolves without a build (links to comm/, kernels/, trace/writer as
# dumpi/, miniapps/, trace/, tests/, bench/). Prints each include that names a project header any other
# way, or an <amp/...> that does not resolve; exit 1 if any.
import os
import re
import sys

ROOT = sys.argv[1]
FOLDERS = ("comm", "kernels", "miniapps", "trace", "tests", "bench", "tools")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def sources():
    for top in FOLDERS:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != "fixtures"]
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp", ".h", ".cc")):
                    yield os.path.join(folder, name)


def main():
    headers = {os.path.basename(p) for p in sources() if p.endswith((".hpp", ".h"))}
    bad = []
    for path in sources():
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                bracket, target = match.groups()
                where = f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}"
                if target.startswith("amp/"):
                    if not os.path.isfile(os.path.join(ROOT, "include", target)):
                        bad.append(f"{where}  (does not resolve under include/)")
                elif bracket == '"' or os.path.basename(target) in headers:
                    bad.append(f"{where}  (a project header: include it as <amp/...>)")
    for line in bad:
        print(line)
    print(f"{len(bad)} includes break the rule" if bad else "every project header is included as <amp/...>")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
