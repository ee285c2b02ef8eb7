# SPDX-License-Identifier: BSD-3-Clause
"""The per-message cost at the NIC (nic_message_overhead): read, keyed, and given to both
simulators as time of the rank that posts each header, beside the CPU's message_overhead."""
from amp_tools import networks
from amp_tools.simulators import sstmac_machine
from amp_tools.simulators import simgrid_machine


def test_both_simulators_charge_the_cpu_and_the_nic_per_header(network_file):
    aries = networks.load(network_file("trinity-haswell"))
    assert aries.message_overhead == 1.6e-7 and aries.nic_message_overhead == 2.5e-8
    assert abs(networks.per_header(aries) - 1.85e-7) < 1e-15
    config = simgrid_machine.simgrid_config(aries)
    assert "--cfg=smpi/os:0:1.85e-07:0" in config and "--cfg=smpi/ois:0:1.85e-07:0" in config
    assert "--cfg=smpi/or:0:0:0;513:1.85e-07:0" in config
    p = sstmac_machine.sstmac_overrides(aries)
    assert p["node.app1.mpi.post_header_delay"] == "185ns"


def test_the_seeds_rates_are_an_order_of_magnitude_apart(network_file):
    seastar, gemini = (networks.load(network_file(n)) for n in ("xt6-seastar", "xe6-gemini"))
    assert networks.per_header(seastar) >= 10 * networks.per_header(gemini) * (1 - 1e-9)


def test_a_nic_cost_changes_the_key_and_none_keeps_it(network_file):
    plain = networks.load(network_file("torus-4x4x4"))
    assert "nic_message_overhead" not in plain.parameters()
    costly = networks.load(network_file("torus-4x4x4"), ["nic_message_overhead=1e-7"])
    assert costly.parameters()["nic_message_overhead"] == 1e-7 and costly.key != plain.key


def test_a_negative_nic_cost_is_refused(network_file):
    try:
        networks.load(network_file("torus-4x4x4"), ["nic_message_overhead=-1e-9"])
    except networks.NetworkError as e:
        assert "nic_message_overhead" in str(e)
    else:
        raise AssertionError("a negative nic_message_overhead was accepted")
