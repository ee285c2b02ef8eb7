#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The one include rule (README, Layout): every header of the project is included as <amp/...>, which
# include/amp/ of the source tree resolves without a build (links to comm/, kernels/, trace/writer as
# dumpi/, miniapps/, trace/, tests/, bench/; beside them the umbrellas amp/comm.hpp and amp/kernels.hpp).
# Prints each include that names a project header any other way, or an <amp/...> that does not resolve;
# exit 1 if any.
import os
import sys

import test_library_includes as scan

FOLDERS = ("include", "comm", "kernels", "miniapps", "trace", "tests", "bench", "tools")


def main():
    scan.ROOT = sys.argv[1]
    sources = [p for top in FOLDERS for p in scan.source_files(top)]
    headers = {os.path.basename(p) for p in sources if p.endswith((".hpp", ".h"))}
    bad = []
    for path in sources:
        for where, bracket, target in scan.includes(path):
            if target.startswith("amp/"):
                if not os.path.isfile(os.path.join(scan.ROOT, "include", target)):
                    bad.append(f"{where}  (does not resolve under include/)")
            elif bracket == '"' or os.path.basename(target) in headers:
                bad.append(f"{where}  (a project header: include it as <amp/...>)")
    for line in bad:
        print(line)
    print(f"{len(bad)} includes break the rule" if bad else "every project header is included as <amp/...>")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
