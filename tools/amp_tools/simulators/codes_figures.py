# SPDX-License-Identifier: BSD-3-Clause
"""What CODES' own statistics (model-net-mpi-replay --lp-io-dir) say of a replay, read into AMP's figures
(network_metrics.py says what they mean): each rank's simulated time and compute (`mpi-replay-stats`);
on a dragonfly, the bytes over every link by class (`dragonfly-link-stats`: local, global, and each
router's port to a node) and what each NIC sent (`dragonfly-cn-stats`); on a torus, whose model writes no
bytes per link (its `torus-link-stats` hold times a port waited), the bytes of the trace's messages over
the torus model's own dimension-order routes (torus.c, dimension_order_routing), and the hops its packets
took (`torus-msg-stats`). A NIC's payload is the trace's, as in the other simulators."""
import collections
import os

from amp_tools.network_metrics import (ENDPOINT, MetricsError, network_figures, nics_in_rank_order, node_traffic,
                                       payload_per_nic, ti_traffic, torus_class)
from amp_tools.simulators import codes_machine

PROFILE_NOTE = ("CODES' compute is the trace's own (its copy's gaps between calls); collectives are replayed as "
                "the point-to-point messages of the copy's algorithms (amp-trace codes), so their time counts as "
                "point-to-point")
DALLY_CLASSES = {"L": "local", "G": "global", "CN": ENDPOINT}


def rows(lp_io, name):
    """The rows of one of CODES' statistics files (whitespace-separated, `#` comments left out)."""
    path = os.path.join(lp_io, name)
    if not os.path.isfile(path):
        raise MetricsError(f"CODES wrote no {name} into --lp-io-dir")
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.lstrip().startswith("#")]


def per_rank(lp_io, ranks):
    """Per rank of the trace, in rank order: {"elapsed", "compute"} in seconds (mpi-replay-stats: <LP ID>
    <Terminal ID> <Job ID> <Local Rank> <Total sends> <Total Recvs> <Bytes sent> <Bytes recvd> <Send time>
    <Comm. time> <Compute time> ..., times in ns)."""
    found = {}
    for row in rows(lp_io, "mpi-replay-stats"):
        rank, comm, compute = int(row[3]), float(row[9]), float(row[10])
        found[rank] = {"elapsed": (comm + compute) * 1e-9, "compute": compute * 1e-9}
    missing = [r for r in range(ranks) if r not in found]
    if missing:
        raise MetricsError(f"mpi-replay-stats has no row for rank {missing[0]}")
    return [found[r] for r in range(ranks)]


def torus_route(source, destination, dims):
    """[(node, dimension, +1 or -1)] of every link CODES' torus crosses from `source` to `destination`: the
    first dimension that differs, the shorter way round (at exactly half the ring, the minus way when the
    source's coordinate is the larger), node ids x first (torus.c: to_dim_id, dimension_order_routing)."""
    position = [source // _stride(dims, d) % dims[d] for d in range(len(dims))]
    target = [destination // _stride(dims, d) % dims[d] for d in range(len(dims))]
    hops = []
    for d, size in enumerate(dims):
        half = size // 2
        while position[d] != target[d]:
            delta = position[d] - target[d]
            step = 1 if delta > half or -half <= delta < 0 else -1
            hops.append((sum(p * _stride(dims, i) for i, p in enumerate(position)), d, step))
            position[d] = (position[d] + step) % size
    return hops


def _stride(dims, d):
    out = 1
    for size in dims[:d]:
        out *= size
    return out


def torus_links(network, between):
    """(name, class, bytes, bandwidth) of every torus link, the trace's traffic between nodes over CODES'
    routes; and per source node, the bytes x hops it sent."""
    dims = network.shape["shape"]
    sent = collections.Counter()
    hop_bytes = collections.Counter()
    for (a, b), (size, _) in between.items():
        route = torus_route(a, b, dims)
        for link in route:
            sent[link] += size
        hop_bytes[a] += size * len(route)
    links = []
    for node in range(network.nodes):
        for d, size in enumerate(dims):
            if size > 1:
                for step in (1, -1):
                    links.append((f"node{node}.{torus_class(d)}{'+' if step > 0 else '-'}", torus_class(d),
                                  sent[(node, d, step)], network.link_bandwidth))
    return links, hop_bytes


def dally_links(network, lp_io):
    """(name, class, bytes, bandwidth) of every link dragonfly-dally reports from a router (its ports to
    routers of its group, to other groups, and to its nodes)."""
    bandwidth = {cls: bw for cls, (bw, _) in network.link_classes().items()}
    bandwidth[ENDPOINT] = network.nic_bandwidth
    links = []
    for row in rows(lp_io, "dragonfly-link-stats"):
        source, kind, destination, _, link_type, traffic = row[:6]
        if kind != "R":  # a node's own line: what it received, counted on its router's port
            continue
        cls = DALLY_CLASSES[link_type]
        links.append((f"router{source}->{'node' if cls == ENDPOINT else 'router'}{destination}", cls,
                      int(traffic), bandwidth[cls]))
    return links


def figures(network, lp_io, export_dir, ranks, seconds):
    """The network figures of a CODES replay of `ranks` over `seconds` of simulated time."""
    node_of_rank = codes_machine.node_of_rank(network, ranks)
    between, inside = node_traffic(ti_traffic(export_dir, ranks), node_of_rank)
    nics = nics_in_rank_order([node_of_rank[r] for r in ranks])
    nic_bytes = payload_per_nic(between, nics)
    messages = collections.Counter()
    for (source, _), (_, count) in between.items():
        messages[source] += count
    if network.topology == "torus":
        links, hop_bytes = torus_links(network, between)
        out = network_figures(links, nic_bytes, [messages[n] for n in nics], seconds,
                              nic_hop_bytes=[hop_bytes[n] for n in nics], minimal_fraction=1.0)
        packets = rows(lp_io, "torus-msg-stats")
        finished = sum(int(r[4]) for r in packets)
        out["hops"]["codes_mean_per_packet"] = (sum(int(r[4]) * float(r[5]) for r in packets if int(r[4]))
                                                / finished if finished else 0.0)
        note = ("CODES' torus model writes no bytes per link: each link's bytes are the trace's point-to-point "
                "messages over its dimension-order routes; its MPI layer's protocol messages are in no figure; "
                "hops.codes_mean_per_packet is its own count")
    else:
        sent = {int(r[1]): int(r[2]) for r in rows(lp_io, "dragonfly-cn-stats")}
        out = network_figures(dally_links(network, lp_io), nic_bytes, [messages[n] for n in nics], seconds,
                              minimal_fraction=1.0 if network.routing == "minimal" else None,
                              protocol_bytes=[sent.get(n, 0) - p for n, p in zip(nics, nic_bytes)])
        note = ("CODES' dragonfly-dally: link bytes from its per-port link_traffic, a NIC's from its terminal's "
                "data sent (less the trace's payload: protocol_bytes, its MPI layer's control messages and the "
                "copy's collective messages); hops per NIC cannot be had")
    out["nics"]["intra_node_bytes"] = inside
    out["network_notes"] = [note]
    return out
