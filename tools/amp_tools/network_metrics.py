# SPDX-License-Identifier: BSD-3-Clause
"""The network's own figures of one simulation (README, "Simulating networks"): bytes and messages each
NIC injected, bytes over every link and link class with their utilization over the simulated time,
hops per byte, and the ten hottest links; `nics`, `links`, `hops`, `hottest_links` of simulation-*.json.

SimGrid: every point-to-point message of the TI export crosses the links of SimGrid's own route between
its two hosts (its cluster zones route deterministically), asked of SimGrid by tools/simgrid_routes.py.
The messages of SMPI's collective algorithms are not in the export and so in no figure.
SST-macro: its `bytes_sent` accumulators on every switch port (`switch.link`) and NIC injection port
(`node.nic.injection`), written as CSV into the simulator's working folder.
The figures mean the same in both: a NIC's `injected_bytes` is the payload it sent (the trace's
point-to-point bytes leaving its node), and `protocol_bytes` what it sent beyond that: SST-macro's MPI
protocol packets (headers, RDMA get requests) and its collectives' messages, its accumulator less the
payload; 0 in SimGrid, whose protocol costs latencies and no bytes. Link bytes are each simulator's own.

Each simulator has one function that names its link classes from the topology (torus `x`, `y`, `z`;
dragonfly `local`, `global`; fat tree `level1`, `level2`, ...; `node` for a node's own link to its
router, crossed but not a hop); the figures themselves come from one pure function, network_figures().
"""
import collections
import csv
import json
import os
import re
import statistics
import subprocess
import tempfile

DEBIAN_PYTHON = "/usr/bin/python3"  # python3-simgrid's interpreter
ROUTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "simgrid_routes.py")
NOT_LINKS = {"nic", "wire", "loopback"}  # a NIC (or its limiter link), its wire to the gateway, a loopback: no network link
ENDPOINT = "node"                # a node's link to its router or switch: a link, but not a hop
HOTTEST = 10
SSTMAC_GROUPS = {"switch.link": "amp_links", "node.nic.injection": "amp_nics"}
SSTMAC_NEGLIGIBLE_SIZE = 256     # SST-macro's default node.nic.negligible_size


class MetricsError(Exception):
    pass


def torus_class(dim):
    """The class of a torus's links in dimension `dim`, named as Network.link_classes() names them."""
    return "xyzwvu"[dim] if dim < 6 else f"d{dim}"


def spread(values):
    values = list(values)
    if not values:
        return {"min": 0, "mean": 0, "max": 0, "total": 0}
    return {"min": min(values), "mean": statistics.fmean(values), "max": max(values), "total": sum(values)}


def network_figures(links, nic_bytes, nic_messages, seconds, nic_hop_bytes=None, minimal_fraction=None,
                    protocol_bytes=None):
    """The JSON figures. links: (name, class, bytes, bandwidth in bytes/s) of every network link;
    nic_bytes, nic_messages: per NIC that carries ranks, in rank order (nic_bytes the payload);
    nic_hop_bytes: per NIC, the sum of bytes x hops of what it injected (None where the simulator cannot
    attribute hops to a sender); protocol_bytes: per NIC, what it sent beyond its payload (None: nothing).
    Hops per byte are over everything the NICs sent, as the links carry it."""
    by_class = collections.defaultdict(list)
    for name, cls, sent, bandwidth in links:
        by_class[cls].append((sent / (bandwidth * seconds) if bandwidth > 0 and seconds > 0 else 0.0, sent, name))
    classes = {}
    for cls, rows in sorted(by_class.items()):
        utilization = [u for u, _, _ in rows]
        classes[cls] = {"count": len(rows), "bytes": sum(b for _, b, _ in rows),
                        "mean_utilization": statistics.fmean(utilization), "max_utilization": max(utilization),
                        "per_link_utilization": sorted((round(u, 9) for u in utilization), reverse=True)}
    protocol_bytes = list(protocol_bytes) if protocol_bytes is not None else [0] * len(nic_bytes)
    injected = sum(nic_bytes) + sum(protocol_bytes)
    hop_link_bytes = sum(v["bytes"] for cls, v in classes.items() if cls != ENDPOINT)
    hops = {"mean_per_byte": hop_link_bytes / injected if injected else 0.0, "minimal_fraction": minimal_fraction,
            "per_nic": None}
    if nic_hop_bytes is not None:
        hops["per_nic"] = [h / b if b else 0.0 for h, b in zip(nic_hop_bytes, nic_bytes)]
    hottest = sorted(((u, b, name, cls) for cls, rows in by_class.items() for u, b, name in rows if b > 0),
                     reverse=True)[:HOTTEST]
    return {
        "nics": {"count": len(nic_bytes), "injected_bytes": spread(nic_bytes), "injected_messages": spread(nic_messages),
                 "per_nic_bytes": list(nic_bytes), "per_nic_messages": list(nic_messages),
                 "protocol_bytes": spread(protocol_bytes), "per_nic_protocol_bytes": protocol_bytes},
        "links": classes,
        "hops": hops,
        "hottest_links": [{"name": name, "class": cls, "bytes": b, "utilization": u} for u, b, name, cls in hottest],
    }


def ti_traffic(export_dir, ranks, larger_than=0):
    """{(sender, receiver): [bytes, messages]} of the point-to-point sends of more than `larger_than`
    bytes in the TI export's rank files (`R send|isend PEER TAG BYTES`)."""
    traffic = collections.defaultdict(lambda: [0, 0])
    for rank in ranks:
        with open(os.path.join(export_dir, f"rank-{rank}.txt")) as f:
            for line in f:
                if "send " not in line:
                    continue
                parts = line.split()
                if len(parts) == 5 and parts[1] in ("send", "isend") and int(parts[4]) > larger_than:
                    pair = traffic[(rank, int(parts[2]))]
                    pair[0] += int(parts[4])
                    pair[1] += 1
    return dict(traffic)


def node_traffic(traffic, node_of_rank):
    """The rank traffic between nodes: {(source node, destination node): [bytes, messages]} of messages
    that leave their node, and the bytes that stay inside one."""
    between = collections.defaultdict(lambda: [0, 0])
    inside = 0
    for (source, destination), (sent, messages) in traffic.items():
        a, b = node_of_rank[source], node_of_rank[destination]
        if a == b:
            inside += sent
            continue
        between[(a, b)][0] += sent
        between[(a, b)][1] += messages
    return dict(between), inside


def nics_in_rank_order(node_of_rank):
    """The nodes that carry ranks, in the order of their first rank."""
    return list(dict.fromkeys(node_of_rank))


def payload_per_nic(between, nics):
    """The payload bytes each node's NIC sent, from node_traffic's `between`, in the order of `nics`."""
    sent = collections.Counter()
    for (source, _), (size, _) in between.items():
        sent[source] += size
    return [sent[n] for n in nics]


# --- SimGrid ---------------------------------------------------------------------------------------

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


# --- SST-macro -------------------------------------------------------------------------------------

def sstmac_stats_overrides():
    """`-p` overrides that make SST-macro write its bytes_sent accumulators as CSV (amp_links.csv,
    amp_nics.csv in its working folder)."""
    p = {}
    for scope, group in SSTMAC_GROUPS.items():
        p.update({f"{scope}.bytes_sent.type": "accumulator", f"{scope}.bytes_sent.output": "csv",
                  f"{scope}.bytes_sent.group": group})
    return p


def read_sstmac_csv(path):
    """{component: total} of one bytes_sent CSV (`name,component,total`)."""
    with open(path, newline="") as f:
        return {row["component"]: int(float(row["total"])) for row in csv.DictReader(f)
                if row.get("name") == "bytes_sent"}


def _int_list(text):
    return [int(v) for v in text.strip("[] ").split(",")]


def sstmac_link_class(topology, geometry, h, switch, port):
    """The class of output port `port` of switch `switch` in SST-macro's topology (sstmac/hardware/
    topology: a torus's ports are 2 x dimension + (0: plus, 1: minus), then the nodes'; a dragonfly's are
    the routers of its group (a = geometry[0]; its own index unconnected), then its h global links, then
    the nodes'). None for an unconnected port."""
    if topology == "torus":
        if port >= 2 * len(geometry):
            return ENDPOINT
        return torus_class(port // 2) if geometry[port // 2] > 1 else None  # size 1: its ports lead nowhere
    a = geometry[0]
    if port < a:
        return None if port == switch % a else "local"
    return "global" if port < a + h else ENDPOINT


def sstmac(network, overrides, workdir, export_dir, ranks, seconds):
    """The figures of an SST-macro replay of `ranks` ranks from the CSV it wrote into `workdir`; the TI
    export of the same trace gives the messages injected (SST-macro's accumulators sum bytes only)."""
    paths = {group: os.path.join(workdir, f"{group}.csv") for group in SSTMAC_GROUPS.values()}
    missing = [p for p in paths.values() if not os.path.isfile(p)]
    if missing:
        raise MetricsError(f"SST-macro wrote no statistics ({os.path.basename(missing[0])})")
    geometry = _int_list(overrides["topology.geometry"])
    h = int(overrides.get("topology.h", 0))
    # each class's links as the machine has them (SST-macro was given them or refused the network);
    # a switch's port to a node runs at the NIC's bandwidth
    bandwidth = {cls: bw for cls, (bw, _) in network.link_classes().items()}
    bandwidth[ENDPOINT] = network.nic_bandwidth
    links = []
    for component, sent in read_sstmac_csv(paths["amp_links"]).items():
        switch, port = (int(v) for v in re.fullmatch(r"Switch:(\d+)\.Port:(\d+)", component).groups())
        cls = sstmac_link_class(network.topology, geometry, h, switch, port)
        if cls is not None:
            links.append((component, cls, sent, bandwidth[cls]))
    node_of_rank = {rank: rank // network.ranks_per_node for rank in ranks}  # block placement (launch_cmd -N)
    nics = nics_in_rank_order(node_of_rank.values())
    injected = read_sstmac_csv(paths["amp_nics"])
    measured = [injected.get(f"NIC{node}:0", 0) for node in nics]   # payload and protocol packets alike
    negligible = int(overrides.get("node.nic.negligible_size", SSTMAC_NEGLIGIBLE_SIZE))
    between, _ = node_traffic(ti_traffic(export_dir, ranks, larger_than=negligible), node_of_rank)
    _, inside = node_traffic(ti_traffic(export_dir, ranks), node_of_rank)
    sent_messages = collections.Counter()
    for (source, _), (_, messages) in between.items():
        sent_messages[source] += messages
    minimal = 1.0 if network.routing == "minimal" else None
    nic_bytes = payload_per_nic(between, nics)
    # negative where SST-macro's NIC sent less than its payload: bytes lost, which the conservation test catches
    figures = network_figures(links, nic_bytes, [sent_messages[n] for n in nics], seconds, minimal_fraction=minimal,
                              protocol_bytes=[m - p for m, p in zip(measured, nic_bytes)])
    figures["nics"]["intra_node_bytes"] = inside
    bypass = (f"messages of {negligible} bytes or less go through its LogP shortcut (node.nic.negligible_size), "
              f"outside the packet network, and are in no NIC or link figure; injected_messages counts the trace's "
              f"messages of more than {negligible} bytes" if negligible else
              "every message crosses its packet network, so link bytes include the MPI protocol's headers and RDMA "
              "get requests; a NIC's are in protocol_bytes, apart from its payload (injected_bytes)")
    figures["network_notes"] = [f"SST-macro: link bytes from its bytes_sent accumulators, a NIC's payload from the "
                                f"trace (its accumulator less that: protocol_bytes); {bypass}; hops per NIC cannot "
                                "be had (link accumulators do not know the sender)"]
    return figures
