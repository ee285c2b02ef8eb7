# SPDX-License-Identifier: BSD-3-Clause
"""A network file's translation for CODES 1.5.0 (model-net-mpi-replay on ROSS): its configuration file
(LPGROUPS and PARAMS) for CODES' `torus` model and its `dragonfly-dally` model with the two binary
connection files that wire AMP's groups, routers and global links; and what CODES was given, for the
simulation's JSON. What the models cannot be given is stated in docs/TRACE_SIMULATORS.md (CODES)."""
import os
import struct

from amp_tools.networks import per_header

GIB = 1 << 30                 # CODES' bandwidths are GiB/s (bytes_to_ns in torus.c, dragonfly-dally.C)
DEFAULT_PACKET = 4096         # bytes per packet where the file gives no packet_size (as SST-macro's MTU)
# ROSS' event size in bytes (PARAMS message_size): CODES aborts when it is below its own event's size and
# names the size it needs; these are the sizes CODES 1.5.0 asked for here, with room.
MESSAGE_SIZE = {"torus": 1024, "dragonfly": 1024}
# torus.c (CODES 1.5.0) holds every chunk on a port for its bytes at the bandwidth given, 50 ns of router
# delay (compiled in: p->router_delay = 50) and codes_local_latency (0.5-1 ns, codes.h): the bandwidth it is
# given is raised so that a packet takes packet/link_bandwidth. Every chunk takes a whole chunk's time
# (bytetime = head_delay), so a chunk is a packet.
TORUS_PORT_DELAY_NS = 50.0 + 0.75
# torus.c holds a NIC's first packet after an idle spell 10 ns per byte of it (cn_delay x packet_size,
# compiled in: 41 us for 4 KiB packets): AMP gives CODES' torus packets of at most this many bytes (5 us).
TORUS_PACKET_LIMIT = 512
# model-net-mpi-replay.c (CODES 1.5.0) holds every message it sends, each rendezvous control message too,
# soft_delay_mpi (2500 ns) + nic_delay (1000 ns) + self_msg_overhead (its one key) before it enters the
# network: self_msg_overhead is given the file's per-header cost less those 3.5 us, so that the sum is the
# file's (the hold of an eager message is 0.55 ns per byte more, compiled in: at most 0.28 us up to 512 B).
MPI_LAYER_DELAY_NS = 2500.0 + 1000.0
# AMP's MPI protocol: messages of up to 512 bytes eager, larger ones by rendezvous (docs/TRACE_SIMULATORS.md);
# CODES sends a message eagerly when it is below --eager_threshold.
EAGER_THRESHOLD = 513
# Credits per port, in packets: a virtual channel's buffer holds this many (1 MiB 3-D halos on dragonfly-1024,
# 4 KiB packets, messages injected first come first served: 14.5 ms with 8, 11.3 ms with 64; SimGrid 6.36 ms).
PACKETS_PER_BUFFER = 64
# How a NIC injects the messages it holds: round robin over their packets, as SST-macro's NIC is told to
# (node.nic.queue) and as SimGrid shares a NIC between its flows. CODES' first-come-first-served scheduler
# sends one message at a time in the order the receivers' clear-to-send replies came back, so two senders
# can feed one node's port while another port idles: the 1 MiB 3-D halo on dragonfly-1024 took 1.77x
# SimGrid's time that way (11.3 ms), 1.004x round robin (6.38 ms), the 64 KiB one 1.45x and 1.06x. A file's
# nic_queue, where it gives one, chooses: in CODES' words (its model-net schedulers) below.
NIC_SCHEDULERS = {"round_robin": "round-robin", "fifo": "fcfs"}
NIC_SCHEDULER = NIC_SCHEDULERS["round_robin"]
# AMP's routing on a dragonfly, in dragonfly-dally's words (its `routing`): valiant's random intermediate
# group is its non-minimal routing; UGAL, choosing per packet at the source between the two, its adaptive one.
DALLY_ROUTING = {"minimal": "minimal", "valiant": "nonminimal", "ugal": "adaptive"}
CONFIG = "amp-network.conf"
INTRA, INTER = "amp-intra-group.bin", "amp-inter-group.bin"


def packet_bytes(network):
    """Bytes per packet CODES is given: the file's packet_size, else DEFAULT_PACKET; on a torus at most
    TORUS_PACKET_LIMIT."""
    packet = network.packet_size or DEFAULT_PACKET
    return min(packet, TORUS_PACKET_LIMIT) if network.topology == "torus" else packet


def ns(seconds):
    return f"{seconds * 1e9:.9g}"


def torus_bandwidth(network):
    """The link bandwidth (GiB/s) CODES' torus is given so that a packet of packet_bytes crosses a link in
    packet / link_bandwidth despite its delay per chunk (TORUS_PORT_DELAY_NS); None when a packet crosses a
    link in less than that delay (the file's bandwidth cannot be had)."""
    packet = packet_bytes(network)
    serialise_ns = packet / network.link_bandwidth * 1e9
    if serialise_ns <= TORUS_PORT_DELAY_NS + 0.25:  # codes_local_latency's half range: a positive time left
        return None
    return packet / ((serialise_ns - TORUS_PORT_DELAY_NS) * 1e-9) / GIB


def global_links_per_router(network):
    """dragonfly-dally's num_global_channels: the k links between every pair of groups, spread evenly over a
    group's routers (None where they do not divide evenly)."""
    s = network.shape
    links = s["global_links_per_pair"] * (s["groups"] - 1)
    return links // s["routers_per_group"] if links % s["routers_per_group"] == 0 else None


def lp_groups(network):
    """CODES' LPGROUPS: one repetition per router, each with its nodes' ranks (nw-lp) and its nodes."""
    s = network.shape
    if network.topology == "torus":
        return {"repetitions": network.nodes, "nw-lp": network.ranks_per_node, "modelnet_torus": 1}
    per_router = s["nodes_per_router"]
    return {"repetitions": s["groups"] * s["routers_per_group"], "nw-lp": per_router * network.ranks_per_node,
            "modelnet_dragonfly_dally": per_router, "modelnet_dragonfly_dally_router": 1}


def params(network, folder):
    """CODES' PARAMS for this machine; the dragonfly's connection files are named in `folder`."""
    packet = packet_bytes(network)
    buffer = PACKETS_PER_BUFFER * packet
    p = {"packet_size": packet, "message_size": MESSAGE_SIZE[network.topology],
         "modelnet_scheduler": NIC_SCHEDULERS.get(network.nic_queue, NIC_SCHEDULER),
         # the CPU's and the NIC's time per message: CODES holds a message that long before it enters the network
         "self_msg_overhead": f"{per_header(network) * 1e9 - MPI_LAYER_DELAY_NS:.9g}"}
    if network.topology == "torus":
        dims = network.shape["shape"]
        p.update({"modelnet_order": ("torus",), "n_dims": len(dims), "dim_length": ",".join(map(str, dims)),
                  "link_bandwidth": f"{torus_bandwidth(network):.9g}", "buffer_size": buffer,
                  "chunk_size": packet})
        return p
    s = network.shape
    hop = network.link_latency + network.router_latency
    p.update({"modelnet_order": ("dragonfly_dally", "dragonfly_dally_router"), "chunk_size": packet,
              "num_routers": s["routers_per_group"], "num_groups": s["groups"],
              "num_cns_per_router": s["nodes_per_router"], "num_global_channels": global_links_per_router(network),
              "local_vc_size": buffer, "global_vc_size": buffer, "cn_vc_size": buffer,
              "local_bandwidth": f"{network.link_bandwidth / GIB:.9g}",
              "global_bandwidth": f"{s['global_bandwidth'] / GIB:.9g}",
              "cn_bandwidth": f"{network.nic_bandwidth / GIB:.9g}",
              # a link's latency and the router hop's, as the link's propagation delay; the router itself
              # adds none (dragonfly-dally adds router_delay to every chunk's time on its port)
              "local_delay": ns(hop), "global_delay": ns(s["global_latency"] + network.router_latency),
              "cn_delay": ns(hop), "router_delay": "0",
              "intra-group-connections": os.path.join(folder, INTRA),
              "inter-group-connections": os.path.join(folder, INTER),
              "routing": DALLY_ROUTING[network.routing], "minimal-bias": 1, "df-dally-vc": 1})
    return p


def config_text(network, folder):
    """The configuration file's text."""
    def value(v):
        if isinstance(v, tuple):
            return "( " + ", ".join(f'"{x}"' for x in v) + " )"
        return f'"{v}"'
    groups = "".join(f"      {k}={value(v)};\n" for k, v in lp_groups(network).items())
    lines = "".join(f"   {k}={value(v)};\n" for k, v in params(network, folder).items())
    return f"LPGROUPS\n{{\n   MODELNET_GRP\n   {{\n{groups}   }}\n}}\nPARAMS\n{{\n{lines}}}\n"


def global_links(network):
    """[(source router, destination router)] of every global link, each direction once: between every two
    groups the file's k links, each group's routers taking its links to the other groups in turn (router
    r of a group holds its global links r, r + a, r + 2a, ... in the order of the other groups)."""
    s = network.shape
    a, g, k = s["routers_per_group"], s["groups"], s["global_links_per_pair"]

    def router(group, other, i):
        """The router of `group` that holds its i-th link to `other`."""
        slot = (other - (other > group)) * k + i  # the other groups in order, k slots each
        return group * a + slot % a

    return [(router(x, y, i), router(y, x, i)) for x in range(g) for y in range(g) if x != y for i in range(k)]


def write(network, folder):
    """Writes the configuration (and a dragonfly's connection files) into `folder`; returns the
    configuration's path."""
    if network.topology == "dragonfly":
        a = network.shape["routers_per_group"]
        with open(os.path.join(folder, INTRA), "wb") as f:  # every router of a group to every other, type 0
            f.write(b"".join(struct.pack("3i", i, j, 0) for i in range(a) for j in range(a) if i != j))
        with open(os.path.join(folder, INTER), "wb") as f:
            f.write(b"".join(struct.pack("2i", src, dst) for src, dst in global_links(network)))
    path = os.path.join(folder, CONFIG)
    with open(path, "w") as f:
        f.write(config_text(network, folder))
    return path


def description(network, folder, command):
    """What CODES was given, in its own terms, for the simulation's JSON."""
    model = "torus" if network.topology == "torus" else "dragonfly-dally"
    return {"model": model, "lp_groups": lp_groups(network),
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params(network, folder).items()},
            "packet_size": packet_bytes(network), "ranks_per_node": network.ranks_per_node,
            "routing": DALLY_ROUTING.get(network.routing) if model != "torus" else "dimension order (minimal)",
            "seed": None, "command": command}


def lp_of_rank(network, rank):
    """The nw-lp (CODES' rank process) that replays `rank` so that it runs on node rank // ranks_per_node,
    as in the other simulators: a router's repetition holds its nodes' ranks, and CODES deals the j-th of
    them to node j mod nodes_per_router (model-net-mpi-replay's GROUP_MODULO mapping, compiled in), so the
    i-th rank of the router's node t is its (i x nodes_per_router + t)-th."""
    nodes = 1 if network.topology == "torus" else network.shape["nodes_per_router"]
    node, i = divmod(rank, network.ranks_per_node)
    router, t = divmod(node, nodes)
    return router * nodes * network.ranks_per_node + i * nodes + t


def allocation(network, ranks):
    """CODES' allocation file (--alloc_file): one job, its ranks' nw-lps in rank order."""
    return " ".join(str(lp_of_rank(network, r)) for r in range(ranks)) + "\n"


def node_of_rank(network, ranks):
    """{rank: node}: block placement, as CODES is given it (allocation)."""
    return {r: r // network.ranks_per_node for r in ranks}
