# SPDX-License-Identifier: BSD-3-Clause
"""Network files (inputs/networks/*.toml): one physical machine, described in the machine's terms, read
and checked once, then translated for each simulator by its module (amp_tools.simulators: a SimGrid cluster platform,
SST-macro parameters, a CODES configuration) or refused with the one key that simulator cannot express.

The machine: nodes, each with one NIC that its ranks share (ranks in one node talk over a loopback);
routers joined by links of classes with their own bandwidth and latency (torus dimensions, dragonfly
local and global links, fat-tree levels); a latency per router hop; a CPU overhead and a NIC time per
header posted; a routing and its seed. Every error is a NetworkError with one line naming the file and key.
README, "Simulating networks", lists the keys; docs/TRACE_SIMULATORS.md gives the model and what each
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
PACKET_SIZE_LIMITS = (64, 1 << 20)  # bytes: a Cray packet's 64 B payload up to a whole 1 MiB message

COMMON = {"topology", "link_bandwidth", "link_latency", "host_speed", "ranks_per_node", "routing", "seed",
          "nic_bandwidth", "router_latency", "message_overhead", "nic_message_overhead", "loopback_bandwidth",
          "loopback_latency",
          "stream_per_core", "packet_size", "nic_queue"}
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
# How a NIC serves the messages its ranks leave waiting: in turn, packet by packet (the fair share SimGrid
# gives its flows), or one whole message after the other in the order posted. Not given: each simulator's own
# way (SST-macro round robin, and FIFO where its round-robin ring overflows; docs/SIMULATING.md).
NIC_QUEUES = ("round_robin", "fifo")


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
    # NIC seconds per header posted, charged to the rank that posts it (per_header())
    nic_message_overhead: float = 0.0
    loopback_bandwidth: float = 0.0       # ranks of one node (0: DEFAULT_LOOPBACK, see loopback())
    loopback_latency: float = 0.0
    stream_per_core: float = 0.0          # the node's STREAM triad bytes/s per core, all cores busy (0: not given);
                                          # a study scales synthesized compute by it (study_compute_model.py)
    packet_size: int = 0                  # bytes a packet carries (0: not given, SST-macro's SSTMAC_MTU); SimGrid's
                                          # flows have none: they share links as a fluid, the limit of small packets
    nic_queue: str = ""                   # one of NIC_QUEUES ("": not given, each simulator's own way)
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
        if self.nic_queue:
            out["nic_queue"] = self.nic_queue
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


def _overrides(path, texts):
    """{key: value} of --set KEY=VALUE texts; a key set twice with two values is refused (the last would win
    unseen), the same value twice is harmless."""
    given = {}
    for text in texts:
        key, value = _override(path, text)
        if key in given and given[key] != value:
            raise NetworkError(f"{path}: --set gives {key} twice with different values ({given[key]!r} and "
                               f"{value!r}); give it once")
        given[key] = value
    return given


def load(path, overrides=()):
    """The checked network of a file, with `overrides` (KEY=VALUE strings, or a dict) on top."""
    if not os.path.lexists(path):
        raise NetworkError(f"{path}: no such network file (see inputs/networks/)")
    if not os.path.isfile(path):  # a folder, a FIFO (which would hang the read), a device
        raise NetworkError(f"{path}: not a regular file (a network file is a TOML file, see inputs/networks/)")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise NetworkError(f"{path}: not valid TOML ({e})") from None
    given = dict(overrides) if isinstance(overrides, dict) else _overrides(path, overrides)

    def src(key):
        """Where the value of `key` came from, as a line names it: the file, or the --set that gave it."""
        if key not in given:
            return path
        value = given[key]
        return f"{path} --set {key}={json.dumps(value) if not isinstance(value, str) else value}"
    data.update(given)
    topology = data.get("topology")
    if not isinstance(topology, str) or topology not in TOPOLOGIES:
        raise NetworkError(f"{src('topology')}: topology must be one of {', '.join(sorted(TOPOLOGIES))}, "
                           f"not {topology!r}")
    allowed = COMMON | TOPOLOGIES[topology]
    unknown = sorted(set(data) - allowed)
    if unknown:
        hint = ""
        if topology == "dragonfly" and unknown[0] in ("chassis", "routers"):
            hint = " (dragonfly files now give groups, routers_per_group, nodes_per_router, global_links_per_pair)"
        raise NetworkError(f"{src(unknown[0])}: unknown key {unknown[0]!r} for topology {topology!r}{hint} "
                           f"(keys: {', '.join(sorted(allowed))})")
    missing = sorted((REQUIRED | TOPOLOGY_REQUIRED[topology]) - set(data))
    if missing:
        raise NetworkError(f"{path}: missing key {missing[0]!r}")
    routing = data.get("routing", "minimal")
    if routing not in ROUTINGS:
        raise NetworkError(f"{src('routing')}: routing must be {', '.join(ROUTINGS)}, not {routing!r}")
    link_bandwidth = _number(src("link_bandwidth"), "link_bandwidth", data["link_bandwidth"])
    link_latency = _number(src("link_latency"), "link_latency", data["link_latency"])
    shape = _shape(src, topology, data, link_bandwidth, link_latency)
    network = Network(
        name=os.path.splitext(os.path.basename(path))[0], path=path, topology=topology,
        link_bandwidth=link_bandwidth, link_latency=link_latency,
        host_speed=_number(src("host_speed"), "host_speed", data["host_speed"]),
        ranks_per_node=_positive_int(src("ranks_per_node"), "ranks_per_node", data["ranks_per_node"],
                                     RANKS_PER_NODE_LIMIT),
        routing=routing, seed=_positive_int(src("seed"), "seed", data.get("seed", 1)),
        nic_bandwidth=_number(src("nic_bandwidth"), "nic_bandwidth", data.get("nic_bandwidth", link_bandwidth)),
        router_latency=_number(src("router_latency"), "router_latency", data.get("router_latency", 0.0),
                               inclusive=True),
        message_overhead=_number(src("message_overhead"), "message_overhead", data.get("message_overhead", 0.0),
                                 inclusive=True),
        nic_message_overhead=_number(src("nic_message_overhead"), "nic_message_overhead",
                                     data.get("nic_message_overhead", 0.0),
                                     inclusive=True),
        shape=shape, overrides=given)
    if "loopback_bandwidth" in data or "loopback_latency" in data:  # the one not given: its default
        network.loopback_bandwidth = _number(src("loopback_bandwidth"), "loopback_bandwidth",
                                             data.get("loopback_bandwidth", DEFAULT_LOOPBACK[0]))
        network.loopback_latency = _number(src("loopback_latency"), "loopback_latency",
                                           data.get("loopback_latency", DEFAULT_LOOPBACK[1]),
                                           inclusive=True)
    if "stream_per_core" in data:
        network.stream_per_core = _number(src("stream_per_core"), "stream_per_core", data["stream_per_core"])
    if "packet_size" in data:
        network.packet_size = _positive_int(src("packet_size"), "packet_size", data["packet_size"],
                                            PACKET_SIZE_LIMITS[1])
        if network.packet_size < PACKET_SIZE_LIMITS[0]:
            raise NetworkError(f"{src('packet_size')}: packet_size = {network.packet_size} is below "
                               f"{PACKET_SIZE_LIMITS[0]} bytes "
                               f"(a packet's header alone is about that)")
    if "nic_queue" in data:
        network.nic_queue = data["nic_queue"]
        if network.nic_queue not in NIC_QUEUES:
            raise NetworkError(f"{src('nic_queue')}: nic_queue must be {' or '.join(NIC_QUEUES)}, "
                               f"not {network.nic_queue!r}")
    if network.nodes > NODE_LIMIT:
        raise NetworkError(f"{path}: {network.nodes} nodes is more than AMP simulates ({NODE_LIMIT}); "
                           f"no trace needs that many")
    return network


def _shape(src, topology, data, link_bandwidth, link_latency):
    """The topology's own keys, checked; src(key) names where a key's value came from (load)."""
    if topology == "torus":
        dims = _list(src("shape"), "shape", data["shape"], _positive_int)
        shape = {"shape": dims}
        if "dimension_bandwidth" in data:
            shape["dimension_bandwidth"] = _list(src("dimension_bandwidth"), "dimension_bandwidth",
                                                 data["dimension_bandwidth"],
                                                 _number, len(dims))
        return shape
    if topology == "fattree":
        levels = _positive_int(src("levels"), "levels", data["levels"], 8)
        return {"levels": levels,
                **{k: _list(src(k), k, data[k], _positive_int, levels) for k in ("down", "up", "parallel")}}
    if topology == "dragonfly":
        for key in ("groups", "routers_per_group", "nodes_per_router", "global_links_per_pair"):
            _positive_int(src(key), key, data[key])
        if data["groups"] < 2:
            raise NetworkError(f"{src('groups')}: groups must be at least 2, not {data['groups']}")
        return {"groups": data["groups"], "routers_per_group": data["routers_per_group"],
                "nodes_per_router": data["nodes_per_router"], "global_links_per_pair": data["global_links_per_pair"],
                "global_bandwidth": _number(src("global_bandwidth"), "global_bandwidth",
                                            data.get("global_bandwidth", link_bandwidth)),
                "global_latency": _number(src("global_latency"), "global_latency",
                                          data.get("global_latency", link_latency))}
    return {"nodes": _positive_int(src("nodes"), "nodes", data["nodes"])}


# --- the machine's costs every simulator is given ----------------------------------------------
DEFAULT_LOOPBACK = (40e9, 0.0)  # bytes/s, s: ranks of one node when the file gives no loopback


def loopback(network):
    """(bandwidth, latency) between ranks of one node."""
    if network.loopback_bandwidth:
        return network.loopback_bandwidth, network.loopback_latency
    return DEFAULT_LOOPBACK


def per_header(network):
    """Seconds the rank that posts a header is held: its CPU's message_overhead, then the NIC's
    nic_message_overhead (the NIC takes the operation and returns control: seeds/002_* Table 1). Neither
    simulator models a NIC's time per message apart from its bandwidth (SimGrid's NIC is a link; SST-macro's
    snappr NIC serves bytes, sstmac/hardware/snappr/snappr_nic.cc), so both charge it to the posting rank:
    one rank's messages are serialised by both costs, exactly where one rank sends through its NIC; ranks
    that share a NIC are not serialised against each other (docs/TRACE_SIMULATORS.md)."""
    return network.message_overhead + network.nic_message_overhead
