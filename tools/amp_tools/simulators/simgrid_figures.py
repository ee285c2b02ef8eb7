# SPDX-License-Identifier: BSD-3-Clause
"""The network figures of a SimGrid replay (network_metrics.py says what they mean): every point-to-point
message of the TI export crosses the links of SimGrid's own route between its two hosts (its cluster zones
route deterministically), asked of SimGrid by tools/amp_tools/simgrid_routes.py. The messages of SMPI's
collective algorithms are not in the export and so in no figure."""
import collections
import json
import os
import re
import subprocess
import tempfile

import amp_tools
from amp_tools.network_metrics import (ENDPOINT, MetricsError, network_figures, nics_in_rank_order, node_traffic,
                                       ti_traffic, torus_class)

DEBIAN_PYTHON = "/usr/bin/python3"  # python3-simgrid's interpreter
ROUTES = os.path.join(os.path.dirname(os.path.abspath(amp_tools.__file__)), "simgrid_routes.py")
# a NIC (or its limiter link), its wire to the gateway, a loopback: no network link
NOT_LINKS = {"nic", "wire", "loopback"}


def simgrid_link_classes(network, names):
    """{link name: class} of the links of SimGrid's cluster zone for this network (see the module doc;
    `nic` for limiter links, `loopback` for a node's loopback; a torus node's links to itself left out)."""
    classes = {}
    levels = _fat_tree_levels(network, names) if network.topology == "fattree" else {}
    shape = network.shape.get("shape", [])
    for name in names:
        if "limiter" in name or re.fullmatch(r"nic\d+(_UP|_DOWN)?", name):
            classes[name] = "nic"
        elif re.fullmatch(r"wire\d+", name):
            classes[name] = "wire"  # tools/simgrid/amp_platform.cpp: between a node's NIC and its gateway, free
        elif name.endswith("loopback") or name == "__loopback__" or re.fullmatch(r"loopback\d+", name):
            classes[name] = "loopback"
        elif network.topology == "torus":
            a, b = (int(v) for v in re.search(r"_from_(\d+)_to_(\d+)_", name).groups())
            if a != b:  # SimGrid makes a node a link to itself in a dimension of size 1: no link at all
                dim = next(d for d in range(len(shape)) if _coordinate(a, shape, d) != _coordinate(b, shape, d))
                classes[name] = torus_class(dim)
        elif network.topology == "dragonfly":
            # green: between routers of a chassis; black: between chassis of a group; blue: between groups
            classes[name] = ("global" if name.startswith("blue_") else
                             "local" if name.startswith(("green_", "black_")) else ENDPOINT)
        elif network.topology == "fattree":
            level = levels[int(re.match(r"link_from_(\d+)_", name).group(1))]
            classes[name] = ENDPOINT if level == 0 else f"level{level}"
        else:
            classes[name] = ENDPOINT  # flat: every host's own link to the cluster
    return classes


def _coordinate(node, shape, dim):
    for size in shape[:dim]:
        node //= size
    return node % shape[dim]


def _fat_tree_levels(network, names):
    """Level of every fat-tree vertex in SimGrid's link names (link_from_LOWER_UPPER_ID): hosts (ids below
    the node count) are level 0, a switch one above the vertices below it."""
    edges = [tuple(int(v) for v in m.groups()) for m in
             (re.match(r"link_from_(\d+)_(\d+)_", n) for n in names) if m]
    level = {lower: 0 for lower, _ in edges if lower < network.nodes}
    while True:
        grown = {upper: level[lower] + 1 for lower, upper in edges if lower in level and upper not in level}
        if not grown:
            return level
        level.update(grown)


class SimgridRoutes:
    """SimGrid's own routes between pairs of hosts, asked of a second SimGrid process (tools/
    simgrid_routes.py) that starts at once: it loads the platform while smpirun replays beside it (each
    load of a 9,600-node dragonfly takes about 25 s here). `env` the platform's environment
    (AMP_SIMGRID_MACHINE for AMP's platform library)."""

    def __init__(self, platform, pairs, env=None):
        if not os.access(DEBIAN_PYTHON, os.X_OK):
            raise MetricsError(f"{DEBIAN_PYTHON} (python3-simgrid's interpreter) is missing")
        with tempfile.TemporaryFile("w+") as request:  # a file, not a pipe: nothing waits for the writer
            json.dump({"platform": platform, "pairs": pairs}, request)
            request.seek(0)
            self.process = subprocess.Popen([DEBIAN_PYTHON, ROUTES], stdin=request, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, env=env)

    def result(self):
        """({link name: bandwidth}, [route per pair])."""
        out, err = self.process.communicate()
        if self.process.returncode != 0:
            raise MetricsError((err.strip().splitlines() or ["simgrid_routes.py failed"])[-1])
        answer = json.loads(out)
        return answer["links"], answer["routes"]

    def cancel(self):
        """Stops the query where its answer was not read."""
        if self.process.returncode is None:
            self.process.kill()
            self.process.communicate()


def simgrid_routes(platform, pairs, env=None):
    """({link name: bandwidth}, [route per pair]) from SimGrid itself, waited for."""
    return SimgridRoutes(platform, pairs, env).result()


class SimgridFigures:
    """The figures of a SimGrid replay, begun before it: the trace's traffic between nodes, and SimGrid's
    routes for it asked at once (SimgridRoutes). `hosts` is the hostfile's host per rank."""

    def __init__(self, network, platform, export_dir, ranks, hosts, env=None):
        self.network, self.hosts = network, hosts
        self.between, self.inside = node_traffic(ti_traffic(export_dir, ranks), dict(zip(ranks, hosts)))
        self.pairs = sorted(self.between)
        self.routes = SimgridRoutes(platform, [list(p) for p in self.pairs], env)

    def cancel(self):
        """Stops the route query where the figures were not made (the replay failed)."""
        self.routes.cancel()

    def figures(self, seconds):
        """The figures over `seconds` of simulated time."""
        bandwidth, routes = self.routes.result()
        classes = simgrid_link_classes(self.network, bandwidth)
        nics = nics_in_rank_order(self.hosts)
        slot = {node: i for i, node in enumerate(nics)}
        link_bytes = collections.Counter()
        nic_bytes, nic_messages, nic_hop_bytes = [0] * len(nics), [0] * len(nics), [0] * len(nics)
        for pair, route in zip(self.pairs, routes):
            sent, messages = self.between[pair]
            crossed = [link for link in route if classes[link] not in NOT_LINKS]
            for link in crossed:
                link_bytes[link] += sent
            i = slot[pair[0]]
            nic_bytes[i] += sent
            nic_messages[i] += messages
            nic_hop_bytes[i] += sent * sum(1 for link in crossed if classes[link] != ENDPOINT)
        links = [(name, cls, link_bytes[name], bandwidth[name]) for name, cls in classes.items()
                 if cls not in NOT_LINKS]
        figures = network_figures(links, nic_bytes, nic_messages, seconds, nic_hop_bytes, minimal_fraction=1.0)
        figures["nics"]["intra_node_bytes"] = self.inside
        figures["network_notes"] = [
            "SimGrid: each point-to-point message of the TI export counted over SimGrid's own route between its "
            "hosts; the messages of SMPI's collective algorithms are in no figure; cluster zones route minimally"]
        return figures
