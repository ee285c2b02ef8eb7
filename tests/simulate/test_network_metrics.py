#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The readers and figures of tools/amp_tools/network_metrics.py, tools/amp_tools/simulators/*_figures.py and
tools/amp_tools/simulated_profile.py on inputs written
here: SST-macro's CSV and port classes, SimGrid's link names and its own routes on a 4x4x4 torus
(neighbours in x: one x link; (0,0,0) to (1,1,0): one x and one y link), the TI export's sends, the
figures of hand-countable loads, and the profile from replay log lines; SST-macro's start-up and
per-rank profile from its real output (fixtures/sstmac-ghost-2ranks-debug.txt: `--debug=mpi,timestamp`
of amp-ghost bspma synthesized at 2 ranks with 1 ms of compute per variable step, 2 variables, 2 steps,
replayed on torus-4x4x4 with a 200 ns message overhead).

Usage: test_network_metrics.py ROOT WORKDIR BUILD
"""
import os
import shutil
import sys
import unittest

ROOT, WORKDIR, BUILD = sys.argv[1], sys.argv[2], sys.argv[3]
from amp_tools import network_metrics  # noqa: E402
from amp_tools import networks  # noqa: E402
from amp_tools.simulators import simgrid  # noqa: E402
from amp_tools import simulated_profile  # noqa: E402
from amp_tools.simulators import simgrid_figures, sstmac_figures, sstmac_timeline  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "simulate", "fixtures")


def network_file(name, text):
    path = os.path.join(WORKDIR, f"metrics-{name}.toml")
    with open(path, "w") as f:
        f.write(text)
    return networks.load(path)


TORUS = ('topology = "torus"\nshape = [4, 4, 4]\nlink_bandwidth = 1e9\nlink_latency = 1e-6\nhost_speed = 1e9\n'
         'ranks_per_node = 1\n')


class SimgridRoutes(unittest.TestCase):
    def setUp(self):
        self.network = network_file("torus", TORUS)
        folder = os.path.join(WORKDIR, "metrics-torus")
        os.makedirs(folder, exist_ok=True)
        self.platform, self.env = simgrid.platform(self.network, BUILD, folder)

    def classes_of_route(self, source, destination):
        bandwidth, (route,) = simgrid_figures.simgrid_routes(self.platform, [[source, destination]], self.env)
        classes = simgrid_figures.simgrid_link_classes(self.network, bandwidth)
        return sorted(classes[link] for link in route if classes[link] not in simgrid_figures.NOT_LINKS), classes

    def test_neighbours_in_x_cross_one_x_link(self):
        self.assertEqual(self.classes_of_route("n0", "n1")[0], ["x"])
        self.assertEqual(self.classes_of_route("n1", "n0")[0], ["x"])

    def test_diagonal_crosses_one_x_and_one_y_link(self):
        # node 5 is (1,1,0): x varies fastest in SimGrid's torus
        self.assertEqual(self.classes_of_route("n0", "n5")[0], ["x", "y"])
        self.assertEqual(self.classes_of_route("n0", "n16")[0], ["z"])

    def test_nics_are_the_two_ends_only(self):
        # AMP's platform library puts each node behind its own full-duplex NIC: (0,0,0) to (1,1,0) leaves
        # through node 0's NIC and enters through node 5's, and crosses no NIC of the node it transits
        bandwidth, (route,) = simgrid_figures.simgrid_routes(self.platform, [["n0", "n5"]], self.env)
        classes = simgrid_figures.simgrid_link_classes(self.network, bandwidth)
        self.assertEqual([link for link in route if classes[link] == "nic"], ["nic0_UP", "nic5_DOWN"])

    def test_every_link_has_a_class_and_each_dimension_two_per_node(self):
        _, classes = self.classes_of_route("n0", "n1")
        links = [c for c in classes.values() if c not in simgrid_figures.NOT_LINKS]
        self.assertEqual({c: links.count(c) for c in set(links)}, {"x": 128, "y": 128, "z": 128})

    def test_missing_platform_is_one_line(self):
        with self.assertRaisesRegex(network_metrics.MetricsError, "no-such.xml"):
            simgrid_figures.simgrid_routes(os.path.join(WORKDIR, "no-such.xml"), [["n0", "n1"]], self.env)


class SimgridLinkNames(unittest.TestCase):
    def test_torus_dimension_of_size_one_has_no_links(self):
        network = network_file("torus-414", TORUS.replace("[4, 4, 4]", "[4, 1, 4]"))
        names = ["amp_link_from_0_to_0_UP", "amp_link_from_0_to_1_UP", "amp_link_from_0_to_4_DOWN",
                 "amp_link_3_limiter"]
        self.assertEqual(simgrid_figures.simgrid_link_classes(network, names),
                         {"amp_link_from_0_to_1_UP": "x", "amp_link_from_0_to_4_DOWN": "z",
                          "amp_link_3_limiter": "nic"})

    def test_dragonfly_classes(self):
        network = network_file("dragonfly", 'topology = "dragonfly"\ngroups = 8\nrouters_per_group = 32\n'
                               'nodes_per_router = 4\nglobal_links_per_pair = 32\nlink_bandwidth = 1e9\n'
                               'link_latency = 1e-6\nhost_speed = 1e9\nranks_per_node = 1\n')
        names = ["local_link_from_router_0_to_node_0_0_UP", "green_link_in_chassis_0_between_routers_0_and_1_1024_UP",
                 "black_link_in_group_0_between_chassis_0_and_1_blade_2_1922_UP",
                 "blue_link_between_group_0_and_2_routers_2_and_64_2305_UP", "__loopback__", "amp_limiter_3"]
        self.assertEqual(list(simgrid_figures.simgrid_link_classes(network, names).values()),
                         ["node", "local", "local", "global", "loopback", "nic"])

    def test_fat_tree_levels_from_the_link_graph(self):
        network = network_file("fattree", 'topology = "fattree"\nlevels = 2\ndown = [2, 2]\nup = [1, 2]\n'
                               'parallel = [1, 1]\nlink_bandwidth = 1e9\nlink_latency = 1e-6\nhost_speed = 1e9\n'
                               'ranks_per_node = 1\n')
        names = ["link_from_0_10_0_UP", "link_from_3_11_3_DOWN", "link_from_10_20_7_UP", "link_from_11_21_8_DOWN"]
        self.assertEqual(list(simgrid_figures.simgrid_link_classes(network, names).values()),
                         ["node", "node", "level1", "level1"])


class SstmacReaders(unittest.TestCase):
    def test_csv(self):
        path = os.path.join(WORKDIR, "metrics-stats.csv")
        with open(path, "w") as f:
            f.write("name,component,total\nbytes_sent,Switch:0.Port:0,4096\nbytes_sent,Switch:0.Port:6,12\n")
        self.assertEqual(sstmac_figures.read_sstmac_csv(path), {"Switch:0.Port:0": 4096, "Switch:0.Port:6": 12})

    def test_torus_ports(self):
        classes = [sstmac_figures.sstmac_link_class("torus", [4, 4, 4], 0, 0, port) for port in range(8)]
        self.assertEqual(classes, ["x", "x", "y", "y", "z", "z", "node", "node"])
        self.assertEqual(sstmac_figures.sstmac_link_class("torus", [4, 1, 4], 0, 0, 2), None)

    def test_dragonfly_ports(self):
        # switch 5 of a 4-router group is router 1 of group 1: its port 1 leads nowhere
        classes = [sstmac_figures.sstmac_link_class("dragonfly", [4, 9], 8, 5, port) for port in range(14)]
        self.assertEqual(classes, ["local", None, "local", "local"] + ["global"] * 8 + ["node"] * 2)


class Figures(unittest.TestCase):
    def test_hand_counted_load(self):
        # 1000 bytes over x then y (2 hops) from NIC 0; 500 bytes over x from NIC 1; 1 s at 1000 B/s.
        links = [("a", "x", 1500, 1000.0), ("b", "y", 1000, 1000.0), ("c", "y", 0, 1000.0), ("e", "node", 1500, 1000.0)]
        f = network_metrics.network_figures(links, [1000, 500], [2, 1], 1.0, nic_hop_bytes=[2000, 500])
        self.assertEqual(f["nics"]["injected_bytes"], {"min": 500, "mean": 750, "max": 1000, "total": 1500})
        self.assertEqual(f["nics"]["injected_messages"]["total"], 3)
        self.assertEqual(f["links"]["x"]["bytes"], 1500)
        self.assertEqual(f["links"]["y"]["count"], 2)
        self.assertAlmostEqual(f["links"]["y"]["mean_utilization"], 0.5)
        self.assertAlmostEqual(f["links"]["x"]["max_utilization"], 1.5)
        self.assertAlmostEqual(f["hops"]["mean_per_byte"], 2500 / 1500)  # node links are no hop
        self.assertEqual(f["hops"]["per_nic"], [2.0, 1.0])
        self.assertEqual([h["name"] for h in f["hottest_links"]], ["e", "a", "b"])  # unloaded links left out

    def test_ti_traffic_and_nodes(self):
        export = os.path.join(WORKDIR, "metrics-export")
        shutil.rmtree(export, ignore_errors=True)
        os.makedirs(export)
        for rank, text in enumerate(["0 init\n0 isend 1 0 300\n0 send 2 5 100\n0 recv 1 0 8\n0 allreduce 128 0\n",
                                     "1 send 0 0 8\n1 irecv 0 0 300\n1 wait 0 1 0\n", ""]):
            with open(os.path.join(export, f"rank-{rank}.txt"), "w") as f:
                f.write(text)
        traffic = network_metrics.ti_traffic(export, [0, 1, 2])
        self.assertEqual(traffic, {(0, 1): [300, 1], (0, 2): [100, 1], (1, 0): [8, 1]})
        self.assertEqual(network_metrics.ti_traffic(export, [0, 1, 2], larger_than=256), {(0, 1): [300, 1]})
        between, inside = network_metrics.node_traffic(traffic, {0: "n0", 1: "n0", 2: "n1"})
        self.assertEqual((between, inside), ({("n0", "n1"): [100, 1]}, 308))


class Profile(unittest.TestCase):
    def test_actions_take_the_time_since_the_previous_end(self):
        actions = simulated_profile.SimgridActions()
        for end, text in [(1e-6, "0 irecv 1 0 8 0.000000"), (11e-6, "0 compute 10000 0.000010"),
                          (15e-6, "0 wait 1 0 0 0.000004"), (20e-6, "0 allreduce 8 0 0.000005"),
                          (10e-6, "1 compute 10000 0.000010"), (20e-6, "1 barrier 0.000010")]:
            actions.add(end, text)
        p = actions.profile([0, 1], [20e-6, 20e-6])
        self.assertAlmostEqual(p["per_rank"]["p2p"][0], 5e-6)
        self.assertAlmostEqual(p["per_rank"]["compute"][0], 10e-6)
        self.assertAlmostEqual(p["compute"], 0.5)
        self.assertAlmostEqual(p["collective"], (5 / 20 + 10 / 20) / 2)
        self.assertAlmostEqual(p["p2p"] + p["compute"] + p["collective"], 1.0)


class SstmacTimeline(unittest.TestCase):
    """Worked by hand from the fixture: rank 0 leaves MPI_Init at 2.43 us, rank 1 (the last) at 3.43; from
    then, rank 0's collectives are Comm_split to 4.63, Comm_dup 4.63-7.03, Allreduce 2009.56-2011.96 and
    4013.43-4015.83 (8.40 us); its point-to-point lines span 3.60 us (Waitalls 7.23-9.24, 9.24-9.36 and
    2011.96-2013.43), and each of its two Isends spent 0.20 us of overhead before its line; MPI_Finalize
    4015.83-4016.43. The trace gives each rank 4 ms of compute."""

    def setUp(self):
        self.timeline = sstmac_timeline.Timeline(2)
        with open(os.path.join(FIXTURES, "sstmac-ghost-2ranks-debug.txt")) as f:
            self.other = [line for line in f if not self.timeline.add(line)]

    def test_only_debug_lines_are_consumed(self):
        self.assertIn("Estimated total runtime of           0.00401703 seconds\n", self.other)
        self.assertFalse(any(line.startswith("T=") for line in self.other))

    def test_init_times_per_rank(self):
        self.assertEqual(self.timeline.init_times(), {0: (0.00000001, 0.00000243), 1: (0.00000103, 0.00000343)})
        self.assertEqual(self.timeline.start, 0.00000343)

    def test_calls_per_rank(self):
        rank0, rank1 = self.timeline.per_rank()
        for got, expected in ((rank0, dict(p2p=3.60e-6, collective=8.40e-6, entered_finalize=4015.83e-6,
                                           end=4016.43e-6)),
                              (rank1, dict(p2p=4.00e-6, collective=7.40e-6, entered_finalize=4015.23e-6,
                                           end=4017.03e-6))):
            for key, seconds in expected.items():
                self.assertAlmostEqual(got[key], seconds, delta=1e-12, msg=key)

    def test_a_rank_without_its_lines_is_refused(self):
        three = sstmac_timeline.Timeline(3)
        with open(os.path.join(FIXTURES, "sstmac-ghost-2ranks-debug.txt")) as f:
            for line in f:
                three.add(line)
        with self.assertRaisesRegex(sstmac_timeline.TimelineError, "no MPI_Init of rank 2"):
            three.init_times()
        truncated = sstmac_timeline.Timeline(2)
        with open(os.path.join(FIXTURES, "sstmac-ghost-2ranks-debug.txt")) as f:
            for line in f:
                if "MPI_Finalize()" not in line:
                    truncated.add(line)
        with self.assertRaisesRegex(sstmac_timeline.TimelineError, "no end of MPI_Finalize of rank 0"):
            truncated.per_rank()

    def test_profile_is_the_traces_compute_and_the_calls(self):
        start = 3.43e-6  # the last rank left MPI_Init
        p = simulated_profile.sstmac_profile(self.timeline.per_rank(), start, [4e-3, 4e-3])
        for rank in (0, 1):
            self.assertAlmostEqual(p["per_rank"]["compute"][rank], 4e-3, delta=1e-12)
        # the Isends' overhead, before their lines, is point-to-point, not compute
        self.assertAlmostEqual(p["per_rank"]["p2p"][0], 4.00e-6, delta=1e-12)
        self.assertAlmostEqual(p["per_rank"]["collective"][0], 8.40e-6, delta=1e-12)
        self.assertAlmostEqual(p["per_rank_finish"][1], 4017.03e-6 - start, delta=1e-12)
        spans = (4015.83e-6 - start, 4015.23e-6 - start)  # MPI_Finalize (a barrier) is in no kind
        self.assertAlmostEqual(p["p2p"], (4.00e-6 / spans[0] + 4.40e-6 / spans[1]) / 2, delta=1e-12)
        self.assertAlmostEqual(p["compute"] + p["p2p"] + p["collective"], 1.0)

    def test_compute_is_never_more_than_the_time_outside_calls(self):
        p = simulated_profile.sstmac_profile(self.timeline.per_rank(), 3.43e-6, [1.0, 0.0])
        self.assertAlmostEqual(p["per_rank"]["compute"][0], 4015.83e-6 - 3.43e-6 - 3.60e-6 - 8.40e-6, delta=1e-12)
        self.assertEqual(p["per_rank"]["compute"][1], 0.0)

    def test_compute_is_never_negative(self):
        # the calls' spans longer than the rank's time from `start` (a late start): compute 0, the rest p2p
        late = 4015.0e-6
        p = simulated_profile.sstmac_profile(self.timeline.per_rank(), late, [0.0, 1.0])
        for rank in (0, 1):
            self.assertEqual(p["per_rank"]["compute"][rank], 0.0)
            self.assertGreaterEqual(p["per_rank"]["p2p"][rank], 0.0)
        # every rank in MPI_Finalize before the last one left MPI_Init: no time, no kind below 0
        p = simulated_profile.sstmac_profile(self.timeline.per_rank(), 5e-3, [0.0, 0.0])
        for kind in simulated_profile.KINDS:
            self.assertEqual(p["per_rank"][kind], [0.0, 0.0])
            self.assertEqual(p[kind], 0.0)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
