# SPDX-License-Identifier: BSD-3-Clause
"""Network files into machines and into each simulator's terms (amp_tools.networks): loading, keys set on
top, the one-line refusals, SimGrid's configuration and SST-macro's parameter overrides."""
import math

import pytest

from amp_tools import networks
from amp_tools import simulators
from amp_tools.simulators import sstmac_machine
from amp_tools.simulators import simgrid_machine


def test_a_torus_file_loads_with_its_defaults(network_file):
    torus = networks.load(network_file("torus-4x4x4"))
    assert (torus.name, torus.topology, torus.nodes, torus.hosts) == ("torus-4x4x4", "torus", 64, 64)
    assert torus.nic_bandwidth == torus.link_bandwidth == 10e9
    assert torus.link_classes() == {"x": (10e9, 1e-6), "y": (10e9, 1e-6), "z": (10e9, 1e-6)}


def test_keys_set_on_top_change_the_machine_and_its_key(network_file):
    path = network_file("torus-4x4x4")
    plain, four = networks.load(path), networks.load(path, ["ranks_per_node=4"])
    assert four.hosts == 4 * plain.hosts and four.overrides == {"ranks_per_node": 4}
    assert four.key != plain.key and four.label == f"torus-4x4x4-{four.key}"
    assert networks.load(path, {"ranks_per_node": 4}).key == four.key  # a dict or KEY=VALUE: one machine
    assert networks.load(path).key == plain.key


def test_a_bare_word_is_a_string_value(network_file):
    assert networks.load(network_file("torus-4x4x4"), ["routing=valiant"]).routing == "valiant"


@pytest.mark.parametrize("overrides, words", [
    (["colour=1"], "unknown key 'colour' for topology 'torus'"),
    (["routing=zigzag"], "routing must be minimal, valiant, ugal, not 'zigzag'"),
    (["ranks_per_node"], "--set takes KEY=VALUE"),
    (["link_bandwidth=-1"], "link_bandwidth"),
    (["packet_size=32"], "packet_size = 32 is below 64 bytes"),
    (["packet_size=4096.5"], "packet_size must be a positive integer"),
    ([f"packet_size={(1 << 20) + 1}"], "above the limit of 1048576"),
    (["nic_queue=lifo"], "nic_queue must be round_robin or fifo, not 'lifo'"),
])
def test_bad_keys_are_one_line_naming_the_file(network_file, overrides, words):
    path = network_file("torus-4x4x4")
    with pytest.raises(networks.NetworkError) as refused:
        networks.load(path, overrides)
    assert str(refused.value).startswith(path) and words in str(refused.value) and "\n" not in str(refused.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(networks.NetworkError, match="no such network file"):
        networks.load(str(tmp_path / "nothing.toml"))


def test_each_simulator_refuses_what_it_cannot_express(network_file):
    torus = network_file("torus-4x4x4")
    assert simulators.refusal(networks.load(torus), "simgrid") is None
    assert simulators.refusal(networks.load(torus), "sstmac") is None
    valiant = networks.load(torus, ["routing=valiant"])
    assert "offers routing minimal on a torus, not 'valiant'" in simulators.refusal(valiant, "simgrid")
    assert simulators.refusal(valiant, "sstmac") is None
    odd_nic = networks.load(torus, ["nic_bandwidth=10.0001e9"])  # 100001 x 100 kB/s: past 1000 links a port
    assert "must be whole multiples of one bandwidth, at most 1000 times it" in simulators.refusal(odd_nic, "sstmac")


def test_check_fits_refuses_more_ranks_than_hosts(network_file):
    torus = networks.load(network_file("torus-4x4x4"))
    assert simulators.check_fits(torus, "simgrid", 64) is None
    assert "65" in simulators.check_fits(torus, "simgrid", 65)


def test_simgrid_config_sets_factors_to_one_and_the_message_overhead(network_file):
    config = simgrid_machine.simgrid_config(networks.load(network_file("torus-4x4x4")))
    assert "--cfg=smpi/bw-factor:0:1" in config
    assert "--cfg=smpi/os:0:2e-07:0" in config and "--cfg=smpi/or:0:0:0;513:2e-07:0" in config
    assert not [c for c in config if "crosstraffic" in c]  # the export's (test_replay_settings_one_place.py)


def test_sstmac_overrides_of_a_torus(network_file):
    p = sstmac_machine.sstmac_overrides(networks.load(network_file("torus-4x4x4"), ["nic_bandwidth=20e9"]))
    assert p["topology.geometry"] == "[4,4,4]"
    assert p["switch.link.bandwidth"] == "10GB/s" and p["topology.injection_redundant"] == "2"
    assert p["switch.router.name"] == "torus_minimal" and p["node.proc.frequency"] == "1GHz"


def test_sstmac_torus_ports_scale_from_one_common_bandwidth(network_file):
    # SeaStar (001 Table I): 4.0 GB/s links, 2.2 GB/s NIC -> 0.2 GB/s ports, 20 per link and 11 to the NIC
    seastar = networks.load(network_file("torus-4x4x4"), ["link_bandwidth=4.0e9", "nic_bandwidth=2.2e9"])
    assert simulators.refusal(seastar, "sstmac") is None
    p = sstmac_machine.sstmac_overrides(seastar)
    assert p["switch.link.bandwidth"] == "0.2GB/s" and p["topology.redundant"] == "[20,20,20]"
    assert p["topology.injection_redundant"] == "11" and p["node.nic.injection.bandwidth"] == "2.2GB/s"
    assert p["switch.credits"] == "5819B"  # the ejection port's 11 x 5819 B: the file's 64 KB (SI) again
    # where every bandwidth is a whole multiple of the links', the translation is the one it always was
    plain = sstmac_machine.sstmac_overrides(networks.load(network_file("torus-4x4x4")))
    assert plain["switch.link.bandwidth"] == "10GB/s" and plain["topology.injection_redundant"] == "1"
    assert plain["topology.redundant"] == "[1,1,1]" and "switch.credits" not in plain


def test_sstmac_overrides_of_a_dragonfly_give_its_global_links(network_file):
    dragonfly = networks.load(network_file("dragonfly-1024"))
    p = sstmac_machine.sstmac_overrides(dragonfly)
    s = dragonfly.shape
    assert p["topology.geometry"] == f"[{s['routers_per_group']},{s['groups']}]"
    assert p["topology.h"] == str(s["global_links_per_pair"] // s["routers_per_group"] * (s["groups"] - 1))
    assert p["topology.concentration"] == str(s["nodes_per_router"])


def test_packet_size_is_sstmac_s_packet_and_its_nic_buffer_and_changes_the_machine_s_key(network_file):
    path = network_file("torus-4x4x4")
    plain, small = networks.load(path), networks.load(path, ["packet_size=1024"])
    assert "packet_size" not in plain.parameters()  # a file without it keeps its key (and its outputs' names)
    assert small.parameters()["packet_size"] == 1024 and small.key != plain.key
    p, q = sstmac_machine.sstmac_overrides(plain), sstmac_machine.sstmac_overrides(small)
    assert p["node.nic.mtu"] == "4096B" and q["node.nic.mtu"] == "1024B"
    # the buffer covers the round trip to the router (none on a torus) and two packets
    assert p["node.nic.buffer"] == "8193B" and q["node.nic.buffer"] == "2049B"
    assert sstmac_machine.sstmac_description(small, "sstmac")["packet_size"] == 1024
    assert "fluid" in simgrid_machine.simgrid_description(small)["packets"]


def test_sstmac_nic_buffer_is_one_rule_however_many_ranks_share_the_nic_and_the_queue_is_chosen(network_file):
    xe6 = networks.load(network_file("xe6-gemini"))  # 16 ranks to a NIC
    p = sstmac_machine.sstmac_overrides(xe6)
    assert xe6.ranks_per_node == 16 and p["node.nic.buffer"] == "8193B" and p["node.nic.queue"] == "round_robin"
    assert sstmac_machine.sstmac_overrides(xe6, "fifo")["node.nic.queue"] == "fifo"
    assert sstmac_machine.sstmac_description(xe6, "sstmac ...", "fifo")["injection_queue"] == "fifo"
    assert sstmac_machine.SSTMAC_QUEUES == ("round_robin", "fifo")


def test_a_nic_queue_given_is_the_one_every_simulator_replays_with_or_refuses(network_file):
    from amp_tools.simulators import codes_machine, sstmac
    path = network_file("xe6-gemini")
    plain, fifo, fair = (networks.load(path, given) for given in ([], ["nic_queue=fifo"], ["nic_queue=round_robin"]))
    assert plain.nic_queue == "" and "nic_queue" not in plain.parameters()  # absent: the keys stay as they were
    assert len({plain.key, fifo.key, fair.key}) == 3 and fifo.parameters()["nic_queue"] == "fifo"
    assert sstmac.sstmac_queues(plain) == ("round_robin", "fifo")  # round robin, then FIFO where it stops short
    assert sstmac.sstmac_queues(fifo) == ("fifo",) and sstmac.sstmac_queues(fair) == ("round_robin",)
    assert "without nic_queue the replay goes on with its FIFO queue" in sstmac.stopped_why(fair)
    with_folder = lambda n: codes_machine.params(n, "/tmp")["modelnet_scheduler"]  # noqa: E731
    assert (with_folder(plain), with_folder(fifo), with_folder(fair)) == ("round-robin", "fcfs", "round-robin")
    assert "cannot serve one message after the other" in simulators.refusal(fifo, "simgrid")
    assert simulators.refusal(fair, "simgrid") is None and simulators.refusal(fifo, "sstmac") is None


def test_sstmac_routers_draw_from_a_clock_stopped_at_the_seed_and_need_libfaketime(network_file, monkeypatch):
    path = network_file("cascade-dragonfly")
    valiant, minimal = networks.load(path, ["routing=valiant", "seed=2"]), networks.load(path)
    assert "switch.router.seed" not in sstmac_machine.sstmac_overrides(valiant)  # its draws can loop forever
    env = sstmac_machine.sstmac_environment(valiant, "/lib/libfaketime.so.1")
    assert (env["LD_PRELOAD"], env["FAKETIME"], env["TZ"]) == ("/lib/libfaketime.so.1", "1970-01-01 00:00:02", "UTC")
    assert sstmac_machine.sstmac_environment(minimal, "/lib/libfaketime.so.1") is None  # it draws nothing
    assert sstmac_machine.sstmac_description(valiant, "sstmac ...")["router_seed"] == sstmac_machine.ROUTER_SEED
    monkeypatch.setattr(sstmac_machine, "SSTMAC_CLOCK_LIBRARY", "/nowhere/libfaketime.so.1")
    assert "install Debian's libfaketime" in simulators.refusal(valiant, "sstmac")
    assert simulators.refusal(minimal, "sstmac") is None


def test_sstmac_credits_hold_two_packets_per_virtual_channel(network_file):
    # the shipped 4 KiB packets keep tools/sstmac/*.ini's 64 KB everywhere
    for routing in networks.ROUTINGS:
        for name in ("torus-4x4x4", "dragonfly-1024"):
            p = sstmac_machine.sstmac_overrides(networks.load(network_file(name), [f"routing={routing}"]))
            assert "switch.credits" not in p and "node.nic.credits" not in p
    # 64 KiB packets: a torus' 2 channels and its NIC hold two each (64 KB held none: a deadlock)
    big = sstmac_machine.sstmac_overrides(networks.load(network_file("torus-4x4x4"), ["packet_size=65536"]))
    assert big["switch.credits"] == f"{2 * 2 * 65536}B" and big["node.nic.credits"] == f"{2 * 65536}B"
    # a dragonfly's valiant has 6 channels: 8 KiB packets already need more than 64 KB
    valiant = networks.load(network_file("dragonfly-1024"), ["routing=valiant", "packet_size=8192"])
    p = sstmac_machine.sstmac_overrides(valiant)
    assert p["switch.credits"] == f"{6 * 2 * 8192}B" and "node.nic.credits" not in p
    # where ports are scaled (SeaStar: 11 links to the NIC at least), the least scaled port holds them
    seastar = networks.load(network_file("torus-4x4x4"), ["link_bandwidth=4.0e9", "nic_bandwidth=2.2e9",
                                                          "packet_size=65536"])
    assert sstmac_machine.sstmac_overrides(seastar)["switch.credits"] == f"{math.ceil(4 * 65536 / 11)}B"
