# SPDX-License-Identifier: BSD-3-Clause
"""The network figures of an SST-macro replay (network_metrics.py says what they mean): its `bytes_sent`
accumulators on every switch port (`switch.link`) and NIC injection port (`node.nic.injection`), written as
CSV into the simulator's working folder; the TI export of the same trace gives the messages injected."""
import collections
import csv
import os
import re

from amp_tools.network_metrics import (ENDPOINT, MetricsError, network_figures, nics_in_rank_order, node_traffic,
                                       payload_per_nic, ti_traffic, torus_class)

SSTMAC_GROUPS = {"switch.link": "amp_links", "node.nic.injection": "amp_nics"}
SSTMAC_NEGLIGIBLE_SIZE = 256     # SST-macro's default node.nic.negligible_size


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
