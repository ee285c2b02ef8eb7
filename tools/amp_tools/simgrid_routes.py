#!/usr/bin/python3
"""SimGrid's own routes between hosts of a platform, asked of SimGrid itself (Debian's python3-simgrid,
which belongs to /usr/bin/python3: tools/network_metrics.py runs this script with that interpreter).

Reads {"platform": FILE, "pairs": [["n0", "n5"], ...]} on stdin and writes {"links": {name: bytes/s}
for every link of the platform, "routes": [[link names from source to destination], ...]} (one route
per pair, in order) on stdout. Exit 3 with one line on stderr when SimGrid cannot load the platform.
"""
import json
import os
import sys

try:
    import simgrid
except ImportError:
    print("simgrid_routes: error: python3-simgrid is not installed (apt-get install python3-simgrid)",
          file=sys.stderr)
    sys.exit(3)


def main():
    request = json.load(sys.stdin)
    engine = simgrid.Engine(["simgrid_routes", "--log=root.thres:critical"])
    try:
        engine.load_platform(request["platform"])
    except Exception as e:  # SimGrid raises ValueError or its own errors for a platform it cannot read
        print(f"simgrid_routes: error: {request['platform']}: {e}", file=sys.stderr)
        sys.exit(3)
    routes = []
    for source, destination in request["pairs"]:
        links, _ = engine.host_by_name(source).route_to(engine.host_by_name(destination))
        routes.append([link.name for link in links])
    json.dump({"links": {link.name: link.bandwidth for link in engine.all_links}, "routes": routes}, sys.stdout)
    sys.stdout.flush()
    os._exit(0)  # SimGrid 3.32's bindings can crash tearing a platform library's zones down: nothing is left to do


if __name__ == "__main__":
    main()
