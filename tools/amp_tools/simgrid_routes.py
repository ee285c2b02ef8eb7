#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""SimGrid's own routes between hosts of a platform, asked of SimGrid itself (Debian's python3-simgrid,
which belongs to /usr/bin/python3: tools/amp_tools/simulators/simgrid_figures.py runs this script with that
interpreter, by its path, so it imports nothing of amp_tools).

Reads {"platform": FILE, "pairs": [["n0", "n5"], ...]} on stdin and writes {"links": {name: bytes/s}
for every link of the platform, "routes": [[link names from source to destination], ...]} (one route
per pair, in order) on stdout. A request of another form, or a host the platform lacks, is one line on
stderr and exit 2; exit 3 with one line when SimGrid is missing or cannot load the platform.
"""
import argparse
import json
import os
import sys

NAME = "simgrid_routes"


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit 2."""

    def error(self, message):
        refuse(f"{message} (--help for usage)")


def refuse(message, code=2):
    print(f"{NAME}: error: {message}", file=sys.stderr)
    sys.exit(code)


def request_problem(request):
    """The first problem of a request, or None."""
    if not isinstance(request, dict) or not isinstance(request.get("platform"), str):
        return "the request has no 'platform' file name"
    pairs = request.get("pairs")
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(h, str) for h in p) for p in pairs):
        return f"'pairs' is not a list of [source, destination] host names (got {json.dumps(pairs)[:80]})"
    return None


def read_request():
    """The request on stdin, refused in one line where it is missing or of another form."""
    if sys.stdin.isatty():
        refuse("give the request as JSON on standard input (--help for its form)")
    text = sys.stdin.read()
    if not text.strip():
        refuse("standard input is empty: give the request as JSON (--help for its form)")
    try:
        request = json.loads(text)
    except ValueError as e:
        refuse(f"standard input is not JSON ({e})")
    problem = request_problem(request)
    if problem:
        refuse(problem)
    return request


def quietly_imported_simgrid():
    """python3-simgrid, imported with stderr closed: loading it announces a configuration change there."""
    saved = os.dup(2)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 2)
    try:
        import simgrid
    except ImportError:
        simgrid = None
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    if simgrid is None:
        refuse("python3-simgrid is not installed (apt-get install python3-simgrid)", 3)
    return simgrid


def host(engine, name, platform):
    found = engine.host_by_name(name)  # None for a name the platform lacks
    if found is None:
        refuse(f"{platform}: no host '{name}'")
    return found


def main():
    Parser(prog=NAME, usage="%(prog)s [-h] < REQUEST.json", description=__doc__.strip(),
           formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    request = read_request()
    simgrid = quietly_imported_simgrid()
    engine = simgrid.Engine([NAME, "--log=root.thres:critical"])
    try:
        engine.load_platform(request["platform"])
    except Exception as e:  # SimGrid raises ValueError or its own errors for a platform it cannot read
        refuse(f"{request['platform']}: {e}", 3)
    routes = []
    for source, destination in request["pairs"]:
        links, _ = host(engine, source, request["platform"]).route_to(host(engine, destination, request["platform"]))
        routes.append([link.name for link in links])
    json.dump({"links": {link.name: link.bandwidth for link in engine.all_links}, "routes": routes}, sys.stdout)
    sys.stdout.flush()
    os._exit(0)  # SimGrid 3.32's bindings can crash tearing a platform library's zones down: nothing is left to do


if __name__ == "__main__":
    main()
