# SPDX-License-Identifier: BSD-3-Clause
"""A network file's translation for SST-macro (its snappr model: torus and dragonfly routers, NIC and
switch credits, packets, the in-node memory model, the MPI protocol's thresholds), the other half of what
amp_tools.networks resolves; docs/TRACE_SIMULATORS.md gives the model and what each simulator is given."""
import datetime
import glob
import math
import os

from amp_tools.networks import RANDOMIZED_ROUTINGS, loopback, per_header

SSTMAC_PROTOCOL = {"node.app1.mpi.max_vshort_msg_size": "512B", "node.app1.mpi.software_ack": "false",
                   # and nothing between: SST-macro's default sends 513 B to 8 KB with its eager1 protocol, a
                   # copy into a bounce buffer at both ends charged in CPU cycles (an 8 KB 3-D halo took 2.5x
                   # SimGrid's time, and 1.1x with 1000 GHz cores); above 512 B both simulators fetch by RDMA
                   "node.app1.mpi.max_eager_msg_size": "512B",
                   # every byte through the packet network, as in SimGrid (SST-macro's default sends messages
                   # of up to 256 bytes around it, on no link)
                   "node.nic.negligible_size": "0"}


# --- SST-macro ----------------------------------------------------------------------------------
# SST-macro's router for each topology and routing, and its virtual channels (numVC() in
# sstmac/hardware/router/{torus,dragonfly}_routing.cc), over which a switch splits each port's credits.
SSTMAC_ROUTERS = {"torus": {"minimal": ("torus_minimal", 2), "valiant": ("torus_valiant", 4),
                            "ugal": ("torus_ugal", 4)},
                  "dragonfly": {"minimal": ("dragonfly_minimal", 2), "valiant": ("dragonfly_valiant", 6),
                                "ugal": ("dragonfly_ugal", 6)}}


SSTMAC_MAX_PORT_SCALE = 1000     # redundant links per port: a bandwidth in whole 0.1 % steps of the largest
# bytes a switch port may send ahead (switch.credits = 64KB, SI, in tools/sstmac/*.ini)
SSTMAC_SWITCH_CREDITS = 64_000
SSTMAC_NIC_CREDITS = 64_000       # bytes a NIC may send ahead into its router (node.nic.credits = 64KB, the same)
# SST-macro's switches split a port's credits evenly over the router's virtual channels (SSTMAC_ROUTERS;
# snappr_switch.cc), and a packet larger than its channel's share, or than the NIC's credits, is never sent:
# the replay stops with "deadlocked VL" (64 KiB packets on torus-16x16x16). Every channel's share holds at
# least this many packets; the ports get more credits where the 64 KB would not.
SSTMAC_PACKETS_PER_CHANNEL = 2
SSTMAC_PRIVATE_COPY_BYTES = 1 << 40  # copies up to this size cost their rank CPU time only (all of them)
# SST-macro's clock (sstmac/common/timestamp.h and .cc, event_scheduler.cc): a TimeDelta counts uint64 ticks
# of 100 attoseconds (initStamps(100)), so its maxTime() is (2^64 - 1) / 1e16 = 1844 s. A time value above it
# aborts ("TimeDelta(): Time value ... out of bounds"); a simulated clock that passes 2^64 ticks wraps
# silently (two ranks of 2 x 950 s compute were predicted 950 s). No time given or replayed may reach it.
SSTMAC_MAX_SECONDS = (2**64 - 1) // 10**16


def sstmac_times(network):
    """{what: seconds} of every time SST-macro is given for this network (sstmac_overrides)."""
    bandwidth, latency = loopback(network)
    return {"link_latency + router_latency": network.link_latency + network.router_latency,
            "message_overhead + nic_message_overhead": per_header(network), "loopback_latency": latency}


def sstmac_torus_scales(network):
    """SST-macro's torus has one switch-port bandwidth (switch.link.bandwidth), scaled by whole numbers per
    dimension (topology.redundant) and at the ejection port to the NIC (topology.injection_redundant): the
    largest bandwidth dividing every dimension's and the NIC's, in whole bytes/s, and those whole numbers
    ({"base", "dimensions", "ejection"}), or None when a factor would pass SSTMAC_MAX_PORT_SCALE. SeaStar's
    4.0 GB/s links and 2.2 GB/s NIC: 0.2 GB/s, 20 links per dimension and 11 to the NIC."""
    dimensions = network.shape.get("dimension_bandwidth") or [network.link_bandwidth] * len(network.shape["shape"])
    ports = [*dimensions, network.nic_bandwidth]
    whole = [round(bw) for bw in ports]
    if any(abs(w - bw) > 1e-6 * bw for w, bw in zip(whole, ports)):
        return None
    base = math.gcd(*whole)
    factors = [w // base for w in whole]
    if max(factors) > SSTMAC_MAX_PORT_SCALE:
        return None
    return {"base": base, "dimensions": factors[:-1], "ejection": factors[-1]}


def sstmac_launch(network, ranks):
    """SST-macro's launch command: `ranks` ranks, ranks_per_node to a node (block placement). A DUMPI
    app without one gets one rank per node, whatever else says otherwise."""
    return f"aprun -n {ranks} -N {min(network.ranks_per_node, ranks)}"


def sstmac_overrides(network, queue=None):
    """`-p` overrides of tools/sstmac/<topology>.ini that make SST-macro's machine this one, its NIC injecting
    from `queue` (one of SSTMAC_QUEUES; the first when None)."""
    s = network.shape
    gbps = lambda bw: f"{bw / 1e9:.9g}GB/s"  # noqa: E731
    ns = lambda seconds: f"{seconds * 1e9:.9g}ns"  # noqa: E731
    hop = network.link_latency + network.router_latency
    # A torus is direct: the NIC sits on its router with no link between (SimGrid's torus has none);
    # in a dragonfly the node's link to its router is a link like the others.
    end = 1e-12 if network.topology == "torus" else hop
    # SST-macro's one switch-port bandwidth (switch.link.bandwidth): a torus scales it per dimension and at
    # its ejection ports; a dragonfly scales nothing.
    scales = sstmac_torus_scales(network) if network.topology == "torus" else None
    base = scales["base"] if scales else network.link_bandwidth
    p = {"node.nic.injection.bandwidth": gbps(network.nic_bandwidth), "node.nic.injection.latency": ns(end),
         "node.nic.ejection.latency": ns(end), "switch.link.latency": ns(hop),
         "switch.logp.bandwidth": gbps(base), "switch.logp.hop_latency": ns(hop), "switch.logp.out_in_latency": ns(end),
         "node.proc.frequency": f"{network.host_speed / 1e9:.9g}GHz",
         "node.proc.ncores": str(max(network.ranks_per_node, 1)),
         # SST-macro charges CPU overhead per header posted (see MPI_PROTOCOL_LATENCIES). Not on the receiver's
         # RDMA get request (post_rdma_delay, sumi/sim_transport.cc): SimGrid charges its `or` as the receive is
         # posted, where it overlaps the wait; given to SST-macro it made the 64 KiB 3-D halo in one node 1.26x
         # SimGrid's time (57.4 against 45.4 us; 46.5 without)
         "node.app1.mpi.post_header_delay": ns(per_header(network)),
         "switch.router.name": SSTMAC_ROUTERS[network.topology][network.routing][0], **SSTMAC_PROTOCOL}
    # Ranks of one node: each message a copy through the node's memory model at the loopback's bandwidth,
    # however many run at once (SimGrid: a FATPIPE loopback). Its snappr model with one channel served a
    # node's copies one after the other (64 ranks of amp-ghost on two nodes of trinity-haswell, 32 to a
    # node: 1.35x SimGrid's time; on one KNL node 2.5x); pisces runs one copy per channel, each at
    # max_single_bandwidth, and a copy beyond its channels waits for one (docs/TRACE_SIMULATORS.md).
    bandwidth, latency = loopback(network)
    channels = SSTMAC_COPIES_PER_RANK * max(network.ranks_per_node, 1)
    p.update({"node.memory.name": "pisces", "node.memory.max_single_bandwidth": gbps(bandwidth),
              "node.memory.nchannels": str(channels), "node.memory.total_bandwidth": gbps(channels * bandwidth),
              "node.memory.latency": ns(latency)})
    # SST-macro charges the copies its MPI makes (eager messages at both ends, packing a strided datatype)
    # as a loop of one instruction per `lib_compute_access_width` bits at node.proc.frequency: 8 bytes per
    # cycle by default, 8 GB/s at 1 GHz. A copy inside a node runs at the loopback's bandwidth; SimGrid's
    # replay charges none (svcp's many small pieces took 1.58x SimGrid's time, 1.18x at the loopback's).
    p["node.app1.lib_compute_access_width"] = str(8 * max(1, round(bandwidth / network.host_speed)))
    # ... on the rank's own core: SST-macro sends a copy of more than 64 bytes through the node's memory
    # model as well, one channel that every rank of the node shares, so with 16 ranks to a node their
    # packing was served one after the other (svcp at 64 ranks on xe6-gemini: 2.5x SimGrid's time, 1.11x
    # without; docs/TRACE_SIMULATORS.md).
    p["node.proc.negligible_compute_bytes"] = f"{SSTMAC_PRIVATE_COPY_BYTES}B"
    if network.topology == "torus":
        dims = s["shape"]
        p["topology.redundant"] = "[" + ",".join(map(str, scales["dimensions"])) + "]"
        p["topology.injection_redundant"] = str(scales["ejection"])
        p["topology.geometry"] = "[" + ",".join(map(str, dims)) + "]"
        p["topology.concentration"] = "1"
    else:
        a, g, k = s["routers_per_group"], s["groups"], s["global_links_per_pair"]
        p["topology.geometry"] = f"[{a},{g}]"
        p["topology.h"] = str(k // a * (g - 1))    # global links per router: k / a to every other group
        p["topology.inter_group"] = "alltoall"
        p["topology.concentration"] = str(s["nodes_per_router"])
    p["switch.link.bandwidth"] = gbps(base)
    p.update(sstmac_credits(network, scales))
    p.update(sstmac_injection(network, end, queue or SSTMAC_QUEUES[0]))
    return p


def sstmac_credits(network, scales):
    """The credits of SST-macro's switch ports and NICs where they differ from tools/sstmac/*.ini's 64 KB: a
    port's credits scale with its links (a torus' `scales`), so the least scaled port keeps the 64 KB; and
    each virtual channel's share of it, and the NIC's, hold SSTMAC_PACKETS_PER_CHANNEL packets."""
    packet = packet_bytes(network)
    channels = SSTMAC_ROUTERS[network.topology][network.routing][1]
    port = max(SSTMAC_SWITCH_CREDITS, channels * SSTMAC_PACKETS_PER_CHANNEL * packet)
    fewest = min(*scales["dimensions"], scales["ejection"]) if scales else 1
    credits = {}
    if fewest > 1 or port != SSTMAC_SWITCH_CREDITS:
        credits["switch.credits"] = f"{math.ceil(port / fewest)}B"
    nic = max(SSTMAC_NIC_CREDITS, SSTMAC_PACKETS_PER_CHANNEL * packet)
    if nic != SSTMAC_NIC_CREDITS:
        credits["node.nic.credits"] = f"{nic}B"
    return credits


# Copies between ranks of one node that SST-macro's memory model runs at once, per rank of the node (its
# pisces channels; about 40 bytes of memory each, on every node of the machine): an 8-rank 3-D halo in one
# node makes 6 per rank.
SSTMAC_COPIES_PER_RANK = 16

SSTMAC_MTU = 4096  # bytes per packet (node.nic.mtu) where the file gives no packet_size


def packet_bytes(network):
    """The bytes one of SST-macro's packets carries: the file's packet_size, else SSTMAC_MTU. Smaller packets
    share a port more finely (closer to SimGrid's fluid flows and to Cray's 64-byte packets) and cost SST-macro
    time in proportion: an 8 KiB 3-D halo on xt6-seastar is 1.32x SimGrid's time with 4 KiB packets and 1.02x
    with 1 KiB (docs/TRACE_SIMULATORS.md)."""
    return network.packet_size or SSTMAC_MTU


# SST-macro 16.0's NIC queues (node.nic.queue), in the order AMP tries them. Round robin over the messages
# waiting at a NIC is the fair share SimGrid gives its flows, but its queue is a ring of 1024 messages
# without a check (RoundRobinQueue, sstmac/hardware/snappr/snappr_nic.cc): a 1025th waiting message makes it
# look empty, and the messages in it are never sent, so the replay runs out of events and stops short (it
# happens where ranks share a NIC and send many small messages: nobel's SVCP at 256 ranks, 16 to a NIC).
# SST-macro's FIFO queue has no bound and serves one message after the other; for messages of one packet
# it is the same order. ./amp simulate replays with the FIFO queue only where round robin stopped short,
# and says so in one line and in the JSON (docs/TRACE_SIMULATORS.md).
SSTMAC_QUEUES = ("round_robin", "fifo")


def sstmac_injection(network, end_latency, queue):
    """How the NIC feeds its packets into the network: from `queue` (SSTMAC_QUEUES), through a staging
    buffer that covers the round trip to its router and two packets more, however many ranks share the NIC.
    SST-macro's default buffer is 4 MB: a header or RDMA get request waited behind up to 4 MB of data (a 3-D
    halo of 1 MiB faces ran at 55 % of the NIC's bandwidth), and with 16 ranks to a NIC a 64 KiB buffer made
    amp-ghost's BSPMA 1.55x SimGrid's time on xe6-gemini (1.14x with this one; docs/TRACE_SIMULATORS.md)."""
    in_flight = math.ceil(network.nic_bandwidth * 2 * end_latency)
    packet = packet_bytes(network)
    return {"node.nic.queue": queue, "node.nic.mtu": f"{packet}B", "node.nic.buffer": f"{in_flight + 2 * packet}B"}


# SST-macro 16.0's routers given a seed (switch.router.seed) draw each random choice from a generator seeded anew
# from the simulated time and the attempt (Router::randomNumber in sstmac/hardware/router/router.cc: seed x (time
# + 31) << (attempt + 5), kept to 32 bits), so from the 27th attempt on every attempt draws the same number. Where
# valiant's loop for an intermediate group (checkValiantInterGroup, dragonfly_routing.cc; UGAL's too) finds none
# in those 28 draws, 1 time in 85,000 on three groups ((2/3)^28), it never ends: a 4096-rank replay on
# cascade-dragonfly sat there on one packet, no MPI call ending for over ten minutes, its attempt counter past
# 3.6 billion and rising (docs/TRACE_SIMULATORS.md). A router given no seed draws from one stream seeded by the
# wall clock (time(NULL)); AMP stops that clock at the file's seed, in seconds (Debian's libfaketime), so the
# stream is the seed's and a replay repeats exactly.
SSTMAC_CLOCK_LIBRARY = "/usr/lib/*/faketime/libfaketime.so.1"
ROUTER_SEED = "the routers' one stream, seeded by a wall clock stopped at `seed` s (libfaketime)"


def sstmac_clock_library():
    """The libfaketime that stops SST-macro's wall clock at a seed, or None where it is not installed."""
    found = sorted(glob.glob(SSTMAC_CLOCK_LIBRARY))
    return found[0] if found else None


def sstmac_environment(network, library):
    """The environment SST-macro replays in: for a randomized routing (networks.RANDOMIZED_ROUTINGS), its wall
    clock stopped at the seed's second through `library` (sstmac_clock_library), the seed of its routers' one
    stream; None (the caller's environment) where no random choice is made."""
    if network.routing not in RANDOMIZED_ROUTINGS:
        return None
    frozen = datetime.datetime.fromtimestamp(network.seed, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    return {**os.environ, "LD_PRELOAD": library, "FAKETIME": frozen, "TZ": "UTC",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1"}


def sstmac_description(network, command, queue=None):
    """What SST-macro was given, in its own terms, for the simulation's JSON."""
    p = sstmac_overrides(network, queue)
    return {"topology": network.topology, "geometry": p["topology.geometry"], "h": p.get("topology.h"),
            "inter_group": p.get("topology.inter_group"), "concentration": p["topology.concentration"],
            "ranks_per_node": network.ranks_per_node, "router": p["switch.router.name"],
            "packet_size": packet_bytes(network), "injection_queue": p["node.nic.queue"],
            "seed": network.seed, "router_seed": ROUTER_SEED if network.routing in RANDOMIZED_ROUTINGS else None,
            "parameters": p, "command": command}
