# SPDX-License-Identifier: BSD-3-Clause
"""Network files (inputs/networks/*.toml): one physical machine, described in the machine's terms, read
and checked once, then translated for each simulator (a SimGrid cluster platform, or SST-macro
parameters) or refused with the one key that simulator cannot express.

The machine: nodes, each with one NIC that its ranks share (ranks in one node talk over a loopback);
routers joined by links of classes with their own bandwidth and latency (torus dimensions, dragonfly
local and global links, fat-tree levels); a latency per router hop; a CPU overhead and a NIC time per
header posted; a routing and its seed. Every error is a NetworkError with one line naming the file and key.
README, "Simulating networks", lists the keys; docs/TRACING.md section 14 gives the model and what each
simulator was given.
"""
import hashlib
import json
import math
import os
import tomllib
from dataclasses import dataclass, field

from amp_tools.control_characters import first_control_character
from amp_tools.file_names import component

INT_LIMIT = 2**31 - 1          # every count a simulator reads as a C int
NODE_LIMIT = 1 << 20           # far beyond any trace AMP synthesizes (65536 ranks)
RANKS_PER_NODE_LIMIT = 1024
SIMGRID_NODE_LIMIT = 16384     # SimGrid 3.32 checks each new link's name against every zone: N^2 to build
PACKET_SIZE_LIMITS = (64, 1 << 20)  # bytes: a Cray packet's 64 B payload up to a whole 1 MiB message

COMMON = {"topology", "link_bandwidth", "link_latency", "host_speed", "ranks_per_node", "routing", "seed",
          "nic_bandwidth", "router_latency", "message_overhead", "nic_message_overhead", "loopback_bandwidth", "loopback_latency",
          "stream_per_core", "packet_size"}
REQUIRED = {"topology", "link_bandwidth", "link_latency", "host_speed", "ranks_per_node"}
TOPOLOGIES = {
    "torus": {"shape", "dimension_bandwidth"},
    "fattree": {"levels", "down", "up", "parallel"},
    "dragonfly": {"groups", "routers_per_group", "nodes_per_router", "global_links_per_pair",
                  "global_bandwidth", "global_latency"},
    "flat": {"nodes"},
}
TOPOLOGY_REQUIRED = {
    "torus": {"shape"},
    "fattree": {"levels", "down", "up", "parallel"},
    "dragonfly": {"groups", "routers_per_group", "nodes_per_router", "global_links_per_pair"},
    "flat": {"nodes"},
}
ROUTINGS = ("minimal", "valiant", "ugal")
RANDOMIZED_ROUTINGS = ("valiant", "ugal")  # a random choice per message: one answer per seed
# Routing each simulator offers per topology. SimGrid's cluster zones route one fixed way: dimension order
# on a torus, up to the nearest common ancestor on a fat tree, minimal on a dragonfly.
ROUTING = {
    "simgrid": {"torus": {"minimal"}, "fattree": {"minimal"}, "dragonfly": {"minimal"}, "flat": {"minimal"}},
    "sstmac": {"torus": {"minimal", "valiant", "ugal"}, "dragonfly": {"minimal", "valiant", "ugal"}},
}
SIMULATORS = tuple(ROUTING)


class NetworkError(Exception):
    pass


@dataclass
class Network:
    name: str
    path: str
    topology: str
    link_bandwidth: float
    link_latency: float
    host_speed: float
    ranks_per_node: int
    routing: str = "minimal"
    seed: int = 1
    nic_bandwidth: float = 0.0            # bytes/s each way at once (load() defaults it to the link's)
    router_latency: float = 0.0           # seconds per router hop (added to each link crossed)
    message_overhead: float = 0.0         # CPU seconds per header posted (the sender's; above 512 B the receiver's too)
    nic_message_overhead: float = 0.0     # NIC seconds per header posted, charged to the rank that posts it (per_header())
    loopback_bandwidth: float = 0.0       # ranks of one node (0: DEFAULT_LOOPBACK, see loopback())
    loopback_latency: float = 0.0
    stream_per_core: float = 0.0          # the node's STREAM triad bytes/s per core, all cores busy (0: not given);
                                          # a study scales synthesized compute by it (study_compute_model.py)
    packet_size: int = 0                  # bytes a packet carries (0: not given, SST-macro's SSTMAC_MTU); SimGrid's
                                          # flows have none: they share links as a fluid, the limit of small packets
    shape: dict = field(default_factory=dict)   # the topology's own keys
    overrides: dict = field(default_factory=dict)  # --set KEY=VALUE given on top of the file

    @property
    def nodes(self):
        s = self.shape
        if self.topology == "torus":
            return math.prod(s["shape"])
        if self.topology == "fattree":
            return math.prod(s["down"])
        if self.topology == "dragonfly":
            return s["groups"] * s["routers_per_group"] * s["nodes_per_router"]
        return s["nodes"]

    @property
    def hosts(self):
        """Ranks this network can hold."""
        return self.nodes * self.ranks_per_node

    def parameters(self):
        """The resolved machine (file and --set together), for the simulation's JSON and its key."""
        out = {"topology": self.topology, "nodes": self.nodes, "ranks_per_node": self.ranks_per_node,
               "nic_bandwidth": self.nic_bandwidth, "link_bandwidth": self.link_bandwidth,
               "link_latency": self.link_latency, "router_latency": self.router_latency,
               "message_overhead": self.message_overhead, "host_speed": self.host_speed,
               "routing": self.routing, "seed": self.seed}
        if self.nic_message_overhead:  # absent when 0, so that the keys of files without it stay as they were
            out["nic_message_overhead"] = self.nic_message_overhead
        if self.stream_per_core:
            out["stream_per_core"] = self.stream_per_core
        if self.packet_size:
            out["packet_size"] = self.packet_size
        if self.loopback_bandwidth:
            out["loopback_bandwidth"] = self.loopback_bandwidth
            out["loopback_latency"] = self.loopback_latency
        out.update(self.shape)
        return out

    @property
    def key(self):
        """8 hex digits of the resolved machine: two files of one name, or one file under --set, never
        share an output name."""
        text = json.dumps(self.parameters(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:8]

    @property
    def label(self):
        """The network's name (its file's, made a safe file-name part) with its key, as output files carry it."""
        return f"{component(self.name)}-{self.key}"

    def link_classes(self):
        """Per link class: (bandwidth, latency) of one link as the machine has it."""
        s = self.shape
        if self.topology == "torus":
            names = "xyzwvu"
            bws = s.get("dimension_bandwidth") or [self.link_bandwidth] * len(s["shape"])
            return {names[d] if d < len(names) else f"d{d}": (bws[d], self.link_latency)
                    for d in range(len(s["shape"]))}
        if self.topology == "dragonfly":
            return {"local": (self.link_bandwidth, self.link_latency),
                    "global": (s["global_bandwidth"], s["global_latency"])}
        if self.topology == "fattree":
            return {f"level{i + 1}": (self.link_bandwidth, self.link_latency) for i in range(s["levels"])}
        return {"switch": (self.link_bandwidth, self.link_latency)}


def overrides_text(overrides):
    """Keys set on top of a network file, as lines and figures name a variant: routing=valiant seed=2."""
    return " ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in overrides.items())


def _number(path, key, value, minimum=0.0, inclusive=False):
    bad = isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
    if bad or value < minimum or (value == minimum and not inclusive):
        want = f">= {minimum:g}" if inclusive else ("positive" if minimum == 0 else f"> {minimum:g}")
        raise NetworkError(f"{path}: {key} must be a {want} number, not {value!r}")
    return float(value)


def _positive_int(path, key, value, limit=INT_LIMIT):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise NetworkError(f"{path}: {key} must be a positive integer, not {value!r}")
    if value > limit:
        raise NetworkError(f"{path}: {key} = {value} is above the limit of {limit}")
    return value


def _list(path, key, value, item, length=None):
    if not isinstance(value, list) or not value or (length is not None and len(value) != length):
        want = f"a list of {length} values" if length else "a non-empty list"
        raise NetworkError(f"{path}: {key} must be {want}, not {value!r}")
    return [item(path, key, v) for v in value]


def _override(path, text):
    """KEY=VALUE, VALUE in TOML (a bare word is a string): one --set, on one line (a newline would let the
    value set a second key unseen)."""
    control = first_control_character(text)
    if control:
        raise NetworkError(f"{path}: --set {text!r} holds the control character {control}: give one KEY=VALUE "
                           f"per --set, on one line")
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not key or not value:
        raise NetworkError(f"{path}: --set takes KEY=VALUE, not {text!r}")
    try:
        return key, tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        if value.replace("_", "").replace("-", "").isalnum():
            return key, value
        raise NetworkError(f"{path}: --set {key}: {value!r} is not a TOML value") from None


def load(path, overrides=()):
    """The checked network of a file, with `overrides` (KEY=VALUE strings, or a dict) on top."""
    if not os.path.isfile(path):
        raise NetworkError(f"{path}: no such network file (see inputs/networks/)")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise NetworkError(f"{path}: not valid TOML ({e})") from None
    given = dict(overrides) if isinstance(overrides, dict) else dict(_override(path, o) for o in overrides)
    data.update(given)
    topology = data.get("topology")
    if not isinstance(topology, str) or topology not in TOPOLOGIES:
        raise NetworkError(f"{path}: topology must be one of {', '.join(sorted(TOPOLOGIES))}, not {topology!r}")
    allowed = COMMON | TOPOLOGIES[topology]
    unknown = sorted(set(data) - allowed)
    if unknown:
        hint = ""
        if topology == "dragonfly" and unknown[0] in ("chassis", "routers"):
            hint = " (dragonfly files now give groups, routers_per_group, nodes_per_router, global_links_per_pair)"
        raise NetworkError(f"{path}: unknown key {unknown[0]!r} for topology {topology!r}{hint} "
                           f"(keys: {', '.join(sorted(allowed))})")
    missing = sorted((REQUIRED | TOPOLOGY_REQUIRED[topology]) - set(data))
    if missing:
        raise NetworkError(f"{path}: missing key {missing[0]!r}")
    routing = data.get("routing", "minimal")
    if routing not in ROUTINGS:
        raise NetworkError(f"{path}: routing must be {', '.join(ROUTINGS)}, not {routing!r}")
    link_bandwidth = _number(path, "link_bandwidth", data["link_bandwidth"])
    link_latency = _number(path, "link_latency", data["link_latency"])
    shape = _shape(path, topology, data, link_bandwidth, link_latency)
    network = Network(
        name=os.path.splitext(os.path.basename(path))[0], path=path, topology=topology,
        link_bandwidth=link_bandwidth, link_latency=link_latency,
        host_speed=_number(path, "host_speed", data["host_speed"]),
        ranks_per_node=_positive_int(path, "ranks_per_node", data["ranks_per_node"], RANKS_PER_NODE_LIMIT),
        routing=routing, seed=_positive_int(path, "seed", data.get("seed", 1)),
        nic_bandwidth=_number(path, "nic_bandwidth", data.get("nic_bandwidth", link_bandwidth)),
        router_latency=_number(path, "router_latency", data.get("router_latency", 0.0), inclusive=True),
        message_overhead=_number(path, "message_overhead", data.get("message_overhead", 0.0), inclusive=True),
        nic_message_overhead=_number(path, "nic_message_overhead", data.get("nic_message_overhead", 0.0),
                                     inclusive=True),
        shape=shape, overrides=given)
    if "loopback_bandwidth" in data or "loopback_latency" in data:  # the one not given: its default
        network.loopback_bandwidth = _number(path, "loopback_bandwidth",
                                             data.get("loopback_bandwidth", DEFAULT_LOOPBACK[0]))
        network.loopback_latency = _number(path, "loopback_latency", data.get("loopback_latency", DEFAULT_LOOPBACK[1]),
                                           inclusive=True)
    if "stream_per_core" in data:
        network.stream_per_core = _number(path, "stream_per_core", data["stream_per_core"])
    if "packet_size" in data:
        network.packet_size = _positive_int(path, "packet_size", data["packet_size"], PACKET_SIZE_LIMITS[1])
        if network.packet_size < PACKET_SIZE_LIMITS[0]:
            raise NetworkError(f"{path}: packet_size = {network.packet_size} is below {PACKET_SIZE_LIMITS[0]} bytes "
                               f"(a packet's header alone is about that)")
    if network.nodes > NODE_LIMIT:
        raise NetworkError(f"{path}: {network.nodes} nodes is more than AMP simulates ({NODE_LIMIT}); "
                           f"no trace needs that many")
    return network


def _shape(path, topology, data, link_bandwidth, link_latency):
    if topology == "torus":
        dims = _list(path, "shape", data["shape"], _positive_int)
        shape = {"shape": dims}
        if "dimension_bandwidth" in data:
            shape["dimension_bandwidth"] = _list(path, "dimension_bandwidth", data["dimension_bandwidth"],
                                                 _number, len(dims))
        return shape
    if topology == "fattree":
        levels = _positive_int(path, "levels", data["levels"], 8)
        return {"levels": levels, **{k: _list(path, k, data[k], _positive_int, levels) for k in ("down", "up", "parallel")}}
    if topology == "dragonfly":
        for key in ("groups", "routers_per_group", "nodes_per_router", "global_links_per_pair"):
            _positive_int(path, key, data[key])
        if data["groups"] < 2:
            raise NetworkError(f"{path}: groups must be at least 2, not {data['groups']}")
        return {"groups": data["groups"], "routers_per_group": data["routers_per_group"],
                "nodes_per_router": data["nodes_per_router"], "global_links_per_pair": data["global_links_per_pair"],
                "global_bandwidth": _number(path, "global_bandwidth", data.get("global_bandwidth", link_bandwidth)),
                "global_latency": _number(path, "global_latency", data.get("global_latency", link_latency))}
    return {"nodes": _positive_int(path, "nodes", data["nodes"])}


# --- what each simulator can express ------------------------------------------------------------
def refusal(network, simulator):
    """One line naming the key `simulator` cannot express for this machine, or None."""
    where = f"{network.path}: {simulator}"
    routes = ROUTING[simulator].get(network.topology)
    if routes is None:
        other = [s for s in SIMULATORS if network.topology in ROUTING[s]]
        return f"{where} has no {network.topology} model in AMP (use {' or '.join(other)})"
    if network.routing not in routes:
        return f"{where} offers routing {', '.join(sorted(routes))} on a {network.topology}, not {network.routing!r}"
    s = network.shape
    if simulator == "simgrid" and network.nodes > SIMGRID_NODE_LIMIT:
        return (f"{where} 3.32 builds a platform in time that grows as its nodes squared (4096 nodes: 8-34 s "
                f"here): {network.nodes} nodes is more than {SIMGRID_NODE_LIMIT} (use sstmac)")
    if network.topology == "dragonfly" and s["global_latency"] != network.link_latency:
        return f"{where} gives every link one latency: global_latency differs from link_latency"
    if simulator == "simgrid":
        classes = {bw for bw, _ in network.link_classes().values()}
        if len(classes) > 1:
            key = "dimension_bandwidth" if network.topology == "torus" else "global_bandwidth"
            return f"{where} gives every link of a cluster zone one bandwidth: {key} differs from link_bandwidth"
        if network.topology == "dragonfly":
            if s["routers_per_group"] < s["groups"]:
                return (f"{where} routes a dragonfly through router g of each group to reach group g: "
                        f"routers_per_group ({s['routers_per_group']}) must be at least groups ({s['groups']})")
    if simulator == "sstmac":
        if network.loopback_latency > 0:
            return (f"{where} copies a message of 64 bytes or less within a node for free (its memory model starts "
                    f"above): loopback_latency must be 0")
        if network.topology == "torus" and _sstmac_torus_scales(network) is None:
            return (f"{where} scales one switch-port bandwidth by whole numbers (redundant links per dimension, "
                    f"its ejection port to the NIC): nic_bandwidth and the dimensions' bandwidths must be whole "
                    f"multiples of one bandwidth, at most {SSTMAC_MAX_PORT_SCALE} times it")
        if network.topology == "dragonfly" and network.nic_bandwidth != network.link_bandwidth:
            return (f"{where}'s dragonfly scales no port (its ejection port is a switch port): nic_bandwidth must "
                    f"equal link_bandwidth")
        if network.topology == "dragonfly" and s["global_bandwidth"] != network.link_bandwidth:
            return f"{where}'s dragonfly gives every switch port one bandwidth: global_bandwidth differs from link_bandwidth"
        if network.topology == "dragonfly":
            k, a = s["global_links_per_pair"], s["routers_per_group"]
            if k % a or a % (k // a):
                return (f"{where} wires a dragonfly all-to-all (every router reaches every group over the same "
                        f"number of links): global_links_per_pair ({k}) must be a multiple c of routers_per_group "
                        f"({a}) with c dividing {a}")
    return None


def memory_estimate(network, simulator, ranks, actions):
    """Bytes the simulator needs for this network and a trace of `ranks` ranks and `actions` actions:
    measured here (SimGrid 3.32: about 3 KiB per node and 1 KiB per torus link direction; SST-macro 16.0:
    about 40 KiB per switch), plus the trace's actions held in memory (about 200 bytes each)."""
    links = network.nodes * (2 * len(network.shape.get("shape", [])) or 4)
    per_network = network.nodes * 3 * 1024 + links * 1024 if simulator == "simgrid" else network.nodes * 40 * 1024
    return per_network + ranks * 64 * 1024 + actions * 200


def check_fits(network, simulator, ranks, actions=0, memory=None):
    """One line when this network cannot run `ranks` ranks in `simulator`, else None."""
    problem = refusal(network, simulator)
    if problem:
        return problem
    if ranks > network.hosts:
        return (f"{network.path}: the trace has {ranks} ranks, more than the network's {network.nodes} nodes x "
                f"{network.ranks_per_node} ranks per node = {network.hosts}")
    memory = memory if memory is not None else _available_memory()
    need = memory_estimate(network, simulator, ranks, actions)
    if memory and need > memory // 2:
        return (f"{network.path}: {simulator} would need about {need / 2**30:.1f} GiB for {network.nodes} nodes and "
                f"this trace, more than half of this machine's {memory / 2**30:.1f} GiB available")
    return None


def _available_memory():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


# --- SimGrid ------------------------------------------------------------------------------------
DEFAULT_LOOPBACK = (40e9, 0.0)  # bytes/s, s: ranks of one node when the file gives no loopback


def loopback(network):
    """(bandwidth, latency) between ranks of one node."""
    if network.loopback_bandwidth:
        return network.loopback_bandwidth, network.loopback_latency
    return DEFAULT_LOOPBACK


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


def per_header(network):
    """Seconds the rank that posts a header is held: its CPU's message_overhead, then the NIC's
    nic_message_overhead (the NIC takes the operation and returns control: seeds/002_* Table 1). Neither
    simulator models a NIC's time per message apart from its bandwidth (SimGrid's NIC is a link; SST-macro's
    snappr NIC serves bytes, sstmac/hardware/snappr/snappr_nic.cc), so both charge it to the posting rank:
    one rank's messages are serialised by both costs, exactly where one rank sends through its NIC; ranks
    that share a NIC are not serialised against each other (docs/TRACING.md section 14)."""
    return network.message_overhead + network.nic_message_overhead
MPI_PROTOCOL_LATENCIES = "0:1;513:3"
SSTMAC_PROTOCOL = {"node.app1.mpi.max_vshort_msg_size": "512B", "node.app1.mpi.software_ack": "false",
                   # and nothing between: SST-macro's default sends 513 B to 8 KB with its eager1 protocol, a
                   # copy into a bounce buffer at both ends charged in CPU cycles (an 8 KB 3-D halo took 2.5x
                   # SimGrid's time, and 1.1x with 1000 GHz cores); above 512 B both simulators fetch by RDMA
                   "node.app1.mpi.max_eager_msg_size": "512B",
                   # every byte through the packet network, as in SimGrid (SST-macro's default sends messages
                   # of up to 256 bytes around it, on no link)
                   "node.nic.negligible_size": "0"}


def simgrid_config(network):
    """The network's own smpirun --cfg options: SMPI's bandwidth factor (fitted by SimGrid to one real cluster)
    set to 1, so the file's values are the effective ones, and its latency factor to the MPI protocol's
    latencies; the per-header overhead at the sender (os for MPI_Send, ois for MPI_Isend) and the receiver (or).
    The settings every replay needs, whatever the network (allgather and barrier algorithms, the finalization
    barrier, no cross traffic, the solver's tolerance), are the export's: its export.json's `smpirun_cfg`
    (trace/simgrid/replay_settings.hpp, docs/TRACING.md section 13), which amp-trace simgrid also prints."""
    o = per_header(network)
    return ["--cfg=smpi/bw-factor:0:1", f"--cfg=smpi/lat-factor:{MPI_PROTOCOL_LATENCIES}",
            f"--cfg=smpi/os:0:{o:.9g}:0", f"--cfg=smpi/ois:0:{o:.9g}:0", f"--cfg=smpi/or:0:0:0;513:{o:.9g}:0"]


def hostfile(network, ranks):
    """Rank r runs on node r // ranks_per_node (block placement, as SST-macro's indexing = block)."""
    return "".join(f"n{r // network.ranks_per_node}\n" for r in range(ranks))


SIMGRID_PACKETS = "none: flows share each link as a fluid (max-min), the limit of small packets; packet_size is SST-macro's"


def simgrid_description(network):
    """What SimGrid was given, in its own terms, for the simulation's JSON."""
    if network.topology == "flat":
        return {"platform": "xml cluster (flat)", "xml": simgrid_flat_platform(network),
                "config": simgrid_config(network), "routing": "one switch", "seed": None, "packets": SIMGRID_PACKETS}
    return {"platform": "tools/simgrid/amp_platform.cpp (cluster zone, each leaf a node: host, full-duplex NIC, "
                        "loopback)", "machine": simgrid_machine(network), "config": simgrid_config(network),
            "routing": "minimal, fixed by the zone (dimension order; nearest common ancestor; minimal dragonfly)",
            "seed": None, "packets": SIMGRID_PACKETS}


# --- SST-macro ----------------------------------------------------------------------------------
# SST-macro's router for each topology and routing, and its virtual channels (numVC() in
# sstmac/hardware/router/{torus,dragonfly}_routing.cc), over which a switch splits each port's credits.
SSTMAC_ROUTERS = {"torus": {"minimal": ("torus_minimal", 2), "valiant": ("torus_valiant", 4),
                            "ugal": ("torus_ugal", 4)},
                  "dragonfly": {"minimal": ("dragonfly_minimal", 2), "valiant": ("dragonfly_valiant", 6),
                                "ugal": ("dragonfly_ugal", 6)}}


SSTMAC_MAX_PORT_SCALE = 1000     # redundant links per port: a bandwidth in whole 0.1 % steps of the largest
SSTMAC_SWITCH_CREDITS = 64_000    # bytes a switch port may send ahead (switch.credits = 64KB, SI, in tools/sstmac/*.ini)
SSTMAC_NIC_CREDITS = 64_000       # bytes a NIC may send ahead into its router (node.nic.credits = 64KB, the same)
# SST-macro's switches split a port's credits evenly over the router's virtual channels (SSTMAC_ROUTERS;
# snappr_switch.cc), and a packet larger than its channel's share, or than the NIC's credits, is never sent:
# the replay stops with "deadlocked VL" (64 KiB packets on torus-16x16x16). Every channel's share holds at
# least this many packets; the ports get more credits where the 64 KB would not.
SSTMAC_PACKETS_PER_CHANNEL = 2
SSTMAC_PRIVATE_COPY_BYTES = 1 << 40  # copies up to this size cost their rank CPU time only (all of them)


def _sstmac_torus_scales(network):
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
    scales = _sstmac_torus_scales(network) if network.topology == "torus" else None
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
         "switch.router.name": SSTMAC_ROUTERS[network.topology][network.routing][0], **SSTMAC_PROTOCOL,
         "switch.router.seed": str(network.seed)}
    # Ranks of one node: each message a copy through the node's memory model at the loopback's bandwidth,
    # however many run at once (SimGrid: a FATPIPE loopback). Its snappr model with one channel served a
    # node's copies one after the other (64 ranks of amp-ghost on two nodes of trinity-haswell, 32 to a
    # node: 1.35x SimGrid's time; on one KNL node 2.5x); pisces runs one copy per channel, each at
    # max_single_bandwidth, and a copy beyond its channels waits for one (docs/TRACING.md section 14).
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
    # without; docs/TRACING.md section 14).
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
    with 1 KiB (docs/TRACING.md section 14)."""
    return network.packet_size or SSTMAC_MTU


# SST-macro 16.0's NIC queues (node.nic.queue), in the order AMP tries them. Round robin over the messages
# waiting at a NIC is the fair share SimGrid gives its flows, but its queue is a ring of 1024 messages
# without a check (RoundRobinQueue, sstmac/hardware/snappr/snappr_nic.cc): a 1025th waiting message makes it
# look empty, and the messages in it are never sent, so the replay runs out of events and stops short (it
# happens where ranks share a NIC and send many small messages: nobel's SVCP at 256 ranks, 16 to a NIC).
# SST-macro's FIFO queue has no bound and serves one message after the other; for messages of one packet
# it is the same order. ./amp simulate replays with the FIFO queue only where round robin stopped short,
# and says so in one line and in the JSON (docs/TRACING.md section 14).
SSTMAC_QUEUES = ("round_robin", "fifo")


def sstmac_injection(network, end_latency, queue):
    """How the NIC feeds its packets into the network: from `queue` (SSTMAC_QUEUES), through a staging
    buffer that covers the round trip to its router and two packets more, however many ranks share the NIC.
    SST-macro's default buffer is 4 MB: a header or RDMA get request waited behind up to 4 MB of data (a 3-D
    halo of 1 MiB faces ran at 55 % of the NIC's bandwidth), and with 16 ranks to a NIC a 64 KiB buffer made
    amp-ghost's BSPMA 1.55x SimGrid's time on xe6-gemini (1.14x with this one; docs/TRACING.md section 14)."""
    in_flight = math.ceil(network.nic_bandwidth * 2 * end_latency)
    packet = packet_bytes(network)
    return {"node.nic.queue": queue, "node.nic.mtu": f"{packet}B", "node.nic.buffer": f"{in_flight + 2 * packet}B"}


def sstmac_description(network, command, queue=None):
    """What SST-macro was given, in its own terms, for the simulation's JSON."""
    p = sstmac_overrides(network, queue)
    return {"topology": network.topology, "geometry": p["topology.geometry"], "h": p.get("topology.h"),
            "inter_group": p.get("topology.inter_group"), "concentration": p["topology.concentration"],
            "ranks_per_node": network.ranks_per_node, "router": p["switch.router.name"],
            "packet_size": packet_bytes(network), "injection_queue": p["node.nic.queue"],
            "seed": network.seed, "parameters": p, "command": command}
