"""Network files (inputs/networks/*.toml): read and validate one, and write what each simulator needs
from it: a SimGrid cluster platform and hostfile, or SST-macro parameter overrides.

A network file names a topology and its shape, link bandwidth (bytes/s) and latency (s), host speed
(flop/s), ranks per node, routing, and optionally the software overhead of one message (s of CPU on
the sender and again on the receiver) and the loopback link between ranks of one node. The keys of each topology are in TOPOLOGIES; README,
"Simulating networks", shows them. Every error is a NetworkError with one line naming file and key.
"""
import math
import os
import tomllib
from dataclasses import dataclass, field

COMMON = {"topology", "link_bandwidth", "link_latency", "host_speed", "ranks_per_node", "routing",
          "message_overhead", "loopback_bandwidth", "loopback_latency"}
OPTIONAL = {"routing", "message_overhead", "loopback_bandwidth", "loopback_latency"}
TOPOLOGIES = {
    "torus": {"shape"},
    "fattree": {"levels", "down", "up", "parallel"},
    "dragonfly": {"groups", "chassis", "routers", "nodes_per_router"},
    "flat": {"nodes"},
}
# Routing each simulator offers on these topologies. SimGrid's cluster zones route in one fixed way:
# dimension order on a torus, up to the nearest common ancestor on a fat tree, minimal on a dragonfly.
ROUTING = {
    "simgrid": {"torus": {"minimal"}, "fattree": {"minimal"}, "dragonfly": {"minimal"}, "flat": {"minimal"}},
    "sstmac": {"torus": {"minimal", "valiant", "ugal"}, "dragonfly": {"minimal", "valiant", "ugal"}},
}


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
    routing: str
    shape: dict = field(default_factory=dict)       # the topology's own keys
    message_overhead: float = 0.0                   # CPU seconds per message, at the sender and the receiver
    loopback_bandwidth: float = 0.0                 # ranks sharing a node (0: SimGrid's default)
    loopback_latency: float = 0.0

    @property
    def nodes(self):
        s = self.shape
        if self.topology == "torus":
            return math.prod(s["shape"])
        if self.topology == "fattree":
            return math.prod(s["down"])
        if self.topology == "dragonfly":
            return s["groups"][0] * s["chassis"][0] * s["routers"][0] * s["nodes_per_router"]
        return s["nodes"]

    @property
    def hosts(self):
        """Ranks this network can hold."""
        return self.nodes * self.ranks_per_node

    def parameters(self):
        """Every network parameter, for the simulation's JSON."""
        out = {"topology": self.topology, "link_bandwidth": self.link_bandwidth, "link_latency": self.link_latency,
               "host_speed": self.host_speed, "ranks_per_node": self.ranks_per_node, "routing": self.routing,
               "message_overhead": self.message_overhead, "nodes": self.nodes}
        if self.loopback_bandwidth:
            out["loopback_bandwidth"] = self.loopback_bandwidth
            out["loopback_latency"] = self.loopback_latency
        out.update(self.shape)
        return out


def _positive_number(path, key, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise NetworkError(f"{path}: {key} must be a positive number, not {value!r}")
    return float(value)


def _positive_int(path, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise NetworkError(f"{path}: {key} must be a positive integer, not {value!r}")
    return value


def _int_list(path, key, value, length=None):
    if not isinstance(value, list) or not value or (length is not None and len(value) != length):
        want = f"a list of {length} positive integers" if length else "a list of positive integers"
        raise NetworkError(f"{path}: {key} must be {want}, not {value!r}")
    return [_positive_int(path, key, v) for v in value]


def load(path):
    if not os.path.isfile(path):
        raise NetworkError(f"{path}: no such network file (see inputs/networks/)")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise NetworkError(f"{path}: not valid TOML ({e})") from None
    topology = data.get("topology")
    if topology not in TOPOLOGIES:
        raise NetworkError(f"{path}: topology must be one of {', '.join(sorted(TOPOLOGIES))}, not {topology!r}")
    allowed = COMMON | TOPOLOGIES[topology]
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise NetworkError(f"{path}: unknown key {unknown[0]!r} for topology {topology!r} "
                           f"(keys: {', '.join(sorted(allowed))})")
    missing = sorted((COMMON - OPTIONAL | TOPOLOGIES[topology]) - set(data))
    if missing:
        raise NetworkError(f"{path}: missing key {missing[0]!r}")
    routing = data.get("routing", "minimal")
    if routing not in {"minimal", "valiant", "ugal"}:
        raise NetworkError(f"{path}: routing must be minimal, valiant or ugal, not {routing!r}")
    shape = {}
    if topology == "torus":
        shape["shape"] = _int_list(path, "shape", data["shape"])
    elif topology == "fattree":
        levels = _positive_int(path, "levels", data["levels"])
        for key in ("down", "up", "parallel"):
            shape[key] = _int_list(path, key, data[key], levels)
        shape = {"levels": levels, **shape}
    elif topology == "dragonfly":
        for key in ("groups", "chassis", "routers"):
            shape[key] = _int_list(path, key, data[key], 2)
        shape["nodes_per_router"] = _positive_int(path, "nodes_per_router", data["nodes_per_router"])
    else:
        shape["nodes"] = _positive_int(path, "nodes", data["nodes"])
    network = Network(
        name=os.path.splitext(os.path.basename(path))[0], path=path, topology=topology,
        link_bandwidth=_positive_number(path, "link_bandwidth", data["link_bandwidth"]),
        link_latency=_positive_number(path, "link_latency", data["link_latency"]),
        host_speed=_positive_number(path, "host_speed", data["host_speed"]),
        ranks_per_node=_positive_int(path, "ranks_per_node", data["ranks_per_node"]),
        routing=routing, shape=shape)
    if "message_overhead" in data:
        value = data["message_overhead"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise NetworkError(f"{path}: message_overhead must be a number of seconds >= 0, not {value!r}")
        network.message_overhead = float(value)
    if "loopback_bandwidth" in data or "loopback_latency" in data:
        network.loopback_bandwidth = _positive_number(path, "loopback_bandwidth", data.get("loopback_bandwidth"))
        network.loopback_latency = _positive_number(path, "loopback_latency", data.get("loopback_latency"))
    return network


def check_fits(network, simulator, ranks):
    """One line when this network cannot run `ranks` ranks in `simulator`, else None."""
    routes = ROUTING[simulator].get(network.topology)
    if routes is None:
        return f"{network.path}: {simulator} has no {network.topology} model in AMP (use simgrid)"
    if network.routing not in routes:
        return (f"{network.path}: {simulator} offers routing {', '.join(sorted(routes))} on a {network.topology}, "
                f"not {network.routing!r}")
    if ranks > network.hosts:
        return (f"{network.path}: the trace has {ranks} ranks, more than the network's {network.nodes} nodes x "
                f"{network.ranks_per_node} ranks per node = {network.hosts}")
    return None


def simgrid_platform(network):
    """The SimGrid platform XML: one cluster of `nodes` hosts, `ranks_per_node` cores each."""
    s = network.shape
    topo = ""
    if network.topology == "torus":
        topo = f' topology="TORUS" topo_parameters="{",".join(map(str, s["shape"]))}"'
    elif network.topology == "fattree":
        parts = [str(s["levels"])] + [",".join(map(str, s[k])) for k in ("down", "up", "parallel")]
        topo = f' topology="FAT_TREE" topo_parameters="{";".join(parts)}"'
    elif network.topology == "dragonfly":
        parts = [",".join(map(str, s[k])) for k in ("groups", "chassis", "routers")] + [str(s["nodes_per_router"])]
        topo = f' topology="DRAGONFLY" topo_parameters="{";".join(parts)}"'
    loopback = ""
    if network.loopback_bandwidth:
        loopback = f' loopback_bw="{network.loopback_bandwidth:.6g}Bps" loopback_lat="{network.loopback_latency:.6g}s"'
    return ("<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<platform version=\"4.1\">\n"
            f"  <cluster id=\"amp\" prefix=\"n\" suffix=\"\" radical=\"0-{network.nodes - 1}\" "
            f"speed=\"{network.host_speed:.6g}f\" core=\"{network.ranks_per_node}\" "
            f"bw=\"{network.link_bandwidth:.6g}Bps\" lat=\"{network.link_latency:.6g}s\"{loopback}{topo}/>\n"
            "</platform>\n")


def simgrid_config(network):
    """smpirun --cfg options: SMPI's bandwidth and latency factors (fitted by SimGrid to one real cluster)
    set to 1, so the file's values are the effective ones, and the per-message software overhead as SMPI's
    send (os) and receive (or) overheads, for every message size."""
    o = f"{network.message_overhead:.6g}"
    return ["--cfg=smpi/bw-factor:0:1", "--cfg=smpi/lat-factor:0:1", f"--cfg=smpi/os:0:{o}:0", f"--cfg=smpi/or:0:{o}:0"]


def hostfile(network, ranks):
    """Rank r runs on node r // ranks_per_node (block placement, as SST-macro's indexing = block)."""
    return "".join(f"n{r // network.ranks_per_node}\n" for r in range(ranks))


def sstmac_overrides(network):
    """`-p key=value` overrides of tools/sstmac/<topology>.ini for this network."""
    s = network.shape
    bw = f"{network.link_bandwidth / 1e9:.6g}GB/s"
    lat = f"{network.link_latency * 1e9:.6g}ns"
    p = {"node.nic.bandwidth": bw, "node.nic.injection.bandwidth": bw, "switch.link.bandwidth": bw,
         "switch.link.latency": lat, "switch.logp.bandwidth": bw, "switch.logp.hop_latency": lat,
         "node.proc.frequency": f"{network.host_speed / 1e9:.6g}GHz"}
    if network.topology == "torus":
        p["topology.geometry"] = "[" + ",".join(map(str, s["shape"])) + "]"
        p["topology.concentration"] = str(network.ranks_per_node)
        p["switch.router.name"] = {"minimal": "torus_minimal", "valiant": "torus_valiant", "ugal": "torus_ugal"}[
            network.routing]
    else:
        groups = s["groups"][0]
        routers = s["chassis"][0] * s["routers"][0]
        p["topology.geometry"] = f"[{routers},{groups}]"
        p["topology.h"] = str(max(1, groups - 1))  # global links per router: every router reaches every group
        p["topology.inter_group"] = "alltoall"  # the shipped file's circulant pattern needs an even h
        p["topology.concentration"] = str(s["nodes_per_router"] * network.ranks_per_node)
        p["switch.router.name"] = {"minimal": "dragonfly_minimal", "valiant": "dragonfly_valiant",
                                   "ugal": "dragonfly_ugal"}[network.routing]
    return p
