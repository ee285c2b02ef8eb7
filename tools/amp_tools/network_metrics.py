# SPDX-License-Identifier: BSD-3-Clause
"""The network's own figures of one simulation (README, "Simulating networks"): bytes and messages each
NIC injected, bytes over every link and link class with their utilization over the simulated time,
hops per byte, and the ten hottest links; `nics`, `links`, `hops`, `hottest_links` of simulation-*.json.

Each simulator's module reads them from its own output (simulators/simgrid_figures.py: SimGrid's routes;
simulators/sstmac_figures.py: SST-macro's port accumulators; simulators/codes_figures.py: CODES' --lp-io-dir
statistics). The figures mean the same in all: a NIC's `injected_bytes` is the payload it sent (the trace's
point-to-point bytes leaving its node), and `protocol_bytes` what it sent beyond that: SST-macro's MPI
protocol packets (headers, RDMA get requests) and its collectives' messages, its accumulator less the
payload; 0 in SimGrid, whose protocol costs latencies and no bytes. Link bytes are each simulator's own.

Each simulator's module has one function that names its link classes from the topology (torus `x`, `y`, `z`;
dragonfly `local`, `global`; fat tree `level1`, `level2`, ...; `node` for a node's own link to its
router, crossed but not a hop); the figures themselves come from one pure function, network_figures().
"""
import collections
import os
import statistics

ENDPOINT = "node"                # a node's link to its router or switch: a link, but not a hop
HOTTEST = 10


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
        "nics": {"count": len(nic_bytes), "injected_bytes": spread(nic_bytes),
                 "injected_messages": spread(nic_messages),
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
