# SPDX-License-Identifier: BSD-3-Clause
"""A network file's translation for SimGrid: the machine description AMP's platform library reads (cluster
zones), the XML cluster of a flat network, the network's own smpirun --cfg options and the hostfile, the
other half of what amp_tools.networks resolves (simulators/simgrid.py runs it); docs/TRACE_SIMULATORS.md
gives the model."""
from amp_tools.networks import loopback, per_header

def simgrid_machine(network):
    """What tools/simgrid/amp_platform.cpp builds (SimGrid's cluster zone, each leaf a node behind a
    full-duplex NIC): the JSON it reads from $AMP_SIMGRID_MACHINE. Link latency is the link's plus the
    router hop's. A torus is direct (the NIC sits on the router); in a dragonfly or fat tree the zone's
    link from router to node is a link like the others, and the NIC adds no latency of its own."""
    s = network.shape
    bandwidth, latency = loopback(network)
    machine = {"topology": network.topology, "link_bandwidth": network.link_bandwidth,
               "link_latency": network.link_latency + network.router_latency, "nic_bandwidth": network.nic_bandwidth,
               "nic_latency": 0.0, "loopback_bandwidth": bandwidth, "loopback_latency": latency,
               "host_speed": network.host_speed, "cores": network.ranks_per_node}
    if network.topology == "torus":
        machine["dimensions"] = s["shape"]
    elif network.topology == "fattree":
        machine.update(levels=s["levels"], down=s["down"], up=s["up"], parallel=s["parallel"])
    elif network.topology == "dragonfly":
        # One chassis of all the group's routers (all-to-all local links); the pair's global links as one.
        machine.update(groups=s["groups"], routers=s["routers_per_group"], nodes_per_router=s["nodes_per_router"],
                       global_links=s["global_links_per_pair"])
    return machine


def simgrid_flat_platform(network):
    """The SimGrid platform XML of a flat network (one switch): a cluster of `nodes` hosts behind a
    backbone, `ranks_per_node` cores each."""
    bandwidth, latency = loopback(network)
    return ("<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<platform version=\"4.1\">\n"
            f"  <cluster id=\"amp\" prefix=\"n\" suffix=\"\" radical=\"0-{network.nodes - 1}\" "
            f"speed=\"{network.host_speed:.9g}f\" core=\"{network.ranks_per_node}\" "
            f"bw=\"{network.link_bandwidth:.9g}Bps\" lat=\"{network.link_latency + network.router_latency:.9g}s\" "
            f"loopback_bw=\"{bandwidth:.9g}Bps\" loopback_lat=\"{latency:.9g}s\"/>\n"
            "</platform>\n")


# The MPI library's protocol, the same in both simulators: a message of up to 512 bytes travels with its
# header (one network latency; one header posted, per_header() at the sender); a larger one is fetched by
# the receiver (header, RDMA get request, data: three latencies; two headers posted, per_header() at the
# sender and again at the receiver). These are SST-macro's eager0, eager1 and rendezvous protocols with the
# sender's acknowledgement off.


MPI_PROTOCOL_LATENCIES = "0:1;513:3"


def simgrid_config(network):
    """The network's own smpirun --cfg options: SMPI's bandwidth factor (fitted by SimGrid to one real cluster)
    set to 1, so the file's values are the effective ones, and its latency factor to the MPI protocol's
    latencies; the per-header overhead at the sender (os for MPI_Send, ois for MPI_Isend) and the receiver (or).
    The settings every replay needs, whatever the network (allgather and barrier algorithms, the finalization
    barrier, no cross traffic, the solver's tolerance), are the export's: its export.json's `smpirun_cfg`
    (src/amp/trace/simgrid/replay_settings.hpp, docs/TRACE_TOOLS.md), which amp-trace simgrid also prints."""
    o = per_header(network)
    return ["--cfg=smpi/bw-factor:0:1", f"--cfg=smpi/lat-factor:{MPI_PROTOCOL_LATENCIES}",
            f"--cfg=smpi/os:0:{o:.9g}:0", f"--cfg=smpi/ois:0:{o:.9g}:0", f"--cfg=smpi/or:0:0:0;513:{o:.9g}:0"]


def hostfile(network, ranks):
    """Rank r runs on node r // ranks_per_node (block placement, as SST-macro's indexing = block)."""
    return "".join(f"n{r // network.ranks_per_node}\n" for r in range(ranks))


SIMGRID_PACKETS = ("none: flows share each link as a fluid (max-min), the limit of small packets; "
                   "packet_size is SST-macro's")


def simgrid_description(network):
    """What SimGrid was given, in its own terms, for the simulation's JSON."""
    if network.topology == "flat":
        return {"platform": "xml cluster (flat)", "xml": simgrid_flat_platform(network),
                "config": simgrid_config(network), "routing": "one switch", "seed": None, "packets": SIMGRID_PACKETS}
    return {"platform": "tools/simgrid/amp_platform.cpp (cluster zone, each leaf a node: host, full-duplex NIC, "
                        "loopback)", "machine": simgrid_machine(network), "config": simgrid_config(network),
            "routing": "minimal, fixed by the zone (dimension order; nearest common ancestor; minimal dragonfly)",
            "seed": None, "packets": SIMGRID_PACKETS}
